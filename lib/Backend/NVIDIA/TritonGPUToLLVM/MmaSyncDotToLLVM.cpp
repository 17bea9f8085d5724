//===- MmaSyncDotToLLVM.cpp - tt.dot on mma.sync ---------------------------===//
//
// A dot whose result has a version 2 #ttg.nvidia_mma layout becomes one
// mma.sync per (C tile, K step). kiln/Analysis/DotPlan.h picks every register
// from the layouts; this file only packs them into the instruction's
// operands. All checks run before conversion (checkMmaSyncDot), so the
// pattern does not fail.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "kiln/Backend/NVIDIA/TargetInfo.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Analysis/DotPlan.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
using namespace kiln::lowering;

namespace kiln::nvidia {
namespace {

using MmaType = NVIDIATargetInfo::MmaType;

/// The mma.sync a dot's element types and precision select, or why none.
struct MmaChoice {
  NVIDIATargetInfo::MmaSync mma{16, 8, 16, MmaType::F16, MmaType::F32};
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

bool isMmaV2(Attribute enc) {
  auto mma = dyn_cast_or_null<ttg::NvidiaMmaEncodingAttr>(enc);
  return mma && mma.getVersionMajor() == 2;
}

struct MmaSyncDotLowering : OpConversionPattern<tt::DotOp> {
  MmaSyncDotLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::DotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isMmaV2(op.getType().getEncoding()))
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
    MmaChoice choice = chooseMma(op);
    llvm::Expected<layout::MmaV2Plan> plan = layout::planMmaV2(la, lb, lc, choice.bits);
    if (!plan) // checkMmaSyncDot saw it succeed
      return rewriter.notifyMatchFailure(op, llvm::toString(plan.takeError()));
    lowerMma(rewriter, loc, choice.mma, *plan, a, b, acc);
    SmallVector<Value> out;
    for (int32_t r : plan->cCopies)
      out.push_back(acc[r]);
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, out));
    return success();
  }

private:
  void lowerMma(OpBuilder &b, Location loc, const NVIDIATargetInfo::MmaSync &mma,
                const layout::MmaV2Plan &plan, SmallVector<Value> &a, SmallVector<Value> &bRegs,
                SmallVector<Value> &acc) const {
    if (mma.ab == MmaType::TF32) // rounded once per register, as Triton does
      for (SmallVector<Value> *regs : {&a, &bRegs})
        for (Value &v : *regs)
          v = targetInfo(ctx).toTF32(b, loc, v);
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
      SmallVector<Value> d = targetInfo(ctx).mmaSync(b, loc, mma, aWords, bWords, c);
      for (auto [r, v] : llvm::zip(step.c, d))
        acc[r] = v;
    }
  }

  const Context &ctx;
};

} // namespace

bool isMmaSyncDot(Operation *op) {
  auto dot = dyn_cast<tt::DotOp>(op);
  return dot && isMmaV2(dot.getType().getEncoding());
}

LogicalResult checkMmaSyncDot(Operation *op, const Context &ctx) {
  auto dot = cast<tt::DotOp>(op);
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op 'tt.dot' cannot be lowered to LLVM: " << why;
  };
  Attribute parent = dot.getType().getEncoding();
  if (!dotOperandEncoding(dot.getA(), parent, 0) || !dotOperandEncoding(dot.getB(), parent, 1))
    return fail("A and B need #ttg.dot_op layouts (opIdx 0 and 1) whose parent is the result's "
                "layout");
  MmaChoice choice = chooseMma(dot);
  if (!choice.why.empty())
    return fail(choice.why);
  if (std::string why = targetInfo(ctx).mmaUnsupported(choice.mma); !why.empty())
    return fail(why);
  llvm::Expected<layout::MmaV2Plan> plan =
      layout::planMmaV2(layoutOf(dot.getA().getType()), layoutOf(dot.getB().getType()),
                        layoutOf(dot.getC().getType()), choice.bits);
  if (!plan)
    return fail(llvm::toString(plan.takeError()));
  return success();
}

void populateMmaSyncDotPatterns(lowering::TypeConverter &converter, const Context &ctx,
                                RewritePatternSet &patterns) {
  patterns.add<MmaSyncDotLowering>(converter, ctx);
}

} // namespace kiln::nvidia
