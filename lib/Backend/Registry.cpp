//===- Registry.cpp - the back ends kiln compiles with --------------------===//
//
// Adding a back end: a folder lib/Backend/<B> (and include/kiln/Backend/<B>)
// and one line in backends() below; docs/backends.md is the checklist.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/Registry.h"

#include "kiln/Backend/AMD/Backend.h"
#include "kiln/Backend/NVIDIA/Backend.h"

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

Expected<std::vector<Stage>> coreStages(const CompileOptions &options) {
  Expected<const Backend *> backend = backendFor(options.target);
  if (!backend)
    return backend.takeError();
  return (*backend)->stages(options);
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
  Expected<std::vector<Stage>> stages = (*backend)->stages(options);
  if (!stages)
    return stages.takeError();
  return applyEdits(Pipeline{(*backend)->name().str(), options, std::move(*stages)}, edits,
                    module);
}

} // namespace kiln
