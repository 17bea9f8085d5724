//===- RewriteTensorPointer.cpp - the ttir-rewrite-tensor-pointer pass ----===//
//
// Replaces block pointers (tt.make_tensor_ptr, tt.advance, and tt.load /
// tt.store through them) by tensors of pointers with masks, as Triton 3.6's
// triton-rewrite-tensor-pointer does. A block pointer value becomes its parts
// (base, shape, strides, offsets) through a 1:N type conversion, so that it
// can cross scf.for / scf.if / scf.while, selects and calls; parts that a
// loop does not change are dropped again by the canonicalizer that follows.
//
//===----------------------------------------------------------------------===//
#include "BlockAddressing.h"

#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONREWRITETENSORPOINTER
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;
using namespace kiln::tt;

namespace {

RankedTensorType blockTypeOf(Type blockPtr) {
  return cast<RankedTensorType>(cast<PointerType>(blockPtr).getPointeeType());
}

/// The parts of a converted block pointer: the base pointer, then `rank`
/// i64 each of shape, strides and offsets (offsets are i32 in the IR and
/// widened, as Triton does).
struct BlockPtrParts {
  Value base;
  ValueRange shape, strides, offsets;

  BlockPtrParts(ValueRange parts, unsigned rank)
      : base(parts[0]), shape(parts.slice(1, rank)), strides(parts.slice(1 + rank, rank)),
        offsets(parts.slice(1 + 2 * rank, rank)) {}

  static SmallVector<Value> pack(Value base, ValueRange shape, ValueRange strides,
                                 ValueRange offsets) {
    SmallVector<Value> parts{base};
    llvm::append_range(parts, shape);
    llvm::append_range(parts, strides);
    llvm::append_range(parts, offsets);
    return parts;
  }

  /// The i64 coordinates of the block along each dimension.
  SmallVector<Value> coordinates(OpBuilder &b, Location loc, ArrayRef<int64_t> block) const {
    SmallVector<Value> coords;
    for (unsigned d = 0; d < block.size(); ++d)
      coords.push_back(blockCoordinates(b, loc, block, offsets[d], d));
    return coords;
  }
};

struct RewriteMakeTensorPtr : OpConversionPattern<MakeTensorPtrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(MakeTensorPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> offsets;
    for (Value offset : adaptor.getOffsets())
      offsets.push_back(toI64(rewriter, op.getLoc(), offset));
    rewriter.replaceOpWithMultiple(
        op, {BlockPtrParts::pack(adaptor.getBase(), adaptor.getShape(), adaptor.getStrides(),
                                 offsets)});
    return success();
  }
};

struct RewriteAdvance : OpConversionPattern<AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(AdvanceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    BlockPtrParts ptr(adaptor.getPtr(), blockTypeOf(op.getType()).getRank());
    SmallVector<Value> offsets;
    for (auto [old, delta] : llvm::zip_equal(ptr.offsets, adaptor.getOffsets()))
      offsets.push_back(arith::AddIOp::create(rewriter, op.getLoc(), old,
                                              toI64(rewriter, op.getLoc(), delta.front())));
    rewriter.replaceOpWithMultiple(
        op, {BlockPtrParts::pack(ptr.base, ptr.shape, ptr.strides, offsets)});
    return success();
  }
};

SmallVector<unsigned> checkedDims(ArrayRef<int32_t> boundaryCheck) {
  return llvm::map_to_vector(boundaryCheck, [](int32_t d) { return unsigned(d); });
}

/// What out-of-bounds elements of a masked load read: Triton's padding
/// option, or nothing (undefined) without one.
Value paddingValue(OpBuilder &b, Location loc, RankedTensorType type,
                   std::optional<PaddingOption> padding) {
  if (!padding)
    return {};
  Type elem = type.getElementType();
  TypedAttr value = b.getZeroAttr(elem);
  if (*padding == PaddingOption::PAD_NAN)
    value = b.getFloatAttr(elem, APFloat::getNaN(cast<FloatType>(elem).getFloatSemantics()));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
}

struct RewriteBlockLoad : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isTensorPointerType(op.getPtr().getType()))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = blockTypeOf(op.getPtr().getType());
    BlockPtrParts ptr(adaptor.getPtr(), type.getRank());
    SmallVector<Value> coords = ptr.coordinates(rewriter, loc, type.getShape());
    Value ptrs = blockPointers(rewriter, loc, type.getShape(), ptr.base, ptr.strides, coords);
    Value mask = blockMask(rewriter, loc, type.getShape(), ptr.shape, coords,
                           checkedDims(op.getBoundaryCheck()));
    Value other = mask ? paddingValue(rewriter, loc, type, op.getPadding()) : Value();
    rewriter.replaceOpWithNewOp<LoadOp>(op, type, ptrs, mask, other,
                                        /*boundaryCheck=*/ArrayRef<int32_t>{},
                                        /*padding=*/nullptr, op.getCache(), op.getEvict(),
                                        op.getIsVolatile());
    return success();
  }
};

struct RewriteBlockStore : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isTensorPointerType(op.getPtr().getType()))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = blockTypeOf(op.getPtr().getType());
    BlockPtrParts ptr(adaptor.getPtr(), type.getRank());
    SmallVector<Value> coords = ptr.coordinates(rewriter, loc, type.getShape());
    Value ptrs = blockPointers(rewriter, loc, type.getShape(), ptr.base, ptr.strides, coords);
    Value mask = blockMask(rewriter, loc, type.getShape(), ptr.shape, coords,
                           checkedDims(op.getBoundaryCheck()));
    rewriter.replaceOpWithNewOp<StoreOp>(op, ptrs, adaptor.getValue().front(), mask,
                                         /*boundaryCheck=*/ArrayRef<int32_t>{}, op.getCache(),
                                         op.getEvict());
    return success();
  }
};

struct TritonRewriteTensorPointer
    : public kiln::tt::impl::TritonRewriteTensorPointerBase<TritonRewriteTensorPointer> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto isBlockPtr = [](Type t) { return isTensorPointerType(t); };
    auto isHandled = [](Operation *op) {
      return isa<MakeTensorPtrOp, AdvanceOp, LoadOp, StoreOp, FuncOp, CallOp, ReturnOp,
                 arith::SelectOp, scf::ForOp, scf::IfOp, scf::WhileOp, scf::YieldOp,
                 scf::ConditionOp>(op);
    };
    if (failed(checkHandled(getOperation(), isBlockPtr, isHandled, "block pointer",
                            getArgument())))
      return signalPassFailure();

    TypeConverter converter;
    converter.addConversion([](Type t) { return t; });
    converter.addConversion(
        [](PointerType t, SmallVectorImpl<Type> &parts) -> std::optional<LogicalResult> {
          auto block = dyn_cast<RankedTensorType>(t.getPointeeType());
          if (!block)
            return std::nullopt;
          parts.push_back(PointerType::get(block.getElementType(), t.getAddressSpace()));
          parts.append(3 * block.getRank(), IntegerType::get(t.getContext(), 64));
          return success();
        });

    ConversionTarget target(*ctx);
    target.addIllegalOp<MakeTensorPtrOp, AdvanceOp>();
    target.addDynamicallyLegalOp<LoadOp, StoreOp>(
        [](Operation *op) { return !isTensorPointerType(op->getOperand(0).getType()); });
    RewritePatternSet patterns(ctx);
    patterns.add<RewriteMakeTensorPtr, RewriteAdvance, RewriteBlockLoad, RewriteBlockStore>(
        converter, ctx);
    populateCarrierConversions(converter, patterns, target);
    // Values whose users are not converted yet get unrealized casts, which
    // disappear once every user is; none survives a successful conversion.
    ConversionConfig config;
    config.buildMaterializations = false;
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
