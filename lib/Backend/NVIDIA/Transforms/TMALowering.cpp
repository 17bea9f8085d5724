//===- TMALowering.cpp - descriptor loads and stores as TMA copies --------===//
//
// Each load gets its own buffer and mbarrier and waits at once, as Triton
// does before its pipeliner overlaps them; the allocation pass reuses the
// memory of buffers whose lives do not overlap. A descriptor made in the
// kernel becomes a tensor map written into 128 bytes of the program's
// global scratch memory, as Triton 3.6 makes it; one made in a loop writes
// the next slot of a ring (TensorMapRings.h).
//
//===----------------------------------------------------------------------===//
#include "PipelinePlan.h"
#include "TensorMapRings.h"

#include "kiln/Backend/NVIDIA/Transforms/Passes.h"
#include "kiln/Dialect/TritonGPU/Transforms/Passes.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_TMALOWERING
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

/// The buffer type of a descriptor's block as a tensor of `shape` holds it
/// (the block, or the block without its leading unit dimensions, as Triton's
/// rank-reducing loads and stores have it), or a located error when the
/// block has no nvmma_shared encoding yet or `shape` is neither.
FailureOr<ttg::MemDescType> bufferType(Operation *op, tt::TensorDescType desc,
                                       ArrayRef<int64_t> shape, bool mutableMem) {
  if (!isa_and_nonnull<ttg::NVMMASharedEncodingAttr>(desc.getBlockType().getEncoding()))
    return op->emitError() << "a TMA copy through " << desc
                           << " needs a #ttg.nvmma_shared block encoding (run "
                              "ttgir.optimize-descriptor-encoding first)";
  if (ttg::MemDescType type = ttng::tmaBufferType(desc, shape, mutableMem))
    return type;
  return op->emitError() << "a tensor of shape [" << shape << "] is not the block of " << desc
                         << " (nor the block without leading unit dimensions)";
}

LogicalResult lowerLoad(tt::DescriptorLoadOp load) {
  FailureOr<ttg::MemDescType> type =
      bufferType(load, load.getDesc().getType(), load.getType().getShape(), true);
  if (failed(type))
    return failure();
  OpBuilder b(load);
  Location loc = load.getLoc();
  MLIRContext *ctx = b.getContext();
  Value buffer = ttg::LocalAllocOp::create(b, loc, *type, Value(), IntegerAttr());
  auto barrierType = ttg::MemDescType::get(
      {1}, b.getI64Type(), ttng::barrierEncoding(load),
      ttg::SharedMemorySpaceAttr::get(ctx), /*mutableMemory=*/true);
  Value barrier = ttg::LocalAllocOp::create(b, loc, barrierType, Value(), IntegerAttr());
  ttng::InitBarrierOp::create(b, loc, barrier, 1);
  Value always = arith::ConstantIntOp::create(b, loc, 1, 1);
  ttng::BarrierExpectOp::create(b, loc, barrier, int32_t(ttng::bufferBytes(*type)), always);
  ttng::AsyncTMACopyGlobalToLocalOp::create(b, loc, load.getDesc(), load.getIndices(), barrier,
                                            buffer, always, /*ctaMask=*/Value(),
                                            /*multicast=*/false,
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

/// Erases a lowered store or reduction, and the conversion feeding it that
/// storeBuffer went around when nothing else reads it (its scratch would
/// still be allocated).
void eraseWithDeadSource(Operation *op, Value src) {
  op->erase();
  if (auto cvt = src.getDefiningOp<ttg::ConvertLayoutOp>(); cvt && cvt->use_empty())
    cvt->erase();
}

/// The shared buffer a TMA store or reduction reads `src` from, made
/// visible to the async proxy.
FailureOr<Value> storeBuffer(OpBuilder &b, Operation *op, tt::TensorDescType desc, Value src) {
  FailureOr<ttg::MemDescType> type =
      bufferType(op, desc, cast<RankedTensorType>(src.getType()).getShape(), false);
  if (failed(type))
    return failure();
  Value buffer = ttg::LocalAllocOp::create(b, op->getLoc(), *type,
                                           ttng::tmaStoreSource(src, *type), IntegerAttr());
  ttng::FenceAsyncSharedOp::create(b, op->getLoc(), /*bCluster=*/false);
  return buffer;
}

/// The loop a store in `block` belongs to as its loop's direct child, or
/// in an scf.if that is one (a fused loop's epilogue): each pass then
/// issues all of that block's copies or none.
scf::ForOp storeLoop(Block *block) {
  Operation *parent = block->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(parent))
    return loop;
  if (isa<scf::IfOp>(parent))
    return dyn_cast<scf::ForOp>(parent->getParentOp());
  return {};
}

/// The TMA groups a pass of `loop` issues when every descriptor store and
/// reduction in it is in `block` (one group each); 0 otherwise.
unsigned bulkGroupsPerPass(scf::ForOp loop, Block *block) {
  unsigned groups = 0;
  bool together = true;
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<tt::DescriptorStoreOp, tt::DescriptorReduceOp, ttng::AsyncTMACopyLocalToGlobalOp,
             ttng::AsyncTMAReduceOp>(op))
      return;
    together &= op->getBlock() == block;
    ++groups;
  });
  return together ? groups : 0;
}

/// Stores of one loop block whose blocks are alike (a split epilogue's
/// halves) share one buffer, as Triton's do: each waits for the copy before
/// it, and the loop keeps the shared memory of one.
struct StoreBuffer {
  unsigned alike = 0;
  Value buffer;
};
using SharedStoreBuffers = DenseMap<std::pair<Block *, Type>, StoreBuffer>;

/// The `pieces` parts of the rank-2 `tile` along its innermost dimension,
/// each with its offset there, as views that keep every element in its
/// register: tt.reshape to [rows, 2, ..., 2, width], tt.trans moving the
/// 2s last, then tt.split pair by pair. tmaStoreStaging chose `pieces` for
/// a layout that allows it; failure (an internal error) otherwise.
FailureOr<SmallVector<std::pair<Value, int64_t>>> innerParts(OpBuilder &b, Location loc,
                                                             Operation *at, Value tile,
                                                             unsigned pieces) {
  auto type = cast<RankedTensorType>(tile.getType());
  int64_t rows = type.getShape()[0], width = type.getShape()[1] / pieces;
  unsigned halvings = llvm::Log2_32(pieces);
  bool ok = true;
  // `op`'s results in the layouts the layout engine derives for the view.
  auto inPlace = [&](Operation *op) {
    auto src = cast<RankedTensorType>(op->getOperand(0).getType());
    Attribute enc = ttg::viewResultEncoding(op, src.getEncoding());
    ok &= bool(enc);
    for (Value r : op->getResults())
      r.setType(cast<RankedTensorType>(r.getType()).cloneWithEncoding(enc));
  };
  SmallVector<int64_t> shape{rows};
  shape.append(halvings, 2);
  shape.push_back(width);
  auto viewed = tt::ReshapeOp::create(b, loc, RankedTensorType::get(shape, type.getElementType()),
                                      tile, /*allow_reorder=*/false, /*efficient_layout=*/false);
  inPlace(viewed);
  // [rows, width, 2 (halving 1), ..., 2 (halving k)]: a split takes the last.
  SmallVector<int32_t> order{0, int32_t(halvings + 1)};
  SmallVector<int64_t> transposed{rows, width};
  for (unsigned h = 1; h <= halvings; ++h) {
    order.push_back(int32_t(h));
    transposed.push_back(2);
  }
  auto trans = tt::TransOp::create(
      b, loc, RankedTensorType::get(transposed, type.getElementType()), viewed, order);
  inPlace(trans);
  SmallVector<std::pair<Value, int64_t>> parts{{trans, 0}};
  // Halving k (the last dimension) picks width * 2^0, halving 1 the most.
  for (unsigned h = halvings; h >= 1 && ok; --h) {
    SmallVector<std::pair<Value, int64_t>> next;
    for (auto [part, offset] : parts) {
      auto partType = cast<RankedTensorType>(part.getType());
      auto half = RankedTensorType::get(partType.getShape().drop_back(), type.getElementType());
      auto split = tt::SplitOp::create(b, loc, half, half, part);
      inPlace(split);
      int64_t step = width << (halvings - h);
      next.push_back({split.getOutLHS(), offset});
      next.push_back({split.getOutRHS(), offset + step});
    }
    parts = std::move(next);
  }
  if (!ok)
    return at->emitError() << "internal error: the TMA store's pieces would move data between "
                              "threads, which tmaStoreStaging ruled out";
  llvm::sort(parts, [](auto &x, auto &y) { return x.second < y.second; });
  return parts;
}

/// A store of a loop (see storeLoop) gets a buffer for the whole loop, and
/// waits before refilling it only for its copy of the previous pass that
/// stored (the groups issued since may stay in flight): the copy out
/// overlaps the rest of the pass (a persistent kernel's next tile). The
/// loop waits for all of them once it is done. A wide tile goes out in
/// pieces (tmaStoreStaging) through a ring of two: each piece waits only
/// until the copy two pieces back has read its buffer.
LogicalResult lowerStoreInLoop(tt::DescriptorStoreOp store, scf::ForOp loop, unsigned groups,
                               SharedStoreBuffers &shared) {
  Location loc = store.getLoc();
  Value src = store.getSrc();
  if (failed(bufferType(store, store.getDesc().getType(),
                        cast<RankedTensorType>(src.getType()).getShape(), true)))
    return failure();
  nvidia::TMAStoreStaging staging = nvidia::tmaStoreStaging(store);
  src = ttng::tmaStoreSource(src, staging.buffer);
  StoreBuffer &slot = shared[{store->getBlock(), staging.buffer}];
  unsigned alike = slot.alike;
  OpBuilder outside(loop);
  if (!slot.buffer)
    slot.buffer = ttg::LocalAllocOp::create(outside, loc, staging.buffer, Value(), IntegerAttr());
  Value buffer = slot.buffer;
  OpBuilder b(store);
  // Only the thread that issued the copy waits for it: the others may
  // refill the buffer once it has. A buffer of its own was last copied
  // out `groups` groups ago, a shared one by the latest group.
  auto copyOut = [&](Value value, Value into, ValueRange indices, int32_t pendings) {
    ttng::TMAStoreWaitOp::create(b, loc, pendings);
    ttg::BarrierOp::create(b, loc, ttg::AddrSpace::Local);
    ttg::LocalStoreOp::create(b, loc, value, into);
    ttng::FenceAsyncSharedOp::create(b, loc, /*bCluster=*/false);
    ttng::AsyncTMACopyLocalToGlobalOp::create(b, loc, store.getDesc(), indices, into);
  };
  if (staging.pieces == 1) {
    copyOut(src, buffer, store.getIndices(), alike > 1 ? 0 : int32_t(groups - 1));
  } else {
    auto parts = innerParts(b, loc, store, src, staging.pieces);
    if (failed(parts))
      return failure();
    auto ring = cast<ttg::MemDescType>(buffer.getType());
    auto pieceType = ttg::MemDescType::get(ring.getShape().drop_front(), ring.getElementType(),
                                           ring.getEncoding(), ring.getMemorySpace(), true);
    SmallVector<Value> indices(store.getIndices());
    Value inner = indices.back();
    for (auto [i, part] : llvm::enumerate(*parts)) {
      Value index = arith::ConstantIntOp::create(b, loc, int64_t(i % 2), 32);
      Value piece = ttg::MemDescIndexOp::create(b, loc, pieceType, buffer, index);
      if (part.second == 0) {
        indices.back() = inner;
      } else {
        Value offset = arith::ConstantIntOp::create(b, loc, part.second, 32);
        indices.back() = arith::AddIOp::create(b, loc, inner, offset);
      }
      // The latest group is the previous piece's, in the other buffer.
      copyOut(part.first, piece, indices, 1);
    }
  }
  auto after = dyn_cast_or_null<ttng::TMAStoreWaitOp>(loop->getNextNode());
  if (!after || after.getPendings() != 0) {
    outside.setInsertionPointAfter(loop);
    ttng::TMAStoreWaitOp::create(outside, loc, 0);
  }
  eraseWithDeadSource(store, store.getSrc());
  return success();
}

LogicalResult lowerStore(tt::DescriptorStoreOp store, SharedStoreBuffers &shared) {
  if (scf::ForOp loop = storeLoop(store->getBlock()))
    if (unsigned groups = bulkGroupsPerPass(loop, store->getBlock()))
      return lowerStoreInLoop(store, loop, groups, shared);
  OpBuilder b(store);
  FailureOr<Value> buffer = storeBuffer(b, store, store.getDesc().getType(), store.getSrc());
  if (failed(buffer))
    return failure();
  ttng::AsyncTMACopyLocalToGlobalOp::create(b, store.getLoc(), store.getDesc(),
                                            store.getIndices(), *buffer);
  ttng::TMAStoreWaitOp::create(b, store.getLoc(), 0);
  eraseWithDeadSource(store, store.getSrc());
  return success();
}

LogicalResult lowerReduce(tt::DescriptorReduceOp reduce) {
  OpBuilder b(reduce);
  FailureOr<Value> buffer = storeBuffer(b, reduce, reduce.getDesc().getType(), reduce.getSrc());
  if (failed(buffer))
    return failure();
  ttng::AsyncTMAReduceOp::create(b, reduce.getLoc(), reduce.getKind(), reduce.getDesc(),
                                 reduce.getIndices(), *buffer);
  ttng::TMAStoreWaitOp::create(b, reduce.getLoc(), 0);
  eraseWithDeadSource(reduce, reduce.getSrc());
  return success();
}

/// The tensor map of `tt.make_tensor_descriptor`: TMA numbers dimensions
/// innermost first, takes byte strides for all but the innermost (which
/// must be 1 element) and the box of one message, not the whole block.
/// `place` is its slot when the map is made in a loop, else null.
LogicalResult lowerMake(tt::MakeTensorDescOp make, Value place) {
  tt::TensorDescType desc = make.getType();
  FailureOr<ttng::TMADescriptorInfo> info = ttng::getTMADescriptorInfo(make, desc);
  if (failed(info))
    return failure();
  unsigned rank = desc.getBlockType().getRank();
  if (rank > 5)
    return make.emitError() << "a TMA tensor map has at most 5 dimensions, the descriptor has "
                            << rank;
  if (!matchPattern(make.getStrides().back(), m_One()))
    return make.emitError() << "the innermost stride of a tensor descriptor must be the constant "
                               "1 (TMA reads contiguous rows)";
  // TMA takes only byte strides that are multiples of 16; a stride known
  // here that is not would make an invalid tensor map.
  for (Value stride : make.getStrides().drop_back()) {
    APInt value;
    if (matchPattern(stride, m_ConstantInt(&value)) &&
        value.getSExtValue() * info->elemSize % 16 != 0)
      return make.emitError() << "a TMA tensor map needs strides that are multiples of 16 bytes; "
                              << value.getSExtValue() << " elements of " << info->elemSize
                              << " bytes are " << value.getSExtValue() * info->elemSize;
  }
  OpBuilder b(make);
  Location loc = make.getLoc();
  llvm::SmallDenseMap<int64_t, Value> constants;
  auto i32 = [&](int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIntOp::create(b, loc, v, 32);
    return c;
  };
  Value elemBytes = arith::ConstantIntOp::create(b, loc, info->elemSize, 64);
  SmallVector<Value> box, dims, strides, elementStrides;
  for (int d = int(rank) - 1; d >= 0; --d) {
    box.push_back(i32(info->box[d]));
    dims.push_back(make.getShape()[d]);
    elementStrides.push_back(i32(1));
    if (d < int(rank) - 1)
      strides.push_back(arith::MulIOp::create(b, loc, make.getStrides()[d], elemBytes));
  }
  auto bytePtr = tt::PointerType::get(b.getI8Type(), 1);
  Value map = place ? place
                    : ttg::GlobalScratchAllocOp::create(b, loc, bytePtr,
                                                        int32_t(ttng::kTensorMapBytes),
                                                        int32_t(ttng::kTensorMapBytes));
  int32_t fill = make.getPadding() == tt::PaddingOption::PAD_NAN ? 1 : 0;
  ttng::TensormapCreateOp::create(b, loc, map, make.getBase(), box, dims, strides,
                                  elementStrides, info->elemType, /*interleave_layout=*/0,
                                  info->swizzleMode, fill);
  ttng::TensormapFenceproxyAcquireOp::create(b, loc, map);
  Value view = ttng::ReinterpretTensorDescOp::create(b, loc, desc, map);
  make.replaceAllUsesWith(view);
  make.erase();
  return success();
}

struct TMALowering : kiln::nvidia::impl::TMALoweringBase<TMALowering> {
  using TMALoweringBase::TMALoweringBase;

  void runOnOperation() override {
    DenseMap<Operation *, Value> places =
        nvidia::placeTensorMapsInLoops(getOperation(), numStages);
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<tt::DescriptorLoadOp, tt::DescriptorStoreOp, tt::DescriptorReduceOp,
              tt::MakeTensorDescOp>(op))
        ops.push_back(op);
    });
    bool ok = true;
    SharedStoreBuffers shared;
    for (Operation *op : ops)
      if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
        if (ttg::MemDescType type = nvidia::tmaStoreStaging(store).buffer)
          ++shared[{store->getBlock(), type}].alike;
    for (Operation *op : ops) {
      if (auto load = dyn_cast<tt::DescriptorLoadOp>(op))
        ok &= succeeded(lowerLoad(load));
      else if (auto store = dyn_cast<tt::DescriptorStoreOp>(op))
        ok &= succeeded(lowerStore(store, shared));
      else if (auto reduce = dyn_cast<tt::DescriptorReduceOp>(op))
        ok &= succeeded(lowerReduce(reduce));
      else
        ok &= succeeded(lowerMake(cast<tt::MakeTensorDescOp>(op), places.lookup(op)));
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
