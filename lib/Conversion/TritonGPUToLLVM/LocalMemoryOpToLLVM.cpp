//===- LocalMemoryOpToLLVM.cpp - ttg.local_* and memdesc_index ------------===//
//
// A memdesc is lowered to the `!llvm.ptr<3>` of its first element. Copies
// between registers and the buffer go through the shared layout of the
// buffer's encoding (offset -> element): the map from a register to its
// offset is the register layout composed with that layout's inverse (and,
// for a view of part of a buffer, with where the buffer puts the view's
// elements), and consecutive registers at consecutive offsets move in one
// vector access (bufferVectorWidth).
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"
#include "kiln/Layout/MatrixAccess.h"

#include "kiln/Analysis/ConvertLayoutPlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {

namespace {

/// The layout of `shape` under `type`'s encoding, one CTA's tile of it.
FailureOr<LinearLayout> ctaLayoutOf(Operation *op, ttg::MemDescType type,
                                    ArrayRef<int64_t> shape) {
  auto encoding = dyn_cast_or_null<ttg::LayoutEncodingInterface>(type.getEncoding());
  if (!encoding || encoding.getRank() != shape.size())
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: the buffer's encoding must describe "
                              "every dimension of its shape";
  llvm::Expected<LinearLayout> ll = encoding.toLinearLayout(shape);
  if (ll)
    ll = layout::ctaTile(*ll); // each CTA of a cluster holds its tile
  if (!ll)
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: " << llvm::toString(ll.takeError());
  return *ll;
}

/// The shape of the buffer a memdesc views (its trailing alloc dimensions).
ArrayRef<int64_t> bufferShape(ttg::MemDescType type) {
  return type.getAllocShape().take_back(type.getShape().size());
}

SmallVector<std::pair<unsigned, unsigned>> paddingOf(ttg::MemDescType type) {
  if (auto padded = dyn_cast_or_null<ttg::PaddedSharedEncodingAttr>(type.getEncoding()))
    return padded.getPaddingLog2();
  return {};
}

/// One coordinate bit of a view's box (this CTA's part) and the offset the
/// buffer's layout (`inverse`: coordinates -> offset) gives it.
struct BoxBit {
  unsigned dim;
  int32_t value;
  int64_t image;
};

SmallVector<BoxBit> boxBits(const LinearLayout &inverse, ttg::MemDescType view) {
  SmallVector<BoxBit> bits;
  SmallVector<int64_t> box = ttg::ctaShape(view.getShape(), view.getEncoding());
  for (auto [d, extent] : llvm::enumerate(box))
    for (int32_t v = 1; v < extent; v *= 2)
      bits.push_back({unsigned(d), v,
                      component(inverse.apply({{layout::dimName(d), v}}), layout::kOffset)});
  return bits;
}

} // namespace

FailureOr<BufferLayout> bufferLayoutOf(Operation *op, Type memdesc) {
  auto type = cast<ttg::MemDescType>(memdesc);
  BufferLayout result;
  result.padding = paddingOf(type);
  if (type.getShape() == bufferShape(type)) {
    FailureOr<LinearLayout> own = ctaLayoutOf(op, type, type.getShape());
    if (failed(own))
      return failure();
    result.layout = std::move(*own);
    return result;
  }
  // A view of part of the buffer: its elements where the buffer's layout
  // puts them.
  FailureOr<LinearLayout> whole = ctaLayoutOf(op, type, bufferShape(type));
  if (failed(whole))
    return failure();
  std::optional<LinearLayout> inverse = whole->invert();
  if (!inverse)
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: the buffer's layout does not give "
                              "each element one place";
  SmallVector<BoxBit> bits = boxBits(*inverse, type);
  // Where a buffer of the view's shape would put them (a column panel of a
  // wide nvmma_shared buffer, a row block of a row-major one), that layout.
  auto encoding = cast<ttg::LayoutEncodingInterface>(type.getEncoding());
  llvm::Expected<LinearLayout> own = encoding.toLinearLayout(type.getShape());
  if (own)
    own = layout::ctaTile(*own);
  if (!own) {
    llvm::consumeError(own.takeError());
  } else if (std::optional<LinearLayout> ownInverse = own->invert()) {
    if (llvm::all_of(bits, [&](const BoxBit &bit) {
          return component(ownInverse->apply({{layout::dimName(bit.dim), bit.value}}),
                           layout::kOffset) == bit.image;
        })) {
      result.layout = std::move(*own);
      return result;
    }
  }
  // Otherwise the view's coordinate bits, ordered by the lowest offset bit
  // each moves, index a compact offset that `place` spreads out again.
  llvm::stable_sort(bits, [](const BoxBit &a, const BoxBit &b) {
    return llvm::countr_zero(uint64_t(a.image)) < llvm::countr_zero(uint64_t(b.image));
  });
  SmallVector<int64_t> box = ttg::ctaShape(type.getShape(), type.getEncoding());
  std::vector<LinearLayout::Basis> toView, toBuffer;
  for (const BoxBit &bit : bits) {
    LinearLayout::Basis basis(box.size(), 0);
    basis[bit.dim] = bit.value;
    toView.push_back(basis);
    toBuffer.push_back({int32_t(bit.image)});
  }
  std::vector<LinearLayout::DimSize> viewDims;
  for (auto [d, extent] : llvm::enumerate(box))
    viewDims.push_back({layout::dimName(d), int32_t(extent)});
  result.layout = LinearLayout({{std::string(layout::kOffset), toView}}, viewDims, true);
  result.place = LinearLayout(
      {{std::string(layout::kOffset), toBuffer}},
      {{std::string(layout::kOffset), whole->getInDimSize(layout::kOffset)}}, false);
  return result;
}

// Offsets are relative to the source's start (a view's elements lie at the
// buffer's offsets of their coordinates from its start, on whatever view
// of the buffer). XOR and addition agree when the start shares no offset
// bit with the view's elements; so do the pads of #ttg.padded_shared.
FailureOr<int32_t> subsliceStart(Operation *op) {
  auto slice = cast<ttg::MemDescSubsliceOp>(op);
  ttg::MemDescType view = slice.getType();
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op 'ttg.memdesc_subslice' cannot be lowered to LLVM: " << why;
  };
  FailureOr<LinearLayout> whole = ctaLayoutOf(op, view, bufferShape(view));
  if (failed(whole))
    return failure();
  std::optional<LinearLayout> inverse = whole->invert();
  if (!inverse)
    return fail("the buffer's layout does not give each element one place");
  SmallVector<std::pair<StringRef, int32_t>> corner;
  for (auto [name, offset] : llvm::zip(whole->getOutDimNames(), slice.getOffsets()))
    corner.push_back({name, offset});
  int64_t start = component(inverse->apply(corner), layout::kOffset);
  int64_t reached = 0;
  for (const BoxBit &bit : boxBits(*inverse, view))
    reached |= bit.image;
  if (start & reached)
    return fail("the view's start and its elements share offset bits in the buffer's layout "
                "(a swizzle), so its elements cannot be reached from its start");
  int64_t padded = start; // every interval's pads counted on the unpadded offset
  for (auto [interval, padding] : paddingOf(view))
    padded += (start >> interval) << padding;
  return int32_t(padded);
}

namespace {

FailureOr<SharedAccessPlan> planFor(Operation *op, RankedTensorType tensor,
                                    ttg::MemDescType buffer) {
  FailureOr<BufferLayout> shared = bufferLayoutOf(op, buffer);
  if (failed(shared))
    return failure();
  LinearLayout regs = layoutOf(tensor);
  unsigned width =
      bufferVectorWidth(regs, *shared, sharedElementBits(tensor.getElementType()));
  FailureOr<SharedAccessPlan> plan = planBufferAccess(regs, *shared, width);
  if (failed(plan))
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: the buffer does not hold every "
                              "element of the tensor";
  return plan;
}

/// The 8x8-matrix plan of a 16-bit copy between `tensor`'s registers and
/// `plan`'s buffer, where the target has the instruction (`store` or load).
std::optional<layout::MatrixAccessPlan> matrixPlan(const Context &ctx, RankedTensorType tensor,
                                                   const SharedAccessPlan &plan, bool store) {
  Type elem = tensor.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() != 16 || !plan.padding.empty() ||
      !(store ? ctx.target.hasMatrixStore() : ctx.target.hasMatrixLoad()))
    return std::nullopt;
  if (std::optional<layout::MatrixAccessPlan> rows = layout::planMatrixAccess(plan.toShared, false))
    return rows;
  return layout::planMatrixAccess(plan.toShared, true);
}

/// Stores `tensor`'s registers into the buffer at `base`.
LogicalResult storeTensor(OpBuilder &b, Operation *op, const Context &ctx, Value base,
                          RankedTensorType tensor, Value adapted, ttg::MemDescType buffer) {
  FailureOr<SharedAccessPlan> plan = planFor(op, tensor, buffer);
  if (failed(plan))
    return failure();
  Location loc = op->getLoc();
  SmallVector<Value> regs = unpack(b, loc, adapted);
  // Where the registers come as 8x8 matrices of 16-bit rows (a wgmma or
  // mma accumulator converted to 16 bits), four matrices per instruction.
  if (std::optional<layout::MatrixAccessPlan> matrices = matrixPlan(ctx, tensor, *plan, true)) {
    storeMatrices(b, loc, ctx, base, *matrices, regs);
    return success();
  }
  Value off = threadOffset(b, loc, ctx, *plan);
  storeShared(b, loc, base, off, *plan, 0, regs, regs.front().getType());
  return success();
}

struct LocalAllocLowering : OpConversionPattern<ttg::LocalAllocOp> {
  LocalAllocLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::LocalAllocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> base = sharedMemoryBase(rewriter, op.getLoc(), op);
    if (failed(base))
      return failure();
    if (op.getSrc() &&
        failed(storeTensor(rewriter, op, ctx, *base, op.getSrc().getType(), adaptor.getSrc(),
                           op.getType())))
      return failure();
    rewriter.replaceOp(op, *base);
    return success();
  }
  const Context &ctx;
};

struct LocalStoreLowering : OpConversionPattern<ttg::LocalStoreOp> {
  LocalStoreLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::LocalStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (failed(storeTensor(rewriter, op, ctx, adaptor.getDst(), op.getSrc().getType(),
                           adaptor.getSrc(), op.getDst().getType())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct LocalLoadLowering : OpConversionPattern<ttg::LocalLoadOp> {
  LocalLoadLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    FailureOr<SharedAccessPlan> plan = planFor(op, op.getType(), op.getSrc().getType());
    if (failed(plan))
      return failure();
    Location loc = op.getLoc();
    Type elemType = cast<LLVM::LLVMStructType>(resultType).getBody()[0];
    SmallVector<Value> regs(layoutOf(op.getType()).getInDimSize(layout::kRegister));
    // mma.sync operands (16-bit) come as 8x8 matrices: four per ldmatrix.
    if (std::optional<layout::MatrixAccessPlan> matrices =
            matrixPlan(ctx, op.getType(), *plan, false)) {
      loadMatrices(rewriter, loc, ctx, adaptor.getSrc(), elemType, *matrices, regs);
    } else {
      Value off = threadOffset(rewriter, loc, ctx, *plan);
      loadShared(rewriter, loc, adaptor.getSrc(), off, *plan, 0, regs, elemType);
    }
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, regs));
    return success();
  }
  const Context &ctx;
};

struct LocalDeallocLowering : OpConversionPattern<ttg::LocalDeallocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::LocalDeallocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // The allocation pass already ended the buffer's life here.
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexLowering : OpConversionPattern<ttg::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescIndexOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // Buffer `index` starts index * (elements of one buffer) elements in.
    ttg::MemDescType srcType = op.getSrc().getType();
    if (isa<ttg::PaddedSharedEncodingAttr>(srcType.getEncoding()))
      return op->emitError() << "op 'ttg.memdesc_index' cannot be lowered to LLVM: buffers of "
                                "a #ttg.padded_shared layout are not indexed yet";
    // (of this CTA's tile, in a program of several).
    SmallVector<int64_t> tile = ttg::ctaShape(srcType.getShape(), srcType.getEncoding());
    int64_t stride = 1;
    for (int64_t d : ArrayRef<int64_t>(tile).drop_front())
      stride *= d;
    Location loc = op.getLoc();
    Value elements = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                         i32Constant(rewriter, loc, stride));
    Type elemType = getTypeConverter()->convertType(srcType.getElementType());
    rewriter.replaceOp(op, elementAddress(rewriter, loc, adaptor.getSrc(), elemType, elements));
    return success();
  }
};

/// A box of a buffer: the address of its first element (see
/// subsliceStart).
struct MemDescSubsliceLowering : OpConversionPattern<ttg::MemDescSubsliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::MemDescSubsliceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<int32_t> start = subsliceStart(op);
    if (failed(start))
      return failure();
    Type elemType = getTypeConverter()->convertType(op.getSrc().getType().getElementType());
    rewriter.replaceOp(op, elementAddress(rewriter, op.getLoc(), adaptor.getSrc(), elemType,
                                          i32Constant(rewriter, op.getLoc(), *start)));
    return success();
  }
};

/// Views that read the same bytes from the same address, through their
/// type's layout: a transposed view, a reinterpreted one.
template <typename View>
struct SameAddressViewLowering : OpConversionPattern<View> {
  using OpConversionPattern<View>::OpConversionPattern;
  LogicalResult matchAndRewrite(View op, typename View::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

} // namespace

void populateLocalMemoryPatterns(TypeConverter &converter, const Context &ctx,
                                 RewritePatternSet &patterns) {
  patterns.add<LocalAllocLowering, LocalStoreLowering, LocalLoadLowering>(converter, ctx);
  patterns.add<LocalDeallocLowering, MemDescIndexLowering, MemDescSubsliceLowering,
               SameAddressViewLowering<ttg::MemDescTransOp>,
               SameAddressViewLowering<ttg::MemDescReinterpretOp>>(converter,
                                                                    &converter.getContext());
}

} // namespace kiln::lowering
