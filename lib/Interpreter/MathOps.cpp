//===- MathOps.cpp - math dialect, tt.clampf/precise_*, libdevice calls ---===//
//
// Float functions run in the operand's compute type (f32 functions of the C
// library for f32, f16 and bf16; f64 functions for f64), so results are
// within an ulp or so of the correctly rounded value; NVIDIA's libdevice
// and fast approximations differ from them by a few ulp, which the
// corpus tolerances cover.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>
#include <optional>

using namespace mlir;

namespace kiln::interp::detail {
namespace {

template <class C> C nanOf() { return std::numeric_limits<C>::quiet_NaN(); }

/// result = f(x, y, z) on float tensors of one shape (any may be one element).
template <class F> LogicalResult floatTernary(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0)), b = ex.tensor(op->getOperand(1)),
         c = ex.tensor(op->getOperand(2));
  Shape shape(broadcastShape(a, b, c));
  Tensor out = Tensor::alloc(a.kind(), shape);
  int64_t n = out.numel();
  bool a1 = a.numel() != n, b1 = b.numel() != n, c1 = c.numel() != n;
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    using S = typename FT::S;
    const S *ad = a.data<S>(), *bd = b.data<S>(), *cd = c.data<S>();
    S *dst = out.dataMut<S>();
    for (int64_t i = 0; i < n; ++i)
      dst[i] = FT::enc(f(FT::dec(ad[a1 ? 0 : i]), FT::dec(bd[b1 ? 0 : i]),
                         FT::dec(cd[c1 ? 0 : i])));
  });
  ex.set(op->getResult(0), std::move(out));
  return success();
}

/// An i1 (or wider integer) predicate of a float tensor.
template <class F> LogicalResult floatPredicate(Exec &ex, Operation *op, F f) {
  Tensor a = ex.tensor(op->getOperand(0));
  ElemKind to = elemKindOf(op->getResult(0).getType());
  Tensor out = Tensor::alloc(to, a.shape());
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    const auto *src = a.data<typename FT::S>();
    for (int64_t i = 0; i < a.numel(); ++i)
      out.setBits(i, f(FT::dec(src[i])) ? 1 : 0);
  });
  ex.set(op->getResult(0), std::move(out));
  return success();
}

template <class C> C clampOf(C x, C lo, C hi, bool propagateNan) {
  if (propagateNan && std::isnan(x))
    return x;
  return std::fmin(std::fmax(x, lo), hi);
}

LogicalResult execClampF(Exec &ex, Operation *op) {
  bool all = cast<kiln::tt::ClampFOp>(op).getPropagateNan() == kiln::tt::PropagateNan::ALL;
  return floatTernary(ex, op, [all](auto x, auto lo, auto hi) { return clampOf(x, lo, hi, all); });
}

LogicalResult execMathClampF(Exec &ex, Operation *op) {
  return floatTernary(ex, op, [](auto x, auto lo, auto hi) { return clampOf(x, lo, hi, true); });
}

/// Inverse error function by Newton's method on erf (accurate to an ulp).
template <class C> C erfinvOf(C y) {
  if (std::isnan(y) || y < -1 || y > 1)
    return nanOf<C>();
  if (y == 1 || y == -1)
    return y * std::numeric_limits<C>::infinity();
  double yd = y, w = -std::log((1.0 - yd) * (1.0 + yd)), x;
  // Giles' single-precision starting point, then Newton steps in double.
  if (w < 5.0) {
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                     -0.00125372503, -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * yd;
  } else {
    w = std::sqrt(w) - 3.0;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                     -0.0076224613, 0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
    x = p * yd;
  }
  for (int i = 0; i < 3; ++i)
    x -= (std::erf(x) - yd) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
  return C(x);
}

enum class Lib {
  Unknown,
  // unary float -> float
  Acos, Acosh, Asin, Asinh, Atan, Atanh, Cbrt, Ceil, Cos, Cosh, CosPi, Erf, Erfc,
  ErfInv, ErfcInv, Exp, Exp10, Exp2, Expm1, Fabs, Floor, J0, J1, Y0, Y1, Lgamma, Log,
  Log10, Log1p, Log2, Logb, Rint, Round, Rsqrt, Rcbrt, Rcp, Sin, Sinh, SinPi, Sqrt, Tan,
  Tanh, Tgamma, Trunc, Saturate, NormCdf,
  // binary float
  Atan2, CopySign, Fdim, Fmax, Fmin, Fmod, Hypot, NextAfter, Pow, Remainder, Div, Add,
  Sub, Mul,
  // float, int -> float
  PowI, Ldexp,
  // ternary float
  Fma,
  // float -> int predicates / queries
  IsInf, IsNan, IsFinite, SignBit, Ilogb,
  // float -> int conversions with a rounding step (RA: half away from zero)
  ToIntRN, ToIntRZ, ToIntRD, ToIntRU, ToUIntRN, ToUIntRZ, ToUIntRD, ToUIntRU, ToIntRA,
  // int / double -> float or double, rounded in a named direction
  ToFloatRN, ToFloatRZ, ToFloatRD, ToFloatRU, UToFloatRN, UToFloatRZ, UToFloatRD, UToFloatRU,
  // bit reinterpretations; the halves of an f64 and back
  AsBits, DoubleHi, DoubleLo, HiLoToDouble,
  // integer functions (IntFunctions.cpp)
  Int,
};

/// A recognised library symbol: its function and what its name says about
/// its operand types.
struct LibFn {
  Lib lib = Lib::Unknown;
  llvm::StringRef base; // the name without prefix and ocml type suffix
  bool ocml = false;
  std::optional<ElemKind> ocmlKind; // from an ocml _f16/_f32/_f64 suffix
  bool droppedF = false;            // a libdevice name matched without its 'f'
  std::optional<IntFnSig> intFn;    // for Lib::Int
};

/// libdevice (`__nv_*`) and ROCm ocml (`__ocml_*_f32`) symbol -> function.
LibFn lookupLib(llvm::StringRef symbol) {
  LibFn fn;
  llvm::StringRef base = symbol;
  if (!base.consume_front("__nv_")) {
    if (!base.consume_front("__ocml_"))
      return fn;
    fn.ocml = true;
    if (base.consume_back("_f16"))
      fn.ocmlKind = ElemKind::F16;
    else if (base.consume_back("_f32"))
      fn.ocmlKind = ElemKind::F32;
    else if (base.consume_back("_f64"))
      fn.ocmlKind = ElemKind::F64;
  }
  fn.base = base;
  if (!fn.ocml && (fn.intFn = lookupIntFunction(base))) {
    fn.lib = Lib::Int;
    return fn;
  }
  // <int|ll|uint|ull|double|float>2<float|double>_<rn|rz|rd|ru>
  {
    auto [from, rest] = base.split('2');
    auto [to, dir] = rest.split('_');
    bool src = from == "int" || from == "ll" || from == "uint" || from == "ull" ||
               from == "double" || from == "float";
    int d = dir == "rn" ? 0 : dir == "rz" ? 1 : dir == "rd" ? 2 : dir == "ru" ? 3 : -1;
    if (src && (to == "float" || to == "double") && d >= 0) {
      fn.lib = Lib(int(from.starts_with("u") ? Lib::UToFloatRN : Lib::ToFloatRN) + d);
      return fn;
    }
  }
  auto match = [](llvm::StringRef n) {
    return llvm::StringSwitch<Lib>(n)
        .Case("acos", Lib::Acos).Case("acosh", Lib::Acosh).Case("asin", Lib::Asin)
        .Case("asinh", Lib::Asinh).Case("atan", Lib::Atan).Case("atanh", Lib::Atanh)
        .Case("cbrt", Lib::Cbrt).Case("ceil", Lib::Ceil).Case("cos", Lib::Cos)
        .Case("cosh", Lib::Cosh).Case("cospi", Lib::CosPi).Case("erf", Lib::Erf)
        .Case("erfc", Lib::Erfc).Case("erfinv", Lib::ErfInv).Case("erfcinv", Lib::ErfcInv)
        .Cases({"exp", "fast_exp"}, Lib::Exp).Cases({"exp10", "fast_exp10"}, Lib::Exp10)
        .Case("exp2", Lib::Exp2).Case("expm1", Lib::Expm1).Cases({"fabs", "abs"}, Lib::Fabs)
        .Case("floor", Lib::Floor).Case("j0", Lib::J0).Case("j1", Lib::J1)
        .Case("y0", Lib::Y0).Case("y1", Lib::Y1).Case("lgamma", Lib::Lgamma)
        .Cases({"log", "fast_log"}, Lib::Log).Cases({"log10", "fast_log10"}, Lib::Log10)
        .Case("log1p", Lib::Log1p).Cases({"log2", "fast_log2"}, Lib::Log2)
        .Case("logb", Lib::Logb).Cases({"rint", "nearbyint"}, Lib::Rint)
        .Case("round", Lib::Round).Case("rsqrt", Lib::Rsqrt).Case("rcbrt", Lib::Rcbrt)
        .Cases({"frcp_rn", "drcp_rn", "rcp"}, Lib::Rcp)
        .Cases({"sin", "fast_sin"}, Lib::Sin).Case("sinh", Lib::Sinh)
        .Case("sinpi", Lib::SinPi).Cases({"sqrt", "fsqrt_rn", "dsqrt_rn"}, Lib::Sqrt)
        .Cases({"tan", "fast_tan"}, Lib::Tan).Case("tanh", Lib::Tanh)
        .Case("tgamma", Lib::Tgamma).Case("trunc", Lib::Trunc)
        .Case("saturate", Lib::Saturate).Case("normcdf", Lib::NormCdf)
        .Case("atan2", Lib::Atan2).Case("copysign", Lib::CopySign).Case("fdim", Lib::Fdim)
        .Case("fmax", Lib::Fmax).Case("fmin", Lib::Fmin).Case("fmod", Lib::Fmod)
        .Case("hypot", Lib::Hypot).Case("nextafter", Lib::NextAfter)
        .Cases({"pow", "fast_pow"}, Lib::Pow).Case("remainder", Lib::Remainder)
        .Cases({"fdiv_rn", "ddiv_rn", "fdivide", "fast_fdivide", "div_rn"}, Lib::Div)
        .Cases({"fadd_rn", "dadd_rn"}, Lib::Add).Cases({"fsub_rn", "dsub_rn"}, Lib::Sub)
        .Cases({"fmul_rn", "dmul_rn"}, Lib::Mul)
        .Cases({"powi", "pown"}, Lib::PowI).Cases({"ldexp", "scalbn"}, Lib::Ldexp)
        .Cases({"fma", "fma_rn", "fmaf_rn"}, Lib::Fma)
        .Cases({"isinf", "isinfd"}, Lib::IsInf).Cases({"isnan", "isnand"}, Lib::IsNan)
        .Cases({"finite", "isfinited", "isfinite"}, Lib::IsFinite)
        .Cases({"signbit", "signbitd"}, Lib::SignBit).Case("ilogb", Lib::Ilogb)
        .Cases({"float2int_rn", "double2int_rn", "float2ll_rn", "double2ll_rn",
                "llrint", "rint_to_int"}, Lib::ToIntRN)
        .Cases({"float2int_rz", "double2int_rz", "float2ll_rz", "double2ll_rz"},
               Lib::ToIntRZ)
        .Cases({"float2int_rd", "double2int_rd", "float2ll_rd", "double2ll_rd"},
               Lib::ToIntRD)
        .Cases({"float2int_ru", "double2int_ru", "float2ll_ru", "double2ll_ru"},
               Lib::ToIntRU)
        .Cases({"float2uint_rn", "double2uint_rn", "float2ull_rn", "double2ull_rn"},
               Lib::ToUIntRN)
        .Cases({"float2uint_rz", "double2uint_rz", "float2ull_rz", "double2ull_rz"},
               Lib::ToUIntRZ)
        .Cases({"float2uint_rd", "double2uint_rd", "float2ull_rd", "double2ull_rd"},
               Lib::ToUIntRD)
        .Cases({"float2uint_ru", "double2uint_ru", "float2ull_ru", "double2ull_ru"},
               Lib::ToUIntRU)
        .Case("llround", Lib::ToIntRA)
        .Cases({"float_as_int", "int_as_float", "double_as_longlong", "longlong_as_double",
                "float_as_uint", "uint_as_float"}, Lib::AsBits)
        .Case("double2hiint", Lib::DoubleHi).Case("double2loint", Lib::DoubleLo)
        .Case("hiloint2double", Lib::HiLoToDouble)
        .Default(Lib::Unknown);
  };
  fn.lib = match(base);
  // Float versions append 'f' (expf, erff, fmaf_rn has its own entry).
  if (fn.lib == Lib::Unknown && base.ends_with("f")) {
    fn.lib = match(base.drop_back());
    fn.droppedF = fn.lib != Lib::Unknown && !fn.ocml;
  }
  return fn;
}

/// A function's element types: operands, then the result.
struct LibSig {
  llvm::SmallVector<ElemKind, 3> args;
  ElemKind result;
};

/// The real signature of a recognised symbol. Handlers reinterpret operand
/// and result buffers by these widths, so any other types would read or
/// write out of bounds; they are rejected before a handler runs.
LibSig signatureOf(const LibFn &fn, Operation *op) {
  llvm::StringRef b = fn.base;
  using EK = ElemKind;
  // The float type F: an ocml suffix; a libdevice name ending in 'f' or
  // naming f32 (fdiv_rn, fmaf_rn...) means f32, otherwise f64. An ocml
  // name without a suffix takes the operand's float type.
  EK f;
  if (fn.ocml) {
    EK first = op->getNumOperands() ? elemKindOf(op->getOperand(0).getType()) : EK::F32;
    f = fn.ocmlKind ? *fn.ocmlKind : isFloatKind(first) ? first : EK::F32;
  } else {
    bool f32 = fn.droppedF || llvm::is_contained(
                                  {"fdiv_rn", "frcp_rn", "fsqrt_rn", "fadd_rn", "fsub_rn",
                                   "fmul_rn", "fmaf_rn", "fdivide", "fast_fdivide"},
                                  b);
    f = f32 ? EK::F32 : EK::F64;
  }
  // "float2..." / "double2..." / "ll2..." name their source; "...2ll" etc.
  // their destination.
  auto [from, to] = b.split('2');
  auto intOf = [](llvm::StringRef n) {
    return n.starts_with("ll") || n.starts_with("ull") ? EK::I64 : EK::I32;
  };
  auto typeOf = [&](llvm::StringRef n) {
    return n == "float" ? EK::F32 : n == "double" ? EK::F64 : intOf(n);
  };
  Lib lib = fn.lib;
  if (lib <= Lib::NormCdf)
    return {{f}, f};
  if (lib <= Lib::Mul)
    return {{f, f}, f};
  if (lib <= Lib::Ldexp)
    return {{f, EK::I32}, f};
  if (lib == Lib::Fma)
    return {{f, f, f}, f};
  if (lib <= Lib::Ilogb)
    return {{f}, EK::I32};
  if (lib <= Lib::ToIntRA) {
    if (b.starts_with("float2") || b.starts_with("double2"))
      return {{typeOf(from)}, intOf(to)};
    return {{f}, b.starts_with("ll") ? EK::I64 : EK::I32}; // llrint, llround
  }
  if (lib <= Lib::UToFloatRU)
    return {{typeOf(from)}, typeOf(to.split('_').first)};
  if (lib == Lib::AsBits) {
    if (b == "double_as_longlong")
      return {{EK::F64}, EK::I64};
    if (b == "longlong_as_double")
      return {{EK::I64}, EK::F64};
    if (b.starts_with("float_as"))
      return {{EK::F32}, EK::I32};
    return {{EK::I32}, EK::F32};
  }
  if (lib == Lib::DoubleHi || lib == Lib::DoubleLo)
    return {{EK::F64}, EK::I32};
  if (lib == Lib::HiLoToDouble)
    return {{EK::I32, EK::I32}, EK::F64};
  return {fn.intFn->args, fn.intFn->result};
}

std::string signatureString(llvm::ArrayRef<ElemKind> args, ElemKind result) {
  std::string s = "(";
  for (auto [n, k] : llvm::enumerate(args))
    s += (n ? ", " : "") + kindName(k).str();
  return s + ") -> " + kindName(result).str();
}


template <class C> C sinPi(C x) { return C(std::sin(M_PI * double(x))); }
template <class C> C cosPi(C x) { return C(std::cos(M_PI * double(x))); }

LogicalResult execLibFloatUnary(Exec &ex, Operation *op, Lib lib) {
  auto u = [&](auto f) { return floatUnary(ex, op, f); };
  switch (lib) {
  case Lib::Acos: return u([](auto x) { return std::acos(x); });
  case Lib::Acosh: return u([](auto x) { return std::acosh(x); });
  case Lib::Asin: return u([](auto x) { return std::asin(x); });
  case Lib::Asinh: return u([](auto x) { return std::asinh(x); });
  case Lib::Atan: return u([](auto x) { return std::atan(x); });
  case Lib::Atanh: return u([](auto x) { return std::atanh(x); });
  case Lib::Cbrt: return u([](auto x) { return std::cbrt(x); });
  case Lib::Ceil: return u([](auto x) { return std::ceil(x); });
  case Lib::Cos: return u([](auto x) { return std::cos(x); });
  case Lib::Cosh: return u([](auto x) { return std::cosh(x); });
  case Lib::CosPi: return u([](auto x) { return cosPi(x); });
  case Lib::Erf: return u([](auto x) { return std::erf(x); });
  case Lib::Erfc: return u([](auto x) { return std::erfc(x); });
  case Lib::ErfInv: return u([](auto x) { return erfinvOf(x); });
  case Lib::ErfcInv: return u([](auto x) { return erfinvOf(decltype(x)(1) - x); });
  case Lib::Exp: return u([](auto x) { return std::exp(x); });
  case Lib::Exp10: return u([](auto x) { return decltype(x)(std::pow(10.0, double(x))); });
  case Lib::Exp2: return u([](auto x) { return std::exp2(x); });
  case Lib::Expm1: return u([](auto x) { return std::expm1(x); });
  case Lib::Fabs: return u([](auto x) { return std::fabs(x); });
  case Lib::Floor: return u([](auto x) { return std::floor(x); });
  case Lib::J0: return u([](auto x) { return decltype(x)(::j0(double(x))); });
  case Lib::J1: return u([](auto x) { return decltype(x)(::j1(double(x))); });
  case Lib::Y0: return u([](auto x) { return decltype(x)(::y0(double(x))); });
  case Lib::Y1: return u([](auto x) { return decltype(x)(::y1(double(x))); });
  case Lib::Lgamma: return u([](auto x) { return std::lgamma(x); });
  case Lib::Log: return u([](auto x) { return std::log(x); });
  case Lib::Log10: return u([](auto x) { return std::log10(x); });
  case Lib::Log1p: return u([](auto x) { return std::log1p(x); });
  case Lib::Log2: return u([](auto x) { return std::log2(x); });
  case Lib::Logb: return u([](auto x) { return std::logb(x); });
  case Lib::Rint: return u([](auto x) { return std::nearbyint(x); });
  case Lib::Round: return u([](auto x) { return std::round(x); });
  case Lib::Rsqrt: return u([](auto x) { return decltype(x)(1) / std::sqrt(x); });
  case Lib::Rcbrt: return u([](auto x) { return decltype(x)(1) / std::cbrt(x); });
  case Lib::Rcp: return u([](auto x) { return decltype(x)(1) / x; });
  case Lib::Sin: return u([](auto x) { return std::sin(x); });
  case Lib::Sinh: return u([](auto x) { return std::sinh(x); });
  case Lib::SinPi: return u([](auto x) { return sinPi(x); });
  case Lib::Sqrt: return u([](auto x) { return std::sqrt(x); });
  case Lib::Tan: return u([](auto x) { return std::tan(x); });
  case Lib::Tanh: return u([](auto x) { return std::tanh(x); });
  case Lib::Tgamma: return u([](auto x) { return std::tgamma(x); });
  case Lib::Trunc: return u([](auto x) { return std::trunc(x); });
  case Lib::Saturate:
    return u([](auto x) { return std::fmin(std::fmax(x, decltype(x)(0)), decltype(x)(1)); });
  case Lib::NormCdf:
    return u([](auto x) { return decltype(x)(0.5 * std::erfc(-double(x) / M_SQRT2)); });
  default: return ex.fail(op, "internal: not a unary float function");
  }
}

LogicalResult execLibFloatBinary(Exec &ex, Operation *op, Lib lib) {
  auto b = [&](auto f) { return floatBinary(ex, op, f); };
  switch (lib) {
  case Lib::Atan2: return b([](auto x, auto y) { return std::atan2(x, y); });
  case Lib::CopySign: return b([](auto x, auto y) { return std::copysign(x, y); });
  case Lib::Fdim: return b([](auto x, auto y) { return std::fdim(x, y); });
  case Lib::Fmax: return b([](auto x, auto y) { return std::fmax(x, y); });
  case Lib::Fmin: return b([](auto x, auto y) { return std::fmin(x, y); });
  case Lib::Fmod: return b([](auto x, auto y) { return std::fmod(x, y); });
  case Lib::Hypot: return b([](auto x, auto y) { return std::hypot(x, y); });
  case Lib::NextAfter: return b([](auto x, auto y) { return std::nextafter(x, y); });
  case Lib::Pow: return b([](auto x, auto y) { return std::pow(x, y); });
  case Lib::Remainder: return b([](auto x, auto y) { return std::remainder(x, y); });
  case Lib::Div: return b([](auto x, auto y) { return x / y; });
  case Lib::Add: return b([](auto x, auto y) { return x + y; });
  case Lib::Sub: return b([](auto x, auto y) { return x - y; });
  case Lib::Mul: return b([](auto x, auto y) { return x * y; });
  default: return ex.fail(op, "internal: not a binary float function");
  }
}

/// f(float x, int64 n) for powi/ldexp: the integer operand is converted.
LogicalResult execLibFloatInt(Exec &ex, Operation *op, Lib lib) {
  Tensor a = ex.tensor(op->getOperand(0)), n = ex.tensor(op->getOperand(1));
  Tensor out = Tensor::alloc(a.kind(), broadcastShape(a, n));
  int64_t cnt = out.numel();
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    const auto *src = a.data<typename FT::S>();
    auto *dst = out.dataMut<typename FT::S>();
    for (int64_t i = 0; i < cnt; ++i) {
      auto x = FT::dec(src[a.numel() == cnt ? i : 0]);
      int64_t k = n.intAt(n.numel() == cnt ? i : 0);
      using C = decltype(x);
      C r = lib == Lib::PowI ? C(std::pow(x, C(k))) : C(std::ldexp(x, int(k)));
      dst[i] = FT::enc(r);
    }
  });
  ex.set(op->getResult(0), std::move(out));
  return success();
}

/// Float -> integer after rounding in a named direction, then converted as
/// arith.fptosi is (saturating).
LogicalResult execLibToInt(Exec &ex, Operation *op, Lib lib) {
  bool isUnsigned = lib >= Lib::ToUIntRN && lib <= Lib::ToUIntRU;
  // rn rz rd ru, then llround's half away from zero
  int dir = lib == Lib::ToIntRA ? 4 : int(lib) - int(isUnsigned ? Lib::ToUIntRN : Lib::ToIntRN);
  Tensor a = ex.tensor(op->getOperand(0));
  Tensor rounded = Tensor::alloc(a.kind(), a.shape());
  visitFloat(a.kind(), [&](auto ft) {
    using FT = decltype(ft);
    using S = typename FT::S;
    loop1(rounded.dataMut<S>(), a.data<S>(), a.numel(), [dir](S s) {
      auto x = FT::dec(s);
      switch (dir) {
      case 0: return FT::enc(std::nearbyint(x));
      case 2: return FT::enc(std::floor(x));
      case 3: return FT::enc(std::ceil(x));
      case 4: return FT::enc(std::round(x));
      default: return FT::enc(x);
      }
    });
  });
  ElemKind to = elemKindOf(op->getResult(0).getType());
  ex.set(op->getResult(0), convertTensor(rounded, to, false, isUnsigned));
  return success();
}

LogicalResult execExternElementwise(Exec &ex, Operation *op) {
  auto ext = cast<kiln::tt::ExternElementwiseOp>(op);
  llvm::StringRef symbol = ext.getSymbol();
  LibFn fn = lookupLib(symbol);
  Lib lib = fn.lib;
  if (lib == Lib::Unknown)
    return ex.fail(op, "external function '" + symbol +
                           "' is not known to the interpreter (supported: libdevice "
                           "__nv_* and ocml __ocml_* math and integer functions)");
  if (fn.ocml && lib == Lib::Fabs && op->getNumOperands() == 1 &&
      !isFloatKind(elemKindOf(op->getOperand(0).getType()))) {
    ElemKind k = elemKindOf(op->getOperand(0).getType());
    fn.lib = lib = Lib::Int;
    fn.intFn = IntFnSig{IntFn::Abs, {k}, k};
  }
  LibSig sig = signatureOf(fn, op);
  llvm::SmallVector<ElemKind, 3> got;
  for (Type t : op->getOperandTypes())
    got.push_back(elemKindOf(t));
  if (op->getNumResults() != 1 || got != llvm::ArrayRef<ElemKind>(sig.args) ||
      elemKindOf(op->getResult(0).getType()) != sig.result)
    return ex.fail(op, "'" + symbol + "' has the signature " +
                           signatureString(sig.args, sig.result) + ", but is called as " +
                           signatureString(got, op->getNumResults()
                                                    ? elemKindOf(op->getResult(0).getType())
                                                    : ElemKind::I1));
  if (lib <= Lib::NormCdf)
    return execLibFloatUnary(ex, op, lib);
  if (lib <= Lib::Mul)
    return execLibFloatBinary(ex, op, lib);
  if (lib <= Lib::Ldexp)
    return execLibFloatInt(ex, op, lib);
  if (lib == Lib::Fma)
    return floatTernary(ex, op, [](auto x, auto y, auto z) {
                               return std::fma(x, y, z);
                             });
  switch (lib) {
  case Lib::IsInf:
    return floatPredicate(ex, op, [](auto x) { return std::isinf(x); });
  case Lib::IsNan:
    return floatPredicate(ex, op, [](auto x) { return std::isnan(x); });
  case Lib::IsFinite:
    return floatPredicate(ex, op, [](auto x) { return std::isfinite(x); });
  case Lib::SignBit:
    return floatPredicate(ex, op, [](auto x) { return std::signbit(x); });
  case Lib::Ilogb: { // INT_MIN for 0 and NaN, INT_MAX for infinities (libdevice)
    Tensor a = ex.tensor(op->getOperand(0));
    Tensor out = Tensor::alloc(elemKindOf(op->getResult(0).getType()), a.shape());
    for (int64_t i = 0; i < a.numel(); ++i) {
      double x = a.floatAt(i);
      int32_t e = x == 0 || std::isnan(x) ? INT32_MIN
                  : std::isinf(x)         ? INT32_MAX
                                          : int32_t(std::ilogb(x));
      out.setBits(i, uint64_t(int64_t(e)));
    }
    ex.set(op->getResult(0), std::move(out));
    return success();
  }
  case Lib::DoubleHi:
  case Lib::DoubleLo: {
    Tensor a = ex.tensor(op->getOperand(0));
    Tensor out = Tensor::alloc(ElemKind::I32, a.shape());
    unsigned shift = lib == Lib::DoubleHi ? 32 : 0;
    for (int64_t i = 0; i < a.numel(); ++i)
      out.setBits(i, a.bitsAt(i) >> shift);
    ex.set(op->getResult(0), std::move(out));
    return success();
  }
  case Lib::HiLoToDouble: {
    Tensor hi = ex.tensor(op->getOperand(0)), lo = ex.tensor(op->getOperand(1));
    Tensor out = Tensor::alloc(ElemKind::F64, broadcastShape(hi, lo));
    for (int64_t i = 0, n = out.numel(); i < n; ++i)
      out.setBits(i, hi.uintAt(hi.numel() == n ? i : 0) << 32 |
                         lo.uintAt(lo.numel() == n ? i : 0));
    ex.set(op->getResult(0), std::move(out));
    return success();
  }
  case Lib::Int:
    return execIntFunction(ex, op, fn.intFn->fn);
  case Lib::AsBits: {
    Tensor a = ex.tensor(op->getOperand(0));
    ex.set(op->getResult(0), a.withKind(elemKindOf(op->getResult(0).getType())));
    return success();
  }
  default:
    break;
  }
  if (lib >= Lib::ToIntRN && lib <= Lib::ToIntRA)
    return execLibToInt(ex, op, lib);
  if (lib >= Lib::ToFloatRN && lib <= Lib::UToFloatRU) {
    bool isUnsigned = lib >= Lib::UToFloatRN;
    int dir = int(lib) - int(isUnsigned ? Lib::UToFloatRN : Lib::ToFloatRN);
    const Round modes[] = {Round::NearestEven, Round::TowardZero, Round::Down, Round::Up};
    ElemKind to = elemKindOf(op->getResult(0).getType());
    ex.set(op->getResult(0),
           convertTensor(ex.tensor(op->getOperand(0)), to, isUnsigned, false, modes[dir]));
    return success();
  }
  return ex.fail(op, "internal: unhandled library function");
}

template <Lib L> LogicalResult execMathUnary(Exec &ex, Operation *op) {
  return execLibFloatUnary(ex, op, L);
}
template <Lib L> LogicalResult execMathBinary(Exec &ex, Operation *op) {
  return execLibFloatBinary(ex, op, L);
}

LogicalResult execRoundEven(Exec &ex, Operation *op) {
  return floatUnary(ex, op, [](auto x) { return std::nearbyint(x); });
}

LogicalResult execFma(Exec &ex, Operation *op) {
  return floatTernary(ex, op, [](auto x, auto y, auto z) { return std::fma(x, y, z); });
}

template <IntFn F> LogicalResult execMathInt(Exec &ex, Operation *op) {
  return execIntFunction(ex, op, F);
}

LogicalResult execIPowI(Exec &ex, Operation *op) {
  return intBinary(ex, op, [](int64_t base, int64_t e, uint64_t ub, uint64_t, auto) {
    if (e < 0) // integer semantics: only 1 and -1 have inverses
      return base == 1 ? uint64_t(1) : base == -1 ? uint64_t((e & 1) ? -1 : 1) : uint64_t(0);
    uint64_t r = 1;
    for (; e; e >>= 1, ub *= ub)
      if (e & 1)
        r *= ub;
    return r;
  });
}

LogicalResult execFPowI(Exec &ex, Operation *op) { return execLibFloatInt(ex, op, Lib::PowI); }

LogicalResult execIsNormal(Exec &ex, Operation *op) {
  return floatPredicate(ex, op, [](auto x) { return std::isnormal(x); });
}

} // namespace

void registerMathHandlers(HandlerMap &m) {
  addHandler<math::AbsFOp>(m, execMathUnary<Lib::Fabs>);
  addHandler<math::AcosOp>(m, execMathUnary<Lib::Acos>);
  addHandler<math::AcoshOp>(m, execMathUnary<Lib::Acosh>);
  addHandler<math::AsinOp>(m, execMathUnary<Lib::Asin>);
  addHandler<math::AsinhOp>(m, execMathUnary<Lib::Asinh>);
  addHandler<math::AtanOp>(m, execMathUnary<Lib::Atan>);
  addHandler<math::AtanhOp>(m, execMathUnary<Lib::Atanh>);
  addHandler<math::CbrtOp>(m, execMathUnary<Lib::Cbrt>);
  addHandler<math::CeilOp>(m, execMathUnary<Lib::Ceil>);
  addHandler<math::CosOp>(m, execMathUnary<Lib::Cos>);
  addHandler<math::CoshOp>(m, execMathUnary<Lib::Cosh>);
  addHandler<math::ErfOp>(m, execMathUnary<Lib::Erf>);
  addHandler<math::ErfcOp>(m, execMathUnary<Lib::Erfc>);
  addHandler<math::ExpOp>(m, execMathUnary<Lib::Exp>);
  addHandler<math::Exp2Op>(m, execMathUnary<Lib::Exp2>);
  addHandler<math::ExpM1Op>(m, execMathUnary<Lib::Expm1>);
  addHandler<math::FloorOp>(m, execMathUnary<Lib::Floor>);
  addHandler<math::LogOp>(m, execMathUnary<Lib::Log>);
  addHandler<math::Log10Op>(m, execMathUnary<Lib::Log10>);
  addHandler<math::Log1pOp>(m, execMathUnary<Lib::Log1p>);
  addHandler<math::Log2Op>(m, execMathUnary<Lib::Log2>);
  addHandler<math::RoundOp>(m, execMathUnary<Lib::Round>);
  addHandler<math::RoundEvenOp>(m, execRoundEven);
  addHandler<math::RsqrtOp>(m, execMathUnary<Lib::Rsqrt>);
  addHandler<math::SinOp>(m, execMathUnary<Lib::Sin>);
  addHandler<math::SinhOp>(m, execMathUnary<Lib::Sinh>);
  addHandler<math::SqrtOp>(m, execMathUnary<Lib::Sqrt>);
  addHandler<math::TanOp>(m, execMathUnary<Lib::Tan>);
  addHandler<math::TanhOp>(m, execMathUnary<Lib::Tanh>);
  addHandler<math::TruncOp>(m, execMathUnary<Lib::Trunc>);
  addHandler<math::Atan2Op>(m, execMathBinary<Lib::Atan2>);
  addHandler<math::CopySignOp>(m, execMathBinary<Lib::CopySign>);
  addHandler<math::PowFOp>(m, execMathBinary<Lib::Pow>);
  addHandler<math::FmaOp>(m, execFma);
  addHandler<math::FPowIOp>(m, execFPowI);
  addHandler<math::IPowIOp>(m, execIPowI);
  addHandler<math::AbsIOp>(m, execMathInt<IntFn::Abs>);
  addHandler<math::CtPopOp>(m, execMathInt<IntFn::Popc>);
  addHandler<math::CountLeadingZerosOp>(m, execMathInt<IntFn::Clz>);
  addHandler<math::CountTrailingZerosOp>(m, execMathInt<IntFn::Ctz>);
  addHandler<math::IsNaNOp>(m, [](Exec &ex, Operation *op) {
    return floatPredicate(ex, op, [](auto x) { return std::isnan(x); });
  });
  addHandler<math::IsInfOp>(m, [](Exec &ex, Operation *op) {
    return floatPredicate(ex, op, [](auto x) { return std::isinf(x); });
  });
  addHandler<math::IsFiniteOp>(m, [](Exec &ex, Operation *op) {
    return floatPredicate(ex, op, [](auto x) { return std::isfinite(x); });
  });
  addHandler<math::IsNormalOp>(m, execIsNormal);
  addHandler<math::ClampFOp>(m, execMathClampF);
  addHandler<kiln::tt::ClampFOp>(m, execClampF);
  addHandler<kiln::tt::PreciseSqrtOp>(m, execMathUnary<Lib::Sqrt>);
  addHandler<kiln::tt::ExternElementwiseOp>(m, execExternElementwise);
}

} // namespace kiln::interp::detail
