//===- LinearLayout.h - layouts as linear maps over GF(2) --------*- C++ -*-===//
//
// A linear layout maps a hardware location to the tensor element stored
// there. Its inputs are named dimensions (`register`, `lane`, `warp`, `block`
// for values distributed over threads; `offset`, `block` for shared memory),
// its outputs are the tensor's dimensions (`dim0`, `dim1`, ...), and every
// size is a power of two. The map is linear over GF(2): it is stored as its
// bases, the images of the powers of two of each input dimension, and any
// input maps to the XOR of the bases of its set bits. This is the model of
// Triton 3.x, so Triton's layouts and their bases carry over unchanged; see
// docs/layouts.md for the conventions and how lowerings use it.
//
// Dimension order matters only where a layout is flattened (reshape,
// product, printing, equality); the first dimension is the most minor.
//
// Layouts are values. Operations whose preconditions the caller controls
// (matching dimension names, sizes) treat a violation as an internal error;
// operations that may legitimately have no answer return std::nullopt, and
// create() checks data that comes from input.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LAYOUT_LINEARLAYOUT_H
#define KILN_LAYOUT_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln::layout {

/// The input dimension names kiln's layouts use (Triton's spelling).
inline constexpr llvm::StringLiteral kRegister = "register";
inline constexpr llvm::StringLiteral kLane = "lane";
inline constexpr llvm::StringLiteral kWarp = "warp";
inline constexpr llvm::StringLiteral kBlock = "block";
inline constexpr llvm::StringLiteral kOffset = "offset";

/// "dim<i>", the name of tensor dimension i.
std::string dimName(unsigned i);
/// dim0 .. dim<rank-1>.
llvm::SmallVector<std::string> standardDimNames(unsigned rank);

class LinearLayout {
public:
  /// One basis: a coordinate for each output dimension, in output order.
  using Basis = llvm::SmallVector<int32_t, 4>;
  /// An input dimension of size 2^bases.size(); bases[i] = L(name = 2^i).
  struct InDim {
    std::string name;
    std::vector<Basis> bases;
  };
  /// A named dimension with a power-of-two size.
  struct DimSize {
    std::string name;
    int32_t size;
  };

  /// The empty layout (no dimensions): the identity of operator*.
  LinearLayout() = default;

  /// A checked layout from data that may be wrong (attribute parameters,
  /// parsed bases): names must be distinct, sizes powers of two no larger
  /// than 2^30, every coordinate inside its dimension, and the inputs and
  /// outputs at most 63 bits each; with `requireSurjective`, every element
  /// of the outputs must be reached.
  static llvm::Expected<LinearLayout> create(std::vector<InDim> ins, std::vector<DimSize> outs,
                                             bool requireSurjective);
  /// As above, each output size the smallest power of two above every
  /// coordinate along it.
  static llvm::Expected<LinearLayout> create(std::vector<InDim> ins,
                                             llvm::ArrayRef<std::string> outNames);
  /// The same for layouts kiln builds itself: invalid data is a fatal
  /// internal error.
  LinearLayout(std::vector<InDim> ins, std::vector<DimSize> outs, bool requireSurjective);
  LinearLayout(std::vector<InDim> ins, llvm::ArrayRef<std::string> outNames);

  /// L(x) = stride * x on [0, size), from `in` to `out` (size 0: empty).
  static LinearLayout strided1D(int32_t size, int32_t stride, llvm::StringRef in,
                                llvm::StringRef out);
  static LinearLayout identity1D(int32_t size, llvm::StringRef in, llvm::StringRef out) {
    return strided1D(size, 1, in, out);
  }
  /// L(x) = 0 on [0, size); `out` has size outSize (1 keeps it surjective).
  static LinearLayout zeros1D(int32_t size, llvm::StringRef in, llvm::StringRef out,
                              int32_t outSize = 1);

  // --- Dimensions --------------------------------------------------------
  llvm::ArrayRef<InDim> getInDims() const { return ins; }
  llvm::ArrayRef<DimSize> getOutDims() const { return outs; }
  llvm::SmallVector<llvm::StringRef> getInDimNames() const;
  llvm::SmallVector<llvm::StringRef> getOutDimNames() const;
  unsigned getNumInDims() const { return ins.size(); }
  unsigned getNumOutDims() const { return outs.size(); }
  bool hasInDim(llvm::StringRef name) const;
  bool hasOutDim(llvm::StringRef name) const;
  unsigned getInDimIndex(llvm::StringRef name) const;
  unsigned getOutDimIndex(llvm::StringRef name) const;
  unsigned getInDimSizeLog2(llvm::StringRef name) const;
  int32_t getInDimSize(llvm::StringRef name) const { return int32_t(1) << getInDimSizeLog2(name); }
  unsigned getOutDimSizeLog2(llvm::StringRef name) const;
  int32_t getOutDimSize(llvm::StringRef name) const;
  unsigned getTotalInDimSizeLog2() const;
  unsigned getTotalOutDimSizeLog2() const;
  int64_t getTotalInDimSize() const { return int64_t(1) << getTotalInDimSizeLog2(); }
  int64_t getTotalOutDimSize() const { return int64_t(1) << getTotalOutDimSizeLog2(); }

  /// L(in = 2^pos), all outputs / one output.
  llvm::ArrayRef<int32_t> getBasis(llvm::StringRef in, unsigned pos) const;
  int32_t getBasis(llvm::StringRef in, unsigned pos, llvm::StringRef out) const;

  // --- Evaluation --------------------------------------------------------
  /// L(x): one value per input dimension, in input order; one coordinate
  /// per output dimension, in output order.
  llvm::SmallVector<int32_t> apply(llvm::ArrayRef<int32_t> inValues) const;
  /// L(x) by name; input dimensions not named are 0.
  llvm::SmallVector<std::pair<std::string, int32_t>>
  apply(llvm::ArrayRef<std::pair<llvm::StringRef, int32_t>> inValues) const;

  // --- Properties --------------------------------------------------------
  /// The dimension of the image (the rank of the basis matrix).
  unsigned rank() const;
  bool isSurjective() const { return rank() == getTotalOutDimSizeLog2(); }
  bool isInjective() const { return rank() == getTotalInDimSizeLog2(); }
  bool isInvertible() const {
    return isSurjective() && getTotalInDimSizeLog2() == getTotalOutDimSizeLog2();
  }
  /// Per input dimension (in input order), the bits that are free: flipping
  /// one does not change the image once the bits before it (in input order)
  /// are fixed. Zero bases are free; a free bit means replicated data.
  llvm::SmallVector<uint64_t> getFreeVariableMasks() const;
  uint64_t getFreeVariableMask(llvm::StringRef in) const;
  /// How many consecutive values of `in`, from 0, map to consecutive
  /// elements of `out` (with + rather than XOR) wherever the other inputs
  /// are; the register contiguity behind vector widths.
  int32_t getNumConsecutiveInOut(llvm::StringRef in, llvm::StringRef out) const;

  // --- Building layouts from layouts -------------------------------------
  /// (outer ∘ this): run this, then `outer`. This's outputs must be outer's
  /// inputs (in any order), each no larger.
  LinearLayout compose(const LinearLayout &outer) const;
  /// A C with this(x) = outer(C(x)) for every x, or nullopt if this holds an
  /// element that outer does not. Both must have the same outputs, this's no
  /// larger. Where this and outer store the same element at the same input
  /// bit, C keeps that bit in place; otherwise C picks outer's earliest
  /// independent bits (registers before lanes before warps before blocks),
  /// which is what makes C the cheapest data movement between two layouts.
  std::optional<LinearLayout> invertAndCompose(const LinearLayout &outer) const;
  /// The inverse of a bijective layout; nullopt otherwise.
  std::optional<LinearLayout> invert() const;
  /// A generalized inverse P (outputs -> inputs) with L(P(L(x))) = L(x):
  /// L∘P is the identity when L is surjective, P∘L when L is injective.
  /// Among inputs holding the same element, P picks the one with the
  /// earliest bits.
  LinearLayout pseudoinvert() const;

  /// The product (direct sum): `inner` acts on the low bits of every shared
  /// input and output dimension, `outer` on the bits above. Dimensions only
  /// one side has are kept; common ones must be in the same relative order.
  friend LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer);
  LinearLayout &operator*=(const LinearLayout &outer) { return *this = *this * outer; }
  /// C with A = B * C (divideLeft) or A = C * B (divideRight), if it exists:
  /// B is a tile of A. C has A's dimensions.
  friend std::optional<LinearLayout> divideLeft(const LinearLayout &a, const LinearLayout &b);
  friend std::optional<LinearLayout> divideRight(const LinearLayout &a, const LinearLayout &b);

  /// The same map with dimensions reordered (names must be a permutation).
  LinearLayout transposeIns(llvm::ArrayRef<llvm::StringRef> order) const;
  LinearLayout transposeOuts(llvm::ArrayRef<llvm::StringRef> order) const;
  /// Flattens the inputs (outputs), minor first, and splits them again into
  /// `dims`; the total size must not change.
  LinearLayout reshapeIns(llvm::ArrayRef<DimSize> dims) const;
  LinearLayout reshapeOuts(llvm::ArrayRef<DimSize> dims) const;
  /// One input (output) dimension named like the first one.
  LinearLayout flattenIns() const;
  LinearLayout flattenOuts() const;

  /// Only the named inputs (the others held at 0) and outputs, in this
  /// layout's order; output sizes unchanged.
  LinearLayout sublayout(llvm::ArrayRef<llvm::StringRef> inNames,
                         llvm::ArrayRef<llvm::StringRef> outNames) const;
  bool sublayoutIsZero(llvm::ArrayRef<llvm::StringRef> inNames,
                       llvm::ArrayRef<llvm::StringRef> outNames) const;
  /// Whether each named dimension is both an input and an output of the same
  /// size, mapped identically onto itself, with no other input reaching it.
  bool isTrivialOver(llvm::ArrayRef<llvm::StringRef> names) const;
  /// The layout without those dimensions, if it is trivial over them.
  std::optional<LinearLayout> quotient(llvm::ArrayRef<llvm::StringRef> names) const;
  /// `in` without its zero bases (its replicated bits).
  LinearLayout removeZeroBases(llvm::StringRef in) const;

  friend bool operator==(const LinearLayout &a, const LinearLayout &b);
  friend bool operator!=(const LinearLayout &a, const LinearLayout &b) { return !(a == b); }

  /// Triton-like text, one basis per line, for diagnostics.
  std::string toString() const;
  void print(llvm::raw_ostream &os) const;

  /// Coordinates as one integer, for linear algebra on them (XorBasis):
  /// output k occupies the bits above outputs 0..k-1.
  uint64_t flatten(llvm::ArrayRef<int32_t> coords) const;
  Basis unflatten(uint64_t flat) const;
  /// Every basis flattened, in input order.
  std::vector<uint64_t> flatColumns() const;

private:
  std::optional<std::string> verify(bool requireSurjective) const;

  std::vector<InDim> ins;
  std::vector<DimSize> outs;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const LinearLayout &layout);

} // namespace kiln::layout

#endif // KILN_LAYOUT_LINEARLAYOUT_H
