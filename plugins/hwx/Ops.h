//===- Ops.h - hwx's ops, registered from several files ---------*- C++ -*-===//
#ifndef KILN_PLUGINS_HWX_OPS_H
#define KILN_PLUGINS_HWX_OPS_H

#include "kiln/Plugin/OpRegistry.h"

#include "mlir/IR/Value.h"
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
/// Registers `decls` (HWX.cpp).
void addOps(kiln::OpRegistry &registry, llvm::ArrayRef<OpDecl> decls);

/// async_tasks, async_task and async_task_replica_id (Tasks.cpp).
void registerTaskOps(kiln::OpRegistry &registry);
/// Named barriers, the cluster rank, the thread index and the clock (Ids.cpp).
void registerIdOps(kiln::OpRegistry &registry);
/// Transposed and sliced views of buffers (Views.cpp).
void registerViewOps(kiln::OpRegistry &registry);

} // namespace hwx

#endif
