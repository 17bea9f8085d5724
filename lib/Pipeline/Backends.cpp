//===- Backends.cpp - the core stages of each backend ---------------------===//
//
// The stage lists are data: change the pipeline here, and `kiln pipeline`,
// the cache key and the docs' id table follow.
//
//===----------------------------------------------------------------------===//
#include "kiln/Pipeline/Pipeline.h"

#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/Triton/Transforms/Passes.h"
#include "kiln/Target/NVIDIA/NVPTX.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

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

/// Whether the target has TMA. Without it (NVIDIA below sm_90, every AMD
/// target), Triton lowers tensor descriptors to pointer arithmetic in make_ttir.
bool hasTMA(const Target &target) {
  return target.backend() == "nvidia" && target.capability() >= 90;
}

/// Triton's make_ttir, as kiln runs it for every backend. The stage list is
/// built per target, so an entry that Triton runs only on some targets is
/// simply left out of the others (and of their `kiln pipeline` listing).
Stage ttirStage(const Target &target) {
  Stage stage;
  stage.name = "ttir";
  stage.entries = {
      core("ttir.inline", [] { return mlir::createInlinerPass(); }),
      core("ttir.rewrite-tensor-pointer", [] { return tt::createTritonRewriteTensorPointer(); }),
  };
  if (!hasTMA(target))
    stage.entries.push_back(core("ttir.rewrite-tensor-descriptor-to-pointer", [] {
      return tt::createTritonRewriteTensorDescriptorToPointer();
    }));
  std::vector<PassEntry> rest = {
      core("ttir.canonicalize", [] { return mlir::createCanonicalizerPass(); }),
      core("ttir.combine", [] { return tt::createTritonCombine(); }),
      core("ttir.reorder-broadcast", [] { return tt::createTritonReorderBroadcast(); }),
      core("ttir.cse", [] { return mlir::createCSEPass(); }),
      core("ttir.licm", [] { return mlir::createLoopInvariantCodeMotionPass(); }),
      core("ttir.symbol-dce", [] { return mlir::createSymbolDCEPass(); }),
      core("ttir.loop-unroll", [] { return tt::createTritonLoopUnroll(); }),
  };
  for (PassEntry &entry : rest)
    stage.entries.push_back(std::move(entry));
  return stage;
}

PassEntry coreWithOptions(StringRef id,
                          std::function<std::unique_ptr<mlir::Pass>(const CompileOptions &)> make) {
  PassEntry entry;
  entry.id = id.str();
  entry.create = std::move(make);
  return entry;
}

/// The part of Triton's make_ttgir that kernels without dots need, in
/// Triton's order: layouts, coalescing, conversion removal, then the
/// clean-ups (Triton's loop-aware CSE and its LICM of the sm_80/sm_90
/// branch are upstream CSE and LICM here). With TMA, descriptor blocks get
/// their shared layout and descriptor loads and stores become TMA copies
/// (Triton's optimize-descriptor-encoding and tma-lowering); on targets with
/// cp.async, dot loops are software-pipelined.
Stage ttgirStage(const Target &target) {
  Stage stage;
  stage.name = "ttgir";
  stage.entries = {
      coreWithOptions("ttgir.convert-from-ttir",
                      [](const CompileOptions &options) {
                        ttg::ConvertFromTTIROptions pass;
                        pass.target = options.target.str();
                        pass.numWarps = options.numWarps;
                        pass.threadsPerWarp = options.warpSize;
                        pass.numCTAs = options.numCtas;
                        return ttg::createConvertFromTTIR(pass);
                      }),
      core("ttgir.coalesce", [] { return ttg::createCoalesce(); }),
      core("ttgir.remove-layout-conversions", [] { return ttg::createRemoveLayoutConversions(); }),
      core("ttgir.optimize-thread-locality", [] { return ttg::createOptimizeThreadLocality(); }),
      core("ttgir.accelerate-matmul", [] { return ttg::createAccelerateMatmul(); }),
      core("ttgir.remove-layout-conversions-after-matmul",
           [] { return ttg::createRemoveLayoutConversions(); }),
  };
  if (hasTMA(target)) {
    stage.entries.push_back(core("ttgir.optimize-descriptor-encoding",
                                 [] { return ttg::createOptimizeDescriptorEncoding(); }));
    stage.entries.push_back(core("ttgir.tma-lowering", [] { return ttg::createTMALowering(); }));
  }
  std::vector<PassEntry> rest = {
      core("ttgir.cse", [] { return mlir::createCSEPass(); }),
      core("ttgir.licm", [] { return mlir::createLoopInvariantCodeMotionPass(); }),
      core("ttgir.canonicalize", [] { return mlir::createCanonicalizerPass(); }),
  };
  for (PassEntry &entry : rest)
    stage.entries.push_back(std::move(entry));
  if (target.backend() == "nvidia" && target.capability() >= 80)
    stage.entries.push_back(coreWithOptions("ttgir.pipeline", [](const CompileOptions &options) {
      ttg::PipelineOptions pass;
      pass.numStages = options.numStages;
      return ttg::createPipeline(pass);
    }));
  stage.entries.push_back(core("ttgir.symbol-dce", [] { return mlir::createSymbolDCEPass(); }));
  if (hasTMA(target))
    stage.entries.push_back(core("ttgir.fence-insertion", [] { return ttg::createFenceInsertion(); }));
  return stage;
}

/// A stage that ends in a code generator; without `codegen`, one kiln does
/// not have yet (a plugin can still override the stage).
Stage codegenStage(StringRef name, Artifact::Kind output, bool isMLIR,
                   CodegenFunction codegen = nullptr,
                   std::vector<PassEntry> entries = {}) {
  Stage stage;
  stage.entries = std::move(entries);
  stage.name = name.str();
  stage.output = output;
  stage.isMLIR = isMLIR;
  stage.needsCodegen = true;
  stage.codegen = std::move(codegen);
  return stage;
}

Error needs(bool has, StringRef what) {
  if (has)
    return Error::success();
  return createStringError(inconvertibleErrorCode(), "its input is not " + what);
}

// The nvidia backend's code generators (lib/Target/NVIDIA). Each replaces
// the artifact by the next one and completes the kernel's metadata.
Error nvidiaLLVMIR(Artifact &artifact, const CompileOptions &options) {
  if (Error err = needs(static_cast<bool>(artifact.module), "an MLIR module"))
    return err;
  Expected<std::string> ir = nvidia::generateLLVMIR(*artifact.module, options, artifact.metadata);
  if (!ir)
    return ir.takeError();
  artifact.data = std::move(*ir);
  artifact.module = nullptr;
  return Error::success();
}

Error nvidiaPTX(Artifact &artifact, const CompileOptions &options) {
  if (Error err = needs(artifact.kind == Artifact::Kind::Text, "LLVM IR"))
    return err;
  Expected<std::string> ptx = nvidia::generatePTX(artifact.data, options, artifact.metadata);
  if (!ptx)
    return ptx.takeError();
  artifact.data = std::move(*ptx);
  return Error::success();
}

Error nvidiaCubin(Artifact &artifact, const CompileOptions &options) {
  if (Error err = needs(artifact.kind == Artifact::Kind::Text, "PTX"))
    return err;
  if (!artifact.metadata.known()) {
    // PTX from a plugin's ptx stage, or not written by kiln.
    Expected<KernelMetadata> derived =
        nvidia::metadataFromForeignPTX(artifact.data, options, std::nullopt);
    if (!derived)
      return derived.takeError();
    artifact.metadata = *derived;
  }
  Expected<std::string> cubin = nvidia::assembleCubin(artifact.data, options);
  if (!cubin)
    return cubin.takeError();
  artifact.data = std::move(*cubin);
  return Error::success();
}

} // namespace

Expected<std::vector<Stage>> coreStages(const CompileOptions &options) {
  std::vector<Stage> stages;
  stages.push_back(ttirStage(options.target));
  stages.push_back(ttgirStage(options.target));
  if (options.target.backend() == "nvidia") {
    // Triton's make_llir, as far as kiln lowers it so far (NVIDIA only: the
    // AMD target info does not exist yet).
    std::vector<PassEntry> llir;
    llir.push_back(core("llir.allocate-shared-memory", [] { return createAllocateSharedMemory(); }));
    llir.push_back(core("llir.insert-barriers", [] { return createInsertBarriers(); }));
    llir.push_back(core("llir.convert-to-llvm", [] { return createConvertTritonGPUToLLVM(); }));
    stages.push_back(codegenStage("llir", Artifact::Kind::Text, /*isMLIR=*/true, nvidiaLLVMIR,
                                  std::move(llir)));
    stages.push_back(codegenStage("ptx", Artifact::Kind::Text, /*isMLIR=*/false, nvidiaPTX));
    stages.push_back(codegenStage("cubin", Artifact::Kind::Binary, /*isMLIR=*/false, nvidiaCubin));
  } else {
    stages.push_back(codegenStage("llir", Artifact::Kind::Text, /*isMLIR=*/true));
    stages.push_back(codegenStage("amdgcn", Artifact::Kind::Text, /*isMLIR=*/false));
    stages.push_back(codegenStage("hsaco", Artifact::Kind::Binary, /*isMLIR=*/false));
  }
  return stages;
}

std::vector<Target> representativeTargets() {
  return {Target{"cuda", "90"}, Target{"hip", "gfx942"}};
}

} // namespace kiln
