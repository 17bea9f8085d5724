//===- ReorderBroadcast.cpp - the ttir-reorder-broadcast pass -------------===//
//
// Moves tt.splat and tt.broadcast below the elementwise ops they feed, so
// that elementwise work is done once per distinct value rather than once per
// replicated element. Follows Triton 3.6's reorder-broadcast pass.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONREORDERBROADCAST
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;
using namespace kiln::tt;

namespace {

/// The splat value of a splat constant, if `value` is one.
Attribute getSplatConstant(Value value) {
  DenseElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)) && attr.isSplat())
    return attr.getSplatValue<Attribute>();
  return {};
}

bool isSplatLike(Value value) {
  return value.getDefiningOp<SplatOp>() || getSplatConstant(value);
}

/// Whether `op` may be recomputed on a differently shaped tensor: an
/// elementwise op without memory effects whose operands and results are all
/// tensors. Inline asm that packs several elements per invocation is left
/// alone, because its groups change with the shape.
bool isMovableElementwise(Operation *op) {
  if (op->getNumOperands() == 0 || op->getNumResults() == 0 || !isMemoryEffectFree(op))
    return false;
  if (auto inlineAsm = dyn_cast<ElementwiseInlineAsmOp>(op))
    if (inlineAsm.getPackedElement() != 1)
      return false;
  auto isTensor = [](Type type) { return isa<RankedTensorType>(type); };
  return llvm::all_of(op->getOperandTypes(), isTensor) &&
         llvm::all_of(op->getResultTypes(), isTensor);
}

/// A copy of `op` with new operands whose results have `shape` (and the
/// elements of the old results); a scalar op when `shape` is null.
Operation *cloneWithShape(PatternRewriter &rewriter, Operation *op, ValueRange operands,
                          std::optional<RankedTensorType> shape) {
  // Cloning keeps the op's properties and attributes exactly.
  Operation *clone = rewriter.clone(*op);
  rewriter.modifyOpInPlace(clone, [&] {
    clone->setOperands(operands);
    for (OpResult result : clone->getResults()) {
      Type element = cast<RankedTensorType>(result.getType()).getElementType();
      result.setType(shape ? Type(shape->clone(element)) : element);
    }
  });
  return clone;
}

/// elementwise(splat(a), splat(b), ...) -> splat(elementwise(a, b, ...)).
struct MoveSplatAfterElementwise : public OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op) || !llvm::all_of(op->getOperands(), isSplatLike))
      return failure();

    SmallVector<Value> scalars;
    for (Value operand : op->getOperands()) {
      if (auto splat = operand.getDefiningOp<SplatOp>()) {
        scalars.push_back(splat.getSrc());
        continue;
      }
      auto value = cast<TypedAttr>(getSplatConstant(operand));
      scalars.push_back(arith::ConstantOp::create(rewriter, op->getLoc(), value));
    }
    Operation *scalarOp = cloneWithShape(rewriter, op, scalars, std::nullopt);
    SmallVector<Value> results;
    for (auto [result, scalar] : llvm::zip(op->getResults(), scalarOp->getResults()))
      results.push_back(SplatOp::create(rewriter, op->getLoc(), result.getType(), scalar));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// elementwise(broadcast(a), broadcast(b), splat(c), ...) ->
/// broadcast(elementwise(a, b, splat'(c), ...)) when every broadcast starts
/// from the same shape, so that all operands line up before broadcasting.
struct MoveBroadcastAfterElementwise : public OpTraitRewritePattern<OpTrait::Elementwise> {
  using OpTraitRewritePattern::OpTraitRewritePattern;

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isMovableElementwise(op))
      return failure();
    RankedTensorType srcType;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<BroadcastOp>()) {
        RankedTensorType type = broadcast.getSrc().getType();
        if (srcType && type.getShape() != srcType.getShape())
          return failure();
        srcType = type;
      } else if (!isSplatLike(operand)) {
        return failure();
      }
    }
    if (!srcType)
      return failure();

    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto broadcast = operand.getDefiningOp<BroadcastOp>()) {
        operands.push_back(broadcast.getSrc());
        continue;
      }
      auto type = srcType.clone(cast<RankedTensorType>(operand.getType()).getElementType());
      if (auto splat = operand.getDefiningOp<SplatOp>()) {
        operands.push_back(SplatOp::create(rewriter, op->getLoc(), type, splat.getSrc()));
        continue;
      }
      auto value = SplatElementsAttr::get(type, getSplatConstant(operand));
      operands.push_back(arith::ConstantOp::create(rewriter, op->getLoc(), value));
    }
    Operation *smallOp = cloneWithShape(rewriter, op, operands, srcType);
    SmallVector<Value> results;
    for (auto [result, small] : llvm::zip(op->getResults(), smallOp->getResults()))
      results.push_back(BroadcastOp::create(rewriter, op->getLoc(), result.getType(), small));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// expand_dims(broadcast(x)) -> broadcast(expand_dims(x)): brings the
/// broadcast next to the elementwise ops below, e.g. in `a[:, None] + b`.
/// (Triton's tt.expand_dims canonicaliser does this; kiln's does not.)
struct MoveBroadcastAfterExpandDims : public OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ExpandDimsOp op, PatternRewriter &rewriter) const override {
    auto broadcast = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!broadcast)
      return failure();
    RankedTensorType srcType = broadcast.getSrc().getType();
    SmallVector<int64_t> shape(srcType.getShape());
    shape.insert(shape.begin() + op.getAxis(), 1);
    auto expandedType = op.getType().clone(shape);
    Value expanded = ExpandDimsOp::create(rewriter, op.getLoc(), expandedType,
                                          broadcast.getSrc(), op.getAxis());
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), expanded);
    return success();
  }
};

struct TritonReorderBroadcast
    : public kiln::tt::impl::TritonReorderBroadcastBase<TritonReorderBroadcast> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // broadcast(splat) and expand_dims(splat) are splats, and broadcasts
    // compose: these clear the way for the two moves below.
    BroadcastOp::getCanonicalizationPatterns(patterns, context);
    ExpandDimsOp::getCanonicalizationPatterns(patterns, context);
    patterns.add<MoveBroadcastAfterExpandDims, MoveBroadcastAfterElementwise,
                 MoveSplatAfterElementwise>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
