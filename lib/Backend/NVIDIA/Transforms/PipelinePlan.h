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
struct ScratchContext;
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
  /// TMA: the loads of a group share one mbarrier per slot (see
  /// LoopPlan::barrierBytes).
  unsigned barrierGroup = 0;
  /// TMA in a cluster: the CTAs holding the same tile share its copy
  /// (ttng.async_tma_copy_global_to_local's `multicast`).
  bool multicast = false;
};

struct LoopPlan {
  mlir::scf::ForOp loop;
  /// Copies are issued numStages - 1 iterations ahead into rings of
  /// `slots` buffers: numStages, or one more where copies are shared in a
  /// cluster. A CTA may refill a shared slot only once every CTA of its
  /// group has freed it; with the extra slot, the slot an iteration fills
  /// is the one freed an iteration earlier, so the peers' frees have a
  /// whole iteration to arrive instead of stalling every refill.
  unsigned numStages = 0, slots = 0;
  llvm::SmallVector<StreamedLoad> loads;
  /// The TMA loads' groups, by the bytes each group's mbarrier expects a
  /// phase. Loads whose slots are first read one right after another (a
  /// GEMM's A and B before their wgmma) form a group: one expect and one
  /// wait a step for all of them, as Triton's pipeliner has it. A load
  /// first read later (attention's V, after Q @ K) has a group of its own,
  /// so that waiting for it does not hold up the dot before.
  llvm::SmallVector<int64_t> barrierBytes;
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
  bool hasMulticast() const;
};

/// The plan for `loop` with `numStages` stages, leaving the loads in
/// `excluded` synchronous, sharing copies in a cluster where `share`;
/// nothing when no load of it can stream.
std::optional<LoopPlan> planLoop(mlir::scf::ForOp loop, unsigned numStages,
                                 const AxisInfoAnalysis &axes,
                                 const llvm::SmallPtrSetImpl<mlir::Operation *> &excluded,
                                 bool share);

/// The plan for `loop` whose rings fit in `budget` bytes of shared memory:
/// without shared copies (and their extra slot), with fewer stages (down
/// to 2), then with the largest loads left synchronous (and again as many
/// stages as fit), as long as it does not.
std::optional<LoopPlan> planLoopWithin(mlir::scf::ForOp loop, unsigned numStages,
                                       const AxisInfoAnalysis &axes, int64_t budget);

/// How a TMA store in a loop stages its tile in shared memory. A tile of
/// four or more swizzle spans per row (a 128x256 f16 epilogue has four)
/// goes out a span at a time through a ring of two span buffers, so that
/// the loop keeps two spans of shared memory beside its operand rings
/// instead of the whole tile (room for one more stage). The pieces are
/// register slices of the value (tt.reshape, tt.trans, tt.split), so only
/// a layout whose registers alone select the span qualifies. Otherwise
/// one piece: the tile's own buffer.
struct TMAStoreStaging {
  ttg::MemDescType buffer; ///< the tile's buffer, or the ring of pieces
  unsigned pieces = 1;
};
/// Null `buffer` when the store has no TMA buffer (no nvmma_shared block).
TMAStoreStaging tmaStoreStaging(tt::DescriptorStoreOp store);

/// The shared memory a loop needs beside its operand rings: the buffers
/// of its TMA stores (one per block and buffer type, as ttgir-tma-lowering
/// shares them) and the largest scratch of an op in it (not a conversion
/// that only feeds TMA stores: their buffers are written from any layout).
int64_t sharedBesideRings(mlir::scf::ForOp loop, const ScratchContext &scratch);

/// The op that defines a dot's shared operand, through a transposed view.
mlir::Operation *viewedDef(mlir::Value operand);

/// Whether `op` is a view of a shared-memory buffer (its operand 0).
bool isBufferView(mlir::Operation *op);

} // namespace kiln::nvidia

#endif
