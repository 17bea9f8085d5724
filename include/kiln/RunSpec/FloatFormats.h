//===- FloatFormats.h - exact conversions between float formats -*- C++ -*-===//
//
// The interpreter stores f16, bf16 and the fp8 formats as raw bit patterns
// and computes with them in f32/f64. These functions convert exactly: a
// value is rounded once, in the requested mode, straight from its exact
// source value (a double, or a 64-bit integer), so no double rounding occurs.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_RUNSPEC_FLOATFORMATS_H
#define KILN_RUNSPEC_FLOATFORMATS_H

#include <cstdint>

namespace kiln::interp {

/// IEEE-754 rounding directions (plus round-half-away, which arith allows).
enum class Round : uint8_t { NearestEven, TowardZero, Up, Down, NearestAway };

/// A binary floating-point format of at most 32 bits.
struct FloatFormat {
  enum class Special : uint8_t {
    IEEE, ///< infinities, and NaN for every all-ones exponent with a mantissa
    FN,   ///< no infinities; NaN only with exponent and mantissa all ones
    FNUZ, ///< no infinities, no negative zero; NaN is the pattern 1000...0
  };
  int expBits;
  int manBits;
  int bias;
  Special special;

  unsigned totalBits() const { return 1 + expBits + manBits; }
  /// The largest finite value's bit pattern (positive).
  uint32_t maxFiniteBits() const;
  /// The bit pattern this library produces for NaN.
  uint32_t nanBits() const;
};

extern const FloatFormat kFormatF16;
extern const FloatFormat kFormatBF16;
extern const FloatFormat kFormatF32;
extern const FloatFormat kFormatF8E4M3FN;
extern const FloatFormat kFormatF8E4M3FNUZ;
extern const FloatFormat kFormatF8E5M2;
extern const FloatFormat kFormatF8E5M2FNUZ;

/// Rounds `x` to `fmt` in mode `mode`. With `satFinite`, results that would
/// overflow (infinities included) become the largest finite value of that
/// sign, as NVIDIA's `.satfinite` conversions do; NaN stays NaN.
uint32_t encodeFloat(double x, const FloatFormat &fmt, Round mode = Round::NearestEven,
                     bool satFinite = false);
/// Rounds the integer `x` (signed or unsigned) to `fmt`, exactly once.
uint32_t encodeSigned(int64_t x, const FloatFormat &fmt, Round mode = Round::NearestEven);
uint32_t encodeUnsigned(uint64_t x, const FloatFormat &fmt, Round mode = Round::NearestEven);
/// The exact value of a bit pattern of `fmt`.
double decodeFloat(uint32_t bits, const FloatFormat &fmt);

/// Fast paths for the common formats (round to nearest even).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float x);
inline float bf16ToFloat(uint16_t bits) {
  uint32_t u = uint32_t(bits) << 16;
  float f;
  __builtin_memcpy(&f, &u, 4);
  return f;
}
uint16_t floatToBF16(float x);

/// Rounds a double to f32 in any mode.
float doubleToFloat(double x, Round mode);

} // namespace kiln::interp

#endif
