//===- CompileCommand.cpp - kiln compile ----------------------------------===//
#include "Commands.h"

#include "kiln/Driver/Compile.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/Isolation.h"
#include "kiln/Support/ParseGuards.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;

namespace kiln::driver {
namespace {

cl::SubCommand command("compile", "Compile a TTIR file up to a stage and write its artifact");
cl::opt<std::string> input(cl::Positional, cl::desc("<kernel.ttir|.ttgir|.llir|.ptx>"),
                           cl::Required, cl::sub(command), cl::cat(category()));
cl::opt<std::string> from("from",
                          cl::desc("The stage whose artifact the input is: ttir, ttgir, llir "
                                   "(LLVM IR, or an LLVM-dialect .mlir module) or ptx "
                                   "(default: from the file's extension, else ttir)"),
                          cl::value_desc("stage"), cl::sub(command), cl::cat(category()));
cl::opt<long long> sharedBytes("shared",
                               cl::desc("Dynamic shared memory of a PTX input kiln did not "
                                        "write, in bytes (its metadata cannot say)"),
                               cl::value_desc("bytes"), cl::init(-1), cl::sub(command),
                               cl::cat(category()));
cl::opt<std::string> target("target",
                            cl::desc("Target, e.g. cuda:90 or hip:gfx942 (default: the input's "
                                     "ttg.target, which TTGIR names)"),
                            cl::value_desc("target"), cl::sub(command), cl::cat(category()));
cl::opt<std::string> stage("stage",
                           cl::desc("Last stage to run (default: the furthest implemented)"),
                           cl::value_desc("stage"), cl::sub(command), cl::cat(category()));
cl::opt<std::string> output("o", cl::desc("Output file (default: standard output)"),
                            cl::value_desc("file"), cl::init("-"), cl::sub(command),
                            cl::cat(category()));
cl::opt<std::string> dumpStages("dump-stages",
                                cl::desc("Write every stage's artifact into this folder"),
                                cl::value_desc("dir"), cl::sub(command), cl::cat(category()));
cl::list<std::string> printAfter("print-after",
                                 cl::desc("Print the IR after this pass id (repeatable)"),
                                 cl::value_desc("id"), cl::sub(command), cl::cat(category()));
cl::list<std::string> plugins("plugin",
                              cl::desc("Load a plugin library (after TRITON_PLUGIN_PATHS and KILN_PLUGIN_PATHS)"),
                              cl::value_desc("path"), cl::sub(command), cl::cat(category()));
cl::list<std::string> pluginOptions("plugin-option", cl::desc(kPluginOptionHelp),
                                    cl::value_desc("plugin.key=value"), cl::sub(command),
                                    cl::cat(category()));
cl::opt<int> numWarps("num-warps", cl::desc("Warps per program (default 4)"), cl::init(4),
                      cl::sub(command), cl::cat(category()));
cl::opt<int> numCtas("num-ctas",
                     cl::desc("CTAs per program, a thread-block cluster on sm_90+ (1, 2, 4, 8 or 16; "
                              "default 1)"),
                     cl::init(1), cl::sub(command), cl::cat(category()));
cl::opt<int> numStages("num-stages", cl::desc("Software-pipelining stages (default 3)"),
                       cl::init(3), cl::sub(command), cl::cat(category()));
// Code-generation options, named as Triton names them (CUDAOptions).
cl::opt<bool> enableFpFusion("enable-fp-fusion",
                             cl::desc("Contract multiplies and adds into fma (default true; "
                                      "false: neither LLVM nor ptxas fuses)"),
                             cl::init(true), cl::sub(command), cl::cat(category()));
cl::opt<bool> enableReflectFtz("enable-reflect-ftz",
                               cl::desc("libdevice flushes f32 denormals to zero (default true)"),
                               cl::init(true), cl::sub(command), cl::cat(category()));
cl::opt<int> maxnreg("maxnreg", cl::desc("At most this many registers per thread (.maxnreg)"),
                     cl::value_desc("n"), cl::init(0), cl::sub(command), cl::cat(category()));
cl::opt<bool> sched4reg("sched4reg",
                        cl::desc("Schedule for register pressure in LLVM's NVPTX back end"),
                        cl::sub(command), cl::cat(category()));
cl::opt<bool> debug("debug",
                    cl::desc("Triton's debug mode: an mbarrier wait that does not complete "
                             "within 10 s stops the kernel with a message naming it"),
                    cl::sub(command), cl::cat(category()));
cl::opt<long long> minSharedMem("min-shared-mem",
                                cl::desc("Ask for at least this much shared memory per program"),
                                cl::value_desc("bytes"), cl::init(-1), cl::sub(command),
                                cl::cat(category()));
cl::opt<std::string> ptxTarget(
    "ptx-target",
    cl::desc("The GPU the PTX and cubin are for, when newer than --target (Triton's `arch` "
             "option: code generated for an older GPU, assembled for the one it runs on)"),
    cl::value_desc("target"), cl::sub(command), cl::cat(category()));
cl::list<std::string> ptxasOptions("ptxas-option",
                                   cl::desc("Pass a flag to ptxas after kiln's own (repeatable)"),
                                   cl::value_desc("flag"), cl::sub(command), cl::cat(category()));
cl::opt<bool> noCache("no-cache", cl::desc("Neither read nor write the compile cache"),
                      cl::sub(command), cl::cat(category()));
cl::opt<bool> verbose("verbose", cl::desc("Report cache hits and misses on standard error"),
                      cl::sub(command), cl::cat(category()));
cl::opt<bool> isolate("isolate",
                      cl::desc("Compile in a child process and report a crash there as an "
                               "error (the default; also KILN_ISOLATE=1)"),
                      cl::sub(command), cl::cat(category()));
cl::opt<bool> noIsolate("no-isolate",
                        cl::desc("Compile in this process (also KILN_ISOLATE=0)"),
                        cl::sub(command), cl::cat(category()));

// Isolation adds about 1.5 ms to a kiln compile process of about 18 ms
// (bench/NOTES.md, 2026-12-01): a price worth a clean error for every
// plugin crash, so compiles are isolated unless asked not to be.
constexpr bool kIsolateByDefault = true;

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Error writeOutput(StringRef path, StringRef data) {
  std::error_code ec;
  ToolOutputFile file(path, ec, sys::fs::OF_None);
  if (ec)
    return fail("cannot write '" + path + "': " + ec.message());
  file.os() << data;
  file.os().flush();
  if (file.os().has_error()) {
    file.os().clear_error();
    return fail("cannot write '" + path + "'");
  }
  file.keep();
  return Error::success();
}

/// The code-generation flags, checked, into `options`.
Error applyCodegenOptions(CompileOptions &options) {
  options.enableFpFusion = enableFpFusion;
  options.enableReflectFtz = enableReflectFtz;
  if (maxnreg.getNumOccurrences()) {
    // PTX allows up to 255 registers per thread; fewer than 16 cannot run.
    if (maxnreg < 16 || maxnreg > 255)
      return fail("--maxnreg must be from 16 to 255, got " + Twine(int(maxnreg)));
    options.maxnreg = maxnreg;
  }
  options.sched4reg = sched4reg;
  options.debug = debug;
  if (minSharedMem.getNumOccurrences()) {
    if (minSharedMem < 0)
      return fail("--min-shared-mem must not be negative, got " + Twine(static_cast<long long>(minSharedMem)));
    options.minSharedMem = minSharedMem;
  }
  for (const std::string &flag : ptxasOptions) {
    // ptxas's input, output and architecture are kiln's to choose.
    // A flag's value may follow as its own word (`--maxrregcount`, `64`).
    StringRef f(flag);
    if (f.empty() || f == "-o" || f.starts_with("--output-file") || f.starts_with("--gpu-name") ||
        f.starts_with("-arch"))
      return fail("--ptxas-option '" + flag +
                  "': expected a ptxas flag other than the output file and the GPU name");
    options.ptxasOptions.push_back(flag);
  }
  if (options.target.kind != "cuda" &&
      (options.maxnreg || options.sched4reg || !options.ptxasOptions.empty() ||
       ptxTarget.getNumOccurrences()))
    return fail("--maxnreg, --sched4reg, --ptx-target and --ptxas-option are for cuda targets");
  if (ptxTarget.getNumOccurrences()) {
    Expected<Target> gpu = Target::parse(ptxTarget);
    if (!gpu)
      return gpu.takeError();
    if (gpu->kind != "cuda" || gpu->capability() < options.target.capability())
      return fail("--ptx-target " + ptxTarget + ": code for " + options.target.str() +
                  " runs only on a cuda GPU of that capability or newer");
    // The same GPU is no override: the key and the output stay as without it.
    if (gpu->capability() != options.target.capability())
      options.ptxTarget = *gpu;
  }
  return Error::success();
}

/// The target an IR text names in its module's `ttg.target = "..."` (the
/// first such attribute), or "". A wrong pick cannot go unnoticed: the
/// pipeline refuses a module whose ttg.target differs from the target.
std::string namedTarget(StringRef text) {
  static const Regex attr("ttg\\.target[ \t]*=[ \t]*\"([^\"]+)\"");
  SmallVector<StringRef, 2> match;
  return attr.match(text, &match) ? match[1].str() : std::string();
}

/// The JSON beside an output file: k.cubin -> k.json.
std::string metadataPath() {
  SmallString<256> path(output);
  sys::path::replace_extension(path, "json");
  return path.str().str();
}

/// The compile proper: the packed metadata and artifact. Run in a child
/// when isolated, so it records its phase for the parent's report of a crash.
Expected<std::string> compile() {
  progress::setPhase("while loading plugins");
  if (Error error = loadPlugins(plugins))
    return std::move(error);
  Expected<std::unique_ptr<MemoryBuffer>> file = readInputFile(input);
  if (!file)
    return file.takeError();
  if (Error error = checkIRText((*file)->getBuffer(), (*file)->getBufferIdentifier()))
    return std::move(error);
  std::string targetName = target;
  if (!target.getNumOccurrences()) {
    targetName = namedTarget((*file)->getBuffer());
    if (targetName.empty())
      return fail("no target: give --target (e.g. cuda:90); '" + input +
                  "' names none (only TTGIR does, in its module's ttg.target)");
  }
  CompileRequest request;
  Expected<CompileOptions> options =
      makeCompileOptions(targetName, numWarps, numStages, numCtas, pluginOptions);
  if (!options)
    return options.takeError();
  request.options = std::move(*options);
  if (Error error = applyCodegenOptions(request.options))
    return std::move(error);
  Expected<std::string> start = inputStage(input, from);
  if (!start)
    return start.takeError();
  request.inputPath = input;
  request.inputText = (*file)->getBuffer().str();
  request.from = *start;
  request.stopAfter = stage;
  if (sharedBytes >= 0)
    request.foreignShared = sharedBytes;
  request.dumpDir = dumpStages;
  request.printAfter.assign(printAfter.begin(), printAfter.end());
  request.useCache = !noCache;
  request.verbose = verbose;

  mlir::DialectRegistry registry;
  registerKilnAndPluginDialects(registry);
  mlir::MLIRContext context(registry);
  Expected<CompileResult> result = compileKernel(context, std::move(request));
  if (!result)
    return result.takeError();
  return packCompileResult(result->metadataJSON, result->artifact);
}

int run() {
  Expected<bool> isolated = wantsIsolation(isolate, noIsolate, kIsolateByDefault);
  if (!isolated)
    return reportError(isolated.takeError());
  Expected<std::string> result = *isolated ? runIsolated("compile", compile) : compile();
  if (!result)
    return reportError(result.takeError());
  StringRef json, artifact;
  if (!unpackCompileResult(*result, json, artifact))
    return reportError(fail("the compile returned a malformed result"));
  if (Error error = writeOutput(output, artifact))
    return reportError(std::move(error));
  // A binary's launch metadata goes beside it (not with standard output).
  if (!json.empty() && output != "-")
    if (Error error = writeOutput(metadataPath(), json))
      return reportError(std::move(error));
  return 0;
}

CommandRegistration registration(command, run);

} // namespace
} // namespace kiln::driver
