//===- WarpSpecializeToLLVM.cpp - partitions onto their own warps ---------===//
//
// After the conversion, a ttg.warp_specialize still holds its regions (in
// the LLVM dialect). This pass gives each region its warps:
//
//  * The kernel starts with a dispatch: warps below ttg.num-warps run the
//    kernel body (the "default" warps); the others wait in a loop at named
//    barrier 1 (all warps of the CTA), read which op to run from a shared
//    word, and pick their partition by warp id, or exit.
//  * At an op, the default warps store its captures in the op's scratch and
//    the op's number in the word, meet the workers at barrier 1, run the
//    default region, and meet them again when both are done. Each kernel
//    return first sends the workers the exit word.
//  * A cluster barrier the default warps reach outside the ops waits for
//    every thread of the cluster, the idle workers' too: the default warps
//    send them a word to take part in it (the next ones after the ops'),
//    and all meet once more after it, so that no worker reads the word
//    after the next one is written.
//  * CTA barriers become named barriers of the warps that reach them:
//    barrier 0 over the default warps, barrier 2 + i over partition i's.
//    Thread ids in a partition count from its first warp, so its layouts
//    (made for its own warps) index as they would in a kernel of that size.
//  * With requestedRegisters, the kernel launches with the register file
//    shared evenly (.maxnreg), each worker warp group moves to its
//    partitions' request (setmaxnreg.dec or .inc, one instruction per warp
//    group as the ISA requires; an .inc waits until the decs have freed
//    enough) and the default warps take what is left; all return to the
//    launch count at the end.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "kiln/Analysis/Allocation.h"
#include "kiln/Backend/NVIDIA/RegisterBudget.h"
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_LOWERWARPSPECIALIZE
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

constexpr unsigned kDefaultBarrier = 0;
constexpr unsigned kDispatchBarrier = 1;
constexpr unsigned kFirstPartitionBarrier = 2;
constexpr unsigned kNamedBarriers = 16;
constexpr unsigned kWarpGroup = 4;
constexpr unsigned kRegisterFile = 65536; // 32-bit registers per SM
constexpr unsigned kMaxRegisters = 256;
constexpr unsigned kMinRegisters = 24;

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(int32_t(v)));
}

void namedBarrier(OpBuilder &b, Location loc, unsigned id, unsigned threads) {
  lowering::inlinePtx(b, loc, Type(), "bar.sync " + std::to_string(id) + ", " +
                                          std::to_string(threads) + ";",
                      "", {}, /*sideEffects=*/true);
}

/// Moves this warp group from `from` to `to` registers per thread.
void setMaxRegisters(OpBuilder &b, Location loc, unsigned from, unsigned to) {
  if (from == to)
    return;
  lowering::inlinePtx(b, loc, Type(),
                      std::string("setmaxnreg.") + (to > from ? "inc" : "dec") +
                          ".sync.aligned.u32 " + std::to_string(to) + ";",
                      "", {}, /*sideEffects=*/true);
}

Value sharedAt(OpBuilder &b, Location loc, int64_t offset) {
  auto ptr = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptr, lowering::kSharedMemoryGlobal);
  return LLVM::GEPOp::create(b, loc, ptr, b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

/// Register counts of one op: per worker warp group (from the first worker
/// group) and the default warps'; empty when it does not reallocate.
struct RegisterPlan {
  SmallVector<unsigned> groups;
  unsigned defaults = 0;
  bool enabled() const { return defaults != 0; }
};

class Lowerer {
public:
  Lowerer(LLVM::LLVMFuncOp func, unsigned warpSize, unsigned numWarps, unsigned totalWarps)
      : func(func), warpSize(warpSize), numWarps(numWarps), totalWarps(totalWarps) {}

  LogicalResult run() {
    func.walk([&](ttg::WarpSpecializeOp op) { ops.push_back(op); });
    if (ops.empty())
      return success();
    if (failed(check()))
      return failure();
    if (failed(planRegisters()))
      return failure();
    if (failed(rewriteBarriersAndThreadIds()))
      return failure();
    OpBuilder b(func.getContext());
    Location loc = func.getLoc();

    // Dispatch: default warps to the body, the others to the worker loop.
    Block *entry = &func.front();
    Block *body = entry->splitBlock(entry->begin());
    worker = new Block();
    func.getBody().push_back(worker);
    b.setInsertionPointToEnd(entry);
    Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
    Value warp = LLVM::UDivOp::create(b, loc, tid, i32(b, loc, warpSize));
    // The same in every lane, and known to be (the branch is warp-uniform).
    warpId = NVVM::ShflOp::create(b, loc, b.getI32Type(), i32(b, loc, -1), warp, i32(b, loc, 0),
                                  i32(b, loc, 0x1f), NVVM::ShflKind::idx, UnitAttr());
    Value isDefault = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, warpId,
                                           i32(b, loc, numWarps));
    LLVM::CondBrOp::create(b, loc, isDefault, body, worker);

    // Every return of the default warps releases the workers first.
    SmallVector<LLVM::ReturnOp> returns;
    func.walk([&](LLVM::ReturnOp ret) { returns.push_back(ret); });
    for (LLVM::ReturnOp ret : returns) {
      b.setInsertionPoint(ret);
      sendState(b, ret.getLoc(), 0);
    }

    // The worker loop: wait for the next op, then run it or exit.
    Block *exit = new Block();
    func.getBody().push_back(exit);
    b.setInsertionPointToEnd(exit);
    LLVM::ReturnOp::create(b, loc, ValueRange());
    b.setInsertionPointToEnd(worker);
    namedBarrier(b, loc, kDispatchBarrier, totalWarps * warpSize);
    Value state = LLVM::LoadOp::create(b, loc, b.getI32Type(), sharedAt(b, loc, stateOffset));
    // Found before the ops' regions join the function's body.
    SmallVector<Operation *> syncs;
    func.walk([&](Operation *op) {
      if (isa<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp, NVVM::ClusterWaitOp>(op) &&
          !op->getParentOfType<ttg::WarpSpecializeOp>())
        syncs.push_back(op);
    });
    SmallVector<int32_t> caseValues;
    SmallVector<Block *> caseBlocks;
    for (auto [k, op] : llvm::enumerate(ops)) {
      caseValues.push_back(int32_t(k + 1));
      caseBlocks.push_back(lowerOp(b, op, int32_t(k + 1)));
    }
    gatherForClusterBarriers(b, syncs, caseValues, caseBlocks);
    b.setInsertionPointToEnd(worker);
    LLVM::SwitchOp::create(b, loc, state, exit, ValueRange(), caseValues, caseBlocks,
                           SmallVector<ValueRange>(caseBlocks.size(), ValueRange()));
    return success();
  }

private:
  LogicalResult check() {
    for (ttg::WarpSpecializeOp op : ops) {
      if (!op.getWarpGroupStartIds())
        return op.emitError("ttg.warp_specialize has no warpGroupStartIds (the llir stage's "
                            "llir.allocate-warp-groups must run first)");
      auto state = op->getAttrOfType<IntegerAttr>(kWarpStateOffsetAttr);
      if (!state || (!op.getExplicitCaptures().empty() &&
                     !op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr)))
        return op.emitError("ttg.warp_specialize has no shared memory for its captures (the "
                            "llir stage's llir.allocate-shared-memory must run first)");
      stateOffset = state.getInt();
      if (op.getPartitionRegions().size() > kNamedBarriers - kFirstPartitionBarrier)
        return op.emitError() << "ttg.warp_specialize has " << op.getPartitionRegions().size()
                              << " partitions; the named barriers allow at most "
                              << kNamedBarriers - kFirstPartitionBarrier;
      for (Value capture : op.getExplicitCaptures()) {
        Type t = capture.getType();
        bool fits = isa<LLVM::LLVMPointerType>(t) ||
                    (t.isIntOrFloat() && t.getIntOrFloatBitWidth() <= 64);
        if (!fits)
          return op.emitError() << "ttg.warp_specialize cannot pass a capture of LLVM type " << t
                                << " to its partitions (scalars of up to 64 bits and pointers)";
      }
    }
    return success();
  }

  /// Registers per thread at launch (0: the kernel does not reallocate), and
  /// each op's plan. Reallocation needs whole warp groups everywhere.
  LogicalResult planRegisters() {
    // Ops are lowered in program order (func.walk), so ops.front() is the
    // first of a block's.
    bool wanted = llvm::any_of(ops, [](ttg::WarpSpecializeOp op) {
      return op.getRequestedRegisters().has_value();
    });
    // setmaxnreg is sm_90's.
    auto target = func->getParentOfType<ModuleOp>()->getAttrOfType<StringAttr>("ttg.target");
    StringRef name = target ? target.getValue() : StringRef();
    unsigned cc = 0;
    if (!name.consume_front("cuda:") || name.getAsInteger(10, cc))
      cc = 0;
    if (!wanted || cc < 90 || numWarps % kWarpGroup || totalWarps % kWarpGroup)
      return success();
    unsigned threads = totalWarps * warpSize;
    unsigned launch = std::min(kMaxRegisters, kRegisterFile / threads / 8 * 8);
    if (auto cap = func->getAttrOfType<IntegerAttr>(NVVM::NVVMDialect::getMaxnregAttrName()))
      launch = std::min(launch, unsigned(cap.getInt()) / 8 * 8);
    unsigned groups = (totalWarps - numWarps) / kWarpGroup;
    for (ttg::WarpSpecializeOp op : ops) {
      RegisterPlan plan;
      if (auto requested = op.getRequestedRegisters()) {
        plan.groups.assign(groups, kMinRegisters);
        ArrayRef<int32_t> starts = *op.getWarpGroupStartIds();
        ArrayRef<int32_t> warps = op.getPartitionNumWarps();
        for (auto [p, regs] : llvm::enumerate(*requested))
          for (int32_t w = starts[p]; w < starts[p] + warps[p]; ++w) {
            unsigned &g = plan.groups[(unsigned(w) - numWarps) / kWarpGroup];
            g = std::max(g, unsigned(regs));
          }
        if (leftForDefaults(plan, launch) < kMinRegisters)
          return op.emitError() << "ttg.warp_specialize's partitions ask for more registers than "
                                   "the register file holds: at "
                                << launch << " per thread for " << totalWarps
                                << " warps, the default warps would keep "
                                << std::max<int64_t>(0, leftForDefaults(plan, launch))
                                << " (setmaxnreg needs at least " << kMinRegisters << ")";
        plan.defaults = defaultRegisters(plan, launch);
      }
      if (plan.enabled())
        launchRegisters = launch;
      plans.push_back(plan);
    }
    restoring = llvm::any_of(ops, [&](ttg::WarpSpecializeOp op) {
      return op->getBlock() != ops.front()->getBlock();
    }) || llvm::any_of(plans, [&](const RegisterPlan &p) {
      return p.groups != plans.front().groups || p.defaults != plans.front().defaults;
    });
    if (!launchRegisters)
      return success();
    func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  IntegerAttr::get(IntegerType::get(func.getContext(), 32), launchRegisters));
    // The plan for two CTAs per SM, which the ptx stage takes when shared
    // memory allows it and ptxas fits the kernel without spilling (a budget
    // the lowering cannot judge). Only where the workers give registers
    // and the default warps alone take them (the ptx stage rewrites the
    // default warps' setmaxnreg.inc).
    unsigned launch2 = kRegisterFile / (2 * threads) / 8 * 8;
    bool workersGrow = llvm::any_of(plans, [&](const RegisterPlan &plan) {
      return llvm::any_of(plan.groups, [&](unsigned r) { return r > launchRegisters; }) ||
             (plan.enabled() && plan.defaults <= launchRegisters);
    });
    if (launch2 >= launchRegisters || workersGrow)
      return success();
    SmallVector<std::pair<unsigned, unsigned>> grows;
    for (const RegisterPlan &plan : restores() ? ArrayRef(plans) : ArrayRef(plans).take_front()) {
      if (!plan.enabled())
        continue;
      unsigned defaults2 = defaultRegisters(plan, launch2);
      if (defaults2 <= launch2 ||
          llvm::any_of(plan.groups, [&](unsigned r) { return r > launch2; }))
        return success();
      grows.push_back({plan.defaults, defaults2});
    }
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&func.front());
    lowering::inlinePtx(b, func.getLoc(), Type(),
                        nvidia::twoCTAsMarker(launchRegisters, launch2, grows, restores()),
                        "", {}, /*sideEffects=*/true);
    return success();
  }

  /// Whether the registers go back to the launch count after each op. Not
  /// when every op has the same plan and they follow one another in one
  /// block (one op, or attention's two causal loops): the first op moves
  /// the registers, the others find them there, and the default warps run
  /// the rest of the kernel (its epilogue) with their share.
  bool restores() const { return restoring; }

  /// Registers per thread (a multiple of 8) the worker groups' `plan.groups`
  /// leave each default thread when the kernel launches with `launch`.
  int64_t leftForDefaults(const RegisterPlan &plan, unsigned launch) const {
    int64_t left = int64_t(launch) * totalWarps * warpSize;
    for (unsigned r : plan.groups)
      left -= int64_t(r) * kWarpGroup * warpSize;
    return left / (int64_t(numWarps) * warpSize) / 8 * 8;
  }

  /// The default warps' registers when the kernel launches with `launch`
  /// per thread and the worker groups take `plan.groups`; 0 when nothing
  /// would move, or what the workers take leaves the default warps fewer
  /// than setmaxnreg allows.
  unsigned defaultRegisters(const RegisterPlan &plan, unsigned launch) const {
    int64_t defaults = std::min<int64_t>(kMaxRegisters, leftForDefaults(plan, launch));
    bool moves = defaults != int64_t(launch) ||
                 llvm::any_of(plan.groups, [&](unsigned r) { return r != launch; });
    if (defaults < int64_t(kMinRegisters) || !moves)
      return 0;
    return unsigned(defaults);
  }

  /// The partition holding `op` (its op and index), if any.
  static std::pair<ttg::WarpSpecializeOp, unsigned> partitionOf(Operation *op) {
    for (Operation *at = op; at; at = at->getParentOp())
      if (auto partitions = dyn_cast_or_null<ttg::WarpSpecializePartitionsOp>(at->getParentOp()))
        return {cast<ttg::WarpSpecializeOp>(partitions->getParentOp()),
                at->getParentRegion()->getRegionNumber()};
    return {ttg::WarpSpecializeOp(), 0};
  }

  /// A barrier of the kernel's own that names its id (ttng.named_barrier_*):
  /// it must be a constant above the ids this lowering takes.
  LogicalResult checkOwnBarrier(Operation *op) {
    unsigned reserved = kFirstPartitionBarrier;
    for (ttg::WarpSpecializeOp ws : ops)
      reserved = std::max<unsigned>(reserved, kFirstPartitionBarrier +
                                                  unsigned(ws.getPartitionRegions().size()));
    auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
    auto id = asmOp && asmOp.getNumOperands()
                  ? asmOp.getOperand(0).getDefiningOp<LLVM::ConstantOp>()
                  : LLVM::ConstantOp();
    auto value = id ? dyn_cast<IntegerAttr>(id.getValue()) : IntegerAttr();
    if (value && value.getInt() >= int64_t(reserved))
      return success();
    return op->emitError() << "a named barrier of the kernel's own must use a constant id from "
                           << reserved << " to 15: warp specialisation takes barriers 0 to "
                           << reserved - 1;
  }

  LogicalResult rewriteBarriersAndThreadIds() {
    SmallVector<Operation *> barriers, threadIds, own;
    func.walk([&](Operation *op) {
      if (isa<NVVM::Barrier0Op>(op))
        barriers.push_back(op);
      else if (isa<NVVM::ThreadIdXOp>(op))
        threadIds.push_back(op);
      else if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
               isa<NVVM::BarrierOp>(op) ||
               (asmOp && (asmOp.getAsmString().contains("bar.sync") ||
                          asmOp.getAsmString().contains("bar.arrive"))))
        own.push_back(op);
    });
    for (Operation *op : own)
      if (failed(checkOwnBarrier(op)))
        return failure();
    OpBuilder b(func.getContext());
    for (Operation *barrier : barriers) {
      auto [op, index] = partitionOf(barrier);
      b.setInsertionPoint(barrier);
      if (op)
        namedBarrier(b, barrier->getLoc(), kFirstPartitionBarrier + index,
                     unsigned(op.getPartitionNumWarps()[index]) * warpSize);
      else
        namedBarrier(b, barrier->getLoc(), kDefaultBarrier, numWarps * warpSize);
      barrier->erase();
    }
    for (Operation *tid : threadIds) {
      auto [op, index] = partitionOf(tid);
      if (!op)
        continue;
      b.setInsertionPointAfter(tid);
      Value first = i32(b, tid->getLoc(), (*op.getWarpGroupStartIds())[index] * int64_t(warpSize));
      Value relative = LLVM::SubOp::create(b, tid->getLoc(), tid->getResult(0), first);
      tid->getResult(0).replaceAllUsesExcept(relative, relative.getDefiningOp());
    }
    return success();
  }

  /// The default warps tell the workers what to run next (0: exit) and meet
  /// them at the dispatch barrier.
  void sendState(OpBuilder &b, Location loc, int32_t state) {
    LLVM::StoreOp::create(b, loc, i32(b, loc, state), sharedAt(b, loc, stateOffset));
    namedBarrier(b, loc, kDispatchBarrier, totalWarps * warpSize);
  }

  /// The cluster barriers `syncs`, outside the ops: the default warps call
  /// the workers to each (arrive or wait, by word), who do the same and
  /// return to the loop. Those inside an op's regions are their partitions'
  /// own.
  void gatherForClusterBarriers(OpBuilder &b, ArrayRef<Operation *> syncs,
                                SmallVectorImpl<int32_t> &caseValues,
                                SmallVectorImpl<Block *> &caseBlocks) {
    if (syncs.empty())
      return;
    int32_t first = int32_t(ops.size()) + 1;
    Location loc = func.getLoc();
    // Word first + k: the workers' side of sync kind k.
    auto kindOf = [](Operation *op) {
      return isa<NVVM::ClusterArriveOp>(op) ? 0 : isa<NVVM::ClusterArriveRelaxedOp>(op) ? 1 : 2;
    };
    for (int kind = 0; kind < 3; ++kind) {
      if (llvm::none_of(syncs, [&](Operation *op) { return kindOf(op) == kind; }))
        continue;
      Block *block = new Block();
      func.getBody().push_back(block);
      b.setInsertionPointToEnd(block);
      if (kind == 0)
        NVVM::ClusterArriveOp::create(b, loc, UnitAttr());
      else if (kind == 1)
        NVVM::ClusterArriveRelaxedOp::create(b, loc, UnitAttr());
      else
        NVVM::ClusterWaitOp::create(b, loc, UnitAttr());
      namedBarrier(b, loc, kDispatchBarrier, totalWarps * warpSize);
      LLVM::BrOp::create(b, loc, ValueRange(), worker);
      caseValues.push_back(first + kind);
      caseBlocks.push_back(block);
    }
    for (Operation *op : syncs) {
      b.setInsertionPoint(op);
      sendState(b, op->getLoc(), first + kindOf(op));
      b.setInsertionPointAfter(op);
      namedBarrier(b, op->getLoc(), kDispatchBarrier, totalWarps * warpSize);
    }
  }

  /// Lowers `op` on both sides; returns the workers' block for it.
  Block *lowerOp(OpBuilder &b, ttg::WarpSpecializeOp op, int32_t state) {
    Location loc = op.getLoc();
    RegisterPlan plan = plans.empty() ? RegisterPlan() : plans[state - 1];
    // Without restores only the first op moves registers.
    bool realloc = plan.enabled() && (state == 1 || restores());
    int64_t captureOffset = 0;
    if (auto attr = op->getAttrOfType<IntegerAttr>(kAllocationOffsetAttr))
      captureOffset = attr.getInt();
    auto slot = [&](unsigned j) {
      return sharedAt(b, loc, captureOffset + int64_t(j) * kWarpSpecializeCaptureSlot);
    };
    Region &body = func.getBody();

    // The default warps: captures, release, the region, join.
    Block *before = op->getBlock();
    Block *after = before->splitBlock(op);
    for (Value result : op.getResults())
      result.replaceAllUsesWith(after->addArgument(result.getType(), loc));
    b.setInsertionPointToEnd(before);
    for (auto [j, capture] : llvm::enumerate(op.getExplicitCaptures()))
      LLVM::StoreOp::create(b, loc, capture, slot(unsigned(j)), kWarpSpecializeCaptureSlot);
    sendState(b, loc, state);
    if (realloc)
      setMaxRegisters(b, loc, launchRegisters, plan.defaults);
    Block *defaultEntry = &op.getDefaultRegion().front();
    LLVM::BrOp::create(b, loc, ValueRange(), defaultEntry);
    body.getBlocks().splice(after->getIterator(), op.getDefaultRegion().getBlocks());
    SmallVector<ttg::WarpYieldOp> yields;
    for (Block *block = defaultEntry; block != after; block = block->getNextNode())
      if (auto yield = dyn_cast<ttg::WarpYieldOp>(block->getTerminator()))
        yields.push_back(yield);
    bool restore = realloc && restores();
    for (ttg::WarpYieldOp yield : yields) {
      b.setInsertionPoint(yield);
      namedBarrier(b, yield.getLoc(), kDispatchBarrier, totalWarps * warpSize);
      // After the join: an .inc back (the default warps gave registers)
      // waits for the workers' decs, which come after it too.
      if (restore)
        setMaxRegisters(b, yield.getLoc(), plan.defaults, launchRegisters);
      LLVM::BrOp::create(b, yield.getLoc(), yield.getValues(), after);
      yield.erase();
    }

    // The workers: registers per warp group, then each warp to its
    // partition (or straight to the join when it has none).
    Block *enter = new Block(), *join = new Block();
    body.push_back(enter);
    body.push_back(join);
    // A switch on the worker warp group (counted from the first worker
    // warp) to `target(g)`; every worker warp is in one.
    auto switchOnGroup = [&](function_ref<Block *(unsigned)> target, Block *otherwise) {
      Value group = LLVM::UDivOp::create(
          b, loc, LLVM::SubOp::create(b, loc, warpId, i32(b, loc, numWarps)),
          i32(b, loc, kWarpGroup));
      SmallVector<int32_t> values;
      SmallVector<Block *> blocks;
      for (unsigned g = 0; g < (totalWarps - numWarps) / kWarpGroup; ++g) {
        values.push_back(int32_t(g));
        blocks.push_back(target(g));
      }
      LLVM::SwitchOp::create(b, loc, group, otherwise, ValueRange(), values, blocks,
                             SmallVector<ValueRange>(blocks.size(), ValueRange()));
    };
    b.setInsertionPointToEnd(join);
    namedBarrier(b, loc, kDispatchBarrier, totalWarps * warpSize);
    if (restore) {
      switchOnGroup([&](unsigned g) {
        Block *back = new Block();
        body.push_back(back);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToEnd(back);
        setMaxRegisters(b, loc, plan.groups[g], launchRegisters);
        LLVM::BrOp::create(b, loc, ValueRange(), worker);
        return back;
      }, worker);
    } else {
      LLVM::BrOp::create(b, loc, ValueRange(), worker);
    }

    SmallVector<int32_t> warps;
    SmallVector<Block *> runs;
    ArrayRef<int32_t> starts = *op.getWarpGroupStartIds();
    for (auto [p, region] : llvm::enumerate(op.getPartitionRegions())) {
      Block *run = new Block();
      body.push_back(run);
      b.setInsertionPointToEnd(run);
      Block *partitionEntry = &region.front();
      SmallVector<Value> captures;
      for (auto [j, arg] : llvm::enumerate(partitionEntry->getArguments()))
        captures.push_back(LLVM::LoadOp::create(b, loc, arg.getType(), slot(unsigned(j)),
                                                kWarpSpecializeCaptureSlot));
      LLVM::BrOp::create(b, loc, captures, partitionEntry);
      SmallVector<ttg::WarpReturnOp> returns;
      region.walk([&](ttg::WarpReturnOp ret) { returns.push_back(ret); });
      for (ttg::WarpReturnOp ret : returns) {
        b.setInsertionPoint(ret);
        LLVM::BrOp::create(b, ret.getLoc(), ValueRange(), join);
        ret.erase();
      }
      body.getBlocks().splice(body.end(), region.getBlocks());
      for (int32_t w = starts[p]; w < starts[p] + op.getPartitionNumWarps()[p]; ++w) {
        warps.push_back(w);
        runs.push_back(run);
      }
    }
    // Without reallocation one switch on the warp picks its partition. With
    // it, each warp group first moves to its count, then picks among its
    // own partitions only: ptxas keeps a count for the code a setmaxnreg
    // reaches, so a group must not seem to reach another group's code.
    auto pickAmong = [&](Block *at, function_ref<bool(int32_t)> mine) {
      SmallVector<int32_t> ours;
      SmallVector<Block *> ourRuns;
      for (auto [w, run] : llvm::zip(warps, runs))
        if (mine(w)) {
          ours.push_back(w);
          ourRuns.push_back(run);
        }
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(at);
      LLVM::SwitchOp::create(b, loc, warpId, join, ValueRange(), ours, ourRuns,
                             SmallVector<ValueRange>(ourRuns.size(), ValueRange()));
    };
    if (!realloc) {
      pickAmong(enter, [](int32_t) { return true; });
    } else {
      b.setInsertionPointToEnd(enter);
      switchOnGroup([&](unsigned g) {
        Block *move = new Block();
        body.push_back(move);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToEnd(move);
          setMaxRegisters(b, loc, launchRegisters, plan.groups[g]);
        }
        int32_t first = int32_t(numWarps + g * kWarpGroup);
        pickAmong(move, [&](int32_t w) { return w >= first && w < first + int32_t(kWarpGroup); });
        return move;
      }, join);
    }
    op.erase();
    return enter;
  }

  LLVM::LLVMFuncOp func;
  unsigned warpSize, numWarps, totalWarps;
  SmallVector<ttg::WarpSpecializeOp> ops;
  SmallVector<RegisterPlan> plans;
  unsigned launchRegisters = 0;
  bool restoring = true; // planRegisters decides
  int64_t stateOffset = 0;
  Block *worker = nullptr;
  Value warpId;
};

struct LowerWarpSpecialize
    : kiln::nvidia::impl::LowerWarpSpecializeBase<LowerWarpSpecialize> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto get = [&](StringRef name, int64_t fallback) {
      auto attr = module->getAttrOfType<IntegerAttr>(name);
      return attr ? attr.getInt() : fallback;
    };
    unsigned numWarps = unsigned(get("ttg.num-warps", 4));
    unsigned totalWarps = unsigned(get("ttg.total-num-warps", numWarps));
    unsigned warpSize = unsigned(get("ttg.threads-per-warp", 32));
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      bool nested = false;
      func.walk([&](ttg::WarpSpecializeOp op) { nested = true; });
      if (nested && !func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName())) {
        func.emitError("ttg.warp_specialize outside the kernel function (inline the function)");
        return signalPassFailure();
      }
      if (failed(Lowerer(func, warpSize, numWarps, totalWarps).run()))
        return signalPassFailure();
    }
  }
};

} // namespace
