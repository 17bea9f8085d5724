//===- BlockAddressing.cpp - block accesses as tensors of pointers --------===//
#include "BlockAddressing.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

using namespace mlir;

namespace kiln::tt {

Value toI64(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isInteger(64))
    return value;
  return arith::ExtSIOp::create(b, loc, b.getI64Type(), value);
}

/// Inserts unit dimensions around a 1-D `row` so that it lies along `dim`.
static Value expandAround(OpBuilder &b, Location loc, Value row, unsigned rank, unsigned dim) {
  for (unsigned j = 0; j < rank; ++j) {
    if (j == dim)
      continue;
    auto type = cast<RankedTensorType>(row.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.begin() + j, 1);
    row = ExpandDimsOp::create(b, loc, type.clone(shape), row, j);
  }
  return row;
}

Value blockCoordinates(OpBuilder &b, Location loc, ArrayRef<int64_t> block, Value offset,
                       unsigned dim) {
  auto i32Row = RankedTensorType::get({block[dim]}, b.getI32Type());
  auto i64Row = RankedTensorType::get({block[dim]}, b.getI64Type());
  Value range = MakeRangeOp::create(b, loc, i32Row, 0, block[dim]);
  Value start = SplatOp::create(b, loc, i64Row, offset);
  Value row = arith::AddIOp::create(b, loc, start, arith::ExtSIOp::create(b, loc, i64Row, range));
  return expandAround(b, loc, row, block.size(), dim);
}

Value alongDimension(OpBuilder &b, Location loc, ArrayRef<int64_t> block, Value coords,
                     unsigned dim) {
  auto rowType = cast<RankedTensorType>(coords.getType());
  Value row = arith::ExtSIOp::create(b, loc, rowType.clone(b.getI64Type()), coords);
  return expandAround(b, loc, row, block.size(), dim);
}

/// `value` broadcast to `type`, or `value` itself when it already has it.
static Value broadcastTo(OpBuilder &b, Location loc, Value value, RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return BroadcastOp::create(b, loc, type, value);
}

Value blockPointers(OpBuilder &b, Location loc, ArrayRef<int64_t> block, Value base,
                    ValueRange strides, ArrayRef<Value> coords) {
  auto offsetType = RankedTensorType::get(block, b.getI64Type());
  auto ptrsType = RankedTensorType::get(block, base.getType());
  Value ptrs = SplatOp::create(b, loc, ptrsType, base);
  for (auto [coord, stride] : llvm::zip_equal(coords, strides)) {
    Value splatStride = SplatOp::create(b, loc, coord.getType(), stride);
    Value scaled = arith::MulIOp::create(b, loc, coord, splatStride);
    ptrs = AddPtrOp::create(b, loc, ptrsType, ptrs, broadcastTo(b, loc, scaled, offsetType));
  }
  return ptrs;
}

Value blockMask(OpBuilder &b, Location loc, ArrayRef<int64_t> block, ValueRange shape,
                ArrayRef<Value> coords, ArrayRef<unsigned> dims) {
  auto maskType = RankedTensorType::get(block, b.getI1Type());
  Value mask;
  for (unsigned d : dims) {
    Value coord = coords[d];
    Value zero = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(cast<ShapedType>(coord.getType()), b.getI64IntegerAttr(0)));
    Value bound = SplatOp::create(b, loc, coord.getType(), shape[d]);
    Value above = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, coord, zero);
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, coord, bound);
    Value inside = broadcastTo(b, loc, arith::AndIOp::create(b, loc, above, below), maskType);
    mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult() : inside;
  }
  return mask;
}

namespace {

/// The converted types of `types`, and how many each became.
LogicalResult convertCounted(const TypeConverter &converter, TypeRange types,
                             SmallVectorImpl<Type> &out, SmallVectorImpl<unsigned> &counts) {
  for (Type t : types) {
    size_t before = out.size();
    if (failed(converter.convertType(t, out)))
      return failure();
    counts.push_back(out.size() - before);
  }
  return success();
}

SmallVector<SmallVector<Value>> groupValues(ValueRange values, ArrayRef<unsigned> counts) {
  SmallVector<SmallVector<Value>> groups;
  unsigned at = 0;
  for (unsigned n : counts) {
    groups.emplace_back(values.begin() + at, values.begin() + at + n);
    at += n;
  }
  return groups;
}

SmallVector<Value> flatten(ArrayRef<ValueRange> ranges) {
  SmallVector<Value> out;
  for (ValueRange r : ranges)
    llvm::append_range(out, r);
  return out;
}

/// A tt.func whose arguments or results are converted: the entry block gets
/// one argument per converted value. Attributes of an argument that stays
/// one value stay with it; the parts of a split argument get none.
struct ConvertFuncSignature : OpConversionPattern<FuncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(FuncOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    SmallVector<DictionaryAttr> argAttrs;
    bool hadArgAttrs = static_cast<bool>(op.getAllArgAttrs());
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      SmallVector<Type> parts;
      if (failed(getTypeConverter()->convertType(input, parts)))
        return failure();
      signature.addInputs(i, parts);
      bool unchanged = parts.size() == 1 && parts[0] == input;
      for (size_t p = 0; p < parts.size(); ++p)
        argAttrs.push_back(unchanged && hadArgAttrs ? op.getArgAttrDict(i)
                                                    : rewriter.getDictionaryAttr({}));
    }
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(type.getResults(), results)))
      return failure();
    if (!op.isExternal() &&
        failed(rewriter.convertRegionTypes(&op.getBody(), *getTypeConverter(), &signature)))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setType(FunctionType::get(op.getContext(), signature.getConvertedTypes(), results));
      if (hadArgAttrs)
        op.setAllArgAttrs(argAttrs);
      if (results.size() != type.getNumResults())
        op.removeResAttrsAttr();
    });
    return success();
  }
};

struct ConvertCall : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(CallOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    SmallVector<unsigned> counts;
    if (failed(convertCounted(*getTypeConverter(), op.getResultTypes(), results, counts)))
      return failure();
    auto call = CallOp::create(rewriter, op.getLoc(), results, op.getCalleeAttr(),
                               flatten(adaptor.getOperands()), /*arg_attrs=*/nullptr,
                               /*res_attrs=*/nullptr);
    rewriter.replaceOpWithMultiple(op, groupValues(call.getResults(), counts));
    return success();
  }
};

struct ConvertReturn : OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(ReturnOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ReturnOp>(op, flatten(adaptor.getOperands()));
    return success();
  }
};

/// A select between two converted values selects each of their parts.
struct ConvertSelect : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(arith::SelectOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getCondition().size() != 1 ||
        adaptor.getTrueValue().size() != adaptor.getFalseValue().size())
      return failure();
    SmallVector<Value> parts;
    for (auto [t, f] : llvm::zip_equal(adaptor.getTrueValue(), adaptor.getFalseValue()))
      parts.push_back(
          arith::SelectOp::create(rewriter, op.getLoc(), adaptor.getCondition().front(), t, f));
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

} // namespace

void populateCarrierConversions(const TypeConverter &converter, RewritePatternSet &patterns,
                                ConversionTarget &target) {
  MLIRContext *ctx = patterns.getContext();
  // The ops the patterns create (arith, tt) must count as legal; checkHandled
  // has made sure no other op touches a converted type.
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  patterns.add<ConvertFuncSignature, ConvertCall, ConvertReturn, ConvertSelect>(converter, ctx);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
  target.addDynamicallyLegalOp<FuncOp>([&converter](FuncOp op) {
    return converter.isSignatureLegal(op.getFunctionType()) && converter.isLegal(&op.getBody());
  });
  target.addDynamicallyLegalOp<CallOp, ReturnOp, arith::SelectOp>(
      [&converter](Operation *op) { return converter.isLegal(op); });
}

LogicalResult checkHandled(Operation *root, function_ref<bool(Type)> isConverted,
                           function_ref<bool(Operation *)> isHandled, StringRef what,
                           StringRef passName) {
  bool ok = true;
  root->walk([&](Operation *op) {
    bool touches = llvm::any_of(op->getOperandTypes(), isConverted) ||
                   llvm::any_of(op->getResultTypes(), isConverted);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        touches |= llvm::any_of(block.getArgumentTypes(), isConverted);
    if (touches && !isHandled(op)) {
      op->emitError() << "'" << op->getName() << "' uses a " << what << ", which " << passName
                      << " cannot rewrite";
      ok = false;
    }
  });
  return success(ok);
}

} // namespace kiln::tt
