//===- HWX.cpp - hwx: explicit hardware control from @triton.jit kernels --===//
//
// kiln's first-party plugin giving kernel authors the hardware's own
// resources inside ordinary Triton kernels (`from kiln.language import
// hwx`). Its ops build kiln's general `ttg`/`ttng` ops, so everything after
// the ttir stage (layouts, pipelining, lowering) treats them like Triton's
// and Gluon's. This file: shared-memory buffers, mbarriers, TMA and wgmma;
// Tasks.cpp: warp specialisation; Ids.cpp: named barriers, cluster rank
// and clock; Views.cpp: transposed and sliced views.
//
//   buf = hwx.alloc([128, 64], tl.float16, 2)   # buffer<2x128x64, fp16>
//   hwx.store(buf[0], x)                        # registers -> buffer 0
//   y = hwx.load(buf[0])                        # buffer 0 -> registers
//   bars = hwx.alloc_barriers(2, count=1)       # barrier<2>, initialised
//   hwx.barrier_arrive(bars[0]); hwx.barrier_wait(bars[0], phase)
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using kiln::KernelBuilder;
namespace ttg = kiln::ttg;
namespace ttng = kiln::ttng;

namespace {

using hwx::coordinates;
using hwx::pendingsOf;
using hwx::predicate;
using hwx::Results;
using hwx::scalarI32;

/// The memdesc of a buffer or barrier operand, or an error naming the op.
FailureOr<ttg::MemDescType> memdescOf(KernelBuilder &kb, StringRef op, Value value) {
  auto type = dyn_cast<ttg::MemDescType>(value.getType());
  if (!type)
    return kb.emitError() << op << " takes an hwx buffer or barrier, got " << value.getType();
  return type;
}

/// A constexpr list of positive powers of two.
FailureOr<SmallVector<int64_t>> shapeOf(KernelBuilder &kb, StringRef op, Attribute attr) {
  auto list = dyn_cast<ArrayAttr>(attr);
  SmallVector<int64_t> shape;
  for (Attribute element : list ? list.getValue() : ArrayRef<Attribute>()) {
    auto dim = dyn_cast<IntegerAttr>(element);
    if (!dim || dim.getInt() <= 0 || !llvm::isPowerOf2_64(dim.getInt()))
      return kb.emitError() << op << ": shape must be a list of powers of two, got " << attr;
    shape.push_back(dim.getInt());
  }
  if (!list || shape.empty())
    return kb.emitError() << op << ": shape must be a non-empty list, got " << attr;
  return shape;
}

/// A positive constexpr int.
FailureOr<int64_t> positive(KernelBuilder &kb, StringRef op, DictionaryAttr constants,
                            StringRef name, int64_t limit) {
  auto attr = constants.getAs<IntegerAttr>(name);
  if (!attr || attr.getInt() < 1 || attr.getInt() > limit)
    return kb.emitError() << op << ": " << name << " must be an int in [1, " << limit << "], got "
                          << constants.get(name);
  return attr.getInt();
}

// hwx.alloc(shape, dtype, num=1, swizzle=-1): `num` buffers of `shape`, in
// the layout wgmma and TMA read: with the swizzle asked for, or kiln's
// choice, the one kiln's descriptors of a block of that shape use (so that
// TMA copies and products agree on it), and unswizzled for one row.
Results alloc(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  FailureOr<SmallVector<int64_t>> shape = shapeOf(kb, "hwx.alloc", constants.get("shape"));
  FailureOr<int64_t> num = positive(kb, "hwx.alloc", constants, "num", 64);
  if (failed(shape) || failed(num))
    return failure();
  auto dtypeName = constants.getAs<StringAttr>("dtype");
  Type element = dtypeName ? kb.dtype(dtypeName.getValue()) : Type();
  if (!element)
    return kb.emitError() << "hwx.alloc: dtype must be a Triton dtype, got "
                          << constants.get("dtype");
  MLIRContext *ctx = &kb.context();
  // The swizzle asked for, or (-1) the one wgmma and TMA read for the shape.
  auto swizzle = constants.getAs<IntegerAttr>("swizzle");
  Attribute encoding;
  if (swizzle && swizzle.getInt() == -1) {
    encoding = hwx::bufferEncoding(*shape, element);
  } else {
    int64_t bytes = swizzle ? swizzle.getInt() : -2;
    int64_t rowBytes = shape->back() * element.getIntOrFloatBitWidth() / 8;
    if (!llvm::is_contained({0, 32, 64, 128}, bytes))
      return kb.emitError() << "hwx.alloc: swizzle must be -1 (kiln's choice), 0, 32, 64 or 128 "
                               "bytes, got "
                            << constants.get("swizzle");
    int64_t rows = 1;
    for (int64_t d : ArrayRef<int64_t>(*shape).drop_back())
      rows *= d;
    if (bytes && (shape->size() < 2 || rowBytes % bytes || rows < 8))
      return kb.emitError() << "hwx.alloc: a " << bytes << "-byte swizzle needs 8 or more rows "
                            << "of a multiple of " << bytes << " bytes; this buffer has " << rows
                            << " row(s) of " << rowBytes << " bytes";
    encoding = ttg::NVMMASharedEncodingAttr::get(ctx, unsigned(bytes), /*transposed=*/false,
                                                 element.getIntOrFloatBitWidth(),
                                                 /*fp4Padded=*/false, unsigned(shape->size()), {});
  }
  SmallVector<int64_t> allocShape{*num};
  allocShape.append(shape->begin(), shape->end());
  auto type = ttg::MemDescType::get(allocShape, element, encoding,
                                    ttg::SharedMemorySpaceAttr::get(ctx), /*mutableMemory=*/true);
  auto op = ttg::LocalAllocOp::create(kb.builder(), kb.loc(), type, Value(), IntegerAttr());
  // kiln's choice, for hwx.infer-buffer-layouts to revise by the TMA copies.
  if (swizzle && swizzle.getInt() == -1)
    op->setAttr(hwx::kInferredLayoutAttr, UnitAttr::get(ctx));
  return SmallVector<Value>{op.getResult()};
}

// hwx.alloc_barriers(num=1, count=1): `num` mbarriers, each initialised to
// complete a phase after `count` arrivals.
Results allocBarriers(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  FailureOr<int64_t> num = positive(kb, "hwx.alloc_barriers", constants, "num", 64);
  FailureOr<int64_t> count = positive(kb, "hwx.alloc_barriers", constants, "count", 1 << 20);
  if (failed(num) || failed(count))
    return failure();
  MLIRContext *ctx = &kb.context();
  OpBuilder &b = kb.builder();
  auto smem = ttg::SharedMemorySpaceAttr::get(ctx);
  auto encoding = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, {0});
  auto all = ttg::MemDescType::get({*num, 1}, b.getI64Type(), encoding, smem, true);
  auto one = ttg::MemDescType::get({1}, b.getI64Type(), encoding, smem, true);
  Value bars = ttg::LocalAllocOp::create(b, kb.loc(), all, Value(), IntegerAttr());
  for (int64_t i = 0; i < *num; ++i) {
    Value view = ttg::MemDescIndexOp::create(b, kb.loc(), one, bars, kb.constInt(i));
    ttng::InitBarrierOp::create(b, kb.loc(), view, *count);
  }
  return SmallVector<Value>{bars};
}

// hwx.index(value, i): buffer or barrier `i` of an allocation.
Results index(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  FailureOr<ttg::MemDescType> type = memdescOf(kb, "hwx.index", operands[0]);
  if (failed(type))
    return failure();
  // Dimensions before those the layout describes index the allocation.
  auto layout = cast<ttg::LayoutEncodingInterface>(type->getEncoding());
  if (type->getRank() <= int64_t(layout.getRank()))
    return kb.emitError() << "hwx.index: " << ttg::MemDescType(*type)
                          << " is one buffer or barrier; index the allocation";
  Value i = scalarI32(kb, "hwx.index", "the index", operands[1]);
  if (!i)
    return failure();
  auto view = ttg::MemDescType::get(type->getShape().drop_front(), type->getElementType(),
                                    type->getEncoding(), type->getMemorySpace(),
                                    type->getMutableMemory());
  return SmallVector<Value>{
      ttg::MemDescIndexOp::create(kb.builder(), kb.loc(), view, operands[0], i).getResult()};
}

// hwx.load(buf): the buffer's contents as a tensor.
Results load(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  FailureOr<ttg::MemDescType> type = memdescOf(kb, "hwx.load", operands[0]);
  if (failed(type))
    return failure();
  auto result = RankedTensorType::get(type->getShape(), type->getElementType());
  return SmallVector<Value>{
      ttg::LocalLoadOp::create(kb.builder(), kb.loc(), result, operands[0]).getResult()};
}

// hwx.store(buf, value): `value` (a tensor of the buffer's shape and dtype;
// a scalar is splat) into the buffer.
Results store(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  FailureOr<ttg::MemDescType> type = memdescOf(kb, "hwx.store", operands[0]);
  if (failed(type))
    return failure();
  Value value = operands[1];
  if (KernelBuilder::elementType(value) != type->getElementType())
    return kb.emitError() << "hwx.store: the value's element type "
                          << KernelBuilder::elementType(value) << " is not the buffer's "
                          << type->getElementType();
  if (!isa<RankedTensorType>(value.getType()))
    value = kb.splat(value, type->getShape());
  if (KernelBuilder::shape(value) != type->getShape())
    return kb.emitError() << "hwx.store: a value of type " << value.getType()
                          << " does not fit the buffer " << ttg::MemDescType(*type);
  ttg::LocalStoreOp::create(kb.builder(), kb.loc(), value, operands[0]);
  return SmallVector<Value>{};
}

/// A single barrier (rank-1 `1xi64` memdesc) or an error; another CTA's
/// (hwx.remote) only where `remote` allows it.
FailureOr<Value> barrierOf(KernelBuilder &kb, StringRef op, Value value, bool remote = false) {
  FailureOr<ttg::MemDescType> type = memdescOf(kb, op, value);
  if (failed(type))
    return failure();
  if (type->getRank() != 1 || !type->getElementType().isInteger(64))
    return kb.emitError() << op << " takes one barrier (index the allocation: bars[i]), got "
                          << ttg::MemDescType(*type);
  if (!remote && ttng::isRemote(*type))
    return kb.emitError() << op << " takes a barrier of this CTA's; only hwx.barrier_arrive "
                                   "takes another CTA's (hwx.remote)";
  return value;
}

// hwx.barrier_expect(bar, bytes): the barrier's phase also waits for
// `bytes` bytes of asynchronous copies.
Results barrierExpect(KernelBuilder &kb, ValueRange operands, DictionaryAttr constants) {
  FailureOr<Value> bar = barrierOf(kb, "hwx.barrier_expect", operands[0]);
  FailureOr<int64_t> bytes = positive(kb, "hwx.barrier_expect", constants, "bytes", 1 << 20);
  Value pred = predicate(kb, "hwx.barrier_expect", operands[1]);
  if (failed(bar) || failed(bytes) || !pred)
    return failure();
  ttng::BarrierExpectOp::create(kb.builder(), kb.loc(), *bar, *bytes, pred);
  return SmallVector<Value>{};
}

// hwx.barrier_arrive(bar, count=1): `count` arrivals from the CTA.
Results barrierArrive(KernelBuilder &kb, ValueRange operands, DictionaryAttr constants) {
  FailureOr<Value> bar = barrierOf(kb, "hwx.barrier_arrive", operands[0], /*remote=*/true);
  FailureOr<int64_t> count = positive(kb, "hwx.barrier_arrive", constants, "count", 1 << 20);
  Value pred = predicate(kb, "hwx.barrier_arrive", operands[1]);
  auto perGroup = constants.getAs<BoolAttr>("per_warp_group");
  if (!perGroup)
    return kb.emitError() << "hwx.barrier_arrive: per_warp_group must be a bool, got "
                          << constants.get("per_warp_group");
  if (failed(bar) || failed(count) || !pred)
    return failure();
  auto arrive = ttng::ArriveBarrierOp::create(kb.builder(), kb.loc(), *bar, *count, pred);
  // Each warp group's own arrival: after its own async_dot_wait, a warp
  // group knows only that its own products have retired.
  if (perGroup.getValue())
    arrive->setAttr(ttng::kWarpsPerArrivalAttr, kb.builder().getI32IntegerAttr(4));
  return SmallVector<Value>{};
}

// hwx.barrier_wait(bar, phase): waits until the phase of parity `phase`
// (0 or 1; only the lowest bit counts) has completed.
Results barrierWait(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  FailureOr<Value> bar = barrierOf(kb, "hwx.barrier_wait", operands[0]);
  if (failed(bar))
    return failure();
  Value phase = scalarI32(kb, "hwx.barrier_wait", "the phase", operands[1]);
  Value pred = predicate(kb, "hwx.barrier_wait", operands[2]);
  if (!phase || !pred)
    return failure();
  ttng::WaitBarrierOp::create(kb.builder(), kb.loc(), *bar, phase, pred, ValueRange());
  return SmallVector<Value>{};
}

// hwx.fence_async_shared(): orders this thread's shared-memory accesses
// before later asynchronous-proxy ones (TMA, wgmma).
Results fenceAsyncShared(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  ttng::FenceAsyncSharedOp::create(kb.builder(), kb.loc(), /*bCluster=*/false);
  return SmallVector<Value>{};
}

// hwx.fence(scope="gpu", sem="acq_rel"): orders this thread's earlier
// memory accesses before its later ones, as the threads of `scope` see them.
Results fence(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  auto scopeName = constants.getAs<StringAttr>("scope");
  auto semName = constants.getAs<StringAttr>("sem");
  std::optional<kiln::tt::MemSyncScope> scope =
      scopeName ? kiln::tt::symbolizeMemSyncScope(scopeName.getValue()) : std::nullopt;
  std::optional<kiln::tt::MemSemantic> sem =
      semName ? kiln::tt::symbolizeMemSemantic(semName.getValue()) : std::nullopt;
  if (!scope)
    return kb.emitError() << "hwx.fence: scope must be 'cta', 'gpu' or 'sys', got "
                          << constants.get("scope");
  if (!sem || *sem == kiln::tt::MemSemantic::RELAXED)
    return kb.emitError() << "hwx.fence: sem must be 'acquire', 'release' or 'acq_rel', got "
                          << constants.get("sem");
  ttg::MemoryFenceOp::create(kb.builder(), kb.loc(), *sem, *scope);
  return SmallVector<Value>{};
}

/// The block a descriptor moves must be the buffer's shape.
LogicalResult checkBox(KernelBuilder &kb, StringRef op, Value desc, Value buf) {
  auto descType = dyn_cast<kiln::tt::TensorDescType>(desc.getType());
  auto bufType = dyn_cast<ttg::MemDescType>(buf.getType());
  if (!descType || !bufType)
    return kb.emitError() << op << " takes a tensor descriptor and an hwx buffer";
  RankedTensorType block = descType.getSignlessBlockType();
  if (!ttng::holdsTMABlock(block.getShape(), bufType.getShape()) ||
      block.getElementType() != bufType.getElementType())
    return kb.emitError() << op << ": the descriptor's block " << RankedTensorType(block)
                          << " does not fit the buffer " << ttg::MemDescType(bufType);
  return success();
}

// hwx.async_load(desc, offsets, buf, bar, pred, multicast=0): a TMA copy
// of the descriptor's block at `offsets` into `buf`, completing on `bar`
// (expect its bytes). With a multicast mask, into `buf` and onto `bar` of
// each CTA of the cluster whose rank's bit is set instead.
Results asyncLoad(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  // desc, offsets..., buf, bar, pred, multicast
  size_t n = operands.size();
  Value desc = operands.front(), buf = operands[n - 4];
  FailureOr<Value> bar = barrierOf(kb, "hwx.async_load", operands[n - 3]);
  Value pred = predicate(kb, "hwx.async_load", operands[n - 2]);
  if (failed(bar) || !pred || failed(checkBox(kb, "hwx.async_load", desc, buf)))
    return failure();
  FailureOr<SmallVector<Value>> coords =
      coordinates(kb, "hwx.async_load", desc, operands.drop_front().drop_back(4));
  if (failed(coords))
    return failure();
  // multicast=0 is an ordinary copy: a constant 0 (the default) builds
  // one, a run-time 0 becomes this CTA's own bit (the same copy).
  Value mask = operands[n - 1];
  APInt constant;
  if (matchPattern(mask, m_ConstantInt(&constant)) && constant.isZero()) {
    mask = Value();
  } else if (!(mask = scalarI32(kb, "hwx.async_load", "multicast (a CTA mask)", mask))) {
    return failure();
  } else if (hwx::markClusterAware(kb); !matchPattern(mask, m_ConstantInt(&constant))) {
    OpBuilder &b = kb.builder();
    Value rank = ttng::ClusterCTARankOp::create(b, kb.loc(), b.getI32Type());
    Value own = arith::ShLIOp::create(b, kb.loc(), kb.constInt(1), rank);
    Value none = arith::CmpIOp::create(b, kb.loc(), arith::CmpIPredicate::eq, mask, kb.constInt(0));
    mask = arith::SelectOp::create(b, kb.loc(), none, own, mask);
  }
  ttng::AsyncTMACopyGlobalToLocalOp::create(kb.builder(), kb.loc(), desc, *coords, *bar, buf,
                                            pred, mask);
  return SmallVector<Value>{};
}

// hwx.async_store(desc, offsets, buf): a TMA copy of `buf` into the
// descriptor's block at `offsets` (hwx.async_store_wait before reusing buf).
Results asyncStore(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  Value desc = operands.front(), buf = operands.back();
  if (failed(checkBox(kb, "hwx.async_store", desc, buf)))
    return failure();
  FailureOr<SmallVector<Value>> coords =
      coordinates(kb, "hwx.async_store", desc, operands.drop_front().drop_back());
  if (failed(coords))
    return failure();
  ttng::AsyncTMACopyLocalToGlobalOp::create(kb.builder(), kb.loc(), desc, *coords, buf);
  return SmallVector<Value>{};
}

// hwx.async_reduce(desc, offsets, buf, kind="add"): a TMA reduction of
// `buf` into the descriptor's block at `offsets`, element by element
// (hwx.async_store_wait before reusing buf).
Results asyncReduce(KernelBuilder &kb, ValueRange operands, DictionaryAttr constants) {
  Value desc = operands.front(), buf = operands.back();
  auto kindName = constants.getAs<StringAttr>("kind");
  std::optional<kiln::tt::DescriptorReduceKind> kind =
      kindName ? kiln::tt::symbolizeDescriptorReduceKind(kindName.getValue()) : std::nullopt;
  if (!kind)
    return kb.emitError() << "hwx.async_reduce: kind must be one of add, min, max, inc, dec, "
                             "and, or, xor; got "
                          << constants.get("kind");
  if (failed(checkBox(kb, "hwx.async_reduce", desc, buf)))
    return failure();
  FailureOr<SmallVector<Value>> coords =
      coordinates(kb, "hwx.async_reduce", desc, operands.drop_front().drop_back());
  if (failed(coords))
    return failure();
  ttng::AsyncTMAReduceOp::create(kb.builder(), kb.loc(), *kind, desc, *coords, buf);
  return SmallVector<Value>{};
}

// hwx.async_store_wait(pendings=0): waits until at most `pendings` TMA
// stores are still reading their buffers.
Results asyncStoreWait(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  FailureOr<int64_t> pendings = pendingsOf(kb, "hwx.async_store_wait", constants);
  if (failed(pendings))
    return failure();
  ttng::TMAStoreWaitOp::create(kb.builder(), kb.loc(), *pendings);
  return SmallVector<Value>{};
}

// hwx.async_dot(a, b, acc): acc + a @ b on the warp group's tensor cores
// (wgmma), b from a buffer, a from a buffer or registers (a tensor),
// started asynchronously: the result may be used only after
// hwx.async_dot_wait.
Results asyncDot(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  Value a = operands[0], b = operands[1], acc = operands[2];
  auto accType = dyn_cast<RankedTensorType>(acc.getType());
  if (!isa<ttg::MemDescType, RankedTensorType>(a.getType()) ||
      !isa<ttg::MemDescType>(b.getType()) || !accType)
    return kb.emitError() << "hwx.async_dot takes a buffer or tensor, a buffer and an "
                             "accumulator tensor";
  auto op = ttng::WarpGroupDotOp::create(kb.builder(), kb.loc(), accType, a, b, acc, Value(),
                                         kiln::tt::InputPrecision::IEEE, 0, /*isAsync=*/true);
  if (failed(mlir::verify(op)))
    return failure();
  return SmallVector<Value>{op.getD()};
}

// hwx.async_dot_wait(acc, pendings=0): waits until at most `pendings`
// async_dots are in flight; returns acc, now readable.
Results asyncDotWait(KernelBuilder &kb, ValueRange operands, DictionaryAttr constants) {
  FailureOr<int64_t> pendings = pendingsOf(kb, "hwx.async_dot_wait", constants);
  if (failed(pendings))
    return failure();
  auto op = ttng::WarpGroupDotWaitOp::create(kb.builder(), kb.loc(), operands, *pendings);
  return SmallVector<Value>{op.getOutputs().front()};
}

void registerOps(kiln::OpRegistry &registry) {
  using kiln::KernelOpOperand;
  const kiln::KernelOpResult sameKindTail{"value.kind", "value.shape[1:]", "value.dtype"};
  registry.addValueKind({"hwx.buffer",
                         "shared-memory buffers of one shape and dtype (hwx.alloc); buf[i] is "
                         "buffer i of an allocation",
                         "hwx.index"});
  registry.addValueKind({"hwx.barrier",
                         "mbarriers (hwx.alloc_barriers); bars[i] is barrier i", "hwx.index"});
  const hwx::OpDecl decls[] = {
      {"hwx.alloc",
       {{"shape", "constexpr"},
        {"dtype", "constexpr"},
        {"num", "constexpr", "1"},
        {"swizzle", "constexpr", "-1"}},
       {{"buffer", "[num] + list(shape)", "dtype"}},
       "(shape: list[int], dtype, num: int = 1, swizzle: int = -1) -> buffer[num, *shape]",
       "num shared-memory buffers of shape and dtype, in the layout wgmma and TMA read (swizzle: "
       "its byte width, -1 for kiln's choice)",
       &alloc},
      {"hwx.index",
       {{"value", "buffer|barrier"}, "i"},
       {sameKindTail},
       "(value: buffer | barrier, i: int32) -> buffer | barrier",
       "buffer or barrier i of an allocation (also value[i])",
       &index},
      {"hwx.load",
       {{"buf", "buffer"}},
       {{"tensor", "buf.shape", "buf.dtype"}},
       "(buf: buffer) -> tensor",
       "the buffer's contents, into registers",
       &load},
      {"hwx.store",
       {{"buf", "buffer"}, "value"},
       {},
       "(buf: buffer, value: tensor) -> None",
       "value (of the buffer's shape and dtype; a scalar is splat) into the buffer",
       &store},
      {"hwx.alloc_barriers",
       {{"num", "constexpr", "1"}, {"count", "constexpr", "1"}},
       {{"barrier", "[num]", "None"}},
       "(num: int = 1, count: int = 1) -> barrier[num]",
       "num mbarriers, each completing a phase after count arrivals",
       &allocBarriers},
      {"hwx.barrier_expect",
       {{"bar", "barrier"}, {"bytes", "constexpr"}, {"pred", "tensor", "true"}},
       {},
       "(bar: barrier, bytes: int, pred: bool = True) -> None",
       "the barrier's current phase also waits for bytes of asynchronous copies",
       &barrierExpect},
      {"hwx.barrier_arrive",
       {{"bar", "barrier"},
        {"count", "constexpr", "1"},
        {"pred", "tensor", "true"},
        {"per_warp_group", "constexpr", "false"}},
       {},
       "(bar: barrier, count: int = 1, pred: bool = True, per_warp_group: bool = False) -> None",
       "count arrivals on the barrier, once per CTA (per warp group of the executing warps: "
       "per_warp_group)",
       &barrierArrive},
      {"hwx.barrier_wait",
       {{"bar", "barrier"}, "phase", {"pred", "tensor", "true"}},
       {},
       "(bar: barrier, phase: int32, pred: bool = True) -> None",
       "waits until the barrier's phase of parity phase completes",
       &barrierWait},
      {"hwx.async_load",
       {{"desc", "descriptor"},
        {"offsets", "tensors"},
        {"buf", "buffer"},
        {"bar", "barrier"},
        {"pred", "tensor", "true"},
        {"multicast", "tensor", "0"}},
       {},
       "(desc: tensor_descriptor, offsets: list[int32], buf: buffer, bar: barrier, "
       "pred: bool = True, multicast: int32 = 0) -> None",
       "TMA copy of the descriptor's block at offsets into buf, completing on bar; with a "
       "multicast mask (bit r: the cluster's CTA of rank r), into buf and onto bar of each CTA "
       "it names",
       &asyncLoad},
      {"hwx.async_store",
       {{"desc", "descriptor"}, {"offsets", "tensors"}, {"buf", "buffer"}},
       {},
       "(desc: tensor_descriptor, offsets: list[int32], buf: buffer) -> None",
       "TMA copy of buf into the descriptor's block at offsets",
       &asyncStore},
      {"hwx.async_reduce",
       {{"desc", "descriptor"}, {"offsets", "tensors"}, {"buf", "buffer"},
        {"kind", "constexpr", "\"add\""}},
       {},
       "(desc: tensor_descriptor, offsets: list[int32], buf: buffer, kind: str = 'add') -> None",
       "TMA reduction (add, min, max, inc, dec, and, or, xor) of buf into the descriptor's "
       "block at offsets",
       &asyncReduce},
      {"hwx.async_store_wait",
       {{"pendings", "constexpr", "0"}},
       {},
       "(pendings: int = 0) -> None",
       "waits until at most pendings TMA stores still read their buffers",
       &asyncStoreWait},
      {"hwx.async_dot",
       {{"a", "buffer|tensor"}, {"b", "buffer"}, "acc"},
       {{"tensor", "acc.shape", "acc.dtype"}},
       "(a: buffer | tensor, b: buffer, acc: tensor) -> tensor",
       "acc + a @ b on the warp group's tensor cores (wgmma), a from shared memory or "
       "registers; asynchronous until async_dot_wait",
       &asyncDot},
      {"hwx.async_dot_wait",
       {"acc", {"pendings", "constexpr", "0"}},
       {{"tensor", "acc.shape", "acc.dtype"}},
       "(acc: tensor, pendings: int = 0) -> tensor",
       "waits until at most pendings async_dots are in flight; returns acc, then readable",
       &asyncDotWait},
      {"hwx.fence_async_shared",
       {},
       {},
       "() -> None",
       "orders earlier shared-memory accesses before later TMA and wgmma ones",
       &fenceAsyncShared},
      {"hwx.fence",
       {{"scope", "constexpr", "\"gpu\""}, {"sem", "constexpr", "\"acq_rel\""}},
       {},
       "(scope: str = 'gpu', sem: str = 'acq_rel') -> None",
       "orders this thread's earlier memory accesses before its later ones for the threads of "
       "scope (cta, gpu, sys)",
       &fence},
  };
  hwx::addOps(registry, decls);
  hwx::registerTaskOps(registry);
  hwx::registerIdOps(registry);
  hwx::registerViewOps(registry);
  hwx::registerCopyOps(registry);
}

const kiln::PluginInfo info = {KILN_PLUGIN_HEADER("hwx", "0.1"),
                               /*registerDialects=*/nullptr, &hwx::registerLayoutPasses,
                               &hwx::extendPipelineWithLayouts, &registerOps};

} // namespace

/// `value` as an i32 scalar (Python ints are i32 already; i64 is narrowed).
Value hwx::scalarI32(KernelBuilder &kb, StringRef op, StringRef what, Value value) {
  if (isa<RankedTensorType>(value.getType()) || !value.getType().isIntOrIndex()) {
    kb.emitError() << op << ": " << what << " must be an integer scalar, got " << value.getType();
    return {};
  }
  return value.getType().isInteger(32) ? value : kb.cast(value, kb.builder().getI32Type());
}

/// A predicate operand: an i1 scalar (the default True), or an integer
/// scalar compared with zero.
Value hwx::predicate(KernelBuilder &kb, StringRef op, Value value) {
  if (isa<RankedTensorType>(value.getType()) || !value.getType().isIntOrIndex()) {
    kb.emitError() << op << ": pred must be a boolean scalar, got " << value.getType();
    return {};
  }
  if (value.getType().isInteger(1))
    return value;
  return kb.cmp(kiln::CmpKind::NE, value, kb.constInt(0, value.getType()));
}

/// The offsets of a TMA copy: one i32 scalar per dimension of the block.
FailureOr<SmallVector<Value>> hwx::coordinates(KernelBuilder &kb, StringRef op, Value desc,
                                          ValueRange offsets) {
  auto block = cast<kiln::tt::TensorDescType>(desc.getType()).getSignlessBlockType();
  if (offsets.size() != size_t(block.getRank()))
    return kb.emitError() << op << ": " << offsets.size() << " offset(s) for a " << block.getRank()
                          << "-D descriptor";
  SmallVector<Value> coords;
  for (Value offset : offsets) {
    coords.push_back(scalarI32(kb, op, "an offset", offset));
    if (!coords.back())
      return failure();
  }
  return coords;
}

/// The `pendings` constexpr of a wait: how many operations may still run.
FailureOr<int64_t> hwx::pendingsOf(KernelBuilder &kb, StringRef op, DictionaryAttr constants) {
  auto pendings = constants.getAs<IntegerAttr>("pendings");
  if (!pendings || pendings.getInt() < 0 || pendings.getInt() > 64)
    return kb.emitError() << op << ": pendings must be an int in [0, 64]";
  return pendings.getInt();
}

void hwx::markClusterAware(KernelBuilder &kb) {
  Operation *at = kb.builder().getInsertionBlock()->getParentOp();
  auto module = isa<ModuleOp>(at) ? cast<ModuleOp>(at) : at->getParentOfType<ModuleOp>();
  module->setAttr(ttg::TritonGPUDialect::kLoneCTAsAttr, UnitAttr::get(&kb.context()));
}

Attribute hwx::bufferEncoding(ArrayRef<int64_t> shape, Type element) {
  if (shape.size() >= 2)
    return ttng::defaultTMAEncoding(RankedTensorType::get(shape, element), {});
  return ttg::SwizzledSharedEncodingAttr::get(element.getContext(), 1, 1, 1, {0});
}

void hwx::addOps(kiln::OpRegistry &registry, ArrayRef<OpDecl> decls) {
  for (const OpDecl &decl : decls) {
    kiln::KernelOp op;
    op.name = decl.name;
    op.operands = decl.operands;
    op.results = decl.results;
    op.numResults = decl.results.size();
    op.signature = decl.signature;
    op.summary = decl.summary;
    op.pythonCall = true;
    op.build = decl.build;
    op.buildScope = decl.buildScope;
    registry.add(std::move(op));
  }
}

KILN_PLUGIN(info)
