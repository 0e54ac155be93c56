# Trust across the network and liveness (issue 30, test/trust_test.sh): the
# TCP bootstrap and the unique id's rendezvous seen and replayed by a man in
# the middle (test/bootproxy.py), strangers holding the rendezvous, stopped
# PEs under --timeout and --heartbeat, kill -9 of oshrun with PEs here and
# through a launch agent, a reader of oshrun's output that stops reading,
# the OOM killer and UCX's same-host segments.
oshm_pe_program(uid_trust)
foreach(group capture rendezvous liveness output memory)
  add_test(NAME launcher.trust.${group} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/trust_test.sh
    ${OSHRUN} $<TARGET_FILE:faults> $<TARGET_FILE:uid_trust>
    ${CMAKE_CURRENT_SOURCE_DIR}/bootproxy.py ${group})
  set_tests_properties(launcher.trust.${group} PROPERTIES TIMEOUT 120 LABELS launcher
    SKIP_RETURN_CODE 77)
endforeach()
# Their cases have time bounds: alone, like the launcher's.
set_tests_properties(launcher.trust.rendezvous launcher.trust.liveness launcher.trust.output
  PROPERTIES RUN_SERIAL ON)
