# Environment module files, for Lmod (oshm/<version>.lua) and for Tcl
# Environment Modules (oshm/<version>): `module use <prefix>/share/modulefiles`
# then `module load oshm` sets PATH, MANPATH, PKG_CONFIG_PATH and
# CMAKE_PREFIX_PATH. They hold no absolute path (they find the installation
# from their own location), so the tree stays relocatable.
set(OSHM_MODULEFILE_DIR ${CMAKE_INSTALL_DATADIR}/modulefiles)
file(RELATIVE_PATH OSHM_MODULEFILE_TO_PREFIX ${CMAKE_INSTALL_PREFIX}/${OSHM_MODULEFILE_DIR}/oshm
  ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" OSHM_MODULEFILE_TO_PREFIX "${OSHM_MODULEFILE_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/modulefile.tcl.in
  ${PROJECT_BINARY_DIR}/packaging/modulefiles/${PROJECT_VERSION} @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/modulefile.lua.in
  ${PROJECT_BINARY_DIR}/packaging/modulefiles/${PROJECT_VERSION}.lua @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/packaging/modulefiles/${PROJECT_VERSION}
  ${PROJECT_BINARY_DIR}/packaging/modulefiles/${PROJECT_VERSION}.lua
  DESTINATION ${OSHM_MODULEFILE_DIR}/oshm)
