# oshrun's options as mpirun and hydra users type them, each checked from
# inside the PEs (test/oshrun_options_test.sh), and a real Slurm on this
# machine (test/slurm.cmake).
oshm_pe_program(where)
add_test(NAME launcher.options COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/oshrun_options_test.sh
  ${OSHRUN} $<TARGET_FILE:where>)
set_tests_properties(launcher.options PROPERTIES TIMEOUT 300 LABELS launcher
  RESOURCE_LOCK dev_shm)
include(${CMAKE_CURRENT_SOURCE_DIR}/slurm.cmake)
