# kiln_add_plugin(<name> <sources>... [LINK_LIBS <libs>...] [OUTPUT_DIR <dir>])
#
# Builds a kiln plugin: a shared library (lib<name>.so) that links kiln's
# shared library, and therefore shares one LLVM/MLIR with the host. Only the
# entry point is exported; everything else stays private to the plugin.
# Works in kiln's own tree and, through find_package(Kiln), out of it.
function(kiln_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "LINK_LIBS" ${ARGN})
  add_library(${name} MODULE ${ARG_UNPARSED_ARGUMENTS})
  if(TARGET KilnCore)
    target_link_libraries(${name} PRIVATE KilnCore ${ARG_LINK_LIBS})
  else()
    target_link_libraries(${name} PRIVATE Kiln::Core ${ARG_LINK_LIBS})
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(ARG_OUTPUT_DIR)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  endif()
  # Debian's LLVM is built without exceptions; match it.
  target_compile_options(${name} PRIVATE -fno-exceptions)
endfunction()
