//===- MmaEncodings.cpp - NVIDIA tensor-core layouts as linear layouts ----===//
//
// nvidia_mma, its dot operands and nvmma_shared, with the bases Triton 3.6
// gives them (LinearLayoutConversions.cpp: nvidiaMmaTile,
// nvidiaDotToLinearLayout, nvmmaSharedToLinearLayout).
//
//===----------------------------------------------------------------------===//
#include "kiln/Layout/Encodings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::layout {

using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool isPow2(unsigned v) { return v != 0 && v <= (1u << 30) && llvm::isPowerOf2_32(v); }

// [rank-1, ..., 0]: the last dimension fastest, as Triton orders MMA
// registers (and their repetitions) and version-2 warps.
SmallVector<unsigned> rowMajor(unsigned rank) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  return order;
}

// Warps of a version-3 layout go down M first: the four warps of a warp
// group own consecutive 16-row slices of its 64-row tile.
SmallVector<unsigned> mmaWarpOrder(const NvidiaMmaEncoding &enc) {
  SmallVector<unsigned> order = rowMajor(enc.warpsPerCTA.size());
  if (enc.versionMajor == 3 && order.size() >= 2)
    std::swap(order[0], order[1]);
  return order;
}

// The tile builders below call identity1D on tensor sizes, which must be
// powers of two (combineCtaCgaWithShape checks the rest).
llvm::Error checkShapeSizes(ArrayRef<int64_t> shape) {
  for (int64_t s : shape)
    if (s < 1 || s > (int64_t(1) << 30) || !llvm::isPowerOf2_64(s))
      return error("tensor dimension of size " + llvm::Twine(s) +
                   " is not a power of two from 1 to 2^30");
  return llvm::Error::success();
}

SmallVector<llvm::StringRef> refs(const LinearLayout &ll) { return ll.getOutDimNames(); }

// One warp's tile of `tileShape` (Triton's nvidiaMmaTile): along `inner`,
// kWidth registers then 4 lanes; along `outer`, 8 lanes then registers;
// then registers along `inner` again. Outputs in `repOrder`, which is the
// order combineCtaCgaWithShape repeats the tile in.
LinearLayout mmaTile(ArrayRef<unsigned> tileShape, unsigned kWidth, unsigned inner,
                     unsigned outer, ArrayRef<unsigned> repOrder) {
  SmallVector<unsigned> ones(repOrder.size(), 1);
  LinearLayout tile = identityStandardND(kRegister, ones, repOrder);
  std::string in = dimName(inner), out = dimName(outer);
  tile *= LinearLayout::identity1D(kWidth, kRegister, in);
  tile *= LinearLayout::identity1D(4, kLane, in);
  tile *= LinearLayout::identity1D(8, kLane, out);
  tile *= LinearLayout::identity1D(tileShape[outer] / 8, kRegister, out);
  tile *= LinearLayout::identity1D(tileShape[inner] / (kWidth * 4), kRegister, in);
  return tile;
}

llvm::Error checkMma(const NvidiaMmaEncoding &enc, size_t rank) {
  if (enc.warpsPerCTA.size() != rank)
    return error("an nvidia_mma layout with " + llvm::Twine(enc.warpsPerCTA.size()) +
                 " warpsPerCTA entries cannot lay out a rank-" + llvm::Twine(rank) + " tensor");
  if (rank < 2)
    return error("an nvidia_mma layout needs a tensor of rank 2 or more");
  for (unsigned w : enc.warpsPerCTA)
    if (!isPow2(w))
      return error("nvidia_mma warpsPerCTA entries must be powers of two");
  if (enc.versionMajor == 2) {
    if (enc.instrShape.size() != rank || enc.instrShape[rank - 2] != 16 ||
        enc.instrShape[rank - 1] != 8)
      return error("an nvidia_mma version 2 layout needs instrShape [.., 16, 8]");
    return llvm::Error::success();
  }
  if (enc.versionMajor != 3)
    return error("nvidia_mma version " + llvm::Twine(enc.versionMajor) + " has no layout here");
  if (enc.instrShape.size() != 3 || enc.instrShape[0] != 16 || enc.instrShape[1] % 8 != 0 ||
      !isPow2(enc.instrShape[1]) || enc.instrShape[1] > 256)
    return error("an nvidia_mma version 3 layout needs instrShape [16, N, K] with N a power "
                 "of two from 8 to 256");
  return llvm::Error::success();
}
} // namespace

llvm::Expected<LinearLayout> toLinearLayout(const NvidiaMmaEncoding &enc,
                                            ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  if (llvm::Error e = checkMma(enc, rank))
    return e;
  // Version 3's instrShape is [M, N, K] whatever the rank: a warp's tile is
  // 16 x N of the last two dimensions, one element of each leading (batch)
  // one, which only conversions use (wgmma computes in rank 2).
  SmallVector<unsigned> tileShape(enc.instrShape.begin(), enc.instrShape.end());
  if (enc.versionMajor == 3) {
    tileShape.assign(rank - 2, 1);
    tileShape.append({enc.instrShape[0], enc.instrShape[1]});
  }
  // The accumulator fragment always holds 2 consecutive elements of a row.
  LinearLayout cta = mmaTile(tileShape, /*kWidth=*/2, rank - 1, rank - 2, rowMajor(rank));
  cta *= identityStandardND(kWarp, enc.warpsPerCTA, mmaWarpOrder(enc)).transposeOuts(refs(cta));
  return combineCtaCgaWithShape(cta, enc.cgaLayout, shape);
}

llvm::Expected<LinearLayout> toLinearLayout(const NvidiaDotOperandEncoding &enc,
                                            ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  if (llvm::Error e = checkMma(enc.parent, rank))
    return e;
  if (enc.opIdx > 1)
    return error("dot operand index " + llvm::Twine(enc.opIdx) + " is neither 0 (A) nor 1 (B)");
  if (!isPow2(enc.kWidth) || enc.kWidth > 32)
    return error("a tensor-core dot operand needs kWidth a power of two up to 32");
  bool isA = enc.opIdx == 0;
  if (!isA && enc.parent.versionMajor == 3)
    return error("operand B of a version 3 (wgmma) product is read from shared memory, "
                 "it has no register layout");
  unsigned kDim = isA ? rank - 1 : rank - 2, nonKDim = isA ? rank - 2 : rank - 1;
  SmallVector<unsigned> tileShape(rank, 1);
  tileShape[kDim] = enc.kWidth * 8;
  tileShape[nonKDim] = isA ? 16 : 8;
  // Repetitions go along K first, then the other matrix dimension, then batch.
  SmallVector<unsigned> repOrder = {kDim, nonKDim};
  for (unsigned d = rank - 2; d-- > 0;)
    repOrder.push_back(d);
  LinearLayout cta = mmaTile(tileShape, enc.kWidth, kDim, nonKDim, repOrder);
  // Warps along K hold the same operand elements: every warp that computes a
  // row (column) of C needs the whole row of A (column of B).
  LinearLayout warps;
  for (unsigned d : mmaWarpOrder(enc.parent))
    warps *= d == kDim ? LinearLayout::zeros1D(enc.parent.warpsPerCTA[d], kWarp, dimName(d))
                       : LinearLayout::identity1D(enc.parent.warpsPerCTA[d], kWarp, dimName(d));
  cta *= warps.transposeOuts(refs(cta));
  return combineCtaCgaWithShape(cta, operandCGA(enc.parent.cgaLayout, enc.opIdx), shape);
}

llvm::Expected<LinearLayout> toLinearLayout(const NVMMASharedEncoding &enc,
                                            ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  if (enc.rank != rank)
    return error("a rank-" + llvm::Twine(enc.rank) + " nvmma_shared layout cannot lay out a rank-" +
                 llvm::Twine(rank) + " tensor");
  if (!llvm::is_contained({4u, 8u, 16u, 32u}, enc.elementBitWidth))
    return error("nvmma_shared elementBitWidth must be 4, 8, 16 or 32");
  if (llvm::Error e = checkShapeSizes(shape))
    return e;
  // Laid out over one CTA's part of the tensor: a CTA's buffer holds each
  // element of its part once (TMA copies into it).
  llvm::Expected<SmallVector<int64_t>> tile = ctaTileShape(enc.cgaLayout, shape);
  if (!tile)
    return tile.takeError();
  if (rank == 1) {
    LinearLayout cta = LinearLayout::identity1D(int32_t((*tile)[0]), kOffset, dimName(0));
    return combineCtaCgaWithShape(cta, enc.cgaLayout, shape);
  }
  unsigned swizzle = enc.swizzlingByteWidth;
  if (swizzle == 0) {
    // Unswizzled (what TMA copies of blocks too narrow to swizzle use):
    // row-major boxes of at most 256 elements per dimension (TMA's box
    // limit), the contiguous dimension fastest, the boxes in turn row-major.
    unsigned contiguous = enc.transposed ? rank - 2 : rank - 1;
    SmallVector<unsigned> order{contiguous};
    for (unsigned d = rank; d-- > 0;)
      if (d != contiguous)
        order.push_back(d);
    LinearLayout cta;
    for (unsigned d : order)
      cta *= LinearLayout::identity1D(int32_t(std::min<int64_t>((*tile)[d], 256)), kOffset,
                                      dimName(d));
    for (unsigned d : order)
      if ((*tile)[d] > 256)
        cta *= LinearLayout::identity1D(int32_t((*tile)[d] / 256), kOffset, dimName(d));
    return combineCtaCgaWithShape(cta, enc.cgaLayout, shape);
  }
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return error("nvmma_shared layouts are built for 0, 32, 64 and 128-byte swizzles, not " +
                 llvm::Twine(swizzle));
  // 16-byte groups, swizzled in 8-row tiles one swizzle width wide.
  int32_t vec = 128 / enc.elementBitWidth, perPhase = 128 / swizzle, maxPhase = swizzle / 16;
  unsigned colDim = enc.transposed ? rank - 2 : rank - 1;
  unsigned rowDim = enc.transposed ? rank - 1 : rank - 2;
  int32_t tileRows = 8, tileCols = 8 * swizzle / enc.elementBitWidth;
  // With fp4 padding each 16 offsets hold 8 elements; the 8 pad offsets map
  // onto the same elements, so inverting the layout picks the real ones.
  auto packed = [&](int32_t col) { return enc.fp4Padded ? col / 16 * 8 + col % 8 : col; };
  int64_t packing = enc.fp4Padded ? 2 : 1;
  if ((*tile)[colDim] * packing < tileCols || (*tile)[rowDim] < tileRows)
    return error("an nvmma_shared tile is " + llvm::Twine(tileRows) + "x" + llvm::Twine(tileCols) +
                 " elements; the tensor's " + llvm::Twine((*tile)[rowDim]) + "x" +
                 llvm::Twine((*tile)[colDim]) + " (a CTA's part) is smaller");
  std::vector<LinearLayout::Basis> bases;
  for (int32_t col = 1; col < tileCols; col *= 2)
    bases.push_back({0, packed(col)});
  for (int32_t row = 1; row < tileRows; row *= 2)
    bases.push_back({row, packed(vec * ((row / perPhase) % maxPhase))});
  LinearLayout cta({{std::string(kOffset), bases}}, {dimName(rowDim), dimName(colDim)});
  // As TMA writes a box: the leading dimensions are rows of rows, outside
  // all of the row dimension (a [2, 32, 64] box is 64 rows of 64), and
  // blocks of columns beyond one swizzle row outermost.
  cta *= LinearLayout::identity1D(int32_t((*tile)[rowDim] / tileRows), kOffset, dimName(rowDim));
  for (unsigned d = rank - 2; d-- > 0;)
    cta *= LinearLayout::identity1D(int32_t((*tile)[d]), kOffset, dimName(d));
  return combineCtaCgaWithShape(cta, enc.cgaLayout, shape);
}

} // namespace kiln::layout
