# Barriers and waits (test/pe/waits.c) at 1, 2, 3, 4, 5 and 8 PEs, and where
# PEs outnumber cores or are bound each to a core of its own, the cases the
# wait policy (src/util/spin.h) tells apart. Correctness only, each within a
# time limit: a policy that spins where it should yield shows as a timeout.
oshm_pe_program(waits)
oshm_pe_test(waits NPES 1 2 3 4 5 8)

set(ON_CORES ${CMAKE_CURRENT_SOURCE_DIR}/on_cores.sh)
# name, cores, PEs, rounds
foreach(c "8pes_2cores 2 8 150" "2pes_1core 1 2 300" "3pes_2cores 2 3 300")
  separate_arguments(c)
  list(GET c 0 name)
  list(GET c 1 cores)
  list(GET c 2 npes)
  list(GET c 3 rounds)
  add_test(NAME pe.waits.${name}
           COMMAND ${ON_CORES} ${cores} ${OSHRUN} -np ${npes} $<TARGET_FILE:waits> ${rounds})
  set_tests_properties(pe.waits.${name} PROPERTIES TIMEOUT 90 LABELS pe)
endforeach()
# Each PE bound to a core of its own: not oversubscribed, the PEs spin.
add_test(NAME pe.waits.bound_each
         COMMAND ${OSHRUN} -np 2 ${ON_CORES} --rank 2 $<TARGET_FILE:waits> 300)
set_tests_properties(pe.waits.bound_each PROPERTIES TIMEOUT 90 LABELS pe)
# Over UCX, whose waits progress the worker between polls (a poll that did
# work starts the spin count again), also with PEs outnumbering cores.
if(OSHM_HAVE_UCX)
  add_test(NAME pe.waits.ucx.np3 COMMAND ${OSHRUN} -np 3 $<TARGET_FILE:waits> 100)
  add_test(NAME pe.waits.ucx.3pes_1core
           COMMAND ${ON_CORES} 1 ${OSHRUN} -np 3 $<TARGET_FILE:waits> 100)
  set_tests_properties(pe.waits.ucx.np3 pe.waits.ucx.3pes_1core PROPERTIES
    TIMEOUT 90 LABELS pe ENVIRONMENT "SHMEM_TRANSPORT=ucx")
endif()
