# The libfabric backend (SHMEM_TRANSPORT=ofi), only where libfabric was
# found: every PE reached through libfabric even on one machine, over the
# tcp;ofi_rxm provider (manual progress, no FI_FENCE, ordering only within
# RMA and within atomics) and the sockets one (automatic progress, FI_FENCE,
# strict order), at 2 and 4 PEs, and as split nodes (two PEs a node: shared
# memory inside, libfabric between, as SHMEM_REMOTE_TRANSPORT=ofi makes it).
# SHMEM_TRANSPORT=auto's choice between UCX and libfabric (a pure function,
# built with or without either library).
if(TARGET oshm_unit_tests)
  target_sources(oshm_unit_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_choose.cpp)
endif()

if(NOT OSHM_HAVE_OFI)
  return()
endif()

set(ofi_providers tcp sockets)
# Topology name, PE counts, environment.
set(ofi_topo_ofi "2;4")
set(ofi_env_ofi "SHMEM_TRANSPORT=ofi")
set(ofi_topo_split "4")
set(ofi_env_split "SHMEM_REMOTE_TRANSPORT=ofi;SHMEM_NODE_ID=%2p")

foreach(prov ${ofi_providers})
  foreach(topo ofi split)
    set(env "FI_PROVIDER=${prov};${ofi_env_${topo}}")
    foreach(n ${ofi_topo_${topo}})
      set(sfx ${topo}-${prov}.np${n})
      # The basic programs, the heap growing (new keys reach every peer;
      # SHMEM_DEBUG checks that only backed memory is registered).
      foreach(p setup:64M ring:64M rma:64M heap:64M barrier:64M symdata:64M heapgrow:256M)
        string(REPLACE ":" ";" p "${p}")
        list(GET p 1 heap)
        list(GET p 0 p)
        add_test(NAME pe.${p}.${sfx} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:${p}>)
        set_tests_properties(pe.${p}.${sfx} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
          LABELS "pe;ofi" ENVIRONMENT "${env};SHMEM_DEBUG=1;SHMEM_SYMMETRIC_SIZE=${heap}")
      endforeach()
      # The verification suite's chapters.
      foreach(chapter amo signal p2p lock teams coll reduce threads)
        add_test(NAME vv.${chapter}.${sfx} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:vv_${chapter}>)
        set_tests_properties(vv.${chapter}.${sfx} PROPERTIES TIMEOUT 300
          LABELS "verification;ofi" ENVIRONMENT "${env}")
      endforeach()
      # Ordering and completion: a quarter of the rounds over UCX's tcp, as
      # a fence over tcp;ofi_rxm waits for completion (a round trip).
      foreach(c amo-fence-put put-fence-amo put-signal nbi-quiet ctx)
        list(GET order_rounds_${c} 1 rounds)
        math(EXPR rounds "${rounds} / 4")
        add_test(NAME order.${c}.${sfx} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:ordering> ${c} ${rounds})
        set_tests_properties(order.${c}.${sfx} PROPERTIES TIMEOUT 300
          LABELS "pe;ordering;ofi" ENVIRONMENT "${env}")
      endforeach()
      add_test(NAME ctx_threads.${sfx} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:ctx_threads> 2000)
      set_tests_properties(ctx_threads.${sfx} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
        LABELS "pe;ordering;ofi" ENVIRONMENT "${env}")
    endforeach()
  endforeach()
  # A PE that computes still serves the others (the progress thread; tcp is
  # of manual progress). Over tcp the thread sleeps in the completion
  # queues' wait descriptors, and so runs boosted as UCX's does; sockets
  # offers none, and its thread naps and polls at the program's nice.
  if(prov STREQUAL "tcp")
    set(mode thread)
  else()
    set(mode thread-plain)
  endif()
  add_test(NAME progress.ofi-${prov}.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:progress> 200 ${mode})
  set_tests_properties(progress.ofi-${prov}.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;progress;ofi"
    ENVIRONMENT "FI_PROVIDER=${prov};SHMEM_TRANSPORT=ofi;SHMEM_PROGRESS_THREAD=1")
endforeach()

# The paths of fabrics that need registered local buffers, keys of the
# provider's choosing and registrations bound to endpoints, and that lack
# FI_FENCE and ordering (SHMEM_OFI_FORCE imposes them on tcp and sockets,
# which need none): the values must come out right all the same.
foreach(prov ${ofi_providers})
  set(env "FI_PROVIDER=${prov};SHMEM_TRANSPORT=ofi;SHMEM_OFI_FORCE=all")
  foreach(p rma:64M heapgrow:256M ring:64M)
    string(REPLACE ":" ";" p "${p}")
    list(GET p 1 heap)
    list(GET p 0 p)
    add_test(NAME pe.${p}.ofi-forced-${prov}.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:${p}>)
    set_tests_properties(pe.${p}.ofi-forced-${prov}.np2 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;ofi" ENVIRONMENT "${env};SHMEM_DEBUG=1;SHMEM_SYMMETRIC_SIZE=${heap}")
  endforeach()
  foreach(chapter amo signal p2p)
    add_test(NAME vv.${chapter}.ofi-forced-${prov}.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:vv_${chapter}>)
    set_tests_properties(vv.${chapter}.ofi-forced-${prov}.np2 PROPERTIES TIMEOUT 300
      LABELS "verification;ofi" ENVIRONMENT "${env}")
  endforeach()
  foreach(c amo-fence-put put-fence-amo put-signal nbi-quiet ctx)
    list(GET order_rounds_${c} 1 rounds)
    math(EXPR rounds "${rounds} / 4")
    add_test(NAME order.${c}.ofi-forced-${prov}.np2 COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:ordering> ${c} ${rounds})
    set_tests_properties(order.${c}.ofi-forced-${prov}.np2 PROPERTIES TIMEOUT 300
      LABELS "pe;ordering;ofi" ENVIRONMENT "${env}")
  endforeach()
endforeach()
add_test(NAME ofi.force_unknown COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:setup>)
set_tests_properties(ofi.force_unknown PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;ofi"
  ENVIRONMENT "SHMEM_TRANSPORT=ofi;FI_PROVIDER=tcp;SHMEM_OFI_FORCE=local,bogus"
  PASS_REGULAR_EXPRESSION "SHMEM_OFI_FORCE: unknown word 'bogus'")

# SHMEM_REMOTE_TRANSPORT picks the backend between nodes under auto, shared
# memory staying within a node.
oshm_pe_program(transports)
foreach(remote ofi ucx)
  if(remote STREQUAL "ucx" AND NOT OSHM_HAVE_UCX)
    continue()
  endif()
  add_test(NAME pe.transports.remote-${remote}.np4 COMMAND ${OSHRUN} -np 4
    $<TARGET_FILE:transports> ${remote})
  set_tests_properties(pe.transports.remote-${remote}.np4 PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
    LABELS "pe;ofi" PASS_REGULAR_EXPRESSION "transports: shm shm ${remote} ${remote}"
    ENVIRONMENT "SHMEM_REMOTE_TRANSPORT=${remote};SHMEM_NODE_ID=%2p;FI_PROVIDER=tcp;UCX_TLS=tcp")
endforeach()

# A provider that does not exist: a clear error, not a hang or a crash.
add_test(NAME ofi.no_provider COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:setup>)
set_tests_properties(ofi.no_provider PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;ofi"
  ENVIRONMENT "SHMEM_TRANSPORT=ofi;SHMEM_OFI_PROVIDER=no-such-provider"
  PASS_REGULAR_EXPRESSION "libfabric has no provider matching no-such-provider")

# udp;ofi_rxd offers RMA and atomics that crash inside libfabric: refused by
# name before the job can reach its first atomic.
add_test(NAME ofi.rxd_refused COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:setup>)
set_tests_properties(ofi.rxd_refused PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;ofi"
  ENVIRONMENT "SHMEM_TRANSPORT=ofi;SHMEM_NODE_ID=%1p;FI_PROVIDER=udp"
  PASS_REGULAR_EXPRESSION "offers only udp;ofi_rxd .* not used; FI_PROVIDER=tcp")
