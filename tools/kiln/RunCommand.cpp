//===- RunCommand.cpp - kiln run ------------------------------------------===//
//
// `kiln run CASE --interpret`: loads a run spec (CASE/manifest.json or a
// .json file; format in docs/interpreter.md), builds its buffers (outputs
// poisoned), runs the kernel with the reference interpreter, and compares
// every output that has an expectation. One line per output; exit status 0
// only when every output passes. `kiln run CASE --target cuda:N` does the
// same on an NVIDIA GPU (docs/runtime.md), from --cubin or from kiln's own
// compile of the case's kernel.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "kiln/Driver/Compile.h"
#include "kiln/Interpreter/Interpreter.h"
#include "kiln/RunSpec/RunSpec.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/Compiler.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"
#include "kiln/Backend/NVIDIA/Runtime/CudaRun.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/Isolation.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"

#include <chrono>

using namespace llvm;

namespace kiln::driver {
namespace {

cl::SubCommand command(
    "run", "Run a kernel from a run spec (a corpus case folder or a .json file) and check "
           "its outputs; see docs/interpreter.md for the run-spec format");
cl::opt<std::string> caseArg(cl::Positional, cl::desc("<case folder | run-spec.json>"),
                             cl::sub(command), cl::cat(category()));
cl::opt<bool> interpret("interpret",
                        cl::desc("Execute with the reference interpreter on the CPU"),
                        cl::sub(command), cl::cat(category()));
cl::opt<std::string> target("target",
                            cl::desc("Execute on an NVIDIA GPU of this target (cuda:90)"),
                            cl::value_desc("cuda:N"), cl::sub(command), cl::cat(category()));
cl::opt<std::string> cubin("cubin",
                           cl::desc("With --target: run this kernel image (cubin or PTX) "
                                    "instead of compiling the case's kernel"),
                           cl::value_desc("FILE"), cl::sub(command), cl::cat(category()));
cl::opt<std::string> metadata(
    "metadata", cl::desc("With --cubin: its metadata JSON (default: the cubin's name with .json)"),
    cl::value_desc("FILE"), cl::sub(command), cl::cat(category()));
cl::opt<unsigned> repeat("repeat",
                         cl::desc("With --target: time N more launches, report their median"),
                         cl::value_desc("N"), cl::init(0), cl::sub(command), cl::cat(category()));
cl::opt<std::string> outputDir(
    "output-dir",
    cl::desc("Write each output/inout buffer to DIR/<name>.out.bin (also when the run stops)"),
    cl::value_desc("DIR"), cl::sub(command), cl::cat(category()));
cl::opt<std::string> gridOverride("grid", cl::desc("Override the grid: X[,Y[,Z]]"),
                                  cl::value_desc("X,Y,Z"), cl::sub(command),
                                  cl::cat(category()));
cl::opt<int> numCtasOverride(
    "num-ctas",
    cl::desc("Override the spec's num_ctas: CTAs per program (1, 2, 4, 8 or 16), a thread-block "
             "cluster on sm_90+; only the GPU run reads it"),
    cl::init(0), cl::sub(command), cl::cat(category()));
cl::list<std::string> scalarOverrides("set",
                                      cl::desc("Override a scalar argument (repeatable)"),
                                      cl::value_desc("NAME=VALUE"), cl::sub(command),
                                      cl::cat(category()));
cl::opt<bool> allowPoisonReads(
    "allow-poison-reads",
    cl::desc("Count reads of never-written output elements instead of stopping at the first"),
    cl::sub(command), cl::cat(category()));

cl::opt<double> timeLimit(
    "time-limit",
    cl::desc("Stop the run after SECONDS of interpretation, naming the op, loop and program "
             "(default 600; 0: no limit)"),
    cl::value_desc("SECONDS"), cl::init(600), cl::sub(command), cl::cat(category()));
cl::opt<uint64_t> maxSteps(
    "max-steps",
    cl::desc("Stop the run after N ops executed (terminators included), naming the op, loop "
             "and program (default 0: no limit)"),
    cl::value_desc("N"), cl::init(0), cl::sub(command), cl::cat(category()));
cl::opt<std::string> memoryLimit(
    "memory-limit",
    cl::desc("Refuse a run whose buffers need more host memory than SIZE (bytes, or with K, M, "
             "G, T; default 4G)"),
    cl::value_desc("SIZE"), cl::init("4G"), cl::sub(command), cl::cat(category()));

cl::list<std::string> plugins("plugin",
                              cl::desc("Load a plugin library (after TRITON_PLUGIN_PATHS and KILN_PLUGIN_PATHS), "
                                       "so kernels using its dialects parse"),
                              cl::value_desc("path"), cl::sub(command), cl::cat(category()));
cl::list<std::string> pluginOptions("plugin-option", cl::desc(kPluginOptionHelp),
                                    cl::value_desc("plugin.key=value"), cl::sub(command),
                                    cl::cat(category()));
cl::opt<bool> isolate("isolate",
                      cl::desc("Run in a child process and report a crash there as an error "
                               "(the default; also KILN_ISOLATE=1)"),
                      cl::sub(command), cl::cat(category()));
cl::opt<bool> noIsolate("no-isolate", cl::desc("Run in this process (also KILN_ISOLATE=0)"),
                        cl::sub(command), cl::cat(category()));

/// The case's kernel compiled by kiln's pipeline to a cubin, with the
/// metadata a launch needs. Fails, naming the stage, while the pipeline
/// cannot reach the cubin stage.
Expected<runtime::CompiledKernel> compileCubin(const interp::RunSpec &spec) {
  auto fail = [&](const Twine &why) {
    return createStringError("kiln run --target " + target + ": cannot compile '" + spec.ttir +
                             "' to a cubin: " + why + "; give a kernel image with --cubin FILE");
  };
  CompileRequest request;
  Expected<CompileOptions> options =
      makeCompileOptions(target, spec.numWarps, spec.numStages, spec.numCtas, pluginOptions);
  if (!options)
    return options.takeError();
  request.options = std::move(*options);
  request.inputPath = spec.ttir;
  request.from = "ttir";
  request.stopAfter = "cubin";
  request.useCache = false; // a run compiles afresh, as it always has
  mlir::DialectRegistry registry;
  registerKilnAndPluginDialects(registry);
  mlir::MLIRContext context(registry);
  progress::setPhase("while parsing '" + spec.ttir + "'");
  // The interpreter's reader: the same input checks and located messages.
  auto module = interp::parseKernelFile(spec.ttir, context);
  if (!module)
    return module.takeError();
  std::string name = spec.kernel.empty() ? kernelName(**module) : spec.kernel;
  request.parsed = std::move(*module);
  // Read again for the cache key: the reader above checked it already.
  Expected<std::unique_ptr<MemoryBuffer>> file = readInputFile(spec.ttir);
  if (!file)
    return file.takeError();
  request.inputText = (*file)->getBuffer().str();
  Expected<CompileResult> result = compileKernel(context, std::move(request));
  if (!result)
    return fail(toString(result.takeError()));
  if (!result->metadata.known())
    return fail("the cubin stage left no kernel metadata");
  runtime::CompiledKernel kernel;
  kernel.image = std::move(result->artifact);
  kernel.metadata = std::move(result->metadata);
  if (kernel.metadata.name.empty())
    kernel.metadata.name = name;
  return kernel;
}

/// `kiln run --target cuda:N`: the kernel from --cubin or kiln's compile,
/// run by the CUDA runtime with the interpreter's checks.
int runOnGpu(interp::RunSpec &spec, uint64_t memoryLimit) {
  Expected<int> capability = runtime::parseCudaTarget(target);
  if (!capability)
    return reportError(capability.takeError());
  Expected<runtime::CompiledKernel> kernel =
      cubin.empty() ? compileCubin(spec) : runtime::loadCompiledKernel(cubin, metadata);
  if (!kernel)
    return reportError(kernel.takeError());
  runtime::CudaRunOptions options;
  options.capability = *capability;
  options.repeat = repeat;
  options.memoryLimit = memoryLimit;
  progress::setPhase("while running @" + kernel->metadata.name + " on the GPU");
  Expected<unsigned> failed = runtime::runCaseOnCuda(spec, *kernel, options, outputDir, outs());
  if (!failed)
    return reportError(createStringError("kiln run --target " + target + ": " +
                                         toString(failed.takeError())));
  return *failed ? 1 : 0;
}

/// The run proper; its exit status. Isolated by default, as kiln compile
/// is, and for the same reason: MLIR's parser and plugin dialects can crash
/// on a kernel, and a fork is small beside a run (bench/NOTES.md).
int runKernel() {
  if (caseArg.empty())
    return reportError(createStringError("kiln run needs a case folder or a run-spec file"));
  if (interpret == !target.empty())
    return reportError(createStringError(
        "kiln run needs one of --interpret (the CPU reference interpreter) and --target "
        "cuda:N (an NVIDIA GPU)"));
  if (target.empty() && (!cubin.empty() || !metadata.empty() || repeat))
    return reportError(createStringError("--cubin, --metadata and --repeat need --target cuda:N"));

  if (timeLimit < 0)
    return reportError(createStringError("--time-limit must not be negative"));
  std::optional<uint64_t> memoryBytes = parseByteSize(memoryLimit);
  if (!memoryBytes)
    return reportError(createStringError("--memory-limit takes a size such as 512M or 8G, got '" +
                                         memoryLimit + "'"));

  progress::setPhase("while loading plugins");
  if (Error error = loadPlugins(plugins))
    return reportError(std::move(error));
  Expected<interp::RunSpec> spec = interp::loadRunSpec(caseArg);
  if (!spec)
    return reportError(spec.takeError());
  if (numCtasOverride.getNumOccurrences())
    spec->numCtas = numCtasOverride;
  if (Error e = interp::applyOverrides(*spec, gridOverride, scalarOverrides))
    return reportError(std::move(e));
  if (!target.empty())
    return runOnGpu(*spec, *memoryBytes);

  // Plugin dialects parse; their ops fail at run time as unsupported ops.
  mlir::DialectRegistry registry;
  interp::registerInterpreterDialects(registry);
  PluginManager::get().appendDialects(registry);
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects(false);
  progress::setPhase("while parsing '" + spec->ttir + "'");
  auto module = interp::parseKernelFile(spec->ttir, context);
  if (!module)
    return reportError(module.takeError());
  Expected<interp::Launch> launch = interp::prepareLaunch(*spec, **module, *memoryBytes);
  if (!launch)
    return reportError(createStringError(spec->path + ": " + toString(launch.takeError())));

  interp::RunOptions opts;
  opts.grid = spec->grid;
  opts.poisonReadIsError = !allowPoisonReads;
  opts.maxSteps = maxSteps;
  opts.timeLimitSeconds = timeLimit;
  progress::setPhase("while running @" + launch->kernel + " in the interpreter");
  interp::Interpreter interpreter(**module);
  auto start = std::chrono::steady_clock::now();
  Error runError = interpreter.run(launch->kernel, launch->args, launch->memory, opts);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outs().flush();
  // Outputs are written even when the run stops: what the kernel had
  // written by then helps to debug it.
  if (!outputDir.empty())
    if (Error e = interp::writeOutputs(*spec, *launch, outputDir)) {
      consumeError(std::move(runError));
      return reportError(std::move(e));
    }
  if (runError) {
    // The message already reads "<location>: error: ...".
    handleAllErrors(std::move(runError),
                    [](const ErrorInfoBase &info) { errs() << info.message() << "\n"; });
    errs() << spec->name << ": FAIL (the run stopped)\n";
    return 1;
  }

  outs() << spec->name << ": ran @" << launch->kernel << " on grid [" << spec->grid[0] << ", "
         << spec->grid[1] << ", " << spec->grid[2] << "] with the interpreter in "
         << format("%.3f", seconds) << " s\n";
  if (interpreter.poisonReads())
    WithColor::warning(errs(), "kiln")
        << interpreter.poisonReads() << " reads of never-written output elements\n";

  Expected<std::vector<interp::OutputCheck>> checks = interp::checkOutputs(*spec, *launch);
  if (!checks)
    return reportError(checks.takeError());
  return interp::printChecks(*spec, *checks, outs()) ? 1 : 0;
}

int runCommand() {
  Expected<bool> isolated = wantsIsolation(isolate, noIsolate, /*toolDefault=*/true);
  if (!isolated)
    return reportError(isolated.takeError());
  if (!*isolated)
    return runKernel();
  Expected<int> status = runIsolatedStatus("run", runKernel);
  if (!status)
    return reportError(status.takeError());
  return *status;
}

CommandRegistration registration(command, runCommand);

} // namespace
} // namespace kiln::driver
