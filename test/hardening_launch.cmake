# oshrun against strangers at its bootstrap socket (silent, one byte, a
# wrong secret, a flood, another user, over unix and TCP), where the local
# TCP bootstrap listens, and jobs larger than the open-file soft limit or too
# large for the hard one (test/launch_hardening_test.sh).
add_test(NAME launcher.hardening COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/launch_hardening_test.sh
  ${OSHRUN} $<TARGET_FILE:faults> ${CMAKE_CURRENT_SOURCE_DIR}/stranger.py)
# Checks /dev/shm before and after, like the launcher test; alone, like it,
# because its cases have time limits.
set_tests_properties(launcher.hardening PROPERTIES TIMEOUT 600 LABELS launcher
  RESOURCE_LOCK dev_shm RUN_SERIAL ON)
# 400 PEs under AddressSanitizer take well over a minute on 2 cores: the 100-PE
# case under a lower soft limit shows the same there, and 40 PEs that open
# files do not grow with the job.
if(OSHM_SANITIZE)
  set_tests_properties(launcher.hardening PROPERTIES ENVIRONMENT
    "OSHM_TEST_FDLIMIT_NPES=0;OSHM_TEST_SCALE_NPES=40")
endif()
