//===- Backend.cpp - the NVIDIA back end's stages -------------------------===//
//
// The stage list is data: change the pipeline here, and `kiln pipeline`,
// the cache key and docs/passes.md (`kiln passes`) follow. Which passes a
// cuda target runs is decided here only: the passes themselves do not look
// at the back end.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Backend.h"

#include "kiln/Backend/NVIDIA/NVPTX.h"
#include "kiln/Backend/NVIDIA/RegisterBudget.h"
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Pipeline/CommonStages.h"

#include "mlir/Transforms/Passes.h"

using namespace llvm;

namespace kiln::nvidia {
namespace {

/// TMA (and mbarriers, wgmma's async proxy) from sm_90 on. Below it, Triton
/// lowers tensor descriptors to pointer arithmetic in make_ttir.
bool hasTMA(const Target &target) { return target.capability() >= 90; }

/// Triton's make_ttgir as far as kiln runs it: layouts, tensor cores, then
/// with TMA the descriptor layouts, the clean-ups, software pipelining of
/// dot loops (cp.async from sm_80, TMA from sm_90), the remaining TMA
/// copies, and the proxy fences wgmma needs.
Stage ttgirStage(const Target &target) {
  Stage stage;
  stage.name = "ttgir";
  stage.entries = ttgirLayoutPasses();
  // tf32x3 as three tf32 dots, which tensor cores take (sm_80 and newer).
  if (target.capability() >= 80)
    stage.entries.push_back(
        corePass("ttgir.split-tf32x3-dots", [] { return ttg::createSplitTF32x3Dots(); }));
  stage.entries.push_back(corePass("ttgir.accelerate-matmul", [] { return createAccelerateMatmul(); }));
  stage.entries.push_back(corePass("ttgir.remove-layout-conversions-after-matmul",
                                   [] { return ttg::createRemoveLayoutConversions(); }));
  if (hasTMA(target))
    stage.entries.push_back(corePass("ttgir.optimize-descriptor-encoding",
                                     [] { return createOptimizeDescriptorEncoding(); }));
  for (PassEntry &entry : ttgirCleanupPasses())
    stage.entries.push_back(std::move(entry));
  // Hopper's producer/consumer split of tt.warp_specialize loops, before
  // the pipeliner takes the loops it leaves.
  if (target.capability() == 90)
    stage.entries.push_back(
        corePass("ttgir.warp-specialize", PassFactory([](const CompileOptions &options) {
                   WarpSpecializeOptions pass;
                   pass.numStages = options.numStages;
                   return createWarpSpecialize(pass);
                 })));
  // Persistent loops (tl.range(..., flatten=True)) become one loop, so the
  // pipeliner streams the next tile's loads during the current one's end.
  if (target.capability() >= 80)
    stage.entries.push_back(
        corePass("ttgir.fuse-nested-loops", [] { return ttg::createFuseNestedLoops(); }));
  if (target.capability() == 90)
    stage.entries.push_back(corePass("ttgir.optimize-accumulator-init",
                                     [] { return createOptimizeAccumulatorInit(); }));
  if (target.capability() >= 80)
    stage.entries.push_back(
        corePass("ttgir.pipeline", PassFactory([](const CompileOptions &options) {
                   PipelineOptions pass;
                   pass.numStages = options.numStages;
                   return createPipeline(pass);
                 })));
  // After the pipeliner, which streams the descriptor loads of dot loops
  // itself: the other descriptor ops.
  if (hasTMA(target))
    stage.entries.push_back(
        corePass("ttgir.tma-lowering", PassFactory([](const CompileOptions &options) {
                   TMALoweringOptions pass;
                   pass.numStages = options.numStages;
                   return createTMALowering(pass);
                 })));
  // After the TMA lowering, which makes the epilogue's stores what moves.
  if (target.capability() == 90)
    stage.entries.push_back(corePass("ttgir.overlap-tile-epilogue",
                                     [] { return createOverlapTileEpilogue(); }));
  stage.entries.push_back(corePass("ttgir.symbol-dce", [] { return mlir::createSymbolDCEPass(); }));
  if (hasTMA(target))
    stage.entries.push_back(corePass("ttgir.fence-insertion", [] { return createFenceInsertion(); }));
  return stage;
}

Error needs(bool has, StringRef what) {
  if (has)
    return Error::success();
  return createStringError(inconvertibleErrorCode(), "its input is not " + what);
}

// The code generators (Target/). Each replaces the artifact by the next
// one and completes the kernel's metadata.
Error generateLLVMIRStage(Artifact &artifact, const CompileOptions &options) {
  if (Error err = needs(static_cast<bool>(artifact.module), "an MLIR module"))
    return err;
  Expected<std::string> ir = generateLLVMIR(*artifact.module, options, artifact.metadata);
  if (!ir)
    return ir.takeError();
  artifact.data = std::move(*ir);
  artifact.module = nullptr;
  return Error::success();
}

Error generatePTXStage(Artifact &artifact, const CompileOptions &options) {
  if (Error err = needs(artifact.kind == Artifact::Kind::Text, "LLVM IR"))
    return err;
  Expected<std::string> ptx = generatePTX(artifact.data, options, artifact.metadata);
  if (!ptx)
    return ptx.takeError();
  artifact.data = chooseRegisterBudget(*ptx, artifact.metadata.shared, options);
  return Error::success();
}

Error assembleCubinStage(Artifact &artifact, const CompileOptions &options) {
  if (Error err = needs(artifact.kind == Artifact::Kind::Text, "PTX"))
    return err;
  if (!artifact.metadata.known()) {
    // PTX from a plugin's ptx stage, or not written by kiln.
    Expected<KernelMetadata> derived = metadataFromForeignPTX(artifact.data, options, std::nullopt);
    if (!derived)
      return derived.takeError();
    artifact.metadata = *derived;
  }
  Expected<std::string> cubin = assembleCubin(artifact.data, options);
  if (!cubin)
    return cubin.takeError();
  artifact.data = std::move(*cubin);
  return Error::success();
}

class NVIDIABackend final : public Backend {
public:
  StringRef name() const override { return "nvidia"; }
  StringRef targetKind() const override { return "cuda"; }
  Target representativeTarget() const override { return Target{"cuda", "90"}; }
  /// Below sm_80 (no cp.async), sm_80 to sm_89, sm_90 and later (TMA).
  std::vector<Target> documentedTargets() const override {
    return {Target{"cuda", "75"}, Target{"cuda", "80"}, Target{"cuda", "90"}};
  }

  Expected<std::vector<Stage>> stages(const CompileOptions &options) const override {
    std::vector<Stage> stages;
    stages.push_back(ttirStage(/*lowerDescriptors=*/!hasTMA(options.target)));
    stages.push_back(ttgirStage(options.target));
    std::vector<PassEntry> llir = llirPasses();
    llir.insert(llir.begin(),
                corePass("llir.check-mbarriers", [] { return createCheckMBarriers(); }));
    llir.push_back(corePass("llir.lower-warp-specialize", [] { return createLowerWarpSpecialize(); }));
    stages.push_back(codegenStage("llir", Artifact::Kind::Text, /*isMLIR=*/true,
                                  generateLLVMIRStage, std::move(llir)));
    stages.push_back(codegenStage("ptx", Artifact::Kind::Text, /*isMLIR=*/false, generatePTXStage));
    stages.push_back(
        codegenStage("cubin", Artifact::Kind::Binary, /*isMLIR=*/false, assembleCubinStage));
    return stages;
  }

  Expected<KernelMetadata> foreignInputMetadata(StringRef stage, StringRef text,
                                                const CompileOptions &options,
                                                std::optional<int64_t> shared) const override {
    if (stage != "ptx")
      return KernelMetadata();
    return metadataFromForeignPTX(text, options, shared);
  }

  void registerWithKiln() const override {
    registerNVIDIAPasses();
    registerLowering();
  }
};

} // namespace

const Backend &backend() {
  static const NVIDIABackend instance;
  return instance;
}

} // namespace kiln::nvidia
