//===- TensorMapRings.h - where in-loop tensor maps are written -*- C++ -*-===//
#ifndef KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_TENSORMAPRINGS_H
#define KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_TENSORMAPRINGS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace kiln::nvidia {

/// For each tt.make_tensor_descriptor inside an scf.for (directly or
/// through scf.if), the global-scratch pointer its tensor map is written
/// to: a slot of a ring of max(numStages, the loops' tt.num_stages) + 1
/// maps allocated before the outermost loop, stepped by a counter the
/// loops and conditionals carry. Descriptors made outside loops are not in
/// the map.
llvm::DenseMap<mlir::Operation *, mlir::Value> placeTensorMapsInLoops(mlir::ModuleOp module,
                                                                      unsigned numStages);

} // namespace kiln::nvidia

#endif
