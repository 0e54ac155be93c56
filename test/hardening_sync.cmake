# Point-to-point synchronization and teams under threads, as OpenSHMEM 1.5
# states them: the _any routines return every satisfied element over a
# series of calls (any_fair); teams created and destroyed by several threads
# at once (team_threads, shared memory only, so it also runs under
# ThreadSanitizer in scripts/test).
oshm_pe_program(any_fair)
oshm_pe_program(team_threads)
target_link_libraries(team_threads PRIVATE Threads::Threads)

oshm_pe_test(any_fair NPES 1 2 3)
# The program's alarm (50 s) ends a hang before the timeout does.
foreach(n 2 3 4)
  set(test team_threads.auto.np${n})
  add_test(NAME ${test} COMMAND ${OSHRUN} -np ${n} $<TARGET_FILE:team_threads> 300)
  set_tests_properties(${test} PROPERTIES TIMEOUT 90 LABELS "pe;team")
endforeach()
