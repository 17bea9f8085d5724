//===- CastOpToLLVM.cpp - tt.bitcast, pointer casts, tt.fp_to_fp ----------===//
//
// tt.fp_to_fp follows Triton 3.6 on sm_90: fp8 (e4m3 / e5m2) conversions
// use the hardware's paired cvt (two values per instruction, rounding to
// nearest even and saturating to the largest finite value); f32 to
// f16/bf16 rounds as asked; widening is exact. f32 to e5m2 toward zero goes
// through f16 toward zero and keeps its high byte, as Triton does.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

using namespace mlir;

namespace kiln::lowering {

bool canLowerFpToFp(Operation *fpToFp) {
  auto op = cast<tt::FpToFpOp>(fpToFp);
  Type src = getElementTypeOrSelf(op.getSrc().getType());
  Type dst = getElementTypeOrSelf(op.getType());
  auto isFp8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  auto isWide = [](Type t) { return t.isF16() || t.isBF16() || t.isF32() || t.isF64(); };
  std::optional<tt::RoundingMode> rounding = op.getRounding();
  bool rtz = rounding == tt::RoundingMode::RTZ;
  if (isFp8(src))
    return isWide(dst);
  if (isFp8(dst)) {
    if (!rounding || src.isF64())
      return false;
    return !rtz || (isa<Float8E5M2Type>(dst) && (src.isF32() || src.isF16()));
  }
  if (!isWide(src) || !isWide(dst))
    return false;
  // Narrowing needs a rounding mode; toward zero only from f32.
  if (dst.getIntOrFloatBitWidth() < src.getIntOrFloatBitWidth() || (src.isF16() && dst.isBF16()) ||
      (src.isBF16() && dst.isF16()))
    return rounding && (!rtz || src.isF32());
  return true;
}

namespace {

Value i32(OpBuilder &b, Location loc, int64_t v) { return i32Constant(b, loc, v); }

/// The two bytes of an i16 as i8 (low first).
std::pair<Value, Value> bytes(OpBuilder &b, Location loc, Value packed) {
  Type i8 = b.getI8Type();
  Value hi = LLVM::LShrOp::create(
      b, loc, packed, LLVM::ConstantOp::create(b, loc, b.getI16Type(), b.getI16IntegerAttr(8)));
  return {LLVM::TruncOp::create(b, loc, i8, packed), LLVM::TruncOp::create(b, loc, i8, hi)};
}

Value joinBytes(OpBuilder &b, Location loc, Value lo, Value hi) {
  Type i16 = b.getI16Type();
  Value h = LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i16, hi),
                                LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8)));
  return LLVM::OrOp::create(b, loc, h, LLVM::ZExtOp::create(b, loc, i16, lo));
}

/// A float to a float of another width (neither fp8), exactly or with
/// `rounding` (checked by canLowerFpToFp).
Value convertWide(OpBuilder &b, Location loc, const Context &ctx, Value v, Type dst, bool rtz) {
  Type src = v.getType();
  if (src == dst)
    return v;
  unsigned from = src.getIntOrFloatBitWidth(), to = dst.getIntOrFloatBitWidth();
  if (to > from)
    return LLVM::FPExtOp::create(b, loc, dst, v);
  if (to == from) // f16 <-> bf16 through f32
    v = LLVM::FPExtOp::create(b, loc, b.getF32Type(), v);
  if (v.getType().isF32() && (dst.isF16() || dst.isBF16()))
    return ctx.target.truncF32(b, loc, v, dst, rtz);
  return LLVM::FPTruncOp::create(b, loc, dst, v);
}

struct FpToFpLowering : OpConversionPattern<tt::FpToFpOp> {
  FpToFpLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::FpToFpOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type src = getElementTypeOrSelf(op.getSrc().getType());
    Type dst = getElementTypeOrSelf(op.getType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type dstElem = elementOf(*getTypeConverter(), op.getType());
    if (!resultType || !dstElem || !canLowerFpToFp(op))
      return failure();
    bool rtz = op.getRounding() == tt::RoundingMode::RTZ;
    SmallVector<Value> in = registersOf(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> out;
    bool srcFp8 = isa<Float8E4M3FNType, Float8E5M2Type>(src);
    bool dstFp8 = isa<Float8E4M3FNType, Float8E5M2Type>(dst);
    // fp8 conversions take registers in pairs; an odd last one is paired
    // with itself and the copy dropped.
    for (size_t r = 0; r < in.size(); r += (srcFp8 || dstFp8) ? 2 : 1) {
      Value lo = in[r], hi = r + 1 < in.size() ? in[r + 1] : in[r];
      if (srcFp8) {
        auto [a, c] = ctx.target.fromFp8x2(rewriter, loc, joinBytes(rewriter, loc, lo, hi), src);
        out.push_back(convertWide(rewriter, loc, ctx, a, dstElem, false));
        out.push_back(convertWide(rewriter, loc, ctx, c, dstElem, false));
      } else if (dstFp8 && rtz) {
        // e5m2 is the high byte of f16: dropping the low byte rounds to zero.
        for (Value v : {lo, hi}) {
          Value half = convertWide(rewriter, loc, ctx, v, rewriter.getF16Type(), true);
          Value bits = LLVM::BitcastOp::create(rewriter, loc, rewriter.getI16Type(), half);
          out.push_back(bytes(rewriter, loc, bits).second);
        }
      } else if (dstFp8) {
        if (src.isBF16()) { // exact in f32
          lo = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), lo);
          hi = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), hi);
        }
        auto [a, c] = bytes(rewriter, loc, ctx.target.toFp8x2(rewriter, loc, lo, hi, dst));
        out.push_back(a);
        out.push_back(c);
      } else {
        out.push_back(convertWide(rewriter, loc, ctx, lo, dstElem, rtz));
      }
    }
    out.resize(in.size());
    rewriter.replaceOp(op, isa<LLVM::LLVMStructType>(resultType)
                               ? pack(rewriter, loc, resultType, out)
                               : out[0]);
    return success();
  }
  const Context &ctx;
};

/// Reinterpreting casts, one LLVM cast per register.
template <typename Op, typename LLVMOp>
struct CastLowering : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    return replaceByRegister(op, adaptor.getOperands(), rewriter, *this->getTypeConverter(),
                             [&](ValueRange a, Type t) -> Value {
                               if (a[0].getType() == t) // e.g. pointers of one address space
                                 return a[0];
                               return LLVMOp::create(rewriter, op.getLoc(), t, a[0]);
                             });
  }
};

} // namespace

void populateCastPatterns(TypeConverter &converter, const Context &ctx,
                          RewritePatternSet &patterns) {
  MLIRContext *mctx = &converter.getContext();
  patterns.add<FpToFpLowering>(converter, ctx);
  patterns.add<CastLowering<tt::BitcastOp, LLVM::BitcastOp>,
               CastLowering<tt::IntToPtrOp, LLVM::IntToPtrOp>,
               CastLowering<tt::PtrToIntOp, LLVM::PtrToIntOp>>(converter, mctx);
}

} // namespace kiln::lowering
