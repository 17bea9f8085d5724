//===- TritonCombine.cpp - the ttir-combine pass --------------------------===//
//
// Peephole combines on TTIR, following what Triton 3.6's combine pass
// rewrites. Where Triton's version could change a program's meaning or cost
// (moving a load past a store, a dot into a loop, reordering an arg-reduce)
// this one declines; those cases are noted at the patterns.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <type_traits>

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONCOMBINE
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;
using namespace kiln::tt;

namespace {

/// A zero scalar or splat constant, possibly still behind a tt.splat or
/// tt.broadcast that the greedy driver has not folded yet.
bool isZero(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<SplatOp, BroadcastOp>(def))
      break;
    value = def->getOperand(0);
  }
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

//===----------------------------------------------------------------------===//
// add(dot(a, b, 0), d) -> dot(a, b, d)
//===----------------------------------------------------------------------===//

/// Folds an add into the accumulator of a dot that starts from zero, so the
/// MMA accumulates onto `d` directly. Unlike Triton, the dot and the add
/// must share a block: moving a dot from outside a loop into it would
/// repeat it on every iteration.
template <typename DotTy, typename AddTy>
struct CombineDotAdd : public OpRewritePattern<AddTy> {
  using OpRewritePattern<AddTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(AddTy add, PatternRewriter &rewriter) const override {
    for (unsigned dotIndex : {1u, 0u}) {
      auto dot = add->getOperand(dotIndex).template getDefiningOp<DotTy>();
      if (!dot || !dot->hasOneUse() || dot->getBlock() != add->getBlock() ||
          !isZero(dot.getC()))
        continue;
      // With maxNumImpreciseAcc, fp8 partial sums are kept in reduced
      // precision; adding `d` into them would change the result.
      if constexpr (std::is_same_v<DotTy, DotOp> && std::is_same_v<AddTy, arith::AddFOp>)
        if (dot.getMaxNumImpreciseAcc() != 0)
          continue;
      Value acc = add->getOperand(1 - dotIndex);
      // `acc` is an operand of the add, so it is available right before it.
      rewriter.moveOpBefore(dot, add);
      rewriter.modifyOpInPlace(dot, [&] { dot.getCMutable().assign(acc); });
      rewriter.replaceOp(add, dot->getResults());
      return success();
    }
    return failure();
  }
};

//===----------------------------------------------------------------------===//
// select(c, load(p, c), other) -> load(p, c, other)
//===----------------------------------------------------------------------===//

bool mayWriteMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Write>(effect.getEffect());
  });
}

/// Lanes the mask turns off read as `other` instead of being selected
/// away afterwards. Triton matches only `mask = splat(c)`; a mask that is
/// `c` itself (a tensor or scalar condition) is the same situation. Unlike
/// Triton, a load with other users is left alone: rewriting it would read
/// the memory twice.
struct CombineSelectMaskedLoad : public OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp select,
                                PatternRewriter &rewriter) const override {
    auto load = select.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load.getMask() || !load->hasOneUse() ||
        load->getBlock() != select->getBlock())
      return failure();
    Value cond = select.getCondition(), mask = load.getMask();
    auto splat = mask.getDefiningOp<SplatOp>();
    if (mask != cond && !(splat && splat.getSrc() == cond))
      return failure();

    // `other` dominates the select; it is available at the load unless it
    // is defined between the two. Then the load has to move down to the
    // select, which is only allowed if nothing in between writes memory.
    Value other = select.getFalseValue();
    Operation *otherDef = other.getDefiningOp();
    if (otherDef && otherDef->getBlock() == load->getBlock() &&
        load->isBeforeInBlock(otherDef)) {
      for (Operation *op = load->getNextNode(); op != select; op = op->getNextNode())
        if (mayWriteMemory(op))
          return failure();
      rewriter.moveOpBefore(load, select);
    }
    rewriter.modifyOpInPlace(load, [&] { load.getOtherMutable().assign(other); });
    rewriter.replaceOp(select, load.getResult());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// addptr(addptr(p, x), y) -> addptr(p, x + y)
//===----------------------------------------------------------------------===//

/// The integer a scalar, splat or splatted constant holds, if any.
std::optional<APInt> getSplatInt(Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    value = splat.getSrc();
  APInt result;
  if (matchPattern(value, m_ConstantInt(&result)))
    return result;
  return std::nullopt;
}

/// Whether `x + y` computes the same offset as two separate advances. They
/// are applied at pointer width, so narrower offsets may only be added
/// when the sum is known not to overflow.
bool areOffsetsCombinable(Value x, Value y) {
  if (x.getType() != y.getType())
    return false;
  if (getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth() == 64)
    return true;
  std::optional<APInt> xValue = getSplatInt(x), yValue = getSplatInt(y);
  if (!xValue || !yValue)
    return false;
  bool overflow = false;
  (void)xValue->sadd_ov(*yValue, overflow);
  return !overflow;
}

/// The outer op is updated in place, so the attributes that describe its
/// result (tt.divisibility, tt.contiguity, ...) stay on it.
struct CombineAddPtr : public OpRewritePattern<AddPtrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddPtrOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || !areOffsetsCombinable(inner.getOffset(), op.getOffset()))
      return failure();
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(), inner.getOffset(),
                                      op.getOffset());
    rewriter.modifyOpInPlace(op, [&] {
      op.getPtrMutable().assign(inner.getPtr());
      op.getOffsetMutable().assign(sum);
    });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// sum(x[:, :, None] * y[None, :, :], axis=1) -> dot(x, y)
//===----------------------------------------------------------------------===//

/// Whether a combine region is `return arg0 + arg1` in floats.
bool isFloatSum(Region &region) {
  if (!region.hasOneBlock())
    return false;
  Block &block = region.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2)
    return false;
  auto add = dyn_cast<arith::AddFOp>(block.front());
  if (!add)
    return false;
  Value lhs = block.getArgument(0), rhs = block.getArgument(1);
  bool addsArgs = (add.getLhs() == lhs && add.getRhs() == rhs) ||
                  (add.getLhs() == rhs && add.getRhs() == lhs);
  Operation *terminator = block.getTerminator();
  return addsArgs && terminator->getNumOperands() == 1 &&
         terminator->getOperand(0) == add.getResult();
}

/// `x` if `value` is `broadcast(expand_dims(x, axis))`.
Value getExpandedSource(Value value, int32_t axis) {
  auto broadcast = value.getDefiningOp<BroadcastOp>();
  if (!broadcast)
    return {};
  auto expand = broadcast.getSrc().getDefiningOp<ExpandDimsOp>();
  if (!expand || expand.getAxis() != static_cast<uint32_t>(axis))
    return {};
  return expand.getSrc();
}

/// A matrix product written as a broadcast multiply and a sum, as
/// `tl.sum(a[:, :, None] * b[None, :, :], 1)` produces. Triton requires both
/// outer dimensions to be at least 16 (8 for f64) so a dot is worth it.
struct CombineBroadcastMulReduce : public OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp reduce, PatternRewriter &rewriter) const override {
    if (reduce.getSrcs().size() != 1 || reduce.getAxis() != 1 ||
        !isFloatSum(reduce.getCombineOp()))
      return failure();
    auto mul = reduce.getSrcs()[0].getDefiningOp<arith::MulFOp>();
    if (!mul)
      return failure();
    Value x = getExpandedSource(mul.getLhs(), 2), y = getExpandedSource(mul.getRhs(), 0);
    if (!x || !y) {
      x = getExpandedSource(mul.getRhs(), 2);
      y = getExpandedSource(mul.getLhs(), 0);
    }
    if (!x || !y)
      return failure();

    auto xType = cast<RankedTensorType>(x.getType());
    auto yType = cast<RankedTensorType>(y.getType());
    auto productType = cast<RankedTensorType>(mul.getType());
    if (xType.getRank() != 2 || yType.getRank() != 2 || productType.getRank() != 3)
      return failure();
    int64_t m = xType.getDimSize(0), k = xType.getDimSize(1), n = yType.getDimSize(1);
    if (yType.getDimSize(0) != k ||
        productType.getShape() != ArrayRef<int64_t>{m, k, n})
      return failure();
    Type element = productType.getElementType();
    int64_t minSize = element.isF64() ? 8 : 16;
    if (m < minSize || n < minSize)
      return failure();

    auto resultType = cast<RankedTensorType>(reduce.getResult()[0].getType());
    Value zero = arith::ConstantOp::create(
        rewriter, reduce.getLoc(), resultType,
        SplatElementsAttr::get(resultType, rewriter.getFloatAttr(element, 0.0)));
    // IEEE: the sum of exact products that the reduction computed.
    rewriter.replaceOpWithNewOp<DotOp>(reduce, resultType, x, y, zero,
                                       InputPrecision::IEEE,
                                       /*maxNumImpreciseAcc=*/0);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// reshapes
//===----------------------------------------------------------------------===//

/// A 1-D reshape feeding only order-insensitive consumers may reorder its
/// elements, which spares the layout conversion a row-major reshape needs.
/// Triton also allows multi-operand reductions and masked histograms; there
/// the other operands (indices of an argmax, the mask) would stop matching
/// the reordered elements, so this pattern does not.
struct AllowReorderBeforeReduction : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp reshape, PatternRewriter &rewriter) const override {
    if (reshape.getAllowReorder() || reshape.getType().getRank() != 1 ||
        reshape->use_empty())
      return failure();
    for (Operation *user : reshape->getUsers()) {
      if (auto reduce = dyn_cast<ReduceOp>(user); reduce && reduce.getSrcs().size() == 1)
        continue;
      if (auto histogram = dyn_cast<HistogramOp>(user); histogram && !histogram.getMask())
        continue;
      return failure();
    }
    rewriter.modifyOpInPlace(reshape, [&] { reshape.setAllowReorder(true); });
    return success();
  }
};

/// reshape(descriptor_load) that only drops leading unit dimensions: the
/// load yields the reduced shape itself.
struct RankReduceDescriptorLoad : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp reshape, PatternRewriter &rewriter) const override {
    auto load = reshape.getSrc().getDefiningOp<DescriptorLoadOp>();
    if (!load || !load->hasOneUse())
      return failure();
    ArrayRef<int64_t> loadShape = load.getType().getShape();
    ArrayRef<int64_t> shape = reshape.getType().getShape();
    if (shape.size() >= loadShape.size())
      return failure();
    size_t dropped = loadShape.size() - shape.size();
    if (!llvm::all_of(loadShape.take_front(dropped), [](int64_t d) { return d == 1; }) ||
        loadShape.drop_front(dropped) != shape)
      return failure();
    rewriter.modifyOpInPlace(load, [&] { load.getResult().setType(reshape.getType()); });
    rewriter.replaceOp(reshape, load.getResult());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct TritonCombine : public kiln::tt::impl::TritonCombineBase<TritonCombine> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<CombineDotAdd<DotOp, arith::AddFOp>, CombineDotAdd<DotOp, arith::AddIOp>,
                 CombineDotAdd<DotScaledOp, arith::AddFOp>, CombineSelectMaskedLoad,
                 CombineAddPtr, CombineBroadcastMulReduce, AllowReorderBeforeReduction,
                 RankReduceDescriptorLoad>(context);
    // Folding stays on: it turns tt.broadcast/tt.splat of a constant into a
    // constant (Triton's broadcast-constant combine) and sums the constant
    // offsets that CombineAddPtr produces.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
