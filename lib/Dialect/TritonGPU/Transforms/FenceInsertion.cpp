//===- FenceInsertion.cpp - ttgir-fence-insertion -------------------------===//
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Pipeline/Options.h"

#include "mlir/IR/Builders.h"

namespace kiln::ttg {
#define GEN_PASS_DEF_FENCEINSERTION
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h.inc"
} // namespace kiln::ttg

using namespace mlir;
using namespace kiln;
using namespace kiln::ttg;

namespace {

/// The buffer a memdesc is a view of (through indexing and transposes, and
/// the waits that hand buffers back).
Value allocationOf(Value v) {
  while (true) {
    Operation *def = v.getDefiningOp();
    if (isa_and_nonnull<MemDescIndexOp, MemDescTransOp>(def)) {
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

/// Whether threads write `buffer` through the generic proxy.
bool writtenByThreads(Value buffer, tt::FuncOp func) {
  if (auto alloc = buffer.getDefiningOp<LocalAllocOp>(); alloc && alloc.getSrc())
    return true;
  bool written = false;
  func.walk([&](Operation *op) {
    Value dst;
    if (auto store = dyn_cast<LocalStoreOp>(op))
      dst = store.getDst();
    else if (auto copy = dyn_cast<AsyncCopyGlobalToLocalOp>(op))
      dst = copy.getResult();
    if (dst && allocationOf(dst) == buffer)
      written = true;
  });
  return written;
}

struct FenceInsertionPass : ttg::impl::FenceInsertionBase<FenceInsertionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::optional<Target>> target = moduleTarget(module, "ttgir-fence-insertion");
    if (failed(target))
      return signalPassFailure();
    if (!*target)
      return;
    if ((*target)->backend() != "nvidia" || (*target)->capability() < 90)
      return;
    for (auto func : module.getOps<tt::FuncOp>())
      func.walk([&](ttng::WarpGroupDotOp dot) {
        bool needed = false;
        for (Value operand : {dot.getA(), Value(dot.getB())})
          if (isa<MemDescType>(operand.getType()) && writtenByThreads(allocationOf(operand), func))
            needed = true;
        Operation *prev = dot->getPrevNode();
        if (!needed || isa_and_nonnull<ttng::FenceAsyncSharedOp>(prev))
          return;
        OpBuilder b(dot);
        ttng::FenceAsyncSharedOp::create(b, dot.getLoc(), /*bCluster=*/false);
      });
  }
};

} // namespace
