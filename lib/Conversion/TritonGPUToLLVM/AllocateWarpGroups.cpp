//===- AllocateWarpGroups.cpp - warps of warp-specialised partitions ------===//
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace kiln {
#define GEN_PASS_DEF_ALLOCATEWARPGROUPS
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

constexpr unsigned kWarpGroup = 4;
constexpr unsigned kMaxWarps = 32; // 1024 threads of 32 lanes

/// The first warp of each partition and the end of the last: largest
/// first, each at a multiple of its size (at most a warp group).
SmallVector<int32_t> placePartitions(ArrayRef<int32_t> numWarps, unsigned defaultWarps,
                                     unsigned &end) {
  SmallVector<unsigned> order(numWarps.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) { return numWarps[a] > numWarps[b]; });
  SmallVector<int32_t> start(numWarps.size());
  end = defaultWarps;
  for (unsigned i : order) {
    unsigned align = std::min<unsigned>(unsigned(numWarps[i]), kWarpGroup);
    end = unsigned(llvm::alignTo(end, align));
    start[i] = int32_t(end);
    end += unsigned(numWarps[i]);
  }
  return start;
}

/// Whether given start ids keep the partitions apart and clear of the
/// default warps.
bool validStarts(ArrayRef<int32_t> start, ArrayRef<int32_t> numWarps, unsigned defaultWarps,
                 unsigned &end) {
  SmallVector<std::pair<int32_t, int32_t>> spans;
  end = defaultWarps;
  for (auto [s, n] : llvm::zip(start, numWarps)) {
    if (s < int32_t(defaultWarps))
      return false;
    spans.push_back({s, s + n});
    end = std::max(end, unsigned(s + n));
  }
  llvm::sort(spans);
  for (size_t i = 1; i < spans.size(); ++i)
    if (spans[i].first < spans[i - 1].second)
      return false;
  return true;
}

struct AllocateWarpGroups : kiln::impl::AllocateWarpGroupsBase<AllocateWarpGroups> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto numWarpsAttr = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    if (!numWarpsAttr)
      return; // not TTGIR yet: nothing to place
    unsigned defaultWarps = unsigned(numWarpsAttr.getInt());
    unsigned total = defaultWarps;
    bool ok = true;
    module.walk([&](ttg::WarpSpecializeOp op) {
      ArrayRef<int32_t> numWarps = op.getPartitionNumWarps();
      unsigned end = 0;
      if (auto given = op.getWarpGroupStartIds()) {
        if (!validStarts(*given, numWarps, defaultWarps, end)) {
          op.emitOpError() << "warpGroupStartIds overlap each other or the " << defaultWarps
                           << " warps of the default region";
          ok = false;
          return;
        }
      } else {
        op.setWarpGroupStartIds(placePartitions(numWarps, defaultWarps, end));
      }
      total = std::max(total, end);
    });
    if (defaultWarps % kWarpGroup == 0)
      total = unsigned(llvm::alignTo(total, kWarpGroup));
    if (total > kMaxWarps) {
      module.emitError() << "warp specialisation needs " << total << " warps; a CTA has at most "
                         << kMaxWarps;
      ok = false;
    }
    if (!ok)
      return signalPassFailure();
    module->setAttr("ttg.total-num-warps",
                    IntegerAttr::get(IntegerType::get(&getContext(), 32), total));
  }
};

} // namespace
