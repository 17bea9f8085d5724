//===- Plugin.cpp - example plugin: a dialect of its own ------------------===//
//
// Level 2 of kiln's plugin system: the plugin brings an MLIR dialect
// (`fusedma`, defined in ODS in FusedMA.td) and two passes:
//
//   fusedma.fuse   after ttir.combine: arith.addf(arith.mulf(a, b), c) on
//                  float tensors becomes `fusedma.fma %a, %b, %c`;
//   fusedma.lower  first in ttgir: fusedma.fma becomes math.fma,
//
// so the ttir artifact shows the plugin's op and everything from ttgir on is
// plain MLIR again. The passes are also registered as `fusedma-fuse` and
// `fusedma-lower` for kiln-opt.
//
//===----------------------------------------------------------------------===//
#include "FusedMA.h"

#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PassRegistrar.h"
#include "kiln/Plugin/PluginAPI.h"

namespace {

void registerDialects(mlir::DialectRegistry &registry) {
  registry.insert<fusedma::FusedMADialect>();
}

void registerPasses(kiln::PassRegistrar &registrar) {
  registrar.add([] { return fusedma::createFusedMAFuse(); });
  registrar.add([] { return fusedma::createFusedMALower(); });
}

void extendPipeline(kiln::PipelineEditor &editor) {
  editor.insertAfter("ttir.combine", "fusedma.fuse",
                     [](const kiln::CompileOptions &) { return fusedma::createFusedMAFuse(); });
  editor.prepend("ttgir", "fusedma.lower",
                 [](const kiln::CompileOptions &) { return fusedma::createFusedMALower(); });
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("fusedma", "1.0"), &registerDialects,
                               &registerPasses, &extendPipeline, /*registerOps=*/nullptr};

} // namespace

KILN_PLUGIN(info)
