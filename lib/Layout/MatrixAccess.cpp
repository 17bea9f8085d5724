//===- MatrixAccess.cpp - 8x8-matrix accesses of 16-bit elements ---------===//
#include "kiln/Layout/MatrixAccess.h"

namespace kiln::layout {

namespace {

int64_t offsetOf(const LinearLayout &ll, llvm::StringRef in, unsigned bit) {
  return ll.getBasis(in, bit, kOffset);
}

} // namespace

std::optional<MatrixAccessPlan> planMatrixAccess(const LinearLayout &toShared, bool transposed) {
  if (!toShared.hasInDim(kRegister) || !toShared.hasInDim(kLane) || !toShared.hasOutDim(kOffset))
    return std::nullopt;
  for (llvm::StringRef out : toShared.getOutDimNames())
    if (out != kOffset && toShared.getOutDimSize(out) > 1)
      return std::nullopt; // several rounds
  if (toShared.hasInDim(kBlock) && toShared.getInDimSizeLog2(kBlock) > 0)
    return std::nullopt;
  unsigned regBits = toShared.getInDimSizeLog2(kRegister);
  if (regBits < 3 || toShared.getInDimSizeLog2(kLane) != 5)
    return std::nullopt;
  // A thread's pair and its lane bits 0-1, and its lane bits 2-4: one of
  // them runs along the 8 elements of a row, the other picks the row.
  int64_t pairAndQuad[3] = {offsetOf(toShared, kRegister, 0), offsetOf(toShared, kLane, 0),
                            offsetOf(toShared, kLane, 1)};
  int64_t octet[3] = {offsetOf(toShared, kLane, 2), offsetOf(toShared, kLane, 3),
                      offsetOf(toShared, kLane, 4)};
  int64_t *inRow = transposed ? octet : pairAndQuad;
  int64_t *rows = transposed ? pairAndQuad : octet;
  if (inRow[0] != 1 || inRow[1] != 2 || inRow[2] != 4)
    return std::nullopt;
  // Everything else moves whole aligned rows (or nothing: elements a warp
  // or a register repeats are read or written twice, alike).
  auto alignedRow = [](int64_t image) { return (image & 7) == 0; };
  for (unsigned i = 0; i < 3; ++i)
    if (!alignedRow(rows[i]))
      return std::nullopt;
  for (unsigned i = 1; i < regBits; ++i)
    if (!alignedRow(offsetOf(toShared, kRegister, i)))
      return std::nullopt;
  MatrixAccessPlan plan;
  plan.transposed = transposed;
  if (toShared.hasInDim(kWarp))
    for (unsigned i = 0, e = toShared.getInDimSizeLog2(kWarp); i < e; ++i) {
      int64_t image = offsetOf(toShared, kWarp, i);
      if (!alignedRow(image))
        return std::nullopt;
      plan.warpImages.push_back(image);
    }
  // Bits 0-2 of the address-giving lane are the row, bits 3-4 the matrix
  // (register bits 1-2).
  for (unsigned b = 0; b < 3; ++b)
    plan.laneImages[b] = rows[b];
  for (unsigned b = 3; b < 5; ++b)
    plan.laneImages[b] = offsetOf(toShared, kRegister, b - 2);
  for (int64_t image : plan.laneImages)
    plan.threadMask |= image;
  for (int64_t image : plan.warpImages)
    plan.threadMask |= image;
  for (int32_t first = 0, e = toShared.getInDimSize(kRegister); first < e; first += 8) {
    int64_t offset = 0;
    for (unsigned i = 3; i < regBits; ++i)
      if (first & (1 << i))
        offset ^= offsetOf(toShared, kRegister, i);
    plan.accesses.push_back({first, offset});
  }
  return plan;
}

} // namespace kiln::layout
