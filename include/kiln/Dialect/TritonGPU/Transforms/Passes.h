//===- Passes.h - kiln's passes of the ttgir stage --------------*- C++ -*-===//
#ifndef KILN_DIALECT_TRITONGPU_TRANSFORMS_PASSES_H
#define KILN_DIALECT_TRITONGPU_TRANSFORMS_PASSES_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Base/Options.h"
#include "mlir/IR/BuiltinOps.h"
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

/// `enc` with its dimensions permuted as `tt.trans` with `order` permutes
/// the tensor (result dimension i is source dimension order[i]).
BlockedEncodingAttr transposeBlocked(BlockedEncodingAttr enc, llvm::ArrayRef<int32_t> order);

/// The type of the `ttg.memdesc_trans` view with `order` [1, 0] of a rank-2
/// `#ttg.nvmma_shared` buffer (or of a slot of a ring of them): the same
/// bytes, dimensions swapped, `transposed` flipped, the slot's allocation.
MemDescType transposedType(MemDescType src, llvm::ArrayRef<int32_t> order);

/// The module's `ttg.target`: std::nullopt when it has none; failure, with
/// a located error naming `pass`, when it does not parse.
mlir::FailureOr<std::optional<Target>> moduleTarget(mlir::ModuleOp module, llvm::StringRef pass);

} // namespace kiln::ttg

#endif
