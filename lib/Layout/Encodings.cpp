//===- Encodings.cpp - TritonGPU encodings as linear layouts --------------===//
#include "kiln/Layout/Encodings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace kiln::layout {

using llvm::ArrayRef;
using llvm::StringRef;
using Basis = LinearLayout::Basis;

namespace {
llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string list(ArrayRef<unsigned> values) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "]";
}

// `values` has `rank` entries, each a power of two.
llvm::Error checkPowersOfTwo(StringRef what, ArrayRef<unsigned> values, size_t rank) {
  if (values.size() != rank)
    return error(what + " " + list(values) + " has " + llvm::Twine(values.size()) +
                 " entries for a rank-" + llvm::Twine(rank) + " tensor");
  for (unsigned v : values)
    if (v == 0 || v > (1u << 30) || !llvm::isPowerOf2_32(v))
      return error(what + " " + list(values) + " has an entry that is not a power of two");
  return llvm::Error::success();
}

llvm::Error checkOrder(StringRef what, ArrayRef<unsigned> order, size_t rank) {
  llvm::SmallVector<unsigned> sorted(order);
  llvm::sort(sorted);
  bool ok = order.size() == rank;
  for (auto [i, v] : llvm::enumerate(sorted))
    ok = ok && v == i;
  if (!ok)
    return error(what + " " + list(order) + " is not a permutation of the " + llvm::Twine(rank) +
                 " dimensions");
  return llvm::Error::success();
}

llvm::SmallVector<StringRef> refs(ArrayRef<std::string> names) {
  return llvm::SmallVector<StringRef>(names.begin(), names.end());
}

// N of an output named "dimN" (the callers have checked the names).
unsigned dimIndex(StringRef name) {
  unsigned n = 0;
  (void)name.drop_front(3).getAsInteger(10, n);
  return n;
}

llvm::Error checkShape(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return error("a layout needs a tensor of rank 1 or more");
  unsigned bits = 0;
  for (int64_t s : shape) {
    if (s < 1 || s > (int64_t(1) << 30) || !llvm::isPowerOf2_64(s))
      return error("tensor dimension of size " + llvm::Twine(s) +
                   " is not a power of two from 1 to 2^30");
    bits += llvm::Log2_64(s);
  }
  if (bits > 63)
    return error("the tensor has more than 2^63 elements");
  return llvm::Error::success();
}

// Zeroes the bases that reach past shape[d] along each output d, so that
// the part of the hardware beyond the tensor holds copies. Along a
// dimension being shrunk the bases must be powers of two.
llvm::Expected<LinearLayout> ensureNotLargerThan(const LinearLayout &ll, ArrayRef<int64_t> shape) {
  std::vector<LinearLayout::InDim> ins(ll.getInDims().begin(), ll.getInDims().end());
  std::vector<LinearLayout::DimSize> outs(ll.getOutDims().begin(), ll.getOutDims().end());
  for (auto [k, out] : llvm::enumerate(outs)) {
    int64_t desired = shape[dimIndex(out.name)];
    if (out.size <= desired)
      continue;
    for (LinearLayout::InDim &in : ins)
      for (Basis &b : in.bases) {
        if (b[k] != 0 && !llvm::isPowerOf2_32(b[k]))
          return error("cannot fit a layout with basis coordinate " + llvm::Twine(b[k]) +
                       " along " + out.name + " to size " + llvm::Twine(desired));
        if (b[k] >= desired)
          b[k] = 0;
      }
    out.size = int32_t(desired);
  }
  return LinearLayout::create(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

// The CGA layout (block -> dim0..) fitted to `shape`.
llvm::Expected<LinearLayout> fittedCgaLayout(const CGABases &cga, ArrayRef<int64_t> shape) {
  for (const Basis &b : cga)
    if (b.size() != shape.size())
      return error("a CGA layout basis has " + llvm::Twine(b.size()) + " coordinates for a rank-" +
                   llvm::Twine(shape.size()) + " tensor");
  llvm::Expected<LinearLayout> ll =
      LinearLayout::create({{std::string(kBlock), cga}}, standardDimNames(shape.size()));
  if (!ll)
    return error("invalid CGA layout: " + llvm::toString(ll.takeError()));
  return ensureNotLargerThan(*ll, shape);
}

// The part of `shape` one CTA holds.
llvm::SmallVector<int64_t> shapePerCTA(const LinearLayout &cga, ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> perCTA;
  for (auto [d, size] : llvm::enumerate(shape))
    perCTA.push_back(std::max<int64_t>(1, size / cga.getOutDimSize(dimName(d))));
  return perCTA;
}
} // namespace

// --- Building blocks ----------------------------------------------------------

LinearLayout identityStandardND(StringRef inDim, ArrayRef<unsigned> shape,
                                ArrayRef<unsigned> order) {
  LinearLayout ll;
  for (unsigned d : order)
    ll *= LinearLayout::identity1D(shape[d], inDim, dimName(d));
  return ll;
}

llvm::Expected<CGABases> cgaBasesFromSplit(ArrayRef<unsigned> ctasPerCGA,
                                           ArrayRef<unsigned> ctaSplitNum,
                                           ArrayRef<unsigned> ctaOrder) {
  size_t rank = ctasPerCGA.size();
  if (rank == 0)
    return error("CTAsPerCGA is empty");
  if (llvm::Error e = checkPowersOfTwo("CTAsPerCGA", ctasPerCGA, rank))
    return e;
  if (llvm::Error e = checkPowersOfTwo("CTASplitNum", ctaSplitNum, rank))
    return e;
  if (llvm::Error e = checkOrder("CTAOrder", ctaOrder, rank))
    return e;
  unsigned ctaBits = 0;
  for (unsigned ctas : ctasPerCGA)
    ctaBits += llvm::Log2_32(ctas);
  if (ctaBits > 30)
    return error("CTAsPerCGA " + list(ctasPerCGA) + " has more than 2^30 CTAs");
  LinearLayout ll;
  for (unsigned d : ctaOrder) {
    if (ctaSplitNum[d] > ctasPerCGA[d])
      return error("CTASplitNum " + list(ctaSplitNum) + " splits a dimension more ways than " +
                   "CTAsPerCGA " + list(ctasPerCGA) + " has CTAs");
    // Split CTAs first; the ones left over along d hold copies.
    ll *= LinearLayout::identity1D(ctaSplitNum[d], kBlock, dimName(d)) *
          LinearLayout::zeros1D(ctasPerCGA[d] / ctaSplitNum[d], kBlock, dimName(d));
  }
  return ll.transposeOuts(refs(standardDimNames(rank))).getInDims().front().bases;
}

llvm::Expected<llvm::SmallVector<int64_t>> ctaTileShape(const CGABases &cga,
                                                       ArrayRef<int64_t> shape) {
  llvm::Expected<LinearLayout> fitted = fittedCgaLayout(cga, shape);
  if (!fitted)
    return fitted.takeError();
  return shapePerCTA(*fitted, shape);
}

llvm::Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout &ctaLayout,
                                                    const CGABases &cga, ArrayRef<int64_t> shape) {
  if (llvm::Error e = checkShape(shape))
    return e;
  size_t rank = shape.size();
  llvm::SmallVector<std::string> names = standardDimNames(rank);
  llvm::SmallVector<StringRef> standard = refs(names);
  llvm::SmallVector<StringRef> ctaOrder = ctaLayout.getOutDimNames();
  if (ctaOrder.size() != rank ||
      !llvm::all_of(standard, [&](StringRef n) { return llvm::is_contained(ctaOrder, n); }))
    return error("a layout for a rank-" + llvm::Twine(rank) +
                 " tensor must have outputs dim0..dim" + llvm::Twine(rank - 1));
  llvm::Expected<LinearLayout> cgaLayout = fittedCgaLayout(cga, shape);
  if (!cgaLayout)
    return cgaLayout.takeError();
  llvm::SmallVector<int64_t> ctaShape = shapePerCTA(*cgaLayout, shape);
  // Too small: repeat the tile in the fastest input (register or offset),
  // fastest output first.
  LinearLayout cta = ctaLayout;
  // A copy: `cta *= ...` below replaces the dimensions a StringRef would
  // point into.
  std::string repeatIn =
      cta.getNumInDims() ? cta.getInDims().front().name : std::string(kRegister);
  unsigned repeatBits = cta.hasInDim(repeatIn) ? cta.getInDimSizeLog2(repeatIn) : 0;
  for (StringRef out : ctaOrder) {
    int64_t have = ctaLayout.getOutDimSize(out), want = ctaShape[dimIndex(out)];
    if (have >= want)
      continue;
    repeatBits += llvm::Log2_64(want / have);
    if (repeatBits > 30)
      return error("the layout would need more than 2^30 " + repeatIn + " values per thread");
    if (cta.getTotalInDimSizeLog2() + llvm::Log2_64(want / have) > 63)
      return error("the layout has more than 2^63 hardware locations");
    cta *= LinearLayout::identity1D(int32_t(want / have), repeatIn, out);
  }
  // Too large: broadcast.
  llvm::Expected<LinearLayout> fitted = ensureNotLargerThan(cta, ctaShape);
  if (!fitted)
    return fitted.takeError();
  if (fitted->getTotalInDimSizeLog2() + cgaLayout->getTotalInDimSizeLog2() > 63)
    return error("the layout has more than 2^63 hardware locations");
  LinearLayout result = (*fitted * cgaLayout->transposeOuts(ctaOrder)).transposeOuts(standard);
  for (unsigned d = 0; d < rank; ++d)
    if (result.getOutDimSize(names[d]) != shape[d])
      return error("the layout does not cover dimension " + llvm::Twine(d) + " of the tensor");
  return result;
}

// --- Encodings ------------------------------------------------------------------

llvm::Expected<LinearLayout> toLinearLayout(const BlockedEncoding &enc, ArrayRef<int64_t> shape) {
  if (llvm::Error e = checkShape(shape))
    return e;
  size_t rank = shape.size();
  if (llvm::Error e = checkPowersOfTwo("sizePerThread", enc.sizePerThread, rank))
    return e;
  if (llvm::Error e = checkPowersOfTwo("threadsPerWarp", enc.threadsPerWarp, rank))
    return e;
  if (llvm::Error e = checkPowersOfTwo("warpsPerCTA", enc.warpsPerCTA, rank))
    return e;
  if (llvm::Error e = checkOrder("order", enc.order, rank))
    return e;
  // One CTA's tile holds at most 2^30 elements (so does every dimension).
  unsigned tileBits = 0;
  for (unsigned d = 0; d < rank; ++d)
    tileBits += llvm::Log2_32(enc.sizePerThread[d]) + llvm::Log2_32(enc.threadsPerWarp[d]) +
                llvm::Log2_32(enc.warpsPerCTA[d]);
  if (tileBits > 30)
    return error("the blocked layout's tile holds more than 2^30 elements");
  LinearLayout cta = identityStandardND(kRegister, enc.sizePerThread, enc.order) *
                     identityStandardND(kLane, enc.threadsPerWarp, enc.order) *
                     identityStandardND(kWarp, enc.warpsPerCTA, enc.order);
  return combineCtaCgaWithShape(cta, enc.cgaLayout, shape);
}

CGABases operandCGA(const CGABases &result, unsigned opIdx) {
  CGABases bases = result;
  for (LinearLayout::Basis &b : bases)
    if (b.size() >= 2)
      b[opIdx == 0 ? b.size() - 1 : b.size() - 2] = 0;
  return bases;
}

llvm::Expected<LinearLayout> toLinearLayout(const BlockedDotOperandEncoding &enc,
                                            ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  if (enc.opIdx > 1)
    return error("dot operand index " + llvm::Twine(enc.opIdx) + " is neither 0 (A) nor 1 (B)");
  if (rank < 2)
    return error("a dot operand needs a tensor of rank 2 or more");
  if (llvm::Error e = checkShape(shape))
    return e;
  const BlockedEncoding &p = enc.parent;
  if (llvm::Error e = checkPowersOfTwo("sizePerThread", p.sizePerThread, rank))
    return e;
  if (llvm::Error e = checkPowersOfTwo("threadsPerWarp", p.threadsPerWarp, rank))
    return e;
  if (llvm::Error e = checkPowersOfTwo("warpsPerCTA", p.warpsPerCTA, rank))
    return e;
  if (llvm::Error e = checkOrder("order", p.order, rank))
    return e;
  unsigned kDim = enc.opIdx == 0 ? rank - 1 : rank - 2;
  // Every thread runs the whole K loop, so it holds all of K; the parent's
  // lanes and warps along the result dimension this operand lacks see the
  // same data.
  llvm::SmallVector<unsigned> perThread(p.sizePerThread.begin(), p.sizePerThread.end());
  perThread[kDim] = unsigned(shape[kDim]);
  auto broadcastK = [&](llvm::StringRef in, ArrayRef<unsigned> sizes) {
    LinearLayout ll;
    for (unsigned d : p.order)
      ll *= d == kDim ? LinearLayout::zeros1D(sizes[d], in, dimName(d))
                      : LinearLayout::identity1D(sizes[d], in, dimName(d));
    return ll;
  };
  LinearLayout cta = identityStandardND(kRegister, perThread, p.order) *
                     broadcastK(kLane, p.threadsPerWarp) * broadcastK(kWarp, p.warpsPerCTA);
  return combineCtaCgaWithShape(cta, operandCGA(p.cgaLayout, enc.opIdx), shape);
}

llvm::Expected<LinearLayout> toLinearLayout(const SwizzledSharedEncoding &enc,
                                            ArrayRef<int64_t> shape) {
  if (llvm::Error e = checkShape(shape))
    return e;
  size_t rank = shape.size();
  if (llvm::Error e =
          checkPowersOfTwo("vec, perPhase, maxPhase", {enc.vec, enc.perPhase, enc.maxPhase}, 3))
    return e;
  if (llvm::Error e = checkOrder("order", enc.order, rank))
    return e;
  // The swizzle acts within one CTA's part of the tensor.
  llvm::Expected<LinearLayout> cga = fittedCgaLayout(enc.cgaLayout, shape);
  if (!cga)
    return cga.takeError();
  llvm::SmallVector<int64_t> perCTA = shapePerCTA(*cga, shape);
  unsigned offsetBits = 0;
  for (int64_t size : perCTA)
    offsetBits += llvm::Log2_64(size);
  if (offsetBits > 30)
    return error("a shared layout holds at most 2^30 elements per CTA");
  LinearLayout cta;
  if (rank == 1) {
    cta = LinearLayout::identity1D(perCTA[0], kOffset, dimName(0));
  } else {
    unsigned colDim = enc.order[0], rowDim = enc.order[1];
    int64_t numCols = perCTA[colDim], numRows = perCTA[rowDim];
    LinearLayout::InDim offset{std::string(kOffset), {}};
    for (int64_t col = 1; col < numCols; col *= 2)
      offset.bases.push_back({0, int32_t(col)});
    for (int64_t row = 1; row < numRows; row *= 2) {
      int64_t phase = (row / enc.perPhase) % enc.maxPhase;
      offset.bases.push_back({int32_t(row), int32_t((enc.vec * phase) % numCols)});
    }
    cta = LinearLayout({std::move(offset)}, {dimName(rowDim), dimName(colDim)});
    for (unsigned i = 2; i < rank; ++i)
      cta *= LinearLayout::identity1D(perCTA[enc.order[i]], kOffset, dimName(enc.order[i]));
  }
  return combineCtaCgaWithShape(cta, enc.cgaLayout, shape);
}

llvm::SmallVector<int64_t> sliceParentShape(ArrayRef<int64_t> shape, unsigned dim) {
  llvm::SmallVector<int64_t> parent(shape);
  parent.insert(parent.begin() + std::min<size_t>(dim, parent.size()), 1);
  return parent;
}

llvm::Expected<LinearLayout> sliceLayout(const LinearLayout &parent, unsigned dim) {
  unsigned rank = parent.getNumOutDims();
  if (rank < 2 || dim >= rank)
    return error("cannot slice dimension " + llvm::Twine(dim) + " of a rank-" + llvm::Twine(rank) +
                 " layout");
  for (unsigned d = 0; d < rank; ++d)
    if (!parent.hasOutDim(dimName(d)))
      return error("a sliced layout must have outputs dim0..dim" + llvm::Twine(rank - 1));
  if (parent.getOutDimSize(dimName(dim)) != 1)
    return error("the parent of a slice along dimension " + llvm::Twine(dim) +
                 " must be laid out for size 1 there (see sliceParentShape)");
  unsigned drop = parent.getOutDimIndex(dimName(dim));
  auto renamed = [&](StringRef name) {
    unsigned d = dimIndex(name);
    return dimName(d < dim ? d : d - 1);
  };
  std::vector<LinearLayout::DimSize> outs;
  for (auto [k, o] : llvm::enumerate(parent.getOutDims()))
    if (k != drop)
      outs.push_back({renamed(o.name), o.size});
  std::vector<LinearLayout::InDim> ins;
  for (const LinearLayout::InDim &in : parent.getInDims()) {
    LinearLayout::InDim sliced{in.name, {}};
    for (const Basis &b : in.bases) {
      Basis kept(b);
      kept.erase(kept.begin() + drop);
      // A register that differed only along `dim` now holds a copy.
      bool zero = llvm::all_of(kept, [](int32_t c) { return c == 0; });
      if (!(zero && in.name == kRegister))
        sliced.bases.push_back(std::move(kept));
    }
    ins.push_back(std::move(sliced));
  }
  return LinearLayout::create(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

} // namespace kiln::layout
