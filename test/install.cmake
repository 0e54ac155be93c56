# An installed, then moved, tree builds and runs programs through oshcc,
# oshc++ (C++ generic names), -static, pkg-config and find_package(oshm), and
# man finds the pages (test/install_test.sh).
add_test(NAME install COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install_test.sh ${PROJECT_BINARY_DIR}
  ${CMAKE_COMMAND})
set_tests_properties(install PROPERTIES TIMEOUT 300 LABELS launcher)
if(OSHM_SANITIZE)
  set_tests_properties(install PROPERTIES ENVIRONMENT "WRAPPER_CFLAGS=-fsanitize=address,undefined")
endif()
