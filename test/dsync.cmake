# Device synchronization and collectives (test/pe/device_sync.c,
# device_coll.c): every PE count of 1 to 4, over UCX for every PE, and as
# two nodes (SHMEM_NODE_ID) whose device memory is reached through UDMA.
# Over UCX device_coll runs "quick" (every operation and form, one type of
# each size and table): each tree step is a network round trip there, and
# the host's stream wait spins beside the device threads on a loaded host.
foreach(p device_sync device_coll)
  oshm_pe_program(${p})
  oshm_pe_test(${p} NPES 1 2 3 4)
  foreach(n 1 2 3 4)
    set_tests_properties(pe.${p}.np${n} PROPERTIES LABELS "pe;device")
  endforeach()
  if(OSHM_HAVE_UCX)
    foreach(n 2 3)
      add_test(NAME pe.${p}.ucx.np${n} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:${p}> quick)
      set_tests_properties(pe.${p}.ucx.np${n} PROPERTIES TIMEOUT 300
        LABELS "pe;device;ucx" ENVIRONMENT "SHMEM_TRANSPORT=ucx;UCX_TLS=tcp;SHMEM_SYMMETRIC_SIZE=64M")
    endforeach()
    add_test(NAME pe.${p}.split.ucx.np4 COMMAND ${OSHRUN} -np 4 $<TARGET_FILE:${p}> quick)
    set_tests_properties(pe.${p}.split.ucx.np4 PROPERTIES TIMEOUT 300
      LABELS "pe;device;ucx" ENVIRONMENT "SHMEM_NODE_ID=%2p;UCX_TLS=tcp")
  endif()
endforeach()
# Bad input from a kernel: an error naming the routine, not a hang or crash.
foreach(c "device_sync|bad_cmp|shmemd_int_wait_until_some: comparison 42"
          "device_sync|bad_fetch|shmemd_long_atomic_fetch_add_nbi: fetch is NULL"
          "device_coll|bad_root|shmemd_int_broadcast: PE_root 2 is not a PE of the team"
          "device_coll|bad_team|shmemd_int_sum_reduce: the team is SHMEM_TEAM_INVALID"
          "device_coll|bad_dest|shmemd_long_max_reduce_block: address .* is not symmetric")
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 prog)
  list(GET parts 1 mode)
  list(GET parts 2 expect)
  add_test(NAME pe.${prog}.${mode} COMMAND ${OSHRUN} -np 2 $<TARGET_FILE:${prog}> ${mode})
  set_tests_properties(pe.${prog}.${mode} PROPERTIES TIMEOUT 60 LABELS "pe;device"
    PASS_REGULAR_EXPRESSION "${expect}")
endforeach()
