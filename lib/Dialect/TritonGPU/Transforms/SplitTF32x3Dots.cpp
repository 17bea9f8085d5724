//===- SplitTF32x3Dots.cpp - the ttgir-split-tf32x3-dots pass --------------===//
//
// tf32x3 multiplies f32 operands on tensor cores with about twice tf32's
// precision, from three tf32 products. With a = aBig + aSmall, where aBig
// is a rounded to its top 19 bits (sign, exponent, 10 mantissa bits: what
// a tf32 multiply reads) and aSmall = a - aBig exactly:
//
//   a * b ~= aBig * bBig + (aBig * bSmall + aSmall * bBig)
//
// (aSmall * bSmall is below the result's precision). The cross terms are
// summed first, into zero; an infinite operand leaves a NaN rest, so a NaN
// there counts as 0 and the big product carries the infinity. Then the big
// product, and the accumulator last, in Triton 3.6's order.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kiln::ttg {
#define GEN_PASS_DEF_SPLITTF32X3DOTS
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;

namespace {

/// Every element of `x` (f32) rounded to its top 19 bits, to nearest with
/// ties away from zero (PTX's cvt.rna.tf32.f32, in integer arithmetic so
/// that any target takes it); a NaN stays itself, as rounding would carry a
/// low-bit payload into an infinity.
Value bigPart(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  auto intType = type.clone(b.getI32Type());
  auto splat = [&](int32_t v) {
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(intType, b.getI32IntegerAttr(v)));
  };
  Value bits = arith::BitcastOp::create(b, loc, intType, x);
  Value half = splat(0x1000), mask = splat(int32_t(0xFFFFE000));
  Value rounded =
      arith::AndIOp::create(b, loc, arith::AddIOp::create(b, loc, bits, half), mask);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, isNaN, x,
                                 arith::BitcastOp::create(b, loc, type, rounded));
}

void split(tt::DotOp dot) {
  OpBuilder b(dot);
  Location loc = dot.getLoc();
  Value a = dot.getA(), bOp = dot.getB(), c = dot.getC();
  Value aBig = bigPart(b, loc, a), bBig = bigPart(b, loc, bOp);
  Value aSmall = arith::SubFOp::create(b, loc, a, aBig);
  Value bSmall = arith::SubFOp::create(b, loc, bOp, bBig);
  auto type = cast<RankedTensorType>(c.getType());
  Value zero =
      arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
  auto tf32Dot = [&](Value x, Value y, Value acc) -> Value {
    return tt::DotOp::create(b, loc, type, x, y, acc, tt::InputPrecision::TF32,
                             dot.getMaxNumImpreciseAcc());
  };
  Value cross = tf32Dot(aBig, bSmall, tf32Dot(aSmall, bBig, zero));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, cross, cross);
  cross = arith::SelectOp::create(b, loc, isNaN, zero, cross);
  // The accumulator joins last, in Triton's order.
  Value product = tf32Dot(aBig, bBig, cross);
  dot.replaceAllUsesWith(arith::AddFOp::create(b, loc, product, c).getResult());
  dot.erase();
}

struct SplitTF32x3Dots : kiln::ttg::impl::SplitTF32x3DotsBase<SplitTF32x3Dots> {
  void runOnOperation() override {
    SmallVector<tt::DotOp> dots;
    getOperation().walk([&](tt::DotOp dot) {
      if (dot.getInputPrecision() == tt::InputPrecision::TF32x3 &&
          dot.getA().getType().getElementType().isF32() &&
          dot.getB().getType().getElementType().isF32() &&
          dot.getC().getType().getElementType().isF32())
        dots.push_back(dot);
    });
    for (tt::DotOp dot : dots)
      split(dot);
  }
};

} // namespace
