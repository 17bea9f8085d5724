//===- Backend.cpp - the AMD back end's stages ----------------------------===//
//
// What kiln runs for hip targets so far: Triton's make_ttir and the neutral
// part of make_ttgir. The llir, amdgcn and hsaco stages are listed without
// a code generator (a plugin may override them); docs/backends.md lists
// what this folder still needs.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/AMD/Backend.h"

#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Pipeline/CommonStages.h"

#include "mlir/Transforms/Passes.h"

using namespace llvm;

namespace kiln::amd {
namespace {

class AMDBackend final : public Backend {
public:
  StringRef name() const override { return "amd"; }
  StringRef targetKind() const override { return "hip"; }
  Target representativeTarget() const override { return Target{"hip", "gfx942"}; }

  Expected<std::vector<Stage>> stages(const CompileOptions &options) const override {
    std::vector<Stage> stages;
    // No TMA: tensor descriptors become pointer arithmetic.
    stages.push_back(ttirStage(/*lowerDescriptors=*/true));
    Stage ttgir;
    ttgir.name = "ttgir";
    ttgir.entries = ttgirLayoutPasses();
    // Its place stays where NVIDIA's (and AMD's coming) matmul passes put
    // it, so edits anchored on it hold on every back end.
    ttgir.entries.push_back(corePass("ttgir.remove-layout-conversions-after-matmul",
                                     [] { return ttg::createRemoveLayoutConversions(); }));
    for (PassEntry &entry : ttgirCleanupPasses())
      ttgir.entries.push_back(std::move(entry));
    ttgir.entries.push_back(corePass("ttgir.symbol-dce", [] { return mlir::createSymbolDCEPass(); }));
    stages.push_back(std::move(ttgir));
    stages.push_back(codegenStage("llir", Artifact::Kind::Text, /*isMLIR=*/true));
    stages.push_back(codegenStage("amdgcn", Artifact::Kind::Text, /*isMLIR=*/false));
    stages.push_back(codegenStage("hsaco", Artifact::Kind::Binary, /*isMLIR=*/false));
    return stages;
  }

  void registerWithKiln() const override {}
};

} // namespace

const Backend &backend() {
  static const AMDBackend instance;
  return instance;
}

} // namespace kiln::amd
