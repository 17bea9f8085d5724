//===- PluginManager.cpp - loading and tracking plugins -------------------===//
#include "kiln/Plugin/PluginManager.h"

#include "PluginHooks.h"

#include "kiln/Plugin/SharedLibrary.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

using namespace llvm;

namespace kiln {

namespace {

// No '-': pass arguments are "<plugin>-<name>", so a '-' in plugin names
// would let plugin "a" claim the namespace of plugin "a-b".
bool isValidName(StringRef name) {
  return !name.empty() && isLower(name.front()) &&
         all_of(name, [](char c) { return isLower(c) || isDigit(c) || c == '_'; });
}

/// Bounds on what a plugin hands over, far above any real plugin's.
constexpr uint32_t kMaxPluginInfoSize = 4096;
constexpr size_t kMaxPluginString = 4096;

std::string address(const void *pointer) {
  return "0x" + utohexstr(reinterpret_cast<uintptr_t>(pointer), /*LowerCase=*/true);
}

} // namespace

PluginManager &PluginManager::get() {
  static PluginManager manager;
  return manager;
}

PluginManager::PluginManager()
    : warn([](StringRef message) { WithColor::warning(errs(), "kiln") << message << "\n"; }) {}

OpRegistry &PluginManager::ops() {
  static OpRegistry registry("plugins");
  return registry;
}

void PluginManager::appendDialects(mlir::DialectRegistry &registry) const {
  dialects.appendTo(registry);
}

Expected<std::string> LoadedPlugin::contentHash() const {
  if (!hash.empty())
    return hash;
  std::string text;
  for (StringRef file : concat<const std::string>(ArrayRef(realPath), libraries)) {
    Expected<std::string> fileHash = hashFile(file);
    if (!fileHash)
      return createStringError(inconvertibleErrorCode(),
                               "plugin '" + name + "' (" + path + "): cannot read " +
                                   (file == realPath ? "the file" : "its library '" + file + "'") +
                                   " to hash it: " + toString(fileHash.takeError()));
    text += *fileHash + "\n";
  }
  hash = std::move(text);
  return hash;
}

Expected<std::string> PluginManager::fingerprint() const {
  std::string text;
  for (const LoadedPlugin &plugin : loaded) {
    Expected<std::string> hash = plugin.contentHash();
    if (!hash)
      return hash.takeError();
    text += plugin.name + " " + plugin.version + "\n" + *hash;
  }
  return text;
}

Error PluginManager::load(StringRef path) { return loadFile(path, /*skipTritonPlugins=*/false); }

Error PluginManager::loadFile(StringRef path, bool skipTritonPlugins) {
  plugin::Errors fail{path.str(), ""};
#ifdef KILN_STATIC_BUILD
  // A plugin links libkiln.so and shares its MLIR; a static kiln has neither.
  return fail("this kiln is a static build and cannot load plugins");
#endif
  if (!sys::fs::exists(path))
    return fail("no such file");
  if (sys::fs::is_directory(path))
    return fail("is a folder; list it in TRITON_PLUGIN_PATHS to load its *.so files");
  SmallString<256> real;
  if (std::error_code ec = sys::fs::real_path(path, real))
    return fail("cannot resolve the path: " + ec.message());
  for (const LoadedPlugin &plugin : loaded)
    if (plugin.realPath == real)
      return Error::success(); // each library loads once

  // Triton and kiln share TRITON_PLUGIN_PATHS, so a Triton plugin there is
  // expected and skipped; named to kiln explicitly, it is a mistake.
  auto tritonPlugin = [&]() -> Error {
    std::string what = "is a Triton plugin (it exports 'tritonGetPluginInfo', the entry "
                       "point of Triton's own C++ plugin API), not a kiln plugin; kiln "
                       "cannot load it";
    if (!skipTritonPlugins)
      return fail(what + " (build it against kiln's SDK, with KILN_PLUGIN, to use it "
                         "with kiln)");
    warn(toString(fail(what + " and skips it (remove it from TRITON_PLUGIN_PATHS, or "
                              "build it against kiln's SDK)")));
    return Error::success();
  };

  // dlopen trusts the file (a truncated one dies of SIGBUS inside it), and a
  // Triton plugin's initialisers would run against the wrong LLVM: read the
  // headers first.
  Expected<SharedLibraryExports> exports = checkSharedLibrary(real);
  if (!exports)
    return fail(toString(exports.takeError()));
  if (exports->tritonEntry && !exports->kilnEntry)
    return tritonPlugin();

  LoadedObjects before = LoadedObjects::snapshot();
  void *handle = ::dlopen(real.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(Twine("cannot load it as a shared library: ") + ::dlerror());
  // Every pointer the plugin hands over is checked against what is mapped
  // before it is read or called.
  LoadedObjects mapped = LoadedObjects::snapshot();

  // Everything the plugin contributes is collected here and committed to
  // kiln's registries only when all of it checks out. A rejected library is
  // left mapped, never closed: its static initialisers and the pass type ids
  // its factories created may be referenced from MLIR's global tables.
  return [&]() -> Error {
    void *symbol = ::dlsym(handle, KILN_PLUGIN_ENTRY_POINT);
    if (!symbol)
      return fail("no entry point '" KILN_PLUGIN_ENTRY_POINT
                  "' (is it a kiln plugin? define one with KILN_PLUGIN)");
    if (!isFunctionSymbol(symbol) || !mapped.isExecutable(symbol))
      return fail("'" KILN_PLUGIN_ENTRY_POINT
                  "' is not a function (a data symbol?); define it with KILN_PLUGIN");
    using EntryFn = const PluginInfo *(*)();
    const PluginInfo *info = reinterpret_cast<EntryFn>(symbol)();
    if (!info)
      return fail(KILN_PLUGIN_ENTRY_POINT "() returned null");
    return adopt(info, path, real, mapped, &before, fail);
  }();
}

Error PluginManager::loadBuiltin(const PluginInfo *info) {
  plugin::Errors fail{"(built in)", ""};
  if (!info)
    return fail("a built-in plugin's entry point returned null");
  SmallString<256> exe;
  if (std::error_code ec = sys::fs::real_path("/proc/self/exe", exe))
    return fail("cannot find this executable: " + ec.message());
  for (const LoadedPlugin &plugin : loaded)
    if (info->name && plugin.name == info->name && plugin.path == "(built in)")
      return Error::success(); // registered once
  return adopt(info, "(built in)", exe, LoadedObjects::snapshot(), nullptr, fail);
}

Error PluginManager::adopt(const PluginInfo *info, StringRef path, StringRef real,
                           const LoadedObjects &mapped, const LoadedObjects *before,
                           plugin::Errors &fail) {
  if (!mapped.isReadable(info, offsetof(PluginInfo, name)))
    return fail(KILN_PLUGIN_ENTRY_POINT "() returned " + address(info) +
                ", which points into no loaded library (PluginInfo must be a static "
                "of the plugin)");
  if (info->structSize < offsetof(PluginInfo, name))
    return fail("PluginInfo is " + Twine(info->structSize) +
                " bytes, too small to hold its header");
  if (info->apiMajor != kPluginApiMajor)
    return fail("built for plugin API " + Twine(info->apiMajor) + "." +
                Twine(info->apiMinor) + ", but this kiln speaks API " +
                Twine(kPluginApiMajor) + "." + Twine(kPluginApiMinor));
  if (info->structSize < kPluginInfoMinSize)
    return fail("PluginInfo is " + Twine(info->structSize) + " bytes, smaller than the " +
                Twine(kPluginInfoMinSize) + " bytes of API " + Twine(kPluginApiMajor) +
                ".0");
  if (info->structSize > kMaxPluginInfoSize)
    return fail("PluginInfo claims " + Twine(info->structSize) + " bytes, more than the " +
                Twine(kMaxPluginInfoSize) + " any version of it may have");
  if (!mapped.isReadable(info, info->structSize))
    return fail("PluginInfo (" + Twine(info->structSize) + " bytes at " + address(info) +
                ") runs past the end of the library's loaded data");
  auto string = [&](const char *field) { return mapped.string(field, kMaxPluginString); };
  auto wild = [&](StringRef field, const char *value) {
    return fail("the plugin " + field + " (at " + address(value) +
                ") is not a NUL-terminated string of at most " + Twine(kMaxPluginString) +
                " bytes in a loaded library");
  };
  if (!info->name)
    return fail("the plugin name is null");
  std::optional<StringRef> name = string(info->name);
  if (!name)
    return wild("name", info->name);
  if (!isValidName(*name))
    return fail("invalid plugin name '" + *name +
                "' (use lower-case letters, digits and '_', starting with a letter)");
  fail.name = name->str();
  std::optional<StringRef> version = info->version ? string(info->version) : StringRef();
  if (!version)
    return wild("version", info->version);
  if (version->empty())
    return fail("the plugin version is null or empty");
  if (!info->hostAbi)
    return fail("the host ABI string is null");
  std::optional<StringRef> hostAbi = string(info->hostAbi);
  if (!hostAbi)
    return wild("host ABI string", info->hostAbi);
  if (*hostAbi != KILN_HOST_ABI)
    return fail("built against '" + *hostAbi + "', but this kiln is '" + KILN_HOST_ABI +
                "'; rebuild the plugin against this kiln");
  auto code = [](auto callback) { return reinterpret_cast<const void *>(callback); };
  std::pair<StringRef, const void *> callbacks[] = {
      {"registerDialects", code(KILN_CALLBACK(info, registerDialects))},
      {"registerPasses", code(KILN_CALLBACK(info, registerPasses))},
      {"extendPipeline", code(KILN_CALLBACK(info, extendPipeline))},
      {"registerOps", code(KILN_CALLBACK(info, registerOps))},
      {"registerLowering", code(KILN_CALLBACK(info, registerLowering))},
      {"addCodegenFlags", code(KILN_CALLBACK(info, addCodegenFlags))}};
  for (auto [field, callback] : callbacks)
    if (callback && !mapped.isExecutable(callback))
      return fail("PluginInfo's " + field + " (" + address(callback) +
                  ") points to no code of a loaded library");
  for (const LoadedPlugin &plugin : loaded)
    if (plugin.name == *name)
      return fail("a plugin named '" + plugin.name + "' is already loaded from " +
                  plugin.path);

  LoadedPlugin record;
  record.name = name->str();
  record.version = version->str();
  record.path = path.str();
  record.realPath = real.str();

  // Each hook's contribution, checked by its validator (PluginHooks.cpp).
  plugin::Contribution contribution(record.name);
  plugin::Loaded already{loaded, allEdits, dialects, ops()};
  if (Error error = plugin::collectDialects(info, record, contribution, already, fail))
    return error;
  if (Error error = plugin::collectPasses(info, record, contribution, fail))
    return error;
  if (Error error = plugin::collectEdits(info, record, contribution, already, fail))
    return error;
  if (Error error = plugin::collectOps(info, record, contribution, already, fail))
    return error;
  if (Error error = plugin::collectLowering(info, record, contribution, fail))
    return error;
  if (Error error = plugin::collectOptions(
          info, record, string,
          [&](const void *at, size_t size) { return mapped.isReadable(at, size); }, fail))
    return error;
  record.addCodegenFlags = KILN_CALLBACK(info, addCodegenFlags);

  // Everything checked out: commit.
  contribution.dialects.appendTo(dialects);
  for (const PassRegistrar::Factory &create : contribution.passes.passes())
    mlir::registerPass(create);
  allEdits.insert(allEdits.end(), std::make_move_iterator(contribution.edits.begin()),
                  std::make_move_iterator(contribution.edits.end()));
  for (const KernelOp &op : contribution.ops.all())
    ops().add(op);
  for (const ValueKind &kind : contribution.ops.valueKinds())
    ops().addValueKind(kind);
  for (const auto &[kind, extension] : contribution.lowering.all())
    registerLoweringExtension(kind, record.name, extension);
  // Everything mapped since dlopen began, the plugin's hooks included, is
  // the plugin's and counts in the cache key.
  if (before) {
    StringSet<> earlier;
    for (const std::string &file : before->files())
      earlier.insert(file);
    LoadedObjects now = LoadedObjects::snapshot();
    for (const std::string &file : now.files()) {
      SmallString<256> library;
      if (!earlier.contains(file) && !sys::fs::real_path(file, library) && library != real)
        record.libraries.push_back(library.str().str());
    }
  }
  loaded.push_back(std::move(record));
  return Error::success();
}

Error PluginManager::loadList(StringRef paths) {
  SmallVector<StringRef> entries;
  paths.split(entries, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    if (!sys::fs::is_directory(entry)) {
      if (Error error = loadFile(entry, /*skipTritonPlugins=*/true))
        return error;
      continue;
    }
    std::vector<std::string> files;
    std::error_code ec;
    for (sys::fs::directory_iterator it(entry, ec), end; it != end && !ec; it.increment(ec))
      if (sys::path::extension(it->path()) == ".so")
        files.push_back(it->path());
    if (ec)
      return createStringError(ec, "plugin folder '" + entry + "': " + ec.message());
    std::sort(files.begin(), files.end());
    for (const std::string &file : files)
      if (Error error = loadFile(file, /*skipTritonPlugins=*/true))
        return error;
  }
  return Error::success();
}

Error PluginManager::loadFromEnvironment() {
  // TRITON_PLUGIN_PATHS, shared with Triton; then KILN_PLUGIN_PATHS, which
  // Triton never reads (Triton 3.7 and 3.8 load every TRITON_PLUGIN_PATHS
  // entry themselves and refuse folders).
  for (const char *variable : {"TRITON_PLUGIN_PATHS", "KILN_PLUGIN_PATHS"}) {
    const char *paths = std::getenv(variable);
    if (!paths)
      continue;
    if (Error error = loadList(paths))
      return createStringError(inconvertibleErrorCode(),
                               Twine(variable) + ": " + toString(std::move(error)));
  }
  return Error::success();
}

Error PluginManager::completeOptions(CompileOptions &options) const {
  for (const auto &[key, value] : options.pluginOptions) {
    auto [pluginName, option] = StringRef(key).split('.');
    auto plugin = llvm::find_if(loaded, [&](const LoadedPlugin &p) { return p.name == pluginName; });
    if (plugin == loaded.end())
      return createStringError("--plugin-option " + key + ": no plugin '" + pluginName +
                               "' is loaded");
    if (llvm::none_of(plugin->options, [&](const LoadedPlugin::Option &o) { return o.key == option; })) {
      std::vector<std::string> keys;
      for (const LoadedPlugin::Option &o : plugin->options)
        keys.push_back(o.key);
      return createStringError("--plugin-option " + key + ": plugin '" + pluginName +
                               "' has no option '" + option + "' (" +
                               (keys.empty() ? "it takes none" : "it takes " + join(keys, ", ")) +
                               ")");
    }
  }
  for (const LoadedPlugin &plugin : loaded)
    for (const LoadedPlugin::Option &option : plugin.options)
      options.pluginOptions.try_emplace(plugin.name + "." + option.key, option.defaultValue);
  for (const LoadedPlugin &plugin : loaded) {
    if (!plugin.addCodegenFlags)
      continue;
    CodegenFlags flags;
    plugin.addCodegenFlags(options, flags);
    auto bad = [&](const std::string &flag, StringRef why) {
      return createStringError("plugin '" + plugin.name + "' (" + plugin.path +
                               "): code-generator flag '" + flag + "' " + why);
    };
    for (const std::vector<std::string> *list : {&flags.llvm, &flags.ptxas})
      for (const std::string &flag : *list)
        if (flag.size() < 2 || flag.front() != '-' || flag.find('\0') != std::string::npos)
          return bad(flag, "is not a flag ('-' then a name, no NUL)");
    // ptxas's input, output and architecture are kiln's to choose.
    for (StringRef flag : flags.ptxas)
      if (flag == "-o" || flag.starts_with("--output-file") || flag.starts_with("--gpu-name") ||
          flag.starts_with("-arch"))
        return bad(flag.str(), "sets what kiln chooses (the output file or the GPU name)");
    options.llvmOptions.insert(options.llvmOptions.end(), flags.llvm.begin(), flags.llvm.end());
    options.ptxasOptions.insert(options.ptxasOptions.end(), flags.ptxas.begin(),
                                flags.ptxas.end());
  }
  return Error::success();
}

Error loadPlugin(StringRef path) { return PluginManager::get().load(path); }

} // namespace kiln
