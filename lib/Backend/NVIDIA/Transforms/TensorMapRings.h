//===- TensorMapRings.h - where in-loop tensor maps are written -*- C++ -*-===//
#ifndef KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_TENSORMAPRINGS_H
#define KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_TENSORMAPRINGS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace kiln::nvidia {

/// The pipeliner marks each tt.make_tensor_descriptor of a loop it
/// pipelines with a number of its own, which the clones it makes of it
/// (prologue, prefetch, body) keep: together they are one map in flight
/// at a time per iteration, and share one ring.
inline constexpr llvm::StringLiteral kTensorMapRingAttr = "kiln.tensormap_ring";

/// For each tt.make_tensor_descriptor inside an scf.for (directly or
/// through scf.if), the global-scratch pointer its tensor map is written
/// to, stepped by a counter the loops and conditionals carry from before
/// the outermost scf.for around them. The clones of one marked
/// make that lie in different ops of that block (the prologue's, then the
/// pipelined loop's) write one ring of S maps (S = max(numStages, the
/// loops' tt.num_stages): a map is rewritten only S iterations after it
/// was made, when its last copy has completed), as Triton's do; every
/// other make in a loop writes a ring of S + 1 of its own. Descriptors
/// made outside loops, unmarked, are not in the map. A loop inside another
/// that hands a descriptor made in it out (to a TMA store after it, say)
/// is preceded by a wait for every TMA store.
///
/// First erases the descriptors the pipeliner's clones carry and nothing
/// reads (a clone of a tile's makes in the prefetch stage makes the maps
/// only the body uses, and the other way round), so that they make no
/// maps.
llvm::DenseMap<mlir::Operation *, mlir::Value> placeTensorMapsInLoops(mlir::ModuleOp module,
                                                                      unsigned numStages);

} // namespace kiln::nvidia

#endif
