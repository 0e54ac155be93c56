# Collective algorithms at and around their switch points (src/team/coll*.c),
# on shared memory, over UCX (tcp) and with two simulated nodes.
oshm_pe_program(coll_algorithms)
oshm_pe_test(coll_algorithms NPES 1 2 3 4 5 8 ENV SHMEM_SYMMETRIC_SIZE=64M)
if(OSHM_HAVE_UCX)
  foreach(n 2 4)
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
