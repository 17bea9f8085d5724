//===- ElementwiseOpToLLVM.cpp - per-register ops -------------------------===//
//
// An elementwise op on tensors becomes the same op on each register; the
// scalar ops are then lowered by MLIR's own arith and math patterns.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

bool isTensorOp(Operation *op) {
  return llvm::any_of(op->getResultTypes(), [](Type t) { return isa<RankedTensorType>(t); });
}

/// Any arith or math op on tensors (constants aside), one copy per register;
/// ahead of MLIR's patterns, which would take the structs for scalars.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(TypeConverter &converter)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          &converter.getContext()) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((dialect != "arith" && dialect != "math") || isa<arith::ConstantOp>(op) ||
        !isTensorOp(op) || op->getNumRegions())
      return failure();
    Location loc = op->getLoc();
    SmallVector<Type> resultStructs, resultElements;
    for (Type t : op->getResultTypes()) {
      Type converted = getTypeConverter()->convertType(t);
      Type element = getTypeConverter()->convertType(cast<RankedTensorType>(t).getElementType());
      if (!converted || !element)
        return failure();
      resultStructs.push_back(converted);
      resultElements.push_back(element);
    }
    SmallVector<SmallVector<Value>> inputs;
    for (Value operand : operands)
      inputs.push_back(isa<LLVM::LLVMStructType>(operand.getType())
                           ? unpack(rewriter, loc, operand)
                           : SmallVector<Value>{operand});
    size_t numRegs = cast<LLVM::LLVMStructType>(resultStructs[0]).getBody().size();
    // A scalar operand (arith.select's condition) goes to every register.
    for (auto [operand, input] : llvm::zip(op->getOperands(), inputs))
      if (isa<RankedTensorType>(operand.getType()) ? input.size() != numRegs : input.size() != 1)
        return op->emitError() << "internal error: an operand of '" << op->getName()
                               << "' has " << input.size() << " registers, its result " << numRegs;
    SmallVector<SmallVector<Value>> results(op->getNumResults());
    // fp8 values live as their bits in an integer (LLVM has no fp8 type):
    // |x| and -x clear or flip the sign bit.
    if (isa<math::AbsFOp, arith::NegFOp>(op) && isa<IntegerType>(resultElements[0])) {
      unsigned width = resultElements[0].getIntOrFloatBitWidth();
      APInt sign = APInt::getSignMask(width);
      Value mask = LLVM::ConstantOp::create(
          rewriter, loc, resultElements[0],
          rewriter.getIntegerAttr(resultElements[0], isa<math::AbsFOp>(op) ? ~sign : sign));
      for (Value v : inputs[0])
        results[0].push_back(isa<math::AbsFOp>(op)
                                 ? Value(LLVM::AndOp::create(rewriter, loc, v, mask))
                                 : Value(LLVM::XOrOp::create(rewriter, loc, v, mask)));
      rewriter.replaceOp(op, pack(rewriter, loc, resultStructs[0], results[0]));
      return success();
    }
    for (size_t reg = 0; reg < numRegs; ++reg) {
      OperationState state(loc, op->getName());
      for (const SmallVector<Value> &input : inputs)
        state.addOperands(input.size() == 1 ? input[0] : input[reg]);
      state.addTypes(resultElements);
      state.addAttributes(op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (auto [i, result] : llvm::enumerate(scalar->getResults()))
        results[i].push_back(result);
    }
    SmallVector<Value> packed;
    for (auto [type, values] : llvm::zip(resultStructs, results))
      packed.push_back(pack(rewriter, loc, type, values));
    rewriter.replaceOp(op, packed);
    return success();
  }
};

/// `scalar` in every register of a tensor whose converted type is `converted`.
Value splat(OpBuilder &b, Location loc, Type converted, Value scalar) {
  size_t n = cast<LLVM::LLVMStructType>(converted).getBody().size();
  return pack(b, loc, converted, SmallVector<Value>(n, scalar));
}

/// A splat constant tensor: the scalar constant in every register.
struct SplatConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!type || !dense)
      return failure();
    Type converted = getTypeConverter()->convertType(type);
    if (!converted)
      return failure();
    auto value = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    // Floats that LLVM has no type for (fp8) are their bits in an integer.
    Type elem = elementOf(*getTypeConverter(), type);
    Value scalar;
    if (auto f = dyn_cast<FloatAttr>(value); f && isa<IntegerType>(elem))
      scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(), elem,
                                        IntegerAttr::get(elem, f.getValue().bitcastToAPInt()));
    else
      scalar = arith::ConstantOp::create(rewriter, op.getLoc(), value);
    rewriter.replaceOp(op, splat(rewriter, op.getLoc(), converted, scalar));
    return success();
  }
};

/// ub.poison (a kernel's value that no path defines, e.g. a function's
/// result on a path that returns nothing): LLVM's poison, in every register
/// of a tensor, as Triton lowers it.
struct PoisonLowering : OpConversionPattern<ub::PoisonOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ub::PoisonOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type converted = getTypeConverter()->convertType(op.getType());
    if (!converted)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type) {
      rewriter.replaceOpWithNewOp<LLVM::PoisonOp>(op, converted);
      return success();
    }
    Value scalar = LLVM::PoisonOp::create(rewriter, op.getLoc(),
                                          elementOf(*getTypeConverter(), type));
    rewriter.replaceOp(op, splat(rewriter, op.getLoc(), converted, scalar));
    return success();
  }
};

struct SplatLowering : OpConversionPattern<tt::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type converted = getTypeConverter()->convertType(op.getType());
    if (!converted)
      return failure();
    rewriter.replaceOp(op, splat(rewriter, op.getLoc(), converted, adaptor.getSrc()));
    return success();
  }
};

struct AddPtrLowering : OpConversionPattern<tt::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    auto ptrType = cast<tt::PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = getTypeConverter()->convertType(ptrType.getPointeeType());
    if (!resultType || !pointee)
      return failure();
    // i1 lives in memory as a byte.
    if (pointee.isInteger(1))
      pointee = rewriter.getI8Type();
    Type llvmPtr = getTypeConverter()->convertType(ptrType);
    auto advance = [&](Value ptr, Value offset) -> Value {
      return LLVM::GEPOp::create(rewriter, loc, llvmPtr, pointee, ptr, offset);
    };
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, advance(adaptor.getPtr(), adaptor.getOffset()));
      return success();
    }
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offsets = unpack(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip(ptrs, offsets))
      results.push_back(advance(ptr, offset));
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, results));
    return success();
  }
};

/// Register r of this thread holds start + L(r, lane, warp)[0].
struct MakeRangeLowering : OpConversionPattern<tt::MakeRangeOp> {
  MakeRangeLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::MakeRangeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type converted = getTypeConverter()->convertType(op.getType());
    if (!converted)
      return failure();
    Value start = i32Constant(rewriter, loc, op.getStart());
    SmallVector<Value> values;
    for (const SmallVector<Value> &coords :
         registerCoordinates(rewriter, loc, globalLayoutOf(op.getType()), ctx))
      values.push_back(LLVM::AddOp::create(rewriter, loc, start, coords[0]));
    rewriter.replaceOp(op, pack(rewriter, loc, converted, values));
    return success();
  }
  const Context &ctx;
};

/// The scalar region inlined once per group of `pack` consecutive
/// registers of this thread (each operand's group, in order, are its
/// arguments); its cloned ops are legalised like any other.
struct MapElementwiseLowering : OpConversionPattern<tt::MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::MapElementwiseOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Region &region = op.getScalarOp();
    if (!region.hasOneBlock())
      return op.emitError() << "op 'tt.map_elementwise' cannot be lowered to LLVM: its region "
                               "has more than one block";
    Block &body = region.front();
    unsigned group = op.getPack();
    SmallVector<SmallVector<Value>> inputs;
    for (Value operand : adaptor.getSrcs())
      inputs.push_back(unpack(rewriter, loc, operand));
    SmallVector<Type> resultStructs;
    for (Type t : op.getResultTypes()) {
      Type converted = getTypeConverter()->convertType(t);
      if (!converted)
        return failure();
      resultStructs.push_back(converted);
    }
    size_t numRegs = inputs.empty() ? 0 : inputs[0].size();
    if (numRegs % group)
      return op.emitError() << "op 'tt.map_elementwise' cannot be lowered to LLVM: a thread's "
                            << numRegs << " registers do not group by pack " << group;
    // A value the region sees in its own type (fp8 and pointers differ from
    // their LLVM forms): the framework resolves the casts as it converts.
    auto as = [&](Value v, Type type) {
      return v.getType() == type
                 ? v
                 : UnrealizedConversionCastOp::create(rewriter, loc, type, v).getResult(0);
    };
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t first = 0; first < numRegs; first += group) {
      IRMapping map;
      unsigned arg = 0;
      for (const SmallVector<Value> &input : inputs)
        for (unsigned i = 0; i < group; ++i, ++arg)
          map.map(body.getArgument(arg), as(input[first + i], body.getArgument(arg).getType()));
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, map);
      auto yielded = body.getTerminator()->getOperands();
      for (auto [r, structType] : llvm::enumerate(resultStructs)) {
        Type elem = cast<LLVM::LLVMStructType>(structType).getBody()[0];
        for (unsigned i = 0; i < group; ++i)
          results[r].push_back(as(map.lookupOrDefault(yielded[r * group + i]), elem));
      }
    }
    SmallVector<Value> packed;
    for (auto [type, values] : llvm::zip(resultStructs, results))
      packed.push_back(pack(rewriter, loc, type, values));
    rewriter.replaceOp(op, packed);
    return success();
  }
};

} // namespace

void populateElementwisePatterns(TypeConverter &converter, const Context &ctx,
                                 RewritePatternSet &patterns) {
  MLIRContext *mctx = &converter.getContext();
  patterns.add<ElementwiseLowering>(converter);
  patterns.add<SplatConstantLowering, PoisonLowering, SplatLowering, AddPtrLowering,
               MapElementwiseLowering>(
      converter, mctx);
  patterns.add<MakeRangeLowering>(converter, ctx);
}

} // namespace kiln::lowering
