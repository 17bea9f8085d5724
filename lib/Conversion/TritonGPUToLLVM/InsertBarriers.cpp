//===- InsertBarriers.cpp - barriers between racing shared accesses -------===//
//
// mbarriers and TMA: an mbarrier's arrivals and waits are meant to race
// (only its init and inval are plain writes), and a TMA load's write to its
// buffer is ordered by the waits on its mbarrier, not by bar.sync, so it
// only waits for the accesses before it (a generic read of the buffer
// before a TMA overwrites it needs the barrier). A TMA store reads through
// the async proxy: after generic writes it needs fence.proxy.async in every
// thread, then the barrier.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/Allocation.h"
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_INSERTBARRIERS
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// Bytes [begin, end) of shared memory.
struct Range {
  int64_t begin, end;
  bool overlaps(const Range &o) const { return begin < o.end && o.begin < end; }
  bool operator==(const Range &o) const { return begin == o.begin && end == o.end; }
  bool operator<(const Range &o) const {
    return begin != o.begin ? begin < o.begin : end < o.end;
  }
};
constexpr Range kAll{0, std::numeric_limits<int64_t>::max()};

/// The shared memory read and written since the last barrier.
struct Pending {
  SmallVector<Range> reads, writes;
  /// Of an op's own effects only: writes completed through an mbarrier,
  /// which wait for what is pending but are never pending themselves.
  SmallVector<Range> asyncWrites;
  /// The op reads through the async proxy (a TMA store).
  bool asyncRead = false;

  bool empty() const { return reads.empty() && writes.empty() && asyncWrites.empty(); }
  void clear() { reads.clear(), writes.clear(); }
  void merge(const Pending &o) {
    auto add = [](SmallVector<Range> &to, ArrayRef<Range> from) {
      for (const Range &r : from)
        if (!llvm::is_contained(to, r))
          to.push_back(r);
      llvm::sort(to);
    };
    add(reads, o.reads);
    add(writes, o.writes);
  }
  bool operator==(const Pending &o) const { return reads == o.reads && writes == o.writes; }
  static bool anyOverlap(ArrayRef<Range> a, ArrayRef<Range> b) {
    return llvm::any_of(a, [&](const Range &x) {
      return llvm::any_of(b, [&](const Range &y) { return x.overlaps(y); });
    });
  }
  /// Whether an op doing `next` must wait for what is pending.
  bool racesWith(const Pending &next) const {
    return anyOverlap(next.writes, reads) || anyOverlap(next.writes, writes) ||
           anyOverlap(next.reads, writes) || anyOverlap(next.asyncWrites, reads) ||
           anyOverlap(next.asyncWrites, writes);
  }
};

class BarrierInserter {
public:
  BarrierInserter(const ScratchContext &ctx) : ctx(ctx) {}

  Pending visitBlock(Block &block, Pending state) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<gpu::BarrierOp>(op)) {
        state.clear();
        continue;
      }
      Pending effects = effectsOf(&op);
      if (!effects.empty()) {
        if (state.racesWith(effects)) {
          OpBuilder b(&op);
          if (effects.asyncRead && Pending::anyOverlap(effects.reads, state.writes) &&
              !isa_and_nonnull<ttng::FenceAsyncSharedOp>(op.getPrevNode()))
            ttng::FenceAsyncSharedOp::create(b, op.getLoc(), /*bCluster=*/false);
          gpu::BarrierOp::create(b, op.getLoc());
          state.clear();
        }
        state.merge(effects);
      }
      if (op.getNumRegions())
        state = visitRegions(&op, state);
    }
    return state;
  }

private:
  Pending visitRegions(Operation *op, Pending state) {
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      Pending out = visitBlock(ifOp.getThenRegion().front(), state);
      if (!ifOp.getElseRegion().empty())
        out.merge(visitBlock(ifOp.getElseRegion().front(), state));
      else
        out.merge(state);
      return out;
    }
    // Loops and any other region op: the body may run again after itself,
    // or not at all. Iterate until what reaches the body is stable (the
    // ranges are finitely many, so this ends).
    Pending entry = state;
    for (;;) {
      Pending out = entry;
      for (Region &region : op->getRegions())
        for (Block &block : region)
          out.merge(visitBlock(block, entry));
      Pending next = entry;
      next.merge(out);
      if (next == entry)
        return out;
      entry = next;
    }
  }

  /// The buffer a descriptor views, traced through views and loop-carried
  /// values; the whole of shared memory when it cannot be traced.
  Range rangeOf(Value desc) {
    for (unsigned depth = 0; depth < 64; ++depth) {
      if (auto arg = dyn_cast<BlockArgument>(desc)) {
        auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (!forOp || arg.getArgNumber() == 0)
          return kAll;
        desc = forOp.getInitArgs()[arg.getArgNumber() - 1];
        continue;
      }
      Operation *def = desc.getDefiningOp();
      if (auto alloc = dyn_cast<ttg::LocalAllocOp>(def)) {
        auto offset = alloc->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
        if (!offset)
          return kAll;
        return {offset.getInt(), offset.getInt() + localAllocBytes(alloc)};
      }
      if (auto index = dyn_cast<ttg::MemDescIndexOp>(def)) {
        desc = index.getSrc();
        continue;
      }
      return kAll;
    }
    return kAll;
  }

  Pending effectsOf(Operation *op) {
    Pending p;
    if (auto alloc = dyn_cast<ttg::LocalAllocOp>(op)) {
      if (alloc.getSrc())
        p.writes.push_back(rangeOf(alloc.getResult()));
      return p;
    }
    if (auto store = dyn_cast<ttg::LocalStoreOp>(op)) {
      p.writes.push_back(rangeOf(store.getDst()));
      return p;
    }
    if (auto load = dyn_cast<ttg::LocalLoadOp>(op)) {
      p.reads.push_back(rangeOf(load.getSrc()));
      return p;
    }
    if (isa<ttg::LocalDeallocOp, ttng::TMAStoreWaitOp>(op))
      return p;
    if (isa<ttng::InitBarrierOp, ttng::InvalBarrierOp>(op)) {
      p.writes.push_back(rangeOf(op->getOperand(0)));
      return p;
    }
    if (auto expect = dyn_cast<ttng::BarrierExpectOp>(op)) {
      p.reads.push_back(rangeOf(expect.getAlloc()));
      return p;
    }
    if (auto wait = dyn_cast<ttng::WaitBarrierOp>(op)) {
      p.reads.push_back(rangeOf(wait.getAlloc()));
      return p;
    }
    if (auto load = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op)) {
      p.reads.push_back(rangeOf(load.getBarrier()));
      p.asyncWrites.push_back(rangeOf(load.getResult()));
      return p;
    }
    if (auto store = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(op)) {
      p.reads.push_back(rangeOf(store.getSrc()));
      p.asyncRead = true;
      return p;
    }
    if (auto offset = op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr)) {
      Range r{offset.getInt(), offset.getInt() + std::max<int64_t>(1, scratchBytes(op, ctx))};
      p.reads.push_back(r);
      p.writes.push_back(r);
      return p;
    }
    // Ops of plugins and future ops that declare shared-memory effects.
    if (auto iface = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (auto &effect : effects) {
        if (effect.getResource() != ttg::SharedMemory::get())
          continue;
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          p.reads.push_back(kAll);
        else if (isa<MemoryEffects::Write>(effect.getEffect()))
          p.writes.push_back(kAll);
      }
    }
    return p;
  }

  ScratchContext ctx;
};

struct InsertBarriers : kiln::impl::InsertBarriersBase<InsertBarriers> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto numWarps = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    ScratchContext ctx{ttg::lookupThreadsPerWarp(module),
                       numWarps ? unsigned(numWarps.getInt()) : 1u};
    for (auto func : module.getOps<tt::FuncOp>()) {
      BarrierInserter inserter(ctx);
      for (Block &block : func.getBody())
        inserter.visitBlock(block, Pending());
    }
  }
};

} // namespace
