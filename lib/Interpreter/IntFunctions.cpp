//===- IntFunctions.cpp - libdevice's integer functions, math integer ops --===//
//
// Every integer function of CUDA's libdevice (libdevice.10.bc), as its IR and
// PTX define it and as an H200 computes it: wrap-around arithmetic, no
// undefined cases. The math dialect's integer ops share the bit counts.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace kiln::interp::detail {

std::optional<IntFnSig> lookupIntFunction(llvm::StringRef name) {
  using EK = ElemKind;
  struct Entry {
    IntFn fn;
    EK operand;
    unsigned arity;
    EK result;
  };
  auto e = llvm::StringSwitch<std::optional<Entry>>(name)
               .Case("popc", Entry{IntFn::Popc, EK::I32, 1, EK::I32})
               .Case("popcll", Entry{IntFn::Popc, EK::I64, 1, EK::I32})
               .Case("clz", Entry{IntFn::Clz, EK::I32, 1, EK::I32})
               .Case("clzll", Entry{IntFn::Clz, EK::I64, 1, EK::I32})
               .Case("ffs", Entry{IntFn::Ffs, EK::I32, 1, EK::I32})
               .Case("ffsll", Entry{IntFn::Ffs, EK::I64, 1, EK::I32})
               .Case("brev", Entry{IntFn::Brev, EK::I32, 1, EK::I32})
               .Case("brevll", Entry{IntFn::Brev, EK::I64, 1, EK::I64})
               .Case("abs", Entry{IntFn::Abs, EK::I32, 1, EK::I32})
               .Case("llabs", Entry{IntFn::Abs, EK::I64, 1, EK::I64})
               .Case("mulhi", Entry{IntFn::MulHi, EK::I32, 2, EK::I32})
               .Case("mul64hi", Entry{IntFn::MulHi, EK::I64, 2, EK::I64})
               .Case("umulhi", Entry{IntFn::UMulHi, EK::I32, 2, EK::I32})
               .Case("umul64hi", Entry{IntFn::UMulHi, EK::I64, 2, EK::I64})
               .Case("min", Entry{IntFn::Min, EK::I32, 2, EK::I32})
               .Case("llmin", Entry{IntFn::Min, EK::I64, 2, EK::I64})
               .Case("max", Entry{IntFn::Max, EK::I32, 2, EK::I32})
               .Case("llmax", Entry{IntFn::Max, EK::I64, 2, EK::I64})
               .Case("umin", Entry{IntFn::UMin, EK::I32, 2, EK::I32})
               .Case("ullmin", Entry{IntFn::UMin, EK::I64, 2, EK::I64})
               .Case("umax", Entry{IntFn::UMax, EK::I32, 2, EK::I32})
               .Case("ullmax", Entry{IntFn::UMax, EK::I64, 2, EK::I64})
               .Case("hadd", Entry{IntFn::HAdd, EK::I32, 2, EK::I32})
               .Case("rhadd", Entry{IntFn::RHAdd, EK::I32, 2, EK::I32})
               .Case("uhadd", Entry{IntFn::UHAdd, EK::I32, 2, EK::I32})
               .Case("urhadd", Entry{IntFn::URHAdd, EK::I32, 2, EK::I32})
               .Case("mul24", Entry{IntFn::Mul24, EK::I32, 2, EK::I32})
               .Case("umul24", Entry{IntFn::UMul24, EK::I32, 2, EK::I32})
               .Case("sad", Entry{IntFn::Sad, EK::I32, 3, EK::I32})
               .Case("usad", Entry{IntFn::USad, EK::I32, 3, EK::I32})
               .Case("byte_perm", Entry{IntFn::BytePerm, EK::I32, 3, EK::I32})
               .Default(std::nullopt);
  if (!e)
    return std::nullopt;
  return IntFnSig{e->fn, llvm::SmallVector<ElemKind, 3>(e->arity, e->operand), e->result};
}

namespace {

/// result = f(x, y, z) on integer tensors of one kind (any may be one
/// element), read zero-extended.
template <class F> LogicalResult intTernary(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1)),
         c = ex.tensor(op->getOperand(2));
  Shape shape(broadcastShape(a, b, c));
  Tensor out = Tensor::alloc(a.kind(), shape);
  int64_t n = out.numel();
  bool a1 = a.numel() != n, b1 = b.numel() != n, c1 = c.numel() != n;
  for (int64_t i = 0; i < n; ++i)
    out.setBits(i, f(a.uintAt(a1 ? 0 : i), b.uintAt(b1 ? 0 : i), c.uintAt(c1 ? 0 : i)));
  ex.set(op->getResult(0), std::move(out));
  return success();
}

uint64_t countLeadingZeros(uint64_t u, unsigned bits) {
  return u == 0 ? bits : __builtin_clzll(u) - (64 - bits);
}

/// The low 24 bits of a 32-bit value, sign-extended (mul24 reads only those).
int64_t low24Signed(uint64_t u) { return int64_t(int32_t(uint32_t(u) << 8) >> 8); }

} // namespace

LogicalResult execIntFunction(Exec &ex, Operation *op, IntFn fn) {
  auto unary = [&](auto f) { return intUnary(ex, op, f); };
  auto binary = [&](auto f) {
    return intBinary(ex, op, [f](int64_t sa, int64_t sb, uint64_t ua, uint64_t ub, auto it) {
      return uint64_t(f(sa, sb, ua, ub, unsigned(decltype(it)::bits)));
    });
  };
  switch (fn) {
  case IntFn::Popc:
    return unary([](int64_t, uint64_t u, unsigned) -> uint64_t { return __builtin_popcountll(u); });
  case IntFn::Clz:
    return unary([](int64_t, uint64_t u, unsigned w) { return countLeadingZeros(u, w); });
  case IntFn::Ctz:
    return unary([](int64_t, uint64_t u, unsigned w) -> uint64_t {
      return u == 0 ? w : __builtin_ctzll(u);
    });
  case IntFn::Ffs: // 1 + the index of the lowest set bit; 0 for 0
    return unary([](int64_t, uint64_t u, unsigned) -> uint64_t {
      return u == 0 ? 0 : __builtin_ctzll(u) + 1;
    });
  case IntFn::Brev:
    return unary([](int64_t, uint64_t u, unsigned w) -> uint64_t {
      uint64_t r = 0;
      for (unsigned i = 0; i < w; ++i)
        r |= ((u >> i) & 1) << (w - 1 - i);
      return r;
    });
  case IntFn::Abs: // INT_MIN stays INT_MIN
    return unary([](int64_t s, uint64_t, unsigned) -> uint64_t {
      return s < 0 ? 0 - uint64_t(s) : uint64_t(s);
    });
  case IntFn::MulHi:
    return binary([](int64_t a, int64_t b, uint64_t, uint64_t, unsigned w) {
      return w == 64 ? uint64_t((__int128)a * b >> 64) : uint64_t((a * b) >> w);
    });
  case IntFn::UMulHi:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned w) {
      return w == 64 ? uint64_t((unsigned __int128)a * b >> 64) : (a * b) >> w;
    });
  case IntFn::Min:
    return binary([](int64_t a, int64_t b, uint64_t, uint64_t, unsigned) { return a < b ? a : b; });
  case IntFn::Max:
    return binary([](int64_t a, int64_t b, uint64_t, uint64_t, unsigned) { return a > b ? a : b; });
  case IntFn::UMin:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned) { return a < b ? a : b; });
  case IntFn::UMax:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned) { return a > b ? a : b; });
  // Halving adds: floor((a + b) / 2) (rhadd: rounded up), without overflow.
  case IntFn::HAdd:
    return binary([](int64_t a, int64_t b, uint64_t, uint64_t, unsigned) { return (a + b) >> 1; });
  case IntFn::RHAdd:
    return binary([](int64_t a, int64_t b, uint64_t, uint64_t, unsigned) { return (a + b + 1) >> 1; });
  case IntFn::UHAdd:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned) { return (a + b) >> 1; });
  case IntFn::URHAdd:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned) { return (a + b + 1) >> 1; });
  // The low 32 bits of the product of the operands' low 24 bits.
  case IntFn::Mul24:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned) {
      return low24Signed(a) * low24Signed(b);
    });
  case IntFn::UMul24:
    return binary([](int64_t, int64_t, uint64_t a, uint64_t b, unsigned) {
      return (a & 0xffffff) * (b & 0xffffff);
    });
  // sad: z + |x - y|, the difference exact, the sum wrapping (PTX sad).
  case IntFn::Sad:
    return intTernary(ex, op, [](uint64_t x, uint64_t y, uint64_t z) {
      int64_t d = int64_t(int32_t(x)) - int64_t(int32_t(y));
      return z + uint64_t(d < 0 ? -d : d);
    });
  case IntFn::USad:
    return intTernary(ex, op, [](uint64_t x, uint64_t y, uint64_t z) {
      return z + (x > y ? x - y : y - x);
    });
  // Byte i of the result is byte s_i of the 8 bytes {y:x}, s_i the low 3 bits
  // of nibble i of the selector (libdevice masks it with 0x7777).
  case IntFn::BytePerm:
    return intTernary(ex, op, [](uint64_t x, uint64_t y, uint64_t s) {
      uint64_t bytes = (y << 32) | x, r = 0;
      for (unsigned i = 0; i < 4; ++i)
        r |= ((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
      return r;
    });
  }
  return ex.fail(op, "internal: unknown integer function");
}

} // namespace kiln::interp::detail
