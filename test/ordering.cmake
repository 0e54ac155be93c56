# Ordering and completion as OpenSHMEM 1.5 states them (fence, quiet,
# put-with-signal, contexts), contexts used by threads, and progress at a PE
# that computes without calling the library. Ordering is run on every
# topology where one PE reaches another through two paths (AMOs and signals
# through UCX, puts through shared memory) or through UCX alone.
foreach(p ordering ctx_threads progress)
  oshm_pe_program(${p})
endforeach()
target_link_libraries(ctx_threads PRIVATE Threads::Threads)

# Topology name, then its environment. Where UCX carries anything the test
# is labelled ucx too.
set(order_topos auto)
set(order_env_auto "")
if(OSHM_HAVE_UCX)
  list(APPEND order_topos node2 node2-tcp ucx ucx-tcp)
  set(order_env_node2 "SHMEM_NODE_ID=%2p")
  set(order_env_node2-tcp "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  set(order_env_ucx "SHMEM_TRANSPORT=ucx")
  set(order_env_ucx-tcp "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
endif()

# Rounds per case, where UCX is fast (shared memory inside) and over tcp
# (~30 us a round trip): a late delivery over tcp shows in about 1 round of
# 1000 or fewer, and more often on a busy machine, so tcp needs thousands
# too; few enough for a few seconds per test on 2 cores.
set(order_rounds_amo-fence-put 20000 16000)
set(order_rounds_put-fence-amo 6000 3000)
set(order_rounds_put-signal 6000 3000)
# nbi-quiet over UCX's own shared memory (ucx, node2) takes 7-12 ms a round
# at 4 PEs on 2 cores: 6000 rounds came to 110-120 s under ctest -j2 and
# timed out (the same with the build before; 2026-12-06).
set(order_rounds_nbi-quiet 2000 1000)
set(order_rounds_ctx 20000 12000)

foreach(topo ${order_topos})
  set(labels "pe;ordering")
  if(NOT topo STREQUAL "auto")
    list(APPEND labels ucx)
  endif()
  foreach(c amo-fence-put put-fence-amo put-signal nbi-quiet ctx)
    if(topo MATCHES "tcp")
      list(GET order_rounds_${c} 1 rounds)
    else()
      list(GET order_rounds_${c} 0 rounds)
    endif()
    foreach(n 3 4)
      set(test order.${c}.${topo}.np${n})
      add_test(NAME ${test} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:ordering> ${c} ${rounds})
      set_tests_properties(${test} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "${labels}"
        ENVIRONMENT "${order_env_${topo}}")
    endforeach()
  endforeach()
endforeach()

# Threads with contexts of their own and sharing the default one. The auto
# (shared memory only) ones also run under ThreadSanitizer (scripts/test).
foreach(topo auto node2 ucx-tcp)
  if(topo IN_LIST order_topos)
    set(labels "pe;ordering")
    set(rounds 20000)
    if(NOT topo STREQUAL "auto")
      list(APPEND labels ucx)
    endif()
    if(topo MATCHES "tcp")
      set(rounds 2000)
    endif()
    foreach(n 2 3)
      set(test ctx_threads.${topo}.np${n})
      add_test(NAME ${test} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:ctx_threads> ${rounds})
      set_tests_properties(${test} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "${labels}"
        ENVIRONMENT "${order_env_${topo}}")
    endforeach()
  endif()
endforeach()

# Progress at a PE that computes: with a progress thread a put+quiet to it
# completes while it computes (UCX over tcp writes the target's memory in
# software). node1-tcp: every PE a node of its own, UCX over tcp.
set(order_env_node1-tcp "SHMEM_NODE_ID=%p;UCX_TLS=tcp")
foreach(topo auto ucx ucx-tcp node1-tcp)
  if(topo STREQUAL "auto" OR OSHM_HAVE_UCX)
    set(labels "pe;progress")
    if(NOT topo STREQUAL "auto")
      list(APPEND labels ucx)
    endif()
    set(env SHMEM_PROGRESS_THREAD=1 ${order_env_${topo}})
    set(test progress.${topo}.np2)
    if(topo STREQUAL "auto")
      add_test(NAME ${test} COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:progress>)
    else()
      add_test(NAME ${test} COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:progress> 200 thread)
    endif()
    set_tests_properties(${test} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "${labels}"
      ENVIRONMENT "${env}")
  endif()
endforeach()
# Where the process may not raise a thread's priority (no CAP_SYS_NICE,
# RLIMIT_NICE 0), under nice 3: the thread keeps the program's nice value,
# and progress still holds.
find_program(SETPRIV setpriv)
find_program(PRLIMIT prlimit)
if(OSHM_HAVE_UCX AND SETPRIV AND PRLIMIT)
  set(test progress.ucx-tcp.unprivileged.np2)
  add_test(NAME ${test} COMMAND ${SETPRIV} --bounding-set=-sys_nice --inh-caps=-sys_nice
    ${PRLIMIT} --nice=0 nice -n 3 ${OSHRUN} -np 2 $<TARGET_FILE:progress> 200 thread)
  set_tests_properties(${test} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;progress;ucx"
    ENVIRONMENT "SHMEM_PROGRESS_THREAD=1;SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
endif()
