//===- PluginHooks.h - checking what each plugin hook contributes -*- C++ -*-===//
//
// PluginManager::loadFile reads a plugin's PluginInfo, then hands each hook
// to its validator here. A validator calls the hook into a Contribution and
// checks the result against kiln and the plugins loaded before; nothing
// reaches kiln's registries until every validator has passed.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_PLUGIN_PLUGINHOOKS_H
#define KILN_LIB_PLUGIN_PLUGINHOOKS_H

#include "kiln/Plugin/LoweringRegistrar.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PassRegistrar.h"
#include "kiln/Plugin/PluginAPI.h"
#include "kiln/Plugin/PluginManager.h"

#include "mlir/IR/DialectRegistry.h"

namespace kiln::plugin {

/// Builds the error of a plugin whose name may not be known yet.
struct Errors {
  std::string path;
  std::string name;
  llvm::Error operator()(const llvm::Twine &cause) const;
};

/// A hook of `info`, or null when the plugin's struct is too old to have
/// it (the struct grows only at its end).
#define KILN_CALLBACK(info, member)                                            \
  (offsetof(PluginInfo, member) + sizeof(info->member) <= info->structSize      \
       ? info->member                                                          \
       : nullptr)

/// Everything one plugin contributes, checked but not yet committed.
struct Contribution {
  explicit Contribution(const std::string &name) : passes(name), ops(name) {}
  mlir::DialectRegistry dialects;
  PassRegistrar passes;
  std::vector<PipelineEdit> edits;
  OpRegistry ops;
  LoweringRegistrar lowering;
};

/// What the loaded plugins already hold, for the checks.
struct Loaded {
  const std::vector<LoadedPlugin> &plugins;
  const std::vector<PipelineEdit> &edits;
  const mlir::DialectRegistry &dialects;
  const OpRegistry &ops;
};

llvm::Error collectDialects(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                            const Loaded &loaded, const Errors &fail);
llvm::Error collectPasses(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                          const Errors &fail);
llvm::Error collectEdits(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                         const Loaded &loaded, const Errors &fail);
llvm::Error collectOps(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                       const Loaded &loaded, const Errors &fail);
llvm::Error collectLowering(const PluginInfo *info, LoadedPlugin &record, Contribution &out,
                            const Errors &fail);
/// `readString` reads a NUL-terminated string the plugin points to, or
/// nothing when it points outside its loaded data.
llvm::Error
collectOptions(const PluginInfo *info, LoadedPlugin &record,
               llvm::function_ref<std::optional<llvm::StringRef>(const char *)> readString,
               llvm::function_ref<bool(const void *, size_t)> isReadable, const Errors &fail);

} // namespace kiln::plugin

#endif
