//===- OpRegistry.h - kernel-language ops from plugins ----------*- C++ -*-===//
//
// A kernel-language op is a name, a signature and a builder callback that
// emits IR through a KernelBuilder. Plugins add them (level 3); every
// frontend exposes them (KernelBuilder::call).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_OPREGISTRY_H
#define KILN_PLUGIN_OPREGISTRY_H

#include "mlir/IR/TypeRange.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln {

class KernelBuilder;

struct KernelOp {
  /// "<plugin>.<op>" for plugin ops.
  std::string name;
  /// Operand names, one per operand, e.g. {"x", "lo", "hi"}.
  std::vector<std::string> operands;
  unsigned numResults = 1;
  /// One line for listings and errors, e.g. "(x: tensor<f32>) -> tensor<f32>".
  std::string signature;
  std::string summary;
  /// Elementwise over operands that broadcast to one shape (scalars
  /// included), one result of that shape: such an op can be called from a
  /// `@triton.jit` kernel (`from kiln.language import <plugin>`), which
  /// encodes it as `tt.extern_elementwise` of library "kiln" for the ttir
  /// stage to expand.
  bool elementwise = false;
  /// An elementwise op's result element type, as Triton spells dtypes
  /// ("int1", "fp32", ...); empty: that of its operands.
  std::string resultElement;
  /// Emits the op at the builder's insertion point; returns its results or
  /// fails after emitting a diagnostic.
  std::function<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(KernelBuilder &,
                                                                 mlir::ValueRange)>
      build;
};

class OpRegistry {
public:
  explicit OpRegistry(std::string owner = "core") : owner(std::move(owner)) {}

  /// Adds `op`. Errors (duplicate names, bad names, null builders) are
  /// collected and reported by whoever owns the registry.
  void add(KernelOp op);

  const KernelOp *lookup(llvm::StringRef name) const;
  const std::vector<KernelOp> &all() const { return ops; }
  llvm::StringRef ownerName() const { return owner; }

private:
  std::string owner;
  std::vector<KernelOp> ops;
};

} // namespace kiln

#endif
