//===- IsolationOverhead.cpp - what an isolated compile costs -------------===//
//
//   kiln-bench-isolation <kiln binary> <kernel.ttir> [compiles]
//
// 1. The bare cost: runIsolated() of work that does nothing (mmap, fork of
//    this process with libMLIR and libLLVM mapped, wait, read back).
// 2. In a library: one compile as `kiln compile` does it (fresh context,
//    parse, build the pipeline, run ttir+ttgir, print), in this process and
//    through runIsolated(), alternating so both see the same machine load.
// 3. End to end: `kiln compile --no-cache` processes with --no-isolate and
//    with --isolate, alternating (a tenth as many: each is a whole process).
// Medians in microseconds; the default is 300 compiles.
//
//===----------------------------------------------------------------------===//
#include "kiln/Pipeline/Compiler.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Registration.h"
#include "kiln/Support/Isolation.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <vector>

#include <sys/resource.h>

using namespace llvm;
using Clock = std::chrono::steady_clock;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static double time(const std::function<void()> &fn) {
  auto start = Clock::now();
  fn();
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

/// A compile of `path` to ttgir with the core pipeline, as kiln compile runs it.
static Expected<std::string> compile(const char *path) {
  mlir::DialectRegistry registry;
  kiln::registerKilnDialects(registry);
  mlir::MLIRContext context(registry);
  kiln::Artifact artifact;
  artifact.module = mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
  if (!artifact.module)
    return createStringError("cannot parse the kernel");
  kiln::CompileOptions options;
  options.target = kiln::Target{"cuda", "90"};
  Expected<kiln::Pipeline> pipeline = kiln::buildPipeline(options, {}, *artifact.module);
  if (!pipeline)
    return pipeline.takeError();
  if (Error error = kiln::runPipeline(*pipeline, artifact, "ttgir", kiln::RunOptions{}))
    return std::move(error);
  return artifact.serialize();
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    errs() << "usage: kiln-bench-isolation <kiln binary> <kernel.ttir> [compiles]\n";
    return 1;
  }
  const char *kiln = argv[1], *kernel = argv[2];
  int runs = argc == 4 ? std::atoi(argv[3]) : 300;

  std::vector<double> bare;
  for (int i = 0; i < runs; ++i)
    bare.push_back(time([] {
      cantFail(kiln::runIsolated("nothing", []() -> Expected<std::string> { return ""; }));
    }));

  std::vector<double> inProcess, isolated;
  std::string reference = cantFail(compile(kernel));
  for (int i = 0; i < runs; ++i) {
    inProcess.push_back(time([&] { cantFail(compile(kernel)); }));
    isolated.push_back(time([&] {
      if (cantFail(kiln::runIsolated("compile", [&] { return compile(kernel); })) != reference)
        report_fatal_error("the isolated compile differs");
    }));
  }

  std::vector<double> processNo, processYes;
  auto runKiln = [&](const char *mode) {
    StringRef args[] = {kiln, "compile", kernel, "--target", "cuda:90", "--no-cache", mode,
                        "-o", "/dev/null"};
    if (sys::ExecuteAndWait(kiln, args) != 0)
      report_fatal_error("kiln compile failed");
  };
  for (int i = 0; i < std::max(runs / 10, 5); ++i) {
    processNo.push_back(time([&] { runKiln("--no-isolate"); }));
    processYes.push_back(time([&] { runKiln("--isolate"); }));
  }

  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double in = median(inProcess), iso = median(isolated);
  double pNo = median(processNo), pYes = median(processYes);
  outs() << formatv("bare runIsolated (fork + wait), median of {0}: {1:F1} us\n", runs,
                    median(bare));
  outs() << formatv("compile ttir+ttgir in a library, median of {0}: in process {1:F1} us, "
                    "isolated {2:F1} us (+{3:F1} us, {4:+F0}%)\n",
                    runs, in, iso, iso - in, 100.0 * (iso - in) / in);
  outs() << formatv("kiln compile process, median of {0}: --no-isolate {1:F0} us, --isolate "
                    "{2:F0} us (+{3:F0} us, {4:+F1}%)\n",
                    processNo.size(), pNo, pYes, pYes - pNo, 100.0 * (pYes - pNo) / pNo);
  outs() << formatv("bench process max RSS: {0} MiB\n", usage.ru_maxrss / 1024);
  return 0;
}
