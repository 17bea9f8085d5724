//===- Pipeline.h - stages and pass entries, as data ------------*- C++ -*-===//
//
// A backend describes its stages in order; each MLIR stage is an ordered list
// of pass entries with stable dotted ids (`ttir.combine`). Plugins edit these
// lists (PipelineEditor.h); the result, the effective pipeline, is data that
// can be printed, compared, hashed and run.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PIPELINE_PIPELINE_H
#define KILN_PIPELINE_PIPELINE_H

#include "kiln/Base/Options.h"
#include "kiln/Base/KernelMetadata.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

/// What a stage produces: an MLIR module (ttir, ttgir, llir's MLIR half),
/// text (PTX, AMDGCN assembly) or a binary (cubin, hsaco).
struct Artifact {
  enum class Kind { MLIR, Text, Binary };
  Kind kind = Kind::MLIR;
  mlir::OwningOpRef<mlir::ModuleOp> module; ///< for Kind::MLIR
  std::string data;                         ///< for Kind::Text and Kind::Binary
  /// What the launcher needs, filled in by the code generators (llir, ptx)
  /// or read from the input; written beside a cubin.
  KernelMetadata metadata;

  /// The artifact as bytes: the printed module, or `data`.
  std::string serialize() const;
};

/// Makes a fresh pass for one compile; it may read the compile options.
using PassFactory = std::function<std::unique_ptr<mlir::Pass>(const CompileOptions &)>;

/// Produces a stage's artifact from the previous stage's, in place. Used by
/// code-generation stages and by plugins that override a whole stage.
using StageFunction =
    std::function<mlir::LogicalResult(Artifact &, const CompileOptions &)>;

/// A core code generator: a StageFunction that says why it failed.
using CodegenFunction = std::function<llvm::Error(Artifact &, const CompileOptions &)>;

/// One pass of an MLIR stage.
struct PassEntry {
  std::string id;        ///< stable dotted id: "<stage>.<name>" or "<plugin>.<name>"
  PassFactory create;
  std::string owner = "core"; ///< "core" or the plugin's name
  std::string ownerFile;      ///< the plugin's library, as it was loaded
  std::string placement = "core"; ///< the edit that put it here, for listings
  std::string condition; ///< non-empty: runs only for kernels matching this
  std::string disabledBy; ///< non-empty: disabled by this plugin (kept for listings)
  std::string disabledCondition; ///< ...only for kernels matching this
};

struct Stage {
  std::string name;
  Artifact::Kind output = Artifact::Kind::MLIR;
  /// MLIR stages run `entries` over the module; plugins can add passes to them.
  bool isMLIR = true;
  std::vector<PassEntry> entries;
  /// Stages whose output is not the module they ran passes on (llir, ptx,
  /// cubin, ...) end with a code generator; null means not implemented yet.
  bool needsCodegen = false;
  CodegenFunction codegen;
  /// Set when a plugin overrides the whole stage.
  StageFunction override;
  std::string overrideOwner;
  std::string overrideOwnerFile;
  std::string overrideCondition;

  bool runnable() const { return override || !needsCodegen || codegen; }
};

/// A pass an edit places, left out of a pipeline built for one kernel
/// because the edit's kernel predicate does not hold for it.
struct SkippedPass {
  std::string id;
  std::string owner;     ///< the plugin that placed it
  std::string placement; ///< the edit, as listings show it
  std::string reason;    ///< e.g. "it runs only if kernel name matches 'k_*'"
};

/// The stages of one backend for one target, after every plugin's edits.
struct Pipeline {
  std::string backend;
  CompileOptions options;
  std::vector<Stage> stages;
  /// Built for a kernel: the passes its predicates left out, in edit order.
  std::vector<SkippedPass> skipped;

  const Stage *findStage(llvm::StringRef name) const;
  Stage *findStage(llvm::StringRef name) {
    return const_cast<Stage *>(std::as_const(*this).findStage(name));
  }
  /// Human-readable listing with provenance, as `kiln pipeline` prints it.
  void print(llvm::raw_ostream &os) const;
  /// A canonical description of what runs (ids, owners, placements,
  /// conditions, overrides), for the cache key.
  std::string fingerprint() const;
};

} // namespace kiln

#endif
