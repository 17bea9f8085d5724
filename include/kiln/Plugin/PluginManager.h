//===- PluginManager.h - loading and tracking plugins -----------*- C++ -*-===//
//
// One PluginManager per process. Plugins load in a defined order: the
// entries of TRITON_PLUGIN_PATHS, then of KILN_PLUGIN_PATHS (files, or
// folders whose *.so load in name order), then explicit paths (`--plugin`, loadPlugin). Each file loads once.
// Every failure is an llvm::Error whose message names the plugin (when its
// name is known), its file and the cause; a failed plugin adds nothing to
// kiln's registries.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_PLUGINMANAGER_H
#define KILN_PLUGIN_PLUGINMANAGER_H

#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln {

class LoadedObjects;
namespace plugin {
struct Errors;
} // namespace plugin

class OpRegistry;

struct LoadedPlugin {
  std::string name;
  std::string version;
  std::string path; ///< as given
  std::string realPath;
  /// Every other shared object that loading the plugin brought into the
  /// process (its LINK_LIBS and their dependencies not loaded before).
  std::vector<std::string> libraries;
  std::vector<std::string> dialects;
  std::vector<std::string> passes; ///< pass arguments for textual pipelines
  std::vector<std::string> ops;    ///< kernel-language op names
  size_t numEdits = 0;
  size_t numLoweringExtensions = 0;
  struct Option {
    std::string key; ///< without the "<plugin>." prefix
    std::string defaultValue;
    std::string help;
  };
  std::vector<Option> options;
  /// The plugin's addCodegenFlags hook, if it has one.
  void (*addCodegenFlags)(const CompileOptions &, CodegenFlags &) = nullptr;

  /// SHA-256 of the plugin's file and of each of `libraries`, computed on
  /// first use (the cache key needs them; loading does not).
  llvm::Expected<std::string> contentHash() const;

private:
  mutable std::string hash;
};

class PluginManager {
public:
  static PluginManager &get();

  /// Loads one plugin library. A file already loaded is not loaded again.
  llvm::Error load(llvm::StringRef path);
  /// Loads every entry of the colon-separated list `paths`, which follows
  /// TRITON_PLUGIN_PATHS: Triton's own plugins in it are skipped, with a
  /// warning.
  llvm::Error loadList(llvm::StringRef paths);
  /// Registers a plugin linked into this executable (a static kiln's
  /// built-in plugins, KILN_BUILTIN_PLUGINS), checked as a loaded one is.
  llvm::Error loadBuiltin(const PluginInfo *info);
  /// Loads TRITON_PLUGIN_PATHS, then KILN_PLUGIN_PATHS (same syntax; Triton
  /// never reads it), each if set.
  llvm::Error loadFromEnvironment();

  const std::vector<LoadedPlugin> &plugins() const { return loaded; }
  const std::vector<PipelineEdit> &edits() const { return allEdits; }
  /// Adds every plugin dialect to `registry`.
  void appendDialects(mlir::DialectRegistry &registry) const;
  OpRegistry &ops();

  /// Completes `options` for a compile: each "<plugin>.<key>" already in
  /// its pluginOptions (the user's) must name an option of a loaded plugin;
  /// every other option gets its default; then each plugin adds its
  /// code-generator flags. Fails, naming the option or plugin, otherwise.
  /// Call it once per compile: a second call adds the flags again.
  llvm::Error completeOptions(CompileOptions &options) const;

  /// What every plugin contributes to a compile's identity: name, version
  /// and content hash of each, in load order.
  llvm::Expected<std::string> fingerprint() const;

  /// Receives the warnings of loading; by default they are printed to
  /// standard error as "kiln: warning: ...".
  void setWarningHandler(std::function<void(llvm::StringRef)> handler) {
    warn = std::move(handler);
  }

private:
  PluginManager();
  llvm::Error loadFile(llvm::StringRef path, bool skipTritonPlugins);
  /// Checks and registers what `info` declares (`mapped`: the process's
  /// objects, against which its pointers are checked; `before`: those
  /// before the plugin was loaded, null for a built-in one).
  llvm::Error adopt(const PluginInfo *info, llvm::StringRef path, llvm::StringRef real,
                    const LoadedObjects &mapped, const LoadedObjects *before,
                    plugin::Errors &fail);
  std::function<void(llvm::StringRef)> warn;
  std::vector<LoadedPlugin> loaded;
  std::vector<PipelineEdit> allEdits;
  mlir::DialectRegistry dialects;
};

/// Loads `path` into the process's PluginManager (the C++ API of
/// `--plugin`): usable at any time before a compile.
llvm::Error loadPlugin(llvm::StringRef path);

} // namespace kiln

#endif
