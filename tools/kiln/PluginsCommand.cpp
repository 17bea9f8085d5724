//===- PluginsCommand.cpp - kiln plugins [check PATH] ---------------------===//
#include "Commands.h"

#include "kiln/Backend/Registry.h"
#include "kiln/Plugin/PluginManager.h"

#include "kiln/Plugin/OpRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace kiln::driver {
namespace {

cl::SubCommand command("plugins",
                       "List loaded plugins and what each registered; 'kiln plugins check "
                       "PATH' validates one plugin on its own (TRITON_PLUGIN_PATHS is not "
                       "read) and explains any problem");
cl::list<std::string> plugins("plugin",
                              cl::desc("Load a plugin library (after TRITON_PLUGIN_PATHS and KILN_PLUGIN_PATHS)"),
                              cl::value_desc("path"), cl::sub(command), cl::cat(category()));
cl::opt<bool> opsJson("ops-json",
                      cl::desc("Print the kernel-language ops the loaded plugins declare, as "
                               "JSON (what python/kiln/language exposes to Triton kernels)"),
                      cl::sub(command), cl::cat(category()));
cl::list<std::string> positional(cl::Positional, cl::desc("[check PATH]"), cl::sub(command),
                                 cl::cat(category()));

std::string joined(const std::vector<std::string> &items) {
  return items.empty() ? "-" : join(items, ", ");
}

void describe(const LoadedPlugin &plugin, raw_ostream &os) {
  os << plugin.name << " " << plugin.version << "  " << plugin.path << "\n";
  os << "  dialects: " << joined(plugin.dialects) << "\n";
  os << "  passes:   " << joined(plugin.passes) << "\n";
  os << "  ops:      " << joined(plugin.ops) << "\n";
  os << "  edits:   ";
  bool any = false;
  for (const PipelineEdit &edit : PluginManager::get().edits()) {
    if (edit.plugin != plugin.name)
      continue;
    os << (any ? ";" : "") << " " << edit.describe();
    if (!edit.newId.empty())
      os << " (" << edit.newId << ")";
    if (!edit.scope.backend.empty())
      os << " [backend " << edit.scope.backend << "]";
    if (!edit.scope.target.empty())
      os << " [target " << edit.scope.target << "]";
    if (edit.scope.kernel)
      os << " [if " << edit.scope.kernel.description << "]";
    any = true;
  }
  os << (any ? "\n" : " -\n");
  // API 1.1's hooks, shown when the plugin uses them.
  if (plugin.numLoweringExtensions)
    os << "  lowering: " << plugin.numLoweringExtensions << " extension(s) at llir\n";
  for (const LoadedPlugin::Option &option : plugin.options)
    os << "  option:   " << plugin.name << "." << option.key << " (default '"
       << option.defaultValue << "')" << (option.help.empty() ? "" : ": ") << option.help
       << "\n";
  if (plugin.addCodegenFlags)
    os << "  codegen:  adds code-generator flags\n";
}

int check(StringRef path) {
  if (Error error = PluginManager::get().load(path)) {
    outs() << "FAIL " << path << "\n";
    outs().flush();
    return reportError(std::move(error));
  }
  const LoadedPlugin &plugin = PluginManager::get().plugins().back();
  outs() << "OK ";
  describe(plugin, outs());
  // Where its passes land on each backend.
  // One target per backend, and each target one of its edits is restricted to.
  std::vector<Target> targets = representativeTargets();
  for (const PipelineEdit &edit : PluginManager::get().edits())
    if (!edit.scope.target.empty() &&
        llvm::none_of(targets, [&](const Target &t) { return t.str() == edit.scope.target; }))
      targets.push_back(cantFail(Target::parse(edit.scope.target)));
  for (const Target &target : targets) {
    Expected<Pipeline> pipeline =
        buildPipeline(CompileOptions::forTarget(target), PluginManager::get().edits());
    if (!pipeline)
      return reportError(pipeline.takeError());
    for (const Stage &stage : pipeline->stages) {
      if (stage.overrideOwner == plugin.name)
        outs() << "  " << target.str() << ": overrides stage " << stage.name << "\n";
      for (const PassEntry &entry : stage.entries) {
        if (entry.owner == plugin.name)
          outs() << "  " << target.str() << ": " << stage.name << " runs " << entry.id
                 << " (" << entry.placement << ")"
                 << (entry.condition.empty() ? "" : " [if " + entry.condition + "]")
                 << "\n";
        if (entry.disabledBy == plugin.name)
          outs() << "  " << target.str() << ": " << stage.name << " disables " << entry.id
                 << (entry.disabledCondition.empty()
                         ? ""
                         : " [if " + entry.disabledCondition + "]")
                 << "\n";
      }
    }
  }
  return 0;
}

int run() {
  if (!positional.empty()) {
    if (positional[0] != "check" || positional.size() != 2 || !plugins.empty())
      return reportError(createStringError(
          inconvertibleErrorCode(), "usage: kiln plugins [--plugin PATH]... | kiln plugins "
                                    "check PATH (on its own, without --plugin)"));
    return check(positional[1]);
  }
  if (Error error = loadPlugins(plugins))
    return reportError(std::move(error));
  if (opsJson) {
    // Everything python/kiln/language needs to make a plugin's module.
    json::Array ops, kinds;
    const OpRegistry &registry = PluginManager::get().ops();
    for (const LoadedPlugin &plugin : PluginManager::get().plugins()) {
      for (const std::string &name : plugin.ops) {
        const KernelOp *op = registry.lookup(name);
        json::Array operands, results;
        for (const KernelOpOperand &operand : op->operands)
          operands.push_back(json::Object{
              {"name", operand.name},
              {"kind", operand.kind},
              {"default", operand.defaultJson.empty() ? json::Value(nullptr)
                                                      : json::Value(operand.defaultJson)}});
        for (const KernelOpResult &result : op->results)
          results.push_back(json::Object{
              {"kind", result.kind}, {"shape", result.shape}, {"dtype", result.dtype}});
        ops.push_back(json::Object{{"name", op->name},
                                   {"plugin", plugin.name},
                                   {"operands", std::move(operands)},
                                   {"num_results", int64_t(op->numResults)},
                                   {"results", std::move(results)},
                                   {"signature", op->signature},
                                   {"summary", op->summary},
                                   {"elementwise", op->elementwise},
                                   {"python_call", op->pythonCall},
                                   {"scope", bool(op->buildScope)},
                                   {"result_element", op->resultElement}});
      }
      for (const ValueKind &kind : registry.valueKinds())
        if (StringRef(kind.name).starts_with(plugin.name + "."))
          kinds.push_back(json::Object{
              {"name", kind.name},
                                         {"plugin", plugin.name},
                                         {"summary", kind.summary},
                                         {"index_op", kind.indexOp}});
    }
    json::Object all{{"ops", std::move(ops)}, {"value_kinds", std::move(kinds)}};
    outs() << formatv("{0:2}", json::Value(std::move(all))) << "\n";
    return 0;
  }
  const auto &loaded = PluginManager::get().plugins();
  if (loaded.empty())
    outs() << "no plugins loaded (set TRITON_PLUGIN_PATHS or KILN_PLUGIN_PATHS, or pass --plugin)\n";
  for (const LoadedPlugin &plugin : loaded)
    describe(plugin, outs());
  return 0;
}

CommandRegistration registration(command, run);

} // namespace
} // namespace kiln::driver
