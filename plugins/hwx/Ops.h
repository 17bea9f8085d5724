//===- Ops.h - hwx's ops, registered from several files ---------*- C++ -*-===//
#ifndef KILN_PLUGINS_HWX_OPS_H
#define KILN_PLUGINS_HWX_OPS_H

#include "kiln/Pipeline/PipelineEditor.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PassRegistrar.h"

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace hwx {

using Results = mlir::FailureOr<llvm::SmallVector<mlir::Value>>;

/// One pythonCall op of hwx: an op (build) or a scope (buildScope).
struct OpDecl {
  const char *name;
  std::vector<kiln::KernelOpOperand> operands;
  std::vector<kiln::KernelOpResult> results;
  const char *signature, *summary;
  kiln::KernelOpBuildFn build;
  kiln::KernelScopeBuildFn buildScope = nullptr;
};
// Operand checks shared by the op files (HWX.cpp); each reports a located
// error and returns null (failure) on a bad operand.
/// `value` as an i32 scalar (Python ints are i32 already; i64 is narrowed).
mlir::Value scalarI32(kiln::KernelBuilder &kb, llvm::StringRef op, llvm::StringRef what,
                      mlir::Value value);
/// A predicate operand: an i1 scalar, or an integer scalar compared with 0.
mlir::Value predicate(kiln::KernelBuilder &kb, llvm::StringRef op, mlir::Value value);
/// The offsets of a TMA copy: one i32 scalar per dimension of the block.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
coordinates(kiln::KernelBuilder &kb, llvm::StringRef op, mlir::Value desc,
            mlir::ValueRange offsets);

/// The `pendings` constexpr of a wait: how many operations may still run.
mlir::FailureOr<int64_t> pendingsOf(kiln::KernelBuilder &kb, llvm::StringRef op,
                                    mlir::DictionaryAttr constants);
/// The layout of an hwx buffer of `shape`: the swizzle wgmma and TMA read
/// where it has rows to swizzle, else unswizzled.
mlir::Attribute bufferEncoding(llvm::ArrayRef<int64_t> shape, mlir::Type element);

/// Marks an allocation whose swizzle hwx chose, for
/// hwx.infer-buffer-layouts to set from its TMA copies (Layouts.cpp).
inline constexpr llvm::StringLiteral kInferredLayoutAttr = "hwx.inferred_layout";
/// hwx.infer-buffer-layouts, for kiln-opt and after ttir.expand-kernel-ops.
void registerLayoutPasses(kiln::PassRegistrar &registrar);
void extendPipelineWithLayouts(kiln::PipelineEditor &editor);

/// Marks the kernel as one that tells the CTAs of a cluster apart, so that
/// with num_ctas > 1 each of them runs it alone (HWX.cpp).
void markClusterAware(kiln::KernelBuilder &kb);

/// Registers `decls` (HWX.cpp).
void addOps(kiln::OpRegistry &registry, llvm::ArrayRef<OpDecl> decls);

/// async_tasks, async_task and async_task_replica_id (Tasks.cpp).
void registerTaskOps(kiln::OpRegistry &registry);
/// Named barriers, the cluster rank, the thread index and the clock (Ids.cpp).
void registerIdOps(kiln::OpRegistry &registry);
/// Transposed, sliced and reinterpreted views of buffers (Views.cpp).
void registerViewOps(kiln::OpRegistry &registry);
/// cp.async copies and TMA prefetches (Copies.cpp).
void registerCopyOps(kiln::OpRegistry &registry);

} // namespace hwx

#endif
