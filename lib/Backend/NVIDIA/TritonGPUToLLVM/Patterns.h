//===- Patterns.h - NVIDIA-only TTGIR-to-LLVM patterns ----------*- C++ -*-===//
//
// Lowerings of ops only NVIDIA GPUs have (ttng ops, wgmma, mma.sync,
// mbarriers, TMA), kept in this folder so that the NVVM dialect's headers
// stay in few files. Extension.cpp gives them to the neutral lowering.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_BACKEND_NVIDIA_TRITONGPUTOLLVM_PATTERNS_H
#define KILN_LIB_BACKEND_NVIDIA_TRITONGPUTOLLVM_PATTERNS_H

#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

namespace kiln::lowering {
/// Inline PTX (AT&T operand order); `result` null for none.
mlir::Value inlinePtx(mlir::OpBuilder &b, mlir::Location loc, mlir::Type result,
                      llvm::StringRef text, llvm::StringRef constraints, mlir::ValueRange args,
                      bool sideEffects = false);
} // namespace kiln::lowering

namespace kiln::nvidia {

/// True in the CTA's thread 0, which issues mbarrier, TMA and tensor-map
/// operations for all.
mlir::Value isThreadZero(mlir::OpBuilder &b, mlir::Location loc, const lowering::Context &ctx);

/// ttng.warp_group_dot and ttng.warp_group_dot_wait (sm_90a).
void populateWGMMAPatterns(lowering::TypeConverter &converter, const lowering::Context &ctx,
                           mlir::RewritePatternSet &patterns);

/// The ttng mbarrier and TMA ops TMAOpToLLVM.cpp lowers.
bool isTMAOp(mlir::Operation *op);
/// A located error when a TMA op has no lowering on the target.
mlir::LogicalResult checkTMALowering(mlir::Operation *op, const lowering::Context &ctx);
void populateTMAPatterns(lowering::TypeConverter &converter, const lowering::Context &ctx,
                         mlir::RewritePatternSet &patterns);

/// ttng.tensormap_create, tensormap_fenceproxy_acquire and
/// reinterpret_tensor_descriptor (TensorMapToLLVM.cpp; sm_90).
bool isTensorMapOp(mlir::Operation *op);
void populateTensorMapPatterns(lowering::TypeConverter &converter, const lowering::Context &ctx,
                               mlir::RewritePatternSet &patterns);

/// tt.dot with a version 2 #ttg.nvidia_mma result (mma.sync).
bool isMmaSyncDot(mlir::Operation *op);
mlir::LogicalResult checkMmaSyncDot(mlir::Operation *op, const lowering::Context &ctx);
void populateMmaSyncDotPatterns(lowering::TypeConverter &converter,
                                const lowering::Context &ctx, mlir::RewritePatternSet &patterns);

} // namespace kiln::nvidia

#endif
