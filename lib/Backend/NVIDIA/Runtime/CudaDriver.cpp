//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//
#include "kiln/Backend/NVIDIA/Runtime/CudaDriver.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include <dlfcn.h>

namespace kiln::runtime {

std::string CudaDriver::libraryName() {
  const char *env = std::getenv("KILN_CUDA_DRIVER");
  return env && *env ? env : "libcuda.so.1";
}

llvm::Expected<const CudaDriver *> CudaDriver::load(const std::string &library) {
  // One table per library for the process's life: the driver is never
  // unloaded (it keeps threads and state that outlive any one run).
  static std::mutex mutex;
  static std::map<std::string, CudaDriver> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.find(library); it != loaded.end())
    return &it->second;

  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return llvm::createStringError("no CUDA driver (" + library + ") on this machine");
  CudaDriver d;
  std::string missing;
  auto resolve = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
    if (!fn && missing.empty())
      missing = name;
  };
  resolve(d.cuInit, "cuInit");
  resolve(d.cuDeviceGetCount, "cuDeviceGetCount");
  resolve(d.cuDeviceGet, "cuDeviceGet");
  resolve(d.cuDeviceGetName, "cuDeviceGetName");
  resolve(d.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  resolve(d.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  resolve(d.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  resolve(d.cuCtxSetCurrent, "cuCtxSetCurrent");
  resolve(d.cuCtxSynchronize, "cuCtxSynchronize");
  resolve(d.cuModuleLoadData, "cuModuleLoadData");
  resolve(d.cuModuleUnload, "cuModuleUnload");
  resolve(d.cuModuleGetFunction, "cuModuleGetFunction");
  resolve(d.cuFuncGetAttribute, "cuFuncGetAttribute");
  resolve(d.cuFuncSetAttribute, "cuFuncSetAttribute");
  resolve(d.cuMemAlloc, "cuMemAlloc_v2");
  resolve(d.cuMemFree, "cuMemFree_v2");
  resolve(d.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  resolve(d.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  resolve(d.cuLaunchKernel, "cuLaunchKernel");
  resolve(d.cuEventCreate, "cuEventCreate");
  resolve(d.cuEventDestroy, "cuEventDestroy_v2");
  resolve(d.cuEventRecord, "cuEventRecord");
  resolve(d.cuEventSynchronize, "cuEventSynchronize");
  resolve(d.cuEventElapsedTime, "cuEventElapsedTime");
  resolve(d.cuGetErrorName, "cuGetErrorName");
  resolve(d.cuGetErrorString, "cuGetErrorString");
  // Optional: only clustered kernels need it.
  d.cuLaunchKernelEx =
      reinterpret_cast<decltype(d.cuLaunchKernelEx)>(dlsym(handle, "cuLaunchKernelEx"));
  // Optional: only kernels with tensor descriptors need it.
  d.cuTensorMapEncodeTiled = reinterpret_cast<decltype(d.cuTensorMapEncodeTiled)>(
      dlsym(handle, "cuTensorMapEncodeTiled"));
  if (!missing.empty()) {
    dlclose(handle);
    return llvm::createStringError("the CUDA driver " + library + " has no " + missing +
                                   " (too old a driver?)");
  }
  return &loaded.emplace(library, d).first->second;
}

llvm::Error CudaDriver::check(CUresult result, const llvm::Twine &what) const {
  if (result == 0)
    return llvm::Error::success();
  const char *name = nullptr, *text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  return llvm::createStringError(what + " failed: " +
                                 (name ? std::string(name) : "error " + std::to_string(result)) +
                                 (text ? " (" + std::string(text) + ")" : std::string()));
}

} // namespace kiln::runtime
