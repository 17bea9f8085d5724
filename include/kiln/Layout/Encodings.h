//===- Encodings.h - TritonGPU encodings as linear layouts -------*- C++ -*-===//
//
// The layout encodings of TritonGPU as plain parameter structs, and their
// linear layouts for a given tensor shape, with Triton 3.6's bases. The MLIR
// attributes call these; nothing here depends on MLIR.
//
// A distributed layout has the inputs register, lane, warp, block (always
// all four, in that order) and the outputs dim0..dim<rank-1>; a shared
// layout has offset, block. Every function checks its parameters and
// returns a one-line error for ones that do not describe a layout.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LAYOUT_ENCODINGS_H
#define KILN_LAYOUT_ENCODINGS_H

#include "kiln/Layout/LinearLayout.h"

namespace kiln::layout {

/// How a tensor is split over the CTAs of a cluster: the `block` bases, in
/// tensor coordinates (Triton 3.6 prints them as `CGALayout = [...]`).
/// Empty: a single CTA.
using CGABases = std::vector<LinearLayout::Basis>;

/// The CGA layout of Triton 3.5's CTAsPerCGA / CTASplitNum / CTAOrder: the
/// tensor is split CTASplitNum[d] ways along d, and the CTAsPerCGA[d] /
/// CTASplitNum[d] CTAs of each split hold the same data.
llvm::Expected<CGABases> cgaBasesFromSplit(llvm::ArrayRef<unsigned> ctasPerCGA,
                                           llvm::ArrayRef<unsigned> ctaSplitNum,
                                           llvm::ArrayRef<unsigned> ctaOrder);

/// `#ttg.blocked`: each thread holds a sizePerThread tile, the lanes of a
/// warp tile those by threadsPerWarp, the warps by warpsPerCTA, each laid
/// out fastest dimension first (`order`).
struct BlockedEncoding {
  llvm::SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  CGABases cgaLayout;
};

/// `#ttg.dot_op<{opIdx, parent = #ttg.blocked}>`: operand A (M x K) or B
/// (K x N) of a `tt.dot` computed with scalar FMAs, whose result has the
/// blocked layout `parent`. Each thread holds the whole K extent of its rows
/// (columns); lanes and warps that the parent spreads along N (for A) or M
/// (for B) hold the same elements (Triton's fmaDotToLinearLayout).
struct BlockedDotOperandEncoding {
  unsigned opIdx = 0;
  BlockedEncoding parent;
};

/// `#ttg.swizzled_shared`: rows of the tensor's two fastest dimensions
/// (order[0] contiguous) with groups of `vec` elements XOR-swizzled by
/// (row / perPhase) % maxPhase.
struct SwizzledSharedEncoding {
  unsigned vec = 1, perPhase = 1, maxPhase = 1;
  llvm::SmallVector<unsigned> order;
  CGABases cgaLayout;
};

/// The distributed layout of a blocked encoding fitted to `shape`: a larger
/// tensor repeats the CTA tile in extra registers, a smaller one gets zero
/// bases (broadcast), the largest ones first (Triton's
/// combineCtaCgaWithShape).
llvm::Expected<LinearLayout> toLinearLayout(const BlockedEncoding &enc,
                                            llvm::ArrayRef<int64_t> shape);

llvm::Expected<LinearLayout> toLinearLayout(const BlockedDotOperandEncoding &enc,
                                            llvm::ArrayRef<int64_t> shape);

/// The shared layout (offset, block -> dims) of a swizzled encoding.
llvm::Expected<LinearLayout> toLinearLayout(const SwizzledSharedEncoding &enc,
                                            llvm::ArrayRef<int64_t> shape);

/// `#ttg.slice<{dim, parent}>`: `parent` is the parent encoding's layout for
/// sliceParentShape(shape, dim); dimension `dim` is dropped, the ones above
/// it renumbered, and registers left holding copies are removed.
llvm::Expected<LinearLayout> sliceLayout(const LinearLayout &parent, unsigned dim);
/// `shape` with a 1 inserted at `dim`: the shape the slice's parent is for.
llvm::SmallVector<int64_t> sliceParentShape(llvm::ArrayRef<int64_t> shape, unsigned dim);

/// The identity over `inDim` laid out over `shape` (powers of two),
/// order[0] fastest: the outputs are in that order (minor first), not
/// dim0, dim1, ....
LinearLayout identityStandardND(llvm::StringRef inDim, llvm::ArrayRef<unsigned> shape,
                                llvm::ArrayRef<unsigned> order);

/// The CGA layout of operand `opIdx` (0: A, 1: B) of a product whose result
/// has CGA layout `result`: the operand follows the result's split along the
/// dimension they share (M for A, N for B) and is held whole along K, so the
/// CTAs a result is split over along the other dimension hold copies.
CGABases operandCGA(const CGABases &result, unsigned opIdx);

/// The part of a tensor of `shape` one CTA holds under `cga` (fitted to
/// `shape`): what a layout for one CTA must cover.
llvm::Expected<llvm::SmallVector<int64_t>> ctaTileShape(const CGABases &cga,
                                                       llvm::ArrayRef<int64_t> shape);

/// Fits a layout for one CTA (register/lane/warp or offset inputs) and a CGA
/// to `shape`, adds the `block` input and puts the outputs in dim0.. order.
/// The building block for every encoding, MMA layouts included.
llvm::Expected<LinearLayout> combineCtaCgaWithShape(const LinearLayout &ctaLayout,
                                                    const CGABases &cga,
                                                    llvm::ArrayRef<int64_t> shape);


/// `#ttg.nvidia_mma`: the accumulator of NVIDIA's tensor-core instructions.
/// Version 2 (mma.sync, sm_80): instrShape [16, 8] (a leading 1 per batch
/// dimension) is one warp's m16n8 fragment. Version 3 (wgmma, sm_90):
/// instrShape [16, N, K] is one warp's 16 rows of a warp group's 64xN tile,
/// rank 2 only. Warps tile the fragment warpsPerCTA times.
struct NvidiaMmaEncoding {
  unsigned versionMajor = 2, versionMinor = 0;
  llvm::SmallVector<unsigned> warpsPerCTA, instrShape;
  CGABases cgaLayout;
};

/// `#ttg.dot_op<{opIdx, parent = #ttg.nvidia_mma, kWidth}>`: operand A
/// (opIdx 0, M x K) or B (opIdx 1, K x N) of a tensor-core product held in
/// registers; each thread holds kWidth consecutive elements along K. On
/// version 3 only A can live in registers (wgmma reads B from shared memory).
struct NvidiaDotOperandEncoding {
  unsigned opIdx = 0, kWidth = 0;
  NvidiaMmaEncoding parent;
};

/// `#ttg.nvmma_shared`: the 32/64/128-byte swizzled shared-memory layout that
/// wgmma and TMA read: rows of swizzlingByteWidth bytes along the contiguous
/// dimension (the last one, the second-to-last when `transposed`), 16-byte
/// groups of row r XORed with r / perPhase % maxPhase. `fp4Padded`: each
/// 8-byte group of packed fp4 data is padded to 16 bytes.
struct NVMMASharedEncoding {
  unsigned swizzlingByteWidth = 128, elementBitWidth = 16, rank = 2;
  bool transposed = false, fp4Padded = false;
  CGABases cgaLayout;
};

llvm::Expected<LinearLayout> toLinearLayout(const NvidiaMmaEncoding &enc,
                                            llvm::ArrayRef<int64_t> shape);
llvm::Expected<LinearLayout> toLinearLayout(const NvidiaDotOperandEncoding &enc,
                                            llvm::ArrayRef<int64_t> shape);
/// The shared layout (offset, block -> dims) of an nvmma_shared encoding.
llvm::Expected<LinearLayout> toLinearLayout(const NVMMASharedEncoding &enc,
                                            llvm::ArrayRef<int64_t> shape);

} // namespace kiln::layout

#endif // KILN_LAYOUT_ENCODINGS_H
