//===- GatherOpToLLVM.cpp - tt.gather through shared memory ---------------===//
//
// The source tensor goes to the op's scratch in row-major order
// (gatherScratchLayout, vector stores where the source layout allows),
// then, after a barrier, every result register loads the element whose
// coordinates are its own with the gather axis replaced by its index.
// Correct for any source and index layouts. (Triton also has a warp-shuffle
// path for gathers that stay inside a warp; not here yet.)
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"

#include "kiln/Analysis/ConvertLayoutPlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {
namespace {

struct GatherLowering : OpConversionPattern<tt::GatherOp> {
  GatherLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    RankedTensorType srcType = op.getSrc().getType();
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned axis = op.getAxis();
    LinearLayout scratch = gatherScratchLayout(shape);
    unsigned maxVector = std::max(1u, 128 / sharedElementBits(srcType.getElementType()));
    FailureOr<SharedAccessPlan> stores =
        planSharedAccess(layoutOf(srcType), scratch, maxVector);
    if (failed(stores))
      return op.emitError() << "internal error: the gather scratch misses an element";
    FailureOr<Value> base = sharedMemoryBase(rewriter, loc, op);
    if (failed(base))
      return failure();
    SmallVector<Value> src = unpack(rewriter, loc, adaptor.getSrc());
    Type elemType = src.front().getType();
    storeShared(rewriter, loc, *base, threadOffset(rewriter, loc, ctx, *stores), *stores, 0, src,
                elemType);
    ctx.target.barrier(rewriter, loc);

    // Row-major strides of the scratch.
    SmallVector<int64_t> strides(shape.size(), 1);
    for (unsigned d = shape.size() - 1; d-- > 0;)
      strides[d] = strides[d + 1] * shape[d + 1];
    SmallVector<Value> indices = unpack(rewriter, loc, adaptor.getIndices());
    SmallVector<SmallVector<Value>> coords =
        registerCoordinates(rewriter, loc, layoutOf(op.getType()), ctx);
    SmallVector<Value> results;
    Type i32 = rewriter.getI32Type();
    for (auto [reg, index] : llvm::enumerate(indices)) {
      Value idx = index;
      unsigned bits = idx.getType().getIntOrFloatBitWidth();
      if (bits > 32)
        idx = LLVM::TruncOp::create(rewriter, loc, i32, idx);
      else if (bits < 32)
        idx = LLVM::SExtOp::create(rewriter, loc, i32, idx);
      // An index outside the axis is undefined behaviour in Triton; the
      // mask keeps the read inside this op's scratch.
      idx = LLVM::AndOp::create(rewriter, loc, idx, i32Constant(rewriter, loc, shape[axis] - 1));
      Value offset;
      for (unsigned d = 0; d < shape.size(); ++d) {
        Value c = d == axis ? idx : coords[reg][d];
        Value term = strides[d] == 1 ? c
                                     : Value(LLVM::MulOp::create(
                                           rewriter, loc, c, i32Constant(rewriter, loc, strides[d])));
        offset = offset ? Value(LLVM::AddOp::create(rewriter, loc, offset, term)) : term;
      }
      Value v = LLVM::LoadOp::create(rewriter, loc, storedType(elemType),
                                     elementAddress(rewriter, loc, *base, elemType, offset));
      results.push_back(fromStored(rewriter, loc, v, elemType));
    }
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, results));
    return success();
  }

  const Context &ctx;
};

} // namespace

void populateGatherPatterns(TypeConverter &converter, const Context &ctx,
                            RewritePatternSet &patterns) {
  patterns.add<GatherLowering>(converter, ctx);
}

} // namespace kiln::lowering
