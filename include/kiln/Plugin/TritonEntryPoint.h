//===- TritonEntryPoint.h - kiln plugins that Triton 3.7/3.8 accept -*- C++ -*-===//
//
// Triton 3.7 and 3.8 dlopen every library TRITON_PLUGIN_PATHS names when
// `import triton` runs, and end the process unless the library exports
// `tritonGetPluginInfo()` returning a record of Triton's plugin API 2 whose
// `tritonVersion` is Triton's own release. kiln plugins live in that same
// variable, so KILN_PLUGIN (PluginAPI.h) defines that entry point as well:
// a record with no passes, dialects or ops, naming the release of the Triton
// that asks (the `__version__` of the package around the calling
// libtriton.so). To Triton the plugin is empty; kiln ignores the symbol.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_TRITONENTRYPOINT_H
#define KILN_PLUGIN_TRITONENTRYPOINT_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>

namespace kiln::triton_plugin {

/// Triton's PluginInfo of plugin API 2 (Triton 3.7 and 3.8).
struct Record {
  uint32_t apiVersion;
  const char *pluginName;
  const char *pluginVersion;
  void *passes;
  size_t numPasses;
  void *dialects;
  size_t numDialects;
  void *ops;
  size_t numOps;
  const char *tritonVersion;
};

constexpr uint32_t kApiVersion = 2;

/// What `tritonVersion` says when the caller's release cannot be found:
/// Triton prints it in its refusal, so it says what to do.
constexpr const char *kUnknownVersion =
    "unknown to kiln (list kiln plugins in KILN_PLUGIN_PATHS instead)";

/// Writes into `version` (`size` bytes) the `__version__` of the Python
/// package of the library holding `caller` (<package>/_C/libtriton.so); an
/// empty string when there is none.
inline void findCallerRelease(const void *caller, char *version, size_t size) {
  version[0] = '\0';
  Dl_info info;
  if (!dladdr(caller, &info) || !info.dli_fname)
    return;
  char path[4096];
  size_t length = std::strlen(info.dli_fname);
  if (length >= sizeof(path))
    return;
  std::memcpy(path, info.dli_fname, length + 1);
  for (int up = 0; up < 2; ++up) { // drop "libtriton.so", then "_C"
    char *slash = std::strrchr(path, '/');
    if (!slash)
      return;
    *slash = '\0';
  }
  if (std::strlen(path) + sizeof("/__init__.py") > sizeof(path))
    return;
  std::strcat(path, "/__init__.py");
  std::FILE *file = std::fopen(path, "r");
  if (!file)
    return;
  char line[512];
  while (std::fgets(line, sizeof(line), file)) {
    const char *at = std::strstr(line, "__version__");
    if (!at || at != line) // the module-level assignment starts its line
      continue;
    const char *open = std::strpbrk(at, "'\"");
    if (!open)
      break;
    const char *close = std::strchr(open + 1, *open);
    size_t n = close ? size_t(close - open - 1) : 0;
    if (n > 0 && n < size) {
      std::memcpy(version, open + 1, n);
      version[n] = '\0';
    }
    break;
  }
  std::fclose(file);
}

} // namespace kiln::triton_plugin

/// The body of a plugin's tritonGetPluginInfo(), for plugin `NAME` version
/// `VERSION`. Its statics are the plugin's own (local to the library).
#define KILN_TRITON_PLUGIN_RECORD(NAME, VERSION)                               \
  static char release[64];                                                     \
  static ::kiln::triton_plugin::Record record;                                 \
  if (!release[0])                                                             \
    ::kiln::triton_plugin::findCallerRelease(__builtin_return_address(0),      \
                                             release, sizeof(release));        \
  record = {::kiln::triton_plugin::kApiVersion,                                \
            NAME,                                                              \
            VERSION,                                                           \
            nullptr,                                                           \
            0,                                                                 \
            nullptr,                                                           \
            0,                                                                 \
            nullptr,                                                           \
            0,                                                                 \
            release[0] ? release : ::kiln::triton_plugin::kUnknownVersion};    \
  return &record;

#endif
