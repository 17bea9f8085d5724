//===- Ids.cpp - hwx's named barriers, clusters, ids and clock ------------===//
//
//   hwx.named_barrier_arrive(3, 256)   # bar.arrive 3, 256
//   hwx.named_barrier_wait(3, 256)     # bar.sync 3, 256
//   r = hwx.cluster_cta_rank()         # this CTA's rank in its cluster
//   hwx.cluster_barrier()              # every thread of the cluster meets
//   peer = hwx.remote(bars[s], r ^ 1)  # barrier s of the CTA of rank r ^ 1
//   i = hwx.thread_id()                # this thread's index (in its task)
//   w = hwx.warp_id()                  # this warp's index (in its task)
//   t = hwx.clock64()                  # the SM's cycle counter
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using kiln::KernelBuilder;
namespace ttng = kiln::ttng;

namespace hwx {
namespace {

constexpr int64_t kNamedBarriers = 16;

/// A named-barrier op (`OpT` at barrier `id`, of `num_threads` threads):
/// its operands are constants, the count whole warps.
template <typename OpT>
Results namedBarrier(KernelBuilder &kb, StringRef op, DictionaryAttr constants) {
  auto id = constants.getAs<IntegerAttr>("id");
  auto threads = constants.getAs<IntegerAttr>("num_threads");
  if (!id || id.getInt() < 0 || id.getInt() >= kNamedBarriers)
    return kb.emitError() << op << ": id must be an int in [0, " << kNamedBarriers - 1
                          << "], got " << constants.get("id");
  if (!threads || threads.getInt() < 32 || threads.getInt() > 1024 || threads.getInt() % 32)
    return kb.emitError() << op << ": num_threads must be a multiple of 32 up to 1024 (whole "
                          << "warps), got " << constants.get("num_threads");
  OpBuilder &b = kb.builder();
  auto i32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, kb.loc(), b.getI32IntegerAttr(int32_t(v)));
  };
  OpT::create(b, kb.loc(), i32(id.getInt()), i32(threads.getInt()));
  return SmallVector<Value>{};
}

Results namedBarrierArrive(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  return namedBarrier<ttng::NamedBarrierArriveOp>(kb, "hwx.named_barrier_arrive", constants);
}

Results namedBarrierWait(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  return namedBarrier<ttng::NamedBarrierWaitOp>(kb, "hwx.named_barrier_wait", constants);
}

Results clusterRank(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  markClusterAware(kb);
  OpBuilder &b = kb.builder();
  return SmallVector<Value>{ttng::ClusterCTARankOp::create(b, kb.loc(), b.getI32Type())};
}

// hwx.cluster_barrier(): the mbarriers this thread initialised are made
// visible to the cluster, then every thread of every CTA of the cluster
// meets (release, acquire): before another CTA's copies or arrivals reach
// this CTA's barriers, and before a CTA leaves while others may still.
Results clusterBarrier(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  markClusterAware(kb);
  OpBuilder &b = kb.builder();
  ttng::FenceMBarrierInitReleaseClusterOp::create(b, kb.loc());
  ttng::ClusterArriveOp::create(b, kb.loc(), /*relaxed=*/false);
  ttng::ClusterWaitOp::create(b, kb.loc());
  return SmallVector<Value>{};
}

// hwx.remote(bar, cta): the same barrier in the cluster's CTA of rank `cta`
// (an arrival there is hwx.barrier_arrive's on it).
Results remote(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  auto type = dyn_cast<kiln::ttg::MemDescType>(operands[0].getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isInteger(64) ||
      ttng::isRemote(type))
    return kb.emitError() << "hwx.remote takes one barrier of this CTA's (bars[i]), got "
                          << operands[0].getType();
  Value cta = scalarI32(kb, "hwx.remote", "cta", operands[1]);
  if (!cta)
    return failure();
  markClusterAware(kb);
  auto result = kiln::ttg::MemDescType::get(
      &kb.context(), type.getShape(), type.getElementType(), type.getEncoding(),
      ttng::SharedClusterMemorySpaceAttr::get(&kb.context()), type.getMutableMemory(),
      type.getAllocShape());
  return SmallVector<Value>{
      ttng::MapToRemoteBufferOp::create(kb.builder(), kb.loc(), result, operands[0], cta)
          .getResult()};
}

// Threads run along one axis in a Triton program: the others are 0.
Results threadId(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  auto axis = constants.getAs<IntegerAttr>("axis");
  if (!axis || axis.getInt() < 0 || axis.getInt() > 2)
    return kb.emitError() << "hwx.thread_id: axis must be 0, 1 or 2, got " << constants.get("axis");
  OpBuilder &b = kb.builder();
  if (axis.getInt() != 0)
    return SmallVector<Value>{arith::ConstantOp::create(b, kb.loc(), b.getI32IntegerAttr(0))};
  return SmallVector<Value>{kiln::ttg::ThreadIdOp::create(b, kb.loc(), b.getI32Type())};
}

// NVIDIA warps are 32 threads; a task's threads start at a whole warp.
Results warpId(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  OpBuilder &b = kb.builder();
  Value thread = kiln::ttg::ThreadIdOp::create(b, kb.loc(), b.getI32Type());
  return SmallVector<Value>{arith::DivUIOp::create(b, kb.loc(), thread, kb.constInt(32))};
}

// Triton's own inline-asm op, not pure: each read is a new sample.
Results clock64(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  OpBuilder &b = kb.builder();
  auto read = kiln::tt::ElementwiseInlineAsmOp::create(
      b, kb.loc(), TypeRange{b.getI64Type()}, "mov.u64 $0, %clock64;", "=l", /*pure=*/false,
      /*packed_element=*/1, ValueRange());
  return SmallVector<Value>{read->getResult(0)};
}

} // namespace

void registerIdOps(kiln::OpRegistry &registry) {
  const std::vector<kiln::KernelOpOperand> barrier = {{"id", "constexpr"},
                                                      {"num_threads", "constexpr"}};
  addOps(registry,
         {{"hwx.named_barrier_arrive", barrier, {}, "(id: int, num_threads: int) -> None",
           "counts this warp in at hardware barrier id (of num_threads threads) without waiting",
           &namedBarrierArrive},
          {"hwx.named_barrier_wait", barrier, {}, "(id: int, num_threads: int) -> None",
           "counts this warp in at hardware barrier id and waits until num_threads threads have",
           &namedBarrierWait},
          {"hwx.cluster_cta_rank", {}, {{"tensor", "()", "'int32'"}}, "() -> int32",
           "this CTA's rank in its cluster (0 without clusters)", &clusterRank},
          {"hwx.cluster_barrier", {}, {}, "() -> None",
           "makes this thread's barrier inits visible to the cluster, then waits until every "
           "thread of the cluster's CTAs has come (num_ctas > 1)",
           &clusterBarrier},
          {"hwx.remote",
           {{"bar", "barrier"}, "cta"},
           {{"barrier", "bar.shape", "bar.dtype"}},
           "(bar: barrier, cta: int32) -> barrier",
           "the same barrier in the cluster's CTA of rank cta, to arrive on (num_ctas > 1)",
           &remote},
          {"hwx.thread_id", {{"axis", "constexpr", "0"}}, {{"tensor", "()", "'int32'"}},
           "(axis: int = 0) -> int32",
           "this thread's index in its program, or in its hwx.async_task (counted from the "
           "task's first thread); not the same in every thread: a branch on it diverges",
           &threadId},
          {"hwx.warp_id", {}, {{"tensor", "()", "'int32'"}}, "() -> int32",
           "this warp's index in its program, or in its hwx.async_task (counted from the "
           "task's first warp); the same in the threads of a warp",
           &warpId},
          {"hwx.clock64", {}, {{"tensor", "()", "'int64'"}}, "() -> int64",
           "the SM's cycle counter (%clock64)", &clock64}});
}

} // namespace hwx
