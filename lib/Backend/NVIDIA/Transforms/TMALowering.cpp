//===- TMALowering.cpp - descriptor loads and stores as TMA copies --------===//
//
// Each load gets its own buffer and mbarrier and waits at once, as Triton
// does before its pipeliner overlaps them; the allocation pass reuses the
// memory of buffers whose lives do not overlap.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_TMALOWERING
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

/// The buffer type of a descriptor's block, or a located error when the
/// block has no nvmma_shared encoding yet.
FailureOr<ttg::MemDescType> bufferType(Operation *op, tt::TensorDescType desc, bool mutableMem) {
  RankedTensorType block = desc.getSignlessBlockType();
  if (!isa_and_nonnull<ttg::NVMMASharedEncodingAttr>(block.getEncoding()))
    return op->emitError() << "a TMA copy through " << desc
                           << " needs a #ttg.nvmma_shared block encoding (run "
                              "ttgir.optimize-descriptor-encoding first)";
  auto space = ttg::SharedMemorySpaceAttr::get(op->getContext());
  return ttg::MemDescType::get(block.getShape(), block.getElementType(), block.getEncoding(),
                               space, mutableMem);
}

int64_t blockBytes(ttg::MemDescType type) {
  int64_t elements = 1;
  for (int64_t d : type.getShape())
    elements *= d;
  return elements * type.getElementType().getIntOrFloatBitWidth() / 8;
}

LogicalResult lowerLoad(tt::DescriptorLoadOp load) {
  FailureOr<ttg::MemDescType> type = bufferType(load, load.getDesc().getType(), true);
  if (failed(type))
    return failure();
  OpBuilder b(load);
  Location loc = load.getLoc();
  MLIRContext *ctx = b.getContext();
  Value buffer = ttg::LocalAllocOp::create(b, loc, *type, Value(), IntegerAttr());
  auto barrierType = ttg::MemDescType::get(
      {1}, b.getI64Type(), ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, {0}),
      ttg::SharedMemorySpaceAttr::get(ctx), /*mutableMemory=*/true);
  Value barrier = ttg::LocalAllocOp::create(b, loc, barrierType, Value(), IntegerAttr());
  ttng::InitBarrierOp::create(b, loc, barrier, 1);
  Value always = arith::ConstantIntOp::create(b, loc, 1, 1);
  ttng::BarrierExpectOp::create(b, loc, barrier, int32_t(blockBytes(*type)), always);
  ttng::AsyncTMACopyGlobalToLocalOp::create(b, loc, load.getDesc(), load.getIndices(), barrier,
                                            buffer, always, /*multicast=*/false,
                                            load.getCache(), load.getEvict(),
                                            /*isVolatile=*/false);
  Value phase = arith::ConstantIntOp::create(b, loc, 0, 32);
  ttng::WaitBarrierOp::create(b, loc, barrier, phase, Value(), ValueRange());
  ttng::InvalBarrierOp::create(b, loc, barrier);
  // A load only copied into a buffer of the same layout (a wgmma operand)
  // is that buffer: the copy lands where the dot reads it.
  auto alloc = load->hasOneUse() ? dyn_cast<ttg::LocalAllocOp>(*load->getUsers().begin())
                                 : ttg::LocalAllocOp();
  // Only where the buffer's users take a mutable buffer as they are.
  auto directUse = [](Operation *user) {
    return isa<ttng::WarpGroupDotOp>(user) ||
           (isa<ttg::MemDescTransOp>(user) &&
            llvm::all_of(user->getUsers(), [](Operation *u) { return isa<ttng::WarpGroupDotOp>(u); }));
  };
  if (alloc && alloc.getType().getEncoding() == type->getEncoding() &&
      alloc.getType().getShape() == type->getShape() &&
      llvm::all_of(alloc->getUsers(), directUse)) {
    alloc.getResult().replaceAllUsesWith(buffer);
    alloc.erase();
    // Transposed views of the buffer are now views of a mutable one.
    for (Operation *user : buffer.getUsers())
      if (auto trans = dyn_cast<ttg::MemDescTransOp>(user)) {
        ttg::MemDescType t = trans.getType();
        trans.getResult().setType(ttg::MemDescType::get(ctx, t.getShape(), t.getElementType(),
                                                        t.getEncoding(), t.getMemorySpace(),
                                                        /*mutableMemory=*/true, t.getAllocShape()));
      }
    load.erase();
    return success();
  }
  Value value = ttg::LocalLoadOp::create(b, loc, load.getType(), buffer, Value());
  load.replaceAllUsesWith(value);
  load.erase();
  return success();
}

LogicalResult lowerStore(tt::DescriptorStoreOp store) {
  FailureOr<ttg::MemDescType> type = bufferType(store, store.getDesc().getType(), false);
  if (failed(type))
    return failure();
  OpBuilder b(store);
  Location loc = store.getLoc();
  Value buffer = ttg::LocalAllocOp::create(b, loc, *type, store.getSrc(), IntegerAttr());
  ttng::FenceAsyncSharedOp::create(b, loc, /*bCluster=*/false);
  ttng::AsyncTMACopyLocalToGlobalOp::create(b, loc, store.getDesc(), store.getIndices(), buffer);
  ttng::TMAStoreWaitOp::create(b, loc, 0);
  store.erase();
  return success();
}

struct TMALowering : kiln::nvidia::impl::TMALoweringBase<TMALowering> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp>(op))
        ops.push_back(op);
    });
    bool ok = true;
    for (Operation *op : ops) {
      if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
        ok &= succeeded(lowerLoad(load));
      else
        ok &= succeeded(lowerStore(cast<tt::DescriptorStoreOp>(op)));
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
