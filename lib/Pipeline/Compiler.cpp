//===- Compiler.cpp - running a pipeline on a kernel ----------------------===//
#include "kiln/Pipeline/Compiler.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Support/Isolation.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <mutex>

using namespace llvm;

namespace kiln {

namespace {

Error error(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

std::string describeEntry(const PassEntry &entry) {
  if (entry.owner == "core")
    return "pass '" + entry.id + "' (core)";
  return "pass '" + entry.id + "' (placed by plugin '" + entry.owner + "': " +
         entry.placement + ")";
}

/// How an isolated compile's crash report names the entry that was running.
std::string progressName(const PassEntry &entry) {
  if (entry.owner == "core")
    return "pass '" + entry.id + "' (core)";
  return "pass '" + entry.id + "' placed by plugin '" + entry.owner + "' (" + entry.ownerFile +
         ")";
}

/// Maps the passes of one stage back to their entries: to name the entry of
/// a failing pass, to print after the requested ids, and to record which
/// entry each thread runs when the compile is isolated. Passes nested under
/// an op (e.g. on each tt.func) run on clones, one per thread; each clone is
/// mapped back through its threading sibling, and the callbacks, which come
/// from worker threads, are serialised.
class EntryInstrumentation : public mlir::PassInstrumentation {
public:
  EntryInstrumentation(const RunOptions &options) : options(options) {}

  void track(const mlir::Pass *pass, const PassEntry *entry) { entries[pass] = entry; }

  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    if (progress::enabled())
      if (const PassEntry *entry = entryOf(pass))
        progress::beginStep(progressName(*entry));
  }

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    const PassEntry *entry = entryOf(pass);
    if (entry)
      progress::endStep();
    if (!entry || !options.printAfter.count(entry->id))
      return;
    std::lock_guard<std::mutex> lock(mutex);
    raw_ostream &os = *options.printStream;
    os << "// -----// IR after " << entry->id << " (" << entry->owner << ") //----- //\n";
    op->print(os);
    os << "\n";
  }

  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *) override {
    const PassEntry *entry = entryOf(pass);
    if (entry)
      progress::endStep();
    std::lock_guard<std::mutex> lock(mutex);
    if (!failed)
      failed = entry;
  }

  const PassEntry *failed = nullptr;

private:
  const PassEntry *entryOf(mlir::Pass *pass) const {
    return entries.lookup(pass->getThreadingSiblingOrThis());
  }

  const RunOptions &options;
  DenseMap<const mlir::Pass *, const PassEntry *> entries;
  std::mutex mutex;
};

Error runMLIRStage(const Stage &stage, Artifact &artifact, const CompileOptions &compile,
                   const RunOptions &options) {
  mlir::ModuleOp module = *artifact.module;
  mlir::PassManager pm(module->getContext(), mlir::ModuleOp::getOperationName(),
                       mlir::OpPassManager::Nesting::Implicit);
  auto instrumentation = std::make_unique<EntryInstrumentation>(options);
  EntryInstrumentation *tracker = instrumentation.get();
  for (const PassEntry &entry : stage.entries) {
    if (!entry.disabledBy.empty())
      continue;
    std::unique_ptr<mlir::Pass> pass = entry.create(compile);
    if (!pass)
      return error(describeEntry(entry) + ": its factory returned no pass");
    tracker->track(pass.get(), &entry);
    pm.addPass(std::move(pass));
  }
  pm.addInstrumentation(std::move(instrumentation));
  if (succeeded(pm.run(module)))
    return Error::success();
  if (tracker->failed)
    return error(describeEntry(*tracker->failed) + " failed in stage '" + stage.name + "'");
  return error("stage '" + stage.name + "' failed");
}

Error dump(StringRef bytes, StringRef dir, StringRef kernel, StringRef stage) {
  if (std::error_code ec = sys::fs::create_directories(dir))
    return error("cannot create '" + dir + "': " + ec.message());
  SmallString<256> path(dir);
  sys::path::append(path, kernel + "." + stage);
  std::error_code ec;
  ToolOutputFile file(path, ec, sys::fs::OF_None);
  if (ec)
    return error("cannot write '" + path + "': " + ec.message());
  file.os() << bytes;
  file.os().flush();
  if (file.os().has_error()) {
    file.os().clear_error();
    return error("cannot write '" + path + "'");
  }
  file.keep();
  return Error::success();
}

} // namespace

std::string kernelName(mlir::ModuleOp module) {
  std::string name;
  for (auto func : module.getOps<tt::FuncOp>())
    if (func.isPublic()) {
      name = func.getName().str();
      break;
    }
  // An LLVM-dialect module (`--from llir`): the function its back end marked
  // a kernel (`nvvm.kernel`, `rocdl.kernel`).
  auto isKernelMark = [](const mlir::NamedAttribute &attr) {
    return attr.getName().strref().ends_with(".kernel");
  };
  if (name.empty())
    for (mlir::Operation &op : module.getBody()->getOperations())
      if (llvm::any_of(op.getAttrs(), isKernelMark))
        if (auto symbol = op.getAttrOfType<mlir::StringAttr>("sym_name")) {
          name = symbol.str();
          break;
        }
  if (name.empty())
    return "kernel";
  // The name becomes a file name: keep it inside the dump folder.
  for (char &c : name)
    if (!isAlnum(c) && c != '_')
      c = '_';
  return name;
}

Expected<std::string> resolveStopStage(const Pipeline &pipeline, StringRef requested,
                                       StringRef startAfter) {
  if (!requested.empty() && !pipeline.findStage(requested)) {
    std::string names;
    for (const Stage &stage : pipeline.stages)
      names += (names.empty() ? "" : ", ") + stage.name;
    return error("unknown stage '" + requested + "' for " + pipeline.options.target.str() +
                 " (stages: " + names + ")");
  }
  bool started = startAfter.empty();
  std::string last;
  for (const Stage &stage : pipeline.stages) {
    if (!started) {
      started = stage.name == startAfter;
      if (stage.name == requested)
        return error("--stage " + requested + ": the input is already past it (it is the " +
                     startAfter + " stage's artifact)");
      continue;
    }
    if (!stage.runnable()) {
      if (requested.empty())
        break;
      return error("stage '" + stage.name + "' of backend " + pipeline.backend +
                   " cannot run yet: its code generator is not implemented (a plugin "
                   "can override the stage)");
    }
    last = stage.name;
    if (stage.name == requested)
      break;
  }
  if (last.empty())
    return error("no stage runs after " + startAfter + " for " + pipeline.options.target.str());
  return last;
}

/// Gives every op without a location (Triton emits constants without one)
/// its first located user's, else its function's, so that an error about it
/// or about what a pass makes of it points into the kernel.
static void locateUnlocatedOps(mlir::ModuleOp module) {
  module.walk<mlir::WalkOrder::PostOrder>([](mlir::Operation *op) {
    if (!isa<mlir::UnknownLoc>(op->getLoc()))
      return;
    for (mlir::Operation *user : op->getUsers())
      if (!isa<mlir::UnknownLoc>(user->getLoc())) {
        op->setLoc(user->getLoc());
        return;
      }
    for (mlir::Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp())
      if (!isa<mlir::UnknownLoc>(parent->getLoc())) {
        op->setLoc(parent->getLoc());
        return;
      }
  });
}

/// Triton's frontend refuses tensors of more than 2^20 elements
/// (TRITON_MAX_TENSOR_NUMEL); IR written or changed by hand gets the same
/// limit, at the first op that exceeds it.
static Error checkTensorSizes(mlir::ModuleOp module) {
  constexpr int64_t kMaxNumel = int64_t(1) << 20;
  mlir::WalkResult walk = module.walk([&](mlir::Operation *op) {
    for (mlir::Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<mlir::RankedTensorType>(type);
          tensor && tensor.hasStaticShape() && tensor.getNumElements() > kMaxNumel) {
        op->emitError() << "'" << op->getName() << "' makes a " << tensor << " of "
                        << tensor.getNumElements() << " elements; Triton's tensors hold at most "
                        << kMaxNumel;
        return mlir::WalkResult::interrupt();
      }
    return mlir::WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return error("a tensor of the kernel is too large");
  return Error::success();
}

/// Code runs in functions: an op at a module's top level has nowhere to
/// run (LLVM's translation crashed on one). There go only symbols
/// (functions, globals) and the LLVM dialect's module-wide records.
static Error checkTopLevelOps(mlir::ModuleOp module) {
  static constexpr StringLiteral kRecords[] = {"llvm.module_flags", "llvm.linker_options",
                                               "llvm.mlir.global_ctors", "llvm.mlir.global_dtors"};
  for (mlir::Operation &op : module.getBody()->getOperations()) {
    if (isa<mlir::SymbolOpInterface>(op) ||
        llvm::is_contained(kRecords, op.getName().getStringRef()))
      continue;
    op.emitError() << "'" << op.getName()
                   << "' at the module's top level: ops other than functions and globals "
                      "belong in a function";
    return error("an op outside any function");
  }
  return Error::success();
}

Error prepareModule(mlir::ModuleOp module) {
  locateUnlocatedOps(module);
  if (Error error = checkTopLevelOps(module))
    return error;
  // One kernel per module, as Triton compiles them (its launch metadata
  // describes one).
  tt::FuncOp first;
  for (auto func : module.getOps<tt::FuncOp>()) {
    if (!func.isPublic())
      continue;
    if (first) {
      mlir::emitError(func.getLoc())
          << "a second kernel '" << func.getName() << "' (after '" << first.getName()
          << "'): kiln compiles one kernel (public tt.func) per module";
      return error("the module holds more than one kernel");
    }
    first = func;
  }
  return checkTensorSizes(module);
}

Error runPipeline(const Pipeline &pipeline, Artifact &artifact, StringRef stopAfter,
                  const RunOptions &options) {
  std::string kernel = artifact.module             ? kernelName(*artifact.module)
                       : artifact.metadata.name.empty() ? "kernel"
                                                        : artifact.metadata.name;
  // A module that names its target (TTGIR, or an LLVM-dialect module kiln
  // lowered) is code for that target only: compiling it for another would
  // select instructions the target lacks (wgmma below sm_90).
  if (artifact.module)
    if (auto target = (*artifact.module)->getAttrOfType<mlir::StringAttr>("ttg.target");
        target && target.getValue() != pipeline.options.target.str()) {
      mlir::emitError(artifact.module->getLoc())
          << "the module is for ttg.target = \"" << target.getValue()
          << "\", not the requested target " << pipeline.options.target.str()
          << " (compile its TTIR for " << pipeline.options.target.str() << " instead)";
      return error("the module's target and the requested one differ");
    }
  bool started = options.startAfter.empty(), first = true;
  for (const Stage &stage : pipeline.stages) {
    if (!started) {
      started = stage.name == options.startAfter;
      continue;
    }
    bool codegenOnly = first && options.firstStageCodegenOnly;
    first = false;
    std::string who = "stage '" + stage.name + "'";
    std::string phase = "in stage '" + stage.name + "'";
    if (stage.override)
      phase += ", overridden by plugin '" + stage.overrideOwner + "' (" +
               stage.overrideOwnerFile + ")";
    progress::setPhase(phase);
    if (stage.override) {
      who += " (overridden by plugin '" + stage.overrideOwner + "')";
      if (failed(stage.override(artifact, pipeline.options)))
        return error(who + " failed");
    } else {
      if (stage.isMLIR && !codegenOnly) {
        if (!artifact.module)
          return error("stage '" + stage.name + "' needs an MLIR module as input");
        if (Error err = runMLIRStage(stage, artifact, pipeline.options, options))
          return err;
      }
      if (stage.needsCodegen) {
        if (!stage.codegen)
          return error("stage '" + stage.name + "' has no code generator yet");
        progress::setPhase("in stage '" + stage.name + "', in its code generator");
        if (Error err = stage.codegen(artifact, pipeline.options))
          return error("stage '" + stage.name + "': " + toString(std::move(err)));
      }
    }
    // A plugin's stage function may report success and still leave nothing
    // for the next stage or for serialising.
    if (stage.output == Artifact::Kind::MLIR && !artifact.module)
      return error(who + " produced no MLIR module");
    artifact.kind = stage.output;
    if (!options.dumpDir.empty()) {
      if (Error err = dump(artifact.serialize(), options.dumpDir, kernel, stage.name))
        return err;
      // A binary's launch metadata goes beside it, as <kernel>.json.
      if (artifact.kind == Artifact::Kind::Binary && artifact.metadata.known())
        if (Error err = dump(artifact.metadata.toJSON(pipeline.options), options.dumpDir,
                             kernel, "json"))
          return err;
    }
    if (stage.name == stopAfter)
      return Error::success();
  }
  return error("stage '" + stopAfter + "' not found");
}

} // namespace kiln
