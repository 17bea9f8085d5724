//===- PipelineEditor.h - declarative edits of the pipeline -----*- C++ -*-===//
//
// Plugins place their passes by describing edits, never by patching code:
// insert before/after a pass id, prepend/append to a stage, disable or
// replace a pass, or override a whole stage. Each edit may be restricted to a
// backend, a target, and kernels matching a predicate. Edits are recorded
// when a plugin loads and applied in plugin load order, then in the order
// each plugin made them, every time a pipeline is built.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PIPELINE_PIPELINEEDITOR_H
#define KILN_PIPELINE_PIPELINEEDITOR_H

#include "kiln/Pipeline/Pipeline.h"

namespace kiln {

/// Selects kernels: evaluated on the module being compiled, which holds the
/// kernel's `tt.func`s. `description` is what listings show.
struct KernelPredicate {
  std::string description;
  std::function<bool(mlir::ModuleOp)> matches;

  explicit operator bool() const { return static_cast<bool>(matches); }

  /// Some public tt.func's name matches `glob` (`*` and `?` wildcards).
  static KernelPredicate nameMatches(llvm::StringRef glob);
  /// Some public tt.func carries the attribute `name`.
  static KernelPredicate hasAttribute(llvm::StringRef name);
};

/// Where an edit applies. Empty fields match everything.
struct EditScope {
  std::string backend;    ///< "nvidia" or "amd"
  std::string target;     ///< e.g. "cuda:90"
  KernelPredicate kernel; ///< only kernels matching this

  static EditScope forBackend(llvm::StringRef backend) { return {backend.str(), "", {}}; }
  static EditScope forTarget(llvm::StringRef target) { return {"", target.str(), {}}; }
  static EditScope forKernels(KernelPredicate kernel) { return {"", "", std::move(kernel)}; }
};

/// One recorded edit. Plugins do not build these directly; they call the
/// PipelineEditor methods.
struct PipelineEdit {
  enum class Kind { InsertBefore, InsertAfter, Prepend, Append, Disable, Replace, OverrideStage };
  Kind kind;
  std::string anchor; ///< a pass id, or a stage name for Prepend/Append/OverrideStage
  std::string newId;  ///< the inserted or replacing entry
  PassFactory create;
  StageFunction stage;
  EditScope scope;
  std::string plugin; ///< who made the edit
  std::string pluginFile;

  /// e.g. "insert-after ttir.cse", as listings show it.
  std::string describe() const;
  /// Whether the edit places a new pass entry (`newId`).
  bool placesPass() const;
};

class PipelineEditor {
public:
  PipelineEditor(std::string plugin, std::string pluginFile,
                 std::vector<PipelineEdit> &sink)
      : plugin(std::move(plugin)), pluginFile(std::move(pluginFile)), sink(sink) {}

  /// New pass ids must be "<plugin name>.<something>".
  void insertBefore(llvm::StringRef passId, llvm::StringRef newId, PassFactory create,
                    EditScope scope = {});
  void insertAfter(llvm::StringRef passId, llvm::StringRef newId, PassFactory create,
                   EditScope scope = {});
  void prepend(llvm::StringRef stage, llvm::StringRef newId, PassFactory create,
               EditScope scope = {});
  void append(llvm::StringRef stage, llvm::StringRef newId, PassFactory create,
              EditScope scope = {});
  void disable(llvm::StringRef passId, EditScope scope = {});
  void replace(llvm::StringRef passId, llvm::StringRef newId, PassFactory create,
               EditScope scope = {});
  /// The plugin's function produces the stage's artifact from the previous one.
  void overrideStage(llvm::StringRef stage, StageFunction function, EditScope scope = {});

  llvm::StringRef pluginName() const { return plugin; }

private:
  void place(PipelineEdit::Kind kind, llvm::StringRef anchor, llvm::StringRef newId,
             PassFactory create, EditScope scope);
  void record(PipelineEdit edit);

  std::string plugin;
  std::string pluginFile;
  std::vector<PipelineEdit> &sink;
};

/// Checks what can be checked of an edit without a pipeline: the new id is
/// namespaced by its plugin, factories and functions are non-null, and the
/// scope names a known backend and a well-formed target.
llvm::Error validateEdit(const PipelineEdit &edit);

/// The effective pipeline: `pipeline`'s core stages (a back end's, see
/// kiln/Backend/Registry.h) with `edits` applied in order. With `module`, kernel predicates are evaluated on it: an edit
/// whose kernels do not match is skipped, and so is any edit anchored on a
/// pass a skipped edit would have placed. Without it, every edit applies and
/// its condition is recorded for listings; that build is the strictest, so a
/// set of edits that builds without a module builds for every kernel. Fails,
/// naming the plugin, on an edit naming an unknown pass id or stage, on an
/// edit anchored on a replaced pass, or on conflicting edits.
llvm::Expected<Pipeline> applyEdits(Pipeline pipeline, llvm::ArrayRef<PipelineEdit> edits,
                                     mlir::ModuleOp module = nullptr);

} // namespace kiln

#endif
