//===- Tasks.cpp - hwx's warp specialisation: async_tasks / async_task ----===//
//
//   with hwx.async_tasks():
//       with hwx.async_task("default"):        # the kernel's own warps
//           ...consume...
//       with hwx.async_task(num_warps=1, registers=40):
//           ...produce...
//       with hwx.async_task(num_warps=4, registers=232, replicate=2):
//           r = hwx.async_task_replica_id()     # 0, 1
//
// becomes one ttg.warp_specialize: the default task its default region
// (nothing, if there is none), every other task one partition per replica,
// on warps of its own. Partitions see the values made before the block as
// captures; pure computations (constants, index arithmetic, tl.arange) are
// made again inside instead, since a tensor lives in the registers of the
// warps that computed it and cannot be captured.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Frontend/Passes.h"
#include "kiln/Plugin/OpRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using kiln::KernelBuilder;
namespace ttg = kiln::ttg;

namespace hwx {
namespace {

constexpr StringLiteral kTask = "hwx.async_task";
/// On the constant hwx.async_task_replica_id makes: the replica fills it in.
constexpr StringLiteral kReplicaAttr = "hwx.replica_id";

InFlightDiagnostic errorAt(KernelBuilder &kb, Operation *op) {
  kb.setLoc(op->getLoc());
  return kb.emitError();
}

bool isTask(Operation *op) {
  auto name = op->getAttrOfType<StringAttr>(kiln::kScopeAttr);
  return isa<scf::ExecuteRegionOp>(op) && name && name.getValue() == kTask;
}

/// One `with hwx.async_task(...)`.
struct Task {
  scf::ExecuteRegionOp op;
  bool isDefault = false;
  int64_t warps = 0, registers = 0, replicate = 1;
};

FailureOr<Task> readTask(KernelBuilder &kb, Operation *op) {
  auto constants = op->getAttrOfType<DictionaryAttr>(kiln::kConstantsAttr);
  auto integer = [&](StringRef key) {
    auto attr = constants ? constants.getAs<IntegerAttr>(key) : IntegerAttr();
    return attr ? attr.getInt() : int64_t(-1);
  };
  auto kind = constants ? constants.getAs<StringAttr>("kind") : StringAttr();
  Task task{cast<scf::ExecuteRegionOp>(op)};
  task.warps = integer("num_warps");
  task.registers = integer("registers");
  task.replicate = integer("replicate");
  if (!kind || (kind.getValue() != "default" && !kind.getValue().empty()))
    return errorAt(kb, op) << "hwx.async_task's kind is \"default\" or left out, got " << kind;
  task.isDefault = kind.getValue() == "default";
  if (task.isDefault) {
    if (task.warps != 0 || task.registers != 0 || task.replicate != 1)
      return errorAt(kb, op) << "the default task runs on the kernel's own num_warps warps with "
                                "the registers the others leave: give it no num_warps, "
                                "registers or replicate";
    return task;
  }
  if (task.warps < 1 || !llvm::isPowerOf2_64(uint64_t(task.warps)) || task.warps > 16)
    return errorAt(kb, op) << "hwx.async_task needs num_warps, a power of two up to 16, got "
                           << task.warps;
  if (task.registers != 0 && (task.registers < 24 || task.registers > 256 || task.registers % 8))
    return errorAt(kb, op) << "hwx.async_task's registers must be a multiple of 8 in [24, 256] "
                              "(setmaxnreg), got "
                           << task.registers;
  if (task.replicate < 1 || task.replicate > 14)
    return errorAt(kb, op) << "hwx.async_task's replicate must be in [1, 14], got "
                           << task.replicate;
  return task;
}

/// Copies of a task's body into partitions: values from outside the task
/// are captured, or made again inside when pure.
class PartitionBuilder {
public:
  explicit PartitionBuilder(KernelBuilder &kb) : kb(kb) {}

  /// Collects what `task` captures; fails on a tensor it cannot.
  LogicalResult collect(scf::ExecuteRegionOp task) {
    WalkResult walk = task.walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (!task->isAncestor(v.getParentRegion()->getParentOp()) && failed(need(v, op)))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  ArrayRef<Value> captures() const { return captured.getArrayRef(); }

  /// Fills `region` (a partition) with `task`'s body for replica `replica`.
  void build(scf::ExecuteRegionOp task, Region &region, int64_t replica) {
    Block *entry = new Block();
    region.push_back(entry);
    IRMapping map;
    for (Value v : captured)
      map.map(v, entry->addArgument(v.getType(), v.getLoc()));
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    for (Operation *op : remade)
      b.clone(*op, map);
    for (Operation &op : task.getRegion().front().without_terminator())
      b.clone(op, map);
    ttg::WarpReturnOp::create(b, task.getLoc());
    setReplica(region, replica);
  }

  static void setReplica(Region &region, int64_t replica) {
    region.walk([&](arith::ConstantOp cst) {
      if (!cst->hasAttr(kReplicaAttr))
        return;
      cst.setValueAttr(IntegerAttr::get(cst.getType(), replica));
      cst->removeAttr(kReplicaAttr);
    });
  }

private:
  /// `v`, used by `user` in a task, made outside it.
  LogicalResult need(Value v, Operation *user) {
    Operation *def = v.getDefiningOp();
    if (captured.contains(v) || (def && llvm::is_contained(remade, def)))
      return success();
    if (def && isPure(def) && def->getNumRegions() == 0) {
      for (Value operand : def->getOperands())
        if (failed(need(operand, def)))
          return failure();
      remade.push_back(def);
      return success();
    }
    if (isa<RankedTensorType>(v.getType())) {
      InFlightDiagnostic diag = errorAt(kb, user)
                                << "a tensor computed outside this hwx.async_task is used in it; "
                                   "a task's warps cannot read other warps' registers: compute "
                                   "it inside the task, or pass it through an hwx buffer";
      diag.attachNote(v.getLoc()) << "the tensor is computed here";
      return failure();
    }
    captured.insert(v);
    return success();
  }

  KernelBuilder &kb;
  llvm::SetVector<Value> captured;
  /// Pure ops from outside, in an order that defines before use.
  SmallVector<Operation *> remade;
};

LogicalResult buildAsyncTasks(KernelBuilder &kb, Operation *scope) {
  auto region = cast<scf::ExecuteRegionOp>(scope);
  Block &body = region.getRegion().front();
  SmallVector<Task> tasks;
  std::optional<Task> defaultTask;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    if (isTask(&op)) {
      FailureOr<Task> task = readTask(kb, &op);
      if (failed(task))
        return failure();
      if (task->isDefault && defaultTask)
        return errorAt(kb, &op) << "hwx.async_tasks has two default tasks";
      if (task->isDefault)
        defaultTask = *task;
      else
        tasks.push_back(*task);
      continue;
    }
    // What Triton's optimisations moved between the tasks (and scopes
    // hoisted out of them).
    if (isMemoryEffectFree(&op) && op.getNumRegions() == 0) {
      op.moveBefore(scope);
      continue;
    }
    return errorAt(kb, &op) << "only `with hwx.async_task(...)` blocks may be directly inside "
                               "`with hwx.async_tasks()`";
  }
  if (tasks.empty())
    return errorAt(kb, scope) << "hwx.async_tasks needs a task besides the default one (one "
                                 "with num_warps)";
  int64_t withRegisters = llvm::count_if(tasks, [](const Task &t) { return t.registers != 0; });
  if (withRegisters != 0 && withRegisters != int64_t(tasks.size()))
    return errorAt(kb, scope) << "either every non-default hwx.async_task gives registers or "
                                 "none does";

  PartitionBuilder partitions(kb);
  for (const Task &task : tasks)
    if (failed(partitions.collect(task.op)))
      return failure();
  SmallVector<int32_t> warps, registers;
  for (const Task &task : tasks)
    for (int64_t r = 0; r < task.replicate; ++r) {
      warps.push_back(int32_t(task.warps));
      registers.push_back(int32_t(task.registers));
    }

  OpBuilder b(scope);
  Location loc = scope->getLoc();
  auto ws = ttg::WarpSpecializeOp::create(b, loc, TypeRange(), partitions.captures(),
                                          ArrayRef<NamedAttribute>{});
  ws.setPartitionNumWarps(warps);
  if (withRegisters)
    ws.setRequestedRegisters(registers);
  ws.getDefaultRegion().push_back(new Block());
  ws.getPartitionOpHolder().push_back(new Block());
  OpBuilder holder = OpBuilder::atBlockBegin(&ws.getPartitionOpHolder().front());
  auto holderOp = ttg::WarpSpecializePartitionsOp::create(
      holder, loc, TypeRange(), ValueRange(), ArrayRef<NamedAttribute>{}, unsigned(warps.size()));
  unsigned next = 0;
  for (const Task &task : tasks)
    for (int64_t r = 0; r < task.replicate; ++r)
      partitions.build(task.op, holderOp.getPartitionRegions()[next++], r);

  // The default warps run the default task where the block stood.
  Block &defaults = ws.getDefaultRegion().front();
  if (defaultTask) {
    Block &taskBody = defaultTask->op.getRegion().front();
    taskBody.getTerminator()->erase();
    defaults.getOperations().splice(defaults.end(), taskBody.getOperations());
    PartitionBuilder::setReplica(ws.getDefaultRegion(), 0);
  }
  OpBuilder end = OpBuilder::atBlockEnd(&defaults);
  ttg::WarpYieldOp::create(end, loc, ValueRange());
  scope->erase();
  return success();
}

LogicalResult buildStrayTask(KernelBuilder &kb, Operation *scope) {
  return errorAt(kb, scope)
         << "hwx.async_task(...) must be directly inside `with hwx.async_tasks():`";
}

Results replicaId(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  OpBuilder &b = kb.builder();
  for (Operation *at = b.getInsertionBlock()->getParentOp(); at; at = at->getParentOp())
    if (isTask(at)) {
      auto id = arith::ConstantOp::create(b, kb.loc(), b.getI32IntegerAttr(0));
      id->setAttr(kReplicaAttr, b.getUnitAttr());
      return SmallVector<Value>{id};
    }
  return kb.emitError() << "hwx.async_task_replica_id() is called outside `with "
                           "hwx.async_task(...)`";
}

} // namespace

void registerTaskOps(kiln::OpRegistry &registry) {
  addOps(registry,
         {{"hwx.async_tasks", {}, {}, "()",
           "a block of hwx.async_task blocks that run at once, each on its own warps (warp "
           "specialisation)",
           nullptr, &buildAsyncTasks},
          {kTask.data(),
           {{"kind", "constexpr", "\"\""},
            {"num_warps", "constexpr", "0"},
            {"registers", "constexpr", "0"},
            {"replicate", "constexpr", "1"}},
           {},
           "(kind: str = '', num_warps: int = 0, registers: int = 0, replicate: int = 1)",
           "code run by num_warps warps of their own (\"default\": by the kernel's warps), with "
           "registers per thread (setmaxnreg), replicate times",
           nullptr, &buildStrayTask},
          {"hwx.async_task_replica_id", {}, {{"tensor", "()", "'int32'"}}, "() -> int32",
           "which replica of its hwx.async_task runs this (0 in the default task)", &replicaId}});
}

} // namespace hwx
