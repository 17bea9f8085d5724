//===- DebugOpToLLVM.cpp - tt.print and tt.assert -------------------------===//
//
// Triton 3.6's formats. tt.print prints every register of each operand on
// its own line,
//   pid (<x>, <y>, <z>) idx (<i0>, <i1>, ...)<prefix>(operand <n>) <value>
// ("(operand <n>) " only with several operands; each index padded to the
// digits of its dimension), through the target's printf; without operands
// it prints "pid (...)<prefix>". tt.assert calls the target's assertion
// failure, in each thread where some register of the condition is false,
// with the message, the file and line of the op's location and "unknown"
// for the function; after a tensor assertion the CTA waits at a barrier,
// so no thread runs ahead into what the assertion guards.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;

namespace kiln::lowering {

Value stringPointer(ConversionPatternRewriter &rewriter, Location loc, Operation *at,
                    StringRef prefix, StringRef text) {
  auto module = at->getParentOfType<ModuleOp>();
  std::string contents = text.str();
  contents.push_back('\0');
  std::string name;
  for (unsigned n = 0;; ++n) {
    name = (prefix + Twine(n)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    if (auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
        value && value.getValue() == contents)
      return LLVM::AddressOfOp::create(rewriter, loc, existing);
  }
  auto type = LLVM::LLVMArrayType::get(rewriter.getI8Type(), contents.size());
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(rewriter, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    rewriter.getStringAttr(contents));
  }
  return LLVM::AddressOfOp::create(rewriter, loc, global);
}

std::pair<std::string, unsigned> sourceLine(Location loc) {
  // The op's own location, behind call sites and names.
  while (true) {
    if (auto call = dyn_cast<CallSiteLoc>(loc))
      loc = call.getCallee();
    else if (auto name = dyn_cast<NameLoc>(loc))
      loc = name.getChildLoc();
    else
      break;
  }
  if (auto flc = dyn_cast<FileLineColLoc>(loc))
    return {flc.getFilename().str(), flc.getLine()};
  return {"unknown", 0};
}

namespace {

struct PrintLowering : OpConversionPattern<tt::PrintOp> {
  PrintLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  /// The printf conversion of a value, and the value as printf takes it
  /// (C's promotions: small integers to i32, floats to f64).
  std::pair<std::string, Value> format(OpBuilder &b, Location loc, Value v, bool hex,
                                       bool isSigned) const {
    Type t = v.getType();
    if (isa<LLVM::LLVMPointerType>(t))
      return {"%p", v};
    unsigned bits = t.getIntOrFloatBitWidth();
    if (hex) {
      if (isa<FloatType>(t))
        v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(bits), v);
      if (bits < 32)
        v = LLVM::ZExtOp::create(b, loc, b.getI32Type(), v);
      return {"0x%0" + std::to_string(bits / 4) + (bits > 32 ? "ll" : "") + "x", v};
    }
    if (isa<FloatType>(t))
      return {"%f", bits < 64 ? Value(LLVM::FPExtOp::create(b, loc, b.getF64Type(), v)) : v};
    if (bits < 32)
      v = isSigned ? Value(LLVM::SExtOp::create(b, loc, b.getI32Type(), v))
                   : Value(LLVM::ZExtOp::create(b, loc, b.getI32Type(), v));
    std::string length = bits == 64 ? "ll" : "";
    return {"%" + length + (isSigned ? "i" : "u"), v};
  }

  LogicalResult matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> pid;
    for (unsigned axis = 0; axis < 3; ++axis)
      pid.push_back(ctx.target.programId(rewriter, loc, axis, ctx.clusterCTAs));
    std::string head = "pid (%u, %u, %u)";
    if (op.getArgs().empty()) {
      Value fmt = stringPointer(rewriter, loc, op, "printfFormat_",
                                head + op.getPrefix().str() + "\n");
      ctx.target.printf(rewriter, loc, fmt, pid);
      rewriter.eraseOp(op);
      return success();
    }
    ArrayRef<int32_t> isSigned = op.getIsSigned();
    size_t numArgs = op.getArgs().size();
    for (auto [i, arg] : llvm::enumerate(op.getArgs())) {
      SmallVector<Value> regs = registersOf(rewriter, loc, adaptor.getArgs()[i]);
      SmallVector<SmallVector<Value>> coords(regs.size());
      SmallVector<int> widths;
      if (auto tensor = dyn_cast<RankedTensorType>(arg.getType())) {
        coords = registerCoordinates(rewriter, loc, globalLayoutOf(tensor), ctx);
        for (int64_t dim : tensor.getShape())
          widths.push_back(dim > 0 ? int(std::ceil(std::log10(double(dim)))) : 0);
      }
      bool sign = i < isSigned.size() ? isSigned[i] != 0 : true;
      Value fmt;
      for (auto [r, reg] : llvm::enumerate(regs)) {
        std::string text = head + " idx (";
        SmallVector<Value> args(pid);
        for (auto [d, c] : llvm::enumerate(coords[r])) {
          text += (d ? ", %" : "%") + std::to_string(widths[d]) + "u";
          args.push_back(c);
        }
        text += ")" + op.getPrefix().str();
        if (numArgs > 1)
          text += "(operand " + std::to_string(i) + ") ";
        auto [conversion, value] = format(rewriter, loc, reg, op.getHex(), sign);
        text += conversion + "\n";
        args.push_back(value);
        // One format string serves every register of the operand.
        if (!fmt)
          fmt = stringPointer(rewriter, loc, op, "printfFormat_", text);
        ctx.target.printf(rewriter, loc, fmt, args);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct AssertLowering : OpConversionPattern<tt::AssertOp> {
  AssertLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value failed;
    Value zero = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                          rewriter.getBoolAttr(false));
    for (Value reg : registersOf(rewriter, loc, adaptor.getCondition())) {
      Value isFalse = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, reg, zero);
      failed = failed ? Value(LLVM::OrOp::create(rewriter, loc, failed, isFalse)) : isFalse;
    }
    auto [file, line] = sourceLine(loc);
    // An scf.if, not a block split: the op may sit in an scf region, which
    // must stay one block until scf is lowered.
    Value message = stringPointer(rewriter, loc, op, "assertMessage_", op.getMessage());
    Value fileName = stringPointer(rewriter, loc, op, "assertFile_", file);
    Value function = stringPointer(rewriter, loc, op, "assertFunc_", "unknown");
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), failed, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      ctx.target.assertFail(rewriter, loc, message, fileName, line, function);
    }
    if (isa<RankedTensorType>(op.getCondition().getType()))
      ctx.target.barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateDebugPatterns(TypeConverter &converter, const Context &ctx,
                           RewritePatternSet &patterns) {
  patterns.add<PrintLowering, AssertLowering>(converter, ctx);
}

} // namespace kiln::lowering
