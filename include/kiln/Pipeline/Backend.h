//===- Backend.h - what a back end gives the pipeline -----------*- C++ -*-===//
//
// A back end owns everything that compiles one kind of target: its stage
// list (which passes run, in which order, for which targets), its passes,
// its part of the LLVM lowering and its code generators. The registry
// (kiln/Backend/Registry.h) lists the back ends; nothing else names them.
// docs/backends.md is the checklist for adding one.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PIPELINE_BACKEND_H
#define KILN_PIPELINE_BACKEND_H

#include "kiln/Pipeline/Pipeline.h"

namespace kiln {

class Backend {
public:
  virtual ~Backend();
  /// The back end's name, as edits restrict themselves to it: "nvidia".
  virtual llvm::StringRef name() const = 0;
  /// The target kind it compiles: "cuda" (Target::kind).
  virtual llvm::StringRef targetKind() const = 0;
  /// A target checks that must cover every back end compile for.
  virtual Target representativeTarget() const = 0;
  /// Targets whose stage lists, together, hold every pass the back end
  /// runs, with each difference between its targets (for the docs' pass
  /// table).
  virtual std::vector<Target> documentedTargets() const { return {representativeTarget()}; }
  /// The core stages for `options.target`, before plugins' edits. Which
  /// passes a target runs is decided here, and only here.
  virtual llvm::Expected<std::vector<Stage>> stages(const CompileOptions &options) const = 0;
  /// The metadata of an input kiln did not write (`--from ptx` of PTX
  /// from elsewhere), for stage `stage`; `shared` is its dynamic shared
  /// memory when the user gave it. By default unknown (its code generators
  /// must fill it in).
  virtual llvm::Expected<KernelMetadata>
  foreignInputMetadata(llvm::StringRef stage, llvm::StringRef text, const CompileOptions &options,
                       std::optional<int64_t> shared) const {
    return KernelMetadata();
  }
  /// Makes its passes known to textual pipelines (kiln-opt) and gives the
  /// neutral lowering its TargetInfo and extensions; called once.
  virtual void registerWithKiln() const = 0;
};

} // namespace kiln

#endif
