//===- Canonicalize.cpp - tt folders and canonicalisation patterns --------===//
//
// The folds Triton defines on its ops: forwarding no-op shape changes,
// folding constants through splat/broadcast/reshape/trans, dropping zero
// pointer offsets, and simplifying loads/stores with constant masks.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace kiln::tt;

namespace {

/// A splat constant re-shaped to `type`, if `attr` is one.
OpFoldResult reshapeSplatConstant(Attribute attr, Type type) {
  auto splat = dyn_cast_if_present<SplatElementsAttr>(attr);
  if (!splat)
    return {};
  return SplatElementsAttr::get(cast<ShapedType>(type), splat.getSplatValue<Attribute>());
}

bool isZeroConstant(Attribute attr) {
  if (!attr)
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getValue().isZero();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValue().isZero();
  return false;
}

/// -1 for an all-false constant mask, 1 for all-true, 0 otherwise.
int constantMaskValue(Value mask) {
  if (!mask)
    return 0;
  Attribute attr;
  if (!matchPattern(mask, m_Constant(&attr)))
    return 0;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  auto value = dyn_cast<IntegerAttr>(attr);
  if (!value)
    return 0;
  return value.getValue().isZero() ? -1 : 1;
}

} // namespace

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // bitcast(bitcast(x)) -> bitcast(x), or x when the types round-trip.
  if (auto inner = getSrc().getDefiningOp<BitcastOp>()) {
    if (inner.getSrc().getType() == getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

OpFoldResult FpToFpOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  // Zero converts to zero exactly in every float format.
  if (isZeroConstant(adaptor.getSrc())) {
    Type element = mlir::getElementTypeOrSelf(getType());
    auto zero = FloatAttr::get(element, 0.0);
    if (auto shaped = dyn_cast<ShapedType>(getType()))
      return SplatElementsAttr::get(shaped, Attribute(zero));
    return zero;
  }
  return {};
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (isZeroConstant(adaptor.getOffset()))
    return getPtr();
  return {};
}

OpFoldResult AdvanceOp::fold(FoldAdaptor adaptor) {
  for (Attribute offset : adaptor.getOffsets())
    if (!isZeroConstant(offset))
      return {};
  return getPtr();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (!isa_and_present<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(getType(), value);
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return reshapeSplatConstant(adaptor.getSrc(), getType());
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplatConstant(adaptor.getSrc(), getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return reshapeSplatConstant(adaptor.getSrc(), getType());
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  if (llvm::equal(order, llvm::seq<int32_t>(0, order.size())))
    return getSrc();
  if (OpFoldResult constant = reshapeSplatConstant(adaptor.getSrc(), getType()))
    return constant;
  // trans(trans(x, inner), outer) == trans(x, inner[outer[i]]).
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t d : order)
      composed.push_back(inner.getOrder()[d]);
    if (llvm::equal(composed, llvm::seq<int32_t>(0, composed.size())))
      return inner.getSrc();
    setOrder(composed);
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

OpFoldResult MakeRangeOp::fold(FoldAdaptor) {
  // A one-element range is the constant [start].
  if (getEndAttr().getInt() - getStartAttr().getInt() != 1)
    return {};
  return SplatElementsAttr::get(getType(), Attribute(getStartAttr()));
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// op(splat(x)) -> splat(x) for ops that only change the shape.
template <typename OpTy>
struct ShapeOfSplatIsSplat : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// broadcast(broadcast(x)) -> broadcast(x).
struct BroadcastOfBroadcast : public OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return failure();
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

/// reshape(reshape(x)) -> reshape(x), keeping reorder permission only if
/// both allowed it.
struct ReshapeOfReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    auto replacement =
        rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getSrc());
    replacement.setAllowReorder(op.getAllowReorder() && inner.getAllowReorder());
    replacement.setEfficientLayout(op.getEfficientLayout());
    return success();
  }
};

/// Loads with a constant mask: all-true drops the mask, all-false with an
/// `other` is just `other`.
struct LoadWithConstantMask : public OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op, PatternRewriter &rewriter) const override {
    int mask = constantMaskValue(op.getMask());
    if (mask == 1) {
      rewriter.modifyOpInPlace(op, [&] {
        op.getMaskMutable().clear();
        op.getOtherMutable().clear();
      });
      return success();
    }
    if (mask == -1 && op.getOther() && !op.getIsVolatile()) {
      rewriter.replaceOp(op, op.getOther());
      return success();
    }
    return failure();
  }
};

/// Stores with a constant mask: all-true drops the mask, all-false erases.
struct StoreWithConstantMask : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op, PatternRewriter &rewriter) const override {
    int mask = constantMaskValue(op.getMask());
    if (mask == 1) {
      rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
      return success();
    }
    if (mask == -1) {
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};

} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<LoadWithConstantMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<StoreWithConstantMask>(context);
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ShapeOfSplatIsSplat<ExpandDimsOp>>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ShapeOfSplatIsSplat<ReshapeOp>, ReshapeOfReshape>(context);
}

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ShapeOfSplatIsSplat<BroadcastOp>, BroadcastOfBroadcast>(context);
}
