//===- ShapeOps.cpp - splat, broadcast, reshape, trans, join, gather, ... -===//
#include "Elementwise.h"

using namespace mlir;
namespace tt = kiln::tt;

namespace kiln::interp::detail {
namespace {

Shape resultShape(Operation *op, unsigned i = 0) { return shapeOf(op->getResult(i).getType()); }

LogicalResult execSplat(Exec &ex, Operation *op) {
  ex.set(op->getResult(0), splat(ex.tensor(op->getOperand(0)), resultShape(op)));
  return success();
}

LogicalResult execUnsplat(Exec &ex, Operation *op) {
  ex.set(op->getResult(0), ex.tensor(op->getOperand(0)).reshaped({}));
  return success();
}

LogicalResult execBroadcast(Exec &ex, Operation *op) {
  ex.set(op->getResult(0), broadcastTo(ex.tensor(op->getOperand(0)), resultShape(op)));
  return success();
}

/// expand_dims and reshape keep the row-major element order (reshape's
/// allow_reorder permits another order; keeping this one is a valid choice).
LogicalResult execReshape(Exec &ex, Operation *op) {
  ex.set(op->getResult(0), ex.tensor(op->getOperand(0)).reshaped(resultShape(op)));
  return success();
}

LogicalResult execTrans(Exec &ex, Operation *op) {
  auto t = cast<tt::TransOp>(op);
  ex.set(t.getResult(), permute(ex.tensor(t.getSrc()), t.getOrder()));
  return success();
}

LogicalResult execMakeRange(Exec &ex, Operation *op) {
  auto r = cast<tt::MakeRangeOp>(op);
  Tensor out = Tensor::alloc(ElemKind::I32, resultShape(op));
  int32_t *d = out.dataMut<int32_t>();
  for (int64_t i = 0; i < out.numel(); ++i)
    d[i] = int32_t(r.getStart() + i);
  ex.set(r.getResult(), std::move(out));
  return success();
}

/// join: a new minor dimension of size 2 holding lhs then rhs.
LogicalResult execJoin(Exec &ex, Operation *op) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1));
  Tensor out = Tensor::alloc(a.kind(), resultShape(op));
  visitBytes(a.elemBytes(), [&](auto tag) {
    using T = decltype(tag);
    const T *ad = a.data<T>(), *bd = b.data<T>();
    T *d = out.dataMut<T>();
    for (int64_t i = 0; i < a.numel(); ++i) {
      d[2 * i] = ad[i];
      d[2 * i + 1] = bd[i];
    }
  });
  ex.set(op->getResult(0), std::move(out));
  return success();
}

LogicalResult execSplit(Exec &ex, Operation *op) {
  Tensor src = ex.tensor(op->getOperand(0));
  Shape shape = resultShape(op);
  Tensor lo = Tensor::alloc(src.kind(), shape), hi = Tensor::alloc(src.kind(), shape);
  visitBytes(src.elemBytes(), [&](auto tag) {
    using T = decltype(tag);
    const T *s = src.data<T>();
    T *l = lo.dataMut<T>(), *h = hi.dataMut<T>();
    for (int64_t i = 0; i < lo.numel(); ++i) {
      l[i] = s[2 * i];
      h[i] = s[2 * i + 1];
    }
  });
  ex.set(op->getResult(0), std::move(lo));
  ex.set(op->getResult(1), std::move(hi));
  return success();
}

/// cat: lhs then rhs along dimension 0 (Triton leaves the order open).
LogicalResult execCat(Exec &ex, Operation *op) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1));
  Tensor out = Tensor::alloc(a.kind(), resultShape(op));
  size_t abytes = size_t(a.numel()) * a.elemBytes();
  std::memcpy(out.rawMut(), a.raw(), abytes);
  std::memcpy(out.rawMut() + abytes, b.raw(), size_t(b.numel()) * b.elemBytes());
  ex.set(op->getResult(0), std::move(out));
  return success();
}

/// gather: result[i] = src[i with index[i] along axis]. An index outside the
/// source dimension is reported (it is undefined behaviour on a GPU).
LogicalResult execGather(Exec &ex, Operation *op) {
  auto g = cast<tt::GatherOp>(op);
  Tensor src = ex.tensor(g.getSrc()), idx = ex.tensor(g.getIndices());
  unsigned axis = g.getAxis(), rank = src.rank();
  Tensor out = Tensor::alloc(src.kind(), idx.shape());
  llvm::ArrayRef<int64_t> ss = src.shape(), is = idx.shape();
  Shape srcStrides(rank, 1);
  for (int d = int(rank) - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * ss[d + 1];
  llvm::SmallVector<int64_t, 4> pos(rank, 0);
  bool ok = true;
  visitBytes(src.elemBytes(), [&](auto tag) {
    using T = decltype(tag);
    const T *s = src.data<T>();
    T *d = out.dataMut<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      int64_t k = idx.intAt(i);
      if (k < 0 || k >= ss[axis]) {
        ok = false;
        (void)ex.failAt(op, is, i,
                  "index " + llvm::Twine(k) + " is outside [0, " + llvm::Twine(ss[axis]) +
                      ") along axis " + llvm::Twine(axis));
        return;
      }
      int64_t off = 0;
      for (unsigned dim = 0; dim < rank; ++dim)
        off += (dim == axis ? k : pos[dim]) * srcStrides[dim];
      d[i] = s[off];
      for (int dim = int(rank) - 1; dim >= 0; --dim) {
        if (++pos[dim] < is[dim])
          break;
        pos[dim] = 0;
      }
    }
  });
  if (!ok)
    return failure();
  ex.set(g.getResult(), std::move(out));
  return success();
}

/// histogram: counts of the values 0..N-1; other values and masked-off
/// elements are not counted.
LogicalResult execHistogram(Exec &ex, Operation *op) {
  auto h = cast<tt::HistogramOp>(op);
  Tensor src = ex.tensor(h.getSrc());
  Tensor mask;
  if (h.getMask())
    mask = ex.tensor(h.getMask());
  ElemKind kind = elemKindOf(h.getType());
  Tensor out = Tensor::zeros(kind, resultShape(op));
  int64_t bins = out.numel();
  std::vector<int64_t> counts(bins, 0);
  for (int64_t i = 0; i < src.numel(); ++i) {
    if (mask.valid() && mask.numel() && !mask.data<uint8_t>()[mask.numel() == 1 ? 0 : i])
      continue;
    int64_t v = src.intAt(i);
    if (v >= 0 && v < bins)
      ++counts[v];
  }
  for (int64_t b = 0; b < bins; ++b)
    out.setBits(b, uint64_t(counts[b]));
  ex.set(h.getResult(), std::move(out));
  return success();
}

} // namespace

void registerShapeHandlers(HandlerMap &m) {
  addHandler<tt::SplatOp>(m, execSplat);
  addHandler<tt::UnsplatOp>(m, execUnsplat);
  addHandler<tt::BroadcastOp>(m, execBroadcast);
  addHandler<tt::ExpandDimsOp>(m, execReshape);
  addHandler<tt::ReshapeOp>(m, execReshape);
  addHandler<tt::TransOp>(m, execTrans);
  addHandler<tt::MakeRangeOp>(m, execMakeRange);
  addHandler<tt::JoinOp>(m, execJoin);
  addHandler<tt::SplitOp>(m, execSplit);
  addHandler<tt::CatOp>(m, execCat);
  addHandler<tt::GatherOp>(m, execGather);
  addHandler<tt::HistogramOp>(m, execHistogram);
}

} // namespace kiln::interp::detail
