//===- Patterns.h - NVIDIA-only TTGIR-to-LLVM patterns ----------*- C++ -*-===//
//
// Lowerings of ops that exist only on NVIDIA GPUs (ttng, wgmma, ...), kept
// in this folder so that the NVVM dialect's headers stay in few files.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_CONVERSION_TRITONGPUTOLLVM_NVIDIA_PATTERNS_H
#define KILN_LIB_CONVERSION_TRITONGPUTOLLVM_NVIDIA_PATTERNS_H

#include "../Lowering.h"

namespace kiln::lowering {

/// Inline PTX (AT&T operand order); `result` null for none.
mlir::Value inlinePtx(mlir::OpBuilder &b, mlir::Location loc, mlir::Type result,
                      llvm::StringRef text, llvm::StringRef constraints, mlir::ValueRange args,
                      bool sideEffects = false);

/// ttng.warp_group_dot and ttng.warp_group_dot_wait (sm_90a).
void populateWGMMAPatterns(TypeConverter &converter, const Context &ctx,
                           mlir::RewritePatternSet &patterns);

} // namespace kiln::lowering

#endif
