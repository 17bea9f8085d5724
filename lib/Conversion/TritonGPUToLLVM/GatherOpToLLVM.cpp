//===- GatherOpToLLVM.cpp - tt.gather -------------------------------------===//
//
// Follows planGather (kiln/Analysis/ConvertLayoutPlan.h). A warp-local
// gather reads the source with warp shuffles: for each result register the
// map gives the source register and lane from the thread's ids and the
// index value; all lanes of a shuffle send the same register, so each
// candidate register is one shuffle and a select keeps the right one.
// Otherwise the source tensor goes to the op's scratch in row-major order
// (vector stores where the source layout allows), then, after a barrier,
// every result register loads the element whose coordinates are its own
// with the gather axis replaced by its index.
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
    GatherPlan plan = planGather(srcType, op.getIndices().getType(), axis);
    if (plan.shuffles) {
      SmallVector<Value> src = unpack(rewriter, loc, adaptor.getSrc());
      SmallVector<Value> indices = unpack(rewriter, loc, adaptor.getIndices());
      rewriter.replaceOp(op, pack(rewriter, loc, resultType,
                                  shuffleGather(rewriter, loc, plan, src, indices)));
      return success();
    }
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
    for (auto [reg, index] : llvm::enumerate(indices)) {
      Value idx = asI32(rewriter, loc, index);
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

private:
  static Value asI32(OpBuilder &b, Location loc, Value index) {
    Type i32 = b.getI32Type();
    unsigned bits = index.getType().getIntOrFloatBitWidth();
    if (bits > 32)
      return LLVM::TruncOp::create(b, loc, i32, index);
    if (bits < 32)
      return LLVM::SExtOp::create(b, loc, i32, index);
    return index;
  }

  SmallVector<Value> shuffleGather(OpBuilder &b, Location loc, const GatherPlan &plan,
                                   ArrayRef<Value> src, ArrayRef<Value> indices) const {
    const LinearLayout &map = *plan.shuffles;
    // The thread's part of each result register's source (register, lane);
    // the index's part is added per register (bits past the axis's extent
    // have no basis: an index outside the axis is undefined in Triton).
    SmallVector<SmallVector<Value>> at = registerCoordinates(b, loc, map, ctx);
    const LinearLayout::InDim &byIndex =
        map.getInDims()[map.getInDimIndex(layout::kGatherIndex)];
    unsigned numCandidates = 1u << plan.candidateBits.size();
    SmallVector<Value> results;
    for (auto [reg, index] : llvm::enumerate(indices)) {
      Value idx = asI32(b, loc, index);
      Value srcReg = xorOfBases(b, loc, idx, byIndex, 0, at[reg][0]);
      Value srcLane = xorOfBases(b, loc, idx, byIndex, 1, at[reg][1]);
      int32_t base = component(map.apply({{layout::kRegister, int32_t(reg)}}), layout::kRegister);
      Value result;
      for (unsigned c = 0; c < numCandidates; ++c) {
        int32_t candidate = base;
        for (auto [bit, flip] : llvm::enumerate(plan.candidateBits))
          if (c >> bit & 1)
            candidate ^= flip;
        Value v = shuffle(b, loc, ctx, src[candidate], TargetInfo::Shuffle::Index, srcLane);
        if (!result) {
          result = v;
          continue;
        }
        Value picked = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, srcReg,
                                            i32Constant(b, loc, candidate));
        result = LLVM::SelectOp::create(b, loc, picked, v, result);
      }
      results.push_back(result);
    }
    return results;
  }

  const Context &ctx;
};

} // namespace

void populateGatherPatterns(TypeConverter &converter, const Context &ctx,
                            RewritePatternSet &patterns) {
  patterns.add<GatherLowering>(converter, ctx);
}

} // namespace kiln::lowering
