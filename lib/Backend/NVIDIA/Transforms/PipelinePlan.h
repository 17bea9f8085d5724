//===- PipelinePlan.h - what ttgir-pipeline does to a loop ------*- C++ -*-===//
//
// The plan of one dot loop: which of its loads stream into rings (cp.async
// for tt.load, TMA for tt.descriptor_load), the address computation they
// need ahead of time, and how its wgmma ops may stay in flight.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_PIPELINEPLAN_H
#define KILN_LIB_BACKEND_NVIDIA_TRANSFORMS_PIPELINEPLAN_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace kiln {
class AxisInfoAnalysis;
} // namespace kiln

namespace kiln::nvidia {

/// A load that feeds a dot and becomes asynchronous copies into a ring.
struct StreamedLoad {
  /// tt.load (cp.async copies) or tt.descriptor_load (TMA copies).
  mlir::Operation *load = nullptr;
  bool isTMA() const;
  /// cp.async: elements each thread copies at once.
  unsigned vec = 1;
  /// TMA: the bytes one copy delivers (what its mbarrier expects).
  int64_t bytes = 0;
  /// The load's value is read from its slot into registers (no dot reads
  /// the slot in place, nor a conversion to a dot operand layout).
  bool toRegisters = false;
  /// One slot (mutable) and the whole ring.
  ttg::MemDescType slotType, ringType;
  /// The ops the slot replaces: local_allocs (the dot reads the slot) or
  /// conversions to a dot operand layout (a local_load of the slot).
  llvm::SmallVector<mlir::Operation *> users;
  mlir::Value ring;
  /// TMA: one mbarrier per slot.
  mlir::Value barriers;
};

struct LoopPlan {
  mlir::scf::ForOp loop;
  unsigned numStages = 0;
  llvm::SmallVector<StreamedLoad> loads;
  /// The pure ops of the body the copies' addresses depend on, with the
  /// updates of the loop-carried values they read, in body order.
  llvm::SmallVector<mlir::Operation *> addressOps;
  /// The iteration arguments those ops read (the copies need them
  /// num_stages - 1 iterations ahead).
  llvm::SmallVector<unsigned> carried;
  /// Of those, the ones nothing but the copies' address computation needs:
  /// the new loop carries only their advanced value, in their own place.
  llvm::SmallDenseSet<unsigned> advancedOnly;
  /// wgmma ops that may leave one dot in flight (see the pass description).
  llvm::SmallDenseSet<mlir::Operation *> keepOneInFlight;
  /// wgmma ops whose result is waited for only in the next iteration, by
  /// the wait of an earlier dot there (attention's P @ V, waited for with
  /// the next Q @ K), and for each waiting dot the iteration arguments it
  /// also waits for.
  llvm::SmallDenseSet<mlir::Operation *> deferred;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<unsigned>> alsoWaitsFor;

  bool hasTMA() const;
  bool hasCpAsync() const;
};

/// The plan for `loop` with `numStages` stages, leaving the loads in
/// `excluded` synchronous; nothing when no load of it can stream.
std::optional<LoopPlan> planLoop(mlir::scf::ForOp loop, unsigned numStages,
                                 const AxisInfoAnalysis &axes,
                                 const llvm::SmallPtrSetImpl<mlir::Operation *> &excluded);

/// The plan for `loop` whose rings fit in `budget` bytes of shared memory:
/// with fewer stages (down to 2), then with the largest loads left
/// synchronous (and again as many stages as fit), as long as it does not.
std::optional<LoopPlan> planLoopWithin(mlir::scf::ForOp loop, unsigned numStages,
                                       const AxisInfoAnalysis &axes, int64_t budget);

/// The op that defines a dot's shared operand, through a transposed view.
mlir::Operation *viewedDef(mlir::Value operand);

} // namespace kiln::nvidia

#endif
