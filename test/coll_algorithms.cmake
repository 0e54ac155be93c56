# Collective algorithms at and around their switch points (src/team/coll*.c),
# on shared memory, over UCX (tcp) and with two simulated nodes; each
# algorithm that a size or transport chooses is also forced (SHMEM_COLL_*)
# at power-of-two and other PE counts, and a 64-PE short case runs on few
# cores.
oshm_pe_program(coll_algorithms)
oshm_pe_test(coll_algorithms NPES 1 2 3 4 5 8 ENV SHMEM_SYMMETRIC_SIZE=64M)
foreach(alg rdbl bruck ring)
  foreach(n 2 3 4 5 8)
    add_test(NAME pe.coll_algorithms.fcollect_${alg}.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_algorithms>)
    set_tests_properties(pe.coll_algorithms.fcollect_${alg}.np${n} PROPERTIES
      TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe"
      ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=64M;SHMEM_COLL_FCOLLECT=${alg}")
  endforeach()
endforeach()
# Small reductions in groups (above 64 PEs on their own), forced at sizes
# where the groups come out even and uneven.
foreach(n 4 7)
  add_test(NAME pe.coll_algorithms.reduce_grouped.np${n}
    COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_algorithms>)
  set_tests_properties(pe.coll_algorithms.reduce_grouped.np${n} PROPERTIES
    TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe"
    ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=64M;SHMEM_COLL_REDUCE=grouped")
endforeach()
foreach(alg auto rdbl bruck ring)
  add_test(NAME pe.coll_algorithms.quick_${alg}.np64
    COMMAND ${OSHRUN} -np 64 $<TARGET_FILE:coll_algorithms>)
  set_tests_properties(pe.coll_algorithms.quick_${alg}.np64 PROPERTIES
    TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe"
    ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=8M;COLL_ALGORITHMS_QUICK=1;SHMEM_COLL_FCOLLECT=${alg}")
endforeach()
# Over networks (src/team/coll_net.c): UCX for every PE, nodes of two PEs
# and of three (the node-aware forms, with uneven nodes), libfabric.
if(OSHM_HAVE_UCX)
  foreach(n 5 8)
    add_test(NAME pe.coll_algorithms.nodes3.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_algorithms>)
    set_tests_properties(pe.coll_algorithms.nodes3.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;ucx" ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=64M;SHMEM_NODE_ID=%3p;UCX_TLS=tcp")
  endforeach()
endif()
if(OSHM_HAVE_OFI)
  foreach(n 3 4)
    add_test(NAME pe.coll_algorithms.ofi-tcp.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_algorithms>)
    set_tests_properties(pe.coll_algorithms.ofi-tcp.np${n} PROPERTIES
      TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;ofi"
      ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=64M;SHMEM_TRANSPORT=ofi;FI_PROVIDER=tcp")
  endforeach()
endif()
if(OSHM_HAVE_UCX)
  foreach(n 2 3 4)
    add_test(NAME pe.coll_algorithms.ucx.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_algorithms>)
    set_tests_properties(pe.coll_algorithms.ucx.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;ucx" ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=64M;SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
    add_test(NAME pe.coll_algorithms.nodes.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_algorithms>)
    set_tests_properties(pe.coll_algorithms.nodes.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "pe;ucx" ENVIRONMENT "SHMEM_SYMMETRIC_SIZE=64M;SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  endforeach()
endif()
# Broadcasts and reductions back to back (active sets: two pSync arrays in
# turn, no barrier while a broadcast's root stays), at each thread level and
# with levels mixed, since whether a PE waits for its peers in the call or
# later depends on the level (coll_deferred.c).
oshm_pe_program(coll_reuse)
foreach(mode single multiple mixed)
  foreach(n 2 3 4 5 8)
    add_test(NAME pe.coll_reuse.${mode}.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_reuse> ${mode})
    set_tests_properties(pe.coll_reuse.${mode}.np${n} PROPERTIES
      TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe")
  endforeach()
endforeach()
if(OSHM_HAVE_UCX)
  foreach(n 3 4)
    foreach(mode single mixed)
      add_test(NAME pe.coll_reuse.ucx.${mode}.np${n}
        COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_reuse> ${mode})
      set_tests_properties(pe.coll_reuse.ucx.${mode}.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
        LABELS "pe;ucx" ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
      add_test(NAME pe.coll_reuse.nodes.${mode}.np${n}
        COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:coll_reuse> ${mode})
      set_tests_properties(pe.coll_reuse.nodes.${mode}.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
        LABELS "pe;ucx" ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
    endforeach()
  endforeach()
endif()
