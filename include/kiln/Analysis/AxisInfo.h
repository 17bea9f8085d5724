//===- AxisInfo.h - contiguity, divisibility and constancy ------*- C++ -*-===//
//
// What is known, per dimension, about the integer (or pointer) values of a
// tensor: how long its runs of consecutive values are, the largest power of
// two dividing the first value of each run, and how long its runs of equal
// values are. Coalescing picks memory layouts and vector widths from it; the
// lowering asks it how wide a load, store or mask may be. The facts follow
// Triton 3.6's AxisInfo analysis, computed here by one forward walk of each
// function (scf.for loops iterated to a fixed point).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_AXISINFO_H
#define KILN_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace kiln {

/// The facts about one value; a scalar has rank 1.
struct AxisInfo {
  /// Unknown, i.e. anything: what a divisibility of 0 means, 2^62.
  static constexpr int64_t kMaxDivisor = int64_t(1) << 62;

  /// contiguity[d]: values along d come in runs of at least this many
  /// consecutive integers (1: nothing known).
  llvm::SmallVector<int64_t> contiguity;
  /// divisibility[d]: the largest power of two known to divide the first
  /// value of every run along d (for pointers: in bytes).
  llvm::SmallVector<int64_t> divisibility;
  /// constancy[d]: values along d come in runs of at least this many equal
  /// values.
  llvm::SmallVector<int64_t> constancy;
  /// The value of every element, when known.
  std::optional<int64_t> constantValue;

  unsigned getRank() const { return contiguity.size(); }

  /// Nothing known (every fact 1).
  static AxisInfo pessimistic(unsigned rank);
  /// Every fact at its maximum: what a value never read may be.
  static AxisInfo optimistic(unsigned rank);
  /// The facts that hold for both `a` and `b`.
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b);

  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity && divisibility == other.divisibility &&
           constancy == other.constancy && constantValue == other.constantValue;
  }
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }
  /// `contiguity = [..], divisibility = [..], constancy = [..],
  /// constant_value = N|<none>`.
  void print(llvm::raw_ostream &os) const;
};

/// The largest power of two dividing `n` (kMaxDivisor for 0).
int64_t highestPowerOf2Divisor(int64_t n);

/// AxisInfo of every value in the tt.funcs under `root`, computed once.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(mlir::Operation *root);

  /// The facts of `value` (nothing known for a value outside the analysed
  /// functions).
  AxisInfo get(mlir::Value value) const;

  /// Elements of the tensor of pointers `ptr` that one access may cover
  /// along dimension `dim`: consecutive, and aligned to that many elements
  /// of the pointee type.
  unsigned getPtrAlignment(mlir::Value ptr, unsigned dim) const;
  /// Consecutive elements of `mask` along `dim` known to be equal.
  unsigned getMaskAlignment(mlir::Value mask, unsigned dim) const;

private:
  void visitBlock(mlir::Block &block);
  void visitOp(mlir::Operation *op);
  void setBlockArgs(mlir::Block &block, bool optimistic);
  void set(mlir::Value value, AxisInfo info);

  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

} // namespace kiln

#endif
