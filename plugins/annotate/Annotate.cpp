//===- Annotate.cpp - example plugin: one pass, visible in the IR ---------===//
//
// Level 1 of kiln's plugin system: a single pass, placed after the core
// `ttir.cse` entry. It records on every kernel what the compile was asked
// for (num_warps, from the compile options) and what the kernel does
// (number of loads and stores), as attributes a later tool could read:
//
//   tt.func public @k(...) attributes {annotate.num_warps = 4 : i32,
//                                      annotate.loads = 2 : i32, ...}
//
// Its pass is also registered as `annotate-kernel-info` for kiln-opt.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PassRegistrar.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

struct KernelInfoPass : public PassWrapper<KernelInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KernelInfoPass)

  KernelInfoPass() = default;
  KernelInfoPass(const KernelInfoPass &other) : PassWrapper(other) {}
  explicit KernelInfoPass(int numWarps) { this->numWarps = numWarps; }

  StringRef getArgument() const final { return "annotate-kernel-info"; }
  StringRef getDescription() const final {
    return "Record num_warps and load/store counts on every kernel";
  }

  void runOnOperation() override {
    Builder b(&getContext());
    for (auto func : getOperation().getOps<kiln::tt::FuncOp>()) {
      if (!func.isPublic())
        continue;
      int loads = 0, stores = 0;
      func.walk([&](Operation *op) {
        loads += isa<kiln::tt::LoadOp, kiln::tt::DescriptorLoadOp>(op);
        stores += isa<kiln::tt::StoreOp, kiln::tt::DescriptorStoreOp>(op);
      });
      func->setAttr("annotate.num_warps", b.getI32IntegerAttr(numWarps));
      func->setAttr("annotate.loads", b.getI32IntegerAttr(loads));
      func->setAttr("annotate.stores", b.getI32IntegerAttr(stores));
    }
  }

  Option<int> numWarps{*this, "num-warps", llvm::cl::desc("num_warps to record"),
                       llvm::cl::init(4)};
};

void registerPasses(kiln::PassRegistrar &registrar) {
  registrar.add([] { return std::make_unique<KernelInfoPass>(); });
}

void extendPipeline(kiln::PipelineEditor &editor) {
  editor.insertAfter("ttir.cse", "annotate.kernel-info",
                     [](const kiln::CompileOptions &options) {
                       return std::make_unique<KernelInfoPass>(options.numWarps);
                     });
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("annotate", "1.0"),
                               /*registerDialects=*/nullptr, &registerPasses,
                               &extendPipeline, /*registerOps=*/nullptr};

} // namespace

KILN_PLUGIN(info)
