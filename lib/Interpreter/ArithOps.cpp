//===- ArithOps.cpp - arith dialect, casts, tt.mulhiui --------------------===//
//
// Integer semantics (documented in docs/interpreter.md): two's complement
// wrap-around; division truncates toward zero and the remainder takes the
// dividend's sign (C); x / 0 is all ones and x % 0 is x, INT_MIN / -1 is
// INT_MIN, as NVIDIA GPUs give; a shift by the bit width or more yields 0
// (or all sign bits for shrsi), as PTX's clamped shifts do.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace kiln::interp::detail {
namespace {

enum class IB {
  Add, Sub, Mul, DivS, DivU, RemS, RemU, CeilDivS, CeilDivU, FloorDivS,
  And, Or, Xor, Shl, ShrS, ShrU, MaxS, MinS, MaxU, MinU, MulHiU, MulHiS,
};

template <IB K>
uint64_t intOp(int64_t sa, int64_t sb, uint64_t ua, uint64_t ub, unsigned bits) {
  uint64_t allOnes = ~uint64_t(0);
  switch (K) {
  case IB::Add: return ua + ub;
  case IB::Sub: return ua - ub;
  case IB::Mul: return ua * ub;
  case IB::DivS:
    if (sb == 0) return allOnes;
    if (sb == -1) return 0 - ua; // INT_MIN / -1 wraps to INT_MIN
    return uint64_t(sa / sb);
  case IB::DivU: return ub == 0 ? allOnes : ua / ub;
  case IB::RemS:
    if (sb == 0) return ua;
    if (sb == -1) return 0;
    return uint64_t(sa % sb);
  case IB::RemU: return ub == 0 ? ua : ua % ub;
  case IB::CeilDivS: {
    if (sb == 0) return allOnes;
    if (sb == -1) return 0 - ua;
    int64_t q = sa / sb;
    if (sa % sb != 0 && ((sa < 0) == (sb < 0))) ++q;
    return uint64_t(q);
  }
  case IB::CeilDivU: return ub == 0 ? allOnes : ua / ub + (ua % ub != 0);
  case IB::FloorDivS: {
    if (sb == 0) return allOnes;
    if (sb == -1) return 0 - ua;
    int64_t q = sa / sb;
    if (sa % sb != 0 && ((sa < 0) != (sb < 0))) --q;
    return uint64_t(q);
  }
  case IB::And: return ua & ub;
  case IB::Or: return ua | ub;
  case IB::Xor: return ua ^ ub;
  case IB::Shl: return ub >= bits ? 0 : ua << ub;
  case IB::ShrU: return ub >= bits ? 0 : ua >> ub;
  case IB::ShrS: return ub >= bits ? uint64_t(sa < 0 ? -1 : 0) : uint64_t(sa >> ub);
  case IB::MaxS: return sa >= sb ? ua : ub;
  case IB::MinS: return sa <= sb ? ua : ub;
  case IB::MaxU: return ua >= ub ? ua : ub;
  case IB::MinU: return ua <= ub ? ua : ub;
  case IB::MulHiU:
    if (bits == 64) return uint64_t((unsigned __int128)ua * ub >> 64);
    return bits == 1 ? 0 : (ua * ub) >> bits;
  case IB::MulHiS:
    if (bits == 64) return uint64_t((__int128)sa * sb >> 64);
    return uint64_t((sa * sb) >> bits);
  }
  return 0;
}

template <IB K> LogicalResult execIntBinary(Exec &ex, Operation *op) {
  return intBinary(ex, op, [](int64_t sa, int64_t sb, uint64_t ua, uint64_t ub, auto it) {
    return intOp<K>(sa, sb, ua, ub, decltype(it)::bits);
  });
}

/// arith.mulsi_extended / mului_extended: (low, high) halves of the product.
template <bool Signed> LogicalResult execMulExtended(Exec &ex, Operation *op) {
  if (failed(execIntBinary<IB::Mul>(ex, op)))
    return failure();
  Tensor low = ex.tensor(op->getResult(0));
  if (failed(execIntBinary<Signed ? IB::MulHiS : IB::MulHiU>(ex, op)))
    return failure();
  ex.set(op->getResult(1), ex.tensor(op->getResult(0)));
  ex.set(op->getResult(0), low);
  return success();
}

/// arith.addui_extended: (sum, carry out).
LogicalResult execAddUIExtended(Exec &ex, Operation *op) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1));
  if (failed(execIntBinary<IB::Add>(ex, op)))
    return failure();
  Tensor sum = ex.tensor(op->getResult(0));
  Tensor carry = Tensor::alloc(ElemKind::I1, sum.shape());
  for (int64_t i = 0; i < sum.numel(); ++i)
    carry.dataMut<uint8_t>()[i] = sum.uintAt(i) < a.uintAt(a.numel() == 1 ? 0 : i);
  ex.set(op->getResult(1), std::move(carry));
  return success();
}

template <class C> C maximumOf(C x, C y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<C>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? y : x; // +0 beats -0
  return x > y ? x : y;
}
template <class C> C minimumOf(C x, C y) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<C>::quiet_NaN();
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}

enum class FB { Add, Sub, Mul, Div, Rem, Maximum, Minimum, MaxNum, MinNum };

template <FB K> LogicalResult execFloatBinary(Exec &ex, Operation *op) {
  return floatBinary(ex, op, [](auto x, auto y) -> decltype(x) {
    using C = decltype(x);
    switch (K) {
    case FB::Add: return x + y;
    case FB::Sub: return x - y;
    case FB::Mul: return x * y;
    case FB::Div: return x / y;
    case FB::Rem: return std::fmod(x, y);
    case FB::Maximum: return maximumOf<C>(x, y);
    case FB::Minimum: return minimumOf<C>(x, y);
    case FB::MaxNum: return std::fmax(x, y);
    case FB::MinNum: return std::fmin(x, y);
    }
    return x;
  });
}

LogicalResult execNegF(Exec &ex, Operation *op) {
  return floatUnary(ex, op, [](auto x) { return -x; });
}

LogicalResult execCmpI(Exec &ex, Operation *op) {
  auto cmp = cast<arith::CmpIOp>(op);
  Tensor a = ex.tensor(cmp.getLhs()), b = ex.tensor(cmp.getRhs());
  Tensor out = Tensor::alloc(ElemKind::I1, broadcastShape(a, b));
  int64_t n = out.numel();
  uint8_t *dst = out.dataMut<uint8_t>();
  visitInt(a.kind(), [&](auto it) {
    using IT = decltype(it);
    using S = typename IT::S;
    auto run = [&](auto pred) {
      loop2(dst, a.data<S>(), a.numel() != n, b.data<S>(), b.numel() != n, n,
            [&](S x, S y) -> uint8_t { return pred(x, y); });
    };
    using P = arith::CmpIPredicate;
    switch (cmp.getPredicate()) {
    case P::eq: run([](S x, S y) { return IT::uval(x) == IT::uval(y); }); break;
    case P::ne: run([](S x, S y) { return IT::uval(x) != IT::uval(y); }); break;
    case P::slt: run([](S x, S y) { return IT::sval(x) < IT::sval(y); }); break;
    case P::sle: run([](S x, S y) { return IT::sval(x) <= IT::sval(y); }); break;
    case P::sgt: run([](S x, S y) { return IT::sval(x) > IT::sval(y); }); break;
    case P::sge: run([](S x, S y) { return IT::sval(x) >= IT::sval(y); }); break;
    case P::ult: run([](S x, S y) { return IT::uval(x) < IT::uval(y); }); break;
    case P::ule: run([](S x, S y) { return IT::uval(x) <= IT::uval(y); }); break;
    case P::ugt: run([](S x, S y) { return IT::uval(x) > IT::uval(y); }); break;
    case P::uge: run([](S x, S y) { return IT::uval(x) >= IT::uval(y); }); break;
    }
  });
  ex.set(cmp.getResult(), std::move(out));
  return success();
}

LogicalResult execCmpF(Exec &ex, Operation *op) {
  auto cmp = cast<arith::CmpFOp>(op);
  Tensor a = ex.tensor(cmp.getLhs()), b = ex.tensor(cmp.getRhs());
  Tensor out = Tensor::alloc(ElemKind::I1, broadcastShape(a, b));
  int64_t n = out.numel();
  uint8_t *dst = out.dataMut<uint8_t>();
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    using S = typename FT::S;
    auto run = [&](auto pred) {
      loop2(dst, a.data<S>(), a.numel() != n, b.data<S>(), b.numel() != n, n,
            [&](S x, S y) -> uint8_t { return pred(FT::dec(x), FT::dec(y)); });
    };
    using P = arith::CmpFPredicate;
    auto uno = [](auto x, auto y) { return std::isnan(x) || std::isnan(y); };
    switch (cmp.getPredicate()) {
    case P::AlwaysFalse: run([](auto, auto) { return false; }); break;
    case P::AlwaysTrue: run([](auto, auto) { return true; }); break;
    case P::OEQ: run([](auto x, auto y) { return x == y; }); break;
    case P::OGT: run([](auto x, auto y) { return x > y; }); break;
    case P::OGE: run([](auto x, auto y) { return x >= y; }); break;
    case P::OLT: run([](auto x, auto y) { return x < y; }); break;
    case P::OLE: run([](auto x, auto y) { return x <= y; }); break;
    case P::ONE: run([&](auto x, auto y) { return !uno(x, y) && x != y; }); break;
    case P::ORD: run([&](auto x, auto y) { return !uno(x, y); }); break;
    case P::UEQ: run([&](auto x, auto y) { return uno(x, y) || x == y; }); break;
    case P::UGT: run([](auto x, auto y) { return !(x <= y); }); break;
    case P::UGE: run([](auto x, auto y) { return !(x < y); }); break;
    case P::ULT: run([](auto x, auto y) { return !(x >= y); }); break;
    case P::ULE: run([](auto x, auto y) { return !(x > y); }); break;
    case P::UNE: run([](auto x, auto y) { return x != y; }); break;
    case P::UNO: run(uno); break;
    }
  });
  ex.set(cmp.getResult(), std::move(out));
  return success();
}

LogicalResult execSelect(Exec &ex, Operation *op) {
  Tensor c = ex.tensor(op->getOperand(0)), t = ex.tensor(op->getOperand(1)),
         f = ex.tensor(op->getOperand(2));
  Shape shape(broadcastShape(t, f, c));
  Tensor out = Tensor::alloc(t.kind(), shape);
  int64_t n = out.numel();
  const uint8_t *cd = c.data<uint8_t>();
  bool cOne = c.numel() != n, tOne = t.numel() != n, fOne = f.numel() != n;
  visitBytes(t.elemBytes(), [&](auto tag) {
    using T = decltype(tag);
    const T *td = t.data<T>(), *fd = f.data<T>();
    T *dst = out.dataMut<T>();
    for (int64_t i = 0; i < n; ++i)
      dst[i] = cd[cOne ? 0 : i] ? td[tOne ? 0 : i] : fd[fOne ? 0 : i];
  });
  ex.set(op->getResult(0), std::move(out));
  return success();
}

Round roundingOf(std::optional<arith::RoundingMode> mode) {
  if (!mode)
    return Round::NearestEven;
  switch (*mode) {
  case arith::RoundingMode::to_nearest_even: return Round::NearestEven;
  case arith::RoundingMode::downward: return Round::Down;
  case arith::RoundingMode::upward: return Round::Up;
  case arith::RoundingMode::toward_zero: return Round::TowardZero;
  case arith::RoundingMode::to_nearest_away: return Round::NearestAway;
  }
  return Round::NearestEven;
}

/// Casts: Src/DstUnsigned say how integers are read and written.
template <bool SrcUnsigned, bool DstUnsigned> LogicalResult execCast(Exec &ex, Operation *op) {
  Tensor in = ex.tensor(op->getOperand(0));
  Round mode = Round::NearestEven;
  if (auto t = dyn_cast<arith::TruncFOp>(op))
    mode = roundingOf(t.getRoundingmode());
  ElemKind to = elemKindOf(op->getResult(0).getType());
  ex.set(op->getResult(0), convertTensor(in, to, SrcUnsigned, DstUnsigned, mode));
  return success();
}

/// tt.fp_to_fp: float conversions with an explicit rounding mode. Narrowing
/// to fp8 saturates to the largest finite value, as NVIDIA's
/// cvt.*.satfinite that Triton emits does.
LogicalResult execFpToFp(Exec &ex, Operation *op) {
  auto f = cast<kiln::tt::FpToFpOp>(op);
  Tensor in = ex.tensor(f.getSrc());
  ElemKind to = elemKindOf(f.getType());
  Round mode = Round::NearestEven;
  if (auto r = f.getRounding())
    mode = *r == kiln::tt::RoundingMode::RTZ ? Round::TowardZero : Round::NearestEven;
  bool sat = byteSize(to) == 1 && byteSize(in.kind()) > 1;
  ex.set(f.getResult(), convertTensor(in, to, false, false, mode, sat));
  return success();
}

/// Reinterprets bits (arith.bitcast, tt.bitcast, int_to_ptr, ptr_to_int).
LogicalResult execBitcast(Exec &ex, Operation *op) {
  Tensor in = ex.tensor(op->getOperand(0));
  ElemKind to = elemKindOf(op->getResult(0).getType());
  ex.set(op->getResult(0), in.withKind(to));
  return success();
}

LogicalResult execConstant(Exec &ex, Operation *op) {
  auto c = cast<arith::ConstantOp>(op);
  if (!isa<DenseElementsAttr, IntegerAttr, FloatAttr>(c.getValue()))
    return ex.fail(op, "constants of this attribute kind are not supported");
  ex.set(c.getResult(), ex.constant(op, c.getValue(), c.getType()));
  return success();
}

} // namespace

void registerArithHandlers(HandlerMap &m) {
  addHandler<arith::ConstantOp>(m, execConstant);
  addHandler<arith::AddIOp>(m, execIntBinary<IB::Add>);
  addHandler<arith::SubIOp>(m, execIntBinary<IB::Sub>);
  addHandler<arith::MulIOp>(m, execIntBinary<IB::Mul>);
  addHandler<arith::DivSIOp>(m, execIntBinary<IB::DivS>);
  addHandler<arith::DivUIOp>(m, execIntBinary<IB::DivU>);
  addHandler<arith::RemSIOp>(m, execIntBinary<IB::RemS>);
  addHandler<arith::RemUIOp>(m, execIntBinary<IB::RemU>);
  addHandler<arith::CeilDivSIOp>(m, execIntBinary<IB::CeilDivS>);
  addHandler<arith::CeilDivUIOp>(m, execIntBinary<IB::CeilDivU>);
  addHandler<arith::FloorDivSIOp>(m, execIntBinary<IB::FloorDivS>);
  addHandler<arith::AndIOp>(m, execIntBinary<IB::And>);
  addHandler<arith::OrIOp>(m, execIntBinary<IB::Or>);
  addHandler<arith::XOrIOp>(m, execIntBinary<IB::Xor>);
  addHandler<arith::ShLIOp>(m, execIntBinary<IB::Shl>);
  addHandler<arith::ShRSIOp>(m, execIntBinary<IB::ShrS>);
  addHandler<arith::ShRUIOp>(m, execIntBinary<IB::ShrU>);
  addHandler<arith::MaxSIOp>(m, execIntBinary<IB::MaxS>);
  addHandler<arith::MinSIOp>(m, execIntBinary<IB::MinS>);
  addHandler<arith::MaxUIOp>(m, execIntBinary<IB::MaxU>);
  addHandler<arith::MinUIOp>(m, execIntBinary<IB::MinU>);
  addHandler<kiln::tt::MulhiUIOp>(m, execIntBinary<IB::MulHiU>);
  addHandler<arith::MulSIExtendedOp>(m, execMulExtended<true>);
  addHandler<arith::MulUIExtendedOp>(m, execMulExtended<false>);
  addHandler<arith::AddUIExtendedOp>(m, execAddUIExtended);

  addHandler<arith::AddFOp>(m, execFloatBinary<FB::Add>);
  addHandler<arith::SubFOp>(m, execFloatBinary<FB::Sub>);
  addHandler<arith::MulFOp>(m, execFloatBinary<FB::Mul>);
  addHandler<arith::DivFOp>(m, execFloatBinary<FB::Div>);
  addHandler<arith::RemFOp>(m, execFloatBinary<FB::Rem>);
  addHandler<arith::MaximumFOp>(m, execFloatBinary<FB::Maximum>);
  addHandler<arith::MinimumFOp>(m, execFloatBinary<FB::Minimum>);
  addHandler<arith::MaxNumFOp>(m, execFloatBinary<FB::MaxNum>);
  addHandler<arith::MinNumFOp>(m, execFloatBinary<FB::MinNum>);
  addHandler<kiln::tt::PreciseDivFOp>(m, execFloatBinary<FB::Div>);
  // Exact division for tt.approx_divf: the GPU's div.approx.f32 is within
  // 2 ulp of it (docs/interpreter.md).
  addHandler<kiln::tt::ApproxDivFOp>(m, execFloatBinary<FB::Div>);
  addHandler<arith::NegFOp>(m, execNegF);

  addHandler<arith::CmpIOp>(m, execCmpI);
  addHandler<arith::CmpFOp>(m, execCmpF);
  addHandler<arith::SelectOp>(m, execSelect);

  addHandler<arith::ExtSIOp>(m, execCast<false, false>);
  addHandler<arith::ExtUIOp>(m, execCast<true, true>);
  addHandler<arith::TruncIOp>(m, execCast<false, false>);
  addHandler<arith::IndexCastOp>(m, execCast<false, false>);
  addHandler<arith::IndexCastUIOp>(m, execCast<true, true>);
  addHandler<arith::ExtFOp>(m, execCast<false, false>);
  addHandler<arith::TruncFOp>(m, execCast<false, false>);
  addHandler<arith::SIToFPOp>(m, execCast<false, false>);
  addHandler<arith::UIToFPOp>(m, execCast<true, false>);
  addHandler<arith::FPToSIOp>(m, execCast<false, false>);
  addHandler<arith::FPToUIOp>(m, execCast<false, true>);
  addHandler<kiln::tt::FpToFpOp>(m, execFpToFp);
  addHandler<arith::BitcastOp>(m, execBitcast);
  addHandler<kiln::tt::BitcastOp>(m, execBitcast);
  addHandler<kiln::tt::IntToPtrOp>(m, execBitcast);
  addHandler<kiln::tt::PtrToIntOp>(m, execBitcast);
}

} // namespace kiln::interp::detail
