# Operations leave their PE without that PE's next call (docs/progress.md):
# PE 0 issues each operation (puts, non-fetching AMOs, signals, barriers,
# syncs, collectives, a team split, the end of shmem_init, shmem_finalize)
# and then stays away from the library, spinning, sleeping or blocked in a
# system call; every other PE must see the operation within 0.5 s, where a
# held one shows after PE 0's 2 s away. On every network topology: UCX over
# tcp, UCX between split nodes (its shared-memory transports, and over
# tcp), UCX for every PE, libfabric over tcp and sockets; at 4 PEs (more
# than the cores) and 2, and under SHMEM_THREAD_MULTIPLE.
oshm_pe_program(posted)

set(posted_topos)
if(OSHM_HAVE_UCX)
  list(APPEND posted_topos ucx-tcp node2 node2-tcp ucx)
  set(posted_env_ucx-tcp "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp")
  set(posted_env_node2 "SHMEM_NODE_ID=%2p")
  set(posted_env_node2-tcp "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  set(posted_env_ucx "SHMEM_TRANSPORT=ucx")
endif()
if(OSHM_HAVE_OFI)
  list(APPEND posted_topos ofi-tcp ofi-sockets)
  set(posted_env_ofi-tcp "SHMEM_TRANSPORT=ofi;FI_PROVIDER=tcp")
  set(posted_env_ofi-sockets "SHMEM_TRANSPORT=ofi;FI_PROVIDER=sockets")
endif()

function(posted_test topo n how)
  set(variant ${how})
  if(ARGN)
    set(variant ${how}-${ARGN})
  endif()
  set(test posted.${topo}.${variant}.np${n})
  set(labels "pe;progress")
  if(topo MATCHES "^ofi")
    list(APPEND labels ofi)
  else()
    list(APPEND labels ucx)
  endif()
  add_test(NAME ${test} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:posted>
    ${CMAKE_CURRENT_BINARY_DIR}/${test}.side ${how} ${ARGN})
  set_tests_properties(${test} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "${labels}"
    ENVIRONMENT "SHMEM_PROGRESS_THREAD=1;${posted_env_${topo}}")
endfunction()

foreach(topo ${posted_topos})
  foreach(how spin sleep block)
    posted_test(${topo} 4 ${how})
  endforeach()
  foreach(how spin sleep)
    posted_test(${topo} 2 ${how})
  endforeach()
endforeach()
foreach(topo ucx-tcp ofi-tcp)
  if(topo IN_LIST posted_topos)
    posted_test(${topo} 4 sleep multiple)
  endif()
endforeach()

# Programs that ran past 60 s over libfabric tcp at 4 PEs (many contexts, a
# vector of flags waited on with the generic names, a collect over a
# strided split): each must end within the test's timeout, values checked.
oshm_pe_program(net_patterns)
foreach(topo ofi-tcp ucx-tcp)
  if(topo IN_LIST posted_topos)
    add_test(NAME pe.net_patterns.${topo}.np4 COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:net_patterns>)
    set_tests_properties(pe.net_patterns.${topo}.np4 PROPERTIES TIMEOUT 60 LABELS "pe"
      ENVIRONMENT "${posted_env_${topo}}")
  endif()
endforeach()

# The first operations to each peer, while its endpoints still wire up
# (endpoints are made on first use), through the default context and fresh
# ones: a blocking put's source is free on return, put-fence-put arrive in
# order, sizes around 8 KiB whole. Odd PE counts, more PEs than cores.
oshm_pe_program(first_contact)
foreach(spec "ucx-tcp|5" "node2-tcp|6" "ucx|4" "ofi-tcp|3")
  string(REPLACE "|" ";" parts "${spec}")
  list(GET parts 0 topo)
  list(GET parts 1 n)
  if(topo IN_LIST posted_topos)
    set(labels "pe;ucx")
    if(topo MATCHES "^ofi")
      set(labels "pe;ofi")
    endif()
    add_test(NAME pe.first_contact.${topo}.np${n}
      COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:first_contact>)
    set_tests_properties(pe.first_contact.${topo}.np${n} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT}
      LABELS "${labels}" PASS_REGULAR_EXPRESSION "first contact: passed"
      ENVIRONMENT "${posted_env_${topo}}")
  endif()
endforeach()
