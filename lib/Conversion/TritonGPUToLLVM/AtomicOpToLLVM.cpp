//===- AtomicOpToLLVM.cpp - tt.atomic_rmw and tt.atomic_cas ---------------===//
//
// Each element's atomic happens once: a layout's free register, lane and
// warp bits (the layout engine's free-variable masks) mark copies of an
// element, and only the holder whose free bits are all 0 does the atomic,
// predicated in the instruction (as Triton does). Copies inside a thread
// take the old value from the first register holding it; copies in other
// lanes or warps get it as AtomicPlan.h plans: a shuffle, or scratch
// shared memory. A scalar atomic is done by thread 0; a used result is
// broadcast through shared memory. The instructions come from the target
// (inline PTX on NVIDIA, spelled as Triton 3.6 spells them).
//
// Triton 3.9's tt.atomic_load, tt.atomic_store and tt.atomic_poll follow
// the same rules, with relaxed accesses and the order in fences around
// them, as Triton places them: an acquire load is followed by a fence and a
// CTA barrier, a release store preceded by a barrier and a fence; a poll
// spins each thread over its elements and ends in a (fence and a) barrier.
// A ttg.memory_fence is the same fence alone.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Analysis/AtomicPlan.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;

namespace kiln::lowering {
namespace {

using Atomic = TargetInfo::Atomic;
using AtomicKind = TargetInfo::AtomicKind;

AtomicKind kindOf(tt::RMWOp op) {
  switch (op) {
  case tt::RMWOp::AND:
    return AtomicKind::And;
  case tt::RMWOp::OR:
    return AtomicKind::Or;
  case tt::RMWOp::XOR:
    return AtomicKind::Xor;
  case tt::RMWOp::ADD:
    return AtomicKind::Add;
  case tt::RMWOp::FADD:
    return AtomicKind::FAdd;
  case tt::RMWOp::MAX:
    return AtomicKind::Max;
  case tt::RMWOp::MIN:
    return AtomicKind::Min;
  case tt::RMWOp::UMAX:
    return AtomicKind::UMax;
  case tt::RMWOp::UMIN:
    return AtomicKind::UMin;
  case tt::RMWOp::XCHG:
    return AtomicKind::Exch;
  }
  llvm_unreachable("RMWOp");
}

TargetInfo::MemOrder orderOf(tt::MemSemantic sem) {
  switch (sem) {
  case tt::MemSemantic::RELAXED:
    return TargetInfo::MemOrder::Relaxed;
  case tt::MemSemantic::ACQUIRE:
    return TargetInfo::MemOrder::Acquire;
  case tt::MemSemantic::RELEASE:
    return TargetInfo::MemOrder::Release;
  case tt::MemSemantic::ACQUIRE_RELEASE:
    return TargetInfo::MemOrder::AcqRel;
  }
  llvm_unreachable("MemSemantic");
}

TargetInfo::MemScope scopeOf(tt::MemSyncScope scope) {
  switch (scope) {
  case tt::MemSyncScope::CTA:
    return TargetInfo::MemScope::CTA;
  case tt::MemSyncScope::GPU:
    return TargetInfo::MemScope::GPU;
  case tt::MemSyncScope::SYSTEM:
    return TargetInfo::MemScope::System;
  }
  llvm_unreachable("MemSyncScope");
}

Value both(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x || !y)
    return x ? x : y;
  return LLVM::AndOp::create(b, loc, x, y);
}

Value isZero(OpBuilder &b, Location loc, Value v) {
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, v, i32Constant(b, loc, 0));
}

/// In a program of several CTAs, true on the CTAs whose `copies` bits are 0:
/// those that hold the first copy of an element held by several CTAs; null
/// when no CTA holds another's elements. The other copies do no atomic
/// (checkCTALocality refuses them when they would need its result).
Value isFirstCTA(OpBuilder &b, Location loc, const Context &ctx, uint64_t copies) {
  if (ctx.numCTAs == 1 || !copies)
    return Value();
  return isZero(b, loc, LLVM::AndOp::create(b, loc, ctx.target.blockId(b, loc),
                                            i32Constant(b, loc, int64_t(copies))));
}

/// Thread 0 of CTA 0: the one that does a scalar atomic.
Value isScalarHolder(OpBuilder &b, Location loc, const Context &ctx) {
  return both(b, loc, isZero(b, loc, ctx.target.threadId(b, loc)),
              isFirstCTA(b, loc, ctx, ctx.numCTAs - 1));
}

/// Whether this thread is the first holder of its elements of `tensor` (its
/// free lane, warp and block bits are 0); null when no thread holds
/// another's elements.
Value isFirstHolder(OpBuilder &b, Location loc, const Context &ctx, Type tensor) {
  layout::LinearLayout ll = layoutOf(tensor);
  uint64_t lanes = ll.getFreeVariableMask(layout::kLane);
  uint64_t warps = ll.getFreeVariableMask(layout::kWarp);
  Value firstCTA =
      isFirstCTA(b, loc, ctx, globalLayoutOf(tensor).getFreeVariableMask(layout::kBlock));
  if (!lanes && !warps)
    return firstCTA;
  auto [lane, warp] = laneAndWarp(b, loc, ctx);
  Value pred = firstCTA;
  if (lanes)
    pred = both(b, loc, pred,
                isZero(b, loc, LLVM::AndOp::create(b, loc, lane, i32Constant(b, loc, lanes))));
  if (warps)
    pred = both(b, loc, pred,
                isZero(b, loc, LLVM::AndOp::create(b, loc, warp, i32Constant(b, loc, warps))));
  return pred;
}

/// For each register, the first register of the same thread holding its
/// element (itself when it has no earlier copy).
SmallVector<unsigned> firstRegisters(const layout::LinearLayout &ll) {
  uint64_t copies = ll.getFreeVariableMask(layout::kRegister);
  std::map<SmallVector<int32_t>, unsigned> first;
  unsigned n = ll.getInDimSize(layout::kRegister);
  for (unsigned r = 0; r < n; ++r)
    if (!(r & copies))
      first.emplace(layout::elementCoords(ll, r, 0, 0), r);
  SmallVector<unsigned> result;
  for (unsigned r = 0; r < n; ++r)
    result.push_back(first.at(layout::elementCoords(ll, r, 0, 0)));
  return result;
}

/// The row-major index of a tensor element, for a scratch slot per element.
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
  Value index;
  for (auto [c, size] : llvm::zip(coords, shape))
    index = index ? Value(LLVM::AddOp::create(
                        b, loc, LLVM::MulOp::create(b, loc, index, i32Constant(b, loc, size)), c))
                  : c;
  return index;
}

/// Completes `olds` (set at the first registers of the first holders) so
/// that every holder of each element has its old value, as planned.
FailureOr<SmallVector<Value>> shareOldValues(OpBuilder &b, Location loc, const Context &ctx,
                                             Operation *op, const layout::LinearLayout &ll,
                                             SmallVector<Value> olds, Value firstHolder) {
  SmallVector<unsigned> first = firstRegisters(ll);
  AtomicResultPlan plan = planAtomicResult(op);
  auto tensor = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<unsigned> own;
  for (unsigned r = 0; r < first.size(); ++r)
    if (first[r] == r)
      own.push_back(r);
  if (plan.exchange == AtomicResultExchange::LaneShuffle) {
    // The copies' lane bases are 0: the first holder is the same register
    // of the lane with those bits cleared.
    auto [lane, warp] = laneAndWarp(b, loc, ctx);
    (void)warp;
    uint64_t lanes = ll.getFreeVariableMask(layout::kLane);
    Value src = LLVM::AndOp::create(b, loc, lane, i32Constant(b, loc, ~int64_t(lanes)));
    for (unsigned r : own)
      olds[r] = shuffle(b, loc, ctx, olds[r], TargetInfo::Shuffle::Index, src);
  } else if (plan.exchange == AtomicResultExchange::SharedMemory) {
    FailureOr<Value> base = sharedMemoryBase(b, loc, op);
    if (failed(base))
      return failure();
    Type elem = olds[own.front()].getType();
    unsigned align = std::max(1u, elem.getIntOrFloatBitWidth() / 8);
    auto coords = registerCoordinates(b, loc, ll, ctx);
    SmallVector<Value> slots;
    for (unsigned r : own)
      slots.push_back(LLVM::GEPOp::create(b, loc, base->getType(), elem, *base,
                                          linearIndex(b, loc, coords[r], tensor.getShape())));
    // The first holders write, one barrier, every holder reads its slots.
    scf::IfOp::create(b, loc, firstHolder, [&](OpBuilder &tb, Location l) {
      for (auto [r, slot] : llvm::zip(own, slots))
        LLVM::StoreOp::create(tb, l, olds[r], slot, align);
      scf::YieldOp::create(tb, l);
    });
    ctx.target.barrier(b, loc);
    for (auto [r, slot] : llvm::zip(own, slots))
      olds[r] = LLVM::LoadOp::create(b, loc, elem, slot, align);
  }
  for (unsigned r = 0; r < first.size(); ++r)
    olds[r] = olds[first[r]];
  return olds;
}

/// A scalar atomic's old value from thread 0 to every thread, when used.
FailureOr<Value> broadcastScalar(OpBuilder &b, Location loc, const Context &ctx, Operation *op,
                                 Value old, Value isThread0) {
  if (planAtomicResult(op).exchange != AtomicResultExchange::SharedMemory)
    return old;
  FailureOr<Value> base = sharedMemoryBase(b, loc, op);
  if (failed(base))
    return failure();
  unsigned align = std::max(1u, old.getType().getIntOrFloatBitWidth() / 8);
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &tb, Location l) {
    LLVM::StoreOp::create(tb, l, old, *base, align);
    scf::YieldOp::create(tb, l);
  });
  ctx.target.barrier(b, loc);
  return Value(LLVM::LoadOp::create(b, loc, old.getType(), *base, align));
}

SmallVector<Value> registersOf(OpBuilder &b, Location loc, Value v) {
  return v ? unpack(b, loc, v) : SmallVector<Value>();
}

struct AtomicRMWLowering : OpConversionPattern<tt::AtomicRMWOp> {
  AtomicRMWLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Atomic atomic{kindOf(op.getAtomicRmwOp()), orderOf(op.getSem()), scopeOf(op.getScope())};
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor) {
      Value isThread0 = isScalarHolder(rewriter, loc, ctx);
      Value pred = both(rewriter, loc, isThread0, adaptor.getMask());
      Value old = ctx.target.atomicRMW(rewriter, loc, atomic, adaptor.getPtr(),
                                       {adaptor.getVal()}, pred)[0];
      FailureOr<Value> result = broadcastScalar(rewriter, loc, ctx, op, old, isThread0);
      if (failed(result))
        return failure();
      rewriter.replaceOp(op, *result);
      return success();
    }
    layout::LinearLayout ll = layoutOf(tensor);
    uint64_t copies = ll.getFreeVariableMask(layout::kRegister);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getVal());
    SmallVector<Value> masks = registersOf(rewriter, loc, adaptor.getMask());
    Value firstHolder = isFirstHolder(rewriter, loc, ctx, tensor);
    unsigned n = ctx.target.atomicElements(atomic.kind, vals[0].getType(), ctx.vectorWidth(op));
    SmallVector<Value> olds(vals.size());
    for (size_t r = 0; r < vals.size(); r += n) {
      if (r & copies)
        continue;
      Value pred = both(rewriter, loc, firstHolder, masks.empty() ? Value() : masks[r]);
      SmallVector<Value> got = ctx.target.atomicRMW(rewriter, loc, atomic, ptrs[r],
                                                    ArrayRef(vals).slice(r, n), pred);
      for (unsigned k = 0; k < n; ++k)
        olds[r + k] = got[k];
    }
    FailureOr<SmallVector<Value>> results =
        shareOldValues(rewriter, loc, ctx, op, ll, std::move(olds), firstHolder);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, pack(rewriter, loc, getTypeConverter()->convertType(tensor), *results));
    return success();
  }
  const Context &ctx;
};

struct AtomicCASLowering : OpConversionPattern<tt::AtomicCASOp> {
  AtomicCASLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto order = orderOf(op.getSem());
    auto scope = scopeOf(op.getScope());
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor) {
      Value isThread0 = isScalarHolder(rewriter, loc, ctx);
      Value old = ctx.target.atomicCAS(rewriter, loc, order, scope, adaptor.getPtr(),
                                       adaptor.getCmp(), adaptor.getVal(), isThread0);
      FailureOr<Value> result = broadcastScalar(rewriter, loc, ctx, op, old, isThread0);
      if (failed(result))
        return failure();
      rewriter.replaceOp(op, *result);
      return success();
    }
    layout::LinearLayout ll = layoutOf(tensor);
    uint64_t copies = ll.getFreeVariableMask(layout::kRegister);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> cmps = unpack(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getVal());
    Value firstHolder = isFirstHolder(rewriter, loc, ctx, tensor);
    SmallVector<Value> olds(vals.size());
    for (size_t r = 0; r < vals.size(); ++r)
      if (!(r & copies))
        olds[r] = ctx.target.atomicCAS(rewriter, loc, order, scope, ptrs[r], cmps[r], vals[r],
                                       firstHolder);
    FailureOr<SmallVector<Value>> results =
        shareOldValues(rewriter, loc, ctx, op, ll, std::move(olds), firstHolder);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, pack(rewriter, loc, getTypeConverter()->convertType(tensor), *results));
    return success();
  }
  const Context &ctx;
};

/// The element type of a tensor (or the scalar type) as LLVM holds it.
Type llvmElement(const mlir::TypeConverter &converter, Type type) {
  return converter.convertType(getElementTypeOrSelf(type));
}

struct AtomicLoadLowering : OpConversionPattern<tt::AtomicLoadOp> {
  AtomicLoadLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::AtomicLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto scope = scopeOf(op.getScope());
    Type elem = llvmElement(*getTypeConverter(), op.getType());
    auto ordered = [&] {
      if (op.getSem() != tt::MemSemantic::ACQUIRE)
        return;
      ctx.target.fence(rewriter, loc, TargetInfo::MemOrder::Acquire, scope);
      ctx.target.barrier(rewriter, loc);
    };
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor) {
      Value isThread0 = isScalarHolder(rewriter, loc, ctx);
      Value got = ctx.target.atomicLoad(rewriter, loc, scope, adaptor.getPtr(), elem,
                                        both(rewriter, loc, isThread0, adaptor.getMask()));
      ordered();
      FailureOr<Value> result = broadcastScalar(rewriter, loc, ctx, op, got, isThread0);
      if (failed(result))
        return failure();
      rewriter.replaceOp(op, *result);
      return success();
    }
    layout::LinearLayout ll = layoutOf(tensor);
    uint64_t copies = ll.getFreeVariableMask(layout::kRegister);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks = registersOf(rewriter, loc, adaptor.getMask());
    Value firstHolder = isFirstHolder(rewriter, loc, ctx, tensor);
    SmallVector<Value> got(ptrs.size());
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (!(r & copies))
        got[r] = ctx.target.atomicLoad(rewriter, loc, scope, ptrs[r], elem,
                                       both(rewriter, loc, firstHolder,
                                            masks.empty() ? Value() : masks[r]));
    ordered();
    FailureOr<SmallVector<Value>> results =
        shareOldValues(rewriter, loc, ctx, op, ll, std::move(got), firstHolder);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, pack(rewriter, loc, getTypeConverter()->convertType(tensor), *results));
    return success();
  }
  const Context &ctx;
};

struct AtomicStoreLowering : OpConversionPattern<tt::AtomicStoreOp> {
  AtomicStoreLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::AtomicStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto scope = scopeOf(op.getScope());
    if (op.getSem() == tt::MemSemantic::RELEASE) {
      // The whole CTA's earlier accesses, then the release.
      ctx.target.barrier(rewriter, loc);
      ctx.target.fence(rewriter, loc, TargetInfo::MemOrder::Release, scope);
    }
    auto tensor = dyn_cast<RankedTensorType>(op.getVal().getType());
    if (!tensor) {
      Value isThread0 = isScalarHolder(rewriter, loc, ctx);
      ctx.target.atomicStore(rewriter, loc, scope, adaptor.getPtr(), adaptor.getVal(),
                             both(rewriter, loc, isThread0, adaptor.getMask()));
      rewriter.eraseOp(op);
      return success();
    }
    layout::LinearLayout ll = layoutOf(tensor);
    uint64_t copies = ll.getFreeVariableMask(layout::kRegister);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> vals = unpack(rewriter, loc, adaptor.getVal());
    SmallVector<Value> masks = registersOf(rewriter, loc, adaptor.getMask());
    Value firstHolder = isFirstHolder(rewriter, loc, ctx, tensor);
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (!(r & copies))
        ctx.target.atomicStore(rewriter, loc, scope, ptrs[r], vals[r],
                               both(rewriter, loc, firstHolder,
                                    masks.empty() ? Value() : masks[r]));
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// Each thread spins over the elements it polls (those it holds first; a
/// scalar: thread 0) until all have read their expected value or the
/// shared timeout expires; the loads of elements already seen are
/// predicated off. Returns, per polled register, whether it was seen.
SmallVector<Value> spin(OpBuilder &b, Location loc, const Context &ctx, TargetInfo::MemScope scope,
                        ArrayRef<Value> ptrs, ArrayRef<Value> expected, Value poller,
                        Value timeout) {
  Type i1 = b.getI1Type();
  auto constant = [&](bool v) { return LLVM::ConstantOp::create(b, loc, i1, b.getBoolAttr(v)); };
  Value start = timeout ? ctx.target.globalTimer(b, loc) : Value();
  size_t n = ptrs.size();
  // State: done flags (a thread that polls nothing is done), then seen flags.
  SmallVector<Value> init(n, poller ? Value(LLVM::XOrOp::create(b, loc, poller, constant(true)))
                                    : Value(constant(false)));
  init.append(n, constant(false));
  SmallVector<Type> types(2 * n, i1);
  auto loop = scf::WhileOp::create(
      b, loc, types, init,
      [&](OpBuilder &bb, Location l, ValueRange state) {
        SmallVector<Value> next;
        Value allDone;
        for (size_t i = 0; i < n; ++i) {
          Value pending = LLVM::XOrOp::create(bb, l, state[i], constant(true));
          Value got = ctx.target.atomicLoad(bb, l, scope, ptrs[i], expected[i].getType(),
                                            pending);
          Value hit = LLVM::AndOp::create(
              bb, l, pending,
              LLVM::ICmpOp::create(bb, l, LLVM::ICmpPredicate::eq, got, expected[i]));
          Value done = LLVM::OrOp::create(bb, l, state[i], hit);
          next.push_back(done);
          allDone = allDone ? Value(LLVM::AndOp::create(bb, l, allDone, done)) : done;
        }
        for (size_t i = 0; i < n; ++i)
          next.push_back(LLVM::OrOp::create(bb, l, state[n + i], LLVM::AndOp::create(
                                                                     bb, l, next[i],
                                                                     LLVM::XOrOp::create(
                                                                         bb, l, state[i],
                                                                         constant(true)))));
        Value more = LLVM::XOrOp::create(bb, l, allDone, constant(true));
        if (timeout) {
          // Unsigned, as Triton compares: the loads above ran at least once.
          Value elapsed = LLVM::SubOp::create(bb, l, ctx.target.globalTimer(bb, l), start);
          Value left = LLVM::ICmpOp::create(bb, l, LLVM::ICmpPredicate::ult, elapsed, timeout);
          more = LLVM::AndOp::create(bb, l, more, left);
        }
        scf::ConditionOp::create(bb, l, more, next);
      },
      [&](OpBuilder &bb, Location l, ValueRange state) {
        scf::YieldOp::create(bb, l, state);
      });
  return SmallVector<Value>(loop.getResults().drop_front(n));
}

struct AtomicPollLowering : OpConversionPattern<tt::AtomicPollOp> {
  AtomicPollLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::AtomicPollOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto scope = scopeOf(op.getScope());
    // The whole CTA waits for every poll; the acquire is the seen loads'.
    auto finish = [&] {
      if (op.getSem() == tt::MemSemantic::ACQUIRE)
        ctx.target.fence(rewriter, loc, TargetInfo::MemOrder::Acquire, scope);
      ctx.target.barrier(rewriter, loc);
    };
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor) {
      Value isThread0 = isScalarHolder(rewriter, loc, ctx);
      Value seen = spin(rewriter, loc, ctx, scope, adaptor.getPtr(), adaptor.getExpected(),
                        isThread0, adaptor.getTimeout())[0];
      finish();
      FailureOr<Value> result = broadcastScalar(rewriter, loc, ctx, op, seen, isThread0);
      if (failed(result))
        return failure();
      rewriter.replaceOp(op, *result);
      return success();
    }
    layout::LinearLayout ll = layoutOf(tensor);
    uint64_t copies = ll.getFreeVariableMask(layout::kRegister);
    SmallVector<Value> ptrs = unpack(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> expected = unpack(rewriter, loc, adaptor.getExpected());
    Value firstHolder = isFirstHolder(rewriter, loc, ctx, tensor);
    SmallVector<Value> ownPtrs, ownExpected;
    SmallVector<size_t> own;
    for (size_t r = 0; r < ptrs.size(); ++r)
      if (!(r & copies)) {
        own.push_back(r);
        ownPtrs.push_back(ptrs[r]);
        ownExpected.push_back(expected[r]);
      }
    SmallVector<Value> seen =
        spin(rewriter, loc, ctx, scope, ownPtrs, ownExpected, firstHolder, adaptor.getTimeout());
    finish();
    SmallVector<Value> flags(ptrs.size());
    for (auto [r, s] : llvm::zip(own, seen))
      flags[r] = s;
    FailureOr<SmallVector<Value>> results =
        shareOldValues(rewriter, loc, ctx, op, ll, std::move(flags), firstHolder);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, pack(rewriter, loc, getTypeConverter()->convertType(tensor), *results));
    return success();
  }
  const Context &ctx;
};

/// ttg.memory_fence: the target's fence, in the thread alone.
struct MemoryFenceLowering : OpConversionPattern<ttg::MemoryFenceOp> {
  MemoryFenceLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::MemoryFenceOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ctx.target.fence(rewriter, op.getLoc(), orderOf(op.getSem()), scopeOf(op.getScope()));
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

} // namespace

LogicalResult checkAtomicLowering(Operation *op, const TargetInfo &target) {
  std::string why;
  if (auto rmw = dyn_cast<tt::AtomicRMWOp>(op))
    why = target.atomicUnsupported(kindOf(rmw.getAtomicRmwOp()),
                                   getElementTypeOrSelf(rmw.getVal().getType()));
  else if (auto cas = dyn_cast<tt::AtomicCASOp>(op))
    why = target.casUnsupported(getElementTypeOrSelf(cas.getVal().getType()));
  else if (isa<tt::GridDependencyWaitOp, tt::GridDependencyLaunchDependentsOp>(op))
    why = target.gridDependencyUnsupported();
  if (why.empty())
    return success();
  return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM: " << why;
}

void populateAtomicPatterns(TypeConverter &converter, const Context &ctx,
                            RewritePatternSet &patterns) {
  patterns.add<AtomicRMWLowering, AtomicCASLowering, AtomicLoadLowering, AtomicStoreLowering,
               AtomicPollLowering, MemoryFenceLowering>(converter, ctx);
}

} // namespace kiln::lowering
