//===- Combine.h - combine regions and scratch accesses ---------*- C++ -*-===//
//
// What the tt.reduce and tt.scan lowerings share: their combine region
// applied to tuples of scalars (one value per operand), by inlining it, and
// the bit gathering and shared-memory accesses of their exchanges.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_CONVERSION_TRITONGPUTOLLVM_COMBINE_H
#define KILN_LIB_CONVERSION_TRITONGPUTOLLVM_COMBINE_H

#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

namespace kiln::lowering {

/// Whether a tt.reduce / tt.scan has a plan (kiln/Analysis/ReducePlan.h);
/// else a located error saying why, before anything is converted.
mlir::LogicalResult checkAxisPlan(mlir::Operation *op, unsigned warpSize);

/// One value per operand of the reduction or scan.
using Tuple = llvm::SmallVector<mlir::Value, 2>;

class Combiner {
public:
  /// `region` takes N accumulated values, then N new ones, and yields N.
  explicit Combiner(mlir::Region &region);

  /// region(lhs, rhs): its ops cloned at the insertion point.
  Tuple operator()(mlir::OpBuilder &b, mlir::Location loc, const Tuple &lhs,
                   const Tuple &rhs) const;
  /// region(lo, hi) where lo/hi is the pair's value from the side whose
  /// hardware bit is 0/1: `mine` and `theirs` swap places where `bitSet`.
  /// Every thread of the pair then computes the same value, whatever the
  /// region (a commutative single op needs no swap).
  Tuple ordered(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bitSet, const Tuple &mine,
                const Tuple &theirs) const;
  /// Whether the region is one commutative op on its two arguments.
  bool isCommutative() const { return commutative; }
  /// Whether that op is also exactly associative (max, min, bitwise and
  /// wrapping integer ops; not floating-point sums or products, which
  /// round): any grouping of its operands gives the same bits.
  bool isReassociable() const { return reassociable; }

private:
  mlir::Region &region;
  bool commutative = false;
  bool reassociable = false;
};

Tuple select(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cond, const Tuple &ifTrue,
             const Tuple &ifFalse);

/// The bits `bits` of the i32 `id` gathered into bits 0, 1, ... (in order).
mlir::Value gatherBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id,
                       llvm::ArrayRef<unsigned> bits);
/// Whether bit `bit` of the i32 `id` is set (an i1).
mlir::Value bitIsSet(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id, unsigned bit);
/// Whether `id & mask` is 0 (an i1; true when the mask is 0).
mlir::Value bitsClear(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id, uint64_t mask);

/// Element `index` (i32) of an array of `elem` starting `byteOffset` bytes
/// into the op's scratch at `base`.
mlir::Value scratchElement(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                           int64_t byteOffset, mlir::Type elem, mlir::Value index);
/// Stores / loads a scalar (i1 as a byte).
void storeScratch(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr, mlir::Value value);
/// `count` consecutive elements from `ptr`, in vectors of up to 16 bytes
/// (aligned as the index of `ptr` is: a multiple of `count`).
llvm::SmallVector<mlir::Value> loadScratch(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::Value ptr, mlir::Type elem, unsigned count);

} // namespace kiln::lowering

#endif
