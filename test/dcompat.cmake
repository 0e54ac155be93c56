# Compatibility headers (include/shmem/compat): three CANN SHMEM and three
# NVSHMEM example kernels ported by their include line
# (docs/examples/device/compat), each checking its values, at 1, 2, 3 and 4
# PEs, over UCX on one node and as two nodes; a device name called from the
# host by mistake stops with the routine's name; and every shmemd_ name of
# docs/device.md's mapping table is declared in include/.
# Names hold "example" for scripts/test's ThreadSanitizer pass, and "ucx"
# where they use UCX (which that pass leaves out).
set(dcompat_examples acl_allgather acl_allreduce acl_put_signal nv_ring_bcast nv_on_stream
  nv_put_block_warp)
foreach(ex ${dcompat_examples})
  add_executable(example_compat_${ex} ${PROJECT_SOURCE_DIR}/docs/examples/device/compat/${ex}.c)
  target_link_libraries(example_compat_${ex} PRIVATE shmem)
  foreach(n 1 2 3 4)
    add_test(NAME example.compat.${ex}.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:example_compat_${ex}>)
    set_tests_properties(example.compat.${ex}.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "device;example" PASS_REGULAR_EXPRESSION "passed")
  endforeach()
  if(OSHM_HAVE_UCX)
    foreach(n 2 4)
      add_test(NAME example.compat.${ex}.ucx.np${n}
        COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:example_compat_${ex}>)
      set_tests_properties(example.compat.${ex}.ucx.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
        LABELS "device;example;ucx" PASS_REGULAR_EXPRESSION "passed"
        ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp;SHMEM_SYMMETRIC_SIZE=64M")
    endforeach()
    add_test(NAME example.compat.${ex}.split.ucx.np4
      COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:example_compat_${ex}>)
    set_tests_properties(example.compat.${ex}.split.ucx.np4 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "device;example;ucx" PASS_REGULAR_EXPRESSION "passed"
      ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  endif()
endforeach()

# A CANN device name (shmem_quiet under OSHM_CANN_SHMEM_NAMES) called from
# host code: a clear error naming the device routine, not a silent no-op.
add_test(NAME example.compat.acl_put_signal.host_misuse.np1
  COMMAND ${OSHRUN} -np 1 $<TARGET_FILE:example_compat_acl_put_signal> host-misuse)
set_tests_properties(example.compat.acl_put_signal.host_misuse.np1 PROPERTIES
  TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "device;example"
  PASS_REGULAR_EXPRESSION "shmemd_quiet is a device routine")

# The mapping table cannot drift from the headers.
add_test(NAME dcompat.table COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/dcompat_table_test.sh
  ${CMAKE_C_COMPILER} ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/docs/device.md)
set_tests_properties(dcompat.table PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT})
