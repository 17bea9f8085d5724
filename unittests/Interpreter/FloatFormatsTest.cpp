//===- FloatFormatsTest.cpp - float conversions agree with APFloat --------===//
//
// llvm::APFloat is the oracle: every f16/bf16/fp8 bit pattern decodes to
// the same value, and conversions from doubles and 64-bit integers round
// like APFloat in every rounding mode, overflow and subnormals included.
//
//===----------------------------------------------------------------------===//
#include "kiln/RunSpec/FloatFormats.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace kiln::interp;
using llvm::APFloat;

namespace {

struct Named {
  const char *name;
  const FloatFormat *format;
  const llvm::fltSemantics &(*semantics)();
};

const Named kFormats[] = {
    {"f16", &kFormatF16, &APFloat::IEEEhalf},
    {"bf16", &kFormatBF16, &APFloat::BFloat},
    {"f8e4m3fn", &kFormatF8E4M3FN, &APFloat::Float8E4M3FN},
    {"f8e4m3fnuz", &kFormatF8E4M3FNUZ, &APFloat::Float8E4M3FNUZ},
    {"f8e5m2", &kFormatF8E5M2, &APFloat::Float8E5M2},
    {"f8e5m2fnuz", &kFormatF8E5M2FNUZ, &APFloat::Float8E5M2FNUZ},
};

double apToDouble(const APFloat &v) {
  APFloat d = v;
  bool loses;
  d.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
  return d.convertToDouble();
}

APFloat::roundingMode apMode(Round r) {
  switch (r) {
  case Round::NearestEven: return APFloat::rmNearestTiesToEven;
  case Round::TowardZero: return APFloat::rmTowardZero;
  case Round::Up: return APFloat::rmTowardPositive;
  case Round::Down: return APFloat::rmTowardNegative;
  case Round::NearestAway: return APFloat::rmNearestTiesToAway;
  }
  return APFloat::rmNearestTiesToEven;
}

const Round kModes[] = {Round::NearestEven, Round::TowardZero, Round::Up, Round::Down,
                        Round::NearestAway};

/// The bits APFloat gives for `x` in `sem` (NaN canonicalised to ours).
uint32_t apEncode(double x, const Named &f, Round r) {
  APFloat v(x);
  bool loses;
  v.convert(f.semantics(), apMode(r), &loses);
  if (v.isNaN())
    return f.format->nanBits();
  return uint32_t(v.bitcastToAPInt().getZExtValue());
}

TEST(FloatFormats, DecodeEveryBitPattern) {
  for (const Named &f : kFormats) {
    unsigned bits = f.format->totalBits();
    for (uint32_t b = 0; b < (1u << bits); ++b) {
      APFloat ap(f.semantics(), llvm::APInt(bits, b));
      double want = apToDouble(ap), got = decodeFloat(b, *f.format);
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(got)) << f.name << " bits " << b;
      else
        EXPECT_EQ(std::signbit(got), std::signbit(want)) << f.name << " bits " << b;
      if (!std::isnan(want))
        ASSERT_EQ(got, want) << f.name << " bits " << b;
    }
  }
}

TEST(FloatFormats, HalfTableMatchesDecode) {
  for (uint32_t b = 0; b < 65536; ++b) {
    float got = halfToFloat(uint16_t(b));
    double want = decodeFloat(b, kFormatF16);
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(got));
    else
      ASSERT_EQ(double(got), want) << b;
  }
}

/// Values worth rounding: random f32 and f64 bit patterns, every value just
/// around the target's representable points (ties included), and specials.
std::vector<double> samples(const Named &f) {
  std::vector<double> xs = {0.0, -0.0, HUGE_VAL, -HUGE_VAL, std::nan(""), 1e300, -1e300,
                            1e-300, -1e-300};
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    uint32_t u = uint32_t(rng());
    float x;
    std::memcpy(&x, &u, 4);
    xs.push_back(x);
    uint64_t v = rng();
    double d;
    std::memcpy(&d, &v, 8);
    xs.push_back(d);
  }
  unsigned bits = f.format->totalBits();
  for (uint32_t b = 0; b < (1u << bits); b += bits > 8 ? 7 : 1) {
    double v = decodeFloat(b, *f.format);
    double next = decodeFloat(b + 1, *f.format);
    if (std::isnan(v) || std::isinf(v))
      continue;
    xs.push_back(v);
    if (!std::isnan(next) && !std::isinf(next) && std::signbit(next) == std::signbit(v)) {
      double mid = (v + next) / 2; // exactly the tie
      xs.push_back(mid);
      xs.push_back(std::nextafter(mid, HUGE_VAL));
      xs.push_back(std::nextafter(mid, -HUGE_VAL));
    }
  }
  return xs;
}

TEST(FloatFormats, EncodeDoubleMatchesAPFloat) {
  for (const Named &f : kFormats)
    for (double x : samples(f))
      for (Round r : kModes)
        ASSERT_EQ(encodeFloat(x, *f.format, r), apEncode(x, f, r))
            << f.name << " x=" << x << " mode=" << int(r);
}

TEST(FloatFormats, EncodeToF32MatchesAPFloat) {
  Named f32{"f32", &kFormatF32, &APFloat::IEEEsingle};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    uint64_t v = rng();
    double d;
    std::memcpy(&d, &v, 8);
    for (Round r : kModes) {
      uint32_t bits = encodeFloat(d, kFormatF32, r);
      ASSERT_EQ(bits, apEncode(d, f32, r)) << d;
      float viaDouble = doubleToFloat(d, r);
      uint32_t vb;
      std::memcpy(&vb, &viaDouble, 4);
      if (!std::isnan(d))
        ASSERT_EQ(vb, bits) << d;
    }
  }
}

TEST(FloatFormats, FastPathsMatchGeneric) {
  std::mt19937 rng(3);
  for (uint64_t i = 0; i < (1ull << 32); i += 977 + (rng() & 1023)) {
    uint32_t u = uint32_t(i);
    float x;
    std::memcpy(&x, &u, 4);
    if (std::isnan(x))
      continue;
    ASSERT_EQ(floatToHalf(x), encodeFloat(x, kFormatF16)) << x;
    ASSERT_EQ(floatToBF16(x), encodeFloat(x, kFormatBF16)) << x;
  }
}

TEST(FloatFormats, EncodeIntegersMatchesAPFloat) {
  std::mt19937_64 rng(11);
  std::vector<int64_t> xs = {0, 1, -1, INT64_MIN, INT64_MAX, 65504, 65519, 65520, 2049, 2051,
                             (int64_t(1) << 62) + (int64_t(1) << 54) + 1};
  for (int i = 0; i < 20000; ++i)
    xs.push_back(int64_t(rng()) >> (rng() % 64));
  for (const Named &f : kFormats)
    for (int64_t x : xs)
      for (Round r : kModes) {
        APFloat s(f.semantics());
        s.convertFromAPInt(llvm::APInt(64, uint64_t(x), true), /*IsSigned=*/true, apMode(r));
        uint32_t want = s.isNaN() ? f.format->nanBits()
                                  : uint32_t(s.bitcastToAPInt().getZExtValue());
        ASSERT_EQ(encodeSigned(x, *f.format, r), want) << f.name << " " << x;
        APFloat u(f.semantics());
        u.convertFromAPInt(llvm::APInt(64, uint64_t(x)), /*IsSigned=*/false, apMode(r));
        want = u.isNaN() ? f.format->nanBits() : uint32_t(u.bitcastToAPInt().getZExtValue());
        ASSERT_EQ(encodeUnsigned(uint64_t(x), *f.format, r), want) << f.name << " " << x;
      }
}

TEST(FloatFormats, SatFiniteClampsOverflow) {
  EXPECT_EQ(encodeFloat(1e6, kFormatF8E4M3FN, Round::NearestEven, true), 0x7eu); // 448
  EXPECT_EQ(encodeFloat(-HUGE_VAL, kFormatF8E4M3FN, Round::NearestEven, true), 0xfeu);
  EXPECT_EQ(encodeFloat(1e6, kFormatF8E5M2, Round::NearestEven, true), 0x7bu); // 57344
  EXPECT_EQ(encodeFloat(1e6, kFormatF8E5M2, Round::NearestEven, false), 0x7cu); // inf
  EXPECT_EQ(encodeFloat(std::nan(""), kFormatF8E4M3FN, Round::NearestEven, true), 0x7fu);
}

} // namespace
