//===- Ops.h - hwx's ops, registered from several files ---------*- C++ -*-===//
#ifndef KILN_PLUGINS_HWX_OPS_H
#define KILN_PLUGINS_HWX_OPS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace kiln {
class OpRegistry;
} // namespace kiln

namespace hwx {

using Results = mlir::FailureOr<llvm::SmallVector<mlir::Value>>;

/// async_tasks, async_task and async_task_replica_id (Tasks.cpp).
void registerTaskOps(kiln::OpRegistry &registry);
/// Named barriers, the cluster rank and the clock (Ids.cpp).
void registerIdOps(kiln::OpRegistry &registry);
/// Transposed and sliced views of buffers (Views.cpp).
void registerViewOps(kiln::OpRegistry &registry);

} // namespace hwx

#endif
