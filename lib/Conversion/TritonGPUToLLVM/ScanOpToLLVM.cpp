//===- ScanOpToLLVM.cpp - tt.scan -----------------------------------------===//
//
// Along the axis a thread holds blocks of `chunk` consecutive elements
// (kiln/Analysis/ReducePlan.h); the lanes, then the warps, tile the chunks
// of a block. In scan order (reversed for `reverse`, as a scan of the
// flipped tensor flipped back):
//  1. each chunk is scanned within the thread;
//  2. the chunks' totals are scanned across the lanes along the axis
//     (Hillis-Steele: shfl.up by 1, 2, 4, ... lane positions, or shfl.idx
//     for a reverse scan), and each chunk takes the inclusive value of the
//     lane before it;
//  3. blocks and warps before a thread's: with one warp along the axis the
//     last lane's total of each block is broadcast with shfl.idx and
//     carried into the blocks after it; with several, one thread per
//     (warp, row) writes each block's warp total to the op's scratch, and
//     after a barrier every thread folds those before it.
// The combine region has no known identity, so "nothing before" is a
// select, never a neutral value. Earlier values are always the region's
// left operand.
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

struct ScanLowering : OpConversionPattern<tt::ScanOp> {
  ScanLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    llvm::Expected<ScanPlan> maybePlan = planScan(op);
    if (!maybePlan)
      return op.emitError() << "op 'tt.scan' cannot be lowered to LLVM yet: "
                            << llvm::toString(maybePlan.takeError());
    const ScanPlan &plan = *maybePlan;
    Combiner combine(op.getCombineOp());
    auto &b = rewriter;
    unsigned n = op.getNumOperands();
    SmallVector<SmallVector<Value>> regs;
    for (Value src : adaptor.getSrcs())
      regs.push_back(unpack(b, loc, src));
    bool rev = plan.reverse;
    unsigned C = plan.chunk, H = plan.numBlocks, lanes = 1u << plan.laneBits;
    auto order = [&](unsigned i, unsigned size) { return rev ? size - 1 - i : i; };
    auto [lane, warp] = laneAndWarp(b, loc, ctx);

    // v[g][block'][c']: the values in scan order (primed = scan order).
    SmallVector<SmallVector<SmallVector<Tuple>>> v(plan.groups.size());
    for (auto [g, group] : llvm::enumerate(plan.groups)) {
      v[g].resize(H);
      for (unsigned bp = 0; bp < H; ++bp)
        for (unsigned cp = 0; cp < C; ++cp) {
          unsigned reg = group[order(bp, H) * C + order(cp, C)];
          Tuple x;
          for (unsigned k = 0; k < n; ++k)
            x.push_back(regs[k][reg]);
          v[g][bp].push_back(cp == 0 ? x : combine(b, loc, v[g][bp].back(), x));
        }
    }
    // t[g][block']: the inclusive total of the chunks up to this lane.
    SmallVector<SmallVector<Tuple>> t(plan.groups.size());
    for (auto [g, blocks] : llvm::enumerate(v))
      for (auto &chunk : blocks)
        t[g].push_back(chunk.back());

    SmallVector<unsigned> laneAxisBits;
    for (unsigned i = 0; i < plan.laneBits; ++i)
      laneAxisBits.push_back(plan.laneShift + i);
    Value lanePos;
    // The value of the lane `steps` positions earlier in scan order.
    auto earlierLane = [&](Value x, unsigned steps) {
      int32_t delta = int32_t(steps) << plan.laneShift;
      if (!rev)
        return shuffle(b, loc, ctx, x, TargetInfo::Shuffle::Up, delta);
      Value src = LLVM::AddOp::create(b, loc, lane, i32Constant(b, loc, delta));
      return shuffle(b, loc, ctx, x, TargetInfo::Shuffle::Index, src);
    };
    auto shuffled = [&](const Tuple &x, auto &&fn) {
      Tuple r;
      for (Value e : x)
        r.push_back(fn(e));
      return r;
    };
    if (plan.laneBits) {
      lanePos = gatherBits(b, loc, lane, laneAxisBits);
      if (rev)
        lanePos = LLVM::XOrOp::create(b, loc, lanePos, i32Constant(b, loc, lanes - 1));
      for (unsigned step = 1; step < lanes; step <<= 1) {
        Value has = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, lanePos,
                                         i32Constant(b, loc, step));
        for (auto &blocks : t)
          for (Tuple &x : blocks) {
            Tuple before = shuffled(x, [&](Value e) { return earlierLane(e, step); });
            x = select(b, loc, has, combine(b, loc, before, x), x);
          }
      }
      if (C == 1) {
        for (auto [g, blocks] : llvm::enumerate(v))
          for (auto [bp, chunk] : llvm::enumerate(blocks))
            chunk[0] = t[g][bp];
      } else {
        Value has = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, lanePos,
                                         i32Constant(b, loc, 0));
        for (auto [g, blocks] : llvm::enumerate(v))
          for (auto [bp, chunk] : llvm::enumerate(blocks)) {
            Tuple before = shuffled(t[g][bp], [&](Value e) { return earlierLane(e, 1); });
            for (Tuple &x : chunk)
              x = select(b, loc, has, combine(b, loc, before, x), x);
          }
      }
    }

    if (plan.crossWarp()) {
      if (failed(acrossWarps(op, plan, combine, lane, warp, lanePos, t, v, rewriter)))
        return failure();
    } else if (H > 1) {
      // One warp along the axis: block totals from the last lane.
      Value last;
      if (plan.laneBits) {
        uint32_t axisMask = (lanes - 1) << plan.laneShift;
        last = LLVM::AndOp::create(b, loc, lane, i32Constant(b, loc, int64_t(~axisMask)));
        if (!rev)
          last = LLVM::OrOp::create(b, loc, last, i32Constant(b, loc, int64_t(axisMask)));
      }
      for (auto [g, blocks] : llvm::enumerate(v)) {
        Tuple carry;
        for (unsigned bp = 0; bp + 1 < H; ++bp) {
          Tuple total = t[g][bp];
          if (last)
            total = shuffled(total, [&](Value e) {
              return shuffle(b, loc, ctx, e, TargetInfo::Shuffle::Index, last);
            });
          carry = bp == 0 ? total : combine(b, loc, carry, total);
          for (Tuple &x : blocks[bp + 1])
            x = combine(b, loc, carry, x);
        }
      }
    }

    // Registers holding copies take their element's result.
    unsigned numRegs = plan.canonical.size();
    SmallVector<Tuple> out(numRegs);
    for (auto [g, group] : llvm::enumerate(plan.groups))
      for (unsigned bp = 0; bp < H; ++bp)
        for (unsigned cp = 0; cp < C; ++cp)
          out[group[order(bp, H) * C + order(cp, C)]] = v[g][bp][cp];
    SmallVector<Value> results;
    for (unsigned k = 0; k < n; ++k) {
      Type converted = getTypeConverter()->convertType(op.getResult()[k].getType());
      if (!converted)
        return failure();
      SmallVector<Value> values;
      for (unsigned r = 0; r < numRegs; ++r)
        values.push_back(out[plan.canonical[r]][k]);
      results.push_back(pack(b, loc, converted, values));
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  LogicalResult acrossWarps(tt::ScanOp op, const ScanPlan &plan, const Combiner &combine,
                            Value lane, Value warp, Value lanePos,
                            SmallVector<SmallVector<Tuple>> &t,
                            SmallVector<SmallVector<SmallVector<Tuple>>> &v,
                            ConversionPatternRewriter &b) const {
    Location loc = op.getLoc();
    FailureOr<Value> base = sharedMemoryBase(b, loc, op);
    if (failed(base))
      return failure();
    unsigned n = op.getNumOperands();
    bool rev = plan.reverse;
    unsigned H = plan.numBlocks, W = plan.numWarpPositions(), lanes = 1u << plan.laneBits;
    int64_t rows = plan.rows, slots = plan.slotsPerRow();
    SmallVector<Type> elems;
    for (Value src : op.getSrcs())
      elems.push_back(cast<RankedTensorType>(src.getType()).getElementType());
    SmallVector<int64_t> offsets = plan.operandOffsets(slots);

    // Each group's row, from the coordinates of its first register.
    SmallVector<Value> rowOf;
    if (rows > 1) {
      auto coords = registerCoordinates(b, loc, layoutOf(op.getSrcs()[0].getType()), ctx);
      for (const SmallVector<unsigned> &group : plan.groups) {
        Value row;
        unsigned d = 0;
        for (auto [dim, c] : llvm::enumerate(coords[group.front()])) {
          if (dim == plan.axis)
            continue;
          Value term = plan.rowStrides[d] == 1
                           ? c
                           : Value(LLVM::MulOp::create(b, loc, c,
                                                       i32Constant(b, loc, plan.rowStrides[d])));
          row = row ? Value(LLVM::AddOp::create(b, loc, row, term)) : term;
          ++d;
        }
        rowOf.push_back(row);
      }
    }
    auto slotIndex = [&](Value blockAndWarp, unsigned g) {
      if (rows == 1)
        return blockAndWarp;
      Value scaled = LLVM::MulOp::create(b, loc, blockAndWarp, i32Constant(b, loc, rows));
      return Value(LLVM::AddOp::create(b, loc, scaled, rowOf[g]));
    };

    // The warp's total of each block is on its last lane in scan order.
    Value warpPos = gatherBits(b, loc, warp, plan.warpAxisBits);
    Value laneWrites = bitsClear(b, loc, lane, plan.laneCopies);
    Value warpWrites = bitsClear(b, loc, warp, plan.warpCopies);
    Value writer = LLVM::AndOp::create(b, loc, laneWrites, warpWrites);
    if (lanePos) {
      Value last = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, lanePos,
                                        i32Constant(b, loc, lanes - 1));
      writer = LLVM::AndOp::create(b, loc, writer, last);
    }
    scf::IfOp::create(b, loc, writer, [&](OpBuilder &ib, Location l) {
      for (auto [g, blocks] : llvm::enumerate(t))
        for (auto [bp, total] : llvm::enumerate(blocks)) {
          unsigned block = rev ? H - 1 - unsigned(bp) : unsigned(bp);
          Value at = LLVM::AddOp::create(ib, l, warpPos, i32Constant(ib, l, block * W));
          for (unsigned k = 0; k < n; ++k)
            storeScratch(ib, l, scratchElement(ib, l, *base, offsets[k], elems[k], slotIndex(at, g)),
                         total[k]);
        }
      scf::YieldOp::create(ib, l);
    });
    ctx.target.barrier(b, loc);

    // This warp's position in scan order; warps before it count.
    Value myPos = rev ? Value(LLVM::XOrOp::create(b, loc, warpPos, i32Constant(b, loc, W - 1)))
                      : warpPos;
    for (auto [g, blocks] : llvm::enumerate(v)) {
      SmallVector<SmallVector<Value>> loaded(n);
      for (unsigned k = 0; k < n; ++k) {
        if (rows == 1) {
          loaded[k] = loadScratch(
              b, loc, scratchElement(b, loc, *base, offsets[k], elems[k], i32Constant(b, loc, 0)),
              elems[k], unsigned(slots));
          continue;
        }
        for (int64_t s = 0; s < slots; ++s)
          loaded[k].append(loadScratch(
              b, loc,
              scratchElement(b, loc, *base, offsets[k], elems[k],
                             slotIndex(i32Constant(b, loc, s), unsigned(g))),
              elems[k], 1));
      }
      // The total of warp w' of block b', both in scan order.
      auto total = [&](unsigned bp, unsigned wp) {
        unsigned s = (rev ? H - 1 - bp : bp) * W + (rev ? W - 1 - wp : wp);
        Tuple x;
        for (unsigned k = 0; k < n; ++k)
          x.push_back(loaded[k][s]);
        return x;
      };
      Tuple carry; // everything in the blocks before this one
      for (unsigned bp = 0; bp < H; ++bp) {
        Tuple prefix = carry;
        Value has; // null: known to hold something
        for (unsigned wp = 0; wp + 1 < W; ++wp) {
          Value take =
              LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, myPos, i32Constant(b, loc, wp));
          if (prefix.empty()) {
            prefix = total(bp, wp);
            has = take;
          } else {
            prefix = select(b, loc, take, combine(b, loc, prefix, total(bp, wp)), prefix);
          }
        }
        for (Tuple &x : blocks[bp]) {
          Tuple y = combine(b, loc, prefix, x);
          x = has ? select(b, loc, has, y, x) : y;
        }
        if (bp + 1 < H)
          for (unsigned wp = 0; wp < W; ++wp)
            carry = carry.empty() ? total(bp, wp) : combine(b, loc, carry, total(bp, wp));
      }
    }
    return success();
  }

  const Context &ctx;
};

} // namespace

void populateScanPatterns(TypeConverter &converter, const Context &ctx,
                          RewritePatternSet &patterns) {
  patterns.add<ScanLowering>(converter, ctx);
}

} // namespace kiln::lowering
