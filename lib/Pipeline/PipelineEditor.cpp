//===- PipelineEditor.cpp - recording and applying pipeline edits ---------===//
#include "kiln/Pipeline/PipelineEditor.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/GlobPattern.h"

using namespace llvm;

namespace kiln {

//===----------------------------------------------------------------------===//
// Predicates
//===----------------------------------------------------------------------===//

/// Calls `fn` on each public tt.func of `module` until it returns true.
static bool anyKernel(mlir::ModuleOp module, function_ref<bool(tt::FuncOp)> fn) {
  for (auto func : module.getOps<tt::FuncOp>())
    if (func.isPublic() && fn(func))
      return true;
  return false;
}

KernelPredicate KernelPredicate::nameMatches(StringRef glob) {
  auto pattern = std::make_shared<GlobPattern>();
  if (Expected<GlobPattern> parsed = GlobPattern::create(glob))
    *pattern = std::move(*parsed);
  else
    consumeError(parsed.takeError()); // an unparsable glob matches nothing
  return {"kernel name matches '" + glob.str() + "'", [pattern](mlir::ModuleOp module) {
            return anyKernel(module,
                             [&](tt::FuncOp f) { return pattern->match(f.getName()); });
          }};
}

KernelPredicate KernelPredicate::hasAttribute(StringRef name) {
  std::string attr = name.str();
  return {"kernel has attribute '" + attr + "'", [attr](mlir::ModuleOp module) {
            return anyKernel(module, [&](tt::FuncOp f) { return f->hasAttr(attr); });
          }};
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

std::string PipelineEdit::describe() const {
  switch (kind) {
  case Kind::InsertBefore:
    return "insert-before " + anchor;
  case Kind::InsertAfter:
    return "insert-after " + anchor;
  case Kind::Prepend:
    return "prepend to " + anchor;
  case Kind::Append:
    return "append to " + anchor;
  case Kind::Disable:
    return "disable " + anchor;
  case Kind::Replace:
    return "replace " + anchor;
  case Kind::OverrideStage:
    return "override stage " + anchor;
  }
  llvm_unreachable("unknown edit kind");
}

void PipelineEditor::record(PipelineEdit edit) {
  edit.plugin = plugin;
  edit.pluginFile = pluginFile;
  sink.push_back(std::move(edit));
}

void PipelineEditor::place(PipelineEdit::Kind kind, StringRef anchor, StringRef newId,
                           PassFactory create, EditScope scope) {
  record({kind, anchor.str(), newId.str(), std::move(create), nullptr, std::move(scope)});
}

void PipelineEditor::insertBefore(StringRef passId, StringRef newId, PassFactory create,
                                  EditScope scope) {
  place(PipelineEdit::Kind::InsertBefore, passId, newId, std::move(create), std::move(scope));
}
void PipelineEditor::insertAfter(StringRef passId, StringRef newId, PassFactory create,
                                 EditScope scope) {
  place(PipelineEdit::Kind::InsertAfter, passId, newId, std::move(create), std::move(scope));
}
void PipelineEditor::prepend(StringRef stage, StringRef newId, PassFactory create,
                             EditScope scope) {
  place(PipelineEdit::Kind::Prepend, stage, newId, std::move(create), std::move(scope));
}
void PipelineEditor::append(StringRef stage, StringRef newId, PassFactory create,
                            EditScope scope) {
  place(PipelineEdit::Kind::Append, stage, newId, std::move(create), std::move(scope));
}
void PipelineEditor::disable(StringRef passId, EditScope scope) {
  place(PipelineEdit::Kind::Disable, passId, "", nullptr, std::move(scope));
}
void PipelineEditor::replace(StringRef passId, StringRef newId, PassFactory create,
                             EditScope scope) {
  place(PipelineEdit::Kind::Replace, passId, newId, std::move(create), std::move(scope));
}
void PipelineEditor::overrideStage(StringRef stage, StageFunction function,
                                   EditScope scope) {
  record({PipelineEdit::Kind::OverrideStage, stage.str(), "", nullptr, std::move(function),
          std::move(scope)});
}

bool PipelineEdit::placesPass() const {
  return kind != Kind::Disable && kind != Kind::OverrideStage;
}

static Error editError(const PipelineEdit &edit, const Twine &cause) {
  return createStringError(inconvertibleErrorCode(), "plugin '" + edit.plugin + "' (" +
                                                         edit.pluginFile + "): " +
                                                         edit.describe() + ": " + cause);
}

Error validateEdit(const PipelineEdit &edit) {
  using Kind = PipelineEdit::Kind;
  if (edit.placesPass()) {
    if (!StringRef(edit.newId).starts_with(edit.plugin + ".") ||
        edit.newId.size() == edit.plugin.size() + 1)
      return editError(edit, "new pass id '" + edit.newId + "' must be '" + edit.plugin +
                                 ".<name>'");
    if (!edit.create)
      return editError(edit, "null pass factory for '" + edit.newId + "'");
  }
  if (edit.kind == Kind::OverrideStage && !edit.stage)
    return editError(edit, "null stage function");
  if (edit.anchor.empty())
    return editError(edit, "empty pass id or stage name");
  if (!edit.scope.backend.empty() && edit.scope.backend != "nvidia" &&
      edit.scope.backend != "amd")
    return editError(edit, "unknown backend '" + edit.scope.backend +
                               "' in scope (expected nvidia or amd)");
  if (!edit.scope.target.empty())
    if (Expected<Target> target = Target::parse(edit.scope.target); !target)
      return editError(edit, toString(target.takeError()));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Applying
//===----------------------------------------------------------------------===//

namespace {

/// Applies edits to a list of stages, remembering what each replaced so that
/// conflicting edits are caught.
class EditApplier {
public:
  EditApplier(Pipeline &pipeline) : pipeline(pipeline) {}

  Error apply(const PipelineEdit &edit, const std::string &condition);

  /// Records that `edit` was skipped for this kernel (its own predicate did
  /// not match, or it is anchored on a skipped pass): edits anchored on the
  /// pass it would have placed are skipped too.
  void skip(const PipelineEdit &edit, bool ownPredicate) {
    if (!edit.placesPass())
      return;
    std::string reason = ownPredicate ? "it runs only if " + edit.scope.kernel.description
                                      : "its anchor '" + edit.anchor + "' is skipped: " +
                                            skipped.lookup(edit.anchor);
    skipped[edit.newId] = reason;
    pipeline.skipped.push_back({edit.newId, edit.plugin, edit.describe(), reason});
  }
  bool anchoredOnSkipped(const PipelineEdit &edit) const {
    return edit.kind != PipelineEdit::Kind::Prepend &&
           edit.kind != PipelineEdit::Kind::Append &&
           edit.kind != PipelineEdit::Kind::OverrideStage && skipped.contains(edit.anchor);
  }

private:
  struct Position {
    Stage *stage;
    size_t index;
    PassEntry &entry() { return stage->entries[index]; }
  };

  /// The entry an edit names as its anchor. A replaced pass is gone for
  /// every kernel, whether or not the replacement was conditional, so that
  /// whether an edit applies never depends on which kernel is compiled.
  Expected<Position> locate(const PipelineEdit &edit) {
    auto it = replacedBy.find(edit.anchor);
    if (it != replacedBy.end())
      return editError(edit, "pass '" + edit.anchor + "' was already replaced by plugin '" +
                                 it->second + "'");
    for (Stage &stage : pipeline.stages)
      for (size_t i = 0; i < stage.entries.size(); ++i)
        if (stage.entries[i].id == edit.anchor)
          return Position{&stage, i};
    return editError(edit, "unknown pass id '" + edit.anchor +
                               "' (run 'kiln pipeline' to list the ids)");
  }
  bool exists(StringRef id) const {
    for (const Stage &stage : pipeline.stages)
      for (const PassEntry &entry : stage.entries)
        if (entry.id == id)
          return true;
    return false;
  }
  PassEntry newEntry(const PipelineEdit &edit, const std::string &condition) {
    PassEntry entry;
    entry.id = edit.newId;
    entry.create = edit.create;
    entry.owner = edit.plugin;
    entry.ownerFile = edit.pluginFile;
    entry.placement = edit.describe();
    entry.condition = condition;
    return entry;
  }

  Pipeline &pipeline;
  StringMap<std::string> replacedBy; ///< replaced pass id -> plugin
  StringMap<std::string> skipped;    ///< passes skipped for this kernel -> why
};

} // namespace

Error EditApplier::apply(const PipelineEdit &edit, const std::string &condition) {
  using Kind = PipelineEdit::Kind;
  if (edit.placesPass() && (exists(edit.newId) || replacedBy.count(edit.newId)))
    return editError(edit, "pass id '" + edit.newId + "' already exists");

  switch (edit.kind) {
  case Kind::InsertBefore:
  case Kind::InsertAfter: {
    Expected<Position> at = locate(edit);
    if (!at)
      return at.takeError();
    size_t index = at->index + (edit.kind == Kind::InsertAfter ? 1 : 0);
    at->stage->entries.insert(at->stage->entries.begin() + index, newEntry(edit, condition));
    return Error::success();
  }
  case Kind::Prepend:
  case Kind::Append: {
    Stage *stage = pipeline.findStage(edit.anchor);
    if (!stage)
      return editError(edit, "unknown stage '" + edit.anchor + "'");
    if (!stage->isMLIR)
      return editError(edit, "stage '" + edit.anchor +
                                 "' is not an MLIR stage and takes no passes; override it "
                                 "instead");
    auto where = edit.kind == Kind::Prepend ? stage->entries.begin() : stage->entries.end();
    stage->entries.insert(where, newEntry(edit, condition));
    return Error::success();
  }
  case Kind::Disable: {
    Expected<Position> at = locate(edit);
    if (!at)
      return at.takeError();
    PassEntry &entry = at->entry();
    if (entry.disabledBy.empty()) {
      entry.disabledBy = edit.plugin;
      entry.disabledCondition = condition;
    }
    return Error::success();
  }
  case Kind::Replace: {
    Expected<Position> at = locate(edit);
    if (!at)
      return at.takeError();
    PassEntry &old = at->entry();
    if (!old.disabledBy.empty() && old.disabledBy != edit.plugin)
      return editError(edit, "pass '" + edit.anchor + "' was disabled by plugin '" +
                                 old.disabledBy + "'");
    if (!condition.empty()) {
      // A conditional replacement keeps the original for other kernels.
      old.disabledBy = edit.plugin;
      old.disabledCondition = condition;
      at->stage->entries.insert(at->stage->entries.begin() + at->index + 1,
                                newEntry(edit, condition));
    } else {
      old = newEntry(edit, condition);
    }
    replacedBy[edit.anchor] = edit.plugin;
    return Error::success();
  }
  case Kind::OverrideStage: {
    Stage *stage = pipeline.findStage(edit.anchor);
    if (!stage)
      return editError(edit, "unknown stage '" + edit.anchor + "'");
    if (stage->override && stage->overrideOwner != edit.plugin)
      return editError(edit, "stage '" + edit.anchor + "' is already overridden by plugin '" +
                                 stage->overrideOwner + "'");
    stage->override = edit.stage;
    stage->overrideOwner = edit.plugin;
    stage->overrideOwnerFile = edit.pluginFile;
    stage->overrideCondition = condition;
    return Error::success();
  }
  }
  llvm_unreachable("unknown edit kind");
}

Expected<Pipeline> applyEdits(Pipeline pipeline, ArrayRef<PipelineEdit> edits,
                               mlir::ModuleOp module) {
  const CompileOptions &options = pipeline.options;
  EditApplier applier(pipeline);
  for (const PipelineEdit &edit : edits) {
    if (!edit.scope.backend.empty() && edit.scope.backend != pipeline.backend)
      continue;
    if (!edit.scope.target.empty() && edit.scope.target != options.target.str())
      continue;
    std::string condition;
    if (edit.scope.kernel) {
      if (module && !edit.scope.kernel.matches(module)) {
        applier.skip(edit, /*ownPredicate=*/true);
        continue;
      }
      if (!module)
        condition = edit.scope.kernel.description;
    }
    if (applier.anchoredOnSkipped(edit)) {
      applier.skip(edit, /*ownPredicate=*/false);
      continue;
    }
    if (Error error = applier.apply(edit, condition))
      return std::move(error);
  }
  return pipeline;
}

} // namespace kiln
