//===- DotOpToLLVM.cpp - tt.dot on scalar FMAs -----------------------------===//
//
// A dot with a #ttg.blocked result becomes one fma per (C element, k);
// kiln/Analysis/DotPlan.h picks every register from the layouts. Dots on
// tensor cores are lowered by their back end. All checks run before
// conversion (checkDotLowering), so the pattern does not fail.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Analysis/DotPlan.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"


using namespace mlir;

namespace kiln::lowering {
namespace {

struct DotLowering : OpConversionPattern<tt::DotOp> {
  DotLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<ttg::BlockedEncodingAttr>(op.getType().getEncoding()))
      return failure();
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    layout::LinearLayout la = layoutOf(op.getA().getType()), lb = layoutOf(op.getB().getType()),
                         lc = layoutOf(op.getC().getType());
    SmallVector<Value> a = unpack(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpack(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpack(rewriter, loc, adaptor.getC());
    llvm::Expected<layout::FmaPlan> plan = layout::planFma(la, lb, lc);
    if (!plan)
      return rewriter.notifyMatchFailure(op, llvm::toString(plan.takeError()));
    lowerFma(rewriter, loc, *plan, a, b, acc);
    ArrayRef<int32_t> copies = plan->cCopies;
    SmallVector<Value> out;
    for (int32_t r : copies)
      out.push_back(acc[r]);
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, out));
    return success();
  }

private:
  /// Triton's FMA semantics: fmuladd for floats, mul then add for
  /// integers (operands sign-extended to the accumulator's width).
  void lowerFma(OpBuilder &b, Location loc, const layout::FmaPlan &plan, ArrayRef<Value> a,
                ArrayRef<Value> bRegs, SmallVector<Value> &acc) const {
    for (auto [r, terms] : llvm::enumerate(plan.terms)) {
      for (auto [ia, ib] : terms) {
        Value x = a[ia], y = bRegs[ib], sum = acc[r];
        if (isa<FloatType>(sum.getType())) {
          acc[r] = LLVM::FMulAddOp::create(b, loc, x, y, sum);
          continue;
        }
        if (x.getType() != sum.getType()) {
          x = LLVM::SExtOp::create(b, loc, sum.getType(), x);
          y = LLVM::SExtOp::create(b, loc, sum.getType(), y);
        }
        acc[r] = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, x, y), sum);
      }
    }
  }

  const Context &ctx;
};

} // namespace

Attribute dotOperandEncoding(Value v, Attribute parent, unsigned opIdx) {
  auto enc = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(
      cast<RankedTensorType>(v.getType()).getEncoding());
  if (!enc || enc.getOpIdx() != opIdx || Attribute(enc.getParent()) != parent)
    return {};
  return enc;
}

bool hasDotLowering(Operation *op) {
  auto dot = dyn_cast<tt::DotOp>(op);
  return dot && isa_and_nonnull<ttg::BlockedEncodingAttr>(dot.getType().getEncoding());
}

LogicalResult checkDotLowering(Operation *op) {
  auto dot = dyn_cast<tt::DotOp>(op);
  if (!dot || !hasDotLowering(op))
    return success();
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op 'tt.dot' cannot be lowered to LLVM: " << why;
  };
  Attribute parent = dot.getType().getEncoding();
  if (!dotOperandEncoding(dot.getA(), parent, 0) || !dotOperandEncoding(dot.getB(), parent, 1))
    return fail("A and B need #ttg.dot_op layouts (opIdx 0 and 1) whose parent is the result's "
                "layout");
  Type a = getElementTypeOrSelf(dot.getA().getType()), c = getElementTypeOrSelf(dot.getType());
  bool ints = a.isInteger() && c.isInteger() && a.getIntOrFloatBitWidth() <= c.getIntOrFloatBitWidth();
  if (a != getElementTypeOrSelf(dot.getB().getType()) || (a != c && !ints))
    return fail("an FMA dot needs A and B of the result's element type (integers may be "
                "narrower)");
  llvm::Expected<layout::FmaPlan> plan =
      layout::planFma(layoutOf(dot.getA().getType()), layoutOf(dot.getB().getType()),
                      layoutOf(dot.getC().getType()));
  if (!plan)
    return fail(llvm::toString(plan.takeError()));
  return success();
}

void populateDotPatterns(TypeConverter &converter, const Context &ctx,
                         RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, ctx);
}

} // namespace kiln::lowering
