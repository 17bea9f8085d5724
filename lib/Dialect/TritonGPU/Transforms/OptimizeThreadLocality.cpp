//===- OptimizeThreadLocality.cpp - ttgir-optimize-thread-locality --------===//
//
// Gives each tt.gather a layout in which a warp owns whole columns along the
// gather axis, so that every index is resolved by warp shuffles. Follows the
// gather layout of Triton 3.6's tritongpu-optimize-thread-locality.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace kiln::ttg {
#define GEN_PASS_DEF_OPTIMIZETHREADLOCALITY
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

/// The warp-local layout for `gather`, or null when it has none.
BlockedEncodingAttr warpLocalGatherLayout(tt::GatherOp gather, unsigned lanes, unsigned warps) {
  auto srcType = cast<RankedTensorType>(gather.getSrc().getType());
  auto idxType = cast<RankedTensorType>(gather.getIndices().getType());
  auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
  unsigned rank = srcType.getRank();
  unsigned axis = gather.getAxis();
  if (!blocked || rank < 2 || !blocked.getCGABases().empty())
    return {};
  SmallVector<unsigned> lanesPer(rank, 1), warpsPer(rank, 1), order{axis};
  // As many lanes along the axis as it has elements; the rest spread over
  // the other dimensions in the source's order.
  lanesPer[axis] = std::min<int64_t>(srcType.getDimSize(axis), lanes);
  unsigned lanesLeft = lanes / lanesPer[axis];
  for (unsigned d : blocked.getOrder()) {
    if (d == axis)
      continue;
    order.push_back(d);
    lanesPer[d] = std::min<int64_t>(srcType.getDimSize(d), lanesLeft);
    lanesLeft /= lanesPer[d];
  }
  // One warp along the axis; the warps spread over the other dimensions.
  unsigned warpsLeft = warps;
  for (unsigned d : blocked.getOrder()) {
    if (d == axis)
      continue;
    int64_t fit = srcType.getDimSize(d) / lanesPer[d];
    if (fit == 0)
      return {};
    warpsPer[d] = std::min<int64_t>(fit, warpsLeft);
    warpsLeft /= warpsPer[d];
  }
  SmallVector<unsigned> sizePerThread(rank, 1);
  sizePerThread[axis] =
      std::max(srcType.getDimSize(axis), idxType.getDimSize(axis)) / lanesPer[axis];
  // What is left over replicates along the axis.
  lanesPer[axis] *= lanesLeft;
  warpsPer[axis] *= warpsLeft;
  return BlockedEncodingAttr::get(gather.getContext(), sizePerThread, lanesPer, warpsPer, order,
                                  blocked.getCgaLayout());
}

struct OptimizeThreadLocalityPass
    : public ttg::impl::OptimizeThreadLocalityBase<OptimizeThreadLocalityPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned lanes = lookupThreadsPerWarp(module);
    module.walk([&](tt::GatherOp gather) {
      std::optional<unsigned> warps = lookupNumWarps(gather);
      if (gather.getEfficientLayout() || !warps)
        return;
      BlockedEncodingAttr layout = warpLocalGatherLayout(gather, lanes, *warps);
      if (!layout)
        return;
      OpBuilder builder(gather);
      auto convert = [&](Value value) {
        auto type = cast<RankedTensorType>(value.getType());
        return ConvertLayoutOp::create(builder, gather.getLoc(), type.cloneWithEncoding(layout),
                                       value);
      };
      gather.getSrcMutable().assign(convert(gather.getSrc()));
      gather.getIndicesMutable().assign(convert(gather.getIndices()));
      builder.setInsertionPointAfter(gather);
      auto type = cast<RankedTensorType>(gather.getType());
      gather.getResult().setType(type.cloneWithEncoding(layout));
      auto back = ConvertLayoutOp::create(builder, gather.getLoc(), type, gather.getResult());
      gather.getResult().replaceAllUsesExcept(back, back);
      gather.setEfficientLayout(true);
    });
  }
};

} // namespace
