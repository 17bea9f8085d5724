//===- TargetInfo.h - what NVIDIA patterns ask of the GPU -------*- C++ -*-===//
//
// The NVIDIA extension of the neutral TargetInfo: tensor cores (mma.sync,
// wgmma), the async proxy, mbarriers and TMA. The NVIDIA back end's own
// patterns, and plugins that lower their ops on cuda targets, reach it from
// a lowering::Context with nvidia::targetInfo().
//
//===----------------------------------------------------------------------===//
#ifndef KILN_BACKEND_NVIDIA_TARGETINFO_H
#define KILN_BACKEND_NVIDIA_TARGETINFO_H

#include "kiln/Conversion/TritonGPUToLLVM/TargetInfo.h"

namespace kiln::lowering {
struct Context;
} // namespace kiln::lowering

namespace kiln::nvidia {

class NVIDIATargetInfo : public TargetInfo {
public:
  /// The compute capability (90 for sm_90).
  virtual unsigned computeCapability() const = 0;
  /// Whether the target has warp-group MMA (wgmma, sm_90a).
  virtual bool hasWGMMA() const = 0;

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

  /// Why the target has no fence between generic and async-proxy shared
  /// memory accesses, or empty.
  virtual std::string asyncProxyFenceUnsupported() const = 0;
  /// Orders this thread's earlier shared-memory accesses before later ones
  /// of the async proxy (wgmma, TMA), in the CTA or the whole cluster.
  virtual void fenceAsyncShared(mlir::OpBuilder &b, mlir::Location loc, bool cluster) const = 0;

  // mbarriers and TMA (NVIDIA sm_90 and later). `bar` and the shared
  // buffers are `!llvm.ptr<3>`, `desc` the generic address of a 128-byte
  // CUtensorMap; each op runs in the threads whose i1 `pred` is true (the
  // caller elects them), except the waits, which every thread runs.

  /// Whether the target has TMA and transaction-counting mbarriers.
  virtual bool hasTMA() const = 0;
  virtual void mbarrierInit(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                            unsigned count, mlir::Value pred) const = 0;
  virtual void mbarrierInval(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                             mlir::Value pred) const = 0;
  /// Arrives on `bar` and raises the bytes its phase waits for by `bytes`.
  virtual void mbarrierArriveExpectTx(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                                      unsigned bytes, mlir::Value pred) const = 0;
  /// Arrives `count` times on `bar` (mbarrier.arrive with a count, sm_90).
  virtual void mbarrierArrive(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                              unsigned count, mlir::Value pred) const = 0;
  /// Arrives `count` times on the mbarrier at `bar`, a shared::cluster
  /// (`!llvm.ptr<7>`) address in any CTA of the cluster (release at CTA
  /// scope: for a slot whose reads have completed, as a pipeline frees it).
  virtual void mbarrierArriveCluster(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                                     unsigned count, mlir::Value pred) const = 0;
  /// Makes this thread's earlier mbarrier inits visible to the cluster.
  virtual void fenceMbarrierInitCluster(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// The two halves of a cluster barrier (every thread of every CTA).
  virtual void clusterArrive(mlir::OpBuilder &b, mlir::Location loc, bool relaxed) const = 0;
  virtual void clusterWait(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// How long a waiting thread may sleep in one poll, in ns: what CUDA's
  /// own barrier wait asks for (it wakes when the phase completes).
  static constexpr unsigned kWaitSuspendNs = 0x989680;
  /// One bounded poll (mbarrier.try_wait): whether the phase of parity
  /// `phase` of `bar` has completed, i1. The thread may sleep until then,
  /// for at most `suspendNs` (0: the hardware's own limit).
  virtual mlir::Value mbarrierTryWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                                      mlir::Value phase, unsigned suspendNs = 0) const = 0;
  /// Blocks until the phase of parity `phase` (i32, 0 or 1) of `bar` completes.
  virtual void mbarrierWait(mlir::OpBuilder &b, mlir::Location loc, mlir::Value bar,
                            mlir::Value phase) const = 0;
  /// One TMA message between the box at `coords` (i32, innermost dimension
  /// first, as TMA numbers them) of the tensor map and shared memory; a load
  /// completes bytes on `bar`, a store joins the thread's open bulk group.
  /// A load with an i16 `ctaMask` writes the box, and completes its bytes,
  /// at the same offsets in every CTA of the cluster the mask names.
  virtual void tmaLoad(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                       mlir::Value dst, mlir::Value bar, llvm::ArrayRef<mlir::Value> coords,
                       mlir::Value pred, mlir::Value ctaMask = {}) const = 0;
  virtual void tmaStore(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                        mlir::Value src, llvm::ArrayRef<mlir::Value> coords,
                        mlir::Value pred) const = 0;
  /// Starts bringing the box at `coords` of the tensor map into L2.
  virtual void tmaPrefetch(mlir::OpBuilder &b, mlir::Location loc, mlir::Value desc,
                           llvm::ArrayRef<mlir::Value> coords, mlir::Value pred) const = 0;
  /// Like tmaStore, but each element is combined with the one in global
  /// memory by `kind` (add, min, max, and, or, xor; the tensor map's
  /// element type says how).
  virtual void tmaReduce(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef kind,
                         mlir::Value desc, mlir::Value src, llvm::ArrayRef<mlir::Value> coords,
                         mlir::Value pred) const = 0;
  /// Closes the thread's open bulk group (of TMA stores and reductions).
  virtual void bulkCommitGroup(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// Waits until at most `pending` of the thread's bulk groups still read
  /// their shared memory.
  virtual void bulkWaitGroupRead(mlir::OpBuilder &b, mlir::Location loc,
                                 unsigned pending) const = 0;
};

/// NVIDIA GPUs of compute capability `cc` (90 for sm_90) through NVVM.
std::unique_ptr<NVIDIATargetInfo> createTargetInfo(unsigned computeCapability);

/// The TargetInfo of a lowering whose target is a cuda target (the NVIDIA
/// back end registers only this kind for them).
const NVIDIATargetInfo &targetInfo(const lowering::Context &ctx);

} // namespace kiln::nvidia

#endif
