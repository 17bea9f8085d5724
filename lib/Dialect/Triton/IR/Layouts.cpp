//===- Layouts.cpp - tt verifiers for tensor encodings --------------------===//
//
// The encoding traits of tt ops, and the check of every value of a tt.func
// against the hardware its module targets. Both are encoding-agnostic: the
// dialect of an encoding answers through the interfaces in Interfaces.h.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace kiln::tt;

LogicalResult kiln::tt::traits::detail::verifySameEncoding(Operation *op, bool withResults) {
  std::optional<Attribute> first;
  auto check = [&](Type type) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return success();
    if (!first) {
      first = tensor.getEncoding();
      return success();
    }
    if (tensor.getEncoding() == *first)
      return success();
    return op->emitOpError() << "requires the same encoding for all "
                             << (withResults ? "operands and results" : "operands");
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  if (withResults)
    for (Type t : op->getResultTypes())
      if (failed(check(t)))
        return failure();
  return success();
}

namespace {

const DialectVerifyLayoutInterface *verifierFor(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.getEncoding())
      return nullptr;
    return dyn_cast<DialectVerifyLayoutInterface>(&tensor.getEncoding().getDialect());
  }
  return dyn_cast<DialectVerifyLayoutInterface>(&type.getDialect());
}

/// Checks the block arguments of every region of `op`.
LogicalResult verifyBlockArguments(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments()) {
        const auto *verifier = verifierFor(arg.getType());
        if (!verifier)
          continue;
        auto emitError = [&] {
          return op->emitOpError() << "block argument #" << arg.getArgNumber() << ": ";
        };
        if (failed(verifier->verifyValueType(arg.getType(), op, emitError)))
          return failure();
      }
  return success();
}

} // namespace

// Every value of the function: its arguments, the results of every op and
// the block arguments of every nested region. The first bad one is reported
// at the op that defines it.
LogicalResult FuncOp::verifyRegions() {
  if (failed(verifyBlockArguments(*this)))
    return failure();
  WalkResult walk = getBody().walk([](Operation *op) {
    for (OpResult result : op->getResults()) {
      const auto *verifier = verifierFor(result.getType());
      if (!verifier)
        continue;
      auto emitError = [&] {
        InFlightDiagnostic diag = op->emitOpError();
        if (op->getNumResults() > 1)
          diag << "result #" << result.getResultNumber() << ": ";
        return diag;
      };
      if (failed(verifier->verifyValueType(result.getType(), op, emitError)))
        return WalkResult::interrupt();
    }
    return failed(verifyBlockArguments(op)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
