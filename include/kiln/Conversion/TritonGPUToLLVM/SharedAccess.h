//===- SharedAccess.h - registers to and from shared memory -----*- C++ -*-===//
//
// Copies between a distributed tensor's registers and a buffer laid out by
// a shared layout (offset[, round] -> dims): convert_layout's scratch, the
// buffers of ttg.local_*, tt.gather's scratch. The layout engine gives the
// map register/lane/warp -> offset; it is linear, so each access is a
// per-thread offset (XOR of the lane and warp images, computed once) XOR a
// constant per vector. Registers that hold the same element are stored
// once and all loaded.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_SHAREDACCESS_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_SHAREDACCESS_H

#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"
#include "kiln/Layout/MatrixAccess.h"

namespace kiln::lowering {

struct SharedAccessPlan {
  /// register, lane, warp, block -> the shared layout's inputs.
  layout::LinearLayout toShared;
  /// Elements per access (a power of two).
  unsigned vector = 1;
  /// Offset bits the thread's lane and warp can set.
  int64_t threadMask = 0;
  /// (log2 interval, log2 padding): after every interval offsets the
  /// buffer has that many unused elements (#ttg.padded_shared).
  llvm::SmallVector<std::pair<unsigned, unsigned>> padding;
  struct Access {
    int64_t offset; ///< of the vector's first element, register part only
    int32_t round;
    /// Per slot of the vector, the registers holding that element.
    llvm::SmallVector<llvm::SmallVector<unsigned, 1>> registers;
  };
  llvm::SmallVector<Access> accesses;
};

/// Where the elements of a ttg.memdesc lie, from the address it is
/// lowered to. `layout` (offset -> the memdesc's dims) holds each element
/// once. For a view of part of a buffer (a memdesc_subslice) whose elements
/// are not where a buffer of the view's shape would put them, `place` maps
/// that offset to the buffer's: the view's element at `layout` offset x
/// lies `place(x)` elements on. `padding` comes from the encoding.
struct BufferLayout {
  layout::LinearLayout layout;
  std::optional<layout::LinearLayout> place;
  llvm::SmallVector<std::pair<unsigned, unsigned>> padding;
};

/// The BufferLayout of the memdesc type `memdesc` that `op` accesses; a
/// located error when its encoding has none.
mlir::FailureOr<BufferLayout> bufferLayoutOf(mlir::Operation *op, mlir::Type memdesc);

/// How the registers of `regs` reach `shared`: the widest vector up to
/// `maxVector` elements whose slots never depend on the thread and that
/// each thread fills completely. Fails when `shared` lacks an element of
/// `regs`.
mlir::FailureOr<SharedAccessPlan> planSharedAccess(const layout::LinearLayout &regs,
                                                   const layout::LinearLayout &shared,
                                                   unsigned maxVector);
/// The same for a memdesc's buffer: offsets placed and padded as `buffer`
/// says; a vector never spans a pad.
mlir::FailureOr<SharedAccessPlan> planBufferAccess(const layout::LinearLayout &regs,
                                                   const BufferLayout &buffer,
                                                   unsigned maxVector);
/// How many consecutive registers of `regs` lie at consecutive places of
/// `buffer`, capped at 16 bytes of `elemBits`-bit elements.
unsigned bufferVectorWidth(const layout::LinearLayout &regs, const BufferLayout &buffer,
                           unsigned elemBits);

/// The thread's part of every offset (i32 elements).
mlir::Value threadOffset(mlir::OpBuilder &b, mlir::Location loc, const Context &ctx,
                         const SharedAccessPlan &plan);

/// The address of access `offset` (a SharedAccessPlan::Access's) of this
/// thread in the buffer at `base` of LLVM elements `elemType`, pads
/// skipped.
mlir::Value accessAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                          mlir::Type elemType, mlir::Value threadOff,
                          const SharedAccessPlan &plan, int64_t offset);

/// Stores `values` (one per register, LLVM element type `elemType`) with
/// the accesses of round `round`.
void storeShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base, mlir::Value threadOff,
                 const SharedAccessPlan &plan, int32_t round, mlir::ValueRange values,
                 mlir::Type elemType);
/// Loads round `round` into `values` (one per register, sized by the
/// caller); registers of other rounds are left alone.
void loadShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base, mlir::Value threadOff,
                const SharedAccessPlan &plan, int32_t round,
                llvm::MutableArrayRef<mlir::Value> values, mlir::Type elemType);

/// Stores 16-bit `regs` with the target's 8x8-matrix stores of `plan`
/// into the buffer at `base`.
void storeMatrices(mlir::OpBuilder &b, mlir::Location loc, const Context &ctx, mlir::Value base,
                   const layout::MatrixAccessPlan &plan, mlir::ArrayRef<mlir::Value> regs);
/// Loads `regs` (16-bit `elem`) with the target's 8x8-matrix loads of
/// `plan` from the buffer at `base`.
void loadMatrices(mlir::OpBuilder &b, mlir::Location loc, const Context &ctx, mlir::Value base,
                  mlir::Type elem, const layout::MatrixAccessPlan &plan,
                  llvm::MutableArrayRef<mlir::Value> regs);

/// The type an element of `elemType` (LLVM) is kept as in shared memory:
/// pointers as i64, i1 as i8, others unchanged.
mlir::Type storedType(mlir::Type elemType);
mlir::Value toStored(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
mlir::Value fromStored(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, mlir::Type elemType);

/// `base` advanced by `elements` elements of `elemType`'s stored type.
mlir::Value elementAddress(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                           mlir::Type elemType, mlir::Value elements);

} // namespace kiln::lowering

#endif
