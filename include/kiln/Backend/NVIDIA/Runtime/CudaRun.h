//===- CudaRun.h - run a run spec's kernel on an NVIDIA GPU ----*- C++ -*-===//
//
// Triton 3.6's launch ABI: the kernel's parameters are the TTIR function's
// arguments in order (buffers as 64-bit device pointers, scalars as their
// type's bytes; constexpr arguments are not in the signature at all), then
// two hidden pointers, global scratch and profile scratch (null when the
// kernel needs none, else size-per-program times the number of programs).
// The block is 32 * num_warps threads.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_RUNTIME_CUDARUN_H
#define KILN_BACKEND_NVIDIA_RUNTIME_CUDARUN_H

#include "kiln/RunSpec/RunSpec.h"
#include "kiln/Backend/NVIDIA/Runtime/KernelMetadata.h"
#include "kiln/Backend/NVIDIA/Runtime/TensorMap.h"

#include <functional>

#include <vector>

namespace kiln::runtime {

/// The kernel's parameters, each its own bytes, as cuLaunchKernel takes them.
struct KernelParams {
  std::vector<std::vector<uint8_t>> values;
  /// One pointer per parameter, valid while `values` is unchanged.
  std::vector<void *> pointers();
};

/// Encodes one CUtensorMap (the driver's cuTensorMapEncodeTiled).
using TensorMapEncoder = std::function<llvm::Expected<TensorMapBytes>(const TensorMapRequest &)>;

/// Packs `spec`'s arguments: `deviceAddress[i]` is argument i's buffer on
/// the device (unused for scalars), then the two scratch pointers. A tensor
/// descriptor argument (the n-th) is its CUtensorMap, planned from
/// `meta.tensorDescs[n]` and made by `encode` (without one, zeros: the
/// parameters are only checked), then its shape as i32s and its row-major
/// strides as i64s.
llvm::Expected<KernelParams> packParams(const interp::RunSpec &spec,
                                        llvm::ArrayRef<uint64_t> deviceAddress,
                                        uint64_t globalScratch, uint64_t profileScratch,
                                        const KernelMetadata &meta = {},
                                        const TensorMapEncoder &encode = nullptr);

/// Bytes of a scratch buffer for `grid` (0: none is allocated).
uint64_t scratchBytes(int64_t perProgram, const std::array<int64_t, 3> &grid, int numCtas);

struct CudaRunOptions {
  int capability = 90; ///< the --target's: the device must match it
  unsigned repeat = 0; ///< extra timed launches after the checked one
  uint64_t memoryLimit = interp::kDefaultMemoryLimit; ///< host memory for the buffers
};

struct CudaRunResult {
  std::string device;  ///< "NVIDIA H200 (sm_90)"
  double ms = 0;       ///< the checked launch, by CUDA events
  double medianMs = 0; ///< of the `repeat` extra launches
};

/// Copies `launch`'s buffers to the device (outputs still poisoned), runs
/// the kernel once, copies every output and inout buffer back and marks
/// what the kernel wrote; then times `repeat` more launches.
llvm::Expected<CudaRunResult> runOnCuda(const interp::RunSpec &spec, interp::Launch &launch,
                                        const CompiledKernel &kernel,
                                        const CudaRunOptions &options);

/// "cuda:90" -> 90; an error for any other target.
llvm::Expected<int> parseCudaTarget(llvm::StringRef target);

/// Everything `kiln run --target cuda:N` does once it has a kernel: buffers,
/// run, outputs to `outputDir` (when set), checks and one line per output
/// on `os`. Returns how many outputs failed.
llvm::Expected<unsigned> runCaseOnCuda(const interp::RunSpec &spec, const CompiledKernel &kernel,
                  const CudaRunOptions &options, llvm::StringRef outputDir,
                  llvm::raw_ostream &os);

} // namespace kiln::runtime

#endif
