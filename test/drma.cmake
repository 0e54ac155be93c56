# Device RMA (include/shmem/device_rma.h): every family by value at 1, 2 and
# 4 PEs, over shared memory, over UCX, and as two nodes (SHMEM_NODE_ID=%2p:
# UDMA and RDMA cross them); the weak memory model's positive and negative
# tests; errors for an unreachable engine and a foreign unified buffer.
# Tests with "ucx" in their names use UCX (scripts/test leaves them out of
# its ThreadSanitizer pass).
oshm_pe_program(device_rma)

set(drma_weak "SHMEM_DEVICE_ORDERING=weak")
foreach(n 1 2 4)
  add_test(NAME pe.device_rma.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:device_rma>)
  set_tests_properties(pe.device_rma.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;device" ENVIRONMENT "${drma_weak}")
endforeach()
add_test(NAME pe.device_rma.strong.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:device_rma>)
set_tests_properties(pe.device_rma.strong.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
  LABELS "pe;device" ENVIRONMENT "SHMEM_DEVICE_ORDERING=strong;SHMEM_DEVICE_UB_SIZE=64K")
if(OSHM_HAVE_UCX)
  foreach(n 2 4)
    add_test(NAME pe.device_rma.ucx.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:device_rma>)
    set_tests_properties(pe.device_rma.ucx.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;device;ucx"
      ENVIRONMENT "${drma_weak};SHMEM_TRANSPORT=ucx;UCX_TLS=tcp;SHMEM_SYMMETRIC_SIZE=64M")
  endforeach()
  add_test(NAME pe.device_rma.split.ucx.np4 COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:device_rma>)
  set_tests_properties(pe.device_rma.split.ucx.np4 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;device;ucx" ENVIRONMENT "${drma_weak};SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  # MTE reaches only this node's PEs: a clear error naming the routine.
  add_test(NAME pe.device_rma.unreachable.ucx.np4
    COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:device_rma> unreachable)
  set_tests_properties(pe.device_rma.unreachable.ucx.np4 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;device;ucx" ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp"
    PASS_REGULAR_EXPRESSION "shmemd_long_put_nbi_mte: the MTE engine reaches only PEs of this node")
endif()
add_test(NAME pe.device_rma.ub_outside.np1 COMMAND ${OSHRUN} -np 1 $<TARGET_FILE:device_rma> ub_outside)
set_tests_properties(pe.device_rma.ub_outside.np1 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
  LABELS "pe;device"
  PASS_REGULAR_EXPRESSION "shmemd_putmem_ub: the source .* is not in this block's unified buffer")

# The memory model. Weak: without a fence the consumer must see stale data
# in some round (the negative test: the same kernel's check fails), with a
# fence or quiet never. Strong: one queue per engine keeps even the unfenced
# kernel in order.
foreach(n 1 2 4)
  foreach(m fence quiet)
    add_test(NAME pe.device_rma.order.${m}.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:device_rma> order ${m})
    set_tests_properties(pe.device_rma.order.${m}.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;device" ENVIRONMENT "${drma_weak}")
  endforeach()
  # These read data in flight on purpose (a race, at one PE within one
  # process): "visibility" keeps them out of scripts/test's TSan pass, like
  # pe.device.visibility.
  add_test(NAME pe.device_rma.order_visibility.nofence.np${n}
    COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:device_rma> order none expect-stale)
  set_tests_properties(pe.device_rma.order_visibility.nofence.np${n} PROPERTIES
    TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;device" ENVIRONMENT "${drma_weak}")
  add_test(NAME pe.device_rma.order_visibility.nofence_fails.np${n}
    COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:device_rma> order none)
  set_tests_properties(pe.device_rma.order_visibility.nofence_fails.np${n} PROPERTIES
    TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;device" ENVIRONMENT "${drma_weak}" WILL_FAIL TRUE)
endforeach()
add_test(NAME pe.device_rma.order_visibility.nofence.strong.np2
  COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:device_rma> order none)
set_tests_properties(pe.device_rma.order_visibility.nofence.strong.np2 PROPERTIES
  TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;device" ENVIRONMENT "SHMEM_DEVICE_ORDERING=strong")
if(OSHM_HAVE_UCX)
  add_test(NAME pe.device_rma.order.fence.split.ucx.np4
    COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:device_rma> order fence)
  set_tests_properties(pe.device_rma.order.fence.split.ucx.np4 PROPERTIES
    TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;device;ucx"
    ENVIRONMENT "${drma_weak};SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
endif()

# The suite runs every device test in weak mode unless it sets the ordering
# itself: deferred to the end of this directory, so that tests defined after
# this file's include (pe.device.*, the examples, other helpers') count too.
function(drma_weak_device_tests)
  get_property(tests DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY TESTS)
  foreach(t ${tests})
    get_test_property(${t} LABELS labels)
    if(NOT t MATCHES "device" AND NOT labels MATCHES "device")
      continue()
    endif()
    get_test_property(${t} ENVIRONMENT env)
    if(NOT env)
      set(env "")
    endif()
    if(NOT env MATCHES "SHMEM_DEVICE_ORDERING=")
      list(APPEND env "SHMEM_DEVICE_ORDERING=weak")
      set_tests_properties(${t} PROPERTIES ENVIRONMENT "${env}")
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} CALL drma_weak_device_tests)
