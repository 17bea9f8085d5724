//===- OptimizeThreadLocality.cpp - ttgir-optimize-thread-locality --------===//
//
// Gives each tt.gather a layout in which a warp owns whole columns along the
// gather axis, so that every index is resolved by warp shuffles (where the
// lowering then uses them: planGather), and splits
// a reduction accumulated across a loop so that each thread accumulates its
// own partial results in the loop and the threads combine them once after
// it. Follows Triton 3.6's tritongpu-optimize-thread-locality.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Analysis/ConvertLayoutPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

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

/// The one op of a reduction's combine region, when that is all it does.
Operation *combineOp(tt::ReduceOp reduce) {
  Block &body = reduce.getCombineOp().front();
  if (reduce.getNumOperands() != 1 || body.getOperations().size() != 2)
    return nullptr;
  Operation *op = &body.front();
  if (op->getNumOperands() != 2 || op->getOperand(0) != body.getArgument(0) ||
      op->getOperand(1) != body.getArgument(1) ||
      body.getTerminator()->getOperand(0) != op->getResult(0))
    return nullptr;
  return op;
}

/// The value `op` leaves its other operand unchanged with, for the combine
/// ops whose partial results may be regrouped (null for any other op).
TypedAttr neutralElement(Operation *op) {
  Type type = op->getResult(0).getType();
  Builder b(op->getContext());
  if (auto f = dyn_cast<FloatType>(type)) {
    // IEEE formats only: they have both infinities and NaN.
    if (!isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(f))
      return {};
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    auto value = [&](APFloat v) -> TypedAttr { return b.getFloatAttr(f, v); };
    if (isa<arith::AddFOp>(op))
      return value(APFloat::getZero(sem, /*Negative=*/true)); // x + -0 is x, -0 too
    if (isa<arith::MulFOp>(op))
      return value(APFloat::getOne(sem));
    if (isa<arith::MaximumFOp>(op))
      return value(APFloat::getInf(sem, /*Negative=*/true));
    if (isa<arith::MinimumFOp>(op))
      return value(APFloat::getInf(sem, /*Negative=*/false));
    if (isa<arith::MaxNumFOp, arith::MinNumFOp>(op)) // these drop a NaN operand
      return value(APFloat::getNaN(sem));
    return {};
  }
  auto i = dyn_cast<IntegerType>(type);
  if (!i)
    return {};
  unsigned w = i.getWidth();
  auto value = [&](APInt v) -> TypedAttr { return b.getIntegerAttr(i, v); };
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, arith::MaxUIOp>(op))
    return value(APInt::getZero(w));
  if (isa<arith::MulIOp>(op))
    return value(APInt(w, 1));
  if (isa<arith::AndIOp, arith::MinUIOp>(op))
    return value(APInt::getAllOnes(w));
  if (isa<arith::MaxSIOp>(op))
    return value(APInt::getSignedMinValue(w));
  if (isa<arith::MinSIOp>(op))
    return value(APInt::getSignedMaxValue(w));
  return {};
}

/// A reduction along the last axis of a loaded blocked tensor whose only
/// use folds it into a value the loop carries, with the combine op itself:
/// `acc' = combine(acc, reduce(x))` yielded as `acc`.
struct LoopReduction {
  tt::ReduceOp reduce;
  Operation *update;
  scf::ForOp loop;
  unsigned iterArg; // position among the loop's carried values
  unsigned elemsPerThread;
};

std::optional<LoopReduction> matchLoopReduction(tt::ReduceOp reduce) {
  auto srcType = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
  unsigned rank = srcType.getRank();
  auto blocked = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
  Operation *combine = combineOp(reduce);
  auto loop = dyn_cast<scf::ForOp>(reduce->getParentOp());
  if (!blocked || rank < 2 || reduce.getAxis() != rank - 1 || !combine ||
      !neutralElement(combine) || !loop || !reduce.getSrcs()[0].getDefiningOp<tt::LoadOp>() ||
      !reduce->hasOneUse())
    return std::nullopt;
  // The update folds into the carried value in the loop's own block, and
  // nothing else reads that value in the loop.
  Operation *update = *reduce->getUsers().begin();
  if (update->getName() != combine->getName() || update->getAttrs() != combine->getAttrs() ||
      update->getNumOperands() != 2 || update->getBlock() != loop.getBody() ||
      !update->hasOneUse() || *update->getUsers().begin() != loop.getBody()->getTerminator())
    return std::nullopt;
  Value acc = update->getOperand(update->getOperand(0) == reduce.getResult()[0] ? 1 : 0);
  OpOperand &yielded = *update->getUses().begin();
  auto arg = dyn_cast<BlockArgument>(acc);
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0 ||
      arg.getArgNumber() - 1 != yielded.getOperandNumber() || !arg.hasOneUse())
    return std::nullopt;
  llvm::Expected<layout::LinearLayout> ll = toLinearLayout(srcType);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return std::nullopt;
  }
  // The coordinates along the axis one thread holds.
  unsigned axisBits = 0;
  for (unsigned r = 0; r < ll->getInDimSizeLog2(layout::kRegister); ++r)
    axisBits += ll->getBasis(layout::kRegister, r)[rank - 1] != 0;
  if (axisBits == 0)
    return std::nullopt; // nothing for a thread to combine on its own
  return LoopReduction{reduce, update, loop, yielded.getOperandNumber(), 1u << axisBits};
}

/// The source layout with the reduced axis split in two: the coordinates
/// the lanes and warps hold, and a last dimension of the ones each thread
/// holds, as Triton 3.6 builds it.
BlockedEncodingAttr splitAxisLayout(BlockedEncodingAttr blocked, unsigned axis) {
  unsigned rank = blocked.getOrder().size();
  auto append = [](ArrayRef<unsigned> v, unsigned x) {
    SmallVector<unsigned> r(v);
    r.push_back(x);
    return r;
  };
  SmallVector<unsigned> size = append(blocked.getSizePerThread(), blocked.getSizePerThread()[axis]);
  size[axis] = 1;
  SmallVector<unsigned> order{rank};
  llvm::append_range(order, blocked.getOrder());
  SmallVector<int32_t> cga;
  for (ArrayRef<int32_t> basis : unflattenBases(blocked.getCgaLayout(), rank)) {
    llvm::append_range(cga, basis);
    cga.push_back(0);
  }
  return BlockedEncodingAttr::get(blocked.getContext(), size,
                                  append(blocked.getThreadsPerWarp(), 1),
                                  append(blocked.getWarpsPerCTA(), 1), order, cga);
}

/// Whether the registers of every thread, read in order, hold elements of
/// the same rows (all dimensions but the last `dropped`) in both layouts:
/// then a reordering reshape between them, which the lowering does by
/// keeping the registers, keeps every row's elements in its row.
bool keepsRows(RankedTensorType from, RankedTensorType to, unsigned rows) {
  llvm::Expected<layout::LinearLayout> a = toLinearLayout(from), b = toLinearLayout(to);
  if (!a || !b) {
    llvm::consumeError(a.takeError());
    llvm::consumeError(b.takeError());
    return false;
  }
  if (!a->isInjective() || !b->isInjective() ||
      a->getTotalInDimSizeLog2() != b->getTotalInDimSizeLog2())
    return false;
  for (StringRef in : a->getInDimNames())
    for (unsigned i = 0; i < a->getInDimSizeLog2(in); ++i)
      if (a->getBasis(in, i).take_front(rows) != b->getBasis(in, i).take_front(rows))
        return false;
  return true;
}

/// A new tt.reduce of `src` along `axis` with `reduce`'s combine region.
tt::ReduceOp cloneReduce(OpBuilder &b, tt::ReduceOp reduce, Value src, unsigned axis) {
  auto result = tt::ReduceOp::create(b, reduce.getLoc(), ValueRange{src}, int(axis));
  IRMapping mapping;
  reduce.getCombineOp().cloneInto(&result.getCombineOp(), mapping);
  return result;
}

/// The update op again, on `acc` and `part` in the operand order of `upd`.
Value cloneUpdate(OpBuilder &b, Operation *upd, Value reduced, Value acc, Value part) {
  IRMapping mapping;
  bool partFirst = upd->getOperand(0) == reduced;
  mapping.map(upd->getOperand(partFirst ? 0 : 1), part);
  mapping.map(upd->getOperand(partFirst ? 1 : 0), acc);
  Operation *clone = b.clone(*upd, mapping);
  clone->getResult(0).setType(acc.getType());
  return clone->getResult(0);
}

/// In the loop, each thread folds the elements it holds of each row into
/// an accumulator of its own (a tensor with the lanes' and warps' part of
/// the axis); after the loop one reduction combines the threads' partial
/// results and the loop's original start value.
bool splitLoopReduction(LoopReduction m) {
  tt::ReduceOp reduce = m.reduce;
  Value src = reduce.getSrcs()[0];
  auto srcType = cast<RankedTensorType>(src.getType());
  unsigned rank = srcType.getRank();
  SmallVector<int64_t> shape(srcType.getShape());
  shape.back() /= m.elemsPerThread;
  shape.push_back(m.elemsPerThread);
  auto split = splitAxisLayout(cast<BlockedEncodingAttr>(srcType.getEncoding()), rank - 1);
  auto splitType = RankedTensorType::get(shape, srcType.getElementType(), split);
  if (!keepsRows(srcType, splitType, rank - 1))
    return false;

  // The threads' accumulators start at the combine op's neutral element.
  OpBuilder b(m.loop);
  auto accType = RankedTensorType::get(ArrayRef(shape).drop_back(), srcType.getElementType(),
                                       SliceEncodingAttr::get(b.getContext(), rank, split));
  auto init = arith::ConstantOp::create(
      b, reduce.getLoc(), DenseElementsAttr::get(accType, neutralElement(combineOp(reduce))));
  Value oldInit = m.loop.getInitArgs()[m.iterArg];
  Value reduced = reduce.getResult()[0];
  IRRewriter rewriter(b.getContext());
  auto grown = m.loop.replaceWithAdditionalYields(
      rewriter, ValueRange{init}, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &inner, Location loc, ArrayRef<BlockArgument> args) -> SmallVector<Value> {
        inner.setInsertionPoint(reduce);
        auto view = tt::ReshapeOp::create(inner, loc, splitType, src, /*allow_reorder=*/true,
                                          /*efficient_layout=*/true);
        tt::ReduceOp local = cloneReduce(inner, reduce, view, rank);
        return {cloneUpdate(inner, m.update, reduced, args[0], local.getResult()[0])};
      });
  if (failed(grown))
    return false;
  auto loop = cast<scf::ForOp>(*grown);
  b.setInsertionPointAfter(loop);
  tt::ReduceOp across = cloneReduce(b, reduce, loop.getResults().back(), rank - 1);
  Value oldResult = loop.getResult(m.iterArg);
  Value back = ConvertLayoutOp::create(b, reduce.getLoc(), oldResult.getType(),
                                       across.getResult()[0]);
  Value total = cloneUpdate(b, m.update, reduced, oldInit, back);
  oldResult.replaceAllUsesWith(total);
  // The old carried value no longer changes; canonicalisation drops it.
  m.update->getResult(0).replaceAllUsesWith(loop.getRegionIterArgs()[m.iterArg]);
  m.update->erase();
  reduce->erase();
  return true;
}

struct OptimizeThreadLocalityPass
    : public ttg::impl::OptimizeThreadLocalityBase<OptimizeThreadLocalityPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // One at a time: splitting replaces the loop, which others may share.
    bool split = true;
    while (split) {
      split = false;
      module.walk([&](tt::ReduceOp reduce) {
        std::optional<LoopReduction> m = matchLoopReduction(reduce);
        split = m && splitLoopReduction(*m);
        return split ? WalkResult::interrupt() : WalkResult::advance();
      });
    }

    unsigned lanes = lookupThreadsPerWarp(module);
    module.walk([&](tt::GatherOp gather) {
      std::optional<unsigned> warps = lookupNumWarps(gather);
      if (gather.getEfficientLayout() || !warps)
        return;
      BlockedEncodingAttr layout = warpLocalGatherLayout(gather, lanes, *warps);
      if (!layout)
        return;
      // Only where the gather then runs on warp shuffles: through shared
      // memory (too many source registers per result), the conversions
      // would buy nothing.
      auto srcType = cast<RankedTensorType>(gather.getSrc().getType());
      auto idxType = cast<RankedTensorType>(gather.getIndices().getType());
      if (!planGather(srcType.cloneWithEncoding(layout), idxType.cloneWithEncoding(layout),
                      gather.getAxis())
               .shuffles)
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
