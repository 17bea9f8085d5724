# KILN_RUNTIME_ONLY: the CUDA runtime (lib/Backend/NVIDIA/Runtime), the run-spec library
# and kiln-run-cuda, on LLVM's Support library alone: no MLIR, no CUDA.
# With KILN_STATIC_TOOLS as well, Support is linked from its archives (and
# libstdc++ and libgcc statically), so that the tool runs on a GPU machine
# that has no LLVM. Included by the top-level CMakeLists.txt, which stops
# after it.
find_package(LLVM 22.1 REQUIRED CONFIG)
message(STATUS "KILN_RUNTIME_ONLY: LLVM ${LLVM_PACKAGE_VERSION} Support from ${LLVM_DIR}")

separate_arguments(KILN_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_compile_options(${KILN_LLVM_DEFINITIONS} -fno-exceptions)
include_directories(SYSTEM ${LLVM_INCLUDE_DIRS})
include_directories(${PROJECT_SOURCE_DIR}/include)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)

if(KILN_STATIC_TOOLS)
  set(KILN_LIBRARY_TYPE STATIC)
  # Debian's LLVMSupport target names libz3.so and the shared zstd, which
  # the GPU machine lacks; Support reaches neither for what kiln calls, so
  # the archives are named directly and the rest only as needed.
  find_package(ZLIB REQUIRED)
  find_package(Threads REQUIRED)
  find_library(KILN_ZSTD_LIBRARY NAMES libzstd.a zstd libzstd.so.1 REQUIRED)
  set(KILN_LLVM_SUPPORT_LIBS
    ${LLVM_LIBRARY_DIR}/libLLVMSupport.a ${LLVM_LIBRARY_DIR}/libLLVMDemangle.a
    ZLIB::ZLIB ${KILN_ZSTD_LIBRARY} Threads::Threads ${CMAKE_DL_LIBS})
  add_link_options(-static-libstdc++ -static-libgcc -Wl,--as-needed)
else()
  set(KILN_LIBRARY_TYPE SHARED)
  set(KILN_LLVM_SUPPORT_LIBS LLVM)
endif()

add_subdirectory(lib/Support)
add_subdirectory(lib/RunSpec)
add_subdirectory(lib/Backend/NVIDIA/Runtime)
add_subdirectory(tools/kiln-run-cuda)
