# What an installed tree offers other build systems: a pkg-config file and a
# CMake package, both relocatable (paths relative to their own location).
include(CMakePackageConfigHelpers)

set(OSHM_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
set(OSHM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/oshm)
file(RELATIVE_PATH OSHM_PC_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${OSHM_PC_DIR} ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH OSHM_CMAKE_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${OSHM_CMAKE_DIR} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" OSHM_PC_TO_PREFIX "${OSHM_PC_TO_PREFIX}")
string(REGEX REPLACE "/$" "" OSHM_CMAKE_TO_PREFIX "${OSHM_CMAKE_TO_PREFIX}")
set(OSHM_SHARED_FILE libshmem.so.${PROJECT_VERSION})
set(OSHM_SONAME libshmem.so.0)

configure_file(${CMAKE_CURRENT_LIST_DIR}/oshm.pc.in ${PROJECT_BINARY_DIR}/packaging/oshm.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/oshmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/packaging/oshmConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/packaging/oshmConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)

install(FILES ${PROJECT_BINARY_DIR}/packaging/oshm.pc DESTINATION ${OSHM_PC_DIR})
install(FILES ${PROJECT_BINARY_DIR}/packaging/oshmConfig.cmake
  ${PROJECT_BINARY_DIR}/packaging/oshmConfigVersion.cmake DESTINATION ${OSHM_CMAKE_DIR})
