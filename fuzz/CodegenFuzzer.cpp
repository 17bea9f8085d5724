//===- CodegenFuzzer.cpp - TTIR or TTGIR through the code-generating stages ===//
//
// Does what `kiln compile --stage <KILN_FUZZ_STOP>` does with its input:
// kiln-fuzz-ttgir stops after the ttgir stage (layouts, pipelining, warp
// specialisation), kiln-fuzz-llir after ptx (the llir stage's lowering to
// the LLVM and NVVM dialects and its LLVM IR, then LLVM's NVPTX code
// generator, which aborts on what it cannot select). The input is TTIR,
// or TTGIR (which
// starts after the ttgir stage, as --from ttgir), optionally after a first
// line of options:
//
//   // kiln-fuzz: cuda:80 warps=8 stages=4
//
// (target cuda:75, 80, 86, 89 or 90; warps 1 to 16; stages 1 to 6; ctas 1,
// 2, 4 or 8; the defaults cuda:90, 4, 3, 1), so that one kernel is fuzzed across targets and
// options as well as through its IR. Bad input must end in a diagnostic:
// a stage that fails without one is a finding, as is a crash, an abort of
// LLVM's code generator, an unverifiable result or a result that does not
// print in a form that parses.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/Registry.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Pipeline/Compiler.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Registration.h"
#include "kiln/Support/ParseGuards.h"

#include "Finding.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

#ifndef KILN_FUZZ_STOP
#error "KILN_FUZZ_STOP names the last stage to run"
#endif

using namespace llvm;

namespace {

[[noreturn]] void finding(const Twine &what, StringRef input, StringRef diagnostics) {
  kiln::fuzz::finding("kiln-fuzz-codegen", what, input, diagnostics);
}

/// The options of the first line, if it is `// kiln-fuzz: ...`; values out
/// of range fall back to the defaults.
kiln::CompileOptions optionsOf(StringRef text) {
  std::string target = "cuda:90";
  int warps = 4, stages = 3, ctas = 1;
  StringRef first = text.split('\n').first.trim();
  if (first.consume_front("// kiln-fuzz:")) {
    SmallVector<StringRef> words;
    first.split(words, ' ', -1, false);
    for (StringRef word : words) {
      int value = 0;
      if (word.starts_with("cuda:") && is_contained({"cuda:75", "cuda:80", "cuda:86", "cuda:89",
                                                     "cuda:90"}, word))
        target = word.str();
      else if (word.consume_front("warps=") && !word.getAsInteger(10, value) && value >= 1 &&
               value <= 16 && isPowerOf2_32(value))
        warps = value;
      else if (word.consume_front("stages=") && !word.getAsInteger(10, value) && value >= 1 &&
               value <= 6)
        stages = value;
      else if (word.consume_front("ctas=") && !word.getAsInteger(10, value) && value >= 1 &&
               value <= 8 && isPowerOf2_32(value))
        ctas = value;
    }
  }
  Expected<kiln::Target> parsed = kiln::Target::parse(target);
  if (!parsed)
    std::abort();
  kiln::CompileOptions options = kiln::CompileOptions::forTarget(*parsed);
  options.numWarps = warps;
  options.numStages = stages;
  options.numCtas = ctas;
  return options;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry;
    kiln::registerKilnDialects(*r);
    return r;
  }();
  mlir::MLIRContext context(*registry, mlir::MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);

  std::string text(reinterpret_cast<const char *>(data), size);
  if (Error error = kiln::checkIRText(text, "input")) {
    consumeError(std::move(error));
    return 0;
  }
  std::string diagnostics;
  raw_string_ostream os(diagnostics);
  unsigned errors = 0;
  // Every diagnostic is rendered (locations, types and attributes printed
  // on error paths are fuzzed too); errors are counted.
  mlir::ScopedDiagnosticHandler collect(&context, [&](mlir::Diagnostic &d) {
    errors += d.getSeverity() == mlir::DiagnosticSeverity::Error;
    os << d.getLocation() << ": " << d << "\n";
    return mlir::success();
  });
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(text, "input", false), SMLoc());
  kiln::Artifact artifact;
  artifact.module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!artifact.module)
    return 0;
  if (llvm::none_of(artifact.module->getOps<kiln::tt::FuncOp>(),
                    [](kiln::tt::FuncOp f) { return f.isPublic(); }))
    return 0; // kiln compile refuses a module without a kernel

  if (Error error = kiln::prepareModule(*artifact.module)) { // as kiln compile
    consumeError(std::move(error));
    if (!errors)
      finding("a module was refused without a located error", text, diagnostics);
    return 0;
  }
  kiln::CompileOptions options = optionsOf(text);
  // TTGIR (a module with layouts) starts after the ttgir stage.
  kiln::RunOptions run;
  if ((*artifact.module)->hasAttr("ttg.num-warps")) {
    if (StringRef(KILN_FUZZ_STOP) == "ttgir")
      return 0; // the ttgir target fuzzes the ttgir stage, which TTGIR skips
    run.startAfter = "ttgir";
  }
  Expected<kiln::Pipeline> pipeline = kiln::buildPipeline(options, {}, *artifact.module);
  if (!pipeline)
    finding("no pipeline: " + toString(pipeline.takeError()), text, diagnostics);
  Expected<std::string> stop = kiln::resolveStopStage(*pipeline, KILN_FUZZ_STOP, run.startAfter);
  if (!stop)
    finding("no " KILN_FUZZ_STOP " stage: " + toString(stop.takeError()), text, diagnostics);
  run.stopAfter = *stop;
  run.printStream = &nulls();
  if (Error error = kiln::runPipeline(*pipeline, artifact, *stop, run)) {
    std::string message = toString(std::move(error));
    if (!errors)
      finding("a stage failed without a located error: " + message, text, diagnostics);
    return 0;
  }
  // The result parses back (TTGIR; the llir stage's LLVM IR was verified by
  // its translation).
  if (artifact.module && failed(mlir::verify(*artifact.module)))
    finding("the result does not verify", text, diagnostics);
  if (artifact.module) {
    std::string printed = artifact.serialize();
    SourceMgr again;
    again.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(printed, "printed", false), SMLoc());
    if (!mlir::parseSourceFile<mlir::ModuleOp>(again, &context))
      finding("the result does not parse back", printed, diagnostics);
  }
  return 0;
}
