//===- InlineAsmOpToLLVM.cpp - tt.elementwise_inline_asm ------------------===//
//
// As Triton 3.6: the asm runs once per `packed_element` consecutive
// registers; operands and results narrower than 32 bits travel packed in
// vectors of up to 32 bits (e.g. four i8 in one `r` register); the asm's
// operands are each operand's packs in turn, its results each result's
// packs in turn (a struct when there are several). The asm has side
// effects unless the op is pure.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/Triton/IR/InlineAsm.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

struct InlineAsmLowering : OpConversionPattern<tt::ElementwiseInlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(tt::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const mlir::TypeConverter &tc = *getTypeConverter();
    unsigned packed = std::max<unsigned>(1, op.getPackedElement());
    SmallVector<SmallVector<Value>> inputs;
    for (Value v : adaptor.getArgs())
      inputs.push_back(registersOf(rewriter, loc, v));
    SmallVector<Type> resultTypes, resultElems;
    for (Type t : op.getResultTypes()) {
      resultTypes.push_back(tc.convertType(t));
      resultElems.push_back(elementOf(tc, t));
      if (!resultTypes.back() || !resultElems.back())
        return failure();
    }
    auto count = [](Type t) -> size_t {
      auto st = dyn_cast<LLVM::LLVMStructType>(t);
      return st ? st.getBody().size() : 1;
    };
    size_t numRegs = resultTypes.empty() ? (inputs.empty() ? 1 : inputs[0].size())
                                         : count(resultTypes[0]);
    if (numRegs % packed != 0)
      return rewriter.notifyMatchFailure(op, "packed_element does not divide the registers");

    // The asm's result slots: per result, packed / k slots of k elements.
    SmallVector<Type> slots;
    SmallVector<unsigned> perSlot;
    for (Type elem : resultElems) {
      unsigned k = tt::inlineAsmElementsPerOperand(elem, packed);
      perSlot.push_back(k);
      for (unsigned s = 0; s < packed / k; ++s)
        slots.push_back(k > 1 ? Type(VectorType::get(k, elem)) : elem);
    }
    Type asmType = slots.size() == 1 ? slots[0]
                   : slots.empty()   ? Type()
                                     : LLVM::LLVMStructType::getLiteral(getContext(), slots);

    SmallVector<SmallVector<Value>> results(resultElems.size());
    for (size_t r = 0; r < numRegs; r += packed) {
      SmallVector<Value> args;
      for (auto [i, regs] : llvm::enumerate(inputs)) {
        Type elem = elementOf(tc, op.getArgs()[i].getType());
        unsigned k = tt::inlineAsmElementsPerOperand(elem, packed);
        for (unsigned j = 0; j < packed; j += k) {
          if (k == 1) {
            args.push_back(regs[r + j]);
            continue;
          }
          Value v = LLVM::UndefOp::create(rewriter, loc, VectorType::get(k, elem));
          for (unsigned e = 0; e < k; ++e)
            v = LLVM::InsertElementOp::create(rewriter, loc, v, regs[r + j + e],
                                              i32Constant(rewriter, loc, e));
          args.push_back(v);
        }
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, asmType ? TypeRange(asmType) : TypeRange(), args, op.getAsmString(),
          op.getConstraints(), /*has_side_effects=*/!op.getPure(), /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/LLVM::AsmDialectAttr(), ArrayAttr());
      unsigned slot = 0;
      for (auto [i, k] : llvm::enumerate(perSlot)) {
        for (unsigned s = 0; s < packed / k; ++s, ++slot) {
          Value v = slots.size() == 1
                        ? asmOp.getResult(0)
                        : Value(LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), slot));
          if (k == 1) {
            results[i].push_back(v);
            continue;
          }
          for (unsigned e = 0; e < k; ++e)
            results[i].push_back(
                LLVM::ExtractElementOp::create(rewriter, loc, v, i32Constant(rewriter, loc, e)));
        }
      }
    }
    SmallVector<Value> replacements;
    for (auto [type, values] : llvm::zip(resultTypes, results))
      replacements.push_back(isa<LLVM::LLVMStructType>(type) ? pack(rewriter, loc, type, values)
                                                             : values[0]);
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void populateInlineAsmPatterns(TypeConverter &converter, const Context &,
                               RewritePatternSet &patterns) {
  patterns.add<InlineAsmLowering>(converter, &converter.getContext());
}

} // namespace kiln::lowering
