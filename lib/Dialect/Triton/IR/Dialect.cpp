//===- Dialect.cpp - the tt dialect ---------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace kiln::tt;

#include "kiln/Dialect/Triton/IR/Dialect.cpp.inc"
#include "kiln/Dialect/Triton/IR/Enums.cpp.inc"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Triton/IR/Attrs.cpp.inc"

namespace {
/// Every tt op may be inlined; a tt.return becomes a branch (or its operands
/// replace the call's results when the callee has a single block).
struct TritonInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    auto func = dyn_cast<FuncOp>(callable);
    if (!func)
      return true;
    // Triton keeps callees marked `noinline = true` as calls.
    if (auto noinline = func->getAttrOfType<BoolAttr>("noinline"))
      return !noinline.getValue();
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  void handleTerminator(Operation *op, Block *newDest) const final {
    auto ret = dyn_cast<ReturnOp>(op);
    if (!ret)
      return;
    OpBuilder builder(op);
    cf::BranchOp::create(builder, op->getLoc(), newDest, ret.getOperands());
    op->erase();
  }

  void handleTerminator(Operation *op, ValueRange valuesToReplace) const final {
    auto ret = cast<ReturnOp>(op);
    for (auto [from, to] : llvm::zip(valuesToReplace, ret.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void TritonDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "kiln/Dialect/Triton/IR/Ops.cpp.inc"
      >();
  addInterfaces<TritonInlinerInterface>();
}

Operation *TritonDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                              Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void TritonDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kiln/Dialect/Triton/IR/Attrs.cpp.inc"
      >();
}

void TritonDialect::noteParsed(Spelling what, bool newer) {
  parsedSpellings[unsigned(what)].fetch_or(newer ? 2u : 1u, std::memory_order_relaxed);
}

bool TritonDialect::printsNewer(Spelling what) const {
  return parsedSpellings[unsigned(what)].load(std::memory_order_relaxed) == 2u;
}
