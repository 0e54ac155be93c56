# An installed, then moved, tree builds and runs programs through oshcc,
# oshc++ (C++ generic names), -static, pkg-config and find_package(oshm), and
# man finds the pages (test/install_test.sh).
add_test(NAME install COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install_test.sh ${PROJECT_BINARY_DIR}
  ${CMAKE_COMMAND})
set_tests_properties(install PROPERTIES TIMEOUT 300 LABELS launcher)
if(OSHM_SANITIZE)
  set_tests_properties(install PROPERTIES ENVIRONMENT "WRAPPER_CFLAGS=-fsanitize=address,undefined")
endif()

# `module load oshm` from the installed module files, with Debian's Lmod
# (test/modules_test.sh).
add_test(NAME modules COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/modules_test.sh ${PROJECT_BINARY_DIR}
  ${CMAKE_COMMAND})
set_tests_properties(modules PROPERTIES TIMEOUT 120 LABELS launcher SKIP_RETURN_CODE 77)
if(OSHM_SANITIZE)
  set_tests_properties(modules PROPERTIES ENVIRONMENT "WRAPPER_CFLAGS=-fsanitize=address,undefined")
endif()

# The Debian package installed with apt into a clean Debian root, examples
# built and run from it, Open MPI beside it, removed without leftovers
# (test/package_test.sh). Once per tree: in the gcc build only.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT OSHM_SANITIZE AND NOT OSHM_TSAN)
  add_test(NAME package COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/package_test.sh ${PROJECT_BINARY_DIR}
    ${PROJECT_SOURCE_DIR})
  set_tests_properties(package PROPERTIES TIMEOUT 900 LABELS package SKIP_RETURN_CODE 77)
endif()
