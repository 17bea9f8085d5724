//===- kiln.cpp - the kiln compiler driver --------------------------------===//
//
// `kiln <command> [options]`. The commands are registered by their own
// files (see Commands.h); this file only parses and dispatches.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "kiln/Config.h"
#include "kiln/Plugin/PluginAPI.h"
#include "kiln/Plugin/PluginManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <vector>

using namespace llvm;

namespace kiln::driver {

cl::OptionCategory &category() {
  static cl::OptionCategory cat("kiln options");
  return cat;
}

namespace {
struct Entry {
  cl::SubCommand *sub;
  std::function<int()> main;
};
std::vector<Entry> &commands() {
  static std::vector<Entry> list;
  return list;
}
} // namespace

CommandRegistration::CommandRegistration(cl::SubCommand &sub, std::function<int()> main) {
  commands().push_back({&sub, std::move(main)});
}

// Plugins linked into this kiln (KILN_BUILTIN_PLUGINS; none unless static).
#define KILN_BUILTIN(NAME) extern "C" const kiln::PluginInfo *kilnBuiltinPlugin_##NAME();
#include "BuiltinPlugins.inc"
#undef KILN_BUILTIN

namespace {
cl::opt<bool> noDefaultPlugins(
    "no-default-plugins", cl::sub(cl::SubCommand::getAll()),
    cl::desc("Do not load kiln's first-party plugins (" KILN_DEFAULT_PLUGINS
             ") from beside kiln (also KILN_NO_DEFAULT_PLUGINS=1)"),
    cl::cat(category()));

/// Where a first-party plugin is: installed (<prefix>/lib/kiln/plugins),
/// or in the build tree (<build>/plugins); empty if neither.
std::string defaultPluginFile(StringRef name) {
  static int anchor;
  std::string exe = sys::fs::getMainExecutable(nullptr, &anchor);
  SmallString<256> bin = sys::path::parent_path(exe);
  std::string file = ("lib" + name + ".so").str();
  SmallString<256> installed(bin), built(bin);
  sys::path::append(installed, "..", "lib", "kiln");
  sys::path::append(installed, "plugins", file);
  sys::path::append(built, "..", "plugins", file);
  for (SmallString<256> &path : {std::ref(installed), std::ref(built)}) {
    sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    if (sys::fs::is_regular_file(path))
      return std::string(path);
  }
  return {};
}
} // namespace

Error loadPlugins(const std::vector<std::string> &explicitPaths) {
  PluginManager &manager = PluginManager::get();
#define KILN_BUILTIN(NAME)                                                     \
  if (Error error = manager.loadBuiltin(kilnBuiltinPlugin_##NAME()))           \
    return error;
#include "BuiltinPlugins.inc"
#undef KILN_BUILTIN
  if (Error error = manager.loadFromEnvironment())
    return error;
  for (const std::string &path : explicitPaths)
    if (Error error = manager.load(path))
      return error;
  // kiln's own plugins last, unless asked not to, or one of that name is
  // loaded already (built in, or named by the user: theirs wins).
  const char *off = std::getenv("KILN_NO_DEFAULT_PLUGINS");
  if (noDefaultPlugins || (off && *off && StringRef(off) != "0"))
    return Error::success();
  SmallVector<StringRef> names;
  StringRef(KILN_DEFAULT_PLUGINS).split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    if (llvm::any_of(manager.plugins(), [&](const LoadedPlugin &p) { return p.name == name; }))
      continue;
    std::string file = defaultPluginFile(name);
    if (!file.empty())
      if (Error error = manager.load(file))
        return error;
  }
  return Error::success();
}

Expected<CompileOptions> makeCompileOptions(StringRef target, int numWarps, int numStages,
                                            int numCtas, ArrayRef<std::string> pluginOptions) {
  Expected<Target> parsed = Target::parse(target);
  if (!parsed)
    return parsed.takeError();
  if (numWarps < 1 || (numWarps & (numWarps - 1)))
    return createStringError(inconvertibleErrorCode(),
                             "--num-warps must be a power of two, got " + Twine(numWarps));
  if (numStages < 1)
    return createStringError(inconvertibleErrorCode(),
                             "--num-stages must be at least 1, got " + Twine(numStages));
  if (numCtas < 1 || numCtas > 16 || (numCtas & (numCtas - 1)))
    return createStringError(inconvertibleErrorCode(),
                             "--num-ctas must be 1, 2, 4, 8 or 16, got " + Twine(numCtas));
  CompileOptions options = CompileOptions::forTarget(*parsed);
  options.numWarps = numWarps;
  options.numCtas = numCtas;
  options.numStages = numStages;
  for (StringRef given : pluginOptions) {
    auto [key, value] = given.split('=');
    auto [plugin, name] = key.split('.');
    if (!given.contains('=') || plugin.empty() || name.empty())
      return createStringError("--plugin-option '" + given +
                               "': expected <plugin>.<key>=<value>");
    if (!options.pluginOptions.try_emplace(key.str(), value.str()).second)
      return createStringError("--plugin-option " + key + " is given twice");
  }
  return options;
}

int reportError(Error error) {
  handleAllErrors(std::move(error), [](const ErrorInfoBase &info) {
    WithColor::error(errs(), "kiln") << info.message() << "\n";
  });
  return 1;
}

} // namespace kiln::driver

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // Show kiln's options only; libLLVM registers many of its own globally.
  cl::HideUnrelatedOptions(kiln::driver::category());
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "kiln " KILN_VERSION_STRING "\n  host ABI: " KILN_HOST_ABI "\n  plugin API: "
       << kiln::kPluginApiMajor << "." << kiln::kPluginApiMinor << "\n";
  });
  cl::ParseCommandLineOptions(argc, argv,
                              "kiln: a tile-kernel compiler for GPUs, open to plugins\n");
  for (auto &entry : kiln::driver::commands())
    if (*entry.sub)
      return entry.main();
  WithColor::error(errs(), "kiln") << "no command given; run 'kiln --help' for the list\n";
  return 1;
}
