//===- Exec.h - the interpreter's execution state (internal) ----*- C++ -*-===//
//
// One Exec runs one kernel launch: it owns the value frames, the handler
// table (op TypeID -> handler), the constant cache and the first error.
// Each op family registers its handlers from its own file.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_INTERPRETER_EXEC_H
#define KILN_LIB_INTERPRETER_EXEC_H

#include "kiln/Interpreter/Interpreter.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <string>
#include <vector>

namespace kiln::interp::detail {

using mlir::LogicalResult;
using mlir::Operation;

class Exec;
using Handler = LogicalResult (*)(Exec &, Operation *);
struct HandlerEntry {
  Handler fn = nullptr;
  /// Whether the handler accepts block pointers and tensor descriptors;
  /// Exec::runOp rejects them for all other ops before they reach a handler
  /// that would take them for tensors.
  bool takesHandles = false;
};
using HandlerMap = llvm::DenseMap<mlir::TypeID, HandlerEntry>;

template <class OpT> void addHandler(HandlerMap &map, Handler h, bool takesHandles = false) {
  map[mlir::TypeID::get<OpT>()] = {h, takesHandles};
}

void registerControlHandlers(HandlerMap &map);
void registerArithHandlers(HandlerMap &map);
void registerMathHandlers(HandlerMap &map);
void registerShapeHandlers(HandlerMap &map);
void registerMemoryHandlers(HandlerMap &map);
void registerSyncHandlers(HandlerMap &map);
void registerReduceHandlers(HandlerMap &map);
void registerDotHandlers(HandlerMap &map);
/// Also handlers keyed by registered op name, for dialects loaded in `ctx`.
void registerDebugHandlers(HandlerMap &map, mlir::MLIRContext *ctx);

class Exec {
public:
  Exec(mlir::ModuleOp module, Memory &memory, const RunOptions &opts);

  Memory &mem;
  const RunOptions &opts;
  mlir::ModuleOp module;
  llvm::raw_ostream &printOut;
  std::array<int64_t, 3> pid{0, 0, 0};
  std::array<int64_t, 3> grid{1, 1, 1};
  int64_t poisonReads = 0;

  // --- values of the current frame ---
  const RtValue &value(mlir::Value v) const;
  /// The tensor bound to `v` (a shared copy, safe across set()).
  Tensor tensor(mlir::Value v) const;
  void set(mlir::Value v, RtValue x) { frames_.back()[v] = std::move(x); }
  void pushFrame() { frames_.emplace_back(); }
  void popFrame() { frames_.pop_back(); }

  // --- errors ---
  /// Records "<loc>: error: <op>: <msg> (program (x, y, z))" unless an
  /// error is already recorded; returns failure.
  LogicalResult fail(Operation *op, const llvm::Twine &msg);
  LogicalResult failAt(Operation *op, llvm::ArrayRef<int64_t> shape, int64_t flat,
                       const llvm::Twine &msg);
  bool hasError() const { return !error_.empty(); }
  const std::string &error() const { return error_; }
  std::string programString() const;

  // --- execution ---
  /// Counts one step (an op about to run) against opts.maxSteps and
  /// opts.timeLimitSeconds; fails, naming `op`, once a limit is reached.
  LogicalResult step(Operation *op) {
    ++steps_;
    if ((opts.maxSteps && steps_ > opts.maxSteps) ||
        (opts.timeLimitSeconds > 0 && steps_ % 64 == 0 && Clock::now() > deadline_))
      return stopRun(op);
    return mlir::success();
  }
  /// Runs one op; the first run of each op checks that the interpreter can
  /// hold its operand and result types.
  LogicalResult runOp(Operation *op);
  /// Runs the single block `block` with `args`; `yielded` receives the
  /// operands of its terminator.
  LogicalResult runBlock(mlir::Block &block, llvm::ArrayRef<RtValue> args,
                         llvm::SmallVectorImpl<RtValue> &yielded);
  /// Runs a region that may branch between blocks (cf.br/cf.cond_br) and
  /// ends in a return-like terminator; `results` receives its operands.
  LogicalResult runRegion(mlir::Region &region, llvm::ArrayRef<RtValue> args,
                          llvm::SmallVectorImpl<RtValue> &results);
  LogicalResult callFunction(kiln::tt::FuncOp func, llvm::ArrayRef<RtValue> args,
                             llvm::SmallVectorImpl<RtValue> &results);

  // --- memory ---
  /// Resolves an access of `size` bytes at `addr` made by element `flat`
  /// (of a tensor of `shape`) of `op`. Reports and returns false on a fault.
  /// A read of an unwritten poisoned element is a fault unless
  /// opts.poisonReadIsError is false.
  bool resolve(Operation *op, uint64_t addr, unsigned size, bool isRead,
               llvm::ArrayRef<int64_t> shape, int64_t flat, unsigned &id, int64_t &offset);

  /// The tensor of an arith.constant (cached across programs).
  Tensor constant(Operation *op, mlir::Attribute attr, mlir::Type type);

private:
  using Clock = std::chrono::steady_clock;
  LogicalResult stopRun(Operation *op);

  uint64_t steps_ = 0;
  Clock::time_point deadline_;
  HandlerMap handlers_;
  std::vector<llvm::DenseMap<mlir::Value, RtValue>> frames_;
  llvm::DenseMap<Operation *, Tensor> constants_;
  /// Ops whose types have been checked, with their handlers: after the
  /// first run an op costs one lookup here.
  llvm::DenseMap<Operation *, Handler> checked_;
  std::string error_;
};

/// The element kind of a value's type (its element type for tensors). Only
/// for types that Exec::runOp has checked.
ElemKind elemKindOf(mlir::Type type);
/// The static shape of a tensor type ({} for scalars).
Shape shapeOf(mlir::Type type);

} // namespace kiln::interp::detail

#endif
