//===- HistogramOpToLLVM.cpp - tt.histogram -------------------------------===//
//
// Triton's scheme: within a warp, one ballot per bit of the bin index (and
// one for the elements that count) gives each lane, by ANDing ballots or
// their complements, the lanes whose element falls in each of its bins;
// a popcount counts them. Here lane l owns the bins congruent to l modulo
// the warp size, so its shared-memory counters are conflict-free. Warps
// then add their counts into a per-CTA array of i32 counters in scratch
// shared memory (zeroed first; with a single distinct warp it just stores),
// and every thread reads the bins of its result registers.
//
// Elements count once: copies (the layout's free register, lane and warp
// bits) are left out, where Triton divides by a replication factor.
// Values outside [0, bins) and masked-off elements are not counted, as the
// interpreter defines it (Triton's ballots would wrap them into a bin).
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Analysis/AtomicPlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

struct HistogramLowering : OpConversionPattern<tt::HistogramOp> {
  HistogramLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::HistogramOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i32 = b.getI32Type();
    unsigned warpSize = ctx.warpSize;
    Type ballotType = b.getIntegerType(warpSize);
    auto constant = [&](Type t, int64_t v) -> Value {
      return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
    };
    int64_t numBins = op.getType().getNumElements();
    int64_t bins = histogramPaddedBins(op, warpSize);
    unsigned binBits = llvm::Log2_64(bins), laneBits = llvm::Log2_64(warpSize);
    int64_t perLane = bins / warpSize;

    layout::LinearLayout src = layoutOf(op.getSrc().getType());
    uint64_t copyRegs = src.getFreeVariableMask(layout::kRegister);
    uint64_t copyLanes = src.getFreeVariableMask(layout::kLane);
    uint64_t copyWarps = src.getFreeVariableMask(layout::kWarp);
    // The lanes whose elements count: those with no free lane bit set.
    uint64_t countedLanes = 0;
    for (unsigned l = 0; l < warpSize; ++l)
      if (!(l & copyLanes))
        countedLanes |= uint64_t(1) << l;

    SmallVector<Value> values = unpack(b, loc, adaptor.getSrc());
    SmallVector<Value> masks = adaptor.getMask() ? unpack(b, loc, adaptor.getMask())
                                                 : SmallVector<Value>();
    auto [lane, warp] = laneAndWarp(b, loc, ctx);
    Value ones = constant(ballotType, -1);
    // For the low bin bits (the owner's lane id): ballot XOR this selects
    // the lanes whose bit matches this lane's.
    SmallVector<Value> laneFlip;
    for (unsigned j = 0; j < laneBits && j < binBits; ++j) {
      Value set = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, lane, i32Constant(b, loc, int64_t(1) << j)),
          i32Constant(b, loc, 0));
      laneFlip.push_back(LLVM::SelectOp::create(b, loc, set, constant(ballotType, 0), ones));
    }

    SmallVector<Value> counts(perLane, i32Constant(b, loc, 0));
    for (size_t r = 0; r < values.size(); ++r) {
      if (r & copyRegs)
        continue;
      Value v = values[r];
      // Narrow values are signed: widened, a negative one stays out of range.
      if (v.getType().getIntOrFloatBitWidth() < 32)
        v = LLVM::SExtOp::create(b, loc, i32, v);
      Type t = v.getType();
      Value zero = constant(t, 0);
      // In range: no bit at or above log2(numBins) (negatives have them).
      Value inRange = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::eq,
          LLVM::AndOp::create(b, loc, v, constant(t, ~(numBins - 1))), zero);
      if (!masks.empty())
        inRange = LLVM::AndOp::create(b, loc, inRange, masks[r]);
      Value lanes = ctx.target.ballot(b, loc, inRange);
      if (countedLanes != (warpSize == 64 ? ~uint64_t(0) : (uint64_t(1) << warpSize) - 1))
        lanes = LLVM::AndOp::create(b, loc, lanes, constant(ballotType, int64_t(countedLanes)));
      // Bits from log2(numBins) up are 0 in every counted value: no ballot.
      SmallVector<Value> bitBallots(binBits, constant(ballotType, 0));
      for (unsigned j = 0; j < binBits && (int64_t(1) << j) < numBins; ++j) {
        Value bit = LLVM::ICmpOp::create(
            b, loc, LLVM::ICmpPredicate::ne,
            LLVM::AndOp::create(b, loc, v, constant(t, int64_t(1) << j)), zero);
        bitBallots[j] = ctx.target.ballot(b, loc, bit);
      }
      for (unsigned j = 0; j < laneFlip.size(); ++j)
        lanes = LLVM::AndOp::create(b, loc, lanes,
                                    LLVM::XOrOp::create(b, loc, bitBallots[j], laneFlip[j]));
      // The high bin bits pick one of this lane's bins, known per k.
      for (int64_t k = 0; k < perLane; ++k) {
        Value inBin = lanes;
        for (unsigned j = laneBits; j < binBits; ++j) {
          Value bits = bitBallots[j];
          if (!(k & (int64_t(1) << (j - laneBits))))
            bits = LLVM::XOrOp::create(b, loc, bits, ones);
          inBin = LLVM::AndOp::create(b, loc, inBin, bits);
        }
        Value n = LLVM::CtPopOp::create(b, loc, ballotType, inBin);
        if (warpSize != 32)
          n = LLVM::TruncOp::create(b, loc, i32, n);
        counts[k] = LLVM::AddOp::create(b, loc, counts[k], n);
      }
    }

    FailureOr<Value> base = sharedMemoryBase(b, loc, op);
    if (failed(base))
      return failure();
    Type ptrType = base->getType();
    auto counter = [&](OpBuilder &ob, Location l, Value index) -> Value {
      return LLVM::GEPOp::create(ob, l, ptrType, i32, *base, index);
    };
    auto ownCounter = [&](OpBuilder &ob, Location l, int64_t k) {
      Value index = LLVM::AddOp::create(ob, l, lane, i32Constant(ob, l, k * warpSize));
      return counter(ob, l, index);
    };
    unsigned numWarps = ctx.numWarps;
    bool oneDistinctWarp = (numWarps >> llvm::popcount(copyWarps)) == 1;
    Value countingWarp =
        copyWarps ? Value(LLVM::ICmpOp::create(
                        b, loc, LLVM::ICmpPredicate::eq,
                        LLVM::AndOp::create(b, loc, warp, i32Constant(b, loc, copyWarps)),
                        i32Constant(b, loc, 0)))
                  : Value();
    auto inCountingWarp = [&](function_ref<void(OpBuilder &, Location)> body) {
      if (!countingWarp)
        return body(b, loc);
      scf::IfOp::create(b, loc, countingWarp, [&](OpBuilder &tb, Location l) {
        body(tb, l);
        scf::YieldOp::create(tb, l);
      });
    };
    if (oneDistinctWarp) {
      // Only one warp's counts: they are the histogram.
      inCountingWarp([&](OpBuilder &ob, Location l) {
        for (int64_t k = 0; k < perLane; ++k)
          LLVM::StoreOp::create(ob, l, counts[k], ownCounter(ob, l, k), 4);
      });
    } else {
      // Zero the counters (threads beyond the bins repeat a store), then
      // each counting warp adds its counts.
      Value tid = ctx.target.threadId(b, loc);
      int64_t threads = int64_t(warpSize) * numWarps;
      for (int64_t i = 0; i < std::max<int64_t>(1, bins / threads); ++i) {
        Value index = bins >= threads
                          ? Value(LLVM::AddOp::create(b, loc, tid, i32Constant(b, loc, i * threads)))
                          : Value(LLVM::AndOp::create(b, loc, tid, i32Constant(b, loc, bins - 1)));
        LLVM::StoreOp::create(b, loc, i32Constant(b, loc, 0), counter(b, loc, index), 4);
      }
      ctx.target.barrier(b, loc);
      inCountingWarp([&](OpBuilder &ob, Location l) {
        for (int64_t k = 0; k < perLane; ++k)
          LLVM::AtomicRMWOp::create(ob, l, LLVM::AtomicBinOp::add, ownCounter(ob, l, k), counts[k],
                                    LLVM::AtomicOrdering::monotonic);
      });
    }
    ctx.target.barrier(b, loc);

    // Every result register reads its bin, consecutive registers as one
    // vector where the result layout has them.
    auto resultType = cast<RankedTensorType>(op.getType());
    layout::LinearLayout dst = layoutOf(resultType);
    Type resultElem = getTypeConverter()->convertType(resultType.getElementType());
    unsigned vec = layout::registerVectorWidth(dst, 0, 32);
    auto coords = registerCoordinates(b, loc, dst, ctx);
    SmallVector<Value> results;
    for (size_t r = 0; r < coords.size(); r += vec) {
      Type access = vec > 1 ? Type(VectorType::get(vec, i32)) : i32;
      Value loaded = LLVM::LoadOp::create(b, loc, access, counter(b, loc, coords[r][0]), 4 * vec);
      for (unsigned k = 0; k < vec; ++k) {
        Value c = vec > 1 ? Value(LLVM::ExtractElementOp::create(b, loc, loaded,
                                                                 i32Constant(b, loc, k)))
                          : loaded;
        if (resultElem != i32)
          c = LLVM::ZExtOp::create(b, loc, resultElem, c);
        results.push_back(c);
      }
    }
    rewriter.replaceOp(op, pack(b, loc, getTypeConverter()->convertType(resultType), results));
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateHistogramPatterns(TypeConverter &converter, const Context &ctx,
                               RewritePatternSet &patterns) {
  patterns.add<HistogramLowering>(converter, ctx);
}

} // namespace kiln::lowering
