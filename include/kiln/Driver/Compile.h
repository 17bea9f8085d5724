//===- Compile.h - compiling a kernel, as the tools and bindings do -*- C++ -*-===//
//
// The one entry point that compiles: it builds the pipeline for a target
// with every loaded plugin's edits, parses the input as the artifact of the
// stage it starts from, runs the stages (or answers from the cache) and
// returns the artifact with the kernel's metadata. `kiln compile`, `kiln
// run`, `kiln pipeline` and the Python bridge (through `kiln compile`)
// call it; they only parse their flags.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DRIVER_COMPILE_H
#define KILN_DRIVER_COMPILE_H

#include "kiln/Pipeline/Compiler.h"
#include "kiln/Pipeline/Pipeline.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace kiln {

/// The effective pipeline of a compile for `options.target`: its back end's
/// stages with the edits of every loaded plugin, and `options` completed
/// with their options and code-generator flags
/// (PluginManager::completeOptions). With `kernel`, kernel predicates are
/// evaluated on it (buildPipeline in Backend/Registry.h).
llvm::Expected<Pipeline> buildCompilePipeline(CompileOptions options,
                                              mlir::ModuleOp kernel = nullptr);

/// The stage whose artifact a file is: `from` when given (ttir, ttgir,
/// llir or ptx), else from the file's extension (.ttgir, .llir/.ll, .ptx;
/// anything else is TTIR).
llvm::Expected<std::string> inputStage(llvm::StringRef path, llvm::StringRef from = "");

struct CompileRequest {
  /// Plugin options the user set go in options.pluginOptions; the compile
  /// completes them.
  CompileOptions options;
  /// The input: its name (in messages and for the stage), and its text.
  std::string inputPath;
  std::string inputText;
  /// The stage the input is the artifact of; empty: inputStage(inputPath).
  std::string from;
  /// The input already parsed, by a caller with its own reader (`kiln
  /// run`'s); `inputText` still keys the cache.
  mlir::OwningOpRef<mlir::ModuleOp> parsed;
  /// Last stage to run; empty: the furthest runnable.
  std::string stopAfter;
  /// Dynamic shared memory of a PTX input kiln did not write.
  std::optional<int64_t> foreignShared;
  /// Each stage's artifact is written here (RunOptions::dumpDir).
  std::string dumpDir;
  /// Pass ids after which the IR is printed to `printStream`.
  std::vector<std::string> printAfter;
  llvm::raw_ostream *printStream = &llvm::errs();
  /// Answer from (and store in) Cache::defaultDirectory(); a compile that
  /// dumps or prints runs every stage.
  bool useCache = true;
  /// Say on standard error whether the cache answered.
  bool verbose = false;
};

struct CompileResult {
  /// The stage the compile stopped after.
  std::string stage;
  /// The final artifact's bytes.
  std::string artifact;
  /// The kernel's metadata; known() when the compile reached a binary (or
  /// a stage whose code generator fills it in).
  KernelMetadata metadata;
  /// Triton's metadata JSON, for a binary; empty otherwise.
  std::string metadataJSON;
};

/// A result as one string (the metadata JSON's length, a newline, the JSON,
/// the artifact), as the cache keeps it and an isolated child returns it.
std::string packCompileResult(llvm::StringRef json, llvm::StringRef artifact);
bool unpackCompileResult(llvm::StringRef packed, llvm::StringRef &json,
                         llvm::StringRef &artifact);

/// Compiles `request`'s input in `context` (which must hold kiln's and the
/// loaded plugins' dialects: registerKilnAndPluginDialects). Errors say
/// which stage or pass failed; diagnostics of the IR go to the context.
llvm::Expected<CompileResult> compileKernel(mlir::MLIRContext &context,
                                            CompileRequest request);

} // namespace kiln

#endif
