# Issue 12: each PE's IPC socket under attack from a process outside the job
# (test/hardening_ipc_attack.py): silent connections, a partial request, a
# huge bogus one, a flood, and connections made while the PEs are still
# mapping each other. The job must end correctly within the script's bound,
# each PE logging the refusal; the timeout here only catches the script.
oshm_pe_program(hard_ipc)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  foreach(mode silent onebyte garbage flood startup)
    add_test(NAME hardening.ipc.${mode} COMMAND ${Python3_EXECUTABLE}
      ${CMAKE_CURRENT_SOURCE_DIR}/hardening_ipc_attack.py ${mode} ${OSHRUN}
      $<TARGET_FILE:hard_ipc> 3)
    set_tests_properties(hardening.ipc.${mode} PROPERTIES TIMEOUT 60 LABELS "pe;hardening")
  endforeach()
else()
  message(STATUS "python3 missing: IPC hardening tests skipped")
endif()

# The same from inside one process, deterministically: a member served while
# a stranger or another member is silent, malformed requests, finalize.
if(TARGET oshm_unit_tests)
  target_sources(oshm_unit_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_ipc_hardening.cpp)
endif()
