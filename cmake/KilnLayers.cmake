# Layers the build enforces. Each kiln library sees only the header trees
# of its own layer and the layers below it: kiln_layer_includes() gives a
# target an include root holding links to those trees alone (hand-written
# and generated headers), instead of all of include/kiln. An include of a
# higher layer, or of a back end from the neutral code, fails to compile.
# docs/layout.md lists the layers.

# kiln_layer_includes(<target> <tree>...): a tree is a path below
# include/kiln, a folder ("Dialect/Triton") or a file ("Config.h").
function(kiln_layer_includes target)
  set(root ${PROJECT_BINARY_DIR}/layers/${target})
  file(REMOVE_RECURSE ${root})
  foreach(tree ${ARGN})
    get_filename_component(parent ${tree} DIRECTORY)
    foreach(side src gen)
      if(side STREQUAL "src")
        set(base ${PROJECT_SOURCE_DIR}/include/kiln)
      else()
        set(base ${PROJECT_BINARY_DIR}/include/kiln)
      endif()
      file(MAKE_DIRECTORY ${root}/${side}/kiln/${parent})
      file(CREATE_LINK ${base}/${tree} ${root}/${side}/kiln/${tree} SYMBOLIC)
    endforeach()
  endforeach()
  target_include_directories(${target} PRIVATE ${root}/src ${root}/gen)
endfunction()

# The trees of each layer, bottom up; a layer's list includes those below.
set(KILN_LAYER_SUPPORT Config.h Support Base)
set(KILN_LAYER_IR ${KILN_LAYER_SUPPORT} Layout Dialect/Triton Dialect/TritonGPU)
# What neutral analyses, passes and the neutral lowering see: no back end,
# no back end's dialect.
set(KILN_LAYER_NEUTRAL ${KILN_LAYER_IR} Analysis Conversion)
set(KILN_LAYER_PIPELINE ${KILN_LAYER_NEUTRAL} Pipeline)
