# OpenSHMEM 1.6's semantic changes to 1.5 routines (issue 16): the
# verification chapter v16_semantics, and repeated init/finalize as a
# program of its own that checks what each life leaves behind.

set(v16_vv_dir ${CMAKE_CURRENT_BINARY_DIR}/openshmem-verification)
add_executable(vv_v16_semantics openshmem-verification/v16_semantics.c)
target_link_libraries(vv_v16_semantics PRIVATE shmem)
set_target_properties(vv_v16_semantics PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${v16_vv_dir})
foreach(n 1 2 4 5)
  add_test(NAME vv.v16_semantics.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:vv_v16_semantics>)
  set_tests_properties(vv.v16_semantics.np${n} PROPERTIES TIMEOUT 300 LABELS verification
    FAIL_REGULAR_EXPRESSION "FAIL")
endforeach()

oshm_pe_program(v16_relife)
oshm_pe_test(v16_relife NPES 1 2 3 4)
# Each life connects to oshrun again; over its TCP bootstrap too.
add_test(NAME pe.v16_relife.tcpboot.np3 COMMAND ${OSHRUN} --bootstrap tcp -np 3 $<TARGET_FILE:v16_relife>)
set_tests_properties(pe.v16_relife.tcpboot.np3 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS pe)
# Started without oshrun: a singleton lives several times too.
add_test(NAME pe.v16_relife.singleton COMMAND $<TARGET_FILE:v16_relife>)
set_tests_properties(pe.v16_relife.singleton PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS pe)

if(OSHM_HAVE_UCX)
  foreach(n 2 4)
    add_test(NAME vv.v16_semantics.ucx.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:vv_v16_semantics>)
    set_tests_properties(vv.v16_semantics.ucx.np${n} PROPERTIES TIMEOUT 300
      LABELS "verification;ucx" FAIL_REGULAR_EXPRESSION "FAIL"
      ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
    add_test(NAME pe.v16_relife.ucx.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:v16_relife>)
    set_tests_properties(pe.v16_relife.ucx.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;ucx" ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
  endforeach()
  add_test(NAME vv.v16_semantics.mixed.np4 COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:vv_v16_semantics>)
  set_tests_properties(vv.v16_semantics.mixed.np4 PROPERTIES TIMEOUT 300
    LABELS "verification;ucx" FAIL_REGULAR_EXPRESSION "FAIL"
    ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  add_test(NAME pe.v16_relife.mixed.np4 COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:v16_relife>)
  set_tests_properties(pe.v16_relife.mixed.np4 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;ucx" ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  # UCX with its own choice of transports (shared memory ones included):
  # nothing of theirs may outlive a life either.
  add_test(NAME pe.v16_relife.ucxshm.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:v16_relife>)
  set_tests_properties(pe.v16_relife.ucxshm.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;ucx" ENVIRONMENT "SHMEM_TRANSPORT=ucx" RESOURCE_LOCK dev_shm)
endif()

# Under a PMIx launcher: lives share one PMIx connection, each its own keys.
if(MPIRUN AND OSHM_HAVE_PMIX)
  add_test(NAME pmix.v16_relife.np2 COMMAND ${MPIRUN} --allow-run-as-root --oversubscribe
    -np 2 $<TARGET_FILE:v16_relife>)
  set_tests_properties(pmix.v16_relife.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS pmix
    RESOURCE_LOCK dev_shm
    ENVIRONMENT "OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1")
endif()
