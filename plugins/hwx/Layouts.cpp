//===- Layouts.cpp - hwx buffers laid out as their TMA copies need --------===//
//
// `hwx.alloc` without `swizzle=` first takes the swizzle kiln's descriptors
// use for a block of the buffer's shape. A TMA copy must find its buffer in
// its descriptor's layout, so where a buffer (or its slices, or its
// buffers) is copied by TMA through blocks of another shape, say 64x32
// slices of a 64x128 buffer, that choice is wrong. This pass, after the
// ttir stage has built hwx's ops, gives each such allocation the swizzle
// its TMA copies need (they must agree; wgmma reads 32, 64 and 128 bytes
// alike) and retypes the views of it, the loop-carried ones included.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
namespace tt = kiln::tt;
namespace ttg = kiln::ttg;
namespace ttng = kiln::ttng;

namespace hwx {
namespace {

/// The values an allocation reaches through views and control flow; false
/// where it reaches something this pass does not follow (a while loop, a
/// call), which keeps kiln's first choice (the walk still goes on, so that
/// allocations meeting this one are known).
bool derivedValues(Value root, SmallVectorImpl<Value> &out, DenseSet<Value> &seen) {
  bool followed = true;
  SmallVector<Value> worklist{root};
  seen.insert(root);
  auto add = [&](Value v) {
    if (seen.insert(v).second) {
      worklist.push_back(v);
      out.push_back(v);
    }
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<ttg::MemDescIndexOp, ttg::MemDescSubsliceOp, ttg::MemDescTransOp>(user)) {
        add(user->getResult(0));
      } else if (auto tasks = dyn_cast<ttg::WarpSpecializeOp>(user)) {
        // A capture: each task's block argument.
        for (Region &region : tasks.getPartitionRegions())
          add(region.getArgument(use.getOperandNumber()));
      } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
        unsigned i = use.getOperandNumber() - loop.getNumControlOperands();
        add(loop.getRegionIterArgs()[i]);
        add(loop.getResult(i));
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        if (!isa<scf::ForOp, scf::IfOp>(parent)) {
          followed = false;
          continue;
        }
        add(parent->getResult(use.getOperandNumber()));
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          add(loop.getRegionIterArgs()[use.getOperandNumber()]);
      } else if (isa<RegionBranchOpInterface, CallOpInterface>(user) ||
                 user->hasTrait<OpTrait::IsTerminator>()) {
        followed = false;
      }
    }
  }
  return followed;
}

/// Whether every value that flows into `v` (a loop's initial value and its
/// yield, both branches' yields) is one of `group`'s: a buffer joined with
/// one the pass does not retype must keep its type.
bool joinsOnlyGroup(Value v, const DenseSet<Value> &group) {
  SmallVector<Value> incoming;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop)
      return true; // a task's capture: one value flows in
    unsigned i = arg.getArgNumber() - loop.getNumInductionVars();
    incoming = {loop.getInitArgs()[i], loop.getYieldedValues()[i]};
  } else if (auto loop = v.getDefiningOp<scf::ForOp>()) {
    unsigned i = cast<OpResult>(v).getResultNumber();
    incoming = {loop.getInitArgs()[i], loop.getYieldedValues()[i]};
  } else if (auto branch = v.getDefiningOp<scf::IfOp>()) {
    unsigned i = cast<OpResult>(v).getResultNumber();
    incoming.push_back(branch.thenYield().getOperand(i));
    if (!branch.getElseRegion().empty())
      incoming.push_back(branch.elseYield().getOperand(i));
  }
  return llvm::all_of(incoming, [&](Value in) { return group.contains(in); });
}

/// The swizzle (bytes) a TMA copy needs of the buffer it names, if `op` is
/// one and `buffer` is its buffer (not a transposed view: TMA copies rows
/// as they lie).
std::optional<unsigned> swizzleNeeded(Operation *op, Value buffer) {
  if (buffer.getDefiningOp<ttg::MemDescTransOp>())
    return std::nullopt;
  Value desc;
  if (auto load = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op); load && load.getResult() == buffer)
    desc = load.getDesc();
  else if (auto store = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(op))
    desc = store.getDesc();
  else if (auto reduce = dyn_cast<ttng::AsyncTMAReduceOp>(op))
    desc = reduce.getDesc();
  if (!desc)
    return std::nullopt;
  auto type = cast<tt::TensorDescType>(desc.getType());
  return ttng::defaultTMAEncoding(type.getSignlessBlockType(), {}).getSwizzlingByteWidth();
}

/// `value`'s type recomputed from the value it is derived from.
Type retyped(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      return loop.getInitArgs()[arg.getArgNumber() - loop.getNumInductionVars()].getType();
    auto tasks = cast<ttg::WarpSpecializeOp>(parent->getParentOp());
    return tasks.getExplicitCaptures()[arg.getArgNumber()].getType();
  }
  Operation *def = value.getDefiningOp();
  if (isa<scf::ForOp, scf::IfOp>(def)) {
    unsigned i = cast<OpResult>(value).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def))
      return loop.getInitArgs()[i].getType();
    return cast<scf::IfOp>(def).thenYield().getOperand(i).getType();
  }
  auto src = cast<ttg::MemDescType>(def->getOperand(0).getType());
  auto type = cast<ttg::MemDescType>(value.getType());
  if (auto trans = dyn_cast<ttg::MemDescTransOp>(def))
    return ttg::transposedType(src, trans.getOrder());
  // Views (an index, a slice) keep their shape and take their source's layout.
  return ttg::MemDescType::get(def->getContext(), type.getShape(), type.getElementType(),
                               src.getEncoding(), type.getMemorySpace(), type.getMutableMemory(),
                               type.getAllocShape());
}

/// The allocation of `group` whose values `copy` uses.
Operation *allocOf(Operation *copy, ArrayRef<Operation *> group,
                   DenseMap<Operation *, SmallVector<Value>> &views) {
  for (Operation *alloc : group)
    for (Value operand : copy->getOperands())
      if (operand == alloc->getResult(0) || llvm::is_contained(views[alloc], operand))
        return alloc;
  return group.front();
}

struct InferBufferLayoutsPass
    : public PassWrapper<InferBufferLayoutsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InferBufferLayoutsPass)

  StringRef getArgument() const final { return "hwx-infer-buffer-layouts"; }
  StringRef getDescription() const final {
    return "Give hwx buffers without a swizzle of their own the one their TMA copies need";
  }

  void runOnOperation() override {
    SmallVector<ttg::LocalAllocOp> allocs;
    getOperation().walk([&](ttg::LocalAllocOp alloc) {
      if (alloc->removeAttr(kInferredLayoutAttr))
        allocs.push_back(alloc);
    });
    // Allocations whose views meet (a branch choosing between two) take one
    // layout.
    llvm::EquivalenceClasses<Operation *> groups;
    DenseMap<Value, Operation *> reachedFrom;
    DenseMap<Operation *, SmallVector<Value>> views;
    DenseSet<Operation *> fixed;
    for (ttg::LocalAllocOp alloc : allocs) {
      groups.insert(alloc);
      DenseSet<Value> seen;
      SmallVector<Value> &mine = views[alloc];
      if (!derivedValues(alloc.getResult(), mine, seen))
        fixed.insert(alloc);
      for (Value v : mine) {
        auto [it, inserted] = reachedFrom.try_emplace(v, alloc);
        if (!inserted)
          groups.unionSets(alloc.getOperation(), it->second);
      }
    }
    for (auto member = groups.begin(); member != groups.end(); ++member) {
      if (!(*member)->isLeader())
        continue;
      SmallVector<Operation *> group(groups.member_begin(**member), groups.member_end());
      if (failed(inferGroup(group, views, fixed)))
        return signalPassFailure();
    }
  }

  LogicalResult inferGroup(ArrayRef<Operation *> group,
                           DenseMap<Operation *, SmallVector<Value>> &views,
                           const DenseSet<Operation *> &fixed) {
    if (llvm::any_of(group, [&](Operation *alloc) { return fixed.contains(alloc); }))
      return success();
    DenseSet<Value> values;
    for (Operation *alloc : group) {
      values.insert(alloc->getResult(0));
      values.insert(views[alloc].begin(), views[alloc].end());
    }
    if (!llvm::all_of(values, [&](Value v) { return joinsOnlyGroup(v, values); }))
      return success();
    // What each TMA copy of the group's buffers needs, in program order;
    // they must agree.
    SmallVector<std::pair<Operation *, unsigned>> copies;
    Operation *func = group.front()->getParentOfType<FunctionOpInterface>();
    func->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (values.contains(operand))
          if (std::optional<unsigned> needed = swizzleNeeded(op, operand))
            copies.push_back({op, *needed});
    });
    if (copies.empty())
      return success();
    unsigned swizzle = copies.front().second;
    for (auto [copy, needed] : copies) {
      if (needed == swizzle)
        continue;
      Operation *alloc = allocOf(copies.front().first, group, views);
      InFlightDiagnostic diag = alloc->emitError()
                                << "hwx.alloc: the buffer's TMA copies need different swizzles ("
                                << swizzle << " and " << needed
                                << " bytes): give one with swizzle=, and copy through "
                                   "descriptors whose blocks have rows of that width";
      diag.attachNote(copies.front().first->getLoc()) << "this copy needs " << swizzle << " bytes";
      diag.attachNote(copy->getLoc()) << "this copy needs " << needed << " bytes";
      return failure();
    }
    // The swizzle must suit each allocation's rows (8 or more, a multiple
    // of its width); else the copies' error comes later, at the copy.
    for (Operation *alloc : group) {
      auto type = cast<ttg::MemDescType>(alloc->getResult(0).getType());
      int64_t rowBytes = type.getShape().back() * type.getElementTypeBitWidth() / 8;
      int64_t rows = type.getNumElements() / type.getShape().back();
      if (swizzle && (rowBytes % swizzle || rows < 8))
        return success();
    }
    SetVector<Value> derived;
    for (Operation *alloc : group) {
      auto type = cast<ttg::MemDescType>(alloc->getResult(0).getType());
      auto current = dyn_cast<ttg::NVMMASharedEncodingAttr>(type.getEncoding());
      if (!current || current.getSwizzlingByteWidth() == swizzle)
        continue;
      auto encoding = ttg::NVMMASharedEncodingAttr::get(
          alloc->getContext(), swizzle, current.getTransposed(), current.getElementBitWidth(),
          current.getFp4Padded(), current.getRank(), current.getCgaLayout());
      alloc->getResult(0).setType(ttg::MemDescType::get(
          alloc->getContext(), type.getShape(), type.getElementType(), encoding,
          type.getMemorySpace(), type.getMutableMemory(), type.getAllocShape()));
      derived.insert(views[alloc].begin(), views[alloc].end());
    }
    // Until no type changes: a loop's result follows its initial value,
    // which another allocation of the group may reach first.
    for (bool changed = true; changed;) {
      changed = false;
      for (Value v : derived)
        if (Type t = retyped(v); t != v.getType()) {
          v.setType(t);
          changed = true;
        }
    }
    return success();
  }
};

} // namespace

void registerLayoutPasses(kiln::PassRegistrar &registrar) {
  registrar.add([] { return std::make_unique<InferBufferLayoutsPass>(); });
}

void extendPipelineWithLayouts(kiln::PipelineEditor &editor) {
  editor.insertAfter("ttir.expand-kernel-ops", "hwx.infer-buffer-layouts",
                     [](const kiln::CompileOptions &) {
                       return std::make_unique<InferBufferLayoutsPass>();
                     });
}

} // namespace hwx
