# The environment table (src/util/env_table.h): parser unit tests, jobs with
# bad, deprecated and unknown variables, SHMEM_INFO, oshm_info, and README's
# copy of the table.
if(TARGET oshm_unit_tests)
  target_sources(oshm_unit_tests PRIVATE unit/test_env_table.cpp)
endif()

oshm_pe_program(env_heap)
foreach(c bad_size bad_number bad_choice bad_bool bad_alias sma_size precedence unknown info
          version)
  add_test(NAME env.${c} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/env_test.sh ${c} ${OSHRUN}
    $<TARGET_FILE:setup> $<TARGET_FILE:env_heap>)
  set_tests_properties(env.${c} PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS "pe;env")
endforeach()

add_test(NAME env.oshm_info COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/oshm_info_test.sh
  $<TARGET_FILE:oshm_info> ${PROJECT_SOURCE_DIR}/include/shmem/shmem.h ${OSHM_HAVE_UCX}
  ${OSHM_HAVE_PMIX})
add_test(NAME env.readme COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/env_readme_test.sh
  $<TARGET_FILE:oshm_info> ${PROJECT_SOURCE_DIR}/README.md)
set_tests_properties(env.oshm_info env.readme PROPERTIES TIMEOUT ${OSHM_TEST_TIMEOUT} LABELS env)
