//===- PluginManager.cpp - loading and tracking plugins -------------------===//
#include "kiln/Plugin/PluginManager.h"

#include "kiln/Frontend/OpRegistry.h"
#include "kiln/Plugin/PassRegistrar.h"
#include "kiln/Registration.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>

using namespace llvm;

namespace kiln {

namespace {

/// Builds the error of a plugin whose name may not be known yet.
struct PluginErrors {
  std::string path;
  std::string name;
  Error operator()(const Twine &cause) const {
    std::string who = name.empty() ? "plugin file '" + path + "'"
                                   : "plugin '" + name + "' (" + path + ")";
    return createStringError(inconvertibleErrorCode(), who + ": " + cause);
  }
};

// No '-': pass arguments are "<plugin>-<name>", so a '-' in plugin names
// would let plugin "a" claim the namespace of plugin "a-b".
bool isValidName(StringRef name) {
  return !name.empty() && isLower(name.front()) &&
         all_of(name, [](char c) { return isLower(c) || isDigit(c) || c == '_'; });
}

/// A callback of `info`, or null when the plugin's struct is too old to
/// have it (the struct grows only at its end).
#define KILN_CALLBACK(info, member)                                            \
  (offsetof(PluginInfo, member) + sizeof(info->member) <= info->structSize      \
       ? info->member                                                          \
       : nullptr)

} // namespace

PluginManager &PluginManager::get() {
  static PluginManager manager;
  return manager;
}

// kiln's own passes are registered first so that no plugin pass can take
// one of their names.
PluginManager::PluginManager() { registerKilnPasses(); }

OpRegistry &PluginManager::ops() {
  static OpRegistry registry("plugins");
  return registry;
}

void PluginManager::appendDialects(mlir::DialectRegistry &registry) const {
  dialects.appendTo(registry);
}

Expected<std::string> LoadedPlugin::fileHash() const {
  if (!hash.empty())
    return hash;
  ErrorOr<std::unique_ptr<MemoryBuffer>> file = MemoryBuffer::getFile(realPath);
  if (!file)
    return createStringError(file.getError(), "plugin '" + name + "' (" + path +
                                                  "): cannot read the file to hash it: " +
                                                  file.getError().message());
  hash = toHex(SHA256::hash(arrayRefFromStringRef((*file)->getBuffer())), /*LowerCase=*/true);
  return hash;
}

Expected<std::string> PluginManager::fingerprint() const {
  std::string text;
  for (const LoadedPlugin &plugin : loaded) {
    Expected<std::string> hash = plugin.fileHash();
    if (!hash)
      return hash.takeError();
    text += plugin.name + " " + plugin.version + " " + *hash + "\n";
  }
  return text;
}

Error PluginManager::load(StringRef path) {
  PluginErrors fail{path.str(), ""};
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

  void *handle = ::dlopen(real.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(Twine("cannot load it as a shared library: ") + ::dlerror());

  // Everything the plugin contributes is collected here and committed to
  // kiln's registries only when all of it checks out. A rejected library is
  // left mapped, never closed: its static initialisers and the pass type ids
  // its factories created may be referenced from MLIR's global tables.
  return [&]() -> Error {
    using EntryFn = const PluginInfo *(*)();
    auto entry = reinterpret_cast<EntryFn>(::dlsym(handle, KILN_PLUGIN_ENTRY_POINT));
    if (!entry)
      return fail("no entry point '" KILN_PLUGIN_ENTRY_POINT
                  "' (is it a kiln plugin? define one with KILN_PLUGIN)");
    const PluginInfo *info = entry();
    if (!info)
      return fail(KILN_PLUGIN_ENTRY_POINT "() returned null");
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
    if (!info->name)
      return fail("the plugin name is null");
    if (!isValidName(info->name))
      return fail("invalid plugin name '" + Twine(info->name) +
                  "' (use lower-case letters, digits and '_', starting with a letter)");
    fail.name = info->name;
    if (!info->version || !*info->version)
      return fail("the plugin version is null or empty");
    if (!info->hostAbi)
      return fail("the host ABI string is null");
    if (StringRef(info->hostAbi) != KILN_HOST_ABI)
      return fail("built against '" + Twine(info->hostAbi) + "', but this kiln is '" +
                  KILN_HOST_ABI + "'; rebuild the plugin against this kiln");
    for (const LoadedPlugin &plugin : loaded)
      if (plugin.name == info->name)
        return fail("a plugin named '" + plugin.name + "' is already loaded from " +
                    plugin.path);

    LoadedPlugin record;
    record.name = info->name;
    record.version = info->version;
    record.path = path.str();
    record.realPath = real.str().str();

    // Dialects: no namespace may clash with the host's or another plugin's.
    mlir::DialectRegistry newDialects;
    if (auto hook = KILN_CALLBACK(info, registerDialects)) {
      hook(newDialects);
      mlir::DialectRegistry host;
      registerKilnDialects(host);
      StringSet<> taken;
      for (StringRef name : host.getDialectNames())
        taken.insert(name);
      for (StringRef name : dialects.getDialectNames())
        taken.insert(name);
      // Every registry starts out holding the builtin dialect; that one is
      // not the plugin's.
      mlir::DialectRegistry fresh;
      StringSet<> preset;
      for (StringRef name : fresh.getDialectNames())
        preset.insert(name);
      for (StringRef name : newDialects.getDialectNames()) {
        if (preset.contains(name))
          continue;
        if (taken.contains(name))
          return fail("dialect '" + name + "' is already registered");
        record.dialects.push_back(name.str());
      }
    }

    // Passes for textual pipelines.
    PassRegistrar registrar(record.name);
    if (auto hook = KILN_CALLBACK(info, registerPasses)) {
      hook(registrar);
      StringSet<> seen;
      for (const PassRegistrar::Factory &create : registrar.passes()) {
        std::unique_ptr<mlir::Pass> pass = create ? create() : nullptr;
        if (!pass)
          return fail("a registered pass factory returned no pass");
        StringRef arg = pass->getArgument();
        if (!arg.starts_with(record.name + "-"))
          return fail("pass argument '" + arg + "' must start with '" + record.name + "-'");
        if (mlir::PassInfo::lookup(arg) || mlir::PassPipelineInfo::lookup(arg) ||
            !seen.insert(arg).second)
          return fail("a pass named '" + arg + "' is already registered");
        record.passes.push_back(arg.str());
      }
    }

    // Pipeline edits: well-formed, and applicable on every backend.
    std::vector<PipelineEdit> newEdits;
    if (auto hook = KILN_CALLBACK(info, extendPipeline)) {
      PipelineEditor editor(record.name, record.path, newEdits);
      hook(editor);
      for (const PipelineEdit &edit : newEdits)
        if (Error error = validateEdit(edit))
          return error;
      std::vector<PipelineEdit> combined = allEdits;
      combined.insert(combined.end(), newEdits.begin(), newEdits.end());
      // One target per backend, and every target an edit is restricted to.
      std::vector<Target> targets = representativeTargets();
      for (const PipelineEdit &edit : combined)
        if (!edit.scope.target.empty())
          targets.push_back(cantFail(Target::parse(edit.scope.target)));
      for (const Target &target : targets)
        if (Expected<Pipeline> pipeline = buildPipeline(CompileOptions::forTarget(target),
                                                        combined);
            !pipeline)
          return pipeline.takeError();
      record.numEdits = newEdits.size();
    }

    // Kernel-language ops.
    OpRegistry newOps(record.name);
    if (auto hook = KILN_CALLBACK(info, registerOps)) {
      hook(newOps);
      StringSet<> seen;
      for (const KernelOp &op : newOps.all()) {
        if (!StringRef(op.name).starts_with(record.name + ".") ||
            op.name.size() == record.name.size() + 1)
          return fail("op name '" + op.name + "' must be '" + record.name + ".<name>'");
        if (!op.build)
          return fail("op '" + op.name + "' has no builder");
        if (ops().lookup(op.name) || !seen.insert(op.name).second)
          return fail("an op named '" + op.name + "' is already registered");
        record.ops.push_back(op.name);
      }
    }

    // Everything checked out: commit.
    newDialects.appendTo(dialects);
    for (const PassRegistrar::Factory &create : registrar.passes())
      mlir::registerPass(create);
    allEdits.insert(allEdits.end(), std::make_move_iterator(newEdits.begin()),
                    std::make_move_iterator(newEdits.end()));
    for (const KernelOp &op : newOps.all())
      ops().add(op);
    loaded.push_back(std::move(record));
    return Error::success();
  }();
}

Error PluginManager::loadList(StringRef paths) {
  SmallVector<StringRef> entries;
  paths.split(entries, ':', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    if (!sys::fs::is_directory(entry)) {
      if (Error error = load(entry))
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
      if (Error error = load(file))
        return error;
  }
  return Error::success();
}

Error PluginManager::loadFromEnvironment() {
  const char *paths = std::getenv("TRITON_PLUGIN_PATHS");
  if (!paths)
    return Error::success();
  if (Error error = loadList(paths))
    return createStringError(inconvertibleErrorCode(),
                             "TRITON_PLUGIN_PATHS: " + toString(std::move(error)));
  return Error::success();
}

Error loadPlugin(StringRef path) { return PluginManager::get().load(path); }

} // namespace kiln
