//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// kiln talks to NVIDIA GPUs through the CUDA driver API alone, opened with
// dlopen, so that it builds and runs (everything but GPU runs) on machines
// without CUDA. Only the entry points the runtime calls are resolved, by the
// names a binary built against the CUDA headers would link (the `_v2` ones
// where the API has them).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_RUNTIME_CUDADRIVER_H
#define KILN_BACKEND_NVIDIA_RUNTIME_CUDADRIVER_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kiln::runtime {

// The driver API's handle types, declared here rather than taken from
// cuda.h, which kiln does not need to build.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

// The attribute numbers kiln reads or sets (cuda.h's enum values).
enum : int {
  kDeviceAttrMaxSharedPerBlockOptin = 97,
  kDeviceAttrComputeCapabilityMajor = 75,
  kDeviceAttrComputeCapabilityMinor = 76,
  kFuncAttrSharedSizeBytes = 1,
  kFuncAttrMaxDynamicSharedSizeBytes = 8,
  kFuncAttrNonPortableClusterSizeAllowed = 14,
};

/// cuLaunchKernelEx's launch attribute and configuration (cuda.h's
/// CUlaunchAttribute and CUlaunchConfig, same layout): kiln sets only the
/// cluster shape.
struct CuLaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
enum : int { kLaunchAttrClusterDimension = 4 };
struct CuLaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CuLaunchAttribute *attrs;
  unsigned numAttrs;
};

struct CudaDriver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, CUstream, void **, void **);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// Null on drivers older than CUDA 11.8 (no clusters).
  CUresult (*cuLaunchKernelEx)(const CuLaunchConfig *, CUfunction, void **, void **) = nullptr;
  /// Null on drivers older than CUDA 12 (no TMA); the enums as ints.
  CUresult (*cuTensorMapEncodeTiled)(void *map, int dataType, uint32_t rank, void *address,
                                     const uint64_t *globalDim, const uint64_t *globalStrides,
                                     const uint32_t *boxDim, const uint32_t *elementStrides,
                                     int interleave, int swizzle, int l2Promotion,
                                     int oobFill) = nullptr;

  /// The driver library: $KILN_CUDA_DRIVER when set (another install, or a
  /// test), else libcuda.so.1.
  static std::string libraryName();
  /// Opens `library` once per process and resolves every entry point;
  /// "no CUDA driver (NAME) on this machine" when it cannot be opened.
  static llvm::Expected<const CudaDriver *> load(const std::string &library = libraryName());

  /// success for CUDA_SUCCESS, else "WHAT failed: CUDA_ERROR_X (text)".
  llvm::Error check(CUresult result, const llvm::Twine &what) const;
};

} // namespace kiln::runtime

#endif
