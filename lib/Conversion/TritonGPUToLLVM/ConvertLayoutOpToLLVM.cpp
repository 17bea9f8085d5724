//===- ConvertLayoutOpToLLVM.cpp - ttg.convert_layout ---------------------===//
//
// Follows the plan of kiln/Analysis/ConvertLayoutPlan.h: nothing, register
// renaming, one warp shuffle per destination register, or rounds of
// vector stores / barrier / vector loads through the op's swizzled scratch.
// A one-round conversion of 16-bit elements whose one side holds 8x8
// matrices (an mma accumulator on its way to a store, say) moves that side
// with the target's matrix stores or loads and the other with 16-byte
// vectors, through a scratch of the same size laid out for both.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"

#include "kiln/Analysis/ConvertLayoutPlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {
namespace {

struct ConvertLayoutLowering : OpConversionPattern<ttg::ConvertLayoutOp> {
  ConvertLayoutLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(ttg::ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    llvm::Expected<ConversionPlan> plan = planConversion(op.getSrc().getType(), op.getType());
    if (!plan)
      return op.emitError() << "op 'ttg.convert_layout' cannot be lowered to LLVM: "
                            << llvm::toString(plan.takeError());
    SmallVector<Value> src = unpack(rewriter, loc, adaptor.getSrc());
    int32_t numDst = layoutOf(op.getType()).getInDimSize(layout::kRegister);
    Type elemType = cast<LLVM::LLVMStructType>(resultType).getBody()[0];
    SmallVector<Value> dst(numDst);
    switch (plan->path) {
    case ConversionPath::None:
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    case ConversionPath::Registers:
      // Only the register input moves: dst register r is src register C(r).
      for (int32_t r = 0; r < numDst; ++r)
        dst[r] = src[component(plan->dstToSrc.apply({{layout::kRegister, r}}), layout::kRegister)];
      break;
    case ConversionPath::Shuffle:
      shuffleRegisters(rewriter, loc, plan->dstToSrc, src, dst);
      break;
    case ConversionPath::SharedMemory:
      if (failed(throughSharedMemory(rewriter, op, *plan, src, dst, elemType)))
        return failure();
      break;
    case ConversionPath::Cluster:
      if (failed(throughCluster(rewriter, op, src, dst, elemType)))
        return failure();
      if (llvm::any_of(dst, [](Value v) { return !v; }))
        return op.emitError() << "internal error: a destination register was not loaded";
      break;
    }
    rewriter.replaceOp(op, pack(rewriter, loc, resultType, dst));
    return success();
  }

private:
  /// dst register r of lane l holds src register C(r) of lane C(r, l);
  /// the register never depends on the lane (the plan checked it), so each
  /// distinct (register, lane pattern) is one shfl.idx.
  void shuffleRegisters(OpBuilder &b, Location loc, const LinearLayout &c, ArrayRef<Value> src,
                        MutableArrayRef<Value> dst) const {
    auto [lane, warp] = laneAndWarp(b, loc, ctx);
    (void)warp;
    Value laneImage = xorOfBases(b, loc, lane, c.getInDims()[c.getInDimIndex(layout::kLane)],
                                 c.getOutDimIndex(layout::kLane), i32Constant(b, loc, 0));
    std::map<std::pair<int32_t, int32_t>, Value> done;
    for (int32_t r = 0, e = dst.size(); r < e; ++r) {
      auto out = c.apply({{layout::kRegister, r}});
      int32_t srcReg = component(out, layout::kRegister), srcLane = component(out, layout::kLane);
      Value &v = done[{srcReg, srcLane}];
      if (!v) {
        Value from = srcLane ? Value(LLVM::XOrOp::create(b, loc, laneImage,
                                                         i32Constant(b, loc, srcLane)))
                             : laneImage;
        v = shuffle(b, loc, ctx, src[srcReg], TargetInfo::Shuffle::Index, from);
      }
      dst[r] = v;
    }
  }

  /// How a one-round 16-bit conversion moves one side as 8x8 matrices
  /// through the scratch matrixConversionScratch lays out: the matrix plan
  /// and the other side's vector plan.
  struct MatrixSide {
    bool stores; ///< the source side moves as matrices (else the destination)
    layout::MatrixAccessPlan matrices;
    SharedAccessPlan vectors;
  };

  std::optional<MatrixSide> planMatrixSide(ttg::ConvertLayoutOp op,
                                           const ConversionPlan &plan) const {
    if (plan.elemBits != 16 || plan.scratch->numRounds() != 1)
      return std::nullopt;
    LinearLayout src = layoutOf(op.getSrc().getType()), dst = layoutOf(op.getType());
    for (bool stores : {true, false}) {
      if (!(stores ? ctx.target.hasMatrixStore() : ctx.target.hasMatrixLoad()))
        continue;
      const LinearLayout &matrices = stores ? src : dst, &vectors = stores ? dst : src;
      for (bool transposed : {false, true}) {
        llvm::Expected<layout::ConversionScratch> scratch =
            layout::matrixConversionScratch(matrices, vectors, transposed);
        if (!scratch) {
          llvm::consumeError(scratch.takeError());
          continue;
        }
        FailureOr<SharedAccessPlan> matrixSide = planSharedAccess(matrices, scratch->layout, 1);
        FailureOr<SharedAccessPlan> vectorSide = planSharedAccess(vectors, scratch->layout, 8);
        if (failed(matrixSide) || failed(vectorSide) || vectorSide->vector != 8)
          continue;
        std::optional<layout::MatrixAccessPlan> access =
            layout::planMatrixAccess(matrixSide->toShared, transposed);
        if (access)
          return MatrixSide{stores, std::move(*access), std::move(*vectorSide)};
      }
    }
    return std::nullopt;
  }

  /// Each round: every src register to its scratch slot, barrier, every
  /// dst register from its slot; a barrier before the next round's stores.
  /// Copies of one element (broadcast registers) are stored once; copies
  /// on other lanes or warps store the same value to the same address.
  LogicalResult throughSharedMemory(OpBuilder &b, ttg::ConvertLayoutOp op,
                                    const ConversionPlan &plan, ArrayRef<Value> src,
                                    MutableArrayRef<Value> dst, Type elemType) const {
    Location loc = op.getLoc();
    FailureOr<Value> base = sharedMemoryBase(b, loc, op);
    if (failed(base))
      return failure();
    if (std::optional<MatrixSide> side = planMatrixSide(op, plan)) {
      Value off = threadOffset(b, loc, ctx, side->vectors);
      if (side->stores) {
        storeMatrices(b, loc, ctx, *base, side->matrices, src);
        ctx.target.barrier(b, loc);
        loadShared(b, loc, *base, off, side->vectors, 0, dst, elemType);
      } else {
        storeShared(b, loc, *base, off, side->vectors, 0, src, elemType);
        ctx.target.barrier(b, loc);
        loadMatrices(b, loc, ctx, *base, elemType, side->matrices, dst);
      }
      return success();
    }
    const layout::ConversionScratch &scratch = *plan.scratch;
    unsigned vector = 1u << scratch.vectorBits;
    FailureOr<SharedAccessPlan> stores =
        planSharedAccess(layoutOf(op.getSrc().getType()), scratch.layout, vector);
    FailureOr<SharedAccessPlan> loads =
        planSharedAccess(layoutOf(op.getType()), scratch.layout, vector);
    if (failed(stores) || failed(loads))
      return op.emitError() << "internal error: the conversion scratch misses an element";
    Value storeOff = threadOffset(b, loc, ctx, *stores);
    Value loadOff = threadOffset(b, loc, ctx, *loads);
    for (int32_t round = 0; round < scratch.numRounds(); ++round) {
      if (round > 0)
        ctx.target.barrier(b, loc);
      storeShared(b, loc, *base, storeOff, *stores, round, src, elemType);
      ctx.target.barrier(b, loc);
      loadShared(b, loc, *base, loadOff, *loads, round, dst, elemType);
    }
    return success();
  }

  /// Elements that change CTA (ConversionPath::Cluster): each CTA stores
  /// its source tile row-major in its scratch; after a cluster barrier each
  /// destination register loads its element from the scratch of a CTA that
  /// holds it (its own where several do), found from the element's tensor
  /// coordinates; a second barrier keeps every CTA's scratch alive until
  /// all have read it.
  LogicalResult throughCluster(OpBuilder &b, ttg::ConvertLayoutOp op, ArrayRef<Value> src,
                               SmallVectorImpl<Value> &dst, Type elemType) const {
    Location loc = op.getLoc();
    FailureOr<Value> base = sharedMemoryBase(b, loc, op);
    if (failed(base))
      return failure();
    LinearLayout srcAll = globalLayoutOf(op.getSrc().getType());
    LinearLayout srcTile = layoutOf(op.getSrc().getType());
    SmallVector<int64_t> tileShape;
    for (const LinearLayout::DimSize &out : srcTile.getOutDims())
      tileShape.push_back(out.size);
    LinearLayout scratch = gatherScratchLayout(tileShape);
    unsigned elemBits = sharedElementBits(op.getSrc().getType().getElementType());
    FailureOr<SharedAccessPlan> stores =
        planSharedAccess(srcTile, scratch, std::max(1u, 128 / elemBits));
    if (failed(stores))
      return op.emitError() << "internal error: the cluster conversion scratch misses an element";
    storeShared(b, loc, *base, threadOffset(b, loc, ctx, *stores), *stores, 0, src, elemType);
    ctx.target.clusterBarrier(b, loc);

    const auto &blockBases = srcAll.getInDims()[srcAll.getInDimIndex(layout::kBlock)].bases;
    SmallVector<int32_t> ctaBits = layout::blockCoordinateBits(srcAll);
    Value myRank = ctx.target.blockId(b, loc);
    auto c32 = [&](int64_t v) { return i32Constant(b, loc, v); };
    Type stored = storedType(elemType);
    SmallVector<SmallVector<Value>> coords =
        registerCoordinates(b, loc, globalLayoutOf(op.getType()), ctx);
    for (auto [r, c] : llvm::enumerate(coords)) {
      // The CTA: bit i of its rank from the coordinate bit block basis i
      // selects; a basis that selects none (copies) keeps this CTA's bit.
      Value owner = c32(0);
      for (auto [i, basis] : llvm::enumerate(blockBases)) {
        auto d = llvm::find_if(basis, [](int32_t v) { return v != 0; });
        Value bit;
        if (d == basis.end()) {
          bit = LLVM::AndOp::create(b, loc, myRank, c32(int64_t(1) << i));
        } else {
          Value set = LLVM::ICmpOp::create(
              b, loc, LLVM::ICmpPredicate::ne,
              LLVM::AndOp::create(b, loc, c[d - basis.begin()], c32(*d)), c32(0));
          bit = LLVM::SelectOp::create(b, loc, set, c32(int64_t(1) << i), c32(0));
        }
        owner = LLVM::OrOp::create(b, loc, owner, bit);
      }
      // The offset in that CTA's tile: the coordinates less the bits that
      // select the CTA, row-major.
      Value offset = c32(0);
      int64_t stride = 1;
      for (int d = int(c.size()) - 1; d >= 0; --d) {
        Value t = c[d];
        for (int bit = 30; bit >= 0; --bit) {
          if (!(ctaBits[d] >> bit & 1))
            continue;
          Value low = LLVM::AndOp::create(b, loc, t, c32((int64_t(1) << bit) - 1));
          Value high = LLVM::ShlOp::create(
              b, loc, LLVM::LShrOp::create(b, loc, t, c32(bit + 1)), c32(bit));
          t = LLVM::OrOp::create(b, loc, low, high);
        }
        offset = LLVM::AddOp::create(b, loc, offset,
                                     LLVM::MulOp::create(b, loc, t, c32(stride)));
        stride *= tileShape[d];
      }
      Value local = elementAddress(b, loc, *base, elemType, offset);
      Value remote = ctx.target.clusterSharedAddress(b, loc, local, owner);
      Value v = LLVM::LoadOp::create(b, loc, stored, remote, std::max(1u, elemBits / 8));
      dst[r] = fromStored(b, loc, v, elemType);
    }
    ctx.target.clusterBarrier(b, loc);
    return success();
  }

  const Context &ctx;
};

} // namespace

void populateConvertLayoutPatterns(TypeConverter &converter, const Context &ctx,
                                   RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutLowering>(converter, ctx);
}

} // namespace kiln::lowering
