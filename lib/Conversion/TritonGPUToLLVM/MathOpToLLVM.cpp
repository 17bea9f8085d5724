//===- MathOpToLLVM.cpp - math through the device library -----------------===//
//
// Float math as Triton 3.6 lowers it for NVIDIA: math ops call the target's
// device library (libdevice), f16/bf16 through f32; except f32 exp, which
// is x * log2(e) through the hardware's 2^x approximation, and f32
// arith.divf, which is the fast (full-range, 2 ulp) division. The precise
// variants (tt.precise_sqrt / tt.precise_divf) round correctly.
// tt.extern_elementwise calls its named function, tt.mulhiui the library's
// high-half product, tt.clampf is max then min.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

Value f32Constant(OpBuilder &b, Location loc, double v) {
  return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(float(v)));
}

/// Runs `fn` on f32: f16 and bf16 values are extended first and the result
/// rounded back, as Triton does for functions libdevice has only in f32.
Value throughF32(OpBuilder &b, Location loc, ValueRange args, Type elem,
                 llvm::function_ref<Value(ValueRange)> fn) {
  if (!elem.isF16() && !elem.isBF16())
    return fn(args);
  SmallVector<Value> wide;
  for (Value a : args)
    wide.push_back(LLVM::FPExtOp::create(b, loc, b.getF32Type(), a));
  return LLVM::FPTruncOp::create(b, loc, elem, fn(wide));
}

/// A math op with a device-library function (or Triton's exp), on scalars
/// or tensors; ahead of the per-register cloning and MathToLLVM.
struct MathLibraryLowering : ConversionPattern {
  MathLibraryLowering(TypeConverter &converter, const Context &ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/3, &converter.getContext()),
        ctx(ctx) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op->getDialect() || op->getDialect()->getNamespace() != "math" ||
        op->getNumResults() != 1)
      return failure();
    StringRef name = op->getName().getStringRef();
    Type elem = getElementTypeOrSelf(op->getResult(0).getType());
    if (!isa<FloatType>(elem))
      return failure();
    Type computed = elem.isF64() ? elem : Type(rewriter.getF32Type());
    std::string function = ctx.target.mathFunction(name, computed);
    if (function.empty())
      return failure();
    bool fastExp = name == "math.exp" && elem.isF32();
    return replaceByRegister(
        op, operands, rewriter, *getTypeConverter(), [&](ValueRange args, Type resultElem) {
          Location loc = op->getLoc();
          if (fastExp) {
            Value scaled = LLVM::FMulOp::create(rewriter, loc, args[0],
                                                f32Constant(rewriter, loc, 1.4426950408889634));
            return ctx.target.exp2Approx(rewriter, loc, scaled);
          }
          return throughF32(rewriter, loc, args, resultElem, [&](ValueRange wide) {
            return callFunction(rewriter, loc, function, wide[0].getType(), wide);
          });
        });
  }
  const Context &ctx;
};

/// f32 arith.divf is Triton's fast division; other widths stay IEEE fdiv.
struct DivFLowering : OpConversionPattern<arith::DivFOp> {
  DivFLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext(), /*benefit=*/3), ctx(ctx) {}
  LogicalResult matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    return replaceByRegister(op, adaptor.getOperands(), rewriter, *getTypeConverter(),
                             [&](ValueRange a, Type) {
                               return ctx.target.divF32(rewriter, op.getLoc(), a[0], a[1],
                                                        /*precise=*/false);
                             });
  }
  const Context &ctx;
};

struct PreciseSqrtLowering : OpConversionPattern<tt::PreciseSqrtOp> {
  PreciseSqrtLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::PreciseSqrtOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return replaceByRegister(
        op, adaptor.getOperands(), rewriter, *getTypeConverter(), [&](ValueRange a, Type elem) {
          if (elem.isF64()) // llvm.sqrt.f64 is sqrt.rn.f64
            return Value(LLVM::SqrtOp::create(rewriter, loc, a[0]));
          return throughF32(rewriter, loc, a, elem, [&](ValueRange w) {
            return ctx.target.preciseSqrtF32(rewriter, loc, w[0]);
          });
        });
  }
  const Context &ctx;
};

struct PreciseDivFLowering : OpConversionPattern<tt::PreciseDivFOp> {
  PreciseDivFLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::PreciseDivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return replaceByRegister(
        op, adaptor.getOperands(), rewriter, *getTypeConverter(), [&](ValueRange a, Type elem) {
          if (elem.isF64()) // LLVM's fdiv is div.rn.f64
            return Value(LLVM::FDivOp::create(rewriter, loc, a[0], a[1]));
          return throughF32(rewriter, loc, a, elem, [&](ValueRange w) {
            return ctx.target.divF32(rewriter, loc, w[0], w[1], /*precise=*/true);
          });
        });
  }
  const Context &ctx;
};

struct ApproxDivFLowering : OpConversionPattern<tt::ApproxDivFOp> {
  ApproxDivFLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::ApproxDivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    return replaceByRegister(op, adaptor.getOperands(), rewriter, *getTypeConverter(),
                             [&](ValueRange a, Type) {
                               return ctx.target.divApproxF32(rewriter, op.getLoc(), a[0], a[1]);
                             });
  }
  const Context &ctx;
};

struct MulhiUILowering : OpConversionPattern<tt::MulhiUIOp> {
  MulhiUILowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::MulhiUIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type elem = getElementTypeOrSelf(op.getType());
    if (!elem.isInteger(32) && !elem.isInteger(64))
      return rewriter.notifyMatchFailure(op, "mulhiui of an integer other than i32/i64");
    std::string function = ctx.target.mulhiFunction(elem);
    return replaceByRegister(op, adaptor.getOperands(), rewriter, *getTypeConverter(),
                             [&](ValueRange a, Type t) {
                               return callFunction(rewriter, op.getLoc(), function, t, a);
                             });
  }
  const Context &ctx;
};

/// propagateNan = all: NaN in x gives NaN (maximum/minimum, native from
/// sm_80); none: max/min that prefer the number.
struct ClampFLowering : OpConversionPattern<tt::ClampFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ClampFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool nan = op.getPropagateNan() == tt::PropagateNan::ALL;
    return replaceByRegister(op, adaptor.getOperands(), rewriter, *getTypeConverter(),
                             [&](ValueRange a, Type) -> Value {
                               if (nan)
                                 return LLVM::MinimumOp::create(
                                     rewriter, loc, LLVM::MaximumOp::create(rewriter, loc, a[0], a[1]),
                                     a[2]);
                               return LLVM::MinNumOp::create(
                                   rewriter, loc, LLVM::MaxNumOp::create(rewriter, loc, a[0], a[1]),
                                   a[2]);
                             });
  }
};

/// A call of the named function per register. The function is declared
/// only: libdevice's (`__nv_*`) are linked by the code generator. A pure
/// one is marked as touching no memory, so LLVM may drop or merge calls.
struct ExternElementwiseLowering : OpConversionPattern<tt::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ExternElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return replaceByRegister(
        op, adaptor.getOperands(), rewriter, *getTypeConverter(), [&](ValueRange a, Type t) {
          Value result = callFunction(rewriter, loc, op.getSymbol(), t, a);
          if (op.getPure()) {
            auto none = LLVM::ModRefInfo::NoModRef;
            cast<LLVM::CallOp>(result.getDefiningOp())
                .setMemoryEffectsAttr(LLVM::MemoryEffectsAttr::get(
                    rewriter.getContext(), {none, none, none, none, none, none}));
          }
          return result;
        });
  }
};

} // namespace

void populateMathPatterns(TypeConverter &converter, const Context &ctx,
                          RewritePatternSet &patterns) {
  MLIRContext *mctx = &converter.getContext();
  patterns.add<MathLibraryLowering, DivFLowering, PreciseSqrtLowering, PreciseDivFLowering,
               ApproxDivFLowering, MulhiUILowering>(converter, ctx);
  patterns.add<ClampFLowering, ExternElementwiseLowering>(converter, mctx);
}

} // namespace kiln::lowering
