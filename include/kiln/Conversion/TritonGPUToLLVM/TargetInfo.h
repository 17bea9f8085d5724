//===- TargetInfo.h - what the LLVM lowering asks of a GPU ------*- C++ -*-===//
//
// The lowering of TTGIR to the LLVM dialect is backend-neutral; the few
// things that differ between GPUs (special registers, kernel attributes)
// come from a TargetInfo. Implementations live in the backend's folder and
// are the only code that includes that backend's intrinsics dialect.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_CONVERSION_TRITONGPUTOLLVM_TARGETINFO_H
#define KILN_CONVERSION_TRITONGPUTOLLVM_TARGETINFO_H

#include "mlir/IR/Builders.h"
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
  /// The dialect the target's intrinsics come from must be loaded.
  virtual void getDependentDialects(mlir::DialectRegistry &registry) const = 0;
  /// The thread's index in its CTA (x only: kiln launches 1-D blocks), i32.
  virtual mlir::Value threadId(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// The program (CTA) index and the grid size along axis 0..2, i32.
  virtual mlir::Value programId(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const = 0;
  virtual mlir::Value numPrograms(mlir::OpBuilder &b, mlir::Location loc, unsigned axis) const = 0;
  /// Marks an llvm.func as a kernel launched with `numThreads` threads per
  /// CTA; `maxRegisters` is ttg.maxnreg when the module sets it.
  virtual void markKernel(mlir::Operation *llvmFunc, unsigned numThreads,
                          std::optional<unsigned> maxRegisters) const = 0;

  /// The most shared memory one CTA may use, in bytes.
  virtual int64_t sharedMemoryLimit() const = 0;
  /// Whether the target has warp-group MMA (wgmma, sm_90a).
  virtual bool hasWGMMA() const { return false; }
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

  // Tensor cores.

  /// The element types of mma.sync's A/B and C/D fragments.
  enum class MmaType { F16, BF16, TF32, S8, E4M3, E5M2, F32, S32 };
  struct MmaSync {
    unsigned m, n, k;
    MmaType ab, acc;
  };
  /// Why the target has no such mma.sync, or empty when it has one.
  virtual std::string mmaUnsupported(const MmaSync &mma) const = 0;
  /// One warp-wide D = A * B + C (A row-major, B column-major): `a` and `b`
  /// are the fragments' 32-bit registers as i32 (elements packed low
  /// first), `c` the accumulator's elements as f32, f16 or i32 scalars in
  /// fragment order. Returns D's elements likewise.
  virtual llvm::SmallVector<mlir::Value> mmaSync(mlir::OpBuilder &b, mlir::Location loc,
                                                 const MmaSync &mma, mlir::ValueRange a,
                                                 mlir::ValueRange bOps,
                                                 mlir::ValueRange c) const = 0;
  /// f32 rounded to tf32 (to nearest, ties away from zero), as the i32 that
  /// a tf32 mma.sync reads.
  virtual mlir::Value toTF32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value f32) const = 0;

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
  /// Why the target has no fence between generic and async-proxy shared
  /// memory accesses, or empty.
  virtual std::string asyncProxyFenceUnsupported() const = 0;
  /// Orders this thread's earlier shared-memory accesses before later ones
  /// of the async proxy (wgmma, TMA), in the CTA or the whole cluster.
  virtual void fenceAsyncShared(mlir::OpBuilder &b, mlir::Location loc, bool cluster) const = 0;

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

  // mbarriers and TMA (NVIDIA sm_90 and later). `bar` and the shared
  // buffers are `!llvm.ptr<3>`, `desc` the generic address of a 128-byte
  // CUtensorMap; each op runs in the threads whose i1 `pred` is true (the
  // caller elects them), except the waits, which every thread runs.

  /// Whether the target has TMA and transaction-counting mbarriers.
  virtual bool hasTMA() const { return false; }
  virtual void mbarrierInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                            unsigned count, mlir::Value pred) const = 0;
  virtual void mbarrierInval(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                             mlir::Value pred) const = 0;
  /// Arrives on `bar` and raises the bytes its phase waits for by `bytes`.
  virtual void mbarrierArriveExpectTx(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                                      unsigned bytes, mlir::Value pred) const = 0;
  /// Blocks until the phase of parity `phase` (i32, 0 or 1) of `bar` completes.
  virtual void mbarrierWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                            mlir::Value phase) const = 0;
  /// One TMA message between the box at `coords` (i32, innermost dimension
  /// first, as TMA numbers them) of the tensor map and shared memory; a load
  /// completes bytes on `bar`, a store joins the thread's open bulk group.
  virtual void tmaLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                       mlir::Value dst, mlir::Value bar, llvm::ArrayRef<mlir::Value> coords,
                       mlir::Value pred) const = 0;
  virtual void tmaStore(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                        mlir::Value src, llvm::ArrayRef<mlir::Value> coords,
                        mlir::Value pred) const = 0;
  /// Closes the thread's open bulk group (of TMA stores).
  virtual void bulkCommitGroup(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// Waits until at most `pending` of the thread's bulk groups still read
  /// their shared memory.
  virtual void bulkWaitGroupRead(mlir::OpBuilder &b, mlir::Location loc,
                                 unsigned pending) const = 0;
};

/// NVIDIA GPUs of compute capability `cc` (90 for sm_90) through NVVM.
std::unique_ptr<TargetInfo> createNVIDIATargetInfo(unsigned computeCapability);

/// The target a module's `ttg.target` names (`cuda:<cc>`), or an error
/// saying what is supported.
llvm::Expected<std::unique_ptr<TargetInfo>> createTargetInfo(llvm::StringRef target);

} // namespace kiln

#endif
