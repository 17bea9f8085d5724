//===- AtomicPlan.cpp - shared memory of atomics and histograms -----------===//
#include "kiln/Analysis/AtomicPlan.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include <algorithm>

using namespace mlir;

namespace kiln {

AtomicResultPlan planAtomicResult(Operation *op) {
  AtomicResultPlan plan;
  if (!isa<tt::AtomicRMWOp, tt::AtomicCASOp, tt::AtomicLoadOp, tt::AtomicPollOp>(op) ||
      op->getResult(0).use_empty())
    return plan;
  Type type = op->getResult(0).getType();
  Type elem = getElementTypeOrSelf(type);
  if (!elem.isIntOrFloat())
    return plan;
  int64_t bytes = std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    plan.exchange = AtomicResultExchange::SharedMemory;
    plan.scratchBytes = bytes;
    return plan;
  }
  llvm::Expected<layout::LinearLayout> ll = ttg::toCTALinearLayout(tensor);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return plan;
  }
  uint64_t freeLanes = ll->getFreeVariableMask(layout::kLane);
  uint64_t freeWarps = ll->getFreeVariableMask(layout::kWarp);
  if (!freeLanes && !freeWarps)
    return plan;
  // Lane copies of the same register hold the same element exactly when
  // their bases are 0; then the doer is lane & ~freeLanes, same register.
  if (!freeWarps && freeLanes == layout::zeroBasisMask(*ll, layout::kLane)) {
    plan.exchange = AtomicResultExchange::LaneShuffle;
    return plan;
  }
  plan.exchange = AtomicResultExchange::SharedMemory;
  plan.scratchBytes = tensor.getNumElements() * bytes;
  return plan;
}

int64_t histogramPaddedBins(Operation *histogram, unsigned warpSize) {
  auto type = cast<RankedTensorType>(histogram->getResult(0).getType());
  return std::max<int64_t>(type.getNumElements(), warpSize);
}

int64_t histogramScratchBytes(Operation *histogram, unsigned warpSize) {
  return histogramPaddedBins(histogram, warpSize) * 4;
}

} // namespace kiln
