# The remapped data segment costs what is in use (issue 12): a 1 GiB static
# array with a few pages written starts fast and takes no shared memory for
# the rest; every kind of page (initialized data, written and untouched
# .bss) keeps its value and is reachable by peers on every topology; a
# forked child's private copy holds the right values and costs only the
# pages in use.
foreach(p symdata_startup symdata_sparse symdata_fork)
  oshm_pe_program(${p})
endforeach()

# symdata_startup fails when shmem_init + shmem_finalize take over 1.5 s
# (a copy of the whole 1 GiB took 3 to 6 s here on 2 busy cores).
oshm_pe_test(symdata_startup NPES 1 2)
oshm_pe_test(symdata_sparse NPES 2 3)
oshm_pe_test(symdata_fork NPES 1 2)

if(OSHM_HAVE_UCX)
  # Through UCX alone (the data segment is registered whole, holes and all)
  # and split into two-PE nodes (shared memory inside, UCX between; 3 PEs
  # to span two nodes). A case is topology|program|PEs.
  set(ucx-tcp_env "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
  set(node2_env "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  foreach(case "ucx-tcp|symdata_startup|2" "ucx-tcp|symdata_sparse|2" "ucx-tcp|symdata_sparse|3"
               "ucx-tcp|symdata_fork|2" "node2|symdata_startup|3" "node2|symdata_sparse|3"
               "node2|symdata_fork|3")
    string(REPLACE "|" ";" c "${case}")
    list(GET c 0 topo)
    list(GET c 1 prog)
    list(GET c 2 n)
    set(test pe.${prog}.${topo}.np${n})
    add_test(NAME ${test} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:${prog}>)
    set_tests_properties(${test} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;ucx"
      ENVIRONMENT "${${topo}_env};SHMEM_SYMMETRIC_SIZE=64M")
  endforeach()
endif()
