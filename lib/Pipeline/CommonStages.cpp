//===- CommonStages.cpp - pieces every back end's stages share ------------===//
#include "kiln/Pipeline/CommonStages.h"

#include "kiln/Conversion/TritonGPUToLLVM/Passes.h"
#include "kiln/Dialect/Triton/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"

#include "mlir/Transforms/Passes.h"

using namespace llvm;

namespace kiln {

PassEntry corePass(StringRef id, std::function<std::unique_ptr<mlir::Pass>()> make) {
  return corePass(id, PassFactory([make = std::move(make)](const CompileOptions &) {
                    return make();
                  }));
}

PassEntry corePass(StringRef id, PassFactory make) {
  PassEntry entry;
  entry.id = id.str();
  entry.create = std::move(make);
  return entry;
}

Stage ttirStage(bool lowerDescriptors) {
  Stage stage;
  stage.name = "ttir";
  stage.entries = {
      corePass("ttir.inline", [] { return mlir::createInlinerPass(); }),
      corePass("ttir.rewrite-tensor-pointer", [] { return tt::createTritonRewriteTensorPointer(); }),
  };
  if (lowerDescriptors)
    stage.entries.push_back(corePass("ttir.rewrite-tensor-descriptor-to-pointer", [] {
      return tt::createTritonRewriteTensorDescriptorToPointer();
    }));
  for (PassEntry &entry : std::vector<PassEntry>{
           corePass("ttir.canonicalize", [] { return mlir::createCanonicalizerPass(); }),
           corePass("ttir.combine", [] { return tt::createTritonCombine(); }),
           corePass("ttir.reorder-broadcast", [] { return tt::createTritonReorderBroadcast(); }),
           corePass("ttir.cse", [] { return mlir::createCSEPass(); }),
           corePass("ttir.licm", [] { return tt::createTritonLoopInvariantCodeMotion(); }),
           corePass("ttir.symbol-dce", [] { return mlir::createSymbolDCEPass(); }),
           corePass("ttir.loop-unroll", [] { return tt::createTritonLoopUnroll(); }),
       })
    stage.entries.push_back(std::move(entry));
  return stage;
}

std::vector<PassEntry> ttgirLayoutPasses() {
  return {
      corePass("ttgir.decompose-scaled-dot", [] { return tt::createTritonDecomposeScaledDot(); }),
      corePass("ttgir.convert-from-ttir",
               PassFactory([](const CompileOptions &options) {
                 ttg::ConvertFromTTIROptions pass;
                 pass.target = options.target.str();
                 pass.numWarps = options.numWarps;
                 pass.threadsPerWarp = options.warpSize;
                 pass.numCTAs = options.numCtas;
                 return ttg::createConvertFromTTIR(pass);
               })),
      corePass("ttgir.coalesce", [] { return ttg::createCoalesce(); }),
      corePass("ttgir.remove-layout-conversions", [] { return ttg::createRemoveLayoutConversions(); }),
      corePass("ttgir.optimize-thread-locality", [] { return ttg::createOptimizeThreadLocality(); }),
  };
}

std::vector<PassEntry> ttgirCleanupPasses() {
  return {
      corePass("ttgir.cse", [] { return mlir::createCSEPass(); }),
      corePass("ttgir.licm", [] { return tt::createTritonLoopInvariantCodeMotion(); }),
      corePass("ttgir.canonicalize", [] { return mlir::createCanonicalizerPass(); }),
  };
}

Stage codegenStage(StringRef name, Artifact::Kind output, bool isMLIR, CodegenFunction codegen,
                   std::vector<PassEntry> entries) {
  Stage stage;
  stage.entries = std::move(entries);
  stage.name = name.str();
  stage.output = output;
  stage.isMLIR = isMLIR;
  stage.needsCodegen = true;
  stage.codegen = std::move(codegen);
  return stage;
}

std::vector<PassEntry> llirPasses() {
  return {
      corePass("llir.allocate-warp-groups", [] { return createAllocateWarpGroups(); }),
      corePass("llir.allocate-shared-memory", [] { return createAllocateSharedMemory(); }),
      corePass("llir.allocate-global-scratch", [] { return createAllocateGlobalScratch(); }),
      corePass("llir.insert-barriers", [] { return createInsertBarriers(); }),
      corePass("llir.convert-to-llvm", PassFactory([](const CompileOptions &options) {
                 return createConvertTritonGPUToLLVM(options);
               })),
      corePass("llir.forward-struct-fields", [] { return createForwardStructFields(); }),
  };
}

} // namespace kiln
