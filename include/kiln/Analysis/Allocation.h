//===- Allocation.h - where each buffer lives in shared memory --*- C++ -*-===//
//
// A kernel's shared memory is one dynamic array; every buffer in it gets a
// fixed offset at compile time. Two kinds of buffers exist: the explicit
// ones of `ttg.local_alloc` (live from the allocation to the last use of
// the descriptor or of a view of it, and to the `ttg.async_wait {num = 0}`
// after an async copy into it: the copy writes until it lands) and the
// scratch of ops whose lowering moves data between threads through shared
// memory (reduce across warps, scan, layout conversions, ...), live only
// while the op runs. Buffers whose
// lives do not overlap share bytes. The `llir.allocate-shared-memory` pass
// records the result on the IR (`allocation.offset` on each owning op,
// `ttg.shared` on the module), which is what the barrier pass and the
// lowering read, and what Triton's TTGIR carries at the same point.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_ANALYSIS_ALLOCATION_H
#define KILN_ANALYSIS_ALLOCATION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace kiln {

/// The attribute on an op that owns shared memory: its byte offset.
inline constexpr llvm::StringLiteral kAllocationOffsetAttr = "allocation.offset";

/// On a device function that needs shared memory: how many bytes. Its
/// calls hold that much as their scratch (its buffers' offsets are from the
/// part of shared memory the call passes).
inline constexpr llvm::StringLiteral kFunctionSharedBytesAttr = "allocation.function_bytes";

/// Warp specialisation's shared memory: each ttg.warp_specialize passes its
/// captures to the partitions' warps in one slot each (its scratch), and a
/// kernel with such ops keeps one word saying which op the idle warps run
/// next, at the offset in `allocation.warp_state_offset` on each op.
inline constexpr llvm::StringLiteral kWarpStateOffsetAttr = "allocation.warp_state_offset";
inline constexpr int64_t kWarpSpecializeCaptureSlot = 8;
inline constexpr int64_t kWarpSpecializeStateBytes = 4;

/// What a lowering needs to know to size its scratch.
struct ScratchContext {
  unsigned warpSize;
  unsigned numWarps;
};

/// Scratch that a back end's (or a plugin's) lowering of an op needs, which
/// the shared rules below do not know: bytes and alignment.
struct ScratchNeed {
  int64_t bytes = 0;
  int64_t alignment = 16;
};
/// Registers a rule (at start-up, before any compile): the scratch it
/// returns for an op is allocated like the shared rules' (nullopt: not its op).
void registerScratchRule(std::function<std::optional<ScratchNeed>(mlir::Operation *)> rule);
/// The scratch `op`'s lowering needs: a registered rule's, else the shared
/// rules' bytes (scratchBytes) at the default alignment.
ScratchNeed scratchNeed(mlir::Operation *op, const ScratchContext &ctx);

/// Bytes of scratch shared memory `op`'s lowering uses while it runs (0 for
/// ops that need none). Each lowering that exchanges data through shared
/// memory adds its op here, computed from the same layout queries the
/// lowering uses, so the two cannot disagree.
int64_t scratchBytes(mlir::Operation *op, const ScratchContext &ctx);

/// The bytes of a `ttg.local_alloc`'s whole allocation.
int64_t localAllocBytes(mlir::Operation *localAlloc);

/// One buffer and the span of the function's op order in which it is live
/// (both ends inclusive).
struct SharedBuffer {
  mlir::Operation *owner;
  int64_t bytes;
  int64_t alignment;
  int64_t firstOp, lastOp;
  int64_t offset = -1;
};

/// Buffers of one function with their offsets: greedy first fit, largest
/// first, among the buffers whose lives overlap.
struct SharedAllocation {
  llvm::SmallVector<SharedBuffer> buffers;
  /// Bytes of shared memory the function needs (the end of the highest
  /// buffer).
  int64_t totalBytes = 0;
};

SharedAllocation allocateSharedMemory(mlir::Operation *func, const ScratchContext &ctx);

/// The `tt.func`s of `module`, each after every function it calls, so that
/// a callee's memory is sized before its calls (Triton's calls never
/// recurse; the functions of a cycle come in module order).
llvm::SmallVector<mlir::Operation *> functionsCalleesFirst(mlir::Operation *module);

} // namespace kiln

#endif
