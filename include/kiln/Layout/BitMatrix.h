//===- BitMatrix.h - Gaussian elimination over GF(2) -------------*- C++ -*-===//
//
// Linear algebra over the two-element field, on vectors of at most 64 bits
// held in a uint64_t (addition is XOR). A linear layout is a matrix over
// GF(2) whose columns are its bases, so rank, solving, free variables and
// inverses of layouts all reduce to the one incremental elimination here.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LAYOUT_BITMATRIX_H
#define KILN_LAYOUT_BITMATRIX_H

#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <optional>

namespace kiln::layout {

/// An echelon basis of the span of the vectors inserted so far. Every
/// vector accepted by insert() gets the next id (0, 1, ...); express() writes
/// any vector of the span as a XOR of accepted vectors, as a mask of ids.
///
/// Insertion order is a preference: a vector that depends on earlier ones is
/// rejected, so the accepted vectors are the leftmost independent columns of
/// the matrix, as the pivot columns of its reduced row echelon form are.
class XorBasis {
public:
  /// Adds `v` if it is independent of the accepted vectors; returns whether
  /// it was (and so whether it got id rank() - 1).
  bool insert(uint64_t v);

  /// The ids of accepted vectors whose XOR is `v`, or nullopt if `v` is not
  /// in their span. The answer is unique because accepted vectors are
  /// independent.
  std::optional<uint64_t> express(uint64_t v) const;

  bool contains(uint64_t v) const { return express(v).has_value(); }
  unsigned rank() const { return numAccepted; }

private:
  // Row echelon form keyed by leading bit: reduced[b] has highest set bit b
  // (or is 0 when no accepted combination leads with b) and equals the XOR
  // of the accepted vectors in combo[b].
  std::array<uint64_t, 64> reduced{};
  std::array<uint64_t, 64> combo{};
  unsigned numAccepted = 0;
};

/// The rank of the matrix whose columns are `columns`.
unsigned rankOf(llvm::ArrayRef<uint64_t> columns);

/// Bit i is set iff columns[i] is in the span of columns[0..i): the free
/// variables of the matrix, i.e. the inputs that can flip without changing
/// the image once all earlier inputs are fixed. At most 64 columns.
uint64_t freeColumns(llvm::ArrayRef<uint64_t> columns);

} // namespace kiln::layout

#endif // KILN_LAYOUT_BITMATRIX_H
