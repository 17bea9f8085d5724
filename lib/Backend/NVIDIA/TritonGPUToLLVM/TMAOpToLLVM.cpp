//===- TMAOpToLLVM.cpp - ttng mbarriers and TMA copies --------------------===//
//
// One thread (thread 0) initialises, arms and invalidates an mbarrier and
// issues every TMA message; all threads wait. A descriptor block larger
// than one TMA box (a 128-byte swizzle row holds 64 f16) is moved as
// several messages; where each box starts in the buffer comes from the
// buffer's nvmma_shared layout, inverted.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "kiln/Backend/NVIDIA/TargetInfo.h"
#include "kiln/Conversion/TritonGPUToLLVM/SharedAccess.h"

#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

using namespace mlir;
using kiln::layout::LinearLayout;

namespace kiln::nvidia {
using namespace kiln::lowering;

Value isThreadZero(OpBuilder &b, Location loc, const Context &ctx) {
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, ctx.target.threadId(b, loc),
                              i32Constant(b, loc, 0));
}

namespace {

/// How long a wait may take in Triton's debug mode before the kernel stops.
constexpr int64_t kMBarrierWaitLimitNs = 10'000'000'000;

Value electedAnd(OpBuilder &b, Location loc, const Context &ctx, Value pred) {
  Value first = isThreadZero(b, loc, ctx);
  return pred ? Value(LLVM::AndOp::create(b, loc, first, pred)) : first;
}

/// Every message of a copy: the box's first element in block coordinates
/// (outermost first) and its element offset in the buffer.
struct Message {
  SmallVector<int64_t> start;
  int64_t offset;
};

/// A copy's messages, and the block bases of its buffer's layout (for each
/// bit of the CTA rank, where that CTA's tile moves; empty for one CTA).
struct Messages {
  SmallVector<Message> list;
  std::vector<LinearLayout::Basis> blockBases;
};

FailureOr<Messages> messagesOf(Operation *op, tt::TensorDescType desc, ttg::MemDescType buffer) {
  FailureOr<ttng::TMADescriptorInfo> info = ttng::getTMADescriptorInfo(op, desc);
  if (failed(info))
    return failure();
  if (isa<ttg::PaddedSharedEncodingAttr>(buffer.getEncoding()))
    return op->emitError() << "op '" << op->getName()
                           << "' cannot be lowered to LLVM: TMA does not write the pads of a "
                              "#ttg.padded_shared buffer";
  auto enc = cast<ttg::LayoutEncodingInterface>(buffer.getEncoding());
  llvm::Expected<LinearLayout> whole = enc.toLinearLayout(buffer.getShape());
  if (!whole)
    return op->emitError() << llvm::toString(whole.takeError());
  Messages out;
  if (whole->hasInDim(layout::kBlock))
    out.blockBases = whole->getInDims()[whole->getInDimIndex(layout::kBlock)].bases;
  // Each CTA of a cluster copies its tile (ctaTileOf says where it starts).
  llvm::Expected<LinearLayout> shared = layout::ctaTile(*whole);
  if (!shared)
    return op->emitError() << llvm::toString(shared.takeError());
  std::optional<LinearLayout> toOffset = shared->invert();
  if (!toOffset)
    return op->emitError() << "the buffer's shared layout is not a bijection; TMA needs one";
  SmallVector<int64_t> tileShape = ttg::ctaShape(buffer.getShape(), buffer.getEncoding());
  ArrayRef<int64_t> shape = tileShape;
  // A rank-reducing copy's buffer lacks the block's leading unit dimensions.
  ArrayRef<int64_t> box = ArrayRef<int64_t>(info->box).take_back(shape.size());
  // A view of part of a buffer: each box lies where the buffer's layout
  // puts it, and must be laid out there as a buffer of the box's shape.
  ArrayRef<int64_t> bufferShape = buffer.getAllocShape().take_back(buffer.getShape().size());
  int64_t boxBits = 0; // offset bits a box's elements set, in a view
  if (buffer.getShape() != bufferShape) {
    llvm::Expected<LinearLayout> all = enc.toLinearLayout(bufferShape);
    llvm::Expected<LinearLayout> one = enc.toLinearLayout(box);
    if (all)
      all = layout::ctaTile(*all);
    if (one)
      one = layout::ctaTile(*one);
    std::optional<LinearLayout> allInverse = all ? all->invert() : std::nullopt;
    std::optional<LinearLayout> boxInverse = one ? one->invert() : std::nullopt;
    llvm::consumeError(all.takeError());
    llvm::consumeError(one.takeError());
    if (!allInverse || !boxInverse)
      return op->emitError() << "op '" << op->getName()
                             << "' cannot be lowered to LLVM: the view's buffer and its boxes "
                                "need layouts that hold each element once";
    for (auto [d, extent] : llvm::enumerate(box))
      for (int32_t v = 1; v < extent; v *= 2) {
        auto image = [&](const LinearLayout &inverse) {
          return component(inverse.apply({{layout::dimName(d), v}}), layout::kOffset);
        };
        if (image(*allInverse) != image(*boxInverse))
          return op->emitError()
                 << "op '" << op->getName()
                 << "' cannot be lowered to LLVM: in this view of part of a buffer a TMA box is "
                    "not laid out as TMA writes one";
        boxBits |= image(*allInverse);
      }
    toOffset = std::move(*allInverse);
  }
  SmallVector<int64_t> counts;
  for (auto [dim, b] : llvm::zip(shape, box))
    counts.push_back(dim / b);
  SmallVector<StringRef> dims = toOffset->getInDimNames();
  SmallVector<int64_t> index(shape.size(), 0);
  for (;;) {
    Message m;
    SmallVector<std::pair<StringRef, int32_t>> coords;
    for (unsigned d = 0; d < shape.size(); ++d) {
      m.start.push_back(index[d] * box[d]);
      coords.push_back({dims[d], int32_t(m.start[d])});
    }
    m.offset = component(toOffset->apply(coords), layout::kOffset);
    if (m.offset & boxBits)
      return op->emitError() << "op '" << op->getName()
                             << "' cannot be lowered to LLVM: in this view of part of a buffer "
                                "a TMA box's start and its elements share offset bits";
    out.list.push_back(std::move(m));
    // Next box, innermost dimension fastest.
    int d = int(shape.size()) - 1;
    while (d >= 0 && ++index[d] == counts[d])
      index[d--] = 0;
    if (d < 0)
      return out;
  }
}

/// Where this CTA's tile of a buffer split over the CTAs of a cluster
/// starts in the block (per buffer dimension; null where it starts at 0),
/// and which CTAs hold a tile no other CTA of lower rank holds (null: all).
struct CTATile {
  SmallVector<Value> origin;
  Value unique;
  /// The bits of the CTA rank along which the tile repeats.
  int64_t replicated = 0;
};

CTATile ctaTileOf(OpBuilder &b, Location loc, const Context &ctx, const Messages &copy,
                  unsigned rank) {
  CTATile tile;
  tile.origin.resize(rank);
  if (copy.blockBases.empty())
    return tile;
  Value ctaRank = ctx.target.blockId(b, loc);
  const auto &bases = copy.blockBases;
  int64_t replicated = 0;
  for (auto [bit, basis] : llvm::enumerate(bases)) {
    if (llvm::all_of(basis, [](int32_t c) { return c == 0; })) {
      replicated |= int64_t(1) << bit;
      continue;
    }
    Value set = LLVM::AndOp::create(b, loc, ctaRank, i32Constant(b, loc, int64_t(1) << bit));
    Value on = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, set, i32Constant(b, loc, 0));
    for (unsigned d = 0; d < basis.size(); ++d) {
      if (!basis[d])
        continue;
      Value term = LLVM::SelectOp::create(b, loc, on, i32Constant(b, loc, basis[d]),
                                          i32Constant(b, loc, 0));
      tile.origin[d] = tile.origin[d] ? Value(LLVM::XOrOp::create(b, loc, tile.origin[d], term))
                                      : term;
    }
  }
  tile.replicated = replicated;
  if (replicated) {
    Value masked = LLVM::AndOp::create(b, loc, ctaRank, i32Constant(b, loc, replicated));
    tile.unique =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, masked, i32Constant(b, loc, 0));
  }
  return tile;
}

/// The coordinates of a message in TMA's order (innermost first); `start`
/// and the CTA's `origin` cover the buffer's dimensions, the innermost of
/// the descriptor's.
SmallVector<Value> tmaCoordinates(OpBuilder &b, Location loc, ValueRange coord,
                                  ArrayRef<int64_t> start, ArrayRef<Value> origin) {
  SmallVector<Value> out;
  size_t dropped = coord.size() - start.size();
  for (int d = int(coord.size()) - 1; d >= 0; --d) {
    int64_t offset = d < int(dropped) ? 0 : start[d - dropped];
    Value c = coord[d];
    if (d >= int(dropped) && origin[d - dropped])
      c = LLVM::AddOp::create(b, loc, c, origin[d - dropped]);
    out.push_back(offset ? Value(LLVM::AddOp::create(b, loc, c, i32Constant(b, loc, offset))) : c);
  }
  return out;
}

/// How the CTAs holding one tile share its messages in a multicast copy:
/// message k is sent by the CTA whose index among them (its rank's
/// replicated bits, packed) is k mod their number, to all of them.
struct Multicast {
  Value index;   ///< i32
  Value ctaMask; ///< i16
  unsigned copies = 1;
};

Multicast multicastOf(OpBuilder &b, Location loc, const Context &ctx, int64_t replicated) {
  Multicast m;
  m.copies = 1u << llvm::popcount(uint64_t(replicated));
  Value rank = ctx.target.blockId(b, loc);
  m.index = i32Constant(b, loc, 0);
  unsigned packed = 0;
  for (unsigned bit = 0; bit < 16; ++bit) {
    if (!(replicated >> bit & 1))
      continue;
    Value set = LLVM::AndOp::create(b, loc, rank, i32Constant(b, loc, int64_t(1) << bit));
    Value moved = bit > packed ? Value(LLVM::LShrOp::create(b, loc, set,
                                                            i32Constant(b, loc, bit - packed)))
                               : set;
    m.index = LLVM::OrOp::create(b, loc, m.index, moved);
    ++packed;
  }
  // The group's ranks are the base (the other bits) plus every subset of
  // the replicated ones.
  int64_t pattern = 0;
  for (int64_t sub = replicated;; sub = (sub - 1) & replicated) {
    pattern |= int64_t(1) << sub;
    if (!sub)
      break;
  }
  Value base = LLVM::AndOp::create(b, loc, rank, i32Constant(b, loc, ~replicated));
  Value mask = LLVM::ShlOp::create(b, loc, i32Constant(b, loc, pattern), base);
  m.ctaMask = LLVM::TruncOp::create(b, loc, b.getI16Type(), mask);
  return m;
}

struct InitBarrierLowering : OpConversionPattern<ttng::InitBarrierOp> {
  InitBarrierLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::InitBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    targetInfo(ctx).mbarrierInit(rewriter, loc, adaptor.getAlloc(), op.getCount(),
                            isThreadZero(rewriter, loc, ctx));
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct InvalBarrierLowering : OpConversionPattern<ttng::InvalBarrierOp> {
  InvalBarrierLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::InvalBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    targetInfo(ctx).mbarrierInval(rewriter, loc, adaptor.getAlloc(), isThreadZero(rewriter, loc, ctx));
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct BarrierExpectLowering : OpConversionPattern<ttng::BarrierExpectOp> {
  BarrierExpectLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::BarrierExpectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    targetInfo(ctx).mbarrierArriveExpectTx(rewriter, loc, adaptor.getAlloc(), op.getSize(),
                                      electedAnd(rewriter, loc, ctx, adaptor.getPred()));
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// Triton's debug mode: a wait polls until the phase completes or
/// kMBarrierWaitLimitNs have passed; then lane 0 of each waiting warp prints
/// the barrier's offset, the parity and its warp, and the kernel stops
/// through the device assertion (which names the wait's source line, the
/// kernel, the block and the thread), instead of hanging the GPU. The
/// clock starts only when the first poll finds the phase incomplete, so a
/// wait that need not wait costs what a plain one does.
void waitOrStop(ConversionPatternRewriter &b, Location loc, const Context &ctx, Operation *op,
                Value bar, Value phase) {
  const NVIDIATargetInfo &target = targetInfo(ctx);
  OpBuilder::InsertionGuard guard(b);
  Value yes = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  // Polls sleep as the plain wait does: spinning warps would take issue
  // slots from the warps doing the work (a warp-specialised kernel waits a lot).
  unsigned sleep = NVIDIATargetInfo::kWaitSuspendNs;
  Value first =
      LLVM::XOrOp::create(b, loc, target.mbarrierTryWait(b, loc, bar, phase, sleep), yes);
  auto slow = scf::IfOp::create(b, loc, TypeRange(), first, /*withElseRegion=*/false);
  b.setInsertionPoint(slow.thenBlock()->getTerminator());
  Value start = ctx.target.globalTimer(b, loc);
  auto loop = scf::WhileOp::create(b, loc, TypeRange(), ValueRange());
  b.createBlock(&loop.getBefore());
  Value done = target.mbarrierTryWait(b, loc, bar, phase, sleep);
  Value waiting = LLVM::XOrOp::create(b, loc, done, yes);
  Value elapsed = LLVM::SubOp::create(b, loc, ctx.target.globalTimer(b, loc), start);
  Value late = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ugt, elapsed,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(kMBarrierWaitLimitNs)));
  auto stuck = scf::IfOp::create(b, loc, TypeRange(), LLVM::AndOp::create(b, loc, waiting, late),
                                 /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(stuck.thenBlock()->getTerminator());
    Value tid = ctx.target.threadId(b, loc);
    Value warpSize = i32Constant(b, loc, ctx.warpSize);
    Value lane0 = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                       LLVM::URemOp::create(b, loc, tid, warpSize),
                                       i32Constant(b, loc, 0));
    auto report = scf::IfOp::create(b, loc, TypeRange(), lane0, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard innermost(b);
      b.setInsertionPoint(report.thenBlock()->getTerminator());
      std::string text = "kiln: mbarrier wait not complete after " +
                         std::to_string(kMBarrierWaitLimitNs / 1000000000) +
                         " s (debug mode): barrier at shared offset %u, phase parity %u, warp %u "
                         "of block (%u, %u, %u)\n";
      Value format = stringPointer(b, loc, op, "mbarrierTimeout_", text);
      Value offset = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bar);
      Value warp = LLVM::UDivOp::create(b, loc, tid, warpSize);
      target.printf(b, loc, format,
                    {offset, phase, warp, NVVM::BlockIdXOp::create(b, loc, b.getI32Type()),
                     NVVM::BlockIdYOp::create(b, loc, b.getI32Type()),
                     NVVM::BlockIdZOp::create(b, loc, b.getI32Type())});
    }
    auto [file, line] = sourceLine(op->getLoc());
    std::string kernel = "unknown";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      kernel = func.getName().str();
    Value message =
        stringPointer(b, loc, op, "assertMessage_", "mbarrier wait timed out (kiln debug mode)");
    ctx.target.assertFail(b, loc, message, stringPointer(b, loc, op, "assertFile_", file), line,
                          stringPointer(b, loc, op, "assertFunc_", kernel));
  }
  scf::ConditionOp::create(b, loc, waiting, ValueRange());
  b.createBlock(&loop.getAfter());
  scf::YieldOp::create(b, loc);
}

struct WaitBarrierLowering : OpConversionPattern<ttng::WaitBarrierOp> {
  WaitBarrierLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::WaitBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A predicated wait is a wait under an scf.if: the loop polling the
    // barrier cannot carry a predicate (scf becomes branches later).
    if (Value pred = adaptor.getPred()) {
      auto guard = scf::IfOp::create(rewriter, loc, pred, /*withElseRegion=*/false);
      rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    if (ctx.options && ctx.options->debug)
      waitOrStop(rewriter, loc, ctx, op, adaptor.getAlloc(), adaptor.getPhase());
    else
      targetInfo(ctx).mbarrierWait(rewriter, loc, adaptor.getAlloc(), adaptor.getPhase());
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct ArriveBarrierLowering : OpConversionPattern<ttng::ArriveBarrierOp> {
  ArriveBarrierLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::ArriveBarrierOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred;
    if (auto warps = op->getAttrOfType<IntegerAttr>(ttng::kWarpsPerArrivalAttr)) {
      Value group = i32Constant(rewriter, loc, int32_t(warps.getInt() * ctx.warpSize));
      Value rank = LLVM::URemOp::create(rewriter, loc, ctx.target.threadId(rewriter, loc), group);
      pred = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, rank,
                                  i32Constant(rewriter, loc, 0));
      if (Value user = adaptor.getPred())
        pred = LLVM::AndOp::create(rewriter, loc, pred, user);
    } else {
      pred = electedAnd(rewriter, loc, ctx, adaptor.getPred());
    }
    if (ttng::isRemote(op.getAlloc().getType()))
      targetInfo(ctx).mbarrierArriveCluster(rewriter, loc, adaptor.getAlloc(), op.getCount(),
                                            pred);
    else
      targetInfo(ctx).mbarrierArrive(rewriter, loc, adaptor.getAlloc(), op.getCount(), pred);
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// Every thread's own copies: no election.
struct AsyncCopyArriveLowering : OpConversionPattern<ttng::AsyncCopyMbarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttng::AsyncCopyMbarrierArriveOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncMBarrierArriveOp::create(rewriter, op.getLoc(), adaptor.getBarrier(),
                                          op.getNoIncrement());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TMALoadLowering : OpConversionPattern<ttng::AsyncTMACopyGlobalToLocalOp> {
  TMALoadLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::AsyncTMACopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = op.getResult().getType();
    FailureOr<Messages> messages = messagesOf(op, op.getDesc().getType(), buffer);
    if (failed(messages))
      return failure();
    Location loc = op.getLoc();
    Type elem = getTypeConverter()->convertType(buffer.getElementType());
    Value pred = electedAnd(rewriter, loc, ctx, adaptor.getPred());
    CTATile tile = ctaTileOf(rewriter, loc, ctx, *messages, buffer.getRank());
    // A tile with too few messages to share is copied by each CTA alone
    // (each barrier still receives the tile's bytes once).
    std::optional<Multicast> multicast;
    // An explicit mask: this CTA sends every message to the CTAs it names
    // (of the cluster's; bits beyond it are dropped).
    Value explicitMask;
    if (adaptor.getCtaMask()) {
      Value inCluster = LLVM::AndOp::create(
          rewriter, loc, adaptor.getCtaMask(),
          i32Constant(rewriter, loc, (int64_t(1) << ctx.clusterCTAs) - 1));
      explicitMask = LLVM::TruncOp::create(rewriter, loc, rewriter.getI16Type(), inCluster);
    }
    if (op.getMulticast() && tile.replicated &&
        messages->list.size() % (size_t(1) << llvm::popcount(uint64_t(tile.replicated))) == 0)
      multicast = multicastOf(rewriter, loc, ctx, tile.replicated);
    for (auto [k, m] : llvm::enumerate(messages->list)) {
      Value dst = elementAddress(rewriter, loc, adaptor.getResult(), elem,
                                 i32Constant(rewriter, loc, m.offset));
      Value sends = pred, mask = explicitMask;
      if (multicast) {
        Value mine = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, multicast->index,
                                          i32Constant(rewriter, loc, k % multicast->copies));
        sends = LLVM::AndOp::create(rewriter, loc, pred, mine);
        mask = multicast->ctaMask;
      }
      targetInfo(ctx).tmaLoad(rewriter, loc, adaptor.getDesc(), dst, adaptor.getBarrier(),
                              tmaCoordinates(rewriter, loc, adaptor.getCoord(), m.start,
                                             tile.origin),
                              sends, mask);
    }
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct ClusterCTARankLowering : OpConversionPattern<ttng::ClusterCTARankOp> {
  ClusterCTARankLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::ClusterCTARankOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, ctx.target.blockId(rewriter, op.getLoc()));
    return success();
  }
  const Context &ctx;
};

struct MapToRemoteBufferLowering : OpConversionPattern<ttng::MapToRemoteBufferOp> {
  MapToRemoteBufferLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::MapToRemoteBufferOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, ctx.target.clusterSharedAddress(rewriter, op.getLoc(),
                                                           adaptor.getSrc(),
                                                           adaptor.getCtaRank()));
    return success();
  }
  const Context &ctx;
};

/// The cluster's barrier and the fence of mbarrier inits: every thread.
template <typename Op>
struct ClusterSyncLowering : OpConversionPattern<Op> {
  ClusterSyncLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern<Op>(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if constexpr (std::is_same_v<Op, ttng::ClusterArriveOp>)
      targetInfo(ctx).clusterArrive(rewriter, loc, op.getRelaxed());
    else if constexpr (std::is_same_v<Op, ttng::ClusterWaitOp>)
      targetInfo(ctx).clusterWait(rewriter, loc);
    else
      targetInfo(ctx).fenceMbarrierInitCluster(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// TMA stores and reductions: thread 0 sends every message of the buffer,
/// then closes its bulk group.
template <typename Op>
struct TMAStoreLikeLowering : OpConversionPattern<Op> {
  TMAStoreLikeLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern<Op>(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType buffer = op.getSrc().getType();
    FailureOr<Messages> messages = messagesOf(op, op.getDesc().getType(), buffer);
    if (failed(messages))
      return failure();
    Location loc = op.getLoc();
    Type elem = this->getTypeConverter()->convertType(buffer.getElementType());
    Value pred = isThreadZero(rewriter, loc, ctx);
    // A tile several CTAs hold goes out once (a reduction twice would be
    // wrong).
    CTATile tile = ctaTileOf(rewriter, loc, ctx, *messages, buffer.getRank());
    if (tile.unique)
      pred = LLVM::AndOp::create(rewriter, loc, pred, tile.unique);
    for (const Message &m : messages->list) {
      Value src = elementAddress(rewriter, loc, adaptor.getSrc(), elem,
                                 i32Constant(rewriter, loc, m.offset));
      SmallVector<Value> coords =
          tmaCoordinates(rewriter, loc, adaptor.getCoord(), m.start, tile.origin);
      if constexpr (std::is_same_v<Op, ttng::AsyncTMAReduceOp>)
        targetInfo(ctx).tmaReduce(rewriter, loc, tt::stringifyDescriptorReduceKind(op.getKind()),
                                  adaptor.getDesc(), src, coords, pred);
      else
        targetInfo(ctx).tmaStore(rewriter, loc, adaptor.getDesc(), src, coords, pred);
    }
    targetInfo(ctx).bulkCommitGroup(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// Thread 0 asks for every box of the descriptor's block (every CTA of a
/// cluster alike: a hint, as cheap to repeat as to share).
struct TMAPrefetchLowering : OpConversionPattern<ttng::AsyncTMAPrefetchOp> {
  TMAPrefetchLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::AsyncTMAPrefetchOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<ttng::TMADescriptorInfo> info =
        ttng::getTMADescriptorInfo(op, op.getDesc().getType());
    if (failed(info))
      return failure();
    Location loc = op.getLoc();
    Value pred = electedAnd(rewriter, loc, ctx, adaptor.getPred());
    ArrayRef<int64_t> block = op.getDesc().getType().getSignlessBlockType().getShape();
    SmallVector<int64_t> start(block.size(), 0);
    SmallVector<Value> noOrigin(block.size());
    for (;;) {
      targetInfo(ctx).tmaPrefetch(
          rewriter, loc, adaptor.getDesc(),
          tmaCoordinates(rewriter, loc, adaptor.getCoord(), start, noOrigin), pred);
      int d = int(block.size()) - 1;
      while (d >= 0 && (start[d] += info->box[d]) >= block[d])
        start[d--] = 0;
      if (d < 0)
        break;
    }
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct TMAStoreWaitLowering : OpConversionPattern<ttng::TMAStoreWaitOp> {
  TMAStoreWaitLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::TMAStoreWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    targetInfo(ctx).bulkWaitGroupRead(rewriter, op.getLoc(), op.getPendings());
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// The buffer of a TMA copy must be laid out as the descriptor's block.
LogicalResult checkBuffer(Operation *op, tt::TensorDescType desc, ttg::MemDescType buffer) {
  if (failed(ttng::getTMADescriptorInfo(op, desc)))
    return failure();
  auto want = cast<ttg::NVMMASharedEncodingAttr>(desc.getBlockType().getEncoding());
  auto have = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(buffer.getEncoding());
  if (!have || have.getSwizzlingByteWidth() != want.getSwizzlingByteWidth() ||
      have.getTransposed() != want.getTransposed() ||
      have.getElementBitWidth() != want.getElementBitWidth() ||
      have.getFp4Padded() != want.getFp4Padded())
    return op->emitError() << "the shared buffer of a TMA copy must have the descriptor's "
                              "layout "
                           << want << ", got " << buffer;
  return success();
}

/// The reductions Triton lowers to cp.reduce.async.bulk.tensor: add on
/// 32-bit integers, i64, f32, f16 and bf16; min and max on 32- and 64-bit
/// integers, f16 and bf16; the bitwise kinds on 32- and 64-bit integers.
bool tmaReduceSupported(tt::DescriptorReduceKind kind, Type elem) {
  using K = tt::DescriptorReduceKind;
  bool int32 = elem.isInteger(32), int64 = elem.isInteger(64);
  bool half = elem.isF16() || elem.isBF16();
  switch (kind) {
  case K::ADD:
    return int32 || int64 || half || elem.isF32();
  case K::MIN:
  case K::MAX:
    return int32 || int64 || half;
  case K::INC:
  case K::DEC:
    return false;
  case K::AND:
  case K::OR:
  case K::XOR:
    return int32 || int64;
  }
  return false;
}

} // namespace

bool isTMAOp(Operation *op) {
  return isa<ttng::InitBarrierOp, ttng::InvalBarrierOp, ttng::BarrierExpectOp,
             ttng::WaitBarrierOp, ttng::AsyncTMACopyGlobalToLocalOp,
             ttng::AsyncTMACopyLocalToGlobalOp, ttng::AsyncTMAReduceOp, ttng::TMAStoreWaitOp,
             ttng::AsyncTMAPrefetchOp,
             ttng::ArriveBarrierOp, ttng::AsyncCopyMbarrierArriveOp, ttng::ClusterCTARankOp,
             ttng::MapToRemoteBufferOp,
             ttng::ClusterArriveOp, ttng::ClusterWaitOp,
             ttng::FenceMBarrierInitReleaseClusterOp>(op);
}

LogicalResult checkTMALowering(Operation *op, const Context &ctx) {
  if (!isTMAOp(op))
    return success();
  if (!targetInfo(ctx).hasTMA())
    return op->emitError() << "op '" << op->getName()
                           << "' needs mbarriers and TMA (cuda:90 or later)";
  if (auto load = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(op)) {
    return checkBuffer(op, load.getDesc().getType(), load.getResult().getType());
  }
  if (auto store = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(op))
    return checkBuffer(op, store.getDesc().getType(), store.getSrc().getType());
  if (auto reduce = dyn_cast<ttng::AsyncTMAReduceOp>(op)) {
    Type elem = reduce.getSrc().getType().getElementType();
    if (!tmaReduceSupported(reduce.getKind(), elem))
      return op->emitError() << "a TMA '" << tt::stringifyDescriptorReduceKind(reduce.getKind())
                             << "' reduction of " << elem
                             << " elements has no PTX instruction (cp.reduce.async.bulk.tensor)";
    return checkBuffer(op, reduce.getDesc().getType(), reduce.getSrc().getType());
  }
  return success();
}

void populateTMAPatterns(lowering::TypeConverter &converter, const Context &ctx,
                         RewritePatternSet &patterns) {
  patterns.add<InitBarrierLowering, InvalBarrierLowering, BarrierExpectLowering,
               WaitBarrierLowering, ArriveBarrierLowering, TMALoadLowering,
               TMAStoreLikeLowering<ttng::AsyncTMACopyLocalToGlobalOp>,
               TMAStoreLikeLowering<ttng::AsyncTMAReduceOp>, TMAStoreWaitLowering,
               TMAPrefetchLowering,
               ClusterCTARankLowering, MapToRemoteBufferLowering,
               ClusterSyncLowering<ttng::ClusterArriveOp>, ClusterSyncLowering<ttng::ClusterWaitOp>,
               ClusterSyncLowering<ttng::FenceMBarrierInitReleaseClusterOp>>(converter, ctx);
  patterns.add<AsyncCopyArriveLowering>(converter, &converter.getContext());
  // Another CTA's shared memory is addressed through the shared::cluster
  // window (mapa's result).
  converter.addConversion([](ttg::MemDescType type) -> std::optional<Type> {
    if (!ttng::isRemote(type))
      return std::nullopt;
    return LLVM::LLVMPointerType::get(type.getContext(), 7);
  });
}

} // namespace kiln::nvidia
