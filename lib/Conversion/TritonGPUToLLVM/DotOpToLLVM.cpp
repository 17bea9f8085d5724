//===- DotOpToLLVM.cpp - tt.dot on mma.sync and on scalar FMAs -------------===//
//
// A dot whose result has a version 2 #ttg.nvidia_mma layout becomes one
// mma.sync per (C tile, K step); one with a #ttg.blocked result one fma per
// (C element, k). kiln/Layout/DotPlan.h picks every register from the
// layouts; this file only packs them into the instruction's operands. All
// checks run before conversion (checkDotLowering), so the patterns do not
// fail.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/DotPlan.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;

namespace kiln::lowering {
namespace {

using MmaType = TargetInfo::MmaType;

/// The mma.sync a dot's element types and precision select, or why none.
struct MmaChoice {
  TargetInfo::MmaSync mma{16, 8, 16, MmaType::F16, MmaType::F32};
  unsigned bits = 16;
  std::string why;
};

MmaChoice chooseMma(tt::DotOp op) {
  Type a = getElementTypeOrSelf(op.getA().getType()), b = getElementTypeOrSelf(op.getB().getType());
  Type c = getElementTypeOrSelf(op.getC().getType());
  MmaChoice choice;
  auto set = [&](MmaType ab, MmaType acc, unsigned bits) {
    choice.mma = {16, 8, 8 * (32 / bits), ab, acc};
    choice.bits = bits;
  };
  if (a != b) {
    choice.why = "A and B of a tensor-core dot must have one element type";
  } else if (a.isF16() && (c.isF32() || c.isF16())) {
    set(MmaType::F16, c.isF32() ? MmaType::F32 : MmaType::F16, 16);
  } else if (a.isBF16() && c.isF32()) {
    set(MmaType::BF16, MmaType::F32, 16);
  } else if (a.isInteger(8) && c.isInteger(32)) {
    set(MmaType::S8, MmaType::S32, 8);
  } else if (isa<Float8E4M3FNType, Float8E5M2Type>(a) && c.isF32()) {
    set(isa<Float8E4M3FNType>(a) ? MmaType::E4M3 : MmaType::E5M2, MmaType::F32, 8);
  } else if (a.isF32() && c.isF32()) {
    switch (op.getInputPrecision()) {
    case tt::InputPrecision::TF32:
      set(MmaType::TF32, MmaType::F32, 32);
      break;
    case tt::InputPrecision::TF32x3:
      choice.why = "inputPrecision = tf32x3 is split into three tf32 dots before the llir "
                   "stage (Triton's F32DotTC); it has no single mma.sync";
      break;
    case tt::InputPrecision::IEEE:
      choice.why = "an ieee f32 dot cannot use tensor cores; give it a #ttg.blocked result "
                   "layout (the FMA path)";
      break;
    default:
      choice.why = "inputPrecision = " + stringifyInputPrecision(op.getInputPrecision()).str() +
                   " has no mma.sync lowering";
    }
  } else {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "no mma.sync multiplies " << a << " into " << c
       << " (f16/bf16 -> f32, f16 -> f16, tf32, i8 -> i32, fp8 -> f32)";
    choice.why = text;
  }
  return choice;
}

/// The dot_op encoding of operand `v`, checked to hang off `parent`.
ttg::DotOperandEncodingAttr operandEncoding(Value v, Attribute parent, unsigned opIdx) {
  auto enc = dyn_cast_or_null<ttg::DotOperandEncodingAttr>(
      cast<RankedTensorType>(v.getType()).getEncoding());
  if (!enc || enc.getOpIdx() != opIdx || Attribute(enc.getParent()) != parent)
    return {};
  return enc;
}

bool isMmaV2(Attribute enc) {
  auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(enc);
  return mma && mma.getVersionMajor() == 2;
}

struct DotLowering : OpConversionPattern<tt::DotOp> {
  DotLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    layout::LinearLayout la = layoutOf(op.getA().getType()), lb = layoutOf(op.getB().getType()),
                         lc = layoutOf(op.getC().getType());
    SmallVector<Value> a = unpack(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpack(rewriter, loc, adaptor.getB());
    SmallVector<Value> acc = unpack(rewriter, loc, adaptor.getC());
    SmallVector<int32_t> copies;
    if (isMmaV2(op.getType().getEncoding())) {
      MmaChoice choice = chooseMma(op);
      llvm::Expected<layout::MmaV2Plan> plan = layout::planMmaV2(la, lb, lc, choice.bits);
      if (!plan) // checkDotLowering saw it succeed
        return rewriter.notifyMatchFailure(op, llvm::toString(plan.takeError()));
      lowerMma(rewriter, loc, choice.mma, *plan, a, b, acc);
      copies = plan->cCopies;
    } else {
      llvm::Expected<layout::FmaPlan> plan = layout::planFma(la, lb, lc);
      if (!plan)
        return rewriter.notifyMatchFailure(op, llvm::toString(plan.takeError()));
      lowerFma(rewriter, loc, *plan, a, b, acc);
      copies = plan->cCopies;
    }
    SmallVector<Value> out;
    for (int32_t r : copies)
      out.push_back(acc[r]);
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, out));
    return success();
  }

private:
  void lowerMma(OpBuilder &b, Location loc, const TargetInfo::MmaSync &mma,
                const layout::MmaV2Plan &plan, SmallVector<Value> &a, SmallVector<Value> &bRegs,
                SmallVector<Value> &acc) const {
    if (mma.ab == MmaType::TF32) // rounded once per register, as Triton does
      for (SmallVector<Value> *regs : {&a, &bRegs})
        for (Value &v : *regs)
          v = ctx.target.toTF32(b, loc, v);
    unsigned p = mma.k / 8; // elements per 32-bit register
    // A fragments are shared by every N tile (B's by every M tile): each
    // word is packed once.
    std::map<SmallVector<int32_t>, Value> words;
    auto word = [&](int32_t operand, ArrayRef<Value> regs, ArrayRef<int32_t> which) {
      SmallVector<int32_t> key(which.begin(), which.end());
      key.push_back(operand);
      Value &w = words[key];
      if (w)
        return w;
      if (p == 1)
        return w = regs[which[0]];
      auto vec = VectorType::get(int64_t(p), regs[which[0]].getType());
      Value v = LLVM::UndefOp::create(b, loc, vec);
      for (auto [i, r] : llvm::enumerate(which))
        v = LLVM::InsertElementOp::create(b, loc, v, regs[r], i32Constant(b, loc, int64_t(i)));
      return w = LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
    };
    for (const layout::MmaV2Step &step : plan.steps) {
      SmallVector<Value> aWords, bWords, c;
      for (size_t i = 0; i < step.a.size(); i += p)
        aWords.push_back(word(0, a, ArrayRef<int32_t>(step.a).slice(i, p)));
      for (size_t i = 0; i < step.b.size(); i += p)
        bWords.push_back(word(1, bRegs, ArrayRef<int32_t>(step.b).slice(i, p)));
      for (int32_t r : step.c)
        c.push_back(acc[r]);
      SmallVector<Value> d = ctx.target.mmaSync(b, loc, mma, aWords, bWords, c);
      for (auto [r, v] : llvm::zip(step.c, d))
        acc[r] = v;
    }
  }

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

bool hasDotLowering(Operation *op) {
  auto dot = dyn_cast<tt::DotOp>(op);
  if (!dot)
    return false;
  Attribute enc = dot.getType().getEncoding();
  return isMmaV2(enc) || isa_and_nonnull<ttg::BlockedEncodingAttr>(enc);
}

LogicalResult checkDotLowering(Operation *op, const TargetInfo &target) {
  auto dot = dyn_cast<tt::DotOp>(op);
  if (!dot)
    return success();
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op 'tt.dot' cannot be lowered to LLVM: " << why;
  };
  Attribute parent = dot.getType().getEncoding();
  if (!operandEncoding(dot.getA(), parent, 0) || !operandEncoding(dot.getB(), parent, 1))
    return fail("A and B need #ttg.dot_op layouts (opIdx 0 and 1) whose parent is the result's "
                "layout");
  layout::LinearLayout la = layoutOf(dot.getA().getType()), lb = layoutOf(dot.getB().getType()),
                       lc = layoutOf(dot.getC().getType());
  if (!isMmaV2(parent)) {
    Type a = getElementTypeOrSelf(dot.getA().getType()), c = getElementTypeOrSelf(dot.getType());
    bool ints = a.isInteger() && c.isInteger() && a.getIntOrFloatBitWidth() <= c.getIntOrFloatBitWidth();
    if (a != getElementTypeOrSelf(dot.getB().getType()) || (a != c && !ints))
      return fail("an FMA dot needs A and B of the result's element type (integers may be "
                  "narrower)");
    llvm::Expected<layout::FmaPlan> plan = layout::planFma(la, lb, lc);
    if (!plan)
      return fail(llvm::toString(plan.takeError()));
    return success();
  }
  MmaChoice choice = chooseMma(dot);
  if (!choice.why.empty())
    return fail(choice.why);
  if (std::string why = target.mmaUnsupported(choice.mma); !why.empty())
    return fail(why);
  llvm::Expected<layout::MmaV2Plan> plan = layout::planMmaV2(la, lb, lc, choice.bits);
  if (!plan)
    return fail(llvm::toString(plan.takeError()));
  return success();
}

void populateDotPatterns(TypeConverter &converter, const Context &ctx,
                         RewritePatternSet &patterns) {
  patterns.add<DotLowering>(converter, ctx);
}

} // namespace kiln::lowering
