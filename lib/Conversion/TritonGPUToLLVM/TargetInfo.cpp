//===- TargetInfo.cpp - the registries of the LLVM lowering ---------------===//
#include "kiln/Conversion/TritonGPUToLLVM/LoweringExtension.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>

namespace kiln {

TargetInfo::~TargetInfo() = default;
LoweringExtension::~LoweringExtension() = default;

mlir::LogicalResult TargetInfo::checkTensorDescArgument(mlir::Operation *func,
                                                        mlir::Type) const {
  return func->emitError() << "tensor descriptor arguments have no lowering on this target; "
                              "ttir.rewrite-tensor-descriptor-to-pointer replaces them";
}

mlir::LogicalResult TargetInfo::checkInlineAsmConstraints(mlir::Operation *op,
                                                          llvm::StringRef) const {
  return op->emitError() << "inline asm has no lowering on this target";
}

mlir::LogicalResult TargetInfo::lowerTensorDescArgument(mlir::Operation *func, mlir::Operation *,
                                                        unsigned, mlir::Type desc) const {
  return checkTensorDescArgument(func, desc);
}

namespace {

struct Extension {
  std::string kind, owner;
  std::shared_ptr<const LoweringExtension> extension;
};

struct Registry {
  std::mutex mutex;
  /// Per kind: how the kind's targets are spelled, and the factory.
  llvm::StringMap<std::pair<std::string, TargetInfoFactory>> targetInfos;
  std::vector<Extension> extensions;
};

Registry &registry() {
  static Registry r;
  return r;
}

} // namespace

bool registerTargetInfo(llvm::StringRef kind, llvm::StringRef spelling,
                        TargetInfoFactory factory) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return registry()
      .targetInfos.try_emplace(kind, std::make_pair(spelling.str(), std::move(factory)))
      .second;
}

void registerLoweringExtension(llvm::StringRef kind, llvm::StringRef owner,
                               std::shared_ptr<const LoweringExtension> extension) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  registry().extensions.push_back({kind.str(), owner.str(), std::move(extension)});
}

llvm::Expected<std::unique_ptr<TargetInfo>> createTargetInfo(llvm::StringRef text) {
  TargetInfoFactory factory;
  std::vector<std::string> kinds;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    for (const auto &entry : registry().targetInfos)
      kinds.push_back(entry.getValue().first);
    auto it = registry().targetInfos.find(text.split(':').first);
    if (it != registry().targetInfos.end())
      factory = it->second.second;
  }
  if (!factory) {
    llvm::sort(kinds);
    return llvm::createStringError("the LLVM lowering supports ttg.target = " +
                                   (kinds.empty() ? std::string("(none registered)")
                                                  : llvm::join(kinds, " or ")) +
                                   ", got \"" + text.str() + "\"");
  }
  return factory(text);
}

std::vector<const LoweringExtension *> loweringExtensions(llvm::StringRef target) {
  llvm::StringRef kind = target.split(':').first;
  std::lock_guard<std::mutex> lock(registry().mutex);
  std::vector<const LoweringExtension *> out;
  for (const Extension &e : registry().extensions)
    if (target.empty() || e.kind.empty() || e.kind == kind)
      out.push_back(e.extension.get());
  return out;
}

} // namespace kiln
