//===- Dialect.h - the ttg (TritonGPU IR) dialect ---------------*- C++ -*-===//
//
// kiln's implementation of Triton 3.6's `ttg` dialect: layout encodings,
// the shared-memory descriptor type and the ops that move tensors between
// layouts and through shared memory. Include this header to use any of them.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_DIALECT_TRITONGPU_IR_DIALECT_H
#define KILN_DIALECT_TRITONGPU_IR_DIALECT_H

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Layout/LinearLayout.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h.inc"
#include "kiln/Dialect/TritonGPU/IR/Enums.h.inc"

#include "kiln/Dialect/TritonGPU/IR/AttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/TritonGPU/IR/Attrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "kiln/Dialect/TritonGPU/IR/Types.h.inc"

namespace kiln::ttg {

/// The shared memory of a CTA, for memory effects.
struct SharedMemory : public mlir::SideEffects::Resource::Base<SharedMemory> {
  llvm::StringRef getName() final { return "<SharedMemory>"; }
};

/// Bases stored flattened (`rank` entries each), one vector per basis.
llvm::SmallVector<llvm::SmallVector<int32_t>> unflattenBases(llvm::ArrayRef<int32_t> flat,
                                                             unsigned rank);
/// Flattened bases of rank `from` as bases of rank `to`: leading zero
/// entries added, or leading entries dropped (a rank-reducing view, whose
/// dropped dimensions are units that nothing splits).
llvm::SmallVector<int32_t> rerankBases(llvm::ArrayRef<int32_t> flat, unsigned from, unsigned to);

/// The offset -> dim0.. layout of one CTA's tile that `#ttg.shared_linear`
/// bases describe; an error where a coordinate is out of range or an
/// element of the tile has no offset or several.
llvm::Expected<kiln::layout::LinearLayout> sharedLinearCTALayout(llvm::ArrayRef<int32_t> offsetBases,
                                                           unsigned rank);
/// Its `block` bases (tensor coordinates, as Gluon writes them) in CTA
/// tiles, as every other encoding's CGA layout is; an error where one does
/// not move by whole tiles.
llvm::Expected<llvm::SmallVector<int32_t>>
sharedLinearCGABases(llvm::ArrayRef<int32_t> offsetBases, llvm::ArrayRef<int32_t> blockBases,
                     unsigned rank);

/// The number of warps the layouts at `op` must use: those of the enclosing
/// ttg.warp_specialize partition, else `ttg.num-warps` of the nearest
/// enclosing tt.func or module that has it.
std::optional<unsigned> lookupNumWarps(mlir::Operation *op);

/// `ttg.threads-per-warp` of the enclosing module (32 when absent).
unsigned lookupThreadsPerWarp(mlir::Operation *op);

/// `ttg.num-ctas` of the enclosing module (1 when absent): the CTAs a
/// layout spans.
unsigned lookupNumCTAs(mlir::Operation *op);

/// The CTAs of a thread-block cluster the kernel launches in:
/// `ttg.cluster-ctas` where the module has it (CTAs that each run the
/// program alone), else `ttg.num-ctas`.
unsigned lookupClusterCTAs(mlir::Operation *op);

/// The linear layout of a tensor type through its encoding; an error when
/// it has none that is a ttg layout, or the encoding does not fit its shape.
llvm::Expected<layout::LinearLayout> toLinearLayout(mlir::RankedTensorType type);
/// The part of a tensor or buffer of `shape` in `encoding` one CTA holds:
/// the shape divided along each dimension the encoding splits over the CTAs
/// of a cluster (leading dimensions the encoding does not describe, a
/// ring's buffers, are kept). `shape` itself for a single CTA.
llvm::SmallVector<int64_t> ctaShape(llvm::ArrayRef<int64_t> shape, mlir::Attribute encoding);
/// The same for a CGA layout given flattened (an attribute's `CGALayout`
/// parameter, one entry per dimension of `shape` in each basis).
llvm::SmallVector<int64_t> ctaShape(llvm::ArrayRef<int64_t> shape,
                                    llvm::ArrayRef<int32_t> cgaLayout);

/// Whether the layout of `type` splits dimension `axis` over the CTAs of a
/// cluster (so that no CTA holds a whole row along it).
bool isSplitOverCTAs(mlir::RankedTensorType type, unsigned axis);

/// One CTA's tile of it (layout::ctaTile): what code that moves the
/// tensor's elements inside each CTA of a cluster plans with.
llvm::Expected<layout::LinearLayout> toCTALinearLayout(mlir::RankedTensorType type);

/// `ll` (a distributed layout over standard dimension names) as a
/// `#ttg.linear` encoding.
LinearEncodingAttr linearEncoding(mlir::MLIRContext *ctx, const layout::LinearLayout &ll);

} // namespace kiln::ttg

#define GET_OP_CLASSES
#include "kiln/Dialect/TritonGPU/IR/OpInterfaces.h.inc"
#include "kiln/Dialect/TritonGPU/IR/Ops.h.inc"

#endif
