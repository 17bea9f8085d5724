//===- SyncOps.cpp - atomic loads, stores and polls; barriers; PDL --------===//
//
// Programs run one after another, so an atomic load or store is a masked
// load or store, memory orders and barriers order nothing that could be
// observed, and the grid-dependency ops have no dependent grid to wait for.
// A poll sees only what earlier programs (and its own) wrote: one that
// does not already read its expected value would wait forever without a
// timeout (an error, never a hang) and times out with one.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

using namespace mlir;
namespace tt = kiln::tt;

namespace kiln::interp::detail {
namespace {

bool maskedOff(const Tensor &mask, int64_t i) {
  return mask.valid() && mask.numel() && !mask.data<uint8_t>()[mask.numel() == 1 ? 0 : i];
}

LogicalResult execAtomicLoad(Exec &ex, Operation *op) {
  auto ld = cast<tt::AtomicLoadOp>(op);
  Tensor ptrs = ex.tensor(ld.getPtr()), mask;
  if (ld.getMask())
    mask = ex.tensor(ld.getMask());
  ElemKind kind = elemKindOf(ld.getType());
  Shape shape = shapeOf(ld.getType());
  unsigned esz = byteSize(kind);
  // Masked-off elements are unspecified; they read 0, as on the GPU.
  Tensor out = Tensor::zeros(kind, shape);
  for (int64_t i = 0; i < ptrs.numel(); ++i) {
    if (maskedOff(mask, i))
      continue;
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, ptrs.data<uint64_t>()[i], esz, true, shape, i, id, off))
      return failure();
    std::memcpy(out.rawMut() + i * esz, &ex.mem.buffer(id).bytes[off], esz);
  }
  ex.set(ld.getResult(), std::move(out));
  return success();
}

LogicalResult execAtomicStore(Exec &ex, Operation *op) {
  auto st = cast<tt::AtomicStoreOp>(op);
  Tensor ptrs = ex.tensor(st.getPtr()), val = ex.tensor(st.getVal()), mask;
  if (st.getMask())
    mask = ex.tensor(st.getMask());
  unsigned esz = val.elemBytes();
  for (int64_t i = 0; i < ptrs.numel(); ++i) {
    if (maskedOff(mask, i))
      continue;
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, ptrs.data<uint64_t>()[i], esz, false, ptrs.shape(), i, id, off))
      return failure();
    std::memcpy(&ex.mem.buffer(id).bytes[off], val.raw() + (val.numel() == 1 ? 0 : i) * esz,
                esz);
    ex.mem.markWritten(id, off, esz);
  }
  return success();
}

LogicalResult execAtomicPoll(Exec &ex, Operation *op) {
  auto poll = cast<tt::AtomicPollOp>(op);
  Tensor ptrs = ex.tensor(poll.getPtr()), expected = ex.tensor(poll.getExpected());
  Shape shape = shapeOf(poll.getExpected().getType());
  unsigned esz = expected.elemBytes();
  uint64_t valueMask = esz == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * esz)) - 1;
  Tensor out = Tensor::zeros(ElemKind::I1, shape);
  for (int64_t i = 0; i < ptrs.numel(); ++i) {
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, ptrs.data<uint64_t>()[i], esz, true, shape, i, id, off))
      return failure();
    uint64_t got = 0;
    std::memcpy(&got, &ex.mem.buffer(id).bytes[off], esz);
    uint64_t want = expected.bitsAt(expected.numel() == 1 ? 0 : i) & valueMask;
    if ((got & valueMask) == want) {
      out.setBits(i, 1);
      continue;
    }
    if (poll.getTimeout())
      continue; // nothing can write it before the timeout expires: false
    return ex.failAt(op, shape, i,
                     "polls without a timeout for " + llvm::Twine(int64_t(want)) +
                         " but reads " + llvm::Twine(int64_t(got & valueMask)) +
                         ": programs run one after another, so no other program can "
                         "write it while this one waits, and the GPU would wait forever");
  }
  ex.set(poll.getResult(), std::move(out));
  return success();
}

LogicalResult execNothing(Exec &, Operation *) { return success(); }

} // namespace

void registerSyncHandlers(HandlerMap &m) {
  addHandler<tt::AtomicLoadOp>(m, execAtomicLoad);
  addHandler<tt::AtomicStoreOp>(m, execAtomicStore);
  addHandler<tt::AtomicPollOp>(m, execAtomicPoll);
  addHandler<tt::GridDependencyWaitOp>(m, execNothing);
  addHandler<tt::GridDependencyLaunchDependentsOp>(m, execNothing);
  addHandler<ttg::BarrierOp>(m, execNothing);
}

} // namespace kiln::interp::detail
