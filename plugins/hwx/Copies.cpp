//===- Copies.cpp - hwx's cp.async copies and TMA prefetches --------------===//
//
//   hwx.async_copy(x_ptr + offs, bufs[s], mask=offs < n)   # cp.async
//   hwx.async_copy_commit()                                # close the group
//   hwx.async_copy_wait(1)         # all but the newest group have landed
//   hwx.async_prefetch(desc, [m, k + 2 * BK])              # into L2
//
// cp.async moves each thread's elements on their own (sm_80 and later, no
// descriptor, any pointers); a thread sees its copies after the wait, and
// kiln puts the CTA barrier other threads' reads need after it.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Frontend/KernelBuilder.h"
#include "kiln/Plugin/OpRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using kiln::KernelBuilder;
namespace tt = kiln::tt;
namespace ttg = kiln::ttg;
namespace ttng = kiln::ttng;

namespace hwx {
namespace {

// hwx.async_copy(ptrs, buf, mask=True): starts copying the elements `ptrs`
// point to into `buf` (cp.async); where `mask` is false the element is not
// read and zero is written (the instruction's own fill, as in Gluon).
Results asyncCopy(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  Value ptrs = operands[0], buf = operands[1], mask = operands[2];
  auto type = dyn_cast<ttg::MemDescType>(buf.getType());
  auto ptrType = dyn_cast<RankedTensorType>(ptrs.getType());
  auto pointee = ptrType ? dyn_cast<tt::PointerType>(ptrType.getElementType()) : nullptr;
  if (!type || !pointee)
    return kb.emitError() << "hwx.async_copy takes a tensor of pointers and an hwx buffer, got "
                          << ptrs.getType() << " and " << buf.getType();
  if (ptrType.getShape() != type.getShape() ||
      pointee.getPointeeType() != type.getElementType())
    return kb.emitError() << "hwx.async_copy: pointers " << ptrType << " do not fit the buffer "
                          << ttg::MemDescType(type);
  OpBuilder &b = kb.builder();
  // An all-true mask is no mask; a boolean scalar is splat.
  if (matchPattern(mask, m_One()))
    mask = Value();
  else if (!isa<RankedTensorType>(mask.getType()) && mask.getType().isInteger(1))
    mask = kb.splat(mask, type.getShape());
  if (mask && (KernelBuilder::shape(mask) != type.getShape() ||
               !KernelBuilder::elementType(mask).isInteger(1)))
    return kb.emitError() << "hwx.async_copy: mask must be a boolean of the buffer's shape, got "
                          << mask.getType();
  ttg::AsyncCopyGlobalToLocalOp::create(b, kb.loc(), ptrs, buf, mask, Value(),
                                        tt::CacheModifier::NONE, tt::EvictionPolicy::NORMAL,
                                        /*isVolatile=*/false, /*contiguity=*/1);
  return SmallVector<Value>{};
}

// hwx.async_copy_commit(): closes the group of the copies started since the
// last one.
Results asyncCopyCommit(KernelBuilder &kb, ValueRange, DictionaryAttr) {
  ttg::AsyncCommitGroupOp::create(kb.builder(), kb.loc(), ValueRange());
  return SmallVector<Value>{};
}

// hwx.async_copy_wait(pendings=0): waits until at most `pendings` groups
// are in flight.
Results asyncCopyWait(KernelBuilder &kb, ValueRange, DictionaryAttr constants) {
  FailureOr<int64_t> pendings = pendingsOf(kb, "hwx.async_copy_wait", constants);
  if (failed(pendings))
    return failure();
  ttg::AsyncWaitOp::create(kb.builder(), kb.loc(), ValueRange(), *pendings);
  return SmallVector<Value>{};
}

// hwx.async_prefetch(desc, offsets, pred=True): starts bringing the
// descriptor's block at `offsets` into L2.
Results asyncPrefetch(KernelBuilder &kb, ValueRange operands, DictionaryAttr) {
  Value desc = operands.front();
  if (!isa<tt::TensorDescType>(desc.getType()))
    return kb.emitError() << "hwx.async_prefetch takes a tensor descriptor, got "
                          << desc.getType();
  Value pred = predicate(kb, "hwx.async_prefetch", operands.back());
  FailureOr<SmallVector<Value>> coords =
      coordinates(kb, "hwx.async_prefetch", desc, operands.drop_front().drop_back());
  if (!pred || failed(coords))
    return failure();
  ttng::AsyncTMAPrefetchOp::create(kb.builder(), kb.loc(), desc, *coords, pred);
  return SmallVector<Value>{};
}

} // namespace

void registerCopyOps(kiln::OpRegistry &registry) {
  addOps(registry,
         {{"hwx.async_copy",
           {"ptrs", {"buf", "buffer"}, {"mask", "tensor", "true"}},
           {},
           "(ptrs: tensor, buf: buffer, mask: tensor = True) -> None",
           "starts copying what ptrs point to into buf (cp.async; zero where mask is false)",
           &asyncCopy},
          {"hwx.async_copy_commit",
           {},
           {},
           "() -> None",
           "closes the group of the async_copy calls since the last commit",
           &asyncCopyCommit},
          {"hwx.async_copy_wait",
           {{"pendings", "constexpr", "0"}},
           {},
           "(pendings: int = 0) -> None",
           "waits until at most pendings async_copy groups are in flight",
           &asyncCopyWait},
          {"hwx.async_prefetch",
           {{"desc", "descriptor"}, {"offsets", "tensors"}, {"pred", "tensor", "true"}},
           {},
           "(desc: tensor_descriptor, offsets: list[int32], pred: bool = True) -> None",
           "starts bringing the descriptor's block at offsets into L2 (a hint)",
           &asyncPrefetch}});
}

} // namespace hwx
