//===- DecomposeScaledDot.cpp - tt.dot_scaled as an upcast and a tt.dot ---===//
//
// For targets without block-scaled tensor-core instructions (sm_80, sm_90),
// as Triton does there: each operand is upcast to bf16 (f16 when either
// operand is f16), multiplied by its scales broadcast along K, and the
// product is an ordinary tt.dot the rest of the pipeline compiles (layouts,
// pipelining, wgmma or mma.sync).
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONDECOMPOSESCALEDDOT
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;
using namespace kiln::tt;

namespace {

using Tensor = TypedValue<RankedTensorType>;

Tensor tensorOf(Value v) { return cast<Tensor>(v); }

/// A splat constant of `type` holding `value` (an integer or float type's
/// bit pattern).
Value splatBits(OpBuilder &b, Location loc, RankedTensorType type, uint64_t bits) {
  Type elem = type.getElementType();
  unsigned width = elem.getIntOrFloatBitWidth();
  APInt pattern(width, bits);
  Attribute value;
  if (auto fp = dyn_cast<FloatType>(elem))
    value = DenseElementsAttr::get(type, APFloat(fp.getFloatSemantics(), pattern));
  else
    value = DenseElementsAttr::get(type, pattern);
  return arith::ConstantOp::create(b, loc, type, cast<TypedAttr>(value));
}

Tensor reshape(OpBuilder &b, Location loc, Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType()).clone(shape);
  return tensorOf(ReshapeOp::create(b, loc, type, v, UnitAttr(), UnitAttr()).getResult());
}

Tensor transpose(OpBuilder &b, Location loc, Tensor v, ArrayRef<int32_t> order) {
  SmallVector<int64_t> shape;
  for (int32_t d : order)
    shape.push_back(v.getType().getShape()[d]);
  return tensorOf(
      TransOp::create(b, loc, v.getType().clone(shape), v, b.getDenseI32ArrayAttr(order))
          .getResult());
}

/// Interleaves `lo` and `hi` along `axis`: element i of the result's axis is
/// lo's i/2 for even i, hi's for odd ones.
Tensor interleave(OpBuilder &b, Location loc, Tensor lo, Tensor hi, int64_t axis) {
  SmallVector<int64_t> pairs(lo.getType().getShape());
  pairs.push_back(2);
  Tensor joined = tensorOf(JoinOp::create(b, loc, lo.getType().clone(pairs), lo, hi).getResult());
  int64_t rank = lo.getType().getRank();
  if (axis != rank - 1) {
    // Bring the new pair dimension right after `axis`.
    SmallVector<int32_t> order;
    for (int64_t d = 0; d <= axis; ++d)
      order.push_back(d);
    order.push_back(rank);
    for (int64_t d = axis + 1; d < rank; ++d)
      order.push_back(d);
    joined = transpose(b, loc, joined, order);
  }
  SmallVector<int64_t> shape(lo.getType().getShape());
  shape[axis] *= 2;
  return reshape(b, loc, joined, shape);
}

/// e2m1 values, two per i8 (the low nibble first) along `axis`, as
/// `compute` (bf16 or f16) values, built from their bits: a magnitude m
/// (3 bits: 2 exponent, 1 mantissa) of at least 2 is m << (mantissa - 1)
/// plus the bits of 0.5 (the exponent field bias - 1); m = 1 is 0.5; m = 0
/// is 0.
Tensor upcastE2M1(OpBuilder &b, Location loc, Tensor packed, FloatType compute, int64_t axis) {
  RankedTensorType bytes = packed.getType();
  RankedTensorType halves = bytes.clone(b.getI16Type());
  unsigned mantissa = compute.getFPMantissaWidth() - 1;
  uint64_t half = compute.isF16() ? 0x3800 : 0x3F00; // 0.5
  auto value = [&](Value nibbleSource, bool high) {
    Value v = nibbleSource;
    if (high)
      v = arith::ShRUIOp::create(b, loc, v, splatBits(b, loc, bytes, 4));
    Value wide = arith::ExtUIOp::create(b, loc, halves, v);
    Value mag = arith::AndIOp::create(b, loc, wide, splatBits(b, loc, halves, 7));
    Value sign = arith::ShLIOp::create(
        b, loc, arith::AndIOp::create(b, loc, wide, splatBits(b, loc, halves, 8)),
        splatBits(b, loc, halves, 12));
    Value normal = arith::AddIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, mag, splatBits(b, loc, halves, mantissa - 1)),
        splatBits(b, loc, halves, half));
    Value isNormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, mag,
                                           splatBits(b, loc, halves, 2));
    Value isHalf = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mag,
                                         splatBits(b, loc, halves, 1));
    Value small = arith::SelectOp::create(b, loc, isHalf, splatBits(b, loc, halves, half),
                                          splatBits(b, loc, halves, 0));
    Value bits = arith::OrIOp::create(b, loc, arith::SelectOp::create(b, loc, isNormal, normal, small),
                                      sign);
    return tensorOf(BitcastOp::create(b, loc, bytes.clone(compute), bits).getResult());
  };
  return interleave(b, loc, value(packed, false), value(packed, true), axis);
}

/// A scale tensor as `compute` values: an e8m0 exponent s (i8) is 2^(s - 127)
/// put straight into the exponent bits (s = 0 gives 0, 255 infinity; for f16
/// through f32, so out-of-range scales saturate); float scales are converted.
Tensor scaleValues(OpBuilder &b, Location loc, Tensor scale, FloatType compute) {
  RankedTensorType type = scale.getType();
  if (isa<FloatType>(type.getElementType()))
    return tensorOf(FpToFpOp::create(b, loc, type.clone(compute), scale, nullptr).getResult());
  FloatType wide = compute.isF16() ? b.getF32Type() : compute;
  unsigned width = wide.getWidth();
  RankedTensorType ints = type.clone(b.getIntegerType(width));
  Value bits = arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, ints, scale),
                                     splatBits(b, loc, ints, wide.getFPMantissaWidth() - 1));
  Value v = BitcastOp::create(b, loc, type.clone(wide), bits);
  if (wide != compute)
    v = arith::TruncFOp::create(b, loc, type.clone(compute), v);
  return tensorOf(v);
}

/// `scale` ([..., rows, K / factor]) repeated `factor` times along its last
/// dimension, then laid out as `target` ([..., rows, K] for a, [..., K,
/// rows] for b).
Tensor broadcastScale(OpBuilder &b, Location loc, Tensor scale, RankedTensorType target,
                      bool isB) {
  RankedTensorType type = scale.getType();
  int64_t rank = type.getRank();
  if (type.getNumElements() == 1) {
    SmallVector<int64_t> ones(target.getRank(), 1);
    Value v = scale;
    if (rank != target.getRank())
      v = reshape(b, loc, scale, ones);
    return tensorOf(BroadcastOp::create(b, loc, target.clone(type.getElementType()), v).getResult());
  }
  if (isB) {
    SmallVector<int32_t> order;
    for (int64_t d = 0; d < rank - 2; ++d)
      order.push_back(d);
    order.append({int32_t(rank - 1), int32_t(rank - 2)});
    scale = transpose(b, loc, scale, order);
    type = scale.getType();
  }
  // The groups' dimension (K / factor): the last one for a, the one before
  // it for b (after the transpose).
  int64_t groupDim = isB ? rank - 2 : rank - 1;
  int64_t k = target.getShape()[groupDim];
  int64_t factor = k / type.getShape()[groupDim];
  SmallVector<int64_t> expandedShape(type.getShape());
  expandedShape.insert(expandedShape.begin() + groupDim + 1, 1);
  Value expanded = ExpandDimsOp::create(b, loc, type.clone(expandedShape), scale,
                                        b.getI32IntegerAttr(groupDim + 1));
  expandedShape[groupDim + 1] = factor;
  Value repeated = BroadcastOp::create(b, loc, type.clone(expandedShape), expanded);
  return reshape(b, loc, repeated, target.getShape());
}

struct DecomposeScaledDotPattern : OpRewritePattern<DotScaledOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DotScaledOp op, PatternRewriter &rewriter) const override {
    // Once layouts are assigned the rewrite would need them; kiln runs it on
    // TTIR.
    if (op.getType().getEncoding())
      return rewriter.notifyMatchFailure(op, "the dot already has a layout");
    bool f16 = op.getAElemType() == ScaleDotElemType::FP16 ||
               op.getBElemType() == ScaleDotElemType::FP16;
    FloatType compute = f16 ? FloatType(rewriter.getF16Type()) : rewriter.getBF16Type();
    Value a = operand(rewriter, op, false, compute);
    Value b = operand(rewriter, op, true, compute);
    rewriter.replaceOpWithNewOp<DotOp>(op, op.getType(), a, b, op.getC(), InputPrecision::IEEE, 0);
    return success();
  }

  /// Operand a or b of `op` upcast to `compute` and scaled.
  Value operand(PatternRewriter &rewriter, DotScaledOp op, bool isB, FloatType compute) const {
    Location loc = op.getLoc();
    Tensor v = tensorOf(isB ? op.getB() : op.getA());
    Value scaleValue = isB ? op.getBScale() : op.getAScale();
    ScaleDotElemType format = isB ? op.getBElemType() : op.getAElemType();
    int64_t rank = v.getType().getRank();
    if (format == ScaleDotElemType::E2M1) {
      // Packed along K (k_pack) or along M (a) / N (b).
      bool kPack = isB ? op.getRhsKPack() : op.getLhsKPack();
      int64_t kDim = isB ? rank - 2 : rank - 1, otherDim = isB ? rank - 1 : rank - 2;
      v = upcastE2M1(rewriter, loc, v, compute, kPack ? kDim : otherDim);
    } else if (v.getType().getElementType() != compute) {
      // fp8 widens exactly; bf16 to f16 rounds.
      RoundingModeAttr rounding;
      if (v.getType().getElementTypeBitWidth() == 16)
        rounding = RoundingModeAttr::get(rewriter.getContext(), RoundingMode::RTNE);
      v = tensorOf(FpToFpOp::create(rewriter, loc, v.getType().clone(compute), v, rounding));
    }
    if (!scaleValue)
      return v;
    Tensor scale = tensorOf(scaleValue);
    Tensor values = scaleValues(rewriter, loc, scale, compute);
    Tensor factors = broadcastScale(rewriter, loc, values, v.getType(), isB);
    Value scaled = arith::MulFOp::create(rewriter, loc, v, factors);
    if (op.getFastMath())
      return scaled;
    // An e8m0 exponent of 255 (a NaN float scale) makes its values NaN.
    Value isNan;
    RankedTensorType scaleType = scale.getType();
    if (isa<FloatType>(scaleType.getElementType())) // widened: fp8 has no compares
      isNan = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, values, values);
    else
      isNan = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, scale,
                                    splatBits(rewriter, loc, scaleType, 0xFF));
    Tensor mask = broadcastScale(rewriter, loc, tensorOf(isNan), v.getType(), isB);
    Value nan = arith::ConstantOp::create(
        rewriter, loc, v.getType(),
        DenseElementsAttr::get(v.getType(), APFloat::getNaN(compute.getFloatSemantics())));
    return arith::SelectOp::create(rewriter, loc, mask, nan, scaled);
  }
};

struct DecomposeScaledDotPass
    : kiln::tt::impl::TritonDecomposeScaledDotBase<DecomposeScaledDotPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeScaledDotPattern>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](DotScaledOp op) {
      op.emitError() << "op 'tt.dot_scaled' with a layout cannot be decomposed: kiln "
                        "decomposes it in TTIR, before layouts are assigned";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
