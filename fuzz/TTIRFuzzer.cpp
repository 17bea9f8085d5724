//===- TTIRFuzzer.cpp - TTIR text through parse, verify and the ttir stage ===//
//
// Does what `kiln compile --stage ttir` does with its input, through the
// library: parse with kiln's dialects (verifying), build the cuda:90
// pipeline and run it up to the ttir stage. Bad input must end in a
// diagnostic; beyond not crashing, two results are checked, since each
// means wrong output rather than a refused input:
//   - the pipeline never fails on a module that verified, and
//   - the module, before and after the stage, prints in a form that parses
//     (before it, in the generic form too).
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/Registry.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/Compiler.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Registration.h"
#include "kiln/Support/ParseGuards.h"

#include "Finding.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;

namespace {

[[noreturn]] void finding(const Twine &what, StringRef input, StringRef diagnostics) {
  kiln::fuzz::finding("kiln-fuzz-ttir", what, input, diagnostics);
}

std::string print(mlir::ModuleOp module, mlir::OpPrintingFlags flags = {}) {
  std::string text;
  raw_string_ostream os(text);
  module.print(os, flags);
  return text;
}

/// Parses `text` in `context`; diagnostics are rendered (exercising the
/// location and op printing of error paths) into `diagnostics`.
mlir::OwningOpRef<mlir::ModuleOp> parse(StringRef text, mlir::MLIRContext &context,
                                        std::string &diagnostics) {
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(text, "input", false), SMLoc());
  raw_string_ostream os(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
}

void reparse(StringRef printed, const Twine &when, mlir::MLIRContext &context) {
  std::string diagnostics;
  if (!parse(printed, context, diagnostics))
    finding("the module printed " + when + " does not parse back", printed, diagnostics);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    kiln::registerKilnDialects(*r);
    return r;
  }();
  // A fresh context per input: nothing uniqued by one input can change how
  // the next is handled, so every finding reproduces from its input alone.
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);

  // MemoryBuffer wants a terminating NUL, which the fuzzer's bytes lack.
  std::string text(reinterpret_cast<const char *>(data), size);
  // kiln's tools refuse what MLIR's recursive parser cannot survive before
  // parsing (docs/inputs.md); the target does the same.
  if (Error error = kiln::checkIRText(text, "input")) {
    consumeError(std::move(error));
    return 0;
  }
  std::string diagnostics;
  kiln::Artifact artifact;
  artifact.module = parse(text, context, diagnostics);
  if (!artifact.module)
    return 0;
  if (llvm::none_of(artifact.module->getOps<kiln::tt::FuncOp>(),
                    [](kiln::tt::FuncOp f) { return f.isPublic(); }))
    return 0; // kiln compile refuses a module without a kernel
  reparse(print(*artifact.module), "after parsing", context);
  reparse(print(*artifact.module, mlir::OpPrintingFlags().printGenericOpForm()),
          "in generic form", context);

  Expected<kiln::Target> target = kiln::Target::parse("cuda:90");
  if (!target)
    std::abort();
  Expected<kiln::Pipeline> pipeline =
      kiln::buildPipeline(kiln::CompileOptions::forTarget(*target), {}, *artifact.module);
  if (!pipeline)
    finding("no pipeline: " + toString(pipeline.takeError()), text, "");
  Expected<std::string> stop = kiln::resolveStopStage(*pipeline, "ttir");
  if (!stop)
    finding("no ttir stage: " + toString(stop.takeError()), text, "");
  kiln::RunOptions run;
  run.stopAfter = *stop;
  run.printStream = &nulls();
  {
    raw_string_ostream os(diagnostics);
    mlir::ScopedDiagnosticHandler collect(&context, [&](mlir::Diagnostic &d) {
      os << d << "\n";
      return mlir::success();
    });
    if (Error error = kiln::runPipeline(*pipeline, artifact, *stop, run))
      finding("the ttir stage failed on a module that verified: " + toString(std::move(error)),
              text, diagnostics);
  }
  reparse(artifact.serialize(), "after the ttir stage", context);
  return 0;
}
