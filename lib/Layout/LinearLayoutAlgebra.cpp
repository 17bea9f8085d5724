//===- LinearLayoutAlgebra.cpp - products, composition and inverses -------===//
#include "kiln/Layout/BitMatrix.h"
#include "kiln/Layout/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::layout {

using llvm::ArrayRef;
using llvm::StringRef;
using Basis = LinearLayout::Basis;
using InDim = LinearLayout::InDim;
using DimSize = LinearLayout::DimSize;

namespace {
[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::report_fatal_error("kiln layout: internal error: " + what);
}

bool sameNameSet(ArrayRef<StringRef> a, ArrayRef<StringRef> b) {
  return a.size() == b.size() &&
         llvm::all_of(a, [&](StringRef n) { return llvm::is_contained(b, n); });
}

// The shortest list that contains both `x` and `y` as subsequences, taking
// `x`'s element first when either could come next. Common names in a
// different relative order have no such list: std::nullopt.
std::optional<llvm::SmallVector<StringRef>> mergeDimOrders(ArrayRef<StringRef> x,
                                                           ArrayRef<StringRef> y) {
  llvm::SmallVector<StringRef> merged;
  size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (i < x.size() && j < y.size() && x[i] == y[j]) {
      merged.push_back(x[i++]);
      ++j;
    } else if (i < x.size() && !llvm::is_contained(y, x[i])) {
      merged.push_back(x[i++]);
    } else if (j < y.size() && !llvm::is_contained(x, y[j])) {
      merged.push_back(y[j++]);
    } else {
      return std::nullopt; // both next names are common, and they differ
    }
  }
  return merged;
}

// The (input dimension, bit) of each flat column of `ll`.
llvm::SmallVector<std::pair<unsigned, unsigned>> columnOwners(const LinearLayout &ll) {
  llvm::SmallVector<std::pair<unsigned, unsigned>> owners;
  for (auto [d, in] : llvm::enumerate(ll.getInDims()))
    for (unsigned bit = 0; bit < in.bases.size(); ++bit)
      owners.push_back({unsigned(d), bit});
  return owners;
}

// `ll`'s input dimensions as the outputs of a map back into them.
std::vector<DimSize> inputsAsOutputs(const LinearLayout &ll) {
  std::vector<DimSize> outs;
  for (const InDim &in : ll.getInDims())
    outs.push_back({in.name, int32_t(1) << in.bases.size()});
  return outs;
}

} // namespace

// --- Products -----------------------------------------------------------------

LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer) {
  auto inNames = mergeDimOrders(inner.getInDimNames(), outer.getInDimNames());
  auto outNames = mergeDimOrders(inner.getOutDimNames(), outer.getOutDimNames());
  if (!inNames || !outNames)
    fail("product of layouts whose common dimensions are in different orders:" + inner.toString() +
         "\nand" + outer.toString());
  auto log2Of = [](const LinearLayout &ll, StringRef out) {
    return ll.hasOutDim(out) ? ll.getOutDimSizeLog2(out) : 0;
  };
  std::vector<DimSize> outs;
  for (StringRef o : *outNames) {
    unsigned bits = log2Of(inner, o) + log2Of(outer, o);
    if (bits > 30)
      fail("product larger than 2^30 along '" + o + "'");
    outs.push_back({o.str(), int32_t(1) << bits});
  }
  // Bases of one side in the product's output order; `shifted` moves them
  // above the inner layout's bits.
  auto expand = [&](const LinearLayout &ll, StringRef in, bool shifted, std::vector<Basis> &into) {
    if (!ll.hasInDim(in))
      return;
    for (unsigned i = 0, e = ll.getInDimSizeLog2(in); i < e; ++i) {
      Basis b;
      for (StringRef o : *outNames)
        b.push_back(ll.hasOutDim(o) ? ll.getBasis(in, i, o) << (shifted ? log2Of(inner, o) : 0)
                                    : 0);
      into.push_back(std::move(b));
    }
  };
  std::vector<InDim> ins;
  for (StringRef in : *inNames) {
    InDim dim{in.str(), {}};
    expand(inner, in, false, dim.bases);
    expand(outer, in, true, dim.bases);
    ins.push_back(std::move(dim));
  }
  return LinearLayout(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

// Builds the C of A = B * C (left) or A = C * B (right) bit by bit, then
// checks the product, so any structure that is not a tile is rejected.
static std::optional<LinearLayout> divide(const LinearLayout &a, const LinearLayout &b, bool left) {
  // B's dimensions must be A's, in the same relative order (else the
  // product is not even defined).
  auto within = [](ArrayRef<StringRef> small, ArrayRef<StringRef> big) {
    return llvm::all_of(small, [&](StringRef n) { return llvm::is_contained(big, n); }) &&
           mergeDimOrders(big, small);
  };
  if (!within(b.getInDimNames(), a.getInDimNames()) ||
      !within(b.getOutDimNames(), a.getOutDimNames()))
    return std::nullopt;
  auto bIn = [&](StringRef n) { return b.hasInDim(n) ? b.getInDimSizeLog2(n) : 0u; };
  auto bOut = [&](StringRef n) { return b.hasOutDim(n) ? b.getOutDimSizeLog2(n) : 0u; };
  std::vector<DimSize> outs;
  for (const DimSize &o : a.getOutDims()) {
    if (unsigned(llvm::Log2_32(o.size)) < bOut(o.name))
      return std::nullopt;
    outs.push_back({o.name, o.size >> bOut(o.name)});
  }
  std::vector<InDim> ins;
  for (const InDim &in : a.getInDims()) {
    unsigned tile = bIn(in.name);
    if (in.bases.size() < tile)
      return std::nullopt;
    // Left: B's bits come first and C's sit above B's outputs. Right: C's
    // bits come first, unshifted.
    InDim c{in.name, {}};
    unsigned first = left ? tile : 0, count = in.bases.size() - tile;
    for (unsigned i = first; i < first + count; ++i) {
      Basis basis;
      for (auto [k, o] : llvm::enumerate(a.getOutDims()))
        basis.push_back(in.bases[i][k] >> (left ? bOut(o.name) : 0));
      c.bases.push_back(std::move(basis));
    }
    ins.push_back(std::move(c));
  }
  llvm::Expected<LinearLayout> c = LinearLayout::create(std::move(ins), std::move(outs), false);
  if (!c) {
    llvm::consumeError(c.takeError());
    return std::nullopt;
  }
  if ((left ? b * *c : *c * b) != a)
    return std::nullopt;
  return std::move(*c);
}

std::optional<LinearLayout> divideLeft(const LinearLayout &a, const LinearLayout &b) {
  return divide(a, b, /*left=*/true);
}

std::optional<LinearLayout> divideRight(const LinearLayout &a, const LinearLayout &b) {
  return divide(a, b, /*left=*/false);
}

// --- Composition and inverses -------------------------------------------------

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  if (!sameNameSet(getOutDimNames(), outer.getInDimNames()))
    fail("compose: the outputs of" + toString() + "\nare not the inputs of" + outer.toString());
  for (const DimSize &o : outs)
    if (o.size > outer.getInDimSize(o.name))
      fail("compose: output '" + o.name + "' is larger than the next layout's input");
  std::vector<InDim> newIns;
  for (const InDim &in : ins) {
    InDim dim{in.name, {}};
    for (const Basis &b : in.bases) {
      llvm::SmallVector<std::pair<StringRef, int32_t>> named;
      for (auto [o, c] : llvm::zip(outs, b))
        named.push_back({o.name, c});
      Basis image;
      for (auto &[name, c] : outer.apply(named))
        image.push_back(c);
      dim.bases.push_back(std::move(image));
    }
    newIns.push_back(std::move(dim));
  }
  return LinearLayout(std::move(newIns), outer.outs, /*requireSurjective=*/false);
}

std::optional<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (!sameNameSet(getOutDimNames(), outer.getOutDimNames()))
    fail("invertAndCompose: layouts with different outputs:" + toString() + "\nand" +
         outer.toString());
  for (const DimSize &o : outs)
    if (o.size > outer.getOutDimSize(o.name))
      fail("invertAndCompose: output '" + o.name + "' is larger than in the other layout");
  // This layout's bases in outer's output order, so both flatten alike.
  LinearLayout self = transposeOuts(outer.getOutDimNames());
  std::vector<uint64_t> outerColumns = outer.flatColumns();
  auto owners = columnOwners(outer);
  XorBasis span;
  llvm::SmallVector<unsigned> idToColumn;
  for (auto [j, column] : llvm::enumerate(outerColumns))
    if (span.insert(column))
      idToColumn.push_back(j);

  std::vector<DimSize> newOuts = inputsAsOutputs(outer);
  auto unit = [&](unsigned dim, unsigned bit) {
    Basis b(newOuts.size(), 0);
    b[dim] = int32_t(1) << bit;
    return b;
  };
  std::vector<InDim> newIns;
  for (const InDim &in : self.ins) {
    InDim dim{in.name, {}};
    for (auto [bit, basis] : llvm::enumerate(in.bases)) {
      uint64_t target = outer.flatten(basis);
      // The same element at the same input bit: no movement needed.
      if (outer.hasInDim(in.name) && bit < outer.getInDimSizeLog2(in.name) &&
          outer.flatten(outer.getBasis(in.name, bit)) == target) {
        dim.bases.push_back(unit(outer.getInDimIndex(in.name), bit));
        continue;
      }
      std::optional<uint64_t> ids = span.express(target);
      if (!ids)
        return std::nullopt;
      Basis b(newOuts.size(), 0);
      for (unsigned id = 0; id < idToColumn.size(); ++id)
        if (*ids & (uint64_t(1) << id)) {
          auto [d, ownerBit] = owners[idToColumn[id]];
          b[d] ^= int32_t(1) << ownerBit;
        }
      dim.bases.push_back(std::move(b));
    }
    newIns.push_back(std::move(dim));
  }
  return LinearLayout(std::move(newIns), std::move(newOuts), /*requireSurjective=*/false);
}

LinearLayout LinearLayout::pseudoinvert() const {
  // Complete the leftmost independent columns to a basis of the output space
  // with unit vectors; P sends those columns back to their inputs and the
  // completing units to 0.
  std::vector<uint64_t> columns = flatColumns();
  auto owners = columnOwners(*this);
  XorBasis span;
  llvm::SmallVector<int> idToColumn; // -1 for a completing unit vector
  for (auto [j, column] : llvm::enumerate(columns))
    if (span.insert(column))
      idToColumn.push_back(j);
  unsigned outBits = getTotalOutDimSizeLog2();
  for (unsigned k = 0; k < outBits; ++k)
    if (span.insert(uint64_t(1) << k))
      idToColumn.push_back(-1);

  std::vector<DimSize> newOuts = inputsAsOutputs(*this);
  std::vector<InDim> newIns;
  unsigned k = 0; // the flat output bit whose image is being computed
  for (const DimSize &o : outs) {
    InDim dim{o.name, {}};
    for (unsigned bit = 0, e = llvm::Log2_32(o.size); bit < e; ++bit, ++k) {
      uint64_t ids = *span.express(uint64_t(1) << k);
      Basis b(newOuts.size(), 0);
      for (unsigned id = 0; id < idToColumn.size(); ++id)
        if ((ids & (uint64_t(1) << id)) && idToColumn[id] >= 0) {
          auto [d, ownerBit] = owners[idToColumn[id]];
          b[d] ^= int32_t(1) << ownerBit;
        }
      dim.bases.push_back(std::move(b));
    }
    newIns.push_back(std::move(dim));
  }
  return LinearLayout(std::move(newIns), std::move(newOuts), /*requireSurjective=*/false);
}

std::optional<LinearLayout> LinearLayout::invert() const {
  if (!isInvertible())
    return std::nullopt;
  return pseudoinvert();
}

// --- Structure ------------------------------------------------------------------

llvm::SmallVector<uint64_t> LinearLayout::getFreeVariableMasks() const {
  uint64_t free = freeColumns(flatColumns());
  llvm::SmallVector<uint64_t> masks;
  for (const InDim &in : ins) {
    masks.push_back(free & ((uint64_t(1) << in.bases.size()) - 1));
    free >>= in.bases.size();
  }
  return masks;
}

uint64_t LinearLayout::getFreeVariableMask(StringRef in) const {
  return getFreeVariableMasks()[getInDimIndex(in)];
}

int32_t LinearLayout::getNumConsecutiveInOut(StringRef in, StringRef out) const {
  unsigned d = getInDimIndex(in), k = getOutDimIndex(out);
  const std::vector<Basis> &bases = ins[d].bases;
  // The leading bases of `in` that are 1, 2, 4, ... along `out` alone.
  unsigned consecutive = 0;
  for (; consecutive < bases.size(); ++consecutive) {
    const Basis &b = bases[consecutive];
    bool unit = b[k] == (int32_t(1) << consecutive);
    for (unsigned j = 0; j < b.size() && unit; ++j)
      unit = j == k || b[j] == 0;
    if (!unit)
      break;
  }
  // Every other basis must keep those low bits of `out` clear, or adding an
  // offset would carry into them.
  int32_t otherBits = 0;
  for (auto [e, dim] : llvm::enumerate(ins))
    for (auto [i, b] : llvm::enumerate(dim.bases))
      if (e != d || i >= consecutive)
        otherBits |= b[k];
  unsigned clear = otherBits ? llvm::countr_zero(uint32_t(otherBits)) : 31;
  return int32_t(1) << std::min(consecutive, clear);
}

bool LinearLayout::isTrivialOver(ArrayRef<StringRef> names) const {
  for (StringRef n : names)
    if (!hasInDim(n) || !hasOutDim(n) || getInDimSize(n) != getOutDimSize(n))
      return false;
  for (const InDim &in : ins) {
    bool own = llvm::is_contained(names, in.name);
    for (auto [bit, b] : llvm::enumerate(in.bases))
      for (auto [o, c] : llvm::zip(outs, b)) {
        // Bit `bit` of a named dimension maps to exactly that bit of itself;
        // no other input reaches a named output.
        int32_t expected = own && o.name == in.name ? int32_t(1) << bit : 0;
        if ((own || llvm::is_contained(names, o.name)) && c != expected)
          return false;
      }
  }
  return true;
}

std::optional<LinearLayout> LinearLayout::quotient(ArrayRef<StringRef> names) const {
  if (!isTrivialOver(names))
    return std::nullopt;
  llvm::SmallVector<StringRef> keepIns, keepOuts;
  for (StringRef n : getInDimNames())
    if (!llvm::is_contained(names, n))
      keepIns.push_back(n);
  for (StringRef n : getOutDimNames())
    if (!llvm::is_contained(names, n))
      keepOuts.push_back(n);
  return sublayout(keepIns, keepOuts);
}

} // namespace kiln::layout
