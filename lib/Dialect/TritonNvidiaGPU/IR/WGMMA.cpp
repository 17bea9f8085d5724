//===- WGMMA.cpp - the accumulator layout of warpgroup MMA ----------------===//
#include "kiln/Dialect/TritonNvidiaGPU/IR/WGMMA.h"

#include <algorithm>

using namespace mlir;

namespace kiln::ttng {

SmallVector<unsigned> wgmmaInstrShape(ArrayRef<int64_t> tile, Type element, unsigned numWarps) {
  unsigned mWarps = std::max<unsigned>(tile[0] / 16, 1);
  unsigned nWarps = std::max<unsigned>(numWarps / mWarps, 1);
  int64_t maxN = std::max<int64_t>(tile[1] / nWarps, 8);
  // wgmma's N is a multiple of 8 up to 256 (of 16 for i8, up to 224).
  bool int8 = element.isInteger(8);
  int64_t step = int8 ? 16 : 8, top = int8 ? 224 : 256;
  int64_t n = 8;
  for (int64_t candidate = top; candidate >= step; candidate -= step)
    if (tile[1] % candidate == 0 && candidate <= maxN) {
      n = candidate;
      break;
    }
  return {16, unsigned(n), 256 / element.getIntOrFloatBitWidth()};
}

SmallVector<unsigned> wgmmaWarpsPerCTA(ArrayRef<int64_t> tile, unsigned numWarps, bool chained) {
  if (chained)
    return {numWarps, 1};
  // A warp group (4 warps) is the smallest unit.
  SmallVector<unsigned> warps = {4, 1};
  while (warps[0] * warps[1] < numWarps) {
    if (tile[0] > 16 * int64_t(warps[0]))
      warps[0] *= 2;
    else
      warps[1] *= 2;
  }
  return warps;
}

} // namespace kiln::ttng
