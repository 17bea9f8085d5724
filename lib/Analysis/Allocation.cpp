//===- Allocation.cpp - shared-memory buffers, lives and offsets ----------===//
#include "kiln/Analysis/Allocation.h"

#include "kiln/Analysis/AtomicPlan.h"
#include "kiln/Analysis/ConvertLayoutPlan.h"
#include "kiln/Analysis/ReducePlan.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

using namespace mlir;

namespace kiln {

namespace {
std::vector<std::function<std::optional<ScratchNeed>(Operation *)>> &scratchRules() {
  static std::vector<std::function<std::optional<ScratchNeed>(Operation *)>> rules;
  return rules;
}

std::optional<ScratchNeed> registeredScratch(Operation *op) {
  for (const auto &rule : scratchRules())
    if (std::optional<ScratchNeed> need = rule(op))
      return need;
  return std::nullopt;
}
} // namespace

void registerScratchRule(std::function<std::optional<ScratchNeed>(Operation *)> rule) {
  scratchRules().push_back(std::move(rule));
}

/// The shared rules' bytes for `op` (those registered rules do not cover).
static int64_t sharedRuleBytes(Operation *op, const ScratchContext &ctx) {
  // The same plans the lowerings follow; a plan that fails is reported by
  // the lowering, which then allocates nothing.
  auto bytesOf = [](auto plan) -> int64_t {
    if (!plan) {
      llvm::consumeError(plan.takeError());
      return 0;
    }
    return plan->scratchBytes();
  };
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op))
    return bytesOf(planConversion(cvt.getSrc().getType(), cvt.getType()));
  if (isa<tt::ReduceOp>(op))
    return bytesOf(planReduce(op, ctx.warpSize));
  if (isa<tt::ScanOp>(op))
    return bytesOf(planScan(op));
  if (auto gather = dyn_cast<tt::GatherOp>(op))
    return planGather(gather.getSrc().getType(), gather.getIndices().getType(), gather.getAxis())
        .scratchBytes;
  if (isa<tt::AtomicRMWOp, tt::AtomicCASOp, tt::AtomicLoadOp, tt::AtomicPollOp>(op))
    return planAtomicResult(op).scratchBytes;
  if (isa<tt::HistogramOp>(op))
    return histogramScratchBytes(op, ctx.warpSize);
  if (auto ws = dyn_cast<ttg::WarpSpecializeOp>(op))
    return kWarpSpecializeCaptureSlot * int64_t(ws.getExplicitCaptures().size());
  // A call holds its callee's shared memory while it runs (the allocation
  // pass sizes callees first).
  if (auto call = dyn_cast<tt::CallOp>(op))
    if (Operation *callee = SymbolTable::lookupNearestSymbolFrom(op, call.getCalleeAttr()))
      if (auto bytes = callee->getAttrOfType<IntegerAttr>(kFunctionSharedBytesAttr))
        return bytes.getInt();
  return 0;
}

ScratchNeed scratchNeed(Operation *op, const ScratchContext &ctx) {
  if (std::optional<ScratchNeed> need = registeredScratch(op))
    return *need;
  return ScratchNeed{sharedRuleBytes(op, ctx)};
}

int64_t scratchBytes(Operation *op, const ScratchContext &ctx) { return scratchNeed(op, ctx).bytes; }

int64_t localAllocBytes(Operation *localAlloc) {
  auto type = cast<ttg::MemDescType>(localAlloc->getResult(0).getType());
  // Each CTA of a cluster holds its tile.
  int64_t elements = 1;
  for (int64_t d : ttg::ctaShape(type.getAllocShape(), type.getEncoding()))
    elements *= d;
  if (auto padded = dyn_cast_or_null<ttg::PaddedSharedEncodingAttr>(type.getEncoding()))
    elements = padded.getPaddedSize(elements);
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return (elements * bits + 7) / 8;
}

namespace {

constexpr int64_t kDefaultAlignment = 16;

/// Every value through which a buffer's descriptor is reachable: views of
/// it and the scf values it flows into.
SmallVector<Value> aliasesOf(Value root) {
  llvm::SetVector<Value> seen;
  SmallVector<Value> work{root};
  auto add = [&](Value v) {
    if (isa<ttg::MemDescType>(v.getType()) && seen.insert(v))
      work.push_back(v);
  };
  seen.insert(root);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (auto forOp = dyn_cast<scf::ForOp>(user)) {
        if (n >= forOp.getNumControlOperands()) {
          unsigned i = n - forOp.getNumControlOperands();
          add(forOp.getRegionIterArgs()[i]);
          add(forOp.getResult(i));
        }
      } else if (isa<scf::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (n < parent->getNumResults())
          add(parent->getResult(n));
        if (auto forOp = dyn_cast<scf::ForOp>(parent))
          add(forOp.getRegionIterArgs()[n]);
      } else {
        // A view (memdesc_index, ...) or an op we do not model: anything
        // it returns that is a descriptor may alias the buffer.
        for (Value result : user->getResults())
          add(result);
        for (Region &region : user->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              add(arg);
      }
    }
  }
  return SmallVector<Value>(seen.begin(), seen.end());
}

/// Where an async copy `copy` into a buffer allocated in `home` has
/// certainly landed: the first `ttg.async_wait {num = 0}` after it in its
/// block or an enclosing one up to `home`, as the op of `home` containing
/// it; null when none is found (the copy may land until `home` ends).
Operation *landingPoint(Operation *copy, Block *home) {
  for (Operation *at = copy; at;) {
    for (Operation *op = at->getNextNode(); op; op = op->getNextNode())
      if (auto wait = dyn_cast<ttg::AsyncWaitOp>(op); wait && wait.getNum() == 0)
        return home->findAncestorOpInBlock(*op);
    if (at->getBlock() == home)
      return nullptr;
    at = at->getParentOp();
  }
  return nullptr;
}

} // namespace

SharedAllocation allocateSharedMemory(Operation *func, const ScratchContext &ctx) {
  // Number ops in program order; an op's subtree spans [index, end].
  llvm::DenseMap<Operation *, int64_t> index, subtreeEnd;
  int64_t next = 0;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) { index[op] = next++; });
  func->walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t end = index[op];
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          end = std::max(end, subtreeEnd[&block.back()]);
    subtreeEnd[op] = end;
  });

  // The regions of a ttg.warp_specialize run at once: a buffer of one of
  // them lives for the whole op (of the outermost, were they nested).
  auto widenToWarpSpecialize = [&](SharedBuffer &buffer) {
    ttg::WarpSpecializeOp outer;
    for (Operation *p = buffer.owner->getParentOp(); p && p != func; p = p->getParentOp())
      if (auto ws = dyn_cast<ttg::WarpSpecializeOp>(p))
        outer = ws;
    if (outer) {
      buffer.firstOp = std::min(buffer.firstOp, index[outer]);
      buffer.lastOp = std::max(buffer.lastOp, subtreeEnd[outer]);
    }
  };

  SharedAllocation result;
  bool warpSpecialized = false;
  func->walk([&](Operation *op) {
    warpSpecialized |= isa<ttg::WarpSpecializeOp>(op);
    if (isa<ttg::LocalAllocOp>(op)) {
      SharedBuffer buffer{op, localAllocBytes(op), kDefaultAlignment, index[op], index[op]};
      // An nvmma_shared buffer's swizzle repeats every 8 rows of the swizzle
      // span; TMA and wgmma compute it from the address, so it starts there.
      auto type = cast<ttg::MemDescType>(op->getResult(0).getType());
      if (auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(type.getEncoding()))
        buffer.alignment = std::max<int64_t>(buffer.alignment, 8 * nvmma.getSwizzlingByteWidth());
      if (auto linear = dyn_cast_or_null<ttg::SharedLinearEncodingAttr>(type.getEncoding()))
        buffer.alignment = std::max<int64_t>(buffer.alignment, linear.getAlignment());
      if (auto align = op->getAttrOfType<IntegerAttr>("alignment"))
        buffer.alignment = std::max<int64_t>(buffer.alignment, align.getInt());
      Block *home = op->getBlock();
      for (Value alias : aliasesOf(op->getResult(0)))
        for (Operation *user : alias.getUsers()) {
          Operation *anchor = home->findAncestorOpInBlock(*user);
          if (!anchor)
            continue;
          buffer.lastOp = std::max(buffer.lastOp, subtreeEnd[anchor]);
          // Another CTA of the cluster may reach a buffer viewed in its
          // shared memory (an arrival on a barrier there) until the end.
          auto remote = [](Type t) {
            auto memdesc = dyn_cast<ttg::MemDescType>(t);
            auto space = memdesc ? dyn_cast_or_null<ttg::MemorySpaceInterface>(
                                       memdesc.getMemorySpace())
                                 : nullptr;
            return space && !space.isCTALocal();
          };
          if (llvm::any_of(user->getResultTypes(), remote))
            buffer.lastOp = std::max(buffer.lastOp, subtreeEnd[&home->back()]);
          // An async copy writes the buffer until it lands, after its last
          // use perhaps.
          if (isa<ttg::AsyncCopyGlobalToLocalOp>(user)) {
            Operation *landed = landingPoint(user, home);
            buffer.lastOp = std::max(buffer.lastOp, landed ? subtreeEnd[landed]
                                                           : subtreeEnd[&home->back()]);
          }
        }
      widenToWarpSpecialize(buffer);
      result.buffers.push_back(buffer);
      return;
    }
    if (ScratchNeed need = scratchNeed(op, ctx); need.bytes) {
      SharedBuffer buffer{op, need.bytes, std::max(kDefaultAlignment, need.alignment), index[op],
                          subtreeEnd[op]};
      widenToWarpSpecialize(buffer);
      result.buffers.push_back(buffer);
    }
  });
  // Which op the partitions' warps run next, read by warps that do not yet
  // know which op sent them: live for the whole kernel.
  if (warpSpecialized)
    result.buffers.push_back(
        {func, kWarpSpecializeStateBytes, kDefaultAlignment, 0, std::max<int64_t>(next, 1)});

  // Largest first; each goes at the lowest aligned offset clear of the
  // buffers already placed whose lives overlap its own.
  SmallVector<SharedBuffer *> order;
  for (SharedBuffer &b : result.buffers)
    order.push_back(&b);
  std::stable_sort(order.begin(), order.end(),
                   [](SharedBuffer *a, SharedBuffer *b) { return a->bytes > b->bytes; });
  SmallVector<SharedBuffer *> placed;
  for (SharedBuffer *buffer : order) {
    SmallVector<SharedBuffer *> live;
    for (SharedBuffer *other : placed)
      if (other->firstOp <= buffer->lastOp && buffer->firstOp <= other->lastOp)
        live.push_back(other);
    SmallVector<int64_t> candidates{0};
    for (SharedBuffer *other : live)
      candidates.push_back(int64_t(llvm::alignTo(other->offset + other->bytes, buffer->alignment)));
    llvm::sort(candidates);
    for (int64_t offset : candidates) {
      bool clear = llvm::all_of(live, [&](SharedBuffer *other) {
        return offset + buffer->bytes <= other->offset || other->offset + other->bytes <= offset;
      });
      if (clear) {
        buffer->offset = offset;
        break;
      }
    }
    placed.push_back(buffer);
    result.totalBytes = std::max(result.totalBytes, buffer->offset + buffer->bytes);
  }
  return result;
}

SmallVector<Operation *> functionsCalleesFirst(Operation *module) {
  SmallVector<Operation *> order;
  llvm::SmallPtrSet<Operation *, 8> visited;
  std::function<void(tt::FuncOp)> visit = [&](tt::FuncOp func) {
    if (!visited.insert(func).second)
      return;
    func.walk([&](tt::CallOp call) {
      if (auto callee = SymbolTable::lookupNearestSymbolFrom<tt::FuncOp>(call, call.getCalleeAttr()))
        visit(callee);
    });
    order.push_back(func);
  };
  for (Region &region : module->getRegions())
    for (auto func : region.getOps<tt::FuncOp>())
      visit(func);
  return order;
}

} // namespace kiln
