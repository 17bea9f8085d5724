//===- Passes.h - kiln's passes of the ttgir stage --------------*- C++ -*-===//
#ifndef KILN_DIALECT_TRITONGPU_TRANSFORMS_PASSES_H
#define KILN_DIALECT_TRITONGPU_TRANSFORMS_PASSES_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "mlir/Pass/Pass.h"

namespace kiln::ttg {

#define GEN_PASS_DECL
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"

/// Triton's default blocked layout of `shape`: one element per thread,
/// order = the dimensions last to first, lanes and warps spread from the
/// fastest dimension.
BlockedEncodingAttr getDefaultBlockedEncoding(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                              unsigned numWarps, unsigned threadsPerWarp);

/// A blocked layout with `sizePerThread` and `order` whose lanes and warps
/// fill `shape` from the fastest dimension (what Triton's shape-based
/// BlockedEncodingAttr builder picks).
BlockedEncodingAttr buildBlockedEncoding(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                         llvm::ArrayRef<unsigned> sizePerThread,
                                         llvm::ArrayRef<unsigned> order, unsigned numWarps,
                                         unsigned threadsPerWarp);

} // namespace kiln::ttg

#endif
