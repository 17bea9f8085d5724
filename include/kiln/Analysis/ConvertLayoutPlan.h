//===- ConvertLayoutPlan.h - how convert_layout and gather move data -*- C++ -*-===//
//
// The one place that decides how a `ttg.convert_layout` (and the exchange
// inside `tt.gather`) moves data between threads, answered from the layout
// engine. The lowering follows the plan and `kiln::scratchBytes` sizes the
// scratch from the same plan, so the two cannot disagree.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_CONVERTLAYOUTPLAN_H
#define KILN_ANALYSIS_CONVERTLAYOUTPLAN_H

#include "kiln/Layout/Queries.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace kiln {

enum class ConversionPath {
  None,         ///< same registers
  Registers,    ///< each thread renames its registers (or copies them)
  Shuffle,      ///< one warp shuffle per destination register
  SharedMemory, ///< rounds of store / barrier / load through scratch
  /// Elements change CTA in a cluster: each CTA stores its source tile in
  /// its scratch (row-major), a cluster barrier, each thread loads its
  /// elements from the scratch of a CTA that holds them (distributed shared
  /// memory), a cluster barrier.
  Cluster,
};

struct ConversionPlan {
  ConversionPath path = ConversionPath::None;
  /// dst location (register, lane, warp, block) -> the src location that
  /// holds the same element (register bases of src before lane bases).
  layout::LinearLayout dstToSrc;
  /// The scratch of the SharedMemory path.
  std::optional<layout::ConversionScratch> scratch;
  /// Bits each element takes in shared memory (pointers 64, i1 8).
  unsigned elemBits = 0;
  /// The Cluster path's elements per CTA scratch: the source tile's.
  int64_t clusterTileElements = 0;
  int64_t scratchBytes() const;
};

/// Bits an element of `type` takes in shared memory.
unsigned sharedElementBits(mlir::Type type);

/// The cheapest way to move a tensor from `src` to `dst`. Shuffles are used
/// when only lanes move and no destination register's source register
/// depends on the lane (a permutation or broadcast across lanes per
/// register); conversions that mix lanes and registers go through shared
/// memory.
llvm::Expected<ConversionPlan> planConversion(const layout::LinearLayout &src,
                                              const layout::LinearLayout &dst, unsigned elemBits);
llvm::Expected<ConversionPlan> planConversion(mlir::RankedTensorType src,
                                              mlir::RankedTensorType dst);

/// The row-major layout (offset -> dims, last dimension fastest) in which
/// `tt.gather` keeps its source tensor in scratch.
layout::LinearLayout gatherScratchLayout(llvm::ArrayRef<int64_t> shape);

/// How `tt.gather` reads its source. When every element a warp's indices
/// can name lies in that warp (layout::warpLocalGather) and a result
/// register has at most kMaxGatherShuffles source registers to choose
/// from, each result register takes one warp shuffle per candidate source
/// register and no scratch; otherwise the source goes through shared memory
/// (gatherScratchLayout) and each result register is one load.
struct GatherPlan {
  /// The warp-local map, when the shuffles are used.
  std::optional<layout::LinearLayout> shuffles;
  /// The source registers each result register chooses from, as a base
  /// register (the map at that register, thread 0, index 0) XOR any
  /// combination of these.
  llvm::SmallVector<int32_t> candidateBits;
  int64_t scratchBytes = 0;
};
inline constexpr unsigned kMaxGatherShuffles = 8;
GatherPlan planGather(mlir::RankedTensorType src, mlir::RankedTensorType indices, unsigned axis);

} // namespace kiln

#endif
