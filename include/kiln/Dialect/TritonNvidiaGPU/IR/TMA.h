//===- TMA.h - how a tensor descriptor maps onto a TMA tensor map -*- C++ -*-===//
//
// The facts about a `!tt.tensordesc` that the TMA unit needs and that
// Triton 3.6 records in a kernel's `tensordesc_meta`: the swizzle of the
// shared-memory block (from its #ttg.nvmma_shared encoding), the element
// type as the tensor map encodes it, and the box one TMA message moves.
// The passes that pick encodings, the LLVM lowering of the copies and the
// kernel metadata all read them from here, so they cannot disagree.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITONNVIDIAGPU_IR_TMA_H
#define KILN_DIALECT_TRITONNVIDIAGPU_IR_TMA_H

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "llvm/ADT/SmallVector.h"

namespace kiln::ttng {

/// The discardable i32 attribute on ttng.arrive_barrier that makes the
/// first thread of every `n` warps arrive (1: every warp, 4: every warp
/// group), not one thread of the CTA.
inline constexpr llvm::StringLiteral kWarpsPerArrivalAttr = "kiln.warps_per_arrival";

/// Bytes of a CUtensorMap, passed by value as a __grid_constant__ kernel
/// parameter, and the alignment the parameter gets.
inline constexpr int64_t kTensorMapBytes = 128;
inline constexpr int64_t kTensorMapParamAlign = 64;

struct TMADescriptorInfo {
  /// CUtensorMapSwizzle: 0 none, 1 32 B, 2 64 B, 3 128 B.
  int swizzleMode = 0;
  int swizzleBytes = 0;
  int elemSize = 0; ///< bytes
  /// The element type as Triton numbers it (the device's tensormap
  /// encoding: 0 u8, 1 u16, 2 u32, 3 s32, 4 u64, 5 s64, 6 f16, 7 f32,
  /// 9 f64, 10 bf16, 14 b4x16_p64); the launcher maps it to the host enum.
  int elemType = 0;
  /// The box of one TMA message, outermost dimension first: the block,
  /// its contiguous dimension cut to the swizzle span and every dimension
  /// to 256 elements. A block larger than the box takes several messages.
  /// A block the CTAs of a cluster hold in n copies (replicatedCTABits)
  /// gets a multiple of n messages where the box's outer dimensions can be
  /// halved (down to one swizzle atom, 8 rows), so that those CTAs can
  /// share them in a multicast copy.
  llvm::SmallVector<int64_t> box;
  bool fp4Padded = false;
};

/// The bits of the CTA rank along which a buffer or block in `encoding`
/// repeats (its CGA layout's zero bases): CTAs whose ranks differ only in
/// them hold the same tile, which a multicast copy shares among them. 0 for
/// one CTA.
int64_t replicatedCTABits(ttg::LayoutEncodingInterface encoding);

/// The TMA view of descriptor type `desc`, whose block must carry an
/// nvmma_shared encoding; a located error at `op` otherwise.
mlir::FailureOr<TMADescriptorInfo> getTMADescriptorInfo(mlir::Operation *op,
                                                        tt::TensorDescType desc);

/// Whether a tensor or buffer of `shape` holds a descriptor block of shape
/// `block`: the block itself, or (a rank-reducing copy) the block without
/// its leading unit dimensions.
bool holdsTMABlock(llvm::ArrayRef<int64_t> block, llvm::ArrayRef<int64_t> shape);

/// The shared buffer a TMA copy through `desc` moves a tensor of `shape`
/// through: the block in its nvmma_shared layout, re-ranked for a
/// rank-reducing copy; null when the block has no nvmma_shared encoding or
/// `shape` does not hold it.
ttg::MemDescType tmaBufferType(tt::TensorDescType desc, llvm::ArrayRef<int64_t> shape,
                               bool mutableMemory);

/// Whether a buffer of `shape` holds what TMA copies through `desc` move:
/// the block (holdsTMABlock), or a part of it cut along the innermost
/// dimension into whole messages (a wide store going out in pieces).
bool holdsTMABoxes(tt::TensorDescType desc, llvm::ArrayRef<int64_t> shape);

/// The layout of mbarriers (one i64 each, or a ring of them) made for ops
/// at `at`: every CTA of a cluster has its own.
ttg::SwizzledSharedEncodingAttr barrierEncoding(mlir::Operation *at);

/// What a TMA store or reduction through `buffer` writes into it: the
/// value before the convert_layout that made `src`, when there is one and
/// it is split over the CTAs of a cluster as `buffer` is (the buffer is
/// written from any distributed layout, so the conversion would be a
/// shared-memory round trip for nothing); `src` otherwise.
mlir::Value tmaStoreSource(mlir::Value src, ttg::MemDescType buffer);

/// The bytes of a shared-memory buffer of `type` (of one CTA's tile, in a
/// program of several).
int64_t bufferBytes(ttg::MemDescType type);

/// The nvmma_shared encoding Triton gives a descriptor block nothing else
/// constrains: split over the CTAs of a cluster by `cgaLayout` (flattened
/// block bases; empty for one CTA), with the widest swizzle (128, 64, 32 B)
/// dividing the contiguous row's bytes of a CTA's tile, none for fewer than
/// 8 rows.
ttg::NVMMASharedEncodingAttr defaultTMAEncoding(mlir::RankedTensorType block,
                                                llvm::ArrayRef<int32_t> cgaLayout = {});

} // namespace kiln::ttng

#endif
