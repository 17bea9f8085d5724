//===- CommonStages.h - pieces every back end's stages share ----*- C++ -*-===//
//
// Back ends build their stage lists from these: Triton's make_ttir, the
// layout passes of make_ttgir and the clean-ups, and stages that end in a
// code generator. Which of them a target runs is the back end's choice.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PIPELINE_COMMONSTAGES_H
#define KILN_PIPELINE_COMMONSTAGES_H

#include "kiln/Pipeline/Pipeline.h"

namespace kiln {

/// A core pass entry whose pass ignores the compile options.
PassEntry corePass(llvm::StringRef id, std::function<std::unique_ptr<mlir::Pass>()> make);
/// One whose pass is made from the compile options.
PassEntry corePass(llvm::StringRef id, PassFactory make);

/// Triton's make_ttir. Without TMA (`lowerDescriptors`), tensor descriptors
/// become pointer arithmetic there.
Stage ttirStage(bool lowerDescriptors);

/// The start of make_ttgir: layouts, coalescing, conversion removal and
/// gather locality, in Triton's order.
std::vector<PassEntry> ttgirLayoutPasses();
/// The clean-ups after the layout choices (Triton's loop-aware CSE and its
/// LICM are upstream CSE and LICM here).
std::vector<PassEntry> ttgirCleanupPasses();

/// A stage that ends in a code generator; without `codegen`, one kiln does
/// not have yet (a plugin can still override the stage).
Stage codegenStage(llvm::StringRef name, Artifact::Kind output, bool isMLIR,
                   CodegenFunction codegen = nullptr, std::vector<PassEntry> entries = {});

/// The llir stage's MLIR passes: shared memory, barriers, the conversion.
std::vector<PassEntry> llirPasses();

} // namespace kiln

#endif
