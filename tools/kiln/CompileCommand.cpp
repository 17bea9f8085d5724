//===- CompileCommand.cpp - kiln compile ----------------------------------===//
#include "Commands.h"

#include "kiln/Backend/Registry.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/Cache.h"
#include "kiln/Pipeline/Compiler.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Registration.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/Isolation.h"
#include "kiln/Support/ParseGuards.h"
#include "kiln/Backend/NVIDIA/NVPTX.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
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
cl::opt<std::string> target("target", cl::desc("Target, e.g. cuda:90 or hip:gfx942"),
                            cl::value_desc("target"), cl::Required, cl::sub(command),
                            cl::cat(category()));
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
cl::opt<int> numWarps("num-warps", cl::desc("Warps per program (default 4)"), cl::init(4),
                      cl::sub(command), cl::cat(category()));
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
cl::opt<long long> minSharedMem("min-shared-mem",
                                cl::desc("Ask for at least this much shared memory per program"),
                                cl::value_desc("bytes"), cl::init(-1), cl::sub(command),
                                cl::cat(category()));
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
      (options.maxnreg || options.sched4reg || !options.ptxasOptions.empty()))
    return fail("--maxnreg, --sched4reg and --ptxas-option are for cuda targets");
  return Error::success();
}

/// The stage whose artifact the input is: --from, else the file's extension.
Expected<std::string> inputStage() {
  if (!from.empty()) {
    if (from != "ttir" && from != "ttgir" && from != "llir" && from != "ptx")
      return fail("--from " + from + ": expected ttir, ttgir, llir or ptx");
    return from;
  }
  return StringSwitch<std::string>(sys::path::extension(input))
      .Case(".ttgir", "ttgir")
      .Cases(".llir", ".ll", "llir")
      .Case(".ptx", "ptx")
      .Default("ttir");
}

// A compile's result travels (from an isolated child, and in the cache) as
// one string: the metadata JSON's length, a newline, the JSON, the artifact.
std::string pack(StringRef json, StringRef artifact) {
  return std::to_string(json.size()) + "\n" + json.str() + artifact.str();
}

bool unpack(StringRef packed, StringRef &json, StringRef &artifact) {
  auto [length, rest] = packed.split('\n');
  size_t size = 0;
  if (length.getAsInteger(10, size) || size > rest.size())
    return false;
  json = rest.take_front(size);
  artifact = rest.drop_front(size);
  return true;
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
  Expected<CompileOptions> options = makeCompileOptions(target, numWarps, numStages);
  if (!options)
    return options.takeError();
  if (Error error = applyCodegenOptions(*options))
    return std::move(error);

  mlir::DialectRegistry registry;
  registerKilnAndPluginDialects(registry);
  mlir::MLIRContext context(registry);

  Expected<std::unique_ptr<MemoryBuffer>> file = readInputFile(input);
  if (!file)
    return file.takeError();
  if (Error error = checkIRText((*file)->getBuffer(), (*file)->getBufferIdentifier()))
    return std::move(error);
  progress::setPhase("while parsing '" + input + "'");
  std::string source = (*file)->getBuffer().str();
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  Expected<std::string> startStage = inputStage();
  if (!startStage)
    return startStage.takeError();
  RunOptions run;
  Artifact artifact;
  // An LLVM-dialect module stands for the llir stage's artifact before its
  // code generator: the stages up to ttgir are skipped, and llir's passes.
  bool llvmDialect = *startStage == "llir" && sys::path::extension(input) == ".mlir";
  if (*startStage == "ttir" || *startStage == "ttgir" || llvmDialect) {
    artifact.module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
    if (!artifact.module)
      return fail("cannot compile '" + input + "': it does not parse or verify");
    if (!llvmDialect && llvm::none_of(artifact.module->getOps<tt::FuncOp>(),
                                      [](tt::FuncOp f) { return f.isPublic(); }))
      return fail("'" + input + "' holds no kernel (a public tt.func) to compile");
    if (*startStage == "ttgir")
      run.startAfter = "ttgir";
    if (llvmDialect) {
      run.startAfter = "ttgir";
      run.firstStageCodegenOnly = true;
    }
  } else {
    // LLVM IR or PTX text; kiln's own carries its metadata in a comment.
    artifact.kind = Artifact::Kind::Text;
    artifact.data = source;
    run.startAfter = *startStage;
    if (std::optional<KernelMetadata> m = KernelMetadata::fromComment(source))
      artifact.metadata = *m;
  }

  progress::setPhase("while building the pipeline");
  Expected<Pipeline> pipeline =
      buildPipeline(*options, PluginManager::get().edits(), *artifact.module);
  if (!pipeline)
    return pipeline.takeError();
  if (*startStage == "ptx" && !artifact.metadata.known() && pipeline->backend == "nvidia") {
    std::optional<int64_t> shared;
    if (sharedBytes >= 0)
      shared = sharedBytes;
    Expected<KernelMetadata> m = nvidia::metadataFromForeignPTX(source, *options, shared);
    if (!m)
      return fail("'" + input + "': " + toString(m.takeError()));
    artifact.metadata = *m;
  }
  Expected<std::string> stop = resolveStopStage(*pipeline, stage, run.startAfter);
  if (!stop)
    return stop.takeError();
  run.stopAfter = *stop;
  run.dumpDir = dumpStages;
  for (const std::string &id : printAfter) {
    // Only a pass that will run can be printed after.
    const PassEntry *found = nullptr;
    bool beforeStop = true, reached = false, started = run.startAfter.empty();
    for (const Stage &s : pipeline->stages) {
      if (!started) {
        started = s.name == run.startAfter;
        continue;
      }
      for (const PassEntry &entry : s.entries)
        if (entry.id == id) {
          found = &entry;
          reached = beforeStop;
        }
      if (s.name == *stop)
        beforeStop = false;
    }
    if (!found) {
      auto skipped = llvm::find_if(pipeline->skipped,
                                   [&](const SkippedPass &pass) { return pass.id == id; });
      if (skipped != pipeline->skipped.end())
        return fail("--print-after: pass '" + id + "' (placed by plugin '" + skipped->owner +
                    "': " + skipped->placement + ") is in the pipeline for " + target +
                    " but skipped for this kernel: " + skipped->reason);
      return fail("--print-after: no pass '" + id + "' in the pipeline for " + target +
                  " (run 'kiln pipeline --target " + target + "')");
    }
    if (!found->disabledBy.empty())
      return fail("--print-after: pass '" + id + "' is disabled by plugin '" +
                  found->disabledBy + "' for this kernel");
    if (!reached)
      return fail("--print-after: pass '" + id + "' runs after stage '" + *stop +
                  "', where this compile stops");
    run.printAfter.insert(id);
  }

  // Dumping and printing need the stages to run; they bypass the cache.
  Cache cache(Cache::defaultDirectory());
  bool useCache = !noCache && dumpStages.empty() && printAfter.empty() &&
                  !Cache::defaultDirectory().empty();
  std::string key;
  if (verbose && !useCache)
    errs() << "kiln: cache not used ("
           << (noCache ? "--no-cache"
               : Cache::defaultDirectory().empty() ? "no cache folder"
                                                   : "--dump-stages/--print-after run every stage")
           << ")\n";
  if (useCache) {
    Expected<std::string> pluginPrint = PluginManager::get().fingerprint();
    if (!pluginPrint)
      return pluginPrint.takeError();
    std::string fingerprint = pipeline->fingerprint();
    std::string host = Cache::hostIdentity();
    // "metadata+artifact": the payload's layout (pack()), so that entries
    // of a kiln that stored the artifact alone are not read as this one's.
    key = Cache::key({host, source, fingerprint, *pluginPrint, *stop, *startStage,
                      std::to_string(sharedBytes), "metadata+artifact"});
    std::string whyNot;
    if (std::optional<std::string> hit = cache.lookup(key, &whyNot)) {
      if (verbose)
        errs() << "kiln: cache hit " << key << "\n";
      return *hit;
    }
    if (verbose && !whyNot.empty())
      errs() << "kiln: cache entry '" << cache.pathFor(key) << "' not used: " << whyNot << "\n";
  }

  if (Error error = runPipeline(*pipeline, artifact, *stop, run))
    return std::move(error);
  progress::setPhase("while printing the result");
  std::string json;
  if (artifact.kind == Artifact::Kind::Binary && artifact.metadata.known())
    json = artifact.metadata.toJSON(*options);
  std::string result = pack(json, artifact.serialize());
  if (useCache) {
    if (Error error = cache.store(key, result))
      errs() << "kiln: warning: " << toString(std::move(error)) << "\n";
    else if (verbose)
      errs() << "kiln: cache miss " << key << " (stored)\n";
  }
  return result;
}

int run() {
  Expected<bool> isolated = wantsIsolation(isolate, noIsolate, kIsolateByDefault);
  if (!isolated)
    return reportError(isolated.takeError());
  Expected<std::string> result = *isolated ? runIsolated("compile", compile) : compile();
  if (!result)
    return reportError(result.takeError());
  StringRef json, artifact;
  if (!unpack(*result, json, artifact))
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
