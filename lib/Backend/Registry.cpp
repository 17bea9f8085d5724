//===- Registry.cpp - the back ends kiln compiles with --------------------===//
//
// Adding a back end: a folder lib/Backend/<B> (and include/kiln/Backend/<B>)
// and one line in backends() below; docs/backends.md is the checklist.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/Registry.h"

#include "kiln/Backend/AMD/Backend.h"
#include "kiln/Backend/NVIDIA/Backend.h"
#include "kiln/Frontend/Passes.h"
#include "kiln/Pipeline/CommonStages.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace kiln {

Backend::~Backend() = default;

ArrayRef<const Backend *> backends() {
  static const std::vector<const Backend *> list = {&nvidia::backend(), &amd::backend()};
  return list;
}

Expected<const Backend *> backendFor(const Target &target) {
  for (const Backend *backend : backends())
    if (backend->targetKind() == target.kind)
      return backend;
  std::vector<std::string> kinds;
  for (const Backend *backend : backends())
    kinds.push_back(backend->targetKind().str());
  return createStringError("no back end compiles target '" + target.str() + "' (kinds: " +
                           join(kinds, ", ") + ")");
}

void registerBackends() {
  static bool registered = [] {
    for (const Backend *backend : backends())
      backend->registerWithKiln();
    return true;
  }();
  (void)registered;
}

/// The back end's stages, with the frontend's own pass: plugin ops called
/// from Triton kernels are expanded right after inlining, so that the
/// ttir stage simplifies what they become.
static Expected<std::vector<Stage>> stagesOf(const Backend &backend,
                                             const CompileOptions &options) {
  Expected<std::vector<Stage>> stages = backend.stages(options);
  if (!stages)
    return stages.takeError();
  for (Stage &stage : *stages) {
    if (stage.name != "ttir")
      continue;
    auto inlined = llvm::find_if(stage.entries,
                                 [](const PassEntry &e) { return e.id == "ttir.inline"; });
    auto at = inlined == stage.entries.end() ? stage.entries.begin() : std::next(inlined);
    stage.entries.insert(at, corePass("ttir.expand-kernel-ops",
                                      [] { return createExpandKernelOps(); }));
  }
  return stages;
}

Expected<std::vector<Stage>> coreStages(const CompileOptions &options) {
  Expected<const Backend *> backend = backendFor(options.target);
  if (!backend)
    return backend.takeError();
  return stagesOf(**backend, options);
}

std::vector<Target> representativeTargets() {
  std::vector<Target> targets;
  for (const Backend *backend : backends())
    targets.push_back(backend->representativeTarget());
  return targets;
}

Expected<Pipeline> buildPipeline(const CompileOptions &options, ArrayRef<PipelineEdit> edits,
                                 mlir::ModuleOp module) {
  Expected<const Backend *> backend = backendFor(options.target);
  if (!backend)
    return backend.takeError();
  Expected<std::vector<Stage>> stages = stagesOf(**backend, options);
  if (!stages)
    return stages.takeError();
  return applyEdits(Pipeline{(*backend)->name().str(), options, std::move(*stages)}, edits,
                    module);
}

} // namespace kiln
