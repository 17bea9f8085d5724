//===- TraitProbe.cpp - test plugin: what a plugin pass sees of an op -----===//
//
// A plugin pass that asks upstream and kiln ops for their traits,
// interfaces and side effects, the way real passes do, and writes the
// answers on each op as `trait_probe.facts = "..."`. A plugin that does not
// share MLIR's type ids with the host gets wrong answers here (no
// ConstantLike on arith.constant, no m_ConstantInt match, no terminators, no
// tt.load reading kiln's GlobalMemory) while still loading and running, so
// the lit tests that check these facts guard the SDK's build flags.
//
// It is built by kiln_add_plugin as any out-of-tree plugin is, in kiln's
// tree and (test/Plugin/sdk-out-of-tree.test) against an installed kiln.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PassRegistrar.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

/// The facts one op shows a pass, space-separated, in a fixed order.
std::string facts(Operation *op) {
  std::vector<std::string> out;
  auto note = [&](bool holds, const char *fact) {
    if (holds)
      out.push_back(fact);
  };
  note(op->hasTrait<OpTrait::ConstantLike>(), "constant");
  APInt value;
  if (op->getNumResults() == 1 && matchPattern(op->getResult(0), m_ConstantInt(&value)))
    out.push_back("int=" + std::to_string(value.getSExtValue()));
  note(op->hasTrait<OpTrait::IsTerminator>(), "terminator");
  note(op->hasTrait<OpTrait::ReturnLike>(), "return-like");
  note(op->hasTrait<OpTrait::Elementwise>(), "elementwise");
  note(op->hasTrait<OpTrait::HasParent<kiln::tt::ReduceOp>::Impl>(), "in-reduce");
  note(op->hasTrait<kiln::tt::traits::SameOperandsEncoding>(), "same-encoding");
  note(isPure(op), "pure");
  note(isa<FunctionOpInterface>(op), "function");
  note(isa<CallOpInterface>(op), "call");
  note(isa<LoopLikeOpInterface>(op), "loop");
  if (auto memory = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    memory.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (effect.getResource() != kiln::tt::GlobalMemory::get())
        continue;
      note(isa<MemoryEffects::Read>(effect.getEffect()), "reads-global");
      note(isa<MemoryEffects::Write>(effect.getEffect()), "writes-global");
    }
  }
  std::string joined;
  for (const std::string &fact : out)
    joined += (joined.empty() ? "" : " ") + fact;
  return joined.empty() ? "-" : joined;
}

struct ProbePass : public PassWrapper<ProbePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ProbePass)
  StringRef getArgument() const final { return "trait_probe-facts"; }
  StringRef getDescription() const final {
    return "Record on every op its traits, interfaces and effects";
  }
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (!isa<ModuleOp>(op))
        op->setAttr("trait_probe.facts", StringAttr::get(op->getContext(), facts(op)));
    });
  }
};

void registerPasses(kiln::PassRegistrar &registrar) {
  registrar.add([] { return std::make_unique<ProbePass>(); });
}

void extendPipeline(kiln::PipelineEditor &editor) {
  // First, before canonicalisation folds the constants away.
  editor.insertAfter("ttir.inline", "trait_probe.facts",
                     [](const kiln::CompileOptions &) { return std::make_unique<ProbePass>(); });
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("trait_probe", "1.0"),
                               /*registerDialects=*/nullptr, &registerPasses, &extendPipeline,
                               /*registerOps=*/nullptr};

} // namespace

KILN_PLUGIN(info)
