//===- Contiguity.h - what a memory access may assume -----------*- C++ -*-===//
//
// A small, conservative stand-in for Triton's AxisInfo analysis, enough to
// vectorise the accesses of pointer arithmetic built from make_range,
// splat, broadcast, expand_dims, addi, muli, addptr, constants and the
// kernel's `tt.divisibility` hints. Anything else gets the facts that hold
// for every value (1, 1, 1).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_CONVERSION_TRITONGPUTOLLVM_CONTIGUITY_H
#define KILN_LIB_CONVERSION_TRITONGPUTOLLVM_CONTIGUITY_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace kiln::lowering {

/// Per dimension of a tensor (one entry for a scalar): runs of
/// `contiguity` elements increase by 1, runs of `constancy` elements are
/// equal, and the first element of each run is a multiple of
/// `divisibility` (bytes for pointers). Every entry is a power of two.
struct AxisFacts {
  llvm::SmallVector<int64_t> contiguity, divisibility, constancy;
};

AxisFacts analyzeAxes(mlir::Value value);

/// The widest vector access (in elements, at most 16 bytes) that a
/// tt.load or tt.store through `ptr` with `mask` may use for consecutive
/// registers: what the layout's register contiguity, the pointers'
/// contiguity and alignment and the mask's constancy all allow. 1 for a
/// scalar access. Must run before the IR is converted.
unsigned accessVectorWidth(mlir::Value ptr, mlir::Value mask);

} // namespace kiln::lowering

#endif
