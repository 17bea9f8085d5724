//===- Registry.h - the back ends kiln compiles with ------------*- C++ -*-===//
//
// The one list of back ends (lib/Backend/Registry.cpp). Everything that
// needs "the back end of this target" asks here.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_REGISTRY_H
#define KILN_BACKEND_REGISTRY_H

#include "kiln/Pipeline/Backend.h"
#include "kiln/Pipeline/PipelineEditor.h"

namespace kiln {

/// Every back end, in a fixed order.
llvm::ArrayRef<const Backend *> backends();
/// The back end compiling `target`, or an error naming the known kinds.
llvm::Expected<const Backend *> backendFor(const Target &target);
/// Registers every back end's passes and lowering, once per process.
void registerBackends();

/// The core stages `options.target`'s back end compiles it with.
llvm::Expected<std::vector<Stage>> coreStages(const CompileOptions &options);
/// A representative target of each back end, for checks that must cover
/// all of them (e.g. `kiln plugins check`).
std::vector<Target> representativeTargets();

/// The effective pipeline for `options`: the back end's core stages with
/// `edits` applied in order (applyEdits in PipelineEditor.h says how).
llvm::Expected<Pipeline> buildPipeline(const CompileOptions &options,
                                       llvm::ArrayRef<PipelineEdit> edits,
                                       mlir::ModuleOp module = nullptr);

} // namespace kiln

#endif
