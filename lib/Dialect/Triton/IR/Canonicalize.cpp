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
  // Zero converts to zero exactly in every float format, keeping its sign
  // where the format has a negative zero (the FNUZ fp8 formats have none).
  Attribute src = adaptor.getSrc();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(src))
    src = splat.getSplatValue<Attribute>();
  auto value = dyn_cast_if_present<FloatAttr>(src);
  if (!value || !value.getValue().isZero())
    return {};
  auto element = cast<FloatType>(mlir::getElementTypeOrSelf(getType()));
  APFloat zero = APFloat::getZero(element.getFloatSemantics(),
                                  value.getValue().isNegative());
  auto zeroAttr = FloatAttr::get(element, zero);
  if (auto shaped = dyn_cast<ShapedType>(getType()))
    return SplatElementsAttr::get(shaped, Attribute(zeroAttr));
  return zeroAttr;
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
  auto isIdentity = [](ArrayRef<int32_t> order) {
    return llvm::equal(order, llvm::seq<int32_t>(0, order.size()));
  };
  // An identity permutation may still change the encoding; only a trans
  // whose source already has the result type is a no-op.
  if (isIdentity(getOrder()) && getSrc().getType() == getType())
    return getSrc();
  if (OpFoldResult constant = reshapeSplatConstant(adaptor.getSrc(), getType()))
    return constant;
  // trans(trans(x, inner), outer) == trans(x, inner[outer[i]]).
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t d : getOrder())
      composed.push_back(inner.getOrder()[d]);
    if (isIdentity(composed) && inner.getSrc().getType() == getType())
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

/// A reshape marked `efficient_layout` records a layout decision made by a
/// later stage; like Triton, leave it alone.
bool hasLayoutHint(Operation *op) {
  auto reshape = dyn_cast<ReshapeOp>(op);
  return reshape && reshape.getEfficientLayout();
}

/// op(splat(x)) -> splat(x) for ops that only change the shape.
template <typename OpTy>
struct ShapeOfSplatIsSplat : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat || hasLayoutHint(op))
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

/// reshape(reshape(x)) -> reshape(x). If either step may reorder elements,
/// the order after both is unspecified, so the result may reorder (as in
/// Triton).
struct ReshapeOfReshape : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<ReshapeOp>();
    if (!inner || hasLayoutHint(op))
      return failure();
    // Read before the replacement erases `op`.
    bool allowReorder = op.getAllowReorder() || inner.getAllowReorder();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getSrc(), allowReorder);
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
