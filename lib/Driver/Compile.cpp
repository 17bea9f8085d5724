//===- Compile.cpp - compiling a kernel, as the tools and bindings do -----===//
#include "kiln/Driver/Compile.h"

#include "kiln/Backend/Registry.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Pipeline/Cache.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Support/Isolation.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace kiln {
namespace {

Error fail(const Twine &message) { return createStringError(message); }

/// The pass ids of `printAfter`, each checked to run in this compile.
Expected<std::set<std::string>> passesToPrint(const Pipeline &pipeline, const RunOptions &run,
                                              ArrayRef<std::string> printAfter) {
  std::string target = pipeline.options.target.str();
  std::set<std::string> ids;
  for (const std::string &id : printAfter) {
    const PassEntry *found = nullptr;
    bool beforeStop = true, reached = false, started = run.startAfter.empty();
    for (const Stage &s : pipeline.stages) {
      if (!started) {
        started = s.name == run.startAfter;
        continue;
      }
      for (const PassEntry &entry : s.entries)
        if (entry.id == id) {
          found = &entry;
          reached = beforeStop;
        }
      if (s.name == run.stopAfter)
        beforeStop = false;
    }
    if (!found) {
      auto skipped = llvm::find_if(pipeline.skipped,
                                   [&](const SkippedPass &pass) { return pass.id == id; });
      if (skipped != pipeline.skipped.end())
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
      return fail("--print-after: pass '" + id + "' runs after stage '" + run.stopAfter +
                  "', where this compile stops");
    ids.insert(id);
  }
  return ids;
}

} // namespace

std::string packCompileResult(StringRef json, StringRef artifact) {
  return std::to_string(json.size()) + "\n" + json.str() + artifact.str();
}

bool unpackCompileResult(StringRef packed, StringRef &json, StringRef &artifact) {
  auto [length, rest] = packed.split('\n');
  size_t size = 0;
  if (length.getAsInteger(10, size) || size > rest.size())
    return false;
  json = rest.take_front(size);
  artifact = rest.drop_front(size);
  return true;
}

Expected<Pipeline> buildCompilePipeline(CompileOptions options, mlir::ModuleOp kernel) {
  if (Error error = PluginManager::get().completeOptions(options))
    return std::move(error);
  return buildPipeline(options, PluginManager::get().edits(), kernel);
}

Expected<std::string> inputStage(StringRef path, StringRef from) {
  if (!from.empty()) {
    if (from != "ttir" && from != "ttgir" && from != "llir" && from != "ptx")
      return fail("--from " + from + ": expected ttir, ttgir, llir or ptx");
    return from.str();
  }
  return StringSwitch<std::string>(sys::path::extension(path))
      .Case(".ttgir", "ttgir")
      .Cases(".llir", ".ll", "llir")
      .Case(".ptx", "ptx")
      .Default("ttir");
}

Expected<CompileResult> compileKernel(mlir::MLIRContext &context, CompileRequest request) {
  // Errors name the op's location and say what is wrong; MLIR's dump of the
  // op (and its regions: thousands of lines for a kernel) adds nothing.
  context.printOpOnDiagnostic(false);
  const std::string &input = request.inputPath;
  // The stage the input is (checked), or the one its name says.
  Expected<std::string> from = inputStage(input, request.from);
  if (!from)
    return from.takeError();
  request.from = *from;
  if (Error error = PluginManager::get().completeOptions(request.options))
    return std::move(error);
  const CompileOptions &options = request.options;
  Expected<const Backend *> backend = backendFor(options.target);
  if (!backend)
    return backend.takeError();

  progress::setPhase("while parsing '" + input + "'");
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(request.inputText, input), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  RunOptions run;
  Artifact artifact;
  // An LLVM-dialect module stands for the llir stage's artifact before its
  // code generator: the stages up to ttgir are skipped, and llir's passes.
  bool llvmDialect = request.from == "llir" && sys::path::extension(input) == ".mlir";
  if (request.from == "ttir" || request.from == "ttgir" || llvmDialect) {
    artifact.module = request.parsed ? std::move(request.parsed)
                                     : mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
    if (!artifact.module)
      return fail("cannot compile '" + input + "': it does not parse or verify");
    if (!llvmDialect && llvm::none_of(artifact.module->getOps<tt::FuncOp>(),
                                      [](tt::FuncOp f) { return f.isPublic(); }))
      return fail("'" + input + "' holds no kernel (a public tt.func) to compile");
    if (Error error = prepareModule(*artifact.module))
      return std::move(error);
    // TTGIR written by hand (Triton's own tests compile such modules) may
    // leave its target out: it is then code for the requested one, as
    // Triton's passes take the target from the compile's options.
    if (request.from == "ttgir" && !(*artifact.module)->hasAttr("ttg.target"))
      (*artifact.module)
          ->setAttr("ttg.target", mlir::StringAttr::get(&context, options.target.str()));
    if (request.from == "ttgir" || llvmDialect)
      run.startAfter = "ttgir";
    run.firstStageCodegenOnly = llvmDialect;
  } else {
    // LLVM IR or PTX text; kiln's own carries its metadata in a comment,
    // other text is described by its back end.
    artifact.kind = Artifact::Kind::Text;
    artifact.data = request.inputText;
    run.startAfter = request.from;
    if (std::optional<KernelMetadata> own = KernelMetadata::fromComment(request.inputText)) {
      artifact.metadata = *own;
    } else {
      Expected<KernelMetadata> foreign = (*backend)->foreignInputMetadata(
          request.from, request.inputText, options, request.foreignShared);
      if (!foreign)
        return fail("'" + input + "': " + toString(foreign.takeError()));
      artifact.metadata = *foreign;
    }
  }

  progress::setPhase("while building the pipeline");
  Expected<Pipeline> pipeline = buildPipeline(options, PluginManager::get().edits(), *artifact.module);
  if (!pipeline)
    return pipeline.takeError();
  Expected<std::string> stop = resolveStopStage(*pipeline, request.stopAfter, run.startAfter);
  if (!stop)
    return stop.takeError();
  run.stopAfter = *stop;
  run.dumpDir = request.dumpDir;
  run.printStream = request.printStream;
  Expected<std::set<std::string>> printAfter =
      passesToPrint(*pipeline, run, request.printAfter);
  if (!printAfter)
    return printAfter.takeError();
  run.printAfter = std::move(*printAfter);

  CompileResult result;
  result.stage = *stop;
  // Dumping and printing need the stages to run; they bypass the cache.
  Cache cache(Cache::defaultDirectory());
  bool useCache = request.useCache && request.dumpDir.empty() && request.printAfter.empty() &&
                  !Cache::defaultDirectory().empty();
  if (request.verbose && !useCache)
    errs() << "kiln: cache not used ("
           << (!request.useCache                   ? "--no-cache"
               : Cache::defaultDirectory().empty() ? "no cache folder"
                                                   : "--dump-stages/--print-after run every stage")
           << ")\n";
  std::string key;
  if (useCache) {
    Expected<std::string> pluginPrint = PluginManager::get().fingerprint();
    if (!pluginPrint)
      return pluginPrint.takeError();
    // "metadata+artifact": the payload's layout (pack()), so that entries
    // of a kiln that stored the artifact alone are not read as this one's.
    key = Cache::key({Cache::hostIdentity(), request.inputText, pipeline->fingerprint(),
                      *pluginPrint, *stop, request.from,
                      std::to_string(request.foreignShared.value_or(-1)),
                      "metadata+artifact"});
    std::string whyNot;
    if (std::optional<std::string> hit = cache.lookup(key, &whyNot)) {
      StringRef json, bytes;
      std::optional<KernelMetadata> metadata = KernelMetadata();
      if (!unpackCompileResult(*hit, json, bytes)) {
        metadata.reset();
      } else if (!json.empty()) {
        Expected<KernelMetadata> m = KernelMetadata::fromJSON(json, "its metadata");
        if (m)
          metadata = std::move(*m);
        else
          metadata.reset(), consumeError(m.takeError());
      }
      if (metadata) {
        if (request.verbose)
          errs() << "kiln: cache hit " << key << "\n";
        result.artifact = bytes.str();
        result.metadataJSON = json.str();
        result.metadata = std::move(*metadata);
        return result;
      }
      whyNot = "its payload is malformed";
    }
    if (request.verbose && !whyNot.empty())
      errs() << "kiln: cache entry '" << cache.pathFor(key) << "' not used: " << whyNot << "\n";
  }

  if (Error error = runPipeline(*pipeline, artifact, *stop, run))
    return std::move(error);
  progress::setPhase("while printing the result");
  if (artifact.kind == Artifact::Kind::Binary && artifact.metadata.known())
    result.metadataJSON = artifact.metadata.toJSON(options);
  result.artifact = artifact.serialize();
  result.metadata = std::move(artifact.metadata);
  if (useCache) {
    if (Error error = cache.store(key, packCompileResult(result.metadataJSON, result.artifact)))
      errs() << "kiln: warning: " << toString(std::move(error)) << "\n";
    else if (request.verbose)
      errs() << "kiln: cache miss " << key << " (stored)\n";
  }
  return result;
}

} // namespace kiln
