//===- FenceInsertion.cpp - ttgir-fence-insertion -------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Base/Options.h"

#include "mlir/IR/Builders.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_FENCEINSERTION
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

/// The buffer a memdesc is a view of (through indexing, transposes, boxes
/// and reinterpretations, and the waits that hand buffers back).
Value allocationOf(Value v) {
  while (true) {
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<MemDescIndexOp, MemDescTransOp, MemDescSubsliceOp, MemDescReinterpretOp>(
            def)) {
      v = def->getOperand(0);
      continue;
    }
    if (auto wait = dyn_cast_or_null<ttng::WarpGroupDotWaitOp>(def)) {
      v = wait.getInputs()[cast<OpResult>(v).getResultNumber()];
      continue;
    }
    return v;
  }
}

/// The buffers of `func` that threads write through the generic proxy: an
/// initialised local_alloc, or one local_store or cp.async writes.
llvm::DenseSet<Value> writtenByThreads(tt::FuncOp func) {
  llvm::DenseSet<Value> written;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op); alloc && alloc.getSrc())
      written.insert(alloc.getResult());
    else if (auto store = dyn_cast<LocalStoreOp>(op))
      written.insert(allocationOf(store.getDst()));
    else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op))
      written.insert(allocationOf(copy.getResult()));
  });
  return written;
}

struct FenceInsertionPass : nvidia::impl::FenceInsertionBase<FenceInsertionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::optional<Target>> target = moduleTarget(module, "ttgir-fence-insertion");
    if (failed(target))
      return signalPassFailure();
    if (!*target)
      return; // which targets run it is the stage list's choice (sm_90 on)
    for (auto func : module.getOps<tt::FuncOp>()) {
      llvm::DenseSet<Value> written = writtenByThreads(func);
      func.walk([&](ttng::WarpGroupDotOp dot) {
        bool needed = false;
        for (Value operand : {dot.getA(), Value(dot.getB())})
          if (isa<MemDescType>(operand.getType()) && written.contains(allocationOf(operand)))
            needed = true;
        Operation *prev = dot->getPrevNode();
        if (!needed || isa_and_nonnull<ttng::FenceAsyncSharedOp>(prev))
          return;
        OpBuilder b(dot);
        ttng::FenceAsyncSharedOp::create(b, dot.getLoc(), /*bCluster=*/false);
      });
    }
  }
};

} // namespace
