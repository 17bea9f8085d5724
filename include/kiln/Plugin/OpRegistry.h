//===- OpRegistry.h - kernel-language ops from plugins ----------*- C++ -*-===//
//
// A kernel-language op is a name, a signature and a builder callback that
// emits IR through a KernelBuilder. Plugins add them (level 3); every
// frontend exposes them (KernelBuilder::call).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_PLUGIN_OPREGISTRY_H
#define KILN_PLUGIN_OPREGISTRY_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln {

class KernelBuilder;

/// How a kernel author passes one operand of an op from Python.
struct KernelOpOperand {
  /// A tensor (or scalar) operand named `name`: mathx's `{"x", "lo", "hi"}`.
  KernelOpOperand(const char *name) : name(name) {}
  KernelOpOperand(std::string name, std::string kind, std::string defaultJson = {})
      : name(std::move(name)), kind(std::move(kind)), defaultJson(std::move(defaultJson)) {}

  std::string name;
  /// "tensor": a tensor or scalar of the kernel (Python numbers become
  /// scalars); "tensors": a list of them, each its own SSA operand (at most
  /// one such operand per op; the builder tells them apart by count);
  /// "constexpr": a Python constant (bool, int, float, str, a tl.dtype as
  /// its name, or a list of these), given to the builder in `constants`
  /// and never an SSA value; "descriptor": a Triton tensor descriptor;
  /// otherwise kinds of the plugin's own values
  /// (OpRegistry::addValueKind), several separated by '|'
  /// ("buffer|barrier").
  std::string kind = "tensor";
  /// An optional operand's default, as JSON ("1", "[64, 64]", "true"):
  /// a constexpr's value, or for a tensor a number or bool the Python side
  /// passes as a scalar (C++ callers of KernelBuilder::call give every
  /// tensor). Empty: the operand is required.
  std::string defaultJson;
};

/// The type of one result as seen from Python, before kiln builds the op:
/// Python expressions over the operands by name (a tensor or plugin value
/// has `.shape`, `.dtype` and, for a plugin value, `.kind`; a constexpr
/// is its Python value; a dtype is a Triton dtype name).
struct KernelOpResult {
  /// "tensor", one of the plugin's value kinds, or an expression such as
  /// "buf.kind".
  std::string kind = "tensor";
  /// A tuple or list of ints: "buf.shape[1:]", "[num] + list(shape)";
  /// "()" for a scalar.
  std::string shape = "()";
  /// A dtype name or dtype: "'fp32'", "buf.dtype"; "None" for values
  /// without one (barriers).
  std::string dtype = "None";
};

/// Emits a kernel-language op at the builder's insertion point: its
/// operands (tensors and plugin values, in declaration order; constexprs
/// are not among them) and its constexprs by name. Returns its results, or
/// fails after emitting a diagnostic.
using KernelOpBuildFn = std::function<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
    KernelBuilder &, mlir::ValueRange operands, mlir::DictionaryAttr constants)>;

/// Replaces a scope (`with <plugin>.<op>(...):` in Python) with what it
/// means. `scope` is an `scf.execute_region` without results holding the
/// block's ops (its plugin calls already expanded), with the scope's
/// constexprs as its `kiln.constants` attribute; the builder must erase
/// it, or fail after emitting a diagnostic. Scopes are built outermost
/// first, so a scope may take the scopes nested in it apart itself.
using KernelScopeBuildFn =
    std::function<mlir::LogicalResult(KernelBuilder &, mlir::Operation *scope)>;

struct KernelOp {
  /// "<plugin>.<op>" for plugin ops.
  std::string name;
  /// Operands in order, e.g. {"x", "lo", "hi"} for three tensors.
  std::vector<KernelOpOperand> operands;
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
  /// Callable from `@triton.jit` kernels with operands of any kind and
  /// results described by `results` (numResults must match): the frontend
  /// encodes a call as `tt.call` of a declaration marked `kiln.kernel_op`
  /// (python/kiln/language), which the ttir stage expands.
  bool pythonCall = false;
  std::vector<KernelOpResult> results;
  /// Exactly one of the two: an op's builder, or a scope's (a pythonCall
  /// op without results, whose operands are all constexprs).
  KernelOpBuildFn build;
  KernelScopeBuildFn buildScope;
};

/// A kind of non-tensor value a plugin's ops make and take (a shared-memory
/// buffer, a barrier, a token); from Python it is an opaque value that can
/// be passed to functions and carried through loops.
struct ValueKind {
  /// "<plugin>.<kind>", the kind a Python identifier.
  std::string name;
  std::string summary;
  /// The pythonCall op `value[i]` calls (value first, index second); empty:
  /// values of this kind are not indexed.
  std::string indexOp;
};

class OpRegistry {
public:
  explicit OpRegistry(std::string owner = "core") : owner(std::move(owner)) {}

  /// Adds `op`. Errors (duplicate names, bad names, null builders) are
  /// collected and reported by whoever owns the registry.
  void add(KernelOp op);
  void addValueKind(ValueKind kind);

  const KernelOp *lookup(llvm::StringRef name) const;
  const std::vector<KernelOp> &all() const { return ops; }
  const std::vector<ValueKind> &valueKinds() const { return kinds; }
  llvm::StringRef ownerName() const { return owner; }

private:
  std::string owner;
  std::vector<KernelOp> ops;
  std::vector<ValueKind> kinds;
};

} // namespace kiln

#endif
