//===- WarpSpecialize.cpp - the ttgir-warp-specialize pass ----------------===//
//
// A loop marked `tt.warp_specialize` (Triton's `tl.range(...,
// warp_specialize=True)`) whose descriptor loads can stream becomes a
// ttg.warp_specialize: one producer warp issues the TMA copies, the
// module's warps (the default region) compute, and the two meet at rings
// of S slots (num_stages, one more where the CTA has its SM to itself; see
// fitStages):
//
//   producer, per step of a load's loop:  wait empty[s] (parity p ^ 1),
//                                         expect ready[s], copy into slot s
//   consumer, per step:                   wait ready[s] (parity p), read
//                                         slot s in place (wgmma) or into
//                                         registers, then arrive empty[s]
//
// with s = c mod S and p = (c / S) mod 2 for a counter c of the loop's
// steps carried through the loop nest (so a persistent loop's tiles keep
// the phases going). The producer is the marked loop again, cut down to
// what the copies' coordinates need; the consumer is the loop itself with
// its loads replaced. Everything else (the epilogue included) stays with
// the consumer, so the producer fills the next tile's slots while the
// consumers store the last one.
//
//===----------------------------------------------------------------------===//
#include "LoopCounters.h"
#include "PipelinePlan.h"

#include "kiln/Analysis/Allocation.h"
#include "kiln/Backend/NVIDIA/RegisterBudget.h"
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace kiln::nvidia {
#define GEN_PASS_DEF_WARPSPECIALIZE
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

constexpr int32_t kProducerWarps = 1;
constexpr int32_t kProducerRegisters = 24;
constexpr int64_t kSharedMemory = 227 * 1024; // sm_90's opt-in maximum per CTA

/// A descriptor load the producer streams, and its ring.
struct Stream {
  tt::DescriptorLoadOp load;
  MemDescType slotType, ringType;
  Value ring;
};

/// The streamed loads of one loop: their rings share the slot index, the
/// counter and one pair of mbarrier rings.
struct Group {
  scf::ForOp loop;
  SmallVector<Stream> streams;
  Value ready, empty;
  int64_t bytes = 0;
  /// The loop is a matmul's K loop (accumulatingDot), decided before the
  /// rewrite changes its dot.
  bool matmul = false;
  /// Every read of the loads' blocks is a synchronous wgmma's operand
  /// (through views), so a warp group is done with a slot when its wgmmas
  /// are.
  bool onlyWgmmaReads = false;
};

/// Whether every use of `memdesc`, through views, is an operand of a wgmma
/// the lowering waits for.
bool onlySyncWgmmaReads(Value memdesc) {
  return llvm::all_of(memdesc.getUsers(), [](Operation *user) {
    if (isa<MemDescIndexOp, MemDescTransOp, MemDescSubsliceOp, MemDescReinterpretOp>(user))
      return onlySyncWgmmaReads(user->getResult(0));
    auto dot = dyn_cast<ttng::WarpGroupDotOp>(user);
    return dot && !dot.getIsAsync();
  });
}

/// Whether `load` can stream: a descriptor made outside `outer`, a block
/// with an nvmma_shared encoding, and only loops between it and `outer`.
bool streamable(tt::DescriptorLoadOp load, scf::ForOp outer) {
  if (outer.getBodyRegion().isAncestor(load.getDesc().getParentRegion()))
    return false;
  for (Operation *p = load->getParentOp(); p != outer; p = p->getParentOp())
    if (!isa<scf::ForOp>(p))
      return false;
  return bool(ttng::tmaBufferType(load.getDesc().getType(), load.getType().getShape(), true));
}

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(v)));
}

/// Slot `slot` of a ring.
Value slotOf(OpBuilder &b, Location loc, Value ring, Value slot) {
  auto type = cast<MemDescType>(ring.getType());
  auto slotType = MemDescType::get(type.getShape().drop_front(), type.getElementType(),
                                   type.getEncoding(), type.getMemorySpace(), true);
  return MemDescIndexOp::create(b, loc, slotType, ring, slot);
}

class Specializer {
public:
  Specializer(scf::ForOp loop, unsigned numStages, unsigned numWarps)
      : loop(loop), loc(loop.getLoc()), numStages(numStages), numWarps(numWarps) {}

  /// Rewrites the loop; false (nothing changed) when no load can stream.
  bool run() {
    if (!collect())
      return false;
    fitStages();
    addCounters();
    allocateRings();
    buildOp();
    return true;
  }

private:
  bool collect() {
    // The producer keeps whole any conditional its copies depend on: one
    // that also writes memory would write twice.
    bool duplicable = true;
    loop.getBody()->walk([&](Operation *op) {
      if (op->getNumRegions() && !isa<scf::ForOp>(op) && op->getNumResults() &&
          !isMemoryEffectFree(op))
        duplicable = false;
    });
    if (!duplicable)
      return false;
    bool all = true;
    loop.walk([&](tt::DescriptorLoadOp load) {
      if (!streamable(load, loop)) {
        all = false;
        return;
      }
      auto parent = cast<scf::ForOp>(load->getParentOp());
      Group *group = nullptr;
      for (Group &g : groups)
        if (g.loop == parent)
          group = &g;
      if (!group) {
        groups.push_back(Group{parent, {}, {}, {}, 0});
        group = &groups.back();
      }
      Stream stream{load, ttng::tmaBufferType(load.getDesc().getType(), load.getType().getShape(),
                                              true),
                    {}, {}};
      group->bytes += ttng::bufferBytes(stream.slotType);
      group->streams.push_back(stream);
    });
    for (Group &g : groups) {
      g.matmul = bool(accumulatingDot(g.loop));
      g.onlyWgmmaReads = llvm::all_of(g.streams, [](const Stream &s) {
        return llvm::all_of(s.load->getUsers(), [](Operation *user) {
          return isa<LocalAllocOp>(user) && onlySyncWgmmaReads(user->getResult(0));
        });
      });
    }
    // A load that cannot stream would run in both partitions or neither.
    return all && !groups.empty();
  }

  /// Fewer slots when the rings would not leave room for the rest; one
  /// more where it fits and costs no occupancy (a second CTA per SM did not
  /// fit anyway): a slot comes back to the producer only after the
  /// consumers' arrival has woken it, a hand-off the unspecialised
  /// pipeline does not make, and the extra slot hides it (measured on
  /// H100, bench/NOTES.md 2026-12-06 third session: 3 to 8 % at the large
  /// GEMM shapes).
  void fitStages() {
    int64_t perStage = 0;
    for (Group &g : groups)
      perStage += g.bytes;
    ScratchContext scratch{lookupThreadsPerWarp(loop->getParentOfType<ModuleOp>()), numWarps};
    int64_t other = nvidia::sharedBesideRings(loop, scratch);
    while (numStages > 2 && int64_t(numStages) * perStage + other > kSharedMemory)
      --numStages;
    // (1 KB kept for the rings' mbarriers and alignment.)
    int64_t bytes = int64_t(numStages) * perStage + other + sharedOutside();
    if (!nvidia::twoCTAsFitShared(bytes) && bytes + perStage + 1024 <= kSharedMemory)
      ++numStages;
    for (Group &g : groups)
      for (Stream &s : g.streams) {
        SmallVector<int64_t> shape{int64_t(numStages)};
        llvm::append_range(shape, s.slotType.getShape());
        s.ringType = MemDescType::get(shape, s.slotType.getElementType(),
                                      s.slotType.getEncoding(), s.slotType.getMemorySpace(), true);
      }
  }

  /// Shared memory the kernel takes outside the loop: its buffers, and
  /// those its descriptor loads there will take (attention's Q), so that
  /// the extra slot never pushes a kernel that fitted over the limit.
  int64_t sharedOutside() {
    int64_t bytes = 0;
    loop->getParentOfType<tt::FuncOp>().walk([&](Operation *op) {
      if (loop->isAncestor(op))
        return;
      if (isa<LocalAllocOp>(op))
        bytes += localAllocBytes(op);
      else if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
        if (MemDescType type = ttng::tmaBufferType(load.getDesc().getType(),
                                                   load.getType().getShape(), true))
          bytes += ttng::bufferBytes(type);
    });
    return bytes;
  }

  /// One step counter per group, carried from the marked loop down to the
  /// group's loop, which adds one per iteration.
  void addCounters() {
    for (unsigned gi = 0; gi < groups.size(); ++gi) {
      SmallVector<scf::ForOp> chain;
      for (Operation *p = groups[gi].loop; p != loop->getParentOp(); p = p->getParentOp())
        chain.insert(chain.begin(), cast<scf::ForOp>(p));
      OpBuilder b(loop);
      Value init = i32(b, loc, 0);
      SmallVector<scf::ForOp> grown;
      for (scf::ForOp l : chain) {
        scf::ForOp g = nvidia::addIterArg(l, init);
        init = g.getRegionIterArgs().back();
        grown.push_back(g);
      }
      // Inner loops return the counter to the loop around them.
      for (unsigned i = 0; i + 1 < grown.size(); ++i) {
        auto yield = cast<scf::YieldOp>(grown[i].getBody()->getTerminator());
        yield->setOperand(yield.getNumOperands() - 1, grown[i + 1].getResults().back());
      }
      scf::ForOp inner = grown.back();
      auto yield = cast<scf::YieldOp>(inner.getBody()->getTerminator());
      OpBuilder ib(yield);
      Value counter = inner.getRegionIterArgs().back();
      yield->setOperand(yield.getNumOperands() - 1,
                        arith::AddIOp::create(ib, loc, counter, i32(ib, loc, 1)));
      loop = grown.front();
      // The loops that grew were replaced: point the groups at the new ops.
      for (Group &g : groups)
        for (auto [before, after] : llvm::zip(chain, grown))
          if (g.loop == before)
            g.loop = after;
    }
  }

  /// The rings and their mbarriers, before the loop.
  void allocateRings() {
    OpBuilder b(loop);
    MLIRContext *ctx = loop.getContext();
    auto barrierLayout = ttng::barrierEncoding(loop);
    auto barrierType = MemDescType::get({int64_t(numStages), 1}, b.getI64Type(), barrierLayout,
                                        SharedMemorySpaceAttr::get(ctx), true);
    for (Group &g : groups) {
      for (Stream &s : g.streams)
        s.ring = LocalAllocOp::create(b, loc, s.ringType, Value(), IntegerAttr());
      g.ready = LocalAllocOp::create(b, loc, barrierType, Value(), IntegerAttr());
      g.empty = LocalAllocOp::create(b, loc, barrierType, Value(), IntegerAttr());
      for (unsigned s = 0; s < numStages; ++s) {
        ttng::InitBarrierOp::create(b, loc, slotOf(b, loc, g.ready, i32(b, loc, s)), 1);
        ttng::InitBarrierOp::create(b, loc, slotOf(b, loc, g.empty, i32(b, loc, s)),
                                    emptyArrivals(g));
      }
    }
  }

  /// The group's slot and phase parity at the start of its loop's body.
  std::pair<Value, Value> slotAndPhase(OpBuilder &b, scf::ForOp groupLoop) {
    Value counter = groupLoop.getRegionIterArgs().back();
    Value stages = i32(b, loc, numStages);
    Value slot = arith::RemUIOp::create(b, loc, counter, stages);
    Value round = arith::DivUIOp::create(b, loc, counter, stages);
    return {slot, arith::AndIOp::create(b, loc, round, i32(b, loc, 1))};
  }

  void buildOp() {
    OpBuilder b(loop);
    auto ws = WarpSpecializeOp::create(b, loc, loop.getResultTypes(), ValueRange(),
                                       ArrayRef<NamedAttribute>{});
    ws.setPartitionNumWarps({kProducerWarps});
    ws.setRequestedRegisters({kProducerRegisters});
    ws.getDefaultRegion().push_back(new Block());
    ws.getPartitionOpHolder().push_back(new Block());
    OpBuilder hb = OpBuilder::atBlockBegin(&ws.getPartitionOpHolder().front());
    auto partitions = WarpSpecializePartitionsOp::create(hb, loc, TypeRange(), ValueRange(),
                                                         ArrayRef<NamedAttribute>{}, 1);
    partitions.getPartitionRegions().front().push_back(new Block());
    loop->replaceAllUsesWith(ws.getResults());

    // The producer: a copy of the loop, then cut down.
    Region &producer = ws.getPartitionRegions().front();
    OpBuilder pb = OpBuilder::atBlockBegin(&producer.front());
    IRMapping map;
    auto producerLoop = cast<scf::ForOp>(pb.clone(*loop, map));
    WarpReturnOp::create(pb, loc);

    // The consumer: the loop itself.
    Block &consumer = ws.getDefaultRegion().front();
    loop->moveBefore(&consumer, consumer.end());
    OpBuilder cb = OpBuilder::atBlockEnd(&consumer);
    WarpYieldOp::create(cb, loc, loop.getResults());

    for (Group &g : groups) {
      rewriteProducer(g, map);
      rewriteConsumer(g);
    }
    loop->removeAttr("tt.warp_specialize");
    producerLoop->removeAttr("tt.warp_specialize");
    cutProducer(producer);
    capture(ws, producer);
  }

  void rewriteProducer(Group &g, IRMapping &map) {
    auto groupLoop = cast<scf::ForOp>(map.lookup(g.loop.getOperation()));
    auto first = cast<tt::DescriptorLoadOp>(map.lookup(g.streams.front().load.getOperation()));
    OpBuilder b(first);
    auto [slot, phase] = slotAndPhase(b, groupLoop);
    Value free = arith::XOrIOp::create(b, loc, phase, i32(b, loc, 1));
    copies.push_back(ttng::WaitBarrierOp::create(b, loc, slotOf(b, loc, g.empty, slot), free,
                                                 Value(), ValueRange()));
    Value ready = slotOf(b, loc, g.ready, slot);
    Value on = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    copies.push_back(ttng::BarrierExpectOp::create(b, loc, ready, int32_t(g.bytes), on));
    for (Stream &s : g.streams) {
      auto load = cast<tt::DescriptorLoadOp>(map.lookup(s.load.getOperation()));
      b.setInsertionPoint(load);
      auto copy = ttng::AsyncTMACopyGlobalToLocalOp::create(
          b, loc, load.getDesc(), load.getIndices(), ready, slotOf(b, loc, s.ring, slot), on,
          /*ctaMask=*/Value(), /*multicast=*/false, load.getCache(), load.getEvict(), /*isVolatile=*/false);
      copies.push_back(copy);
    }
  }

  void rewriteConsumer(Group &g) {
    OpBuilder b(g.streams.front().load);
    auto [slot, phase] = slotAndPhase(b, g.loop);
    ttng::WaitBarrierOp::create(b, loc, slotOf(b, loc, g.ready, slot), phase, Value(),
                                ValueRange());
    for (Stream &s : g.streams) {
      b.setInsertionPoint(s.load);
      Value view = slotOf(b, loc, s.ring, slot);
      for (OpOperand &use : llvm::make_early_inc_range(s.load->getUses())) {
        auto alloc = dyn_cast<LocalAllocOp>(use.getOwner());
        if (!alloc)
          continue;
        alloc.getResult().replaceAllUsesWith(view);
        alloc->erase();
      }
      if (!s.load->use_empty())
        s.load.getResult().replaceAllUsesWith(
            LocalLoadOp::create(b, loc, s.load.getType(), view, Value()));
      s.load->erase();
    }
    // Views of a slot now read a mutable buffer: their types follow.
    g.loop.walk([&](MemDescTransOp trans) {
      trans.getResult().setType(transposedType(trans.getSrc().getType(), trans.getOrder()));
    });
    b.setInsertionPoint(g.loop.getBody()->getTerminator());
    if (g.matmul) {
      keepDotInFlight(g, accumulatingDot(g.loop));
      return;
    }
    release(b, g, slot, Value());
  }

  /// The slot is free once every consumer warp is done with it; each warp
  /// waits only for its own work, so the `empty` mbarrier counts arrivals.
  /// When wgmmas are the slot's only readers (a warp group issues and waits
  /// for them as one) each warp group's thread 0 arrives; a CTA barrier
  /// and one arrival instead cost a matmul 17 % of its consumers' stalls on
  /// the H200, eight per-warp arrivals more. Otherwise (a slot read into
  /// registers) the first lane of every warp arrives.
  void release(OpBuilder &b, Group &g, Value slot, Value pred) {
    auto arrive = ttng::ArriveBarrierOp::create(b, loc, slotOf(b, loc, g.empty, slot), 1, pred);
    if (emptyArrivals(g) > 1)
      arrive->setAttr(ttng::kWarpsPerArrivalAttr, b.getI32IntegerAttr(warpsPerArrival(g)));
  }
  int32_t warpsPerArrival(const Group &g) const {
    return g.onlyWgmmaReads ? std::min<int32_t>(4, numWarps) : 1;
  }
  int32_t emptyArrivals(const Group &g) const { return int32_t(numWarps) / warpsPerArrival(g); }

  /// The loop's one wgmma when its result is only the next step's
  /// accumulator (a matmul's K loop); null otherwise.
  static ttng::WarpGroupDotOp accumulatingDot(scf::ForOp loop) {
    SmallVector<ttng::WarpGroupDotOp> dots;
    loop.getBody()->walk([&](ttng::WarpGroupDotOp dot) { dots.push_back(dot); });
    if (dots.size() != 1 || dots.front()->getParentOp() != loop)
      return {};
    ttng::WarpGroupDotOp dot = dots.front();
    auto acc = dyn_cast<BlockArgument>(dot.getC());
    if (!acc || acc.getOwner() != loop.getBody() || acc.getArgNumber() == 0 || !acc.hasOneUse() ||
        !dot.getD().hasOneUse())
      return {};
    OpOperand &use = *dot.getD().getUses().begin();
    return isa<scf::YieldOp>(use.getOwner()) && use.getOperandNumber() == acc.getArgNumber() - 1
               ? dot
               : ttng::WarpGroupDotOp();
  }

  /// Keeps one wgmma group in flight: step c waits for all but its own, so
  /// step c - 1's slot is freed in step c (the first step of the loop frees
  /// none) and the last one after the loop, once every group is done.
  void keepDotInFlight(Group &g, ttng::WarpGroupDotOp dot) {
    scf::ForOp loop = g.loop;
    unsigned accIndex = cast<BlockArgument>(dot.getC()).getArgNumber() - 1;
    dot.setIsAsync(true);
    OpBuilder b(dot->getNextNode());
    auto wait = ttng::WarpGroupDotWaitOp::create(
        b, loc, ValueRange{dot.getD(), dot.getA(), dot.getB()}, 1);
    loop.getBody()->getTerminator()->setOperand(accIndex, wait.getResult(0));

    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value counter = loop.getRegionIterArgs().back();
    Value notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                           loop.getInductionVar(), loop.getLowerBound());
    release(b, g, previousSlot(b, counter), notFirst);

    b.setInsertionPointAfter(loop);
    Value result = loop.getResult(accIndex);
    auto done = ttng::WarpGroupDotWaitOp::create(b, loc, ValueRange{result}, 0);
    result.replaceAllUsesExcept(done.getResult(0), done);
    Value end = loop.getResults().back();
    Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, end,
                                      loop.getInitArgs().back());
    release(b, g, previousSlot(b, end), ran);
  }

  /// The slot of the step before the one counted `counter`.
  Value previousSlot(OpBuilder &b, Value counter) {
    Value back = arith::AddIOp::create(b, loc, counter, i32(b, loc, numStages - 1));
    return arith::RemUIOp::create(b, loc, back, i32(b, loc, numStages));
  }

  /// Keeps in the producer only the copies, what they need and the loops
  /// around them.
  void cutProducer(Region &producer) {
    llvm::SetVector<Operation *> keep;
    DenseMap<Operation *, llvm::SmallDenseSet<unsigned>> keptArgs;
    SmallVector<Operation *> work;
    auto push = [&](Operation *op) {
      if (op && producer.isAncestor(op->getParentRegion()) && keep.insert(op))
        work.push_back(op);
    };
    std::function<void(scf::ForOp, unsigned)> keepArg = [&](scf::ForOp f, unsigned i) {
      if (!keptArgs[f].insert(i).second)
        return;
      push(f.getInitArgs()[i].getDefiningOp());
      push(f.getBody()->getTerminator()->getOperand(i).getDefiningOp());
      if (auto arg = dyn_cast<BlockArgument>(f.getInitArgs()[i]))
        if (auto outer = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
            outer && arg.getArgNumber() > 0 && producer.isAncestor(outer->getParentRegion()))
          keepArg(outer, arg.getArgNumber() - 1);
      if (auto arg = dyn_cast<BlockArgument>(f.getBody()->getTerminator()->getOperand(i)))
        if (auto owner = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
            owner && arg.getArgNumber() > 0 && producer.isAncestor(owner->getParentRegion()))
          keepArg(owner, arg.getArgNumber() - 1);
    };
    auto need = [&](Value v) {
      if (auto result = dyn_cast<OpResult>(v)) {
        push(result.getOwner());
        if (auto f = dyn_cast<scf::ForOp>(result.getOwner()))
          keepArg(f, result.getResultNumber());
        return;
      }
      auto arg = cast<BlockArgument>(v);
      if (auto f = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
          f && producer.isAncestor(f->getParentRegion())) {
        push(f);
        if (arg.getArgNumber() > 0)
          keepArg(f, arg.getArgNumber() - 1);
      }
    };
    for (Operation *copy : copies)
      push(copy);
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Value operand : op->getOperands())
        need(operand);
      for (Operation *p = op->getParentOp(); p && producer.isAncestor(p->getParentRegion());
           p = p->getParentOp())
        push(p);
      // Whatever a kept region op holds stays (loops keep only what is
      // needed, through their iter_args, below).
      if (!isa<scf::ForOp>(op))
        op->walk([&](Operation *inner) {
          if (inner != op)
            push(inner);
        });
      if (auto f = dyn_cast<scf::ForOp>(op)) {
        need(f.getLowerBound());
        need(f.getUpperBound());
        need(f.getStep());
      }
    }
    // Iter_args nothing kept needs pass through, and go with canonicalization.
    producer.walk([&](scf::ForOp f) {
      Operation *yield = f.getBody()->getTerminator();
      for (unsigned i = 0; i < f.getNumRegionIterArgs(); ++i)
        if (!keptArgs[f].contains(i))
          yield->setOperand(i, f.getRegionIterArgs()[i]);
    });
    // Outermost ops not kept go, last first (with what they hold); nothing
    // kept uses them.
    SmallVector<Operation *> order;
    producer.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (keep.contains(op) || op->hasTrait<OpTrait::IsTerminator>())
        return WalkResult::advance();
      order.push_back(op);
      return WalkResult::skip();
    });
    for (Operation *op : llvm::reverse(order)) {
      op->dropAllUses();
      op->erase();
    }
    RewritePatternSet patterns(loop.getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, loop.getContext());
    (void)applyPatternsGreedily(producer, std::move(patterns));
  }

  /// Values the producer uses from outside become captures (constants are
  /// made again inside instead).
  void capture(WarpSpecializeOp ws, Region &producer) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(producer, above);
    Block &entry = producer.front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    SmallVector<Value> captures;
    for (Value v : above) {
      Operation *def = v.getDefiningOp();
      Value inside;
      if (def && def->hasTrait<OpTrait::ConstantLike>() && def->getNumOperands() == 0) {
        inside = b.clone(*def)->getResult(cast<OpResult>(v).getResultNumber());
      } else {
        captures.push_back(v);
        inside = entry.addArgument(v.getType(), v.getLoc());
      }
      replaceAllUsesInRegionWith(v, inside, producer);
    }
    ws->setOperands(captures);
  }

  scf::ForOp loop;
  Location loc;
  unsigned numStages, numWarps;
  SmallVector<Group> groups;
  /// The producer's mbarrier operations and copies, which it keeps.
  SmallVector<Operation *> copies;
};

struct WarpSpecialize : kiln::nvidia::impl::WarpSpecializeBase<WarpSpecialize> {
  using WarpSpecializeBase::WarpSpecializeBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::ForOp> marked;
    // The outermost marked loops (a marked loop inside one goes with it).
    module.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (!loop->hasAttr("tt.warp_specialize") || loop->getParentOfType<WarpSpecializeOp>())
        return WalkResult::advance();
      marked.push_back(loop);
      return WalkResult::skip();
    });
    for (scf::ForOp loop : marked) {
      unsigned stages = numStages;
      if (auto attr = loop->getAttrOfType<IntegerAttr>("tt.num_stages"))
        stages = unsigned(attr.getInt());
      unsigned warps = lookupNumWarps(loop).value_or(4);
      // A cluster's loops are left to the pipeliner (a producer per CTA is
      // not built yet).
      if (stages < 2 || warps % 4 || lookupNumCTAs(loop) != 1)
        continue;
      Specializer(loop, stages, warps).run();
    }
  }
};

} // namespace
