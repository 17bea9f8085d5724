//===- PluginOverhead.cpp - what plugins cost the host --------------------===//
//
//   kiln-bench-plugins <build>/plugins <kernel.ttir>
//
// 1. Loading: each plugin library under <dir> and <dir>/test that loads
//    cleanly is loaded once (a library never loads twice in a process), and
//    the time of PluginManager::load is reported per plugin (median, max).
// 2. Edits: the effective pipeline is built with no plugins' edits and with
//    every loaded plugin's edits, many times (median per build).
// 3. Compiling: the ttir+ttgir stages run on <kernel.ttir> with the core
//    pipeline and with a pipeline whose edits only replace and disable core
//    passes (same work), to show edits cost nothing once the pipeline is built.
//
//===----------------------------------------------------------------------===//
#include "kiln/Pipeline/Compiler.h"
#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

using namespace llvm;
using Clock = std::chrono::steady_clock;

static double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median microseconds of `runs` calls of `fn`, after `warmup` calls.
static double timeIt(const std::function<void()> &fn, int runs, int warmup = 3) {
  for (int i = 0; i < warmup; ++i)
    fn();
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    fn();
    samples.push_back(microseconds(Clock::now() - start));
  }
  return median(samples);
}

static std::vector<std::string> libraries(StringRef dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (sys::path::extension(it->path()) == ".so")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    errs() << "usage: kiln-bench-plugins <build>/plugins <kernel.ttir>\n";
    return 1;
  }
  kiln::PluginManager &manager = kiln::PluginManager::get();
  std::vector<std::string> candidates = libraries(argv[1]);
  for (const std::string &file : libraries((Twine(argv[1]) + "/test").str()))
    candidates.push_back(file);

  std::vector<double> loadTimes;
  for (const std::string &file : candidates) {
    auto start = Clock::now();
    Error error = manager.load(file);
    double us = microseconds(Clock::now() - start);
    if (error) {
      consumeError(std::move(error)); // the malformed test plugins
      continue;
    }
    loadTimes.push_back(us);
  }
  if (loadTimes.empty()) {
    errs() << "no plugin loaded from " << argv[1] << "\n";
    return 1;
  }
  outs() << formatv("load: {0} plugins, median {1:F1} us, max {2:F1} us per plugin\n",
                    loadTimes.size(), median(loadTimes),
                    *std::max_element(loadTimes.begin(), loadTimes.end()));

  kiln::CompileOptions options;
  options.target = kiln::Target{"cuda", "90"};
  const auto &edits = manager.edits();
  double none = timeIt([&] { cantFail(kiln::buildPipeline(options, {})); }, 2000);
  double all = timeIt([&] { cantFail(kiln::buildPipeline(options, edits)); }, 2000);
  outs() << formatv("build pipeline: core {0:F1} us, with {1} edits {2:F1} us\n", none,
                    edits.size(), all);

  // Compile: core pipeline vs. one where a plugin replaced and disabled passes
  // with the same passes (only the edits differ).
  mlir::DialectRegistry registry;
  kiln::registerKilnDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> input =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[2], &context);
  if (!input)
    return 1;
  std::vector<kiln::PipelineEdit> sameWork;
  kiln::PipelineEditor editor("bench", "<in-process>", sameWork);
  kiln::Pipeline core = cantFail(kiln::buildPipeline(options, {}));
  for (const kiln::PassEntry &entry : core.stages.front().entries)
    editor.replace(entry.id, "bench." + entry.id, entry.create);
  editor.prepend("ttgir", "bench.noop-anchor", core.stages.front().entries[1].create);
  editor.disable("bench.noop-anchor");
  kiln::Pipeline edited = cantFail(kiln::buildPipeline(options, sameWork));

  auto compileWith = [&](const kiln::Pipeline &pipeline) {
    return [&] {
      kiln::Artifact artifact;
      artifact.module = mlir::OwningOpRef<mlir::ModuleOp>(input->clone());
      cantFail(kiln::runPipeline(pipeline, artifact, "ttgir", kiln::RunOptions{}));
    };
  };
  double coreUs = timeIt(compileWith(core), 200);
  double editedUs = timeIt(compileWith(edited), 200);
  outs() << formatv("compile ttir+ttgir of {0}: core pipeline {1:F1} us, with {2} edits "
                    "{3:F1} us ({4:+F1}%)\n",
                    sys::path::filename(sys::path::parent_path(argv[2])), coreUs,
                    sameWork.size(), editedUs, 100.0 * (editedUs - coreUs) / coreUs);
  return 0;
}
