//===- Backends.cpp - the core stages of each backend ---------------------===//
//
// The stage lists are data: change the pipeline here, and `kiln pipeline`,
// the cache key and the docs' id table follow.
//
//===----------------------------------------------------------------------===//
#include "kiln/Pipeline/Pipeline.h"

#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/Transforms/Passes.h"

using namespace llvm;

namespace kiln {

namespace {

PassEntry core(StringRef id, std::function<std::unique_ptr<mlir::Pass>()> make) {
  PassEntry entry;
  entry.id = id.str();
  entry.create = [make = std::move(make)](const CompileOptions &) { return make(); };
  return entry;
}

/// Triton's make_ttir, as kiln runs it for every backend.
Stage ttirStage() {
  Stage stage;
  stage.name = "ttir";
  stage.entries = {
      core("ttir.inline", [] { return mlir::createInlinerPass(); }),
      core("ttir.canonicalize", [] { return mlir::createCanonicalizerPass(); }),
      core("ttir.combine", [] { return tt::createTritonCombine(); }),
      core("ttir.reorder-broadcast", [] { return tt::createTritonReorderBroadcast(); }),
      core("ttir.cse", [] { return mlir::createCSEPass(); }),
      core("ttir.licm", [] { return mlir::createLoopInvariantCodeMotionPass(); }),
      core("ttir.symbol-dce", [] { return mlir::createSymbolDCEPass(); }),
      core("ttir.loop-unroll", [] { return tt::createTritonLoopUnroll(); }),
  };
  return stage;
}

/// A stage whose core passes do not exist yet: it runs only what plugins
/// place in it.
Stage openMLIRStage(StringRef name) {
  Stage stage;
  stage.name = name.str();
  return stage;
}

/// A stage that ends in a code generator kiln does not have yet; a plugin
/// can still override it.
Stage codegenStage(StringRef name, Artifact::Kind output, bool isMLIR,
                   std::vector<PassEntry> entries = {}) {
  Stage stage;
  stage.entries = std::move(entries);
  stage.name = name.str();
  stage.output = output;
  stage.isMLIR = isMLIR;
  stage.needsCodegen = true;
  return stage;
}

} // namespace

Expected<std::vector<Stage>> coreStages(const CompileOptions &options) {
  std::vector<Stage> stages;
  stages.push_back(ttirStage());
  stages.push_back(openMLIRStage("ttgir"));
  // Triton's make_llir, as far as kiln lowers it so far (NVIDIA only: the
  // AMD target info does not exist yet).
  bool nvidia = options.target.backend() == "nvidia";
  std::vector<PassEntry> llir;
  if (nvidia)
    llir.push_back(core("llir.convert-to-llvm", [] { return createConvertTritonGPUToLLVM(); }));
  stages.push_back(codegenStage("llir", Artifact::Kind::Text, /*isMLIR=*/true, std::move(llir)));
  if (nvidia) {
    stages.push_back(codegenStage("ptx", Artifact::Kind::Text, /*isMLIR=*/false));
    stages.push_back(codegenStage("cubin", Artifact::Kind::Binary, /*isMLIR=*/false));
  } else {
    stages.push_back(codegenStage("amdgcn", Artifact::Kind::Text, /*isMLIR=*/false));
    stages.push_back(codegenStage("hsaco", Artifact::Kind::Binary, /*isMLIR=*/false));
  }
  return stages;
}

std::vector<Target> representativeTargets() {
  return {Target{"cuda", "90"}, Target{"hip", "gfx942"}};
}

} // namespace kiln
