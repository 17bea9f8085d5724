//===- NVPTX.h - LLVM IR, PTX and cubin for NVIDIA GPUs ---------*- C++ -*-===//
//
// The code generators of the nvidia backend's last three stages:
//   llir   the LLVM+NVVM dialect module -> LLVM IR (libdevice linked when
//          used, LLVM's O3 run);
//   ptx    LLVM IR -> PTX, through LLVM's NVPTX back end in this process;
//   cubin  PTX -> cubin, through `ptxas` as a subprocess.
// Each fills in the kernel's metadata as it learns it. No MLIR or LLVM
// header beyond the basics is included here: the heavy ones stay in
// lib/Backend/NVIDIA/Target.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_NVPTX_H
#define KILN_BACKEND_NVIDIA_NVPTX_H

#include "kiln/Base/Options.h"
#include "kiln/Base/KernelMetadata.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace kiln::nvidia {

/// The `ptxas` a compile uses: TRITON_PTXAS_PATH if set, else the CUDA
/// install's (CUDA_HOME, CUDA_PATH, /usr/local/cuda), else the one on PATH.
struct Ptxas {
  std::string path;
  int cudaMajor = 0, cudaMinor = 0;
  /// The newest PTX ISA version it accepts, e.g. 90 for CUDA 13.0.
  int ptxVersion = 0;
};
llvm::Expected<Ptxas> findPtxas();

/// The PTX ISA version a CUDA release's ptxas accepts (as Triton 3.6 maps
/// it: 12.8 -> 87, 13.0 -> 90); 0 for a release kiln does not know.
int ptxVersionForCuda(int major, int minor);

/// `sm_90a` for cuda:90 and newer (the arch-specific features, as Triton
/// uses), `sm_80` for cuda:80.
std::string smArch(const Target &target);

/// The llir stage's code generator: converts the NVVM ops that become
/// inline PTX, translates `module` (LLVM and NVVM dialects only) to LLVM IR
/// for nvptx64-nvidia-cuda, links libdevice if a `__nv_*` function is
/// called, runs O3, and returns the IR as text. Reads the kernel's metadata
/// from the module attributes (ttg.num-warps, ttg.shared, ...). Problems in
/// the module are reported as located diagnostics on its context.
llvm::Expected<std::string> generateLLVMIR(mlir::ModuleOp module,
                                           const CompileOptions &options,
                                           KernelMetadata &metadata);

/// The ptx stage's code generator: LLVM IR text to PTX text.
llvm::Expected<std::string> generatePTX(llvm::StringRef llvmIR, const CompileOptions &options,
                                        KernelMetadata &metadata);

/// The cubin stage's code generator: assembles `ptx` with ptxas; `log`,
/// when given, receives what `ptxas -v` printed (registers, spills).
llvm::Expected<std::string> assembleCubin(llvm::StringRef ptx, const CompileOptions &options,
                                          std::string *log = nullptr);

/// Metadata for PTX kiln did not write (e.g. Triton's): the entry name,
/// num_warps from `.reqntid`, no scratch, and `shared` bytes of dynamic
/// shared memory; without `shared`, only PTX that uses none is accepted,
/// since the size is not in the PTX.
llvm::Expected<KernelMetadata> metadataFromForeignPTX(llvm::StringRef ptx,
                                                      const CompileOptions &options,
                                                      std::optional<int64_t> shared);

} // namespace kiln::nvidia

#endif
