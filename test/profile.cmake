# The built-in profiler (SHMEM_PROFILE, src/prof; test/profile_test.sh):
# exact counts of a program with known traffic at 1 to 4 PEs over shared
# memory and over UCX, then the rest (sampling, a pshmem_* tool linked in,
# threads and contexts, a device kernel, a directory that cannot be
# written, oshrun --profile, oshm_prof) in one test.
oshm_pe_program(profile_counts)
oshm_pe_program(profile_threads)
# A tool over the profiling names, as a shared library the program links
# before libshmem (its shmem_putmem wins, and calls pshmem_putmem).
add_library(profile_wrapper SHARED pe/profile_wrapper.c)
target_link_libraries(profile_wrapper PRIVATE shmem)
target_include_directories(profile_wrapper PRIVATE ${PROJECT_BINARY_DIR}/include)
add_dependencies(profile_wrapper pshmem_header)
add_executable(profile_counts_wrapped pe/profile_counts.c)
target_include_directories(profile_counts_wrapped PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/pe)
target_link_libraries(profile_counts_wrapped PRIVATE profile_wrapper shmem)

set(PROFILE_TEST ${CMAKE_CURRENT_SOURCE_DIR}/profile_test.sh)
add_test(NAME profile.counts.shm
         COMMAND ${PROFILE_TEST} counts shm ${PROJECT_BINARY_DIR}/bin $<TARGET_FILE:profile_counts>)
set_tests_properties(profile.counts.shm PROPERTIES TIMEOUT 180 LABELS "pe;profile")
if(OSHM_HAVE_UCX)
  add_test(NAME profile.counts.ucx
           COMMAND ${PROFILE_TEST} counts ucx ${PROJECT_BINARY_DIR}/bin $<TARGET_FILE:profile_counts>)
  set_tests_properties(profile.counts.ucx PROPERTIES TIMEOUT 180 LABELS "pe;profile;ucx")
endif()
add_test(NAME profile.tools
         COMMAND ${PROFILE_TEST} tools ${PROJECT_BINARY_DIR}/bin $<TARGET_FILE:profile_counts>
                 $<TARGET_FILE:profile_counts_wrapped> $<TARGET_FILE:profile_threads>
                 $<TARGET_FILE:example_allgather>)
set_tests_properties(profile.tools PROPERTIES TIMEOUT 300 LABELS "pe;profile")
# Under mpirun (PMIx): PE 0's table counts every PE's calls.
if(MPIRUN AND OSHM_HAVE_PMIX)
  add_test(NAME pmix.profile.np2 COMMAND ${MPIRUN} --allow-run-as-root --oversubscribe
    -np 2 -x SHMEM_PROFILE=summary $<TARGET_FILE:profile_counts>)
  set_tests_properties(pmix.profile.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pmix;profile" RESOURCE_LOCK dev_shm PASS_REGULAR_EXPRESSION "put +2000 +16000 "
    ENVIRONMENT "OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1")
  # A trace there: PE 0 merges it (oshrun does where it launched the job).
  add_test(NAME pmix.profile.trace.np2
           COMMAND ${PROFILE_TEST} pmix ${MPIRUN} $<TARGET_FILE:profile_counts>)
  set_tests_properties(pmix.profile.trace.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pmix;profile" RESOURCE_LOCK dev_shm)
endif()
