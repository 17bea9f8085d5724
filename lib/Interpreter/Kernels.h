//===- Kernels.h - typed whole-tensor loops (internal) ----------*- C++ -*-===//
//
// Ops switch on the element kind once and then run a loop specialised for
// that storage type. Integers are computed in 64 bits and truncated to
// their width on store; f16/bf16/fp8 are computed in f32 and rounded to
// nearest even on store (exact for +, -, *, /, sqrt, since f32 carries more
// than twice their precision plus two bits).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_LIB_INTERPRETER_KERNELS_H
#define KILN_LIB_INTERPRETER_KERNELS_H

#include "kiln/RunSpec/Value.h"

#include <cstring>
#include <type_traits>

namespace kiln::interp::detail {

/// An integer kind: storage type T (i1 is a uint8_t holding 0 or 1) and width.
template <class T, int Bits> struct IntT {
  using S = T;
  static constexpr int bits = Bits;
  static int64_t sval(T v) {
    if constexpr (Bits == 1)
      return -int64_t(v & 1);
    else
      return int64_t(v);
  }
  static uint64_t uval(T v) {
    if constexpr (Bits == 1)
      return uint64_t(v & 1);
    else
      return uint64_t(std::make_unsigned_t<T>(v));
  }
  static T store(uint64_t v) {
    if constexpr (Bits == 1)
      return T(v & 1);
    else
      return T(v);
  }
};

template <class F> decltype(auto) visitInt(ElemKind k, F &&f) {
  switch (k) {
  case ElemKind::I1: return f(IntT<uint8_t, 1>{});
  case ElemKind::I8: return f(IntT<int8_t, 8>{});
  case ElemKind::I16: return f(IntT<int16_t, 16>{});
  case ElemKind::I32: return f(IntT<int32_t, 32>{});
  default: return f(IntT<int64_t, 64>{}); // i64, and pointers as integers
  }
}

struct F32T {
  using S = float;
  using C = float;
  static C dec(S s) { return s; }
  static S enc(C c) { return c; }
};
struct F64T {
  using S = double;
  using C = double;
  static C dec(S s) { return s; }
  static S enc(C c) { return c; }
};
struct F16T {
  using S = uint16_t;
  using C = float;
  static C dec(S s) { return halfToFloat(s); }
  static S enc(C c) { return floatToHalf(c); }
};
struct BF16T {
  using S = uint16_t;
  using C = float;
  static C dec(S s) { return bf16ToFloat(s); }
  static S enc(C c) { return floatToBF16(c); }
};
template <const FloatFormat *Fmt> struct F8T {
  using S = uint8_t;
  using C = float;
  static C dec(S s) { return float(decodeFloat(s, *Fmt)); }
  static S enc(C c) { return uint8_t(encodeFloat(double(c), *Fmt)); }
};

template <class F> decltype(auto) visitFloat(ElemKind k, F &&f) {
  switch (k) {
  case ElemKind::F16: return f(F16T{});
  case ElemKind::BF16: return f(BF16T{});
  case ElemKind::F64: return f(F64T{});
  case ElemKind::F8E4M3FN: return f(F8T<&kFormatF8E4M3FN>{});
  case ElemKind::F8E4M3FNUZ: return f(F8T<&kFormatF8E4M3FNUZ>{});
  case ElemKind::F8E5M2: return f(F8T<&kFormatF8E5M2>{});
  case ElemKind::F8E5M2FNUZ: return f(F8T<&kFormatF8E5M2FNUZ>{});
  default: return f(F32T{});
  }
}

/// Calls f with an unsigned type of the element's byte size (for moves).
template <class F> decltype(auto) visitBytes(unsigned size, F &&f) {
  switch (size) {
  case 1: return f(uint8_t{});
  case 2: return f(uint16_t{});
  case 4: return f(uint32_t{});
  default: return f(uint64_t{});
  }
}

/// Result shape of an elementwise op: operands of one element broadcast
/// (combine regions run on tensors while their IR says scalars).
inline llvm::ArrayRef<int64_t> broadcastShape(const Tensor &a, const Tensor &b) {
  return a.numel() >= b.numel() && a.rank() >= b.rank() ? a.shape() : b.shape();
}
/// The same for three operands.
inline llvm::ArrayRef<int64_t> broadcastShape(const Tensor &a, const Tensor &b, const Tensor &c) {
  llvm::ArrayRef<int64_t> ab = broadcastShape(a, b);
  return c.numel() > numElements(ab) ? c.shape() : ab;
}

/// out[i] = f(a[i]) for a in storage type A, out in storage type R.
template <class R, class A, class F>
void loop1(R *out, const A *a, int64_t n, F &&f) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = f(a[i]);
}

/// out[i] = f(a[i], b[i]), either operand possibly a single element.
template <class R, class A, class B, class F>
void loop2(R *out, const A *a, bool aOne, const B *b, bool bOne, int64_t n, F &&f) {
  if (!aOne && !bOne) {
    for (int64_t i = 0; i < n; ++i)
      out[i] = f(a[i], b[i]);
  } else if (aOne && !bOne) {
    A av = a[0];
    for (int64_t i = 0; i < n; ++i)
      out[i] = f(av, b[i]);
  } else if (!aOne) {
    B bv = b[0];
    for (int64_t i = 0; i < n; ++i)
      out[i] = f(a[i], bv);
  } else {
    for (int64_t i = 0; i < n; ++i)
      out[i] = f(a[0], b[0]);
  }
}

/// Conversion between kinds. Integers are read signed or unsigned as the
/// op says; float -> int truncates toward zero and saturates as NVIDIA's
/// cvt.rzi does (an 8-bit result through 16 bits; NaN -> 0, or 100...0 for a
/// 64-bit result or an f64 source); float -> float and int -> float round
/// once in `mode`; `satFinite` clamps overflow to the largest finite value.
Tensor convertTensor(const Tensor &in, ElemKind to, bool srcUnsigned, bool dstUnsigned,
                     Round mode = Round::NearestEven, bool satFinite = false);

/// Copies of tensor data (any element kind).
Tensor broadcastTo(const Tensor &in, llvm::ArrayRef<int64_t> shape);
Tensor permute(const Tensor &in, llvm::ArrayRef<int32_t> order);
/// The elements at `positions` along `axis` (a new tensor whose `axis`
/// has positions.size() entries).
Tensor selectAlong(const Tensor &in, unsigned axis, llvm::ArrayRef<int64_t> positions);
/// Writes `part` into `dst` at `positions` along `axis` (dst must be fresh).
void scatterAlong(Tensor &dst, const Tensor &part, unsigned axis,
                  llvm::ArrayRef<int64_t> positions);
/// A tensor of `shape` with every element equal to element 0 of `scalar`.
Tensor splat(const Tensor &scalar, llvm::ArrayRef<int64_t> shape);

} // namespace kiln::interp::detail

#endif
