//===- LoopCounters.h - one more value carried by a loop --------*- C++ -*-===//
#ifndef KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_LOOPCOUNTERS_H
#define KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_LOOPCOUNTERS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln::nvidia {

/// `loop` with one more iter_arg starting at `init`, yielded unchanged
/// (the caller sets what it yields: the last yield operand); the loop is
/// replaced and its body moved into the new one.
inline mlir::scf::ForOp addIterArg(mlir::scf::ForOp loop, mlir::Value init) {
  mlir::IRRewriter rewriter(loop.getContext());
  auto grown = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [](mlir::OpBuilder &, mlir::Location, llvm::ArrayRef<mlir::BlockArgument> args) {
        return llvm::SmallVector<mlir::Value>{args.front()};
      });
  return llvm::cast<mlir::scf::ForOp>(grown->getOperation());
}

} // namespace kiln::nvidia

#endif
