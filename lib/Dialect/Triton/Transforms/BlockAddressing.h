//===- BlockAddressing.h - block accesses as tensors of pointers -*- C++ -*-===//
//
// What ttir-rewrite-tensor-pointer and ttir-rewrite-tensor-descriptor-to-pointer
// share: the address and mask arithmetic of one block of a strided parent
// tensor, and the 1:N conversion of the ops that only carry a block pointer
// or a descriptor around (functions, calls, returns, selects, scf regions).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_DIALECT_TRITON_TRANSFORMS_BLOCKADDRESSING_H
#define KILN_LIB_DIALECT_TRITON_TRANSFORMS_BLOCKADDRESSING_H

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln::tt {

/// The i64 coordinates `offset + [0, block[dim])` of a block along `dim`, as
/// a tensor of the block's rank that is 1 on every other dimension, so that
/// it broadcasts against the other dimensions' coordinates.
mlir::Value blockCoordinates(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::ArrayRef<int64_t> block, mlir::Value offset, unsigned dim);

/// `coords` widened to i64 and laid out along `dim` of a block of `block`
/// (gathers index rows with a tensor of their own rather than a range).
mlir::Value alongDimension(mlir::OpBuilder &b, mlir::Location loc,
                           llvm::ArrayRef<int64_t> block, mlir::Value coords, unsigned dim);

/// `base + sum_d coords[d] * strides[d]` over the block: a tensor of pointers
/// of the block's shape. The strides are splat to each coordinate's own
/// shape before the broadcast, as Triton does, so the stride's divisibility
/// stays visible to the axis analysis.
mlir::Value blockPointers(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> block,
                          mlir::Value base, mlir::ValueRange strides,
                          llvm::ArrayRef<mlir::Value> coords);

/// The conjunction of `0 <= coords[d] < shape[d]` over `dims`, broadcast to
/// the block's shape; null when `dims` is empty (nothing is checked).
mlir::Value blockMask(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> block,
                      mlir::ValueRange shape, llvm::ArrayRef<mlir::Value> coords,
                      llvm::ArrayRef<unsigned> dims);

/// `value` widened to i64 (Triton does the address arithmetic in i64).
mlir::Value toI64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// Patterns and legality for the ops that only pass converted values along:
/// tt.func signatures, tt.call, tt.return, arith.select and the scf
/// structural ops (for, if, while and their terminators).
void populateCarrierConversions(const mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                mlir::ConversionTarget &target);

/// Emits an error at every op that uses or defines a value of a type that
/// `isConverted` accepts but that `isHandled` does not know how to rewrite;
/// fails if there was one. Run before the conversion so that the user sees
/// which op is the problem, rather than a failure to legalize.
mlir::LogicalResult checkHandled(mlir::Operation *root,
                                 llvm::function_ref<bool(mlir::Type)> isConverted,
                                 llvm::function_ref<bool(mlir::Operation *)> isHandled,
                                 llvm::StringRef what, llvm::StringRef passName);

} // namespace kiln::tt

#endif
