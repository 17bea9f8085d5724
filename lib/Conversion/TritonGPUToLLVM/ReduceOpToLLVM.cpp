//===- ReduceOpToLLVM.cpp - tt.reduce -------------------------------------===//
//
// The plan (kiln/Analysis/ReducePlan.h) says what to combine. A thread
// first combines its registers of each row (in order, or as a tree where
// the combine is exactly associative), then the lanes along the axis
// exchange partials with butterfly shuffles (after which every lane of the
// butterfly holds the same value), and when warps along the axis hold parts
// of a row, one thread per (row, warp) writes its partial to the op's
// scratch; after a barrier every thread that holds the row in the result
// reads the warps' partials and folds them, finishing with shuffles among
// lanes holding the same results when there are many warps.
//
// Copies are never combined: registers holding an element seen already
// are left out, lanes along the axis whose basis is a combination of
// earlier ones are not shuffled over, and of lanes and warps holding
// copies only one writes its partial. Partners of a shuffle combine in
// hardware order (the side whose bit is 0 on the left), so all threads
// compute the same value whatever the region.
//
//===----------------------------------------------------------------------===//
#include "Combine.h"

#include "kiln/Analysis/ReducePlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

struct ReduceLowering : OpConversionPattern<tt::ReduceOp> {
  ReduceLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    llvm::Expected<ReducePlan> maybePlan = planReduce(op, ctx.warpSize);
    if (!maybePlan)
      return op.emitError() << "op 'tt.reduce' cannot be lowered to LLVM yet: "
                            << llvm::toString(maybePlan.takeError());
    const ReducePlan &plan = *maybePlan;
    Combiner combine(op.getCombineOp());
    unsigned n = op.getNumOperands();
    SmallVector<SmallVector<Value>> regs;
    for (Value src : adaptor.getSrcs())
      regs.push_back(unpack(rewriter, loc, src));
    auto tupleAt = [&](unsigned reg) {
      Tuple t;
      for (unsigned k = 0; k < n; ++k)
        t.push_back(regs[k][reg]);
      return t;
    };

    // Within the thread, in register order; where any grouping gives the
    // same bits (max, min, integer ops), as a balanced tree of neighbours,
    // whose dependency chain is log2(n) combines long instead of n - 1 (an
    // attention row's max over 32 registers: 5 instead of 31).
    SmallVector<Tuple> acc;
    for (const SmallVector<unsigned> &group : plan.groups) {
      SmallVector<Tuple> level;
      for (unsigned reg : group)
        level.push_back(tupleAt(reg));
      if (!combine.isReassociable()) {
        for (unsigned i = 1; i < level.size(); ++i)
          level[0] = combine(rewriter, loc, level[0], level[i]);
        level.truncate(1);
      }
      while (level.size() > 1) {
        SmallVector<Tuple> next;
        for (unsigned i = 0; i + 1 < level.size(); i += 2)
          next.push_back(combine(rewriter, loc, level[i], level[i + 1]));
        if (level.size() % 2)
          next.push_back(level.back());
        level = std::move(next);
      }
      acc.push_back(std::move(level.front()));
    }

    auto [lane, warp] = laneAndWarp(rewriter, loc, ctx);
    auto butterfly = [&](unsigned bit) {
      Value upper = combine.isCommutative() ? Value() : bitIsSet(rewriter, loc, lane, bit);
      for (Tuple &t : acc) {
        Tuple other;
        for (Value v : t)
          other.push_back(shuffle(rewriter, loc, ctx, v, TargetInfo::Shuffle::Xor, 1 << bit));
        t = combine.ordered(rewriter, loc, upper, t, other);
      }
    };
    for (unsigned bit : plan.laneAxisBits)
      butterfly(bit);

    if (plan.crossWarp() && failed(acrossWarps(op, plan, combine, lane, warp, acc, rewriter)))
      return failure();

    SmallVector<Value> results;
    for (unsigned k = 0; k < n; ++k) {
      Type type = op.getResult()[k].getType();
      if (!isa<RankedTensorType>(type)) {
        results.push_back(acc.front()[k]);
        continue;
      }
      Type converted = getTypeConverter()->convertType(type);
      if (!converted)
        return failure();
      SmallVector<Value> values;
      for (Tuple &t : acc)
        values.push_back(t[k]);
      results.push_back(pack(rewriter, loc, converted, values));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  LogicalResult acrossWarps(tt::ReduceOp op, const ReducePlan &plan, const Combiner &combine,
                            Value lane, Value warp, SmallVector<Tuple> &acc,
                            ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    FailureOr<Value> base = sharedMemoryBase(rewriter, loc, op);
    if (failed(base))
      return failure();
    unsigned n = op.getNumOperands();
    SmallVector<Type> elems;
    for (Value src : op.getSrcs())
      elems.push_back(cast<RankedTensorType>(src.getType()).getElementType());
    SmallVector<int64_t> offsets = plan.operandOffsets(plan.numWarpPositions());
    int64_t rows = plan.rows;

    // Each result register's row, from the result layout.
    SmallVector<Value> rowOf;
    auto resultType = dyn_cast<RankedTensorType>(op.getResult()[0].getType());
    if (!resultType) {
      rowOf.push_back(i32Constant(rewriter, loc, 0));
    } else {
      for (SmallVector<Value> &coords :
           registerCoordinates(rewriter, loc, layoutOf(resultType), ctx)) {
        Value row;
        for (auto [d, c] : llvm::enumerate(coords)) {
          Value term = plan.rowStrides[d] == 1
                           ? c
                           : Value(LLVM::MulOp::create(rewriter, loc, c,
                                                       i32Constant(rewriter, loc,
                                                                   plan.rowStrides[d])));
          row = row ? Value(LLVM::AddOp::create(rewriter, loc, row, term)) : term;
        }
        rowOf.push_back(row);
      }
    }
    auto slot = [&](Value position, unsigned group) {
      if (rows == 1)
        return position;
      Value scaled = LLVM::MulOp::create(rewriter, loc, position, i32Constant(rewriter, loc, rows));
      return Value(LLVM::AddOp::create(rewriter, loc, scaled, rowOf[group]));
    };

    // One writer per distinct partial: lane 0 of the butterfly, no copies.
    uint64_t laneAxis = 0;
    for (unsigned bit : plan.laneAxisBits)
      laneAxis |= uint64_t(1) << bit;
    Value laneWrites = bitsClear(rewriter, loc, lane, laneAxis | plan.laneCopies);
    Value warpWrites = bitsClear(rewriter, loc, warp, plan.warpCopies);
    Value writer = LLVM::AndOp::create(rewriter, loc, laneWrites, warpWrites);
    Value position = gatherBits(rewriter, loc, warp, plan.warpAxisBits);
    scf::IfOp::create(rewriter, loc, writer, [&](OpBuilder &b, Location l) {
      for (auto [g, t] : llvm::enumerate(acc))
        for (unsigned k = 0; k < n; ++k)
          storeScratch(b, l, scratchElement(b, l, *base, offsets[k], elems[k], slot(position, g)),
                       t[k]);
      scf::YieldOp::create(b, l);
    });
    ctx.target.barrier(rewriter, loc);

    // Every thread folds the partials of consecutive warp positions, then
    // the lanes sharing its results exchange theirs.
    unsigned loads = plan.loadsPerResult;
    Value first = gatherBits(rewriter, loc, lane, plan.exchangeLaneBits);
    if (loads > 1 && !plan.exchangeLaneBits.empty())
      first = LLVM::MulOp::create(rewriter, loc, first, i32Constant(rewriter, loc, loads));
    for (auto [g, t] : llvm::enumerate(acc)) {
      SmallVector<SmallVector<Value>> partials(n);
      for (unsigned k = 0; k < n; ++k) {
        if (rows == 1) {
          partials[k] = loadScratch(rewriter, loc,
                                    scratchElement(rewriter, loc, *base, offsets[k], elems[k], first),
                                    elems[k], loads);
          continue;
        }
        for (unsigned i = 0; i < loads; ++i) {
          Value at = i == 0 ? first
                            : Value(LLVM::AddOp::create(rewriter, loc, first,
                                                        i32Constant(rewriter, loc, i)));
          partials[k].append(loadScratch(
              rewriter, loc, scratchElement(rewriter, loc, *base, offsets[k], elems[k], slot(at, g)),
              elems[k], 1));
        }
      }
      auto partial = [&](unsigned i) {
        Tuple p;
        for (unsigned k = 0; k < n; ++k)
          p.push_back(partials[k][i]);
        return p;
      };
      t = partial(0);
      for (unsigned i = 1; i < loads; ++i)
        t = combine(rewriter, loc, t, partial(i));
    }
    for (unsigned bit : plan.exchangeLaneBits) {
      Value upper = combine.isCommutative() ? Value() : bitIsSet(rewriter, loc, lane, bit);
      for (Tuple &t : acc) {
        Tuple other;
        for (Value v : t)
          other.push_back(shuffle(rewriter, loc, ctx, v, TargetInfo::Shuffle::Xor, 1 << bit));
        t = combine.ordered(rewriter, loc, upper, t, other);
      }
    }
    return success();
  }

  const Context &ctx;
};

} // namespace

void populateReducePatterns(TypeConverter &converter, const Context &ctx,
                            RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, ctx);
}

} // namespace kiln::lowering
