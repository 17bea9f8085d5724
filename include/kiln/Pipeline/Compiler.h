//===- Compiler.h - running a pipeline on a kernel --------------*- C++ -*-===//
#ifndef KILN_PIPELINE_COMPILER_H
#define KILN_PIPELINE_COMPILER_H

#include "kiln/Pipeline/Pipeline.h"

#include <set>

namespace kiln {

struct RunOptions {
  /// Last stage to run; empty: the furthest runnable stage.
  std::string stopAfter;
  /// The input is this stage's artifact (`kiln compile --from`): the stages
  /// up to it do not run. Empty: the input is TTIR, every stage runs.
  std::string startAfter;
  /// The input has been through the passes of the first stage to run (an
  /// LLVM-dialect module given as llir): only its code generator runs.
  bool firstStageCodegenOnly = false;
  /// When set, each stage's artifact is written to <dumpDir>/<kernel>.<stage>.
  std::string dumpDir;
  /// Pass ids after which the IR is printed to `printStream`.
  std::set<std::string> printAfter;
  llvm::raw_ostream *printStream = &llvm::errs();
};

/// The stage a compile whose input is `startAfter`'s artifact (empty: TTIR)
/// stops after: `requested`, or the furthest runnable one. Fails for an
/// unknown stage, one the input is already past, or one that cannot run
/// (naming the first stage on the way that is not implemented).
llvm::Expected<std::string> resolveStopStage(const Pipeline &pipeline,
                                             llvm::StringRef requested,
                                             llvm::StringRef startAfter = "");

/// What kiln does to a parsed TTIR or TTGIR module before its stages:
/// every op without a location takes its first located user's (else its
/// function's); a second kernel and a tensor beyond Triton's 2^20
/// elements are located errors.
llvm::Error prepareModule(mlir::ModuleOp module);

/// Runs `pipeline` on `artifact` (holding the parsed TTIR module) up to and
/// including stage `stopAfter`. A failing pass is reported with its id and
/// the plugin that placed it; diagnostics of the IR go to the context.
llvm::Error runPipeline(const Pipeline &pipeline, Artifact &artifact,
                        llvm::StringRef stopAfter, const RunOptions &options);

/// Name used for dumped files: the first public tt.func, or "kernel".
std::string kernelName(mlir::ModuleOp module);

} // namespace kiln

#endif
