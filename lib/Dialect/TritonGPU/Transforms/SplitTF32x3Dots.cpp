//===- SplitTF32x3Dots.cpp - the ttgir-split-tf32x3-dots pass --------------===//
//
// tf32x3 multiplies f32 operands on tensor cores with about twice tf32's
// precision, from three tf32 products. With a = aBig + aSmall, where aBig
// keeps the top 19 bits (sign, exponent, 10 mantissa bits: what a tf32
// multiply reads) and aSmall = a - aBig exactly:
//
//   a * b ~= aBig * bBig + (aBig * bSmall + aSmall * bBig)
//
// (aSmall * bSmall is below the result's precision). The cross terms are
// summed first, into zero; an infinite operand leaves a NaN rest, so a NaN
// there counts as 0 and the big product carries the infinity.
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

/// The top 19 bits of every element of `x` (f32), the rest cleared.
Value bigPart(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  auto intType = type.clone(b.getI32Type());
  Value bits = arith::BitcastOp::create(b, loc, intType, x);
  Value mask = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(intType, b.getI32IntegerAttr(int32_t(0xFFFFE000))));
  return arith::BitcastOp::create(b, loc, type, arith::AndIOp::create(b, loc, bits, mask));
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
  Value acc = arith::AddFOp::create(b, loc, c, cross);
  dot.replaceAllUsesWith(tf32Dot(aBig, bBig, acc));
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
