//===- Coalesce.cpp - the ttgir-coalesce pass -----------------------------===//
//
// Gives each global load, store and atomic (rmw, cas, and Triton 3.9's
// atomic load, store and poll) on a tensor of pointers the
// blocked layout that lets a warp's accesses coalesce and each thread's
// become one vector access, from the axis-info analysis. Follows Triton
// 3.6's tritongpu-coalesce.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Analysis/AxisInfo.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <numeric>

namespace kiln::ttg {
#define GEN_PASS_DEF_COALESCE
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

/// The tensor of pointers a memory op accesses, or null.
Value getMemAccessPtr(Operation *op) {
  Value ptr = llvm::TypeSwitch<Operation *, Value>(op)
                  .Case<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp,
                        tt::AtomicLoadOp, tt::AtomicStoreOp, tt::AtomicPollOp>(
                      [](auto memOp) { return memOp.getPtr(); })
                  .Case([](AsyncCopyGlobalToLocalOp copy) { return copy.getSrc(); })
                  .Default([](Operation *) { return Value(); });
  auto tensor = ptr ? dyn_cast<RankedTensorType>(ptr.getType()) : nullptr;
  if (!tensor || !isa<tt::PointerType>(tensor.getElementType()))
    return {};
  return ptr;
}

/// Dimensions by decreasing contiguity (ties: lower dimension first).
SmallVector<unsigned> orderByContiguity(const AxisInfo &info) {
  SmallVector<unsigned> order(info.getRank());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return info.contiguity[a] > info.contiguity[b];
  });
  return order;
}

unsigned pointeeBits(Value ptr) {
  auto tensor = cast<RankedTensorType>(ptr.getType());
  Type pointee = cast<tt::PointerType>(tensor.getElementType()).getPointeeType();
  return pointee.isIntOrFloat() ? pointee.getIntOrFloatBitWidth() : 64;
}

/// Elements per thread that `op`'s own pointers allow along `dim`: aligned
/// and consecutive, at most 128 bits.
unsigned elementsPerThread(const AxisInfoAnalysis &axisInfo, Operation *op, unsigned dim) {
  Value ptr = getMemAccessPtr(op);
  unsigned bits = pointeeBits(ptr);
  return std::max(1u, std::min(axisInfo.getPtrAlignment(ptr, dim), 128 / std::max(bits, 8u)));
}

BlockedEncodingAttr coalescedEncoding(const AxisInfoAnalysis &axisInfo, Operation *op,
                                      unsigned numWarps, unsigned threadsPerWarp) {
  Value ptr = getMemAccessPtr(op);
  auto type = cast<RankedTensorType>(ptr.getType());
  SmallVector<unsigned> order = orderByContiguity(axisInfo.get(ptr));

  unsigned perThread = elementsPerThread(axisInfo, op, order[0]);
  // Accesses of the same shape and order connected to this one through
  // def-use chains may allow wider loads (what Triton's multi-root slice
  // finds).
  if (ptr.getDefiningOp()) {
    for (Operation *other : mlir::getSlice(op)) {
      Value otherPtr = getMemAccessPtr(other);
      if (!otherPtr || other == op ||
          cast<RankedTensorType>(otherPtr.getType()).getShape() != type.getShape() ||
          orderByContiguity(axisInfo.get(otherPtr)) != order)
        continue;
      perThread = std::max(perThread, elementsPerThread(axisInfo, other, order[0]));
    }
  }
  // In a program of several CTAs the access stays split over them as it is
  // (the threads of each CTA fill its tile).
  ArrayRef<int32_t> cga;
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(type.getEncoding()))
    cga = blocked.getCgaLayout();
  int64_t numElems = 1;
  for (int64_t d : ctaShape(type.getShape(), cga))
    numElems *= d;
  perThread = std::min<int64_t>(perThread, std::max<int64_t>(numElems / (numWarps * threadsPerWarp), 1));
  // A write wider than its own alignment would leave gaps in a warp's
  // writes; a load's gaps are served by the L1 cache.
  if (!isa<tt::LoadOp>(op))
    perThread = std::min(perThread, elementsPerThread(axisInfo, op, order[0]));

  SmallVector<unsigned> sizePerThread(type.getRank(), 1);
  sizePerThread[order[0]] = perThread;
  return buildBlockedEncoding(op->getContext(), type.getShape(), sizePerThread, order, numWarps,
                              threadsPerWarp, cga);
}

/// Rebuilds `op` with every tensor operand and result in `encoding`,
/// converting from and back to the layouts around it.
void convertOpEncoding(Operation *op, Attribute encoding) {
  OpBuilder builder(op);
  for (OpOperand &operand : op->getOpOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!tensor || tensor.getEncoding() == encoding)
      continue;
    operand.set(ConvertLayoutOp::create(builder, op->getLoc(), tensor.cloneWithEncoding(encoding),
                                        operand.get()));
  }
  builder.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    auto tensor = dyn_cast<RankedTensorType>(result.getType());
    if (!tensor || tensor.getEncoding() == encoding)
      continue;
    result.setType(tensor.cloneWithEncoding(encoding));
    auto back = ConvertLayoutOp::create(builder, op->getLoc(), tensor, result);
    result.replaceAllUsesExcept(back, back);
  }
}

struct CoalescePass : public ttg::impl::CoalesceBase<CoalescePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    AxisInfoAnalysis axisInfo(module);
    unsigned threadsPerWarp = lookupThreadsPerWarp(module);
    // Every layout is chosen before any op changes, from the same analysis.
    llvm::MapVector<Operation *, Attribute> layouts;
    bool failedLookup = false;
    module.walk([&](Operation *op) {
      if (!getMemAccessPtr(op))
        return;
      std::optional<unsigned> numWarps = lookupNumWarps(op);
      if (!numWarps) {
        op->emitError("ttgir-coalesce: no ttg.num-warps on the module or function");
        failedLookup = true;
        return;
      }
      // Over several CTAs only a blocked access is re-laid (its CTA split
      // kept); the others keep their layouts.
      auto ptrType = cast<RankedTensorType>(getMemAccessPtr(op).getType());
      if (lookupNumCTAs(op) > 1 && !isa<BlockedEncodingAttr>(ptrType.getEncoding()))
        return;
      layouts[op] = coalescedEncoding(axisInfo, op, *numWarps, threadsPerWarp);
    });
    if (failedLookup)
      return signalPassFailure();
    for (auto &[op, encoding] : layouts)
      convertOpEncoding(op, encoding);
  }
};

} // namespace
