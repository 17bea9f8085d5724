//===- FloatFormats.cpp - exact conversions between float formats ---------===//
#include "kiln/RunSpec/FloatFormats.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kiln::interp {

using Special = FloatFormat::Special;

const FloatFormat kFormatF16{5, 10, 15, Special::IEEE};
const FloatFormat kFormatBF16{8, 7, 127, Special::IEEE};
const FloatFormat kFormatF32{8, 23, 127, Special::IEEE};
const FloatFormat kFormatF8E4M3FN{4, 3, 7, Special::FN};
const FloatFormat kFormatF8E4M3FNUZ{4, 3, 8, Special::FNUZ};
const FloatFormat kFormatF8E5M2{5, 2, 15, Special::IEEE};
const FloatFormat kFormatF8E5M2FNUZ{5, 2, 16, Special::FNUZ};

uint32_t FloatFormat::maxFiniteBits() const {
  uint32_t expAll = (1u << expBits) - 1, manAll = (1u << manBits) - 1;
  switch (special) {
  case Special::IEEE:
    return ((expAll - 1) << manBits) | manAll;
  case Special::FN:
    return (expAll << manBits) | (manAll - 1);
  case Special::FNUZ:
    return (expAll << manBits) | manAll;
  }
  return 0;
}

uint32_t FloatFormat::nanBits() const {
  uint32_t expAll = (1u << expBits) - 1;
  switch (special) {
  case Special::IEEE: // the canonical quiet NaN
    return (expAll << manBits) | (1u << (manBits - 1));
  case Special::FN:
    return (expAll << manBits) | ((1u << manBits) - 1);
  case Special::FNUZ:
    return 1u << (expBits + manBits);
  }
  return 0;
}

namespace {

uint32_t signBit(const FloatFormat &f) { return 1u << (f.expBits + f.manBits); }

uint32_t infOrNaN(const FloatFormat &f, bool neg) {
  if (f.special == Special::IEEE)
    return (neg ? signBit(f) : 0) | (((1u << f.expBits) - 1) << f.manBits);
  return f.nanBits();
}

/// What an overflowing result becomes: infinity (or NaN where there is no
/// infinity) when the mode rounds away from zero in that direction, the
/// largest finite value otherwise.
uint32_t overflow(const FloatFormat &f, bool neg, Round mode, bool sat) {
  uint32_t maxFinite = (neg ? signBit(f) : 0) | f.maxFiniteBits();
  if (sat)
    return maxFinite;
  switch (mode) {
  case Round::NearestEven:
  case Round::NearestAway:
    return infOrNaN(f, neg);
  case Round::TowardZero:
    return maxFinite;
  case Round::Up:
    return neg ? maxFinite : infOrNaN(f, neg);
  case Round::Down:
    return neg ? infOrNaN(f, neg) : maxFinite;
  }
  return maxFinite;
}

/// Rounds the exact value (-1)^neg * mant * 2^e2 to `f`.
uint32_t encodeExact(bool neg, uint64_t mant, int e2, const FloatFormat &f, Round mode,
                     bool sat) {
  uint32_t sign = neg ? signBit(f) : 0;
  if (mant == 0)
    return f.special == Special::FNUZ ? 0 : sign;
  int msb = 63 - __builtin_clzll(mant);
  int e = msb + e2; // exponent of the leading bit
  int emin = 1 - f.bias;
  int qexp = (e > emin ? e : emin) - f.manBits; // exponent of one ulp
  int shift = qexp - e2;
  uint64_t q;
  int cmpHalf = -1; // remainder compared with half an ulp
  bool inexact = false;
  if (shift <= 0) {
    q = mant << -shift; // exact: q < 2^(manBits+1)
  } else if (shift > 64) {
    q = 0;
    inexact = true;
  } else if (shift == 64) {
    q = 0;
    inexact = true;
    cmpHalf = mant > (1ull << 63) ? 1 : mant == (1ull << 63) ? 0 : -1;
  } else {
    q = mant >> shift;
    uint64_t rem = mant & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    inexact = rem != 0;
    cmpHalf = rem > half ? 1 : rem == half ? 0 : -1;
  }
  bool up = false;
  if (inexact) {
    switch (mode) {
    case Round::NearestEven:
      up = cmpHalf > 0 || (cmpHalf == 0 && (q & 1));
      break;
    case Round::NearestAway:
      up = cmpHalf >= 0;
      break;
    case Round::TowardZero:
      break;
    case Round::Up:
      up = !neg;
      break;
    case Round::Down:
      up = neg;
      break;
    }
  }
  q += up;
  if (q >> (f.manBits + 1)) { // rounded up into the next binade
    q >>= 1;
    ++qexp;
  }
  uint32_t expField, manField;
  if (q >> f.manBits) {
    long biased = long(qexp) + f.manBits + f.bias;
    expField = uint32_t(biased);
    manField = uint32_t(q & ((1ull << f.manBits) - 1));
    if (biased >= (1l << f.expBits))
      return overflow(f, neg, mode, sat);
  } else {
    expField = 0;
    manField = uint32_t(q);
    if (q == 0)
      return f.special == Special::FNUZ ? 0 : sign;
  }
  uint32_t bits = (expField << f.manBits) | manField;
  if (bits > f.maxFiniteBits())
    return overflow(f, neg, mode, sat);
  return sign | bits;
}

} // namespace

uint32_t encodeFloat(double x, const FloatFormat &f, Round mode, bool sat) {
  if (std::isnan(x))
    return f.nanBits();
  bool neg = std::signbit(x);
  if (std::isinf(x))
    return sat ? ((neg ? signBit(f) : 0) | f.maxFiniteBits()) : infOrNaN(f, neg);
  uint64_t u;
  std::memcpy(&u, &x, 8);
  int expField = int((u >> 52) & 0x7ff);
  uint64_t mant = u & ((1ull << 52) - 1);
  int e2;
  if (expField == 0) {
    e2 = -1074;
  } else {
    mant |= 1ull << 52;
    e2 = expField - 1075;
  }
  return encodeExact(neg, mant, e2, f, mode, sat);
}

uint32_t encodeSigned(int64_t x, const FloatFormat &f, Round mode) {
  bool neg = x < 0;
  uint64_t mag = neg ? 0 - uint64_t(x) : uint64_t(x);
  return encodeExact(neg, mag, 0, f, mode, false);
}

uint32_t encodeUnsigned(uint64_t x, const FloatFormat &f, Round mode) {
  return encodeExact(false, x, 0, f, mode, false);
}

double decodeFloat(uint32_t bits, const FloatFormat &f) {
  uint32_t sign = bits & signBit(f);
  uint32_t expField = (bits >> f.manBits) & ((1u << f.expBits) - 1);
  uint32_t man = bits & ((1u << f.manBits) - 1);
  uint32_t expAll = (1u << f.expBits) - 1;
  switch (f.special) {
  case Special::IEEE:
    if (expField == expAll)
      return man ? std::numeric_limits<double>::quiet_NaN()
                 : (sign ? -HUGE_VAL : HUGE_VAL);
    break;
  case Special::FN:
    if (expField == expAll && man == (1u << f.manBits) - 1)
      return std::numeric_limits<double>::quiet_NaN();
    break;
  case Special::FNUZ:
    if (bits == signBit(f))
      return std::numeric_limits<double>::quiet_NaN();
    break;
  }
  double mag;
  if (expField == 0)
    mag = std::ldexp(double(man), 1 - f.bias - f.manBits);
  else
    mag = std::ldexp(double(man | (1u << f.manBits)), int(expField) - f.bias - f.manBits);
  return sign ? -mag : mag;
}

namespace {
struct HalfTable {
  float values[65536];
  HalfTable() {
    for (uint32_t i = 0; i < 65536; ++i)
      values[i] = float(decodeFloat(i, kFormatF16));
  }
};
} // namespace

float halfToFloat(uint16_t bits) {
  static const HalfTable table;
  return table.values[bits];
}

uint16_t floatToHalf(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  uint32_t sign = (u >> 16) & 0x8000;
  uint32_t a = u & 0x7fffffff;
  // Normal f16 results (2^-14 <= |x| < 65520) take the fast path.
  if (a >= 0x38800000 && a < 0x477ff000) {
    uint32_t h = ((((a >> 23) - 112) << 10) | ((a >> 13) & 0x3ff));
    uint32_t rem = a & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
      ++h;
    return uint16_t(sign | h);
  }
  return uint16_t(encodeFloat(double(x), kFormatF16));
}

uint16_t floatToBF16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7fffffff) > 0x7f800000)
    return uint16_t(((u >> 16) & 0x8000) | 0x7fc0);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}

float doubleToFloat(double x, Round mode) {
  if (mode == Round::NearestEven)
    return float(x);
  uint32_t bits = encodeFloat(x, kFormatF32, mode);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

} // namespace kiln::interp
