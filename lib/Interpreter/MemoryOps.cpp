//===- MemoryOps.cpp - pointers, loads/stores, atomics, block pointers, ---===//
//===  tensor descriptors                                                 ===//
//
// Every element access goes through Exec::resolve, which checks it against
// the buffer it lands in. Masked-off elements are never touched, so a
// masked-off out-of-bounds address is fine, as on a GPU.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include <cmath>

using namespace mlir;
namespace tt = kiln::tt;

namespace kiln::interp::detail {
namespace {

uint64_t readBits(const uint8_t *p, unsigned size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size); // little-endian host
  return v;
}
void writeBits(uint8_t *p, unsigned size, uint64_t v) { std::memcpy(p, &v, size); }

unsigned pointeeBytes(Type ptrLike) {
  if (auto t = dyn_cast<RankedTensorType>(ptrLike))
    ptrLike = t.getElementType();
  Type pointee = cast<tt::PointerType>(ptrLike).getPointeeType();
  if (auto k = kindOfType(pointee))
    return byteSize(*k);
  return 8;
}

/// addptr: ptr + offset * sizeof(pointee), offsets sign-extended.
LogicalResult execAddPtr(Exec &ex, Operation *op) {
  auto a = cast<tt::AddPtrOp>(op);
  Tensor p = ex.tensor(a.getPtr()), off = ex.tensor(a.getOffset());
  int64_t scale = pointeeBytes(a.getType());
  Tensor out = Tensor::alloc(ElemKind::Ptr, broadcastShape(p, off));
  int64_t n = out.numel();
  visitInt(off.kind(), [&](auto it) {
    using IT = decltype(it);
    loop2(out.dataMut<uint64_t>(), p.data<uint64_t>(), p.numel() != n,
          off.data<typename IT::S>(), off.numel() != n, n,
          [&](uint64_t base, typename IT::S o) {
            return base + uint64_t(IT::sval(o)) * uint64_t(scale);
          });
  });
  ex.set(a.getResult(), std::move(out));
  return success();
}

/// The starting contents of a load's result: `other` where given, else 0
/// (Triton leaves masked-off elements undefined without `other`).
Tensor initialResult(Exec &ex, Value other, ElemKind kind, llvm::ArrayRef<int64_t> shape) {
  if (!other)
    return Tensor::zeros(kind, shape);
  Tensor o = ex.tensor(other);
  Tensor out = Tensor::alloc(kind, shape);
  if (o.numel() == out.numel())
    std::memcpy(out.rawMut(), o.raw(), size_t(o.numel()) * byteSize(kind));
  else
    out = splat(o, shape);
  return out;
}

bool maskedOff(const Tensor &mask, int64_t i) {
  return mask.valid() && mask.numel() && !mask.data<uint8_t>()[mask.numel() == 1 ? 0 : i];
}

/// The element addresses of a block pointer, with a flag for elements
/// outside the parent tensor on a boundary-checked dimension.
void blockAddresses(const BlockPtr &bp, llvm::ArrayRef<int32_t> checked,
                    std::vector<uint64_t> &addrs, std::vector<uint8_t> &outside) {
  unsigned rank = bp.block.size(), esz = byteSize(bp.elem);
  int64_t n = numElements(bp.block);
  addrs.resize(n);
  outside.assign(n, 0);
  llvm::SmallVector<bool, 4> isChecked(rank, false);
  for (int32_t d : checked)
    if (d >= 0 && unsigned(d) < rank)
      isChecked[d] = true;
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t elemOff = 0;
    bool out = false;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t c = bp.offsets[d] + idx[d];
      if (isChecked[d] && (c < 0 || c >= bp.shape[d]))
        out = true;
      elemOff += c * bp.strides[d];
    }
    addrs[i] = bp.base + uint64_t(elemOff) * esz;
    outside[i] = out;
    for (int d = int(rank) - 1; d >= 0; --d) {
      if (++idx[d] < bp.block[d])
        break;
      idx[d] = 0;
    }
  }
}

Tensor paddingValue(ElemKind kind, bool nan) {
  if (nan && isFloatKind(kind))
    return Tensor::scalarFloat(kind, std::nan(""));
  return Tensor::zeros(kind, {});
}

LogicalResult execLoad(Exec &ex, Operation *op) {
  auto ld = cast<tt::LoadOp>(op);
  ElemKind kind = elemKindOf(ld.getType());
  Shape shape = shapeOf(ld.getType());
  unsigned esz = byteSize(kind);
  const RtValue &pv = ex.value(ld.getPtr());
  std::vector<uint64_t> addrs;
  std::vector<uint8_t> skip;
  Tensor mask, out;
  if (auto *bp = std::get_if<BlockPtr>(&pv)) {
    blockAddresses(*bp, ld.getBoundaryCheck(), addrs, skip);
    bool nan = ld.getPadding() && *ld.getPadding() == tt::PaddingOption::PAD_NAN;
    out = splat(paddingValue(kind, nan), shape);
  } else {
    Tensor ptrs = std::get<Tensor>(pv);
    addrs.assign(ptrs.data<uint64_t>(), ptrs.data<uint64_t>() + ptrs.numel());
    if (ld.getMask())
      mask = ex.tensor(ld.getMask());
    out = initialResult(ex, ld.getOther(), kind, shape);
  }
  uint8_t *dst = out.rawMut();
  for (int64_t i = 0, n = addrs.size(); i < n; ++i) {
    if ((!skip.empty() && skip[i]) || maskedOff(mask, i))
      continue;
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, addrs[i], esz, true, shape, i, id, off))
      return failure();
    std::memcpy(dst + i * esz, &ex.mem.buffer(id).bytes[off], esz);
    if (kind == ElemKind::I1)
      dst[i] = dst[i] != 0;
  }
  ex.set(ld.getResult(), std::move(out));
  return success();
}

LogicalResult execStore(Exec &ex, Operation *op) {
  auto st = cast<tt::StoreOp>(op);
  Tensor val = ex.tensor(st.getValue());
  unsigned esz = val.elemBytes();
  const RtValue &pv = ex.value(st.getPtr());
  std::vector<uint64_t> addrs;
  std::vector<uint8_t> skip;
  Tensor mask;
  if (auto *bp = std::get_if<BlockPtr>(&pv)) {
    blockAddresses(*bp, st.getBoundaryCheck(), addrs, skip);
  } else {
    Tensor ptrs = std::get<Tensor>(pv);
    addrs.assign(ptrs.data<uint64_t>(), ptrs.data<uint64_t>() + ptrs.numel());
    if (st.getMask())
      mask = ex.tensor(st.getMask());
  }
  const uint8_t *src = val.raw();
  bool one = val.numel() == 1;
  for (int64_t i = 0, n = addrs.size(); i < n; ++i) {
    if ((!skip.empty() && skip[i]) || maskedOff(mask, i))
      continue;
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, addrs[i], esz, false, val.shape(), i, id, off))
      return failure();
    std::memcpy(&ex.mem.buffer(id).bytes[off], src + (one ? 0 : i) * esz, esz);
    ex.mem.markWritten(id, off, esz);
  }
  return success();
}

/// The value of float bits of kind `ek`, as Tensor::floatAt reads them.
double decodeBits(ElemKind ek, uint64_t bits) {
  if (ek == ElemKind::F64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (ek == ElemKind::F32) {
    uint32_t u = uint32_t(bits);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  return decodeFloat(uint32_t(bits), *floatFormatOf(ek));
}

/// The bits of `x` as kind `ek`, rounded as Tensor::scalarFloat rounds.
uint64_t encodeBits(ElemKind ek, double x) {
  if (ek == ElemKind::F64) {
    uint64_t b;
    std::memcpy(&b, &x, 8);
    return b;
  }
  if (ek == ElemKind::F32) {
    float f = float(x);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  return encodeFloat(x, *floatFormatOf(ek));
}

/// One read-modify-write step on the raw bits `old` of an element. Called
/// per element, so it decodes bits directly rather than through Tensors.
uint64_t rmwStep(tt::RMWOp kind, ElemKind ek, uint64_t old, uint64_t v) {
  unsigned bits = isIntKind(ek) ? intBits(ek) : 64;
  auto sext = [&](uint64_t x) {
    return bits == 64 ? int64_t(x) : int64_t(x << (64 - bits)) >> (64 - bits);
  };
  if (isFloatKind(ek)) {
    double x = decodeBits(ek, old), y = decodeBits(ek, v), r;
    switch (kind) {
    case tt::RMWOp::FADD: r = ek == ElemKind::F64 ? x + y : double(float(x) + float(y)); break;
    case tt::RMWOp::MAX: r = std::fmax(x, y); break;
    case tt::RMWOp::MIN: r = std::fmin(x, y); break;
    case tt::RMWOp::XCHG: return v;
    default: return old; // rejected by the caller
    }
    return encodeBits(ek, r);
  }
  switch (kind) {
  case tt::RMWOp::AND: return old & v;
  case tt::RMWOp::OR: return old | v;
  case tt::RMWOp::XOR: return old ^ v;
  case tt::RMWOp::ADD: return old + v;
  case tt::RMWOp::MAX: return sext(old) >= sext(v) ? old : v;
  case tt::RMWOp::MIN: return sext(old) <= sext(v) ? old : v;
  case tt::RMWOp::UMAX: return old >= v ? old : v;
  case tt::RMWOp::UMIN: return old <= v ? old : v;
  case tt::RMWOp::XCHG: return v;
  case tt::RMWOp::FADD: return old;
  }
  return old;
}

/// Atomics run element by element in row-major order: programs run one
/// after another, so every atomic sees the sequential result.
LogicalResult execAtomicRMW(Exec &ex, Operation *op) {
  auto a = cast<tt::AtomicRMWOp>(op);
  Tensor ptrs = ex.tensor(a.getPtr()), val = ex.tensor(a.getVal()), mask;
  if (a.getMask())
    mask = ex.tensor(a.getMask());
  ElemKind ek = val.kind();
  tt::RMWOp kind = a.getAtomicRmwOp();
  bool isFloat = isFloatKind(ek);
  bool floatOnly = kind == tt::RMWOp::FADD;
  bool intOnly = kind == tt::RMWOp::AND || kind == tt::RMWOp::OR || kind == tt::RMWOp::XOR ||
                 kind == tt::RMWOp::ADD || kind == tt::RMWOp::UMAX || kind == tt::RMWOp::UMIN;
  if ((isFloat && intOnly) || (!isFloat && floatOnly))
    return ex.fail(op, "atomic " + tt::stringifyRMWOp(kind) + " is not defined on " +
                           kindName(ek));
  unsigned esz = byteSize(ek);
  Tensor out = Tensor::zeros(ek, val.shape());
  for (int64_t i = 0; i < ptrs.numel(); ++i) {
    if (maskedOff(mask, i))
      continue;
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, ptrs.data<uint64_t>()[i], esz, true, ptrs.shape(), i, id, off))
      return failure();
    uint8_t *p = &ex.mem.buffer(id).bytes[off];
    uint64_t old = readBits(p, esz);
    writeBits(p, esz, rmwStep(kind, ek, old, val.bitsAt(val.numel() == 1 ? 0 : i)));
    ex.mem.markWritten(id, off, esz);
    out.setBits(i, old);
  }
  ex.set(a.getResult(), std::move(out));
  return success();
}

LogicalResult execAtomicCAS(Exec &ex, Operation *op) {
  auto a = cast<tt::AtomicCASOp>(op);
  Tensor ptrs = ex.tensor(a.getPtr()), cmp = ex.tensor(a.getCmp()), val = ex.tensor(a.getVal());
  unsigned esz = val.elemBytes();
  Tensor out = Tensor::alloc(val.kind(), val.shape());
  for (int64_t i = 0; i < ptrs.numel(); ++i) {
    unsigned id;
    int64_t off;
    if (!ex.resolve(op, ptrs.data<uint64_t>()[i], esz, true, ptrs.shape(), i, id, off))
      return failure();
    uint8_t *p = &ex.mem.buffer(id).bytes[off];
    uint64_t old = readBits(p, esz);
    if (old == cmp.bitsAt(cmp.numel() == 1 ? 0 : i)) {
      writeBits(p, esz, val.bitsAt(val.numel() == 1 ? 0 : i));
      ex.mem.markWritten(id, off, esz);
    }
    out.setBits(i, old);
  }
  ex.set(a.getResult(), std::move(out));
  return success();
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

/// The scalar integer operands `values` (shapes, strides, offsets), in order.
static Shape scalarsOf(Exec &ex, ValueRange values) {
  Shape out;
  for (Value v : values)
    out.push_back(ex.tensor(v).intAt(0));
  return out;
}

LogicalResult execMakeTensorPtr(Exec &ex, Operation *op) {
  auto m = cast<tt::MakeTensorPtrOp>(op);
  BlockPtr bp;
  bp.base = ex.tensor(m.getBase()).bitsAt(0);
  auto blockType = cast<RankedTensorType>(cast<tt::PointerType>(m.getType()).getPointeeType());
  bp.elem = elemKindOf(blockType);
  bp.block.assign(blockType.getShape().begin(), blockType.getShape().end());
  bp.shape = scalarsOf(ex, m.getShape());
  bp.strides = scalarsOf(ex, m.getStrides());
  bp.offsets = scalarsOf(ex, m.getOffsets());
  ex.set(m.getResult(), std::move(bp));
  return success();
}

LogicalResult execAdvance(Exec &ex, Operation *op) {
  auto a = cast<tt::AdvanceOp>(op);
  BlockPtr bp = std::get<BlockPtr>(ex.value(a.getPtr()));
  for (auto [i, v] : llvm::enumerate(a.getOffsets()))
    bp.offsets[i] += ex.tensor(v).intAt(0);
  ex.set(a.getResult(), std::move(bp));
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

LogicalResult execMakeTensorDesc(Exec &ex, Operation *op) {
  auto m = cast<tt::MakeTensorDescOp>(op);
  TensorDesc d;
  d.base = ex.tensor(m.getBase()).bitsAt(0);
  RankedTensorType block = m.getType().getBlockType();
  d.elem = elemKindOf(block);
  d.block.assign(block.getShape().begin(), block.getShape().end());
  d.shape = scalarsOf(ex, m.getShape());
  d.strides = scalarsOf(ex, m.getStrides());
  d.padNan = m.getPadding() == tt::PaddingOption::PAD_NAN;
  ex.set(m.getResult(), std::move(d));
  return success();
}

/// Visits every element of a block at `coords` (one start coordinate per
/// descriptor dimension): f(flat index, in bounds?, address).
template <class F>
void forBlock(const TensorDesc &d, llvm::ArrayRef<int64_t> block, llvm::ArrayRef<int64_t> start,
              F f) {
  unsigned rank = block.size(), esz = byteSize(d.elem);
  int64_t n = numElements(block);
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    bool inside = true;
    int64_t elemOff = 0;
    for (unsigned k = 0; k < rank; ++k) {
      int64_t c = start[k] + idx[k];
      inside &= c >= 0 && c < d.shape[k];
      elemOff += c * d.strides[k];
    }
    f(i, inside, d.base + uint64_t(elemOff) * esz);
    for (int k = int(rank) - 1; k >= 0; --k) {
      if (++idx[k] < block[k])
        break;
      idx[k] = 0;
    }
  }
}

const TensorDesc *descOf(Exec &ex, Operation *op, Value v, unsigned rankWanted) {
  const auto *d = std::get_if<TensorDesc>(&ex.value(v));
  if (!d) {
    (void)ex.fail(op, "operand is not a tensor descriptor");
    return nullptr;
  }
  if (d->shape.size() != rankWanted || d->strides.size() != rankWanted) {
    (void)ex.fail(op, "the descriptor has rank " + llvm::Twine(d->shape.size()) +
                    " but the op indexes " + llvm::Twine(rankWanted) + " dimensions");
    return nullptr;
  }
  return d;
}

/// Out-of-bounds elements read as zero (NaN with padding = nan) and are
/// never written, as TMA does.
LogicalResult execDescLoad(Exec &ex, Operation *op) {
  auto l = cast<tt::DescriptorLoadOp>(op);
  RankedTensorType blockType = l.getDesc().getType().getBlockType();
  const TensorDesc *d = descOf(ex, op, l.getDesc(), l.getIndices().size());
  if (!d)
    return failure();
  llvm::SmallVector<int64_t, 4> start;
  for (Value v : l.getIndices())
    start.push_back(ex.tensor(v).intAt(0));
  ElemKind kind = elemKindOf(blockType);
  unsigned esz = byteSize(kind);
  Tensor out = splat(paddingValue(kind, d->padNan), blockType.getShape());
  uint8_t *dst = out.rawMut();
  bool ok = true;
  forBlock(*d, blockType.getShape(), start, [&](int64_t i, bool inside, uint64_t addr) {
    unsigned id;
    int64_t off;
    if (!ok || !inside)
      return;
    if (!ex.resolve(op, addr, esz, true, blockType.getShape(), i, id, off)) {
      ok = false;
      return;
    }
    std::memcpy(dst + i * esz, &ex.mem.buffer(id).bytes[off], esz);
  });
  if (!ok)
    return failure();
  ex.set(l.getResult(), out.reshaped(shapeOf(l.getType())));
  return success();
}

LogicalResult execDescStore(Exec &ex, Operation *op) {
  auto s = cast<tt::DescriptorStoreOp>(op);
  RankedTensorType blockType = s.getDesc().getType().getBlockType();
  const TensorDesc *d = descOf(ex, op, s.getDesc(), s.getIndices().size());
  if (!d)
    return failure();
  llvm::SmallVector<int64_t, 4> start;
  for (Value v : s.getIndices())
    start.push_back(ex.tensor(v).intAt(0));
  Tensor val = ex.tensor(s.getSrc());
  unsigned esz = val.elemBytes();
  bool ok = true;
  forBlock(*d, blockType.getShape(), start, [&](int64_t i, bool inside, uint64_t addr) {
    unsigned id;
    int64_t off;
    if (!ok || !inside)
      return;
    if (!ex.resolve(op, addr, esz, false, blockType.getShape(), i, id, off)) {
      ok = false;
      return;
    }
    std::memcpy(&ex.mem.buffer(id).bytes[off], val.raw() + i * esz, esz);
    ex.mem.markWritten(id, off, esz);
  });
  return success(ok);
}

LogicalResult execDescReduce(Exec &ex, Operation *op) {
  auto r = cast<tt::DescriptorReduceOp>(op);
  RankedTensorType blockType = r.getDesc().getType().getBlockType();
  const TensorDesc *d = descOf(ex, op, r.getDesc(), r.getIndices().size());
  if (!d)
    return failure();
  llvm::SmallVector<int64_t, 4> start;
  for (Value v : r.getIndices())
    start.push_back(ex.tensor(v).intAt(0));
  Tensor val = ex.tensor(r.getSrc());
  ElemKind ek = val.kind();
  unsigned esz = val.elemBytes();
  using K = tt::DescriptorReduceKind;
  K kind = r.getKind();
  if (isFloatKind(ek) && kind != K::ADD && kind != K::MIN && kind != K::MAX)
    return ex.fail(op, "reduction " + tt::stringifyDescriptorReduceKind(kind) +
                           " is not defined on " + kindName(ek));
  // The descriptor's element type says how integers compare: Triton types a
  // uint32 tensor's block ui32, and TMA then takes the unsigned min/max.
  bool isUnsigned = blockType.getElementType().isUnsignedInteger();
  tt::RMWOp minOp = isUnsigned ? tt::RMWOp::UMIN : tt::RMWOp::MIN;
  tt::RMWOp maxOp = isUnsigned ? tt::RMWOp::UMAX : tt::RMWOp::MAX;
  bool ok = true;
  forBlock(*d, blockType.getShape(), start, [&](int64_t i, bool inside, uint64_t addr) {
    unsigned id;
    int64_t off;
    if (!ok || !inside)
      return;
    if (!ex.resolve(op, addr, esz, true, blockType.getShape(), i, id, off)) {
      ok = false;
      return;
    }
    uint8_t *p = &ex.mem.buffer(id).bytes[off];
    uint64_t old = readBits(p, esz), v = val.bitsAt(i), res;
    switch (kind) {
    case K::ADD: res = rmwStep(isFloatKind(ek) ? tt::RMWOp::FADD : tt::RMWOp::ADD, ek, old, v); break;
    case K::MIN: res = rmwStep(minOp, ek, old, v); break;
    case K::MAX: res = rmwStep(maxOp, ek, old, v); break;
    case K::AND: res = old & v; break;
    case K::OR: res = old | v; break;
    case K::XOR: res = old ^ v; break;
    case K::INC: res = old >= v ? 0 : old + 1; break; // CUDA atomicInc
    case K::DEC: res = (old == 0 || old > v) ? v : old - 1; break;
    }
    writeBits(p, esz, res);
    ex.mem.markWritten(id, off, esz);
  });
  return success(ok);
}

/// descriptor_gather/scatter: rows x_offsets[i], columns y_offset + j.
template <bool Scatter> LogicalResult execDescGatherScatter(Exec &ex, Operation *op) {
  Value descV = op->getOperand(0);
  const TensorDesc *d = descOf(ex, op, descV, 2);
  if (!d)
    return failure();
  Tensor xs = ex.tensor(op->getOperand(1));
  int64_t y0 = ex.tensor(op->getOperand(2)).intAt(0);
  Tensor val;
  Shape shape;
  if (Scatter) {
    val = ex.tensor(op->getOperand(3));
    shape.assign(val.shape().begin(), val.shape().end());
  } else {
    shape = shapeOf(op->getResult(0).getType());
  }
  ElemKind kind = d->elem;
  unsigned esz = byteSize(kind);
  Tensor out = Scatter ? Tensor() : splat(paddingValue(kind, d->padNan), shape);
  int64_t rows = shape[0], cols = shape[1];
  for (int64_t i = 0; i < rows; ++i) {
    int64_t r = xs.intAt(i);
    for (int64_t j = 0; j < cols; ++j) {
      int64_t c = y0 + j, flat = i * cols + j;
      if (r < 0 || r >= d->shape[0] || c < 0 || c >= d->shape[1])
        continue;
      uint64_t addr = d->base + uint64_t(r * d->strides[0] + c * d->strides[1]) * esz;
      unsigned id;
      int64_t off;
      if (!ex.resolve(op, addr, esz, !Scatter, shape, flat, id, off))
        return failure();
      uint8_t *p = &ex.mem.buffer(id).bytes[off];
      if (Scatter) {
        std::memcpy(p, val.raw() + flat * esz, esz);
        ex.mem.markWritten(id, off, esz);
      } else {
        std::memcpy(out.rawMut() + flat * esz, p, esz);
      }
    }
  }
  if (!Scatter)
    ex.set(op->getResult(0), std::move(out));
  return success();
}

} // namespace

void registerMemoryHandlers(HandlerMap &m) {
  addHandler<tt::AddPtrOp>(m, execAddPtr);
  addHandler<tt::LoadOp>(m, execLoad, /*takesHandles=*/true);
  addHandler<tt::StoreOp>(m, execStore, /*takesHandles=*/true);
  addHandler<tt::AtomicRMWOp>(m, execAtomicRMW);
  addHandler<tt::AtomicCASOp>(m, execAtomicCAS);
  addHandler<tt::MakeTensorPtrOp>(m, execMakeTensorPtr, /*takesHandles=*/true);
  addHandler<tt::AdvanceOp>(m, execAdvance, /*takesHandles=*/true);
  addHandler<tt::MakeTensorDescOp>(m, execMakeTensorDesc, /*takesHandles=*/true);
  addHandler<tt::DescriptorLoadOp>(m, execDescLoad, /*takesHandles=*/true);
  addHandler<tt::DescriptorStoreOp>(m, execDescStore, /*takesHandles=*/true);
  addHandler<tt::DescriptorReduceOp>(m, execDescReduce, /*takesHandles=*/true);
  addHandler<tt::DescriptorGatherOp>(m, execDescGatherScatter<false>, /*takesHandles=*/true);
  addHandler<tt::DescriptorScatterOp>(m, execDescGatherScatter<true>, /*takesHandles=*/true);
}

} // namespace kiln::interp::detail
