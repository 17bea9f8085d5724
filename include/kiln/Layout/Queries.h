//===- Queries.h - what lowerings ask of a layout ----------------*- C++ -*-===//
//
// The questions code generation asks about distributed and shared layouts,
// answered from their linear layouts only: which element a register holds,
// how wide a vector access can be, how a tensor moves between two layouts,
// and how reshapes and transposes act on a layout.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LAYOUT_QUERIES_H
#define KILN_LAYOUT_QUERIES_H

#include "kiln/Layout/LinearLayout.h"

namespace kiln::layout {

/// Whether `ll` has exactly the inputs register, lane, warp, block (in that
/// order) and the outputs dim0..dim<rank-1>.
bool isDistributed(const LinearLayout &ll);

/// Checks that a distributed layout matches the hardware it runs on: the
/// lane input is `warpSize` (32 on NVIDIA, 64 on AMD CDNA), the warp input
/// `numWarps`, the block input `numCTAs` (what the TTGIR verifier checks).
llvm::Error verifyDistributed(const LinearLayout &ll, unsigned warpSize, unsigned numWarps,
                              unsigned numCTAs);

/// One CTA's part of a layout over the CTAs of a cluster: the block input
/// left with size 1 and each output dimension shrunk by the coordinate bits
/// the block bases select, so that what remains is the tile one CTA holds
/// (in its own coordinates) and code that moves data inside a CTA can ignore
/// the cluster. Replicating block bits (zero bases) are dropped. Fails when a
/// block basis moves along two dimensions, is not a single coordinate bit,
/// or shares a bit with another input's basis: no CTA tile exists then.
llvm::Expected<LinearLayout> ctaTile(const LinearLayout &ll);

/// The coordinate bits, per output dimension, that the block bases of `ll`
/// select (zero for a layout within one CTA).
llvm::SmallVector<int32_t> blockCoordinateBits(const LinearLayout &ll);

/// The tensor coordinates (dim0, ...) of the element in register `reg` of
/// lane `lane` of warp `warp` of CTA `block` (of a distributed layout).
llvm::SmallVector<int32_t> elementCoords(const LinearLayout &ll, int32_t reg, int32_t lane,
                                         int32_t warp, int32_t block = 0);

/// The widest vector of `elemBits`-bit elements one thread can move in one
/// access along tensor dimension `dim` of a distributed layout: its
/// consecutive registers holding consecutive elements, at most 16 bytes.
unsigned registerVectorWidth(const LinearLayout &ll, unsigned dim, unsigned elemBits);

/// The same for copies between registers in `regs` and shared memory laid
/// out as `shared` (offset, block -> dims): consecutive registers that land
/// at consecutive offsets. 1 if `shared` does not hold every element of
/// `regs` (or is not a shared layout). Both must be for the same tensor.
unsigned sharedVectorWidth(const LinearLayout &regs, const LinearLayout &shared, unsigned elemBits);

/// The bits of input `in` whose basis is zero: flipping one gives another
/// copy of the same element (pure broadcast). A subset of the free bits
/// (getFreeVariableMask), which also count bits that repeat an earlier
/// basis; for these, a copy sits at the same position with the bits cleared.
uint64_t zeroBasisMask(const LinearLayout &ll, llvm::StringRef in);

/// How `ttg.convert_layout` moves a tensor between two distributed layouts,
/// cheapest first.
enum class ConversionKind {
  None,            ///< the layouts are the same
  RegisterPermute, ///< each thread only renames its registers
  WarpShuffle,     ///< data moves between lanes of a warp, never across warps
  SharedMemory,    ///< data moves across warps of a CTA
  CrossCTA,        ///< data moves across the CTAs of a cluster
};
llvm::StringRef toString(ConversionKind kind);

/// The part of the conversion src -> dst that moves data: C = src⁻¹ ∘ dst
/// (dst's hardware location -> src's location of the same element), with
/// the hardware dimensions that C leaves in place removed, slowest first
/// (block, then warp, lane, register). Its outputs are what moves.
llvm::Expected<LinearLayout> minimalConversion(const LinearLayout &src, const LinearLayout &dst);
llvm::Expected<ConversionKind> classifyConversion(const LinearLayout &src, const LinearLayout &dst);

/// The input dimension of a conversion scratch layout that numbers the
/// rounds of a conversion done in several passes through shared memory.
inline constexpr llvm::StringLiteral kRound = "round";

/// The shared-memory scratch through which `ttg.convert_layout` moves a
/// tensor between two distributed layouts: every element is written from
/// the source layout, then read in the destination layout.
struct ConversionScratch {
  /// (offset, round) -> dims, a bijection onto the tensor: the element
  /// offset inside the scratch, and the round in which the element passes
  /// through it (rounds reuse the scratch, one after the other).
  LinearLayout layout;
  /// The low offset bits one vector access moves (2^vectorBits elements),
  /// on both sides.
  unsigned vectorBits = 0;
  int64_t elementsPerRound() const { return layout.getInDimSize(kOffset); }
  int32_t numRounds() const { return layout.getInDimSize(kRound); }
};

/// The scratch layout of a conversion from `src` to `dst` (distributed
/// layouts of one tensor) for `elemBits`-bit elements:
/// - vectors: elements both layouts keep in registers of one thread move
///   together, up to 16 bytes per access;
/// - rounds: further elements both keep in registers are split over rounds,
///   so that the scratch holds only a part of the tensor at a time;
/// - banks: the offset bits that select a bank within a 128-byte line are an
///   XOR swizzle such that the lanes of one wavefront (the lanes whose
///   accesses the hardware serves together: 128 bytes' worth) reach distinct
///   banks, for the stores of the source layout and the loads of the
///   destination layout alike;
/// - the lane and warp part of every thread's offset never touches the
///   vector or round bits, so each register's place in its vector and round
///   is known at compile time.
llvm::Expected<ConversionScratch> conversionScratch(const LinearLayout &src, const LinearLayout &dst,
                                                    unsigned elemBits);

/// The layout of `tt.reshape` of a tensor in layout `ll` to `shape`: the
/// elements keep their hardware locations, in row-major order.
LinearLayout reshapeLayout(const LinearLayout &ll, llvm::ArrayRef<int64_t> shape);
/// The layout of `tt.trans` with `order`: result dimension i is source
/// dimension order[i].
LinearLayout transposeLayout(const LinearLayout &ll, llvm::ArrayRef<unsigned> order);

/// How the hardware bits of a distributed layout (one CTA) act on tensor
/// dimension `axis`, what a reduction or scan along it needs to know. Each
/// mask is over the bits of that input's index.
struct AxisBits {
  /// Bits whose basis moves along `axis` only and is independent of the
  /// bases before it (register, then lane, then warp order): flipping one
  /// reaches new elements of the same row.
  uint64_t registerAxis = 0, laneAxis = 0, warpAxis = 0;
  /// Bits holding copies: their basis is a combination of earlier ones
  /// (zero bases included), so flipping one reaches elements held already.
  uint64_t registerCopies = 0, laneCopies = 0, warpCopies = 0;
};
/// An error when a basis that is not a copy moves along `axis` and another
/// dimension at once (the reduction and scan lowerings do not handle
/// those), or when the layout spans several CTAs.
llvm::Expected<AxisBits> axisBits(const LinearLayout &ll, unsigned axis);

/// The input of warpLocalGather's map that takes the index value.
inline constexpr llvm::StringLiteral kGatherIndex = "index";

/// How `tt.gather` along `axis` can read its source with warp shuffles:
/// a map from a result element's hardware location (register, lane, warp,
/// block of `idx`, the index tensor's layout) and its index value (input
/// `index`, the source's extent along `axis`) to the location in the
/// reader's own warp that holds the named source element (outputs
/// register, lane of `src`). Where the source holds an element twice, the
/// map prefers another lane to another register (a shuffle reads any lane;
/// each candidate register costs a shuffle). std::nullopt when some index
/// can name an element that the reader's warp does not hold. Both layouts
/// are one CTA's tiles.
std::optional<LinearLayout> warpLocalGather(const LinearLayout &src, const LinearLayout &idx,
                                            unsigned axis);

} // namespace kiln::layout

#endif // KILN_LAYOUT_QUERIES_H
