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
/// fastest dimension, split over `numCTAs` CTAs as defaultCGABases says.
BlockedEncodingAttr getDefaultBlockedEncoding(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                              unsigned numWarps, unsigned threadsPerWarp,
                                              unsigned numCTAs = 1, uint64_t keepWhole = 0);

/// The CGA bases (`CGALayout`, flattened) that split a tensor of `shape`
/// over `numCTAs` CTAs as Triton does by default: as many CTAs as it has
/// elements to the most strided dimension (the last of `order`), the rest
/// to the next, and CTAs left over hold copies; bases fastest dimension
/// first. The dimensions in mask `keepWhole` (axes a
/// reduction or scan combines along) are never split, so that each CTA
/// holds whole rows of them.
llvm::SmallVector<int32_t> defaultCGABases(llvm::ArrayRef<int64_t> shape,
                                           llvm::ArrayRef<unsigned> order, unsigned numCTAs,
                                           uint64_t keepWhole = 0);

/// A blocked layout with `sizePerThread` and `order` whose lanes and warps
/// fill `shape` from the fastest dimension (what Triton's shape-based
/// BlockedEncodingAttr builder picks).
BlockedEncodingAttr buildBlockedEncoding(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                         llvm::ArrayRef<unsigned> sizePerThread,
                                         llvm::ArrayRef<unsigned> order, unsigned numWarps,
                                         unsigned threadsPerWarp,
                                         llvm::ArrayRef<int32_t> cgaLayout = {});

/// The CGA bases of `enc` permuted as `tt.trans` with `order` permutes the
/// tensor (result dimension i is source dimension order[i]).
llvm::SmallVector<int32_t> transposeCGA(llvm::ArrayRef<int32_t> cga,
                                        llvm::ArrayRef<int32_t> order);

/// `enc` with its dimensions permuted as `tt.trans` with `order` permutes
/// the tensor (result dimension i is source dimension order[i]).
BlockedEncodingAttr transposeBlocked(BlockedEncodingAttr enc, llvm::ArrayRef<int32_t> order);

/// The layout in which a view op (tt.trans, tt.reshape, tt.split) yields
/// its result from a source in `encoding` without moving an element
/// between threads; null when there is none.
mlir::Attribute viewResultEncoding(mlir::Operation *op, mlir::Attribute encoding);

/// The type of the `ttg.memdesc_trans` view with `order` [1, 0] of a rank-2
/// `#ttg.nvmma_shared` buffer (or of a slot of a ring of them): the same
/// bytes, dimensions swapped, `transposed` flipped, the slot's allocation.
MemDescType transposedType(MemDescType src, llvm::ArrayRef<int32_t> order);

/// The module's `ttg.target`: std::nullopt when it has none; failure, with
/// a located error naming `pass`, when it does not parse.
mlir::FailureOr<std::optional<Target>> moduleTarget(mlir::ModuleOp module, llvm::StringRef pass);

} // namespace kiln::ttg

#endif
