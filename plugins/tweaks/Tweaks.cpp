//===- Tweaks.cpp - example plugin: disable and replace core passes -------===//
//
// Level 1, the other direction: a plugin that changes what the core runs.
//  - `ttir.canonicalize` is replaced by a canonicalizer that leaves control
//    flow alone (no region simplification), so loop and branch structure
//    survives into the later stages for every kernel.
//  - `ttir.loop-unroll` is disabled for kernels that carry the attribute
//    `tweaks.no_unroll` (a kernel predicate).
//  - `ttir.licm` is disabled on cuda:80 only (a target restriction).
//
//===----------------------------------------------------------------------===//
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/Transforms/Passes.h"

namespace {

void extendPipeline(kiln::PipelineEditor &editor) {
  editor.replace("ttir.canonicalize", "tweaks.canonicalize-keep-cfg",
                 [](const kiln::CompileOptions &) {
                   mlir::GreedyRewriteConfig config;
                   config.setRegionSimplificationLevel(
                       mlir::GreedySimplifyRegionLevel::Disabled);
                   return mlir::createCanonicalizerPass(config);
                 });
  editor.disable("ttir.loop-unroll", kiln::EditScope::forKernels(
                                         kiln::KernelPredicate::hasAttribute("tweaks.no_unroll")));
  editor.disable("ttir.licm", kiln::EditScope::forTarget("cuda:80"));
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("tweaks", "1.0"),
                               /*registerDialects=*/nullptr, /*registerPasses=*/nullptr,
                               &extendPipeline, /*registerOps=*/nullptr};

} // namespace

KILN_PLUGIN(info)
