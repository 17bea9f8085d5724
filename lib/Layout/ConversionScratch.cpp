//===- ConversionScratch.cpp - the swizzled scratch of convert_layout ----===//
//
// Works on the tensor's elements as bit vectors (dim0's bits lowest) and
// builds the map M: element -> (offset, round) as images of a basis of the
// element space, then inverts it into the scratch layout. docs/layouts.md
// explains the construction; Queries.h states what it guarantees.
//
//===----------------------------------------------------------------------===//
#include "kiln/Layout/BitMatrix.h"
#include "kiln/Layout/Queries.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace kiln::layout {

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The bases of input `in` as flat element bits (LinearLayout::flatten);
/// the layouts compared here share their outputs, so their bits agree.
std::vector<uint64_t> basesOf(const LinearLayout &ll, llvm::StringRef in) {
  std::vector<uint64_t> out;
  for (unsigned i = 0, e = ll.getInDimSizeLog2(in); i < e; ++i)
    out.push_back(ll.flatten(ll.getBasis(in, i)));
  return out;
}

/// Every nonzero vector of span(gens) that lies in span(other), as a basis,
/// found by walking span(gens) in order (combinations of earlier
/// generators first). gens spans at most 2^16 vectors in practice (a
/// thread's registers or a wavefront's lanes); beyond that only the
/// generators themselves are tried.
std::vector<uint64_t> intersection(llvm::ArrayRef<uint64_t> gens, llvm::ArrayRef<uint64_t> other) {
  XorBasis genBasis, otherBasis, found;
  std::vector<uint64_t> independent;
  for (uint64_t g : gens)
    if (g && genBasis.insert(g))
      independent.push_back(g);
  for (uint64_t o : other)
    otherBasis.insert(o);
  std::vector<uint64_t> result;
  auto consider = [&](uint64_t v) {
    if (v && otherBasis.contains(v) && found.insert(v))
      result.push_back(v);
  };
  if (independent.size() > 16) {
    for (uint64_t g : independent)
      consider(g);
    return result;
  }
  for (uint64_t mask = 1; mask < (uint64_t(1) << independent.size()); ++mask) {
    uint64_t v = 0;
    for (unsigned i = 0; i < independent.size(); ++i)
      if (mask & (uint64_t(1) << i))
        v ^= independent[i];
    consider(v);
  }
  return result;
}

/// What the scratch map M: element -> (offset, round) is built from, as
/// element vectors.
struct ScratchSpec {
  /// M(vector[i]) = offset bit i.
  std::vector<uint64_t> vector;
  /// M(rounds[i]) = round bit i.
  std::vector<uint64_t> rounds;
  /// The vectors one wavefront of each side's accesses spans, past the
  /// vector: they get the bank bits right above it.
  std::vector<uint64_t> srcGroup, dstGroup;
  /// Everything threads differ by, on either side.
  std::vector<uint64_t> threadVectors;
};

llvm::Error checkSameTensor(const LinearLayout &src, const LinearLayout &dst) {
  if (!isDistributed(src) || !isDistributed(dst))
    return error("a conversion scratch is planned between distributed layouts only");
  if (src.getOutDims().size() != dst.getOutDims().size() ||
      !llvm::all_of(llvm::zip(src.getOutDims(), dst.getOutDims()), [](auto p) {
        return std::get<0>(p).name == std::get<1>(p).name &&
               std::get<0>(p).size == std::get<1>(p).size;
      }))
    return error("cannot convert between layouts of different tensor shapes");
  if (!src.isSurjective() || !dst.isSurjective())
    return error("a layout of the conversion does not hold every element");
  return llvm::Error::success();
}

std::vector<uint64_t> threadVectorsOf(const LinearLayout &src, const LinearLayout &dst) {
  std::vector<uint64_t> out;
  for (const LinearLayout *ll : {&src, &dst})
    for (llvm::StringRef in : {kLane, kWarp, kBlock})
      for (uint64_t v : basesOf(*ll, in))
        out.push_back(v);
  return out;
}

/// Builds M from `spec` and inverts it into the scratch layout.
llvm::Expected<ConversionScratch> buildScratch(const LinearLayout &src, const ScratchSpec &spec) {
  const unsigned n = src.getTotalOutDimSizeLog2();
  unsigned vb = spec.vector.size(), rb = spec.rounds.size();
  unsigned m = n - vb - rb; // address bits

  // The address basis: I (what both wavefronts span), A' and B' (the rest
  // of each), the other thread vectors, then any completion.
  XorBasis addr;
  std::vector<uint64_t> common, srcOnly, dstOnly, rest;
  for (uint64_t v : intersection(spec.srcGroup, spec.dstGroup))
    if (addr.insert(v))
      common.push_back(v);
  for (uint64_t v : spec.srcGroup)
    if (v && addr.insert(v))
      srcOnly.push_back(v);
  for (uint64_t v : spec.dstGroup)
    if (v && addr.insert(v))
      dstOnly.push_back(v);
  XorBasis all;
  for (auto *list : {&spec.vector, &spec.rounds})
    for (uint64_t v : *list)
      if (!all.insert(v))
        return error("internal error: the scratch's vector and round bits are dependent");
  for (auto *list : {&common, &srcOnly, &dstOnly})
    for (uint64_t v : *list)
      if (!all.insert(v))
        return error("internal error: a wavefront's vectors overlap the vector or round bits");
  for (uint64_t v : spec.threadVectors)
    if (v && all.insert(v))
      rest.push_back(v);
  for (unsigned i = 0; i < n; ++i)
    if (all.insert(uint64_t(1) << i))
      rest.push_back(uint64_t(1) << i);
  if (all.rank() != n)
    return error("internal error: the scratch basis does not span the tensor");

  // Images (offset bits, then round bits above them). I and A' own the
  // first bank bits; B' shares A''s bank bits, XORed with a bit of its own
  // (the swizzle) while A' has a partner; the rest own what is left.
  std::vector<std::pair<uint64_t, uint64_t>> images; // element vector -> M(vector)
  for (unsigned i = 0; i < vb; ++i)
    images.push_back({spec.vector[i], uint64_t(1) << i});
  for (unsigned i = 0; i < rb; ++i)
    images.push_back({spec.rounds[i], uint64_t(1) << (vb + m + i)});
  unsigned k = common.size();
  for (unsigned j = 0; j < k; ++j)
    images.push_back({common[j], uint64_t(1) << (vb + j)});
  for (unsigned j = 0; j < srcOnly.size(); ++j)
    images.push_back({srcOnly[j], uint64_t(1) << (vb + k + j)});
  unsigned nextFree = vb + k + std::max(srcOnly.size(), dstOnly.size());
  for (unsigned j = 0; j < dstOnly.size(); ++j) {
    uint64_t bank = uint64_t(1) << (vb + k + j);
    if (j < srcOnly.size())
      bank |= uint64_t(1) << nextFree++;
    images.push_back({dstOnly[j], bank});
  }
  for (uint64_t v : rest)
    images.push_back({v, uint64_t(1) << nextFree++});
  if (nextFree != vb + m || images.size() != n)
    return error("internal error: the scratch offset bits do not add up");

  // S = M^-1: each unit of (offset, round) as a XOR of images, mapped back.
  XorBasis imageBasis;
  for (auto &[v, image] : images)
    if (!imageBasis.insert(image))
      return error("internal error: the scratch map is not a bijection");
  auto preimage = [&](uint64_t unit) {
    uint64_t ids = *imageBasis.express(unit), v = 0;
    for (unsigned i = 0; i < images.size(); ++i)
      if (ids & (uint64_t(1) << i))
        v ^= images[i].first;
    return src.unflatten(v);
  };
  LinearLayout::InDim offset{std::string(kOffset), {}}, round{std::string(kRound), {}};
  for (unsigned p = 0; p < vb + m; ++p)
    offset.bases.push_back(preimage(uint64_t(1) << p));
  for (unsigned i = 0; i < rb; ++i)
    round.bases.push_back(preimage(uint64_t(1) << (vb + m + i)));
  std::vector<LinearLayout::DimSize> outs(src.getOutDims().begin(), src.getOutDims().end());
  ConversionScratch result;
  result.layout = LinearLayout({std::move(offset), std::move(round)}, std::move(outs),
                               /*requireSurjective=*/true);
  result.vectorBits = vb;
  return result;
}

} // namespace

llvm::Expected<ConversionScratch> conversionScratch(const LinearLayout &src, const LinearLayout &dst,
                                                    unsigned elemBits) {
  if (llvm::Error e = checkSameTensor(src, dst))
    return std::move(e);
  const unsigned bits = std::max(8u, elemBits);
  ScratchSpec spec;
  spec.threadVectors = threadVectorsOf(src, dst);

  // Vector and round vectors: held in registers by both layouts and
  // independent of everything threads differ by, so that no thread's id
  // changes which vector slot or round an element is in.
  XorBasis taken;
  for (uint64_t v : spec.threadVectors)
    taken.insert(v);
  std::vector<uint64_t> registerOnly;
  for (uint64_t v : intersection(basesOf(src, kRegister), basesOf(dst, kRegister)))
    if (taken.insert(v))
      registerOnly.push_back(v);
  unsigned maxVectorBits = llvm::Log2_32(std::max(1u, 128 / bits));
  unsigned vb = std::min<unsigned>(maxVectorBits, registerOnly.size());
  spec.vector.assign(registerOnly.begin(), registerOnly.begin() + vb);
  spec.rounds.assign(registerOnly.begin() + vb, registerOnly.end());
  unsigned m = src.getTotalOutDimSizeLog2() - registerOnly.size(); // address bits

  // Bank bits: the 128-byte line holds 2^g accesses of 2^vb elements.
  unsigned g = std::min<unsigned>(m, llvm::Log2_32(std::max(1u, 1024 / (bits << vb))));
  unsigned laneBits = std::min<unsigned>(g, src.getInDimSizeLog2(kLane));
  spec.srcGroup = basesOf(src, kLane);
  spec.dstGroup = basesOf(dst, kLane);
  spec.srcGroup.resize(laneBits);
  spec.dstGroup.resize(laneBits);
  return buildScratch(src, spec);
}

llvm::Expected<ConversionScratch> matrixConversionScratch(const LinearLayout &matrices,
                                                          const LinearLayout &vectors,
                                                          bool transposed) {
  if (llvm::Error e = checkSameTensor(matrices, vectors))
    return std::move(e);
  if (matrices.getInDimSizeLog2(kLane) != 5 || matrices.getInDimSizeLog2(kRegister) < 3 ||
      vectors.getInDimSizeLog2(kRegister) < 3 || vectors.getInDimSizeLog2(kLane) < 3)
    return error("the layouts cannot move 8x8 matrices and 8-element vectors");
  std::vector<uint64_t> regs = basesOf(matrices, kRegister);
  std::vector<uint64_t> lanes = basesOf(matrices, kLane);
  // A row of a matrix: a thread's pair and lane bits 0-1 (.trans: lane bits
  // 2-4); the other three pick the row.
  std::vector<uint64_t> row = {regs[0], lanes[0], lanes[1]};
  std::vector<uint64_t> rowPickers = {lanes[2], lanes[3], lanes[4]};
  if (transposed)
    std::swap(row, rowPickers);
  // The vector side moves the rows as 16-byte vectors: its first three
  // registers hold a row, in the row's order.
  std::vector<uint64_t> vectorRegs = basesOf(vectors, kRegister);
  if (!std::equal(row.begin(), row.end(), vectorRegs.begin()))
    return error("the vector side does not hold the matrices' rows in its registers");
  ScratchSpec spec;
  spec.vector = row;
  spec.threadVectors = threadVectorsOf(matrices, vectors);
  // A matrix's 8 rows are one wavefront; so are 8 lanes' 16-byte vectors.
  spec.srcGroup = rowPickers;
  spec.dstGroup = basesOf(vectors, kLane);
  spec.dstGroup.resize(3);
  return buildScratch(matrices, spec);
}

} // namespace kiln::layout
