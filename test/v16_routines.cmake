# The OpenSHMEM 1.6 routines: a chapter of the verification suite
# (test/openshmem-verification/v16_routines.c, built beside the other
# chapters so that summary.sh shows it), run like them at 1, 2, 4 and 5 PEs,
# over UCX and mixed; and the 1.6 name list (shared/) exported, declared and,
# for the C11 generic names, defined.
set(OSHM_VV_DIR ${CMAKE_CURRENT_BINARY_DIR}/openshmem-verification)
add_executable(vv_v16_routines ${CMAKE_CURRENT_SOURCE_DIR}/openshmem-verification/v16_routines.c)
target_link_libraries(vv_v16_routines PRIVATE shmem)
set_target_properties(vv_v16_routines PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${OSHM_VV_DIR})
foreach(n 1 2 4 5)
  add_test(NAME vv.v16_routines.np${n}
    COMMAND $<TARGET_FILE:oshrun> -np ${n} $<TARGET_FILE:vv_v16_routines>)
  set_tests_properties(vv.v16_routines.np${n} PROPERTIES TIMEOUT 300 LABELS verification)
endforeach()
if(OSHM_HAVE_UCX)
  foreach(n 2 4)
    add_test(NAME vv.v16_routines.ucx.np${n}
      COMMAND $<TARGET_FILE:oshrun> -np ${n} $<TARGET_FILE:vv_v16_routines>)
    set_tests_properties(vv.v16_routines.ucx.np${n} PROPERTIES TIMEOUT 300
      LABELS "verification;ucx" ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
  endforeach()
  add_test(NAME vv.v16_routines.mixed.np4
    COMMAND $<TARGET_FILE:oshrun> -np 4 $<TARGET_FILE:vv_v16_routines>)
  set_tests_properties(vv.v16_routines.mixed.np4 PROPERTIES TIMEOUT 300
    LABELS "verification;ucx" ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
endif()

add_test(NAME api_names.v16 COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/api_names_test.sh
  ${PROJECT_SOURCE_DIR}/../shared/openshmem-1.6-new-api.txt $<TARGET_FILE:shmem>
  ${PROJECT_BINARY_DIR}/bin/oshcc shmem_ibget shmem_ibput shmem_sum_inscan shmem_sum_exscan)
set_tests_properties(api_names.v16 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS api
  SKIP_RETURN_CODE 77)

# Bad input to the 1.6 routines: a clear error naming the routine.
add_executable(v16_errors ${CMAKE_CURRENT_SOURCE_DIR}/pe/v16_errors.c)
target_link_libraries(v16_errors PRIVATE shmem)
foreach(case_and_message
    "ibput_stride|shmem_long_ibput: block size 3 with strides dst 2 and sst 4"
    "ibget_stride|shmem_ibget32: block size 2 with strides dst 4 and sst 1"
    "ibput_range|shmem_long_ibput: address .* is not symmetric"
    "ibput_wrap|shmem_long_ibput: address .* is not symmetric"
    "pe_quiet_pe|shmem_ctx_pe_quiet: .*PE"
    "pe_quiet_null|shmem_ctx_pe_quiet: target_pes is NULL with npes 1"
    "signal_add_pe|shmem_signal_add: .*PE"
    "session_config|shmem_ctx_session_start: config is NULL"
    "scan_team|shmem_long_sum_inscan: .*team")
  string(REPLACE "|" ";" parts "${case_and_message}")
  list(GET parts 0 case)
  list(SUBLIST parts 1 -1 messages)
  string(REPLACE ";" "|" message "${messages}")
  add_test(NAME v16_errors.${case} COMMAND $<TARGET_FILE:oshrun> -np 2 $<TARGET_FILE:v16_errors> ${case})
  set_tests_properties(v16_errors.${case} PROPERTIES TIMEOUT 60 LABELS pe
    PASS_REGULAR_EXPRESSION "${message}" FAIL_REGULAR_EXPRESSION "no error for case")
endforeach()
