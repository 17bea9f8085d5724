# The plugin SDK: what `cmake --install` puts under the prefix.
#
#   bin/kiln, bin/kiln-opt                 the tools, finding lib/ by RPATH
#   lib/libkiln.so, lib/libkiln-interpreter.so
#   include/kiln/**                        headers, .td files, generated .inc
#   lib/cmake/Kiln/KilnConfig.cmake        find_package(Kiln): Kiln::Core, ...
#   lib/cmake/Kiln/KilnConfigVersion.cmake
#   lib/cmake/Kiln/KilnTargets*.cmake      the exported libraries and tools
#   lib/cmake/Kiln/KilnPlugin.cmake        kiln_add_plugin(), kiln_add_plugin_tests()
#   lib/cmake/Kiln/KilnPlugin.map          what a plugin exports
#   lib/cmake/Kiln/KilnPluginLit.cfg.py    lit configuration of plugin tests
#
# Included from the top-level CMakeLists.txt after every target exists, in
# the shared build only (a static kiln cannot load plugins).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KILN_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Kiln)

# Installed binaries find kiln's libraries next to them (relative, so the
# prefix can move) and Debian's libMLIR.so/libLLVM.so where they were linked
# from (/usr/lib/llvm-22/lib is not on the loader's default path).
file(RELATIVE_PATH kiln_bin_to_lib
     ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR})
set_target_properties(kiln kiln-opt kiln-run-cuda PROPERTIES
  INSTALL_RPATH "\$ORIGIN/${kiln_bin_to_lib}"
  INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(KilnCore KilnSupport KilnRunSpec KilnInterpreter KilnLayout KilnRuntime PROPERTIES
  INSTALL_RPATH "\$ORIGIN"
  INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(KilnCore PROPERTIES EXPORT_NAME Core)
set_target_properties(KilnSupport PROPERTIES EXPORT_NAME Support)
set_target_properties(KilnInterpreter PROPERTIES EXPORT_NAME Interpreter)
set_target_properties(KilnLayout PROPERTIES EXPORT_NAME Layout)
set_target_properties(KilnRunSpec PROPERTIES EXPORT_NAME RunSpec)
set_target_properties(KilnRuntime PROPERTIES EXPORT_NAME Runtime)

install(TARGETS kiln kiln-opt kiln-run-cuda KilnCore KilnSupport KilnRunSpec KilnInterpreter KilnLayout
  KilnRuntime EXPORT KilnTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT KilnTargets NAMESPACE Kiln:: DESTINATION ${KILN_INSTALL_CMAKE_DIR})

# Hand-written headers (and .td files, for plugins whose ODS includes kiln's),
# then the generated ones. Config.h.in is not a header.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kiln DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/kiln DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# The MLIR kiln was built against: plugins must use the same one.
set(KILN_MLIR_VERSION ${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR})
set(KILN_MLIR_DIR ${MLIR_DIR})
set(KILN_INSTALL_INCLUDE_DIR ${CMAKE_INSTALL_INCLUDEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/KilnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  INSTALL_DESTINATION ${KILN_INSTALL_CMAKE_DIR}
  PATH_VARS KILN_INSTALL_INCLUDE_DIR)
# The loader refuses a plugin built against any other kiln version (the
# version is part of the host ABI string), so only an exact match is
# compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ExactVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KilnPlugin.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KilnPlugin.map
  ${PROJECT_SOURCE_DIR}/cmake/KilnPluginLit.cfg.py
  DESTINATION ${KILN_INSTALL_CMAKE_DIR})
