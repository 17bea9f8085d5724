//===- GpuIntegerTest.cpp - libdevice integer functions, float -> int -----===//
//
// Expected values derived by hand from libdevice's IR and the PTX ISA (and
// agreeing with what an H200 computes: test/Interpreter/Inputs/gpu).
//
//===----------------------------------------------------------------------===//
#include "Harness.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace kiln::interp;
using namespace kiln::interp::testing;

namespace {

constexpr int32_t kMin32 = INT32_MIN, kMax32 = INT32_MAX;
constexpr int64_t kMin64 = INT64_MIN, kMax64 = INT64_MAX;
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

template <class T> struct Kind;
template <> struct Kind<int32_t> {
  static constexpr ElemKind k = ElemKind::I32;
  static constexpr const char *name = "i32";
};
template <> struct Kind<int64_t> {
  static constexpr ElemKind k = ElemKind::I64;
  static constexpr const char *name = "i64";
};
template <> struct Kind<float> {
  static constexpr ElemKind k = ElemKind::F32;
  static constexpr const char *name = "f32";
};
template <> struct Kind<double> {
  static constexpr ElemKind k = ElemKind::F64;
  static constexpr const char *name = "f64";
};

/// Calls libdevice's `sym` on x (and y, and the constant `third` when given)
/// elementwise; In and Out are the operand and result element types.
template <class In, class Out>
std::vector<Out> call(const std::string &sym, const std::vector<In> &x, std::vector<In> y = {},
                      const std::vector<In> &third = {}) {
  int n = int(x.size());
  std::string in = Kind<In>::name, out = Kind<Out>::name;
  std::string tensor = "tensor<" + std::to_string(n) + "x";
  std::string operands = "%x", types = tensor + in + ">", body;
  if (!y.empty()) {
    operands += ", %y";
    types += ", " + tensor + in + ">";
  }
  if (!third.empty()) {
    body = "%w = arith.constant dense<[";
    for (size_t i = 0; i < third.size(); ++i)
      body += (i ? ", " : "") + std::to_string(third[i]);
    body += "]> : " + tensor + in + ">\n";
    operands += ", %w";
    types += ", " + tensor + in + ">";
  }
  body += "%z = tt.extern_elementwise " + operands +
          " {libname = \"\", libpath = \"\", pure = true, symbol = \"" + sym + "\"} : (" + types +
          ") -> " + tensor + out + ">";
  Harness h(elementwise(body, in, out, n));
  EXPECT_TRUE(h.parsed()) << sym;
  if (y.empty())
    y = x;
  unsigned ia = h.buffer("a", Kind<In>::k, x), ib = h.buffer("b", Kind<In>::k, y),
           ic = h.buffer("c", Kind<Out>::k, std::vector<Out>(n));
  EXPECT_EQ(h.run("k", {h.ptr(ia), h.ptr(ib), h.ptr(ic)}), "") << sym;
  return h.read<Out>(ic);
}

using V32 = std::vector<int32_t>;
using V64 = std::vector<int64_t>;

int32_t s32(uint32_t u) { return int32_t(u); }

TEST(Libdevice, BitCounts) {
  V32 x = {0, 1, -1, kMin32, 0x60, 0x00ff0000};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_clz", x)), (V32{32, 31, 0, 0, 25, 8}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_popc", x)), (V32{0, 1, 32, 1, 2, 8}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_ffs", x)), (V32{0, 1, 1, 32, 6, 17}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_brev", x)),
            (V32{0, kMin32, -1, 1, 0x06000000, 0x0000ff00}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_abs", x)), (V32{0, 1, 1, kMin32, 0x60, 0x00ff0000}));
  V64 l = {0, 1, -1, kMin64, int64_t(1) << 40};
  EXPECT_EQ((call<int64_t, int32_t>("__nv_clzll", l)), (V32{64, 63, 0, 0, 23}));
  EXPECT_EQ((call<int64_t, int32_t>("__nv_popcll", l)), (V32{0, 1, 64, 1, 1}));
  EXPECT_EQ((call<int64_t, int32_t>("__nv_ffsll", l)), (V32{0, 1, 1, 64, 41}));
  EXPECT_EQ((call<int64_t, int64_t>("__nv_brevll", l)),
            (V64{0, kMin64, -1, 1, int64_t(1) << 23}));
  EXPECT_EQ((call<int64_t, int64_t>("__nv_llabs", l)), (V64{0, 1, 1, kMin64, int64_t(1) << 40}));
}

TEST(Libdevice, HalvingAdds) {
  // floor((x + y) / 2) and ceil, computed without overflow.
  V32 x = {1, -1, kMax32, kMin32, kMax32, -3}, y = {2, -2, kMax32, kMin32, kMin32, 4};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_hadd", x, y)), (V32{1, -2, kMax32, kMin32, -1, 0}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_rhadd", x, y)), (V32{2, -1, kMax32, kMin32, 0, 1}));
  V32 ux = {-1, -1, 1, kMin32, 3, 0}, uy = {-1, 1, 2, kMin32, 4, -1}; // as uint32
  EXPECT_EQ((call<int32_t, int32_t>("__nv_uhadd", ux, uy)),
            (V32{-1, kMin32, 1, kMin32, 3, kMax32}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_urhadd", ux, uy)),
            (V32{-1, kMin32, 2, kMin32, 4, kMin32}));
}

TEST(Libdevice, Multiplies) {
  // mul24 multiplies the low 24 bits (sign-extended for mul24) and keeps the
  // low 32 bits of the product: (2^23 - 1)^2 = 2^46 - 2^24 + 1.
  V32 x = {0x7fffff, 0x800000, 0x12345678, -1, s32(0xff000003), 0xffffff};
  V32 y = {0x7fffff, 2, 1, -1, 5, 0xffffff};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_mul24", x, y)),
            (V32{s32(0xff000001), -16777216, 0x345678, 1, 15, 1}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_umul24", x, y)),
            (V32{s32(0xff000001), 0x1000000, 0x345678, s32(0xfe000001), 15, s32(0xfe000001)}));
  V32 a = {kMin32, -1, -1, 3}, b = {kMin32, 1, -1, 5};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_mulhi", a, b)), (V32{0x40000000, -1, 0, 0}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_umulhi", a, b)), (V32{0x40000000, 0, -2, 0}));
  V64 c = {kMin64, -1, -1}, d = {2, -1, 1};
  EXPECT_EQ((call<int64_t, int64_t>("__nv_mul64hi", c, d)), (V64{-1, 0, -1}));
  EXPECT_EQ((call<int64_t, int64_t>("__nv_umul64hi", c, d)), (V64{1, -2, 0}));
}

TEST(Libdevice, MinMax) {
  V32 x = {-1, kMin32, 7}, y = {1, kMax32, 7};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_min", x, y)), (V32{-1, kMin32, 7}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_max", x, y)), (V32{1, kMax32, 7}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_umin", x, y)), (V32{1, kMax32, 7}));
  EXPECT_EQ((call<int32_t, int32_t>("__nv_umax", x, y)), (V32{-1, kMin32, 7}));
  V64 l = {-1, kMin64}, m = {1, kMax64};
  EXPECT_EQ((call<int64_t, int64_t>("__nv_llmin", l, m)), (V64{-1, kMin64}));
  EXPECT_EQ((call<int64_t, int64_t>("__nv_llmax", l, m)), (V64{1, kMax64}));
  EXPECT_EQ((call<int64_t, int64_t>("__nv_ullmin", l, m)), (V64{1, kMax64}));
  EXPECT_EQ((call<int64_t, int64_t>("__nv_ullmax", l, m)), (V64{-1, kMin64}));
}

TEST(Libdevice, SumOfAbsoluteDifferences) {
  // z + |x - y|: the difference is exact in 33 bits, the sum wraps.
  V32 x = {5, 3, kMin32, -1, kMin32, 0}, y = {3, 5, kMax32, 1, kMax32, 0};
  V32 z = {10, 10, 0, 0, 1, -1};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_sad", x, y, z)), (V32{12, 12, -1, 2, 0, -1}));
  // Unsigned: 0x80000000 - 0x7fffffff = 1; 0xffffffff - 1.
  V32 ux = {5, 3, kMin32, -1, kMin32, 0}, uy = {3, 5, kMax32, 1, kMax32, 0};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_usad", ux, uy, z)), (V32{12, 12, 1, -2, 2, -1}));
}

TEST(Libdevice, BytePermutation) {
  // Bytes 0..7 of {y:x} are 0x00, 0x11, ..., 0x77; nibble i of the selector
  // picks result byte i, only its low 3 bits count.
  V32 x(7, 0x33221100), y(7, 0x77665544);
  V32 s = {0x3210, 0x7654, 0x0123, 0x4444, 0xffff, s32(0x89ab), 0x12345670};
  EXPECT_EQ((call<int32_t, int32_t>("__nv_byte_perm", x, y, s)),
            (V32{0x33221100, 0x77665544, 0x00112233, 0x44444444, 0x77777777, 0x00112233,
                 0x55667700}));
}

TEST(Libdevice, FloatQueriesAndHalves) {
  std::vector<float> f = {2.5f, -2.5f, kNaN, 0.0f, kInf, 8.0f};
  EXPECT_EQ((call<float, int64_t>("__nv_llroundf", f)), (V64{3, -3, kMin64, 0, kMax64, 8}));
  EXPECT_EQ((call<float, int64_t>("__nv_llrintf", f)), (V64{2, -2, kMin64, 0, kMax64, 8}));
  EXPECT_EQ((call<float, int32_t>("__nv_ilogbf", f)), (V32{1, 1, kMin32, kMin32, kMax32, 3}));
  std::vector<double> d = {1.0, -2.0};
  EXPECT_EQ((call<double, int32_t>("__nv_double2hiint", d)),
            (V32{0x3ff00000, s32(0xc0000000)}));
  EXPECT_EQ((call<double, int32_t>("__nv_double2loint", d)), (V32{0, 0}));
  EXPECT_EQ((call<int32_t, double>("__nv_hiloint2double", V32{0x3ff00000, s32(0xc0000000)},
                                   V32{0, 0})),
            (std::vector<double>{1.0, -2.0}));
}

TEST(Libdevice, WrongSignatureIsReported) {
  std::string body = "%z = tt.extern_elementwise %x, %y {libname = \"\", libpath = \"\", pure = "
                     "true, symbol = \"__nv_sad\"} : (tensor<4xi32>, tensor<4xi32>) -> "
                     "tensor<4xi32>";
  Harness h(elementwise(body, "i32", "i32", 4));
  unsigned a = h.buffer("a", ElemKind::I32, V32(4)), c = h.buffer("c", ElemKind::I32, V32(4));
  std::string err = h.run("k", {h.ptr(a), h.ptr(a), h.ptr(c)});
  EXPECT_NE(err.find("'__nv_sad' has the signature (i32, i32, i32) -> i32"), std::string::npos)
      << err;
}

/// arith.fptosi / fptoui of `x` (f32 or f64) to the integer type `to`.
template <class In, class Out>
std::vector<Out> convert(bool isUnsigned, const std::string &to, ElemKind toKind,
                         const std::vector<In> &x) {
  int n = int(x.size());
  std::string t = "tensor<" + std::to_string(n) + "x";
  std::string body = std::string("%z = arith.") + (isUnsigned ? "fptoui" : "fptosi") + " %x : " +
                     t + Kind<In>::name + "> to " + t + to + ">";
  Harness h(elementwise(body, Kind<In>::name, to, n));
  EXPECT_TRUE(h.parsed()) << body;
  unsigned ia = h.buffer("a", Kind<In>::k, x), ic = h.buffer("c", toKind, std::vector<Out>(n));
  EXPECT_EQ(h.run("k", {h.ptr(ia), h.ptr(ia), h.ptr(ic)}), "") << body;
  return h.read<Out>(ic);
}

TEST(FloatToInt, SaturatesLikeCvtRzi) {
  std::vector<float> f = {kNaN, kInf, -kInf, 200.0f, -200.0f, 300.0f, 1e10f, -1e10f, 40000.0f};
  // 8 bits: converted as 16 bits (saturating), then the low byte kept.
  EXPECT_EQ((convert<float, int8_t>(false, "i8", ElemKind::I8, f)),
            (std::vector<int8_t>{0, -1, 0, -56, 56, 44, -1, 0, -1}));
  EXPECT_EQ((convert<float, uint8_t>(true, "i8", ElemKind::I8, f)),
            (std::vector<uint8_t>{0, 255, 0, 200, 0, 44, 255, 0, 64}));
  EXPECT_EQ((convert<float, int16_t>(false, "i16", ElemKind::I16, f)),
            (std::vector<int16_t>{0, 32767, -32768, 200, -200, 300, 32767, -32768, 32767}));
  EXPECT_EQ((convert<float, uint16_t>(true, "i16", ElemKind::I16, f)),
            (std::vector<uint16_t>{0, 65535, 0, 200, 0, 300, 65535, 0, 40000}));
  EXPECT_EQ((convert<float, int32_t>(false, "i32", ElemKind::I32, f)),
            (V32{0, kMax32, kMin32, 200, -200, 300, kMax32, kMin32, 40000}));
  // A 64-bit result of NaN is 0x8000000000000000, signed or not.
  EXPECT_EQ((convert<float, int64_t>(false, "i64", ElemKind::I64, f)),
            (V64{kMin64, kMax64, kMin64, 200, -200, 300, 10000000000, -10000000000, 40000}));
  EXPECT_EQ((convert<float, uint64_t>(true, "i64", ElemKind::I64, f)),
            (std::vector<uint64_t>{uint64_t(1) << 63, ~uint64_t(0), 0, 200, 0, 300,
                                   10000000000, 0, 40000}));
}

TEST(FloatToInt, NaNFromF64IsTheSignPattern) {
  std::vector<double> d = {std::nan(""), 5e9, -5e9, -0.99};
  EXPECT_EQ((convert<double, int32_t>(false, "i32", ElemKind::I32, d)),
            (V32{kMin32, kMax32, kMin32, 0}));
  EXPECT_EQ((convert<double, uint32_t>(true, "i32", ElemKind::I32, d)),
            (std::vector<uint32_t>{0x80000000u, 0xffffffffu, 0, 0}));
  EXPECT_EQ((convert<double, int16_t>(false, "i16", ElemKind::I16, d)),
            (std::vector<int16_t>{-32768, 32767, -32768, 0}));
  EXPECT_EQ((convert<double, int8_t>(false, "i8", ElemKind::I8, d)),
            (std::vector<int8_t>{0, -1, 0, 0}));
}

TEST(FloatToInt, ScalarsConvertAsTensors) {
  Harness h(R"(
module {
  tt.func public @k(%a: !tt.ptr<f32>, %c: !tt.ptr<i64>) {
    %x = tt.load %a : !tt.ptr<f32>
    %z = arith.fptosi %x : f32 to i64
    tt.store %c, %z : !tt.ptr<i64>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  for (auto [in, want] : {std::pair{kNaN, kMin64}, {1e30f, kMax64}, {-kInf, kMin64}}) {
    unsigned a = h.buffer("a", ElemKind::F32, std::vector<float>{in}),
             c = h.buffer("c", ElemKind::I64, V64{7});
    EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(c)}), "");
    EXPECT_EQ(h.read<int64_t>(c)[0], want) << in;
  }
}

} // namespace
