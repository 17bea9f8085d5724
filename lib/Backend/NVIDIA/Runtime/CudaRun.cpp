//===- CudaRun.cpp - run a run spec's kernel on an NVIDIA GPU -------------===//
#include "kiln/Backend/NVIDIA/Runtime/CudaRun.h"

#include "kiln/Backend/NVIDIA/Runtime/CudaDriver.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cstring>

namespace kiln::runtime {
namespace {

llvm::Error error(const llvm::Twine &msg) { return llvm::createStringError(msg.str()); }

template <typename T> std::vector<uint8_t> bytesOf(T value, unsigned size) {
  std::vector<uint8_t> out(size);
  std::memcpy(out.data(), &value, size); // little-endian: the low bytes
  return out;
}

} // namespace

std::vector<void *> KernelParams::pointers() {
  std::vector<void *> out;
  for (std::vector<uint8_t> &v : values)
    out.push_back(v.data());
  return out;
}

llvm::Expected<KernelParams> packParams(const interp::RunSpec &spec,
                                        llvm::ArrayRef<uint64_t> deviceAddress,
                                        uint64_t globalScratch, uint64_t profileScratch,
                                        const KernelMetadata &meta,
                                        const TensorMapEncoder &encode) {
  using interp::ArgKind;
  KernelParams params;
  size_t descriptors = 0;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const interp::ArgSpec &a = spec.args[i];
    switch (a.kind) {
    case ArgKind::Buffer:
      params.values.push_back(bytesOf(deviceAddress[i], 8));
      break;
    case ArgKind::Scalar: {
      unsigned size = interp::byteSize(a.dtype);
      if (interp::isIntKind(a.dtype))
        params.values.push_back(bytesOf(a.intValue, size));
      else
        params.values.push_back(
            bytesOf(interp::Tensor::scalarFloat(a.dtype, a.floatValue).bitsAt(0), size));
      break;
    }
    case ArgKind::TensorDescriptor: {
      if (descriptors >= meta.tensorDescs.size())
        return error("argument '" + a.name +
                     "': the kernel's metadata has no tensordesc_meta entry for this tensor "
                     "descriptor (TMA descriptors need a kernel compiled for cuda:90 or later)");
      llvm::Expected<TensorMapRequest> request =
          planTensorMap(a, meta.tensorDescs[descriptors++], deviceAddress[i]);
      if (!request)
        return request.takeError();
      TensorMapBytes map{};
      if (encode) {
        llvm::Expected<TensorMapBytes> encoded = encode(*request);
        if (!encoded)
          return error("argument '" + a.name + "': " + llvm::toString(encoded.takeError()));
        map = *encoded;
      }
      params.values.emplace_back(map.begin(), map.end());
      for (int64_t d : a.shape)
        params.values.push_back(bytesOf(int32_t(d), 4));
      int64_t stride = 1;
      std::vector<std::vector<uint8_t>> strides;
      for (size_t d = a.shape.size(); d-- > 0;) {
        strides.insert(strides.begin(), bytesOf(stride, 8));
        stride *= a.shape[d];
      }
      for (std::vector<uint8_t> &s : strides)
        params.values.push_back(std::move(s));
      break;
    }
    }
  }
  params.values.push_back(bytesOf(globalScratch, 8));
  params.values.push_back(bytesOf(profileScratch, 8));
  return params;
}

uint64_t scratchBytes(int64_t perProgram, const std::array<int64_t, 3> &grid, int numCtas) {
  return uint64_t(perProgram) * uint64_t(grid[0]) * uint64_t(grid[1]) * uint64_t(grid[2]) *
         uint64_t(numCtas);
}

llvm::Expected<int> parseCudaTarget(llvm::StringRef target) {
  int capability;
  if (!target.consume_front("cuda:") || target.getAsInteger(10, capability) || capability <= 0)
    return error("--target must be cuda:<capability> (cuda:90) to run on the GPU");
  return capability;
}

llvm::Expected<CudaRunResult> runOnCuda(const interp::RunSpec &spec, interp::Launch &launch,
                                        const CompiledKernel &kernel,
                                        const CudaRunOptions &options) {
  // The parameters are checked against the metadata (the tensor
  // descriptors' entries, the scratch sizes) before the driver is touched.
  std::vector<uint64_t> noAddresses(spec.args.size(), 0);
  if (llvm::Expected<KernelParams> checked =
          packParams(spec, noAddresses, 0, 0, kernel.metadata);
      !checked)
    return checked.takeError();
  llvm::Expected<const CudaDriver *> loaded = CudaDriver::load();
  if (!loaded)
    return loaded.takeError();
  const CudaDriver &cu = **loaded;
  const KernelMetadata &meta = kernel.metadata;

  if (llvm::Error e = cu.check(cu.cuInit(0), "cuInit"))
    return std::move(e);
  int count = 0;
  if (llvm::Error e = cu.check(cu.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return std::move(e);
  if (count == 0)
    return error("no CUDA device on this machine");
  CUdevice device;
  if (llvm::Error e = cu.check(cu.cuDeviceGet(&device, 0), "cuDeviceGet"))
    return std::move(e);
  char name[256] = {};
  int major = 0, minor = 0, sharedOptin = 0;
  if (llvm::Error e =
          cu.check(cu.cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName"))
    return std::move(e);
  if (llvm::Error e =
          cu.check(cu.cuDeviceGetAttribute(&major, kDeviceAttrComputeCapabilityMajor, device),
                   "cuDeviceGetAttribute"))
    return std::move(e);
  if (llvm::Error e =
          cu.check(cu.cuDeviceGetAttribute(&minor, kDeviceAttrComputeCapabilityMinor, device),
                   "cuDeviceGetAttribute"))
    return std::move(e);
  if (llvm::Error e =
          cu.check(cu.cuDeviceGetAttribute(&sharedOptin, kDeviceAttrMaxSharedPerBlockOptin, device),
                   "cuDeviceGetAttribute"))
    return std::move(e);
  CudaRunResult result;
  int capability = major * 10 + minor;
  result.device = std::string(name) + " (sm_" + std::to_string(capability) + ")";
  if (capability != options.capability)
    return error("the GPU is " + result.device +
                 " but the target is cuda:" + llvm::Twine(options.capability));
  if (meta.arch && *meta.arch != options.capability)
    return error("the kernel was compiled for cuda:" + llvm::Twine(*meta.arch) +
                 " but the target is cuda:" + llvm::Twine(options.capability));

  CUcontext context;
  if (llvm::Error e =
          cu.check(cu.cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain"))
    return std::move(e);
  auto releaseContext = llvm::make_scope_exit([&] { cu.cuDevicePrimaryCtxRelease(device); });
  if (llvm::Error e = cu.check(cu.cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return std::move(e);

  CUmodule module;
  if (llvm::Error e = cu.check(cu.cuModuleLoadData(&module, kernel.image.c_str()),
                               "loading the kernel image (cuModuleLoadData)"))
    return std::move(e);
  auto unload = llvm::make_scope_exit([&] { cu.cuModuleUnload(module); });
  CUfunction function;
  if (llvm::Error e = cu.check(cu.cuModuleGetFunction(&function, module, meta.name.c_str()),
                               "finding the kernel '" + meta.name + "' (cuModuleGetFunction)"))
    return std::move(e);
  // Past the 48 KiB every kernel may use, dynamic shared memory must be
  // opted into; like Triton's launcher, allow all the device offers.
  if (meta.shared > 48 * 1024) {
    int staticShared = 0;
    if (llvm::Error e =
            cu.check(cu.cuFuncGetAttribute(&staticShared, kFuncAttrSharedSizeBytes, function),
                     "cuFuncGetAttribute"))
      return std::move(e);
    if (meta.shared > sharedOptin - staticShared)
      return error("the kernel needs " + llvm::Twine(meta.shared) +
                   " bytes of shared memory; the GPU offers " +
                   llvm::Twine(sharedOptin - staticShared));
    if (llvm::Error e = cu.check(cu.cuFuncSetAttribute(function, kFuncAttrMaxDynamicSharedSizeBytes,
                                                       sharedOptin - staticShared),
                                 "cuFuncSetAttribute"))
      return std::move(e);
  }

  // Clusters of more than 8 CTAs (16 on sm_90) must be opted into, as
  // Triton's launcher does.
  if (meta.numCtas > 8)
    if (llvm::Error e = cu.check(
            cu.cuFuncSetAttribute(function, kFuncAttrNonPortableClusterSizeAllowed, 1),
            "cuFuncSetAttribute (a cluster of " + llvm::Twine(meta.numCtas) + " CTAs)"))
      return std::move(e);

  // Device memory: one allocation per buffer, then the scratch buffers.
  std::vector<CUdeviceptr> allocations;
  auto freeAll = llvm::make_scope_exit([&] {
    for (CUdeviceptr p : allocations)
      cu.cuMemFree(p);
  });
  auto allocate = [&](uint64_t bytes, const llvm::Twine &what) -> llvm::Expected<CUdeviceptr> {
    CUdeviceptr p = 0;
    if (llvm::Error e = cu.check(cu.cuMemAlloc(&p, std::max<uint64_t>(bytes, 1)),
                                 "allocating " + llvm::Twine(bytes) + " bytes for " + what))
      return std::move(e);
    allocations.push_back(p);
    return p;
  };
  std::vector<uint64_t> address(spec.args.size(), 0);
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (launch.bufferOfArg[i] < 0)
      continue;
    const interp::Buffer &b = launch.memory.buffer(launch.bufferOfArg[i]);
    llvm::Expected<CUdeviceptr> p = allocate(b.bytes.size(), "'" + b.name + "'");
    if (!p)
      return p.takeError();
    address[i] = *p;
    if (llvm::Error e = cu.check(cu.cuMemcpyHtoD(*p, b.bytes.data(), b.bytes.size()),
                                 "copying '" + b.name + "' to the GPU"))
      return std::move(e);
  }
  uint64_t scratch[2] = {0, 0};
  int64_t scratchSize[2] = {meta.globalScratchSize, meta.profileScratchSize};
  int64_t scratchAlign[2] = {meta.globalScratchAlign, meta.profileScratchAlign};
  const char *scratchName[2] = {"global scratch", "profile scratch"};
  for (int s = 0; s < 2; ++s) {
    uint64_t bytes = scratchBytes(scratchSize[s], spec.grid, meta.numCtas);
    if (!bytes)
      continue;
    llvm::Expected<CUdeviceptr> p = allocate(bytes, scratchName[s]);
    if (!p)
      return p.takeError();
    if (*p % uint64_t(scratchAlign[s]))
      return error(llvm::Twine(scratchName[s]) + " needs " + llvm::Twine(scratchAlign[s]) +
                   "-byte alignment, more than the driver's allocations give");
    scratch[s] = *p;
  }

  // The CUtensorMap is encoded on the host; it travels as a parameter.
  TensorMapEncoder encode = [&](const TensorMapRequest &r) -> llvm::Expected<TensorMapBytes> {
    if (!cu.cuTensorMapEncodeTiled)
      return error("the CUDA driver has no cuTensorMapEncodeTiled (TMA needs CUDA 12)");
    alignas(64) TensorMapBytes map{};
    if (llvm::Error e = cu.check(cu.cuTensorMapEncodeTiled(
                                     map.data(), r.dataType, r.rank,
                                     reinterpret_cast<void *>(r.address), r.globalDim,
                                     r.globalStrides, r.boxDim, r.elementStrides, r.interleave,
                                     r.swizzle, r.l2Promotion, r.oobFill),
                                 "encoding its TMA descriptor (cuTensorMapEncodeTiled)"))
      return std::move(e);
    return map;
  };
  llvm::Expected<KernelParams> params =
      packParams(spec, address, scratch[0], scratch[1], meta, encode);
  if (!params)
    return params.takeError();
  std::vector<void *> paramPointers = params->pointers();

  CUevent events[2];
  for (CUevent &ev : events)
    if (llvm::Error e = cu.check(cu.cuEventCreate(&ev, 0), "cuEventCreate"))
      return std::move(e);
  auto destroyEvents = llvm::make_scope_exit([&] {
    for (CUevent ev : events)
      cu.cuEventDestroy(ev);
  });
  // A program of several CTAs is a cluster along x, as Triton launches it:
  // the hardware grid has num_ctas times as many CTAs along x.
  if (meta.numCtas > 1 && !cu.cuLaunchKernelEx)
    return error("@" + meta.name + " runs in clusters of " + llvm::Twine(meta.numCtas) +
                 " CTAs, which this CUDA driver cannot launch (no cuLaunchKernelEx)");
  if (uint64_t(spec.grid[0]) * uint64_t(meta.numCtas) > uint64_t(INT32_MAX))
    return error("the grid's x size times num_ctas exceeds 2^31 - 1 CTAs");
  auto launchKernel = [&]() -> CUresult {
    unsigned threads = unsigned(32 * meta.numWarps);
    if (meta.numCtas == 1)
      return cu.cuLaunchKernel(function, unsigned(spec.grid[0]), unsigned(spec.grid[1]),
                               unsigned(spec.grid[2]), threads, 1, 1, unsigned(meta.shared),
                               nullptr, paramPointers.data(), nullptr);
    CuLaunchAttribute cluster{};
    cluster.id = kLaunchAttrClusterDimension;
    cluster.value.clusterDim = {unsigned(meta.numCtas), 1, 1};
    CuLaunchConfig config{unsigned(spec.grid[0] * meta.numCtas),
                          unsigned(spec.grid[1]),
                          unsigned(spec.grid[2]),
                          threads,
                          1,
                          1,
                          unsigned(meta.shared),
                          nullptr,
                          &cluster,
                          1};
    return cu.cuLaunchKernelEx(&config, function, paramPointers.data(), nullptr);
  };
  // One launch between two events; its time in milliseconds.
  auto timedLaunch = [&]() -> llvm::Expected<double> {
    if (llvm::Error e = cu.check(cu.cuEventRecord(events[0], nullptr), "cuEventRecord"))
      return std::move(e);
    if (llvm::Error e = cu.check(launchKernel(), "launching @" + meta.name))
      return std::move(e);
    if (llvm::Error e = cu.check(cu.cuEventRecord(events[1], nullptr), "cuEventRecord"))
      return std::move(e);
    // Faults inside the kernel surface here.
    if (llvm::Error e = cu.check(cu.cuCtxSynchronize(), "running @" + meta.name))
      return std::move(e);
    float ms = 0;
    if (llvm::Error e =
            cu.check(cu.cuEventElapsedTime(&ms, events[0], events[1]), "cuEventElapsedTime"))
      return std::move(e);
    return double(ms);
  };
  llvm::Expected<double> ms = timedLaunch();
  if (!ms)
    return ms.takeError();
  result.ms = *ms;

  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (launch.bufferOfArg[i] < 0 || spec.args[i].role == interp::Role::Input)
      continue;
    unsigned id = launch.bufferOfArg[i];
    interp::Buffer &b = launch.memory.buffer(id);
    if (llvm::Error e = cu.check(cu.cuMemcpyDtoH(b.bytes.data(), address[i], b.bytes.size()),
                                 "copying '" + b.name + "' from the GPU"))
      return std::move(e);
    launch.memory.markWrittenUnlessPoison(id);
  }

  // Timing only: the outputs were read back above (inout buffers change).
  std::vector<double> times;
  for (unsigned r = 0; r < options.repeat; ++r) {
    llvm::Expected<double> t = timedLaunch();
    if (!t)
      return t.takeError();
    times.push_back(*t);
  }
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    result.medianMs = times[times.size() / 2];
  }
  return result;
}

llvm::Expected<unsigned> runCaseOnCuda(const interp::RunSpec &spec, const CompiledKernel &kernel,
                                       const CudaRunOptions &options, llvm::StringRef outputDir,
                                       llvm::raw_ostream &os) {
  if (!spec.kernel.empty() && spec.kernel != kernel.metadata.name)
    return error(spec.path + ": the run spec's kernel is '" + spec.kernel +
                 "' but the kernel image's metadata names '" + kernel.metadata.name + "'");
  // An argument the GPU cannot take fails here, before the GPU is reached.
  if (llvm::Expected<KernelParams> p =
          packParams(spec, std::vector<uint64_t>(spec.args.size()), 0, 0, kernel.metadata);
      !p)
    return error(spec.path + ": " + llvm::toString(p.takeError()));
  llvm::Expected<interp::Launch> launch = interp::prepareBuffers(spec, options.memoryLimit);
  if (!launch)
    return error(spec.path + ": " + llvm::toString(launch.takeError()));
  llvm::Expected<CudaRunResult> run = runOnCuda(spec, *launch, kernel, options);
  if (!run)
    return error(spec.name + ": " + llvm::toString(run.takeError()));
  if (!outputDir.empty())
    if (llvm::Error e = interp::writeOutputs(spec, *launch, outputDir))
      return std::move(e);
  os << spec.name << ": ran @" << kernel.metadata.name << " on grid [" << spec.grid[0] << ", "
     << spec.grid[1] << ", " << spec.grid[2] << "] on " << run->device << " in "
     << llvm::format("%.4f", run->ms) << " ms";
  if (options.repeat)
    os << " (median of " << options.repeat << " more: " << llvm::format("%.4f", run->medianMs)
       << " ms)";
  os << "\n";
  llvm::Expected<std::vector<interp::OutputCheck>> checks = interp::checkOutputs(spec, *launch);
  if (!checks)
    return checks.takeError();
  return interp::printChecks(spec, *checks, os);
}

} // namespace kiln::runtime
