//===- Queries.cpp - what lowerings ask of a layout -----------------------===//
#include "kiln/Layout/Queries.h"

#include "kiln/Layout/BitMatrix.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

namespace kiln::layout {

using llvm::ArrayRef;
using llvm::StringRef;

namespace {
llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

constexpr StringRef kHardwareDims[] = {kRegister, kLane, kWarp, kBlock};

unsigned vectorCap(unsigned elemBits) { return std::max(1u, 128 / std::max(1u, elemBits)); }
} // namespace

bool isDistributed(const LinearLayout &ll) {
  if (!llvm::equal(ll.getInDimNames(), ArrayRef<StringRef>(kHardwareDims)))
    return false;
  for (auto [k, name] : llvm::enumerate(ll.getOutDimNames()))
    if (name != dimName(k))
      return false;
  return true;
}

llvm::Error verifyDistributed(const LinearLayout &ll, unsigned warpSize, unsigned numWarps,
                              unsigned numCTAs) {
  if (!isDistributed(ll))
    return error("not a distributed layout (inputs register, lane, warp, block; outputs dim0..)");
  auto check = [&](StringRef dim, unsigned expected, StringRef what) -> llvm::Error {
    if (ll.getInDimSize(dim) == int32_t(expected))
      return llvm::Error::success();
    return error("the layout spreads over " + llvm::Twine(ll.getInDimSize(dim)) + " " + dim +
                 "s, but " + what + " is " + llvm::Twine(expected));
  };
  if (llvm::Error e = check(kLane, warpSize, "the warp size"))
    return e;
  if (llvm::Error e = check(kWarp, numWarps, "the number of warps"))
    return e;
  return check(kBlock, numCTAs, "the number of CTAs");
}

llvm::SmallVector<int32_t> blockCoordinateBits(const LinearLayout &ll) {
  llvm::SmallVector<int32_t> bits(ll.getNumOutDims(), 0);
  if (!ll.hasInDim(kBlock))
    return bits;
  for (const LinearLayout::Basis &basis : ll.getInDims()[ll.getInDimIndex(kBlock)].bases)
    for (auto [d, c] : llvm::enumerate(basis))
      bits[d] |= c;
  return bits;
}

llvm::Expected<LinearLayout> ctaTile(const LinearLayout &ll) {
  if (!ll.hasInDim(kBlock) || ll.getInDimSize(kBlock) == 1)
    return ll;
  unsigned rank = ll.getNumOutDims();
  llvm::SmallVector<int32_t> selected(rank, 0);
  for (const LinearLayout::Basis &basis : ll.getInDims()[ll.getInDimIndex(kBlock)].bases) {
    unsigned moved = 0;
    for (auto [d, c] : llvm::enumerate(basis)) {
      if (c == 0)
        continue;
      if (++moved > 1 || !llvm::isPowerOf2_32(uint32_t(c)) || (selected[d] & c))
        return error("the block bases do not split the tensor into CTA tiles (each must be one "
                     "coordinate bit of its own)");
      selected[d] |= c;
    }
  }
  // Drop the selected bits from a coordinate: the bits above move down.
  auto compress = [&](int32_t c, int32_t mask) {
    int32_t out = 0;
    for (int32_t bit = 0, pos = 0; bit < 31; ++bit) {
      if (mask >> bit & 1)
        continue;
      out |= (c >> bit & 1) << pos++;
    }
    return out;
  };
  std::vector<LinearLayout::InDim> ins;
  for (const LinearLayout::InDim &in : ll.getInDims()) {
    LinearLayout::InDim tile{in.name, {}};
    if (in.name != kBlock)
      for (const LinearLayout::Basis &basis : in.bases) {
        LinearLayout::Basis b(basis.size());
        for (unsigned d = 0; d < rank; ++d) {
          if (basis[d] & selected[d])
            return error("a " + llvm::Twine(in.name) +
                         " basis reaches coordinates that select the CTA: no CTA tile exists");
          b[d] = compress(basis[d], selected[d]);
        }
        tile.bases.push_back(std::move(b));
      }
    ins.push_back(std::move(tile));
  }
  std::vector<LinearLayout::DimSize> outs;
  for (auto [d, out] : llvm::enumerate(ll.getOutDims()))
    outs.push_back({out.name, out.size >> llvm::popcount(uint32_t(selected[d]))});
  return LinearLayout::create(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

llvm::SmallVector<int32_t> elementCoords(const LinearLayout &ll, int32_t reg, int32_t lane,
                                         int32_t warp, int32_t block) {
  llvm::SmallVector<int32_t> coords;
  for (auto &[name, c] :
       ll.apply({{kRegister, reg}, {kLane, lane}, {kWarp, warp}, {kBlock, block}}))
    coords.push_back(c);
  return coords;
}

unsigned registerVectorWidth(const LinearLayout &ll, unsigned dim, unsigned elemBits) {
  unsigned consecutive = ll.getNumConsecutiveInOut(kRegister, dimName(dim));
  return std::min(consecutive, vectorCap(elemBits));
}

unsigned sharedVectorWidth(const LinearLayout &regs, const LinearLayout &shared,
                           unsigned elemBits) {
  // Register location -> shared location of the same element.
  if (!regs.hasInDim(kRegister) || !shared.hasInDim(kOffset))
    return 1;
  std::optional<LinearLayout> toShared = regs.invertAndCompose(shared);
  if (!toShared)
    return 1;
  unsigned consecutive = toShared->getNumConsecutiveInOut(kRegister, kOffset);
  return std::min(consecutive, vectorCap(elemBits));
}

uint64_t zeroBasisMask(const LinearLayout &ll, StringRef in) {
  uint64_t mask = 0;
  for (auto [bit, basis] : llvm::enumerate(ll.getInDims()[ll.getInDimIndex(in)].bases))
    if (llvm::all_of(basis, [](int32_t c) { return c == 0; }))
      mask |= uint64_t(1) << bit;
  return mask;
}

StringRef toString(ConversionKind kind) {
  switch (kind) {
  case ConversionKind::None:
    return "none";
  case ConversionKind::RegisterPermute:
    return "register permutation";
  case ConversionKind::WarpShuffle:
    return "warp shuffle";
  case ConversionKind::SharedMemory:
    return "shared memory";
  case ConversionKind::CrossCTA:
    return "across CTAs";
  }
  llvm_unreachable("unknown conversion kind");
}

llvm::Expected<LinearLayout> minimalConversion(const LinearLayout &src, const LinearLayout &dst) {
  auto shapeOf = [](const LinearLayout &ll) {
    auto outs = ll.getOutDims();
    std::vector<std::pair<std::string, int32_t>> shape;
    for (const LinearLayout::DimSize &o : outs)
      shape.push_back({o.name, o.size});
    llvm::sort(shape);
    return shape;
  };
  if (shapeOf(src) != shapeOf(dst))
    return error("cannot convert between layouts of different tensor shapes");
  std::optional<LinearLayout> c = dst.invertAndCompose(src);
  if (!c)
    return error("the source layout does not hold every element of the tensor");
  // Remove the hardware dimensions both layouts end with and that C leaves
  // in place, slowest first; stop at the first one that moves.
  llvm::SmallVector<StringRef> srcIns = src.getInDimNames(), dstIns = dst.getInDimNames();
  for (size_t i = 1; i <= std::min(srcIns.size(), dstIns.size()); ++i) {
    StringRef dim = srcIns[srcIns.size() - i];
    if (dim != dstIns[dstIns.size() - i])
      break;
    std::optional<LinearLayout> rest = c->quotient({dim});
    if (!rest)
      break;
    c = std::move(rest);
  }
  return std::move(*c);
}

llvm::Expected<ConversionKind> classifyConversion(const LinearLayout &src,
                                                  const LinearLayout &dst) {
  if (!isDistributed(src) || !isDistributed(dst))
    return error("only conversions between distributed layouts can be classified");
  llvm::Expected<LinearLayout> c = minimalConversion(src, dst);
  if (!c)
    return c.takeError();
  // What is left are the dimensions that move; the slowest one decides.
  if (c->hasOutDim(kBlock))
    return ConversionKind::CrossCTA;
  if (c->hasOutDim(kWarp))
    return ConversionKind::SharedMemory;
  if (c->hasOutDim(kLane))
    return ConversionKind::WarpShuffle;
  if (c->hasOutDim(kRegister))
    return ConversionKind::RegisterPermute;
  return ConversionKind::None;
}

LinearLayout reshapeLayout(const LinearLayout &ll, ArrayRef<int64_t> shape) {
  // Row-major: the last dimension is the most minor, so flatten and split
  // with the dimensions reversed.
  llvm::SmallVector<std::string> oldNames = standardDimNames(ll.getNumOutDims());
  llvm::SmallVector<StringRef> reversed(oldNames.rbegin(), oldNames.rend());
  std::vector<LinearLayout::DimSize> newDims;
  for (unsigned i = shape.size(); i-- > 0;)
    newDims.push_back({dimName(i), int32_t(shape[i])});
  llvm::SmallVector<std::string> names = standardDimNames(shape.size());
  return ll.transposeOuts(reversed).reshapeOuts(newDims).transposeOuts(
      llvm::SmallVector<StringRef>(names.begin(), names.end()));
}

LinearLayout transposeLayout(const LinearLayout &ll, ArrayRef<unsigned> order) {
  unsigned rank = ll.getNumOutDims();
  llvm::SmallVector<unsigned> sorted(order);
  llvm::sort(sorted);
  if (sorted.size() != rank ||
      llvm::any_of(llvm::enumerate(sorted), [](auto p) { return p.value() != p.index(); }))
    llvm::report_fatal_error("kiln layout: internal error: transpose order is not a permutation");
  // Result dimension i is source dimension order[i]: take dim<order[i]>
  // first, then rename.
  llvm::SmallVector<std::string> from, to = standardDimNames(rank);
  for (unsigned d : order)
    from.push_back(dimName(d));
  LinearLayout moved = ll.transposeOuts(llvm::SmallVector<StringRef>(from.begin(), from.end()));
  std::vector<LinearLayout::DimSize> outs;
  for (auto [i, o] : llvm::enumerate(moved.getOutDims()))
    outs.push_back({to[i], o.size});
  std::vector<LinearLayout::InDim> ins(moved.getInDims().begin(), moved.getInDims().end());
  return LinearLayout(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

llvm::Expected<AxisBits> axisBits(const LinearLayout &ll, unsigned axis) {
  if (!isDistributed(ll) || axis >= ll.getNumOutDims())
    return error("axisBits needs a distributed layout with dimension " + llvm::Twine(axis));
  if (ll.getInDimSize(kBlock) != 1)
    return error("a layout over several CTAs");
  llvm::SmallVector<uint64_t> free = ll.getFreeVariableMasks();
  AxisBits bits;
  auto classify = [&](llvm::StringRef in, uint64_t &along, uint64_t &copies) -> llvm::Error {
    copies = free[ll.getInDimIndex(in)];
    for (unsigned i = 0, e = ll.getInDimSizeLog2(in); i < e; ++i) {
      if (copies >> i & 1)
        continue;
      llvm::ArrayRef<int32_t> basis = ll.getBasis(in, i);
      if (basis[axis] == 0)
        continue;
      for (unsigned d = 0; d < basis.size(); ++d)
        if (d != axis && basis[d] != 0)
          return error(llvm::Twine(in) + "=" + llvm::Twine(1u << i) + " moves along dimension " +
                       llvm::Twine(axis) + " and another at once");
      along |= uint64_t(1) << i;
    }
    return llvm::Error::success();
  };
  if (llvm::Error e = classify(kRegister, bits.registerAxis, bits.registerCopies))
    return std::move(e);
  if (llvm::Error e = classify(kLane, bits.laneAxis, bits.laneCopies))
    return std::move(e);
  if (llvm::Error e = classify(kWarp, bits.warpAxis, bits.warpCopies))
    return std::move(e);
  return bits;
}

std::optional<LinearLayout> warpLocalGather(const LinearLayout &src, const LinearLayout &idx,
                                            unsigned axis) {
  unsigned rank = src.getNumOutDims();
  if (!isDistributed(src) || !isDistributed(idx) || idx.getNumOutDims() != rank || axis >= rank ||
      src.getInDimSize(kBlock) != 1 || idx.getInDimSize(kBlock) != 1 ||
      src.getInDimSize(kLane) != idx.getInDimSize(kLane) ||
      src.getInDimSize(kWarp) != idx.getInDimSize(kWarp))
    return std::nullopt;
  // What one warp of the source holds: the span of its lane and register
  // bases (lanes first, so a copy is reached through a lane).
  XorBasis span;
  llvm::SmallVector<std::pair<bool, unsigned>> accepted; // (is a lane, bit)
  for (bool lanes : {true, false}) {
    StringRef in = lanes ? kLane : kRegister;
    for (unsigned i = 0, e = src.getInDimSizeLog2(in); i < e; ++i)
      if (span.insert(src.flatten(src.getBasis(in, i))))
        accepted.push_back({lanes, i});
  }
  auto locate = [&](uint64_t flat) -> std::optional<LinearLayout::Basis> {
    std::optional<uint64_t> ids = span.express(flat);
    if (!ids)
      return std::nullopt;
    LinearLayout::Basis at{0, 0}; // register, lane
    for (auto [id, which] : llvm::enumerate(accepted))
      if (*ids >> id & 1)
        at[which.first ? 1 : 0] ^= int32_t(1) << which.second;
    return at;
  };
  // A result element's coordinates outside the axis, as a source position.
  auto offAxis = [&](ArrayRef<int32_t> coords) {
    LinearLayout::Basis c(coords.begin(), coords.end());
    c[axis] = 0;
    return src.flatten(c);
  };
  std::vector<LinearLayout::InDim> ins;
  for (StringRef in : kHardwareDims) {
    LinearLayout::InDim dim{in.str(), {}};
    for (unsigned i = 0, e = idx.getInDimSizeLog2(in); i < e; ++i) {
      uint64_t flat = offAxis(idx.getBasis(in, i));
      // The reader's warp is the source's warp of the same id.
      if (in == kWarp)
        flat ^= src.flatten(src.getBasis(kWarp, i));
      std::optional<LinearLayout::Basis> at = locate(flat);
      if (!at)
        return std::nullopt;
      dim.bases.push_back(*at);
    }
    ins.push_back(std::move(dim));
  }
  LinearLayout::InDim index{kGatherIndex.str(), {}};
  for (unsigned k = 0, e = src.getOutDimSizeLog2(dimName(axis)); k < e; ++k) {
    LinearLayout::Basis along(rank, 0);
    along[axis] = int32_t(1) << k;
    std::optional<LinearLayout::Basis> at = locate(src.flatten(along));
    if (!at)
      return std::nullopt;
    index.bases.push_back(*at);
  }
  ins.push_back(std::move(index));
  return LinearLayout(std::move(ins),
                      {{kRegister.str(), src.getInDimSize(kRegister)},
                       {kLane.str(), src.getInDimSize(kLane)}},
                      /*requireSurjective=*/false);
}

} // namespace kiln::layout
