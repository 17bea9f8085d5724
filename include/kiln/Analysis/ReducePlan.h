//===- ReducePlan.h - how tt.reduce and tt.scan move data -------*- C++ -*-===//
//
// The data movement of a reduction or scan along one axis, planned from the
// operand's linear layout: which registers a thread combines, which lanes it
// exchanges with by shuffles, and, when warps hold parts of the same row,
// what goes through shared memory and where. The lowering follows the plan
// and the shared-memory allocation sizes the op's scratch from it, so the
// two cannot disagree.
//
// Rows: the elements of the result (a reduction) or the off-axis positions
// (a scan), numbered row-major over the shape without the axis. The scratch
// holds, per operand, one slot per (row, warp position along the axis
// [, block]) at index slot * rows + row; each operand's part starts on a
// 16-byte boundary.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_REDUCEPLAN_H
#define KILN_ANALYSIS_REDUCEPLAN_H

#include "kiln/Layout/LinearLayout.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace kiln {

/// Shared by both plans: the layout and the copies it holds.
struct AxisPlanBase {
  unsigned axis = 0;
  /// The operand's shape and the row-major strides of its rows (the shape
  /// without the axis); rows = the number of rows.
  llvm::SmallVector<int64_t> shape, rowStrides;
  int64_t rows = 1;
  /// Lanes and warps holding copies of other threads' data: of each set of
  /// copies only the thread with these bits 0 writes to shared memory.
  uint64_t laneCopies = 0, warpCopies = 0;
  /// The warp-id bits along the axis, by increasing axis coordinate; a
  /// warp's position along the axis is these bits gathered in this order.
  llvm::SmallVector<unsigned> warpAxisBits;
  /// Bytes of each operand's element in shared memory.
  llvm::SmallVector<unsigned> elementBytes;

  unsigned numWarpPositions() const { return 1u << warpAxisBits.size(); }
  /// The byte offset of each operand's part of the scratch, and the total.
  llvm::SmallVector<int64_t> operandOffsets(int64_t slotsPerRow) const;
  int64_t scratchBytes(int64_t slotsPerRow) const;
};

struct ReducePlan : AxisPlanBase {
  /// Per result register (one, for a scalar result), the operand registers
  /// combined into it within the thread, in register order, each element
  /// once.
  llvm::SmallVector<llvm::SmallVector<unsigned>> groups;
  /// Lane-id bits to combine over with butterfly shuffles, ascending.
  llvm::SmallVector<unsigned> laneAxisBits;
  /// Across warps: each thread reads `loadsPerResult` consecutive warp
  /// positions' partials per result and finishes with butterfly shuffles
  /// over `exchangeLaneBits` (lanes holding copies of the same results),
  /// lane group g taking positions [g * loadsPerResult, ...).
  llvm::SmallVector<unsigned> exchangeLaneBits;
  unsigned loadsPerResult = 1;

  bool crossWarp() const { return !warpAxisBits.empty(); }
  int64_t scratchBytes() const {
    return crossWarp() ? AxisPlanBase::scratchBytes(numWarpPositions()) : 0;
  }
};

struct ScanPlan : AxisPlanBase {
  bool reverse = false;
  /// Along the axis a thread holds `numBlocks` blocks of `chunk`
  /// consecutive elements, lanes and warps tiling the chunks in between:
  /// coordinate = c + chunk * (lane position + lanes * (warp position +
  /// warps * block)).
  unsigned chunk = 1, numBlocks = 1;
  /// The lane-id bits along the axis are [laneShift, laneShift + laneBits).
  unsigned laneShift = 0, laneBits = 0;
  /// Per row a thread holds, its registers by axis coordinate:
  /// groups[g][block * chunk + c].
  llvm::SmallVector<llvm::SmallVector<unsigned>> groups;
  /// Per register, the register that first holds its element (itself
  /// unless it is a copy): copies take that register's result.
  llvm::SmallVector<unsigned> canonical;

  bool crossWarp() const { return !warpAxisBits.empty(); }
  int64_t slotsPerRow() const { return int64_t(numBlocks) * numWarpPositions(); }
  int64_t scratchBytes() const {
    return crossWarp() ? AxisPlanBase::scratchBytes(slotsPerRow()) : 0;
  }
};

/// The plans for a tt.reduce / tt.scan with ttg layouts; an error saying
/// why when the layout is one the lowering does not handle.
llvm::Expected<ReducePlan> planReduce(mlir::Operation *reduceOp, unsigned warpSize);
llvm::Expected<ScanPlan> planScan(mlir::Operation *scanOp);

} // namespace kiln

#endif
