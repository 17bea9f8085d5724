//===- TargetInfo.h - what the LLVM lowering asks of a GPU ------*- C++ -*-===//
//
// The lowering of TTGIR to the LLVM dialect is backend-neutral; what differs
// between GPUs (special registers, kernel attributes, instructions the LLVM
// dialect has no op for) comes from a TargetInfo. It holds only what every
// GPU has; a back end derives its own (kiln/Backend/<B>/TargetInfo.h) with
// the rest, for its own patterns. Implementations live in the back end's
// folder and are the only code that includes its intrinsics dialect.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_TARGETINFO_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_TARGETINFO_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
}

namespace kiln {

class TargetInfo {
public:
  virtual ~TargetInfo();
  /// The dialects the target's intrinsics come from, which stay legal
  /// after the lowering (kiln's contexts hold them: registerKilnDialects).
  virtual void getDependentDialects(mlir::DialectRegistry &registry) const = 0;
  /// The thread's index in its CTA (x only: kiln launches 1-D blocks), i32.
  virtual mlir::Value threadId(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// The program index and the grid size (in programs) along axis 0..2,
  /// i32. A program is one CTA, or a cluster of `numCTAs` CTAs.
  virtual mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis,
                                unsigned numCTAs) const = 0;
  virtual mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis,
                                  unsigned numCTAs) const = 0;
  /// The CTA's index within its program's cluster (0 .. numCTAs-1), i32;
  /// only asked for when a program has several CTAs.
  virtual mlir::Value blockId(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// Why programs of `numCTAs` CTAs cannot run on this target; empty when
  /// they can.
  virtual std::string clusterUnsupported(unsigned numCTAs) const = 0;
  /// A barrier for all threads of all CTAs of the cluster, ordering their
  /// shared memory accesses (release before, acquire after).
  virtual void clusterBarrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// The address of the same shared memory location in the CTA of rank
  /// `ctaRank` of the cluster (distributed shared memory), loadable with
  /// llvm.load.
  virtual mlir::Value clusterSharedAddress(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::Value sharedPtr, mlir::Value ctaRank) const = 0;
  /// Marks an llvm.func as a kernel launched with `numThreads` threads per
  /// CTA in clusters of `numCTAs` CTAs; `maxRegisters` is ttg.maxnreg when
  /// the module sets it.
  virtual void markKernel(mlir::Operation *llvmFunc, unsigned numThreads,
                          std::optional<unsigned> maxRegisters, unsigned numCTAs) const = 0;

  /// The most shared memory one CTA may use, in bytes.
  virtual int64_t sharedMemoryLimit() const = 0;
  /// A barrier for all threads of the CTA that also orders their shared
  /// memory accesses.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;

  /// Warp shuffles of an i32 (every lane of the warp takes part):
  /// the value of lane `lane ^ mask`, of lane `lane - delta` (a lane's own
  /// value when that is below 0), and of lane `srcLane`.
  enum class Shuffle { Xor, Up, Index };
  virtual mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i32,
                              Shuffle kind, mlir::Value laneOrMask) const = 0;
  // Math. Functions come from the target's device library (libdevice on
  // NVIDIA), which the code generator links in when a kernel calls it.

  /// The library function computing math-dialect op `opName` ("math.exp")
  /// on f32 or f64 `type`; empty when the library has none.
  virtual std::string mathFunction(llvm::StringRef opName, mlir::Type type) const = 0;
  /// The library function giving the high half of an unsigned i32 or i64
  /// product.
  virtual std::string mulhiFunction(mlir::Type type) const = 0;
  /// 2^x in f32 by the hardware's approximation.
  virtual mlir::Value exp2Approx(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x) const = 0;
  /// f32 x / y: fast (what arith.divf means to Triton) or correctly rounded.
  virtual mlir::Value divF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y,
                             bool precise) const = 0;
  /// f32 x / y by the hardware's approximation (tt.approx_divf).
  virtual mlir::Value divApproxF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                                   mlir::Value y) const = 0;
  /// Correctly rounded f32 square root.
  virtual mlir::Value preciseSqrtF32(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value x) const = 0;

  // Float conversions the LLVM dialect has no op for.

  /// f32 to f16 or bf16 `dst`, rounding to nearest even or toward zero.
  virtual mlir::Value truncF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                               mlir::Type dst, bool towardZero) const = 0;
  /// Two f16 or two f32 values to two fp8 values (`fp8`: f8E4M3FN or
  /// f8E5M2), rounding to nearest even and saturating to the largest finite
  /// value; `lo` and `hi` fill the low and high byte of the i16 returned.
  virtual mlir::Value toFp8x2(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lo,
                              mlir::Value hi, mlir::Type fp8) const = 0;
  /// The two fp8 values in the bytes of i16 `packed`, exactly, as f16.
  virtual std::pair<mlir::Value, mlir::Value> fromFp8x2(mlir::OpBuilder &b, mlir::Location loc,
                                                        mlir::Value packed,
                                                        mlir::Type fp8) const = 0;

  // Global memory accesses with cache hints (the spellings of tt.load /
  // tt.store: cache "ca", "cg", "cs", "cv", "wb", "wt"; evict "evict_first",
  // "evict_last"; empty for none) and an optional i1 predicate: a
  // predicated access is one instruction, not a branch, so the accesses of
  // a thread stay in flight together.
  struct CacheHints {
    llvm::StringRef cache;
    llvm::StringRef evict;
  };
  /// Loads `type` (a scalar or a vector of at most 16 bytes) from global
  /// `ptr` with the hints; where `pred` is false nothing is read and the
  /// result is `other` (of `type`), or zero without it.
  virtual mlir::Value loadGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                                 mlir::Type type, CacheHints hints, mlir::Value pred = {},
                                 mlir::Value other = {}) const = 0;
  virtual void storeGlobal(mlir::OpBuilder &b, mlir::Location loc, mlir::Value ptr,
                           mlir::Value value, CacheHints hints,
                           mlir::Value pred = {}) const = 0;

  // Asynchronous copies from global to shared memory (ttg.async_copy_*).

  /// Whether the warp can store four 8x8 matrices of 16-bit elements into
  /// shared memory at once (kiln/Layout/MatrixAccess.h says how).
  virtual bool hasMatrixStore() const = 0;
  /// That store: `address` is this lane's row address (lane 8m + r: row r
  /// of matrix m), `words` its four 32-bit words (two elements of matrix
  /// m's row lane / 4 each, or `transposed`, of its column lane / 4).
  virtual void storeMatrices(mlir::OpBuilder &b, mlir::Location loc, mlir::Value address,
                             mlir::ValueRange words, bool transposed) const = 0;
  /// The same as loads: this lane's four 32-bit words.
  virtual bool hasMatrixLoad() const = 0;
  virtual llvm::SmallVector<mlir::Value, 4> loadMatrices(mlir::OpBuilder &b, mlir::Location loc,
                                                         mlir::Value address,
                                                         bool transposed) const = 0;

  /// Why the target cannot copy asynchronously into shared memory, or
  /// empty when it can.
  virtual std::string asyncCopyUnsupported() const = 0;
  /// Starts copying `bytes` (4, 8 or 16) from global `src` to shared `dst`.
  /// Where the i1 `pred` is false nothing is read and `dst` is zero-filled.
  virtual void asyncCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst, mlir::Value src,
                         unsigned bytes, mlir::Value pred = {}) const = 0;
  /// Closes the group of this thread's copies started so far.
  virtual void asyncCommitGroup(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// Waits until at most `pending` of this thread's groups are in flight.
  virtual void asyncWaitGroup(mlir::OpBuilder &b, mlir::Location loc,
                              unsigned pending) const = 0;
  // Debugging.

  /// printf of the NUL-terminated format at generic pointer `format` with
  /// `args` (already promoted as C varargs: i32/i64, f64, pointers).
  virtual void printf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value format,
                      mlir::ValueRange args) const = 0;
  /// Reports a failed assertion and stops the kernel; the strings are
  /// generic pointers to NUL-terminated text.
  virtual void assertFail(mlir::OpBuilder &b, mlir::Location loc, mlir::Value message,
                          mlir::Value file, unsigned line, mlir::Value function) const = 0;
  /// The warp's lanes whose `pred` (i1) is true, as an integer of warp-size
  /// bits (bit i: lane i); every lane of the warp takes part.
  virtual mlir::Value ballot(mlir::OpBuilder &b, mlir::Location loc, mlir::Value pred) const = 0;

  /// Atomics on global memory (tt.atomic_rmw, tt.atomic_cas).
  enum class AtomicKind { And, Or, Xor, Add, FAdd, Max, Min, UMax, UMin, Exch };
  enum class MemOrder { Relaxed, Acquire, Release, AcqRel };
  enum class MemScope { CTA, GPU, System };
  struct Atomic {
    AtomicKind kind;
    MemOrder order;
    MemScope scope;
  };
  /// Why `kind` on elements of LLVM type `elem` has no instruction here, or
  /// empty when it has one.
  virtual std::string atomicUnsupported(AtomicKind kind, mlir::Type elem) const = 0;
  virtual std::string casUnsupported(mlir::Type elem) const = 0;
  /// How many consecutive elements (at most `available`, a power of two,
  /// 16 bytes at most) one instruction of `kind` on `elem` covers.
  virtual unsigned atomicElements(AtomicKind kind, mlir::Type elem, unsigned available) const = 0;
  /// The atomic on the vals.size() consecutive elements at `ptr` (a count
  /// atomicElements allowed), only where `pred` is true (null: always).
  /// Returns the old values, 0 where `pred` is false.
  virtual llvm::SmallVector<mlir::Value> atomicRMW(mlir::OpBuilder &b, mlir::Location loc,
                                                   const Atomic &atomic, mlir::Value ptr,
                                                   llvm::ArrayRef<mlir::Value> vals,
                                                   mlir::Value pred) const = 0;
  virtual mlir::Value atomicCAS(mlir::OpBuilder &b, mlir::Location loc, MemOrder order,
                                MemScope scope, mlir::Value ptr, mlir::Value cmp, mlir::Value val,
                                mlir::Value pred) const = 0;

  /// Triton 3.9's atomic loads, stores and polls: one element (an integer
  /// or float of 8 to 64 bits) accessed atomically, relaxed in `scope`,
  /// where `pred` is true (null: always); a load reads 0 elsewhere. Their
  /// acquire and release orders are fences around them.
  virtual mlir::Value atomicLoad(mlir::OpBuilder &b, mlir::Location loc, MemScope scope,
                                 mlir::Value ptr, mlir::Type type, mlir::Value pred) const = 0;
  virtual void atomicStore(mlir::OpBuilder &b, mlir::Location loc, MemScope scope,
                           mlir::Value ptr, mlir::Value value, mlir::Value pred) const = 0;
  /// Orders the thread's earlier accesses before its later ones in `scope`:
  /// as an acquire (`order` Acquire) or a release (Release).
  virtual void fence(mlir::OpBuilder &b, mlir::Location loc, MemOrder order,
                     MemScope scope) const = 0;
  /// Nanoseconds of a timer common to the whole GPU, i64.
  virtual mlir::Value globalTimer(mlir::OpBuilder &b, mlir::Location loc) const = 0;

  /// Programmatic dependent launch (tt.grid_dependency_*): why the target
  /// has none, or empty; then waiting for the grids this one depends on,
  /// and letting those that depend on it start.
  virtual std::string gridDependencyUnsupported() const = 0;
  virtual void gridDependencyWait(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  virtual void gridDependencyLaunchDependents(mlir::OpBuilder &b, mlir::Location loc) const = 0;

  // Kernel arguments.

  /// A located error on `op` (a tt.fp_to_fp) when the target cannot
  /// convert `src` to `dst` (element types; rounding `towardZero` or to
  /// nearest); the default accepts all.
  virtual mlir::LogicalResult checkFpConversion(mlir::Operation *op, mlir::Type src,
                                                mlir::Type dst, bool towardZero) const {
    return mlir::success();
  }

  /// A located error on `op` (a tt.elementwise_inline_asm) when its
  /// `constraints` name an operand kind the target's inline asm cannot take
  /// (LLVM's code generator aborts on those); the default refuses all.
  virtual mlir::LogicalResult checkInlineAsmConstraints(mlir::Operation *op,
                                                        llvm::StringRef constraints) const;

  /// A located error on `func` (the tt.func) when a `!tt.tensordesc`
  /// argument of type `desc` cannot be passed to a kernel on this target.
  virtual mlir::LogicalResult checkTensorDescArgument(mlir::Operation *func,
                                                      mlir::Type desc) const;
  /// Gives parameter `index` of the kernel `llvmFunc`, lowered from `func`,
  /// what a tensor descriptor argument of type `desc` is passed as (checked
  /// before by checkTensorDescArgument).
  virtual mlir::LogicalResult lowerTensorDescArgument(mlir::Operation *func,
                                                      mlir::Operation *llvmFunc, unsigned index,
                                                      mlir::Type desc) const;
};

} // namespace kiln

#endif
