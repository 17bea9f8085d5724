//===- RewriteTensorDescriptorToPointer.cpp - descriptors as pointers -----===//
//
// The ttir-rewrite-tensor-descriptor-to-pointer pass: on targets without TMA,
// tensor descriptors become a base pointer with i64 shape and strides and an
// i1 "pads with NaN", and the descriptor ops become masked loads, stores and
// atomics on tensors of pointers, as Triton 3.6's
// triton-rewrite-tensor-descriptor-to-pointer does.
//
//===----------------------------------------------------------------------===//
#include "BlockAddressing.h"

#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONREWRITETENSORDESCRIPTORTOPOINTER
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;
using namespace kiln::tt;

namespace {

/// The parts of a converted descriptor: base, `rank` i64 shape values,
/// `rank` i64 strides, then the i1 padding-is-NaN flag.
struct DescParts {
  Value base;
  ValueRange shape, strides;
  Value padNan;

  DescParts(ValueRange parts, unsigned rank)
      : base(parts[0]), shape(parts.slice(1, rank)), strides(parts.slice(1 + rank, rank)),
        padNan(parts[1 + 2 * rank]) {}
};

unsigned rankOf(Value desc) {
  return cast<TensorDescType>(desc.getType()).getBlockType().getRank();
}

SmallVector<unsigned> allDims(unsigned rank) {
  return llvm::to_vector(llvm::seq<unsigned>(0, rank));
}

/// The coordinates of a block starting at `indices` (one i32 per dimension).
SmallVector<Value> tileCoordinates(OpBuilder &b, Location loc, ArrayRef<int64_t> block,
                                   ValueRange indices) {
  SmallVector<Value> coords;
  for (auto [d, index] : llvm::enumerate(indices))
    coords.push_back(blockCoordinates(b, loc, block, toI64(b, loc, index), d));
  return coords;
}

/// Rows `xOffsets`, columns `yOffset + range`: the block of a gather/scatter.
SmallVector<Value> gatherCoordinates(OpBuilder &b, Location loc, ArrayRef<int64_t> block,
                                     Value xOffsets, Value yOffset) {
  return {alongDimension(b, loc, block, xOffsets, 0),
          blockCoordinates(b, loc, block, toI64(b, loc, yOffset), 1)};
}

/// Zero, or for a float block NaN when the descriptor pads with NaN.
Value paddingValue(OpBuilder &b, Location loc, RankedTensorType type, Value padNan) {
  Type elem = type.getElementType();
  Value zero = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, b.getZeroAttr(elem)));
  auto floatType = dyn_cast<FloatType>(elem);
  if (!floatType)
    return zero;
  Value nan = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getFloatAttr(elem, APFloat::getNaN(
                                                            floatType.getFloatSemantics()))));
  return arith::SelectOp::create(b, loc, padNan, nan, zero);
}

/// `value` reshaped to `type` when it has another shape (rank-reduced
/// descriptor loads and stores keep the element count).
Value reshapeTo(OpBuilder &b, Location loc, Value value, RankedTensorType type) {
  if (value.getType() == type)
    return value;
  return ReshapeOp::create(b, loc, type, value, /*allow_reorder=*/false,
                           /*efficient_layout=*/false);
}

struct RewriteMakeTensorDesc : OpConversionPattern<MakeTensorDescOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(MakeTensorDescOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> parts{adaptor.getBase()};
    for (Value dim : adaptor.getShape())
      parts.push_back(toI64(rewriter, loc, dim));
    llvm::append_range(parts, adaptor.getStrides());
    parts.push_back(arith::ConstantOp::create(
        rewriter, loc, rewriter.getBoolAttr(op.getPadding() == PaddingOption::PAD_NAN)));
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

struct RewriteDescLoad : OpConversionPattern<DescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType block = op.getDesc().getType().getSignlessBlockType();
    DescParts desc(adaptor.getDesc(), block.getRank());
    SmallVector<Value> coords =
        tileCoordinates(rewriter, loc, block.getShape(), flattenIndices(adaptor));
    Value ptrs = blockPointers(rewriter, loc, block.getShape(), desc.base, desc.strides, coords);
    Value mask =
        blockMask(rewriter, loc, block.getShape(), desc.shape, coords, allDims(block.getRank()));
    Value loaded = LoadOp::create(rewriter, loc, block, ptrs, mask,
                                  paddingValue(rewriter, loc, block, desc.padNan),
                                  /*boundaryCheck=*/ArrayRef<int32_t>{}, /*padding=*/nullptr,
                                  op.getCache(), op.getEvict(), /*isVolatile=*/false);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, loaded, op.getType()));
    return success();
  }

  static SmallVector<Value> flattenIndices(OneToNOpAdaptor adaptor) {
    return llvm::map_to_vector(adaptor.getIndices(), [](ValueRange r) { return r.front(); });
  }
};

struct RewriteDescStore : OpConversionPattern<DescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType block = op.getDesc().getType().getSignlessBlockType();
    DescParts desc(adaptor.getDesc(), block.getRank());
    SmallVector<Value> indices =
        llvm::map_to_vector(adaptor.getIndices(), [](ValueRange r) { return r.front(); });
    SmallVector<Value> coords = tileCoordinates(rewriter, loc, block.getShape(), indices);
    Value ptrs = blockPointers(rewriter, loc, block.getShape(), desc.base, desc.strides, coords);
    Value mask =
        blockMask(rewriter, loc, block.getShape(), desc.shape, coords, allDims(block.getRank()));
    Value src = reshapeTo(rewriter, loc, adaptor.getSrc().front(), block);
    rewriter.replaceOpWithNewOp<StoreOp>(op, ptrs, src, mask,
                                         /*boundaryCheck=*/ArrayRef<int32_t>{},
                                         CacheModifier::NONE, EvictionPolicy::NORMAL);
    return success();
  }
};

struct RewriteDescGather : OpConversionPattern<DescriptorGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorGatherOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    DescParts desc(adaptor.getDesc(), 2);
    SmallVector<Value> coords =
        gatherCoordinates(rewriter, loc, type.getShape(), adaptor.getXOffsets().front(),
                          adaptor.getYOffset().front());
    Value ptrs = blockPointers(rewriter, loc, type.getShape(), desc.base, desc.strides, coords);
    Value mask = blockMask(rewriter, loc, type.getShape(), desc.shape, coords, allDims(2));
    rewriter.replaceOpWithNewOp<LoadOp>(op, ptrs, mask,
                                        paddingValue(rewriter, loc, type, desc.padNan));
    return success();
  }
};

struct RewriteDescScatter : OpConversionPattern<DescriptorScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorScatterOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    DescParts desc(adaptor.getDesc(), 2);
    SmallVector<Value> coords =
        gatherCoordinates(rewriter, loc, type.getShape(), adaptor.getXOffsets().front(),
                          adaptor.getYOffset().front());
    Value ptrs = blockPointers(rewriter, loc, type.getShape(), desc.base, desc.strides, coords);
    Value mask = blockMask(rewriter, loc, type.getShape(), desc.shape, coords, allDims(2));
    rewriter.replaceOpWithNewOp<StoreOp>(op, ptrs, adaptor.getSrc().front(), mask,
                                         /*boundaryCheck=*/ArrayRef<int32_t>{},
                                         CacheModifier::NONE, EvictionPolicy::NORMAL);
    return success();
  }
};

/// The pointer atomic of a descriptor reduction, if there is one. Signless
/// integers count as signed (Triton's frontend types signed blocks signless).
std::optional<RMWOp> atomicFor(DescriptorReduceKind kind, Type elem) {
  bool isFloat = isa<FloatType>(elem);
  switch (kind) {
  case DescriptorReduceKind::ADD:
    return isFloat ? RMWOp::FADD : RMWOp::ADD;
  case DescriptorReduceKind::AND:
    return isFloat ? std::nullopt : std::optional(RMWOp::AND);
  case DescriptorReduceKind::OR:
    return isFloat ? std::nullopt : std::optional(RMWOp::OR);
  case DescriptorReduceKind::XOR:
    return isFloat ? std::nullopt : std::optional(RMWOp::XOR);
  case DescriptorReduceKind::MIN:
    if (isFloat)
      return std::nullopt;
    return elem.isUnsignedInteger() ? RMWOp::UMIN : RMWOp::MIN;
  case DescriptorReduceKind::MAX:
    if (isFloat)
      return std::nullopt;
    return elem.isUnsignedInteger() ? RMWOp::UMAX : RMWOp::MAX;
  default:
    return std::nullopt;
  }
}

struct RewriteDescReduce : OpConversionPattern<DescriptorReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult matchAndRewrite(DescriptorReduceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TensorDescType descType = op.getDesc().getType();
    std::optional<RMWOp> atomic =
        atomicFor(op.getKind(), descType.getBlockType().getElementType());
    if (!atomic)
      return rewriter.notifyMatchFailure(op, "no pointer atomic for this reduction");
    RankedTensorType block = descType.getSignlessBlockType();
    DescParts desc(adaptor.getDesc(), block.getRank());
    SmallVector<Value> indices =
        llvm::map_to_vector(adaptor.getIndices(), [](ValueRange r) { return r.front(); });
    SmallVector<Value> coords = tileCoordinates(rewriter, loc, block.getShape(), indices);
    Value ptrs = blockPointers(rewriter, loc, block.getShape(), desc.base, desc.strides, coords);
    Value mask =
        blockMask(rewriter, loc, block.getShape(), desc.shape, coords, allDims(block.getRank()));
    Value src = reshapeTo(rewriter, loc, adaptor.getSrc().front(), block);
    AtomicRMWOp::create(rewriter, loc, block, *atomic, ptrs, src, mask, MemSemantic::RELEASE,
                        MemSyncScope::GPU);
    rewriter.eraseOp(op);
    return success();
  }
};

struct TritonRewriteTensorDescriptorToPointer
    : public kiln::tt::impl::TritonRewriteTensorDescriptorToPointerBase<
          TritonRewriteTensorDescriptorToPointer> {
  /// Reports, before anything changes, each reduction no atomic can do.
  LogicalResult checkReductions() {
    bool ok = true;
    getOperation()->walk([&](DescriptorReduceOp op) {
      Type elem = op.getDesc().getType().getBlockType().getElementType();
      if (atomicFor(op.getKind(), elem))
        return;
      op.emitError() << "no pointer atomic implements a '"
                     << stringifyDescriptorReduceKind(op.getKind()) << "' reduction of " << elem
                     << " (needed on targets without TMA)";
      ok = false;
    });
    return success(ok);
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto isDesc = [](Type t) { return isa<TensorDescType>(t); };
    auto isHandled = [](Operation *op) {
      return isa<MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp, DescriptorGatherOp,
                 DescriptorScatterOp, DescriptorReduceOp, FuncOp, CallOp, ReturnOp,
                 arith::SelectOp, scf::ForOp, scf::IfOp, scf::WhileOp, scf::YieldOp,
                 scf::ConditionOp>(op);
    };
    if (failed(checkHandled(getOperation(), isDesc, isHandled, "tensor descriptor",
                            getArgument())) ||
        failed(checkReductions()))
      return signalPassFailure();

    TypeConverter converter;
    converter.addConversion([](Type t) { return t; });
    converter.addConversion([](TensorDescType t, SmallVectorImpl<Type> &parts) {
      RankedTensorType block = t.getSignlessBlockType();
      parts.push_back(PointerType::get(block.getElementType(), /*addressSpace=*/1));
      parts.append(2 * block.getRank(), IntegerType::get(t.getContext(), 64));
      parts.push_back(IntegerType::get(t.getContext(), 1));
      return success();
    });

    ConversionTarget target(*ctx);
    target.addIllegalOp<MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp,
                        DescriptorGatherOp, DescriptorScatterOp, DescriptorReduceOp>();
    RewritePatternSet patterns(ctx);
    patterns.add<RewriteMakeTensorDesc, RewriteDescLoad, RewriteDescStore, RewriteDescGather,
                 RewriteDescScatter, RewriteDescReduce>(converter, ctx);
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
