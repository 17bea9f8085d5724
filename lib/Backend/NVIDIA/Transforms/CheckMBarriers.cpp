//===- CheckMBarriers.cpp - the llir-check-mbarriers pass -----------------===//
//
// A per-block simulation of each mbarrier's phases (Passes.td says what it
// proves and where it gives up). The model, per CTA: init(n) opens a phase
// waiting for n arrivals and 0 bytes; an expect-tx is one arrival and adds
// its bytes; a TMA copy delivers its buffer's bytes; a phase completes when
// both reach zero. wait(parity p) returns once the current phase's parity
// differs from p.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"

#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/IR/Matchers.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_CHECKMBARRIERS
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

/// One mbarrier: an allocation and, for a ring, a constant index (-1: the
/// allocation is the barrier).
using Key = std::pair<Value, int64_t>;

std::optional<Key> keyOf(Value barrier) {
  if (barrier.getDefiningOp<ttg::LocalAllocOp>())
    return Key{barrier, -1};
  auto index = barrier.getDefiningOp<ttg::MemDescIndexOp>();
  APInt i;
  if (index && index.getSrc().getDefiningOp<ttg::LocalAllocOp>() &&
      matchPattern(index.getIndex(), m_ConstantInt(&i)))
    return Key{index.getSrc(), i.getSExtValue()};
  return std::nullopt;
}

/// The allocation a memdesc views, when it is a local_alloc's.
Value allocOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<ttg::LocalAllocOp>(def))
      return v;
    if (!isa<ttg::MemDescIndexOp, ttg::MemDescTransOp, ttg::MemDescSubsliceOp,
             ttg::MemDescReinterpretOp, ttng::MapToRemoteBufferOp>(def))
      return {};
    v = def->getOperand(0);
  }
  return {};
}

bool alwaysTrue(Value pred) {
  APInt v;
  return !pred || (matchPattern(pred, m_ConstantInt(&v)) && v.getBoolValue());
}

struct State {
  Operation *init;
  int64_t count, pending, bytes = 0, arrivals = 0, delivered = 0, expected = 0;
  unsigned completed = 0;
  void arrive(int64_t n) {
    pending -= n;
    arrivals += n;
    settle();
  }
  /// An expect-tx: one arrival raising the bytes the phase waits for.
  void expect(int64_t n) {
    bytes += n;
    expected += n;
    arrive(1);
  }
  void deliver(int64_t n) {
    bytes -= n;
    delivered += n;
    settle();
  }

private:
  void settle() {
    while (pending == 0 && bytes == 0) {
      ++completed;
      pending = count;
      arrivals = delivered = expected = 0;
    }
  }
};

struct CheckMBarriersPass : kiln::nvidia::impl::CheckMBarriersBase<CheckMBarriersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (ttg::lookupClusterCTAs(module) > 1)
      return; // other CTAs may arrive and copy
    bool failedAny = false;
    module.walk([&](tt::FuncOp func) {
      if (!func.walk([](ttg::WarpSpecializeOp) { return WalkResult::interrupt(); })
               .wasInterrupted())
        func.walk([&](Block *block) { failedAny |= failed(checkBlock(*block)); });
    });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult checkBlock(Block &block) {
    std::map<std::pair<void *, int64_t>, State> states;
    auto key = [](const Key &k) { return std::make_pair(k.first.getAsOpaquePointer(), k.second); };
    auto forget = [&](Value alloc) {
      for (auto it = states.begin(); it != states.end();)
        it = it->first.first == alloc.getAsOpaquePointer() ? states.erase(it) : std::next(it);
    };
    unsigned numWarps = ttg::lookupNumWarps(block.getParentOp()).value_or(4);
    bool ok = true;
    for (Operation &op : block) {
      if (op.getNumRegions() || isa<tt::CallOp>(op)) {
        states.clear(); // anything may happen in there
        continue;
      }
      if (auto init = dyn_cast<ttng::InitBarrierOp>(op)) {
        if (std::optional<Key> k = keyOf(init.getAlloc()))
          states[key(*k)] = State{&op, init.getCount(), init.getCount()};
        continue;
      }
      auto lookup = [&](Value barrier) -> State * {
        std::optional<Key> found = keyOf(barrier);
        if (!found) {
          // Some barrier of a tracked ring, which one unknown.
          if (Value alloc = allocOf(barrier))
            forget(alloc);
          return nullptr;
        }
        auto it = states.find(key(*found));
        return it == states.end() ? nullptr : &it->second;
      };
      // The state an op signals, unless its predicate may be off (then the
      // barrier is given up on).
      auto signalled = [&](Value barrier, Value pred) -> State * {
        State *s = lookup(barrier);
        if (s && !alwaysTrue(pred)) {
          forget(allocOf(barrier));
          return nullptr;
        }
        return s;
      };
      if (auto expect = dyn_cast<ttng::BarrierExpectOp>(op)) {
        if (State *s = signalled(expect.getAlloc(), expect.getPred()))
          s->expect(expect.getSize());
        continue;
      }
      if (auto arrive = dyn_cast<ttng::ArriveBarrierOp>(op)) {
        if (State *s = signalled(arrive.getAlloc(), arrive.getPred())) {
          int64_t arrivers = 1;
          if (auto per = arrive->getAttrOfType<IntegerAttr>(ttng::kWarpsPerArrivalAttr))
            arrivers = std::max<int64_t>(1, numWarps / per.getInt());
          s->arrive(arrive.getCount() * arrivers);
        }
        continue;
      }
      // Every thread arrives once its cp.async copies land; by default each
      // first adds the arrival it makes to the count (no net change).
      if (auto arrive = dyn_cast<ttng::AsyncCopyMbarrierArriveOp>(op)) {
        if (State *s = lookup(arrive.getBarrier()); s && arrive.getNoIncrement())
          s->arrive(int64_t(numWarps) * ttg::lookupThreadsPerWarp(block.getParentOp()));
        continue;
      }
      if (auto copy = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op)) {
        if (State *s = signalled(copy.getBarrier(), copy.getPred()))
          s->deliver(ttng::bufferBytes(copy.getResult().getType()));
        continue;
      }
      if (auto wait = dyn_cast<ttng::WaitBarrierOp>(op)) {
        State *s = lookup(wait.getAlloc());
        APInt parity;
        if (!s || !alwaysTrue(wait.getPred()) ||
            !matchPattern(wait.getPhase(), m_ConstantInt(&parity)))
          continue;
        if ((s->completed & 1) != (parity.getZExtValue() & 1))
          continue; // that phase has completed
        InFlightDiagnostic diag = wait.emitError()
            << "this mbarrier wait can never complete: phase " << s->completed
            << " (parity " << (s->completed & 1) << ") of the barrier needs " << s->count
            << " arrival(s) and gets " << s->arrivals;
        if (s->expected || s->delivered)
          diag << ", and expects " << s->expected << " byte(s) of which TMA copies deliver "
               << s->delivered;
        diag << " before this wait; nothing after the wait can complete it (every warp "
                "stops here first)";
        diag.attachNote(s->init->getLoc()) << "the barrier is initialised here";
        ok = false;
        continue;
      }
      if (isa<ttng::InvalBarrierOp>(op)) {
        if (Value alloc = allocOf(op.getOperand(0)))
          forget(alloc);
        continue;
      }
      // Views are followed where they are used; any other use of a tracked
      // buffer (a copy that arrives on it, ...) may signal it.
      if (isa<ttg::MemDescIndexOp, ttg::MemDescTransOp, ttg::MemDescSubsliceOp,
              ttg::MemDescReinterpretOp, ttng::MapToRemoteBufferOp>(op))
        continue;
      for (Value operand : op.getOperands())
        if (isa<ttg::MemDescType>(operand.getType()))
          if (Value alloc = allocOf(operand))
            forget(alloc);
    }
    return success(ok);
  }
};

} // namespace
