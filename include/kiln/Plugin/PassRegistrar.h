//===- PassRegistrar.h - plugin passes for textual pipelines ----*- C++ -*-===//
#ifndef KILN_PLUGIN_PASSREGISTRAR_H
#define KILN_PLUGIN_PASSREGISTRAR_H

#include "mlir/Pass/Pass.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// Collects a plugin's passes. The loader checks them (argument namespaced by
/// the plugin, no clash with any registered pass) and only then registers
/// them with MLIR, so a bad plugin never half-registers.
class PassRegistrar {
public:
  using Factory = std::function<std::unique_ptr<mlir::Pass>()>;

  explicit PassRegistrar(std::string plugin) : plugin(std::move(plugin)) {}

  /// Registers the pass `create` makes; its getArgument() is the name in
  /// pipelines and must start with "<plugin>-".
  void add(Factory create) { factories.push_back(std::move(create)); }

  llvm::StringRef pluginName() const { return plugin; }
  const std::vector<Factory> &passes() const { return factories; }

private:
  std::string plugin;
  std::vector<Factory> factories;
};

} // namespace kiln

#endif
