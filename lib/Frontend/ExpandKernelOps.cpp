//===- ExpandKernelOps.cpp - the ttir-expand-kernel-ops pass --------------===//
//
// Plugin ops called from @triton.jit kernels reach kiln as
// tt.extern_elementwise of library "kiln" (python/kiln/language says why
// that encoding); each becomes what its builder emits.
//
//===----------------------------------------------------------------------===//
#include "kiln/Frontend/Passes.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Frontend/KernelBuilder.h"

namespace kiln {
#define GEN_PASS_DEF_EXPANDKERNELOPS
#include "kiln/Frontend/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace kiln {
namespace {

struct ExpandKernelOpsPass : impl::ExpandKernelOpsBase<ExpandKernelOpsPass> {
  void runOnOperation() override {
    SmallVector<tt::ExternElementwiseOp> calls;
    getOperation().walk([&](tt::ExternElementwiseOp op) {
      if (op.getLibname() == kKernelOpLibrary)
        calls.push_back(op);
    });
    bool failedAny = false;
    for (tt::ExternElementwiseOp op : calls) {
      auto func = op->getParentOfType<tt::FuncOp>();
      if (!func) {
        op.emitError("a kernel op must be called inside a tt.func");
        failedAny = true;
        continue;
      }
      KernelBuilder kb(func, op);
      FailureOr<SmallVector<Value>> results = kb.call(op.getSymbol(), op.getSrcs());
      if (failed(results)) {
        failedAny = true;
        continue;
      }
      Value result = results->front();
      if (result.getType() != op.getType()) {
        op.emitError() << "kernel op '" << op.getSymbol() << "' built a " << result.getType()
                       << " where the kernel expects " << op.getType()
                       << " (its declared result element type does not match its builder)";
        failedAny = true;
        continue;
      }
      op.replaceAllUsesWith(result);
      op.erase();
    }
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
} // namespace kiln
