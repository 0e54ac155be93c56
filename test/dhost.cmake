# The device library's host side (helper "dhost", issue 15): device memory,
# shmemd_memcpy and host operations in stream order, start-up from a unique
# id without oshrun.
oshm_pe_program(device_host)
oshm_pe_test(device_host NPES 1 2 4)
add_test(NAME pe.device_host.badpe.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:device_host> badpe)
set_tests_properties(pe.device_host.badpe.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
  LABELS "pe;device" PASS_REGULAR_EXPRESSION "shmemd_putmem_on_stream: .*PE 2")
add_test(NAME pe.device_host.badcopy.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:device_host> badcopy)
set_tests_properties(pe.device_host.badcopy.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
  LABELS "pe;device" PASS_REGULAR_EXPRESSION "bad copies refused")
if(OSHM_HAVE_UCX)
  foreach(n 2 4)
    add_test(NAME pe.device_host.ucx.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:device_host>)
    set_tests_properties(pe.device_host.ucx.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;device;ucx" ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp;SHMEM_SYMMETRIC_SIZE=64M")
  endforeach()
endif()

# Started without oshrun: the program forks its processes itself.
oshm_pe_program(device_host_uid)
foreach(n 1 2 3)
  add_test(NAME pe.device_host.uid.np${n} COMMAND $<TARGET_FILE:device_host_uid> ${n})
  set_tests_properties(pe.device_host.uid.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;device" PASS_REGULAR_EXPRESSION "${n} processes passed")
endforeach()
add_test(NAME pe.device_host.uid.stranger COMMAND $<TARGET_FILE:device_host_uid> stranger)
set_tests_properties(pe.device_host.uid.stranger PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
  LABELS "pe;device" PASS_REGULAR_EXPRESSION "refused a bootstrap connection from [0-9.]+ port [0-9]+: not a member of this job.*2 processes passed")
if(OSHM_HAVE_UCX)
  add_test(NAME pe.device_host.uid.ucx.np3 COMMAND $<TARGET_FILE:device_host_uid> 3)
  set_tests_properties(pe.device_host.uid.ucx.np3 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;device;ucx" PASS_REGULAR_EXPRESSION "3 processes passed"
    ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp;SHMEM_SYMMETRIC_SIZE=64M")
endif()
add_test(NAME pe.device_host.uid.abort COMMAND $<TARGET_FILE:device_host_uid> abort)
set_tests_properties(pe.device_host.uid.abort PROPERTIES TIMEOUT 60
  LABELS "pe;device" PASS_REGULAR_EXPRESSION "rank 2 ended with 7.*3 processes ended, passed")
