//===- TestPluginHooks.cpp - callbacks of the plugin-system test plugins --===//
//
// Compiled once into a static library; each test plugin (TestPluginInfo.cpp,
// built once per variant) links it and points its PluginInfo at the hooks of
// its variant. Well-formed hooks exercise every edit, ordering, predicates
// and stage overrides; the others carry one defect the loader must report.
//
//===----------------------------------------------------------------------===//
#include "TestPluginHooks.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PassRegistrar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// Sets the attribute `<mark>` on the module to the number of marks set
/// before it: shows that, and in which order, passes ran.
struct MarkPass : public PassWrapper<MarkPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkPass)
  MarkPass(std::string mark, std::string argument = "")
      : mark(std::move(mark)), argument(std::move(argument)) {}
  StringRef getArgument() const final { return argument; }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t order = 0;
    for (NamedAttribute attr : module->getAttrs())
      order += attr.getName().strref().ends_with("mark");
    module->setAttr(mark, IntegerAttr::get(IntegerType::get(&getContext(), 32), order));
  }
  std::string mark, argument;
};

/// Always fails, with an error on the module.
struct FailPass : public PassWrapper<FailPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FailPass)
  void runOnOperation() override {
    getOperation().emitError("test failure requested by the plugin");
    signalPassFailure();
  }
};

/// Marks each tt.func it runs on; nested under the module, so the pass
/// manager runs clones of it (one per thread).
struct FuncMarkPass
    : public PassWrapper<FuncMarkPass, OperationPass<kiln::tt::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FuncMarkPass)
  FuncMarkPass(bool fail) : fail(fail) {}
  void runOnOperation() override {
    if (fail) {
      getOperation().emitError("test failure requested by the plugin, on a function");
      return signalPassFailure();
    }
    getOperation()->setAttr("func_passes.mark", UnitAttr::get(&getContext()));
  }
  bool fail;
};

kiln::PassFactory mark(std::string name) {
  return [name](const kiln::CompileOptions &) { return std::make_unique<MarkPass>(name); };
}

} // namespace

namespace test_plugins {

void extendOrder(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertAfter("ttir.cse", self + ".mark", mark(self + ".mark"));
}

void extendPredicate(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertAfter("ttir.cse", self + ".mark", mark(self + ".mark"),
                     kiln::EditScope::forKernels(kiln::KernelPredicate::nameMatches("k_add*")));
}

void extendPredicateChain(kiln::PipelineEditor &editor) {
  extendPredicate(editor);
  // Unconditional, but anchored on a pass placed only for some kernels.
  std::string self = editor.pluginName().str();
  editor.insertAfter(self + ".mark", self + ".after", mark(self + ".after.mark"));
}

void extendAmdOnly(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.prepend("ttgir", self + ".mark", mark(self + ".mark"),
                 kiln::EditScope::forBackend("amd"));
}

void extendEveryEdit(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertBefore("ttir.inline", self + ".first", mark(self + ".first.mark"));
  editor.prepend("ttgir", self + ".ttgir-start", mark(self + ".ttgir-start.mark"));
  editor.append("ttgir", self + ".ttgir-end", mark(self + ".ttgir-end.mark"));
  editor.overrideStage("llir", [](kiln::Artifact &artifact, const kiln::CompileOptions &o) {
    size_t ops = artifact.module->getBody()->getOperations().size();
    artifact.data = "; llir stage overridden by a test plugin for " + o.target.str() +
                    "\n; the module had " + std::to_string(ops) + " top-level op(s)\n";
    artifact.module = nullptr;
    return success();
  });
}

void extendCodegenPasses(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertAfter("ttgir.coalesce", self + ".after-coalesce", mark(self + ".after-coalesce.mark"));
  // The llir entries exist on NVIDIA targets only (so far).
  kiln::EditScope nvidia = kiln::EditScope::forBackend("nvidia");
  editor.insertBefore("llir.convert-to-llvm", self + ".before-lowering",
                      mark(self + ".before-lowering.mark"), nvidia);
  editor.append("llir", self + ".llir-end", mark(self + ".llir-end.mark"), nvidia);
}

void extendOverrideTtir(kiln::PipelineEditor &editor) {
  editor.overrideStage("ttir", [](kiln::Artifact &artifact, const kiln::CompileOptions &) {
    ModuleOp module = artifact.module.get();
    module->setAttr("override_ttir.ran", UnitAttr::get(module.getContext()));
    return success();
  });
}

void extendOverrideTtirDroppingModule(kiln::PipelineEditor &editor) {
  // Reports success but leaves no module behind for an MLIR stage.
  editor.overrideStage("ttir", [](kiln::Artifact &artifact, const kiln::CompileOptions &) {
    artifact.module = nullptr;
    return success();
  });
}

void extendReplaceCombine(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.replace("ttir.combine", self + ".combine", mark(self + ".mark"));
}

void extendDisableCombine(kiln::PipelineEditor &editor) { editor.disable("ttir.combine"); }

void extendFailingPass(kiln::PipelineEditor &editor) {
  editor.insertAfter("ttir.inline", editor.pluginName().str() + ".fail",
                     [](const kiln::CompileOptions &) { return std::make_unique<FailPass>(); });
}

void extendFuncPasses(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertAfter("ttir.cse", self + ".mark", [](const kiln::CompileOptions &) {
    return std::make_unique<FuncMarkPass>(/*fail=*/false);
  });
  editor.insertAfter(self + ".mark", self + ".fail",
                     [](const kiln::CompileOptions &) {
                       return std::make_unique<FuncMarkPass>(/*fail=*/true);
                     },
                     kiln::EditScope::forKernels(kiln::KernelPredicate::nameMatches("k_add")));
}

void extendUnknownPassOnOneTarget(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertAfter("ttir.no-such-pass", self + ".mark", mark(self + ".mark"),
                     kiln::EditScope::forTarget("cuda:80"));
}

void extendUnknownPass(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.insertAfter("ttir.no-such-pass", self + ".mark", mark(self + ".mark"));
}

void extendUnknownStage(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.append("ttx", self + ".mark", mark(self + ".mark"));
}

void extendCodegenStageAppend(kiln::PipelineEditor &editor) {
  std::string self = editor.pluginName().str();
  editor.append("ptx", self + ".mark", mark(self + ".mark"));
}

void extendUnnamespacedId(kiln::PipelineEditor &editor) {
  editor.insertAfter("ttir.cse", "ttir.mine", mark("mine.mark"));
}

void extendBadScope(kiln::PipelineEditor &editor) {
  editor.disable("ttir.cse", kiln::EditScope::forTarget("cuda:sm90"));
}

void passesClashingWithCore(kiln::PassRegistrar &registrar) {
  // Registered by a plugin named "ttir", so the prefix rule holds and only
  // the clash with the core pass of that name is wrong.
  registrar.add([] { return std::make_unique<MarkPass>("x", "ttir-combine"); });
}

void passesClashingWithUpstream(kiln::PassRegistrar &registrar) {
  // Registered by a plugin named "convert": MLIR's own --convert-scf-to-cf.
  registrar.add([] { return std::make_unique<MarkPass>("x", "convert-scf-to-cf"); });
}

void passesWithoutPrefix(kiln::PassRegistrar &registrar) {
  registrar.add([] { return std::make_unique<MarkPass>("x", "no-prefix-pass"); });
}

void dialectsClashingWithHost(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect>(); // "arith" belongs to the host
}

void opsTwice(kiln::OpRegistry &registry) {
  kiln::KernelOp op;
  op.name = registry.ownerName().str() + ".twice";
  op.build = [](kiln::KernelBuilder &, ValueRange args,
                DictionaryAttr) -> FailureOr<SmallVector<Value>> {
    return SmallVector<Value>(args.begin(), args.end());
  };
  registry.add(op);
  registry.add(op);
}

void opsElementwiseBadResult(kiln::OpRegistry &registry) {
  kiln::KernelOp op;
  op.name = registry.ownerName().str() + ".cast";
  op.operands = {"x"};
  op.elementwise = true;
  op.resultElement = "float32"; // Triton spells it fp32
  op.build = [](kiln::KernelBuilder &, ValueRange args,
                DictionaryAttr) -> FailureOr<SmallVector<Value>> {
    return SmallVector<Value>(args.begin(), args.end());
  };
  registry.add(op);
}

} // namespace test_plugins
