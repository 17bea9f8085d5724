//===- PluginAPI.h - the kiln plugin ABI ------------------------*- C++ -*-===//
//
// Everything a plugin needs to declare itself. A plugin is a shared library
// that exports one C function,
//
//   extern "C" const kiln::PluginInfo *kilnGetPluginInfo();
//
// returning a pointer to a PluginInfo that lives as long as the library (a
// static). Every callback is optional (null: not provided). Write it with
// the KILN_PLUGIN macro:
//
//   static const kiln::PluginInfo info = {
//       KILN_PLUGIN_HEADER("myplugin", "1.0"),
//       /*registerDialects=*/nullptr, /*registerPasses=*/&registerPasses,
//       /*extendPipeline=*/&extendPipeline, /*registerOps=*/nullptr,
//       // API 1.1:
//       /*registerLowering=*/nullptr, /*options=*/nullptr, /*numOptions=*/0,
//       /*addCodegenFlags=*/nullptr};
//   KILN_PLUGIN(info)
//
// Compatibility: PluginInfo only ever grows at its end within an API major
// version (apiMinor counts the growths); the host reads the fields the
// plugin's structSize covers and treats the rest as null. A new major
// version may change anything and is refused by older hosts. Host and plugin
// share C++ objects (MLIR types, std::function), so they must be built
// against the same kiln and LLVM; `hostAbi` records what the plugin was built
// against and the loader refuses a mismatch.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_PLUGINAPI_H
#define KILN_PLUGIN_PLUGINAPI_H

#include "kiln/Config.h"
#include "kiln/Plugin/TritonEntryPoint.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln {

class PipelineEditor;
class PassRegistrar;
class OpRegistry;
class LoweringRegistrar;
struct CompileOptions;

constexpr uint16_t kPluginApiMajor = 1;
/// 1.1: registerLowering, options, addCodegenFlags.
constexpr uint16_t kPluginApiMinor = 1;

/// One option of a plugin, set with `--plugin-option <plugin>.<key>=<value>`
/// (and the bridge's and the API's equivalents); part of the cache key.
struct PluginOption {
  /// Lower-case letters, digits, '-' and '_', starting with a letter.
  const char *key;
  /// The value when none is given (non-null; may be empty).
  const char *defaultValue;
  /// One line for `kiln plugins`.
  const char *help;
};

/// Flags a plugin adds to the code generators of one compile.
struct CodegenFlags {
  /// LLVM options, "-name" or "-name=value" (e.g. "-nvptx-sched4reg").
  std::vector<std::string> llvm;
  /// ptxas flags, each starting with '-'.
  std::vector<std::string> ptxas;
};

struct PluginInfo {
  /// sizeof(PluginInfo) as the plugin was compiled: the fields it knows.
  uint32_t structSize;
  uint16_t apiMajor;
  uint16_t apiMinor;
  /// Short id that namespaces everything the plugin registers: lower-case
  /// letters, digits and '_', starting with a letter.
  const char *name;
  const char *version;
  /// KILN_HOST_ABI at the plugin's build.
  const char *hostAbi;

  /// Level 2: the plugin's own MLIR dialects (and their interfaces).
  void (*registerDialects)(mlir::DialectRegistry &registry);
  /// Makes the plugin's passes known to textual pipelines (`kiln-opt`).
  void (*registerPasses)(PassRegistrar &registrar);
  /// Places the plugin's passes in the compile pipeline.
  void (*extendPipeline)(PipelineEditor &editor);
  /// Level 3: new kernel-language ops, exposed by every frontend.
  void (*registerOps)(OpRegistry &registry);

  // API 1.1.
  /// Level 2: the lowering of the plugin's ops to LLVM at llir, so that its
  /// dialect can live until then (LoweringRegistrar.h).
  void (*registerLowering)(LoweringRegistrar &registrar);
  /// The options it takes: `numOptions` entries.
  const PluginOption *options;
  uint32_t numOptions;
  /// Adds code-generator flags to a compile with `options` (its plugin
  /// options included).
  void (*addCodegenFlags)(const CompileOptions &options, CodegenFlags &flags);
};

/// Size of the version-1.0 struct: the least a plugin may declare.
constexpr uint32_t kPluginInfoMinSize = offsetof(PluginInfo, registerDialects);

} // namespace kiln

/// The first fields of a PluginInfo initializer.
#define KILN_PLUGIN_HEADER(NAME, VERSION)                                      \
  sizeof(::kiln::PluginInfo), ::kiln::kPluginApiMajor, ::kiln::kPluginApiMinor, \
      NAME, VERSION, KILN_HOST_ABI

/// Defines the exported entry point returning `INFO`, and Triton's entry
/// point with an empty record, so that Triton 3.7 and 3.8, which load every
/// library in TRITON_PLUGIN_PATHS, accept the plugin (TritonEntryPoint.h).
#ifdef KILN_BUILTIN_PLUGIN
// Linked into a static kiln (KILN_BUILTIN_PLUGINS), which registers it at
// start-up through this entry point, named per plugin.
#define KILN_PLUGIN(INFO)                                                      \
  extern "C" const ::kiln::PluginInfo *KILN_BUILTIN_PLUGIN() { return &(INFO); }
#else
#define KILN_PLUGIN(INFO)                                                      \
  extern "C" __attribute__((visibility("default"))) const ::kiln::PluginInfo * \
  kilnGetPluginInfo() {                                                        \
    return &(INFO);                                                            \
  }                                                                            \
  extern "C" __attribute__((visibility("default"))) const void *               \
  tritonGetPluginInfo() {                                                      \
    KILN_TRITON_PLUGIN_RECORD((INFO).name, (INFO).version)                     \
  }
#endif

/// The name of the entry point, for loaders.
#define KILN_PLUGIN_ENTRY_POINT "kilnGetPluginInfo"

#endif
