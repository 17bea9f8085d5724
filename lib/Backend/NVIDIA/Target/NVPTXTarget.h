//===- NVPTXTarget.h - the NVPTX TargetMachine kiln compiles with -*- C++ -*-===//
//
// Private to lib/Backend/NVIDIA/Target: shared by the llir stage (for the data
// layout and O3's target hooks) and the ptx stage (code emission).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_TARGET_NVIDIA_NVPTXTARGET_H
#define KILN_LIB_TARGET_NVIDIA_NVPTXTARGET_H

#include "kiln/Base/Options.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace kiln::nvidia {

constexpr llvm::StringLiteral kTriple = "nvptx64-nvidia-cuda";

/// The PTX version the compile targets, that of the ptxas found, and the one
/// LLVM is told (the same, or LLVM's newest when ptxas is newer than LLVM).
struct PtxVersions {
  int ptxas = 0;
  int llvm = 0;
};
llvm::Expected<PtxVersions> ptxVersions();

/// A TargetMachine for `options.target` (sm_80, sm_90a, ...) with Triton's
/// settings: PIC, aggressive optimisation, fused multiply-add allowed,
/// 32-bit pointers to shared/const/local memory. `ptxVersion` 0 leaves the
/// PTX version to LLVM: enough for the data layout and the optimiser, so
/// that the llir stage needs no ptxas.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const CompileOptions &options, int ptxVersion);

/// Undoes LLVM's fold of fptrunc through phis where the narrow values are a
/// packed vector of f16/bf16 (a tensor-core operand carried across a loop
/// back edge): the phi carries the packed vector again, half the registers.
/// First, a struct phi read only field by field (a loop-carried tensor
/// LLVM left whole) is split into a phi per field. Returns how many
/// vectors it rewrote.
unsigned packTruncatedPhis(llvm::Function &f);

} // namespace kiln::nvidia

#endif
