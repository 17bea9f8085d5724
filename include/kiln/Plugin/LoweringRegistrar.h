//===- LoweringRegistrar.h - a plugin's part of the LLVM lowering -*- C++ -*-===//
//
// What a plugin's `registerLowering` hook receives: it adds lowering
// extensions (kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h) for its
// ops, for one target kind ("cuda") or every target. They join the
// registry when the plugin has loaded without error, named after it.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_LOWERINGREGISTRAR_H
#define KILN_PLUGIN_LOWERINGREGISTRAR_H

#include "kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

class LoweringRegistrar {
public:
  /// For targets of kind `targetKind` ("cuda", "hip"); empty: every target.
  void add(llvm::StringRef targetKind, std::shared_ptr<const LoweringExtension> extension) {
    extensions.emplace_back(targetKind.str(), std::move(extension));
  }

  const std::vector<std::pair<std::string, std::shared_ptr<const LoweringExtension>>> &
  all() const {
    return extensions;
  }

private:
  std::vector<std::pair<std::string, std::shared_ptr<const LoweringExtension>>> extensions;
};

} // namespace kiln

#endif
