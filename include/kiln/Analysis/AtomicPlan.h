//===- AtomicPlan.h - shared memory of atomics and histograms ---*- C++ -*-===//
//
// An atomic on a replicated element is done by one of its holders (the one
// whose free layout bits are all 0); when the old value is used, the other
// holders get it afterwards. How, and how much scratch shared memory that
// takes, is planned here from the layout engine, for both the allocator
// (kiln::scratchBytes) and the lowering, so the two cannot disagree. The
// same holds for tt.histogram's per-CTA bin array.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_ATOMICPLAN_H
#define KILN_ANALYSIS_ATOMICPLAN_H

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace kiln {

/// How the old values of a tt.atomic_rmw / tt.atomic_cas reach the threads
/// that hold a copy of an element but did not do its atomic.
enum class AtomicResultExchange {
  None,        ///< unused result, or no copies outside a thread's registers
  LaneShuffle, ///< copies only in lanes whose bases are 0: one shfl.idx per value
  SharedMemory ///< through scratch: the doer writes, a barrier, every holder reads
};

struct AtomicResultPlan {
  AtomicResultExchange exchange = AtomicResultExchange::None;
  /// SharedMemory: one slot per element (tensor) or one value (scalar).
  int64_t scratchBytes = 0;
};

/// The plan of `op` (tt.atomic_rmw, tt.atomic_cas, tt.atomic_load or
/// tt.atomic_poll, whose i1 results take a byte each; other ops: None). A
/// scalar atomic with a used result is done by thread 0 and broadcast
/// through shared memory, as in Triton.
AtomicResultPlan planAtomicResult(mlir::Operation *op);

/// tt.histogram's bins padded to one per lane at least (each lane owns the
/// bins congruent to its id modulo the warp size), as Triton pads them.
int64_t histogramPaddedBins(mlir::Operation *histogram, unsigned warpSize);
/// Its scratch: one i32 counter per padded bin.
int64_t histogramScratchBytes(mlir::Operation *histogram, unsigned warpSize);

} // namespace kiln

#endif
