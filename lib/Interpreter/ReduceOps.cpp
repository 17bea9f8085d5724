//===- ReduceOps.cpp - tt.reduce, tt.scan, tt.map_elementwise -------------===//
//
// Combine regions run on whole tensors: a reduction combines adjacent pairs
// along the axis level by level (log2 N region runs), a scan doubles its
// reach each step (Hillis-Steele). Both keep every combine's left operand
// earlier along the axis than its right one, so any associative combine
// gives the sequential result (up to float rounding order). A region that
// holds ops which cannot take whole tensors (scf.if, loads, ...) runs once
// per element instead.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

using namespace mlir;
namespace tt = kiln::tt;

namespace kiln::interp::detail {
namespace {

/// True when every op of the region is elementwise, so that the region can
/// run on tensors in place of the scalars its block arguments declare.
bool isVectorizable(Region &region) {
  bool ok = true;
  region.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    llvm::StringRef ns = op->getDialect() ? op->getDialect()->getNamespace() : "";
    if (ns == "arith" || ns == "math")
      return;
    if (isa<tt::ExternElementwiseOp, tt::ClampFOp, tt::PreciseSqrtOp, tt::PreciseDivFOp,
            tt::ApproxDivFOp, tt::MulhiUIOp, tt::BitcastOp, tt::FpToFpOp, tt::IntToPtrOp,
            tt::PtrToIntOp, tt::AddPtrOp>(op))
      return;
    ok = false;
  });
  return ok;
}

/// Element `i` of `t` as a rank-0 tensor.
Tensor elementOf(const Tensor &t, int64_t i) {
  Tensor s = Tensor::alloc(t.kind(), {});
  s.setBits(0, t.bitsAt(i));
  return s;
}

/// Runs `region` with the block arguments `args` (tensors of one shape) and
/// returns its yielded tensors, each of that shape.
LogicalResult applyRegion(Exec &ex, Region &region, bool vectorized,
                          llvm::ArrayRef<Tensor> args, llvm::ArrayRef<int64_t> shape,
                          llvm::SmallVectorImpl<Tensor> &results) {
  Block &block = region.front();
  unsigned nres = block.getTerminator()->getNumOperands();
  llvm::SmallVector<RtValue, 8> in, out;
  results.clear();
  if (vectorized) {
    in.assign(args.begin(), args.end());
    if (failed(ex.runBlock(block, in, out)))
      return failure();
    for (RtValue &v : out) {
      Tensor t = std::get<Tensor>(v);
      // A region may yield a value that does not depend on its arguments.
      results.push_back(t.numel() == numElements(shape) ? t.reshaped(shape)
                                                         : broadcastTo(t.reshaped({}), shape));
    }
    return success();
  }
  int64_t n = numElements(shape);
  for (unsigned r = 0; r < nres; ++r)
    results.push_back(
        Tensor::alloc(elemKindOf(block.getTerminator()->getOperand(r).getType()), shape));
  for (int64_t i = 0; i < n; ++i) {
    in.clear();
    for (const Tensor &a : args)
      in.push_back(elementOf(a, i));
    if (failed(ex.runBlock(block, in, out)))
      return failure();
    for (unsigned r = 0; r < nres; ++r)
      results[r].setBits(i, std::get<Tensor>(out[r]).bitsAt(0));
  }
  return success();
}

llvm::SmallVector<int64_t> range(int64_t begin, int64_t end, int64_t step = 1) {
  llvm::SmallVector<int64_t> r;
  for (int64_t i = begin; i < end; i += step)
    r.push_back(i);
  return r;
}

LogicalResult execReduce(Exec &ex, Operation *op) {
  auto red = cast<tt::ReduceOp>(op);
  unsigned axis = red.getAxis();
  llvm::SmallVector<Tensor, 4> cur;
  for (Value v : red.getSrcs())
    cur.push_back(ex.tensor(v));
  unsigned n = cur.size();
  bool vec = isVectorizable(red.getCombineOp());
  int64_t len = cur[0].shape()[axis];
  if (len == 0)
    return ex.fail(op, "cannot reduce an empty axis");
  llvm::SmallVector<Tensor, 8> args;
  llvm::SmallVector<Tensor, 4> res;
  while (len > 1) {
    int64_t half = len / 2;
    auto even = range(0, 2 * half, 2), odd = range(1, 2 * half, 2);
    args.clear();
    for (const Tensor &t : cur)
      args.push_back(selectAlong(t, axis, even));
    for (const Tensor &t : cur)
      args.push_back(selectAlong(t, axis, odd));
    if (failed(applyRegion(ex, red.getCombineOp(), vec, args, args[0].shape(), res)))
      return failure();
    if (len % 2) { // carry the last element to the end of the next level
      for (unsigned k = 0; k < n; ++k) {
        Shape s(res[k].shape().begin(), res[k].shape().end());
        s[axis] = half + 1;
        Tensor next = Tensor::alloc(res[k].kind(), s);
        scatterAlong(next, res[k], axis, range(0, half));
        scatterAlong(next, selectAlong(cur[k], axis, {len - 1}), axis, {half});
        res[k] = next;
      }
    }
    cur.assign(res.begin(), res.end());
    len = half + len % 2;
  }
  for (unsigned k = 0; k < n; ++k) {
    Shape s(cur[k].shape().begin(), cur[k].shape().end());
    s.erase(s.begin() + axis);
    ex.set(red.getResult()[k], cur[k].reshaped(s));
  }
  return success();
}

LogicalResult execScan(Exec &ex, Operation *op) {
  auto scan = cast<tt::ScanOp>(op);
  unsigned axis = scan.getAxis();
  llvm::SmallVector<Tensor, 4> cur;
  for (Value v : scan.getSrcs())
    cur.push_back(ex.tensor(v));
  unsigned n = cur.size();
  int64_t len = cur[0].shape()[axis];
  llvm::SmallVector<int64_t> flip;
  for (int64_t i = len - 1; i >= 0; --i)
    flip.push_back(i);
  // A reverse scan is a forward scan of the reversed axis.
  if (scan.getReverse())
    for (Tensor &t : cur)
      t = selectAlong(t, axis, flip);
  bool vec = isVectorizable(scan.getCombineOp());
  llvm::SmallVector<Tensor, 8> args;
  llvm::SmallVector<Tensor, 4> res;
  for (int64_t d = 1; d < len; d *= 2) {
    auto lhsPos = range(0, len - d), rhsPos = range(d, len);
    args.clear();
    for (const Tensor &t : cur)
      args.push_back(selectAlong(t, axis, lhsPos));
    for (const Tensor &t : cur)
      args.push_back(selectAlong(t, axis, rhsPos));
    if (failed(applyRegion(ex, scan.getCombineOp(), vec, args, args[0].shape(), res)))
      return failure();
    for (unsigned k = 0; k < n; ++k) {
      Tensor next = Tensor::alloc(cur[k].kind(), cur[k].shape());
      std::memcpy(next.rawMut(), cur[k].raw(), size_t(cur[k].numel()) * cur[k].elemBytes());
      scatterAlong(next, res[k], axis, rhsPos);
      cur[k] = next;
    }
  }
  for (unsigned k = 0; k < n; ++k)
    ex.set(scan.getResult()[k], scan.getReverse() ? selectAlong(cur[k], axis, flip) : cur[k]);
  return success();
}

/// map_elementwise with pack p: the region takes p consecutive elements of
/// each operand (operand by operand) and yields p elements of each result.
LogicalResult execMapElementwise(Exec &ex, Operation *op) {
  auto map = cast<tt::MapElementwiseOp>(op);
  int64_t pack = map.getPack();
  Region &region = map.getScalarOp();
  if (!region.hasOneBlock())
    return ex.fail(op, "only single-block regions are supported");
  bool vec = isVectorizable(region);
  llvm::SmallVector<Tensor, 4> srcs;
  for (Value v : map.getSrcs())
    srcs.push_back(ex.tensor(v));
  int64_t n = srcs.empty() ? 0 : srcs[0].numel();
  if (pack < 1 || n % pack)
    return ex.fail(op, "pack must divide the number of elements");
  int64_t groups = n / pack;
  Shape flat{groups, pack}, colShape{groups};
  llvm::SmallVector<Tensor, 8> args;
  for (const Tensor &s : srcs)
    for (int64_t j = 0; j < pack; ++j)
      args.push_back(selectAlong(s.reshaped(flat), 1, {j}).reshaped(colShape));
  llvm::SmallVector<Tensor, 8> res;
  if (failed(applyRegion(ex, region, vec, args, colShape, res)))
    return failure();
  for (auto [r, result] : llvm::enumerate(map.getResult())) {
    Tensor out = Tensor::alloc(elemKindOf(result.getType()), flat);
    for (int64_t j = 0; j < pack; ++j)
      scatterAlong(out, res[r * pack + j].reshaped({groups, 1}), 1, {j});
    ex.set(result, out.reshaped(shapeOf(result.getType())));
  }
  return success();
}

} // namespace

void registerReduceHandlers(HandlerMap &m) {
  addHandler<tt::ReduceOp>(m, execReduce);
  addHandler<tt::ScanOp>(m, execScan);
  addHandler<tt::MapElementwiseOp>(m, execMapElementwise);
}

} // namespace kiln::interp::detail
