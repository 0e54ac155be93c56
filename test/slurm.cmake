# A real Slurm (munged, slurmctld, slurmd) started on this machine by
# test/slurm_test.sh and torn down after: srun with each --mpi, sbatch and
# salloc running oshrun, a crashing PE, shmem_global_exit. Skipped (ctest
# reports "Skipped" with the reason in the output) only when Slurm or munge
# is not installed or Slurm lacks its PMIx plugin; installed daemons that do
# not start fail the test.
if(OSHM_HAVE_PMIX)
  add_test(NAME slurm COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/slurm_test.sh
    $<TARGET_FILE:ring> $<TARGET_FILE:faults> $<TARGET_FILE:where>)
  set_tests_properties(slurm PROPERTIES TIMEOUT 600 LABELS "slurm;launcher"
    SKIP_RETURN_CODE 77 RESOURCE_LOCK dev_shm)
else()
  message(STATUS "PMIx missing: the Slurm test (srun --mpi=pmix) is not registered")
endif()
