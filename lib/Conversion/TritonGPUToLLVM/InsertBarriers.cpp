//===- InsertBarriers.cpp - barriers between racing shared accesses -------===//
//
// Ops the neutral pass does not know say what they do to shared memory
// through the lowering extensions (LoweringExtension.h): a write completed
// through a barrier object (a TMA load) only waits for the accesses before
// it (a generic read of the buffer before it is overwritten needs the
// barrier); a read through another proxy (a TMA store) after generic writes
// needs the extension's proxy fence in every thread, then the barrier.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/Allocation.h"
#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
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

void addRanges(SmallVector<Range> &to, ArrayRef<Range> from) {
  for (const Range &r : from)
    if (!llvm::is_contained(to, r))
      to.push_back(r);
  llvm::sort(to);
}

/// The shared memory read and written since the last barrier, and the
/// buffers of asynchronous copies still in flight. An async copy's write
/// lands at the async_wait that covers its group: only there does it
/// become a pending write that other threads' reads must be fenced from
/// (a barrier does not complete a copy, so it leaves those in flight).
struct Pending {
  SmallVector<Range> reads, writes;
  /// Async copies not yet in a commit group, and those in one.
  SmallVector<Range> uncommitted, committed;
  /// Of an op's own effects only: writes completed through an mbarrier,
  /// which wait for what is pending but are never pending themselves.
  SmallVector<Range> asyncWrites;
  /// The op reads through another proxy: the extension that fences it.
  const LoweringExtension *proxyRead = nullptr;

  bool empty() const { return reads.empty() && writes.empty() && asyncWrites.empty(); }
  void clear() { reads.clear(), writes.clear(); }
  void merge(const Pending &o) {
    addRanges(reads, o.reads);
    addRanges(writes, o.writes);
    addRanges(uncommitted, o.uncommitted);
    addRanges(committed, o.committed);
  }
  bool operator==(const Pending &o) const {
    return reads == o.reads && writes == o.writes && uncommitted == o.uncommitted &&
           committed == o.committed;
  }
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
  BarrierInserter(const ScratchContext &ctx, std::vector<const LoweringExtension *> extensions)
      : ctx(ctx), extensions(std::move(extensions)) {}

  Pending visitBlock(Block &block, Pending state) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<gpu::BarrierOp, ttg::BarrierOp>(op)) { // every ttg.barrier is a CTA barrier
        state.clear();
        continue;
      }
      if (visitAsync(&op, state))
        continue;
      Pending effects = effectsOf(&op);
      if (!effects.empty()) {
        if (state.racesWith(effects)) {
          OpBuilder b(&op);
          if (effects.proxyRead && Pending::anyOverlap(effects.reads, state.writes) &&
              !(op.getPrevNode() && effects.proxyRead->isProxyFence(op.getPrevNode())))
            effects.proxyRead->insertProxyFence(b, op.getLoc());
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
  /// The async-copy ops; false for any other op.
  bool visitAsync(Operation *op, Pending &state) {
    if (auto copy = dyn_cast<ttg::AsyncCopyGlobalToLocalOp>(op)) {
      // Its write may land as soon as it is issued: other threads must be
      // done with the bytes (WAR, WAW) before. Two copies never need a
      // barrier between them: it would not order their landing.
      Pending issue;
      issue.writes.push_back(rangeOf(copy.getResult()));
      if (state.racesWith(issue)) {
        OpBuilder b(op);
        gpu::BarrierOp::create(b, op->getLoc());
        state.clear();
      }
      addRanges(state.uncommitted, issue.writes);
      return true;
    }
    if (isa<ttg::AsyncCommitGroupOp>(op)) {
      addRanges(state.committed, state.uncommitted);
      state.uncommitted.clear();
      return true;
    }
    if (auto wait = dyn_cast<ttg::AsyncWaitOp>(op)) {
      // Any committed group may complete here; with num = 0 all do. Groups
      // left in flight may complete at a later wait, so they stay.
      addRanges(state.writes, state.committed);
      if (wait.getNum() == 0)
        state.committed.clear();
      return true;
    }
    return false;
  }

  Pending visitRegions(Operation *op, Pending state) {
    // Every warp of the CTA meets at a warp_specialize's start and end (its
    // lowering's dispatch barrier): nothing before races with its regions,
    // nor they with what follows. Its regions run on different warps.
    if (isa<ttg::WarpSpecializeOp>(op)) {
      op->walk([&](ttg::WarpSpecializePartitionsOp partitions) {
        for (Region &region : partitions->getRegions())
          for (Block &block : region)
            visitBlock(block, Pending());
      });
      for (Block &block : cast<ttg::WarpSpecializeOp>(op).getDefaultRegion())
        visitBlock(block, Pending());
      return Pending();
    }
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

  static int64_t viewBytes(Value desc) {
    auto type = cast<ttg::MemDescType>(desc.getType());
    int64_t elements = 1;
    for (int64_t d : type.getShape())
      elements *= d;
    return (elements * type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  }

  /// The bytes a descriptor views, traced through views and loop-carried
  /// values: the buffer of a constant index into a multi-buffered
  /// allocation, the whole allocation when an index is not constant (or a
  /// loop carries the view), the whole of shared memory when the buffer
  /// cannot be traced.
  Range rangeOf(Value desc) {
    std::optional<int64_t> inner = 0; // the view's offset in its allocation
    int64_t bytes = viewBytes(desc);
    for (unsigned depth = 0; depth < 64; ++depth) {
      if (auto arg = dyn_cast<BlockArgument>(desc)) {
        auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (!forOp || arg.getArgNumber() == 0)
          return kAll;
        desc = forOp.getInitArgs()[arg.getArgNumber() - 1];
        inner.reset();
        continue;
      }
      Operation *def = desc.getDefiningOp();
      if (auto alloc = dyn_cast<ttg::LocalAllocOp>(def)) {
        auto offset = alloc->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr);
        if (!offset)
          return kAll;
        if (inner)
          return {offset.getInt() + *inner, offset.getInt() + *inner + bytes};
        return {offset.getInt(), offset.getInt() + localAllocBytes(alloc)};
      }
      if (isa<ttg::MemDescReinterpretOp, ttg::MemDescTransOp>(def)) {
        desc = def->getOperand(0); // the same bytes
        continue;
      }
      if (isa<ttg::MemDescSubsliceOp>(def)) {
        inner.reset(); // some of the source's bytes
        desc = def->getOperand(0);
        continue;
      }
      if (auto index = dyn_cast<ttg::MemDescIndexOp>(def)) {
        APInt i;
        if (inner && matchPattern(index.getIndex(), m_ConstantInt(&i)))
          *inner += i.getSExtValue() * viewBytes(index.getResult());
        else
          inner.reset();
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
    if (isa<ttg::LocalDeallocOp>(op))
      return p;
    for (const LoweringExtension *extension : extensions) {
      SmallVector<SharedEffect> effects;
      if (!extension->sharedEffects(op, effects))
        continue;
      for (const SharedEffect &effect : effects) {
        // An extension's value that is no buffer counts as all of it.
        Range r = effect.buffer && isa<ttg::MemDescType>(effect.buffer.getType())
                      ? rangeOf(effect.buffer)
                      : kAll;
        switch (effect.kind) {
        case SharedEffect::Kind::Read:
          p.reads.push_back(r);
          break;
        case SharedEffect::Kind::Write:
          p.writes.push_back(r);
          break;
        case SharedEffect::Kind::AsyncWrite:
          p.asyncWrites.push_back(r);
          break;
        case SharedEffect::Kind::ProxyRead:
          p.reads.push_back(r);
          p.proxyRead = extension;
          break;
        }
      }
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
  std::vector<const LoweringExtension *> extensions;
};

struct InsertBarriers : kiln::impl::InsertBarriersBase<InsertBarriers> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto numWarps = module->getAttrOfType<IntegerAttr>("ttg.num-warps");
    ScratchContext ctx{ttg::lookupThreadsPerWarp(module),
                       numWarps ? unsigned(numWarps.getInt()) : 1u};
    for (auto func : module.getOps<tt::FuncOp>()) {
      // The extensions of the module's target (every one without a target).
      auto target = module->getAttrOfType<StringAttr>("ttg.target");
      BarrierInserter inserter(ctx, loweringExtensions(target ? target.getValue() : ""));
      for (Block &block : func.getBody())
        inserter.visitBlock(block, Pending());
    }
  }
};

} // namespace
