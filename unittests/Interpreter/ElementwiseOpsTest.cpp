//===- ElementwiseOpsTest.cpp - arith, casts, math, libdevice ---------------===//
//
// Small kernels run through the C++ API, each checking one family of ops
// against values computed independently (by hand, by APFloat, or by a
// straightforward C++ loop).
//
//===----------------------------------------------------------------------===//
#include "Harness.h"

#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <random>

using namespace kiln::interp;
using namespace kiln::interp::testing;

namespace {

template <class T>
std::vector<T> runBinary(const std::string &op, const std::string &type, ElemKind kind,
                         const std::vector<T> &a, const std::vector<T> &b) {
  int n = int(a.size());
  std::string body = "%z = " + op + " %x, %y : tensor<" + std::to_string(n) + "x" + type + ">";
  Harness h(elementwise(body, type, type, n));
  EXPECT_TRUE(h.parsed()) << op;
  unsigned ia = h.buffer("a", kind, a), ib = h.buffer("b", kind, b),
           ic = h.buffer("c", kind, std::vector<T>(n));
  EXPECT_EQ(h.run("k", {h.ptr(ia), h.ptr(ib), h.ptr(ic)}), "") << op;
  return h.read<T>(ic);
}

TEST(Ops, IntegerDivisionAndShiftsFollowC) {
  std::vector<int32_t> a = {7, -7, 7, -7, INT32_MIN, 5, -5, 9};
  std::vector<int32_t> b = {2, 2, -2, -2, -1, 0, 0, -1};
  EXPECT_EQ(runBinary<int32_t>("arith.divsi", "i32", ElemKind::I32, a, b),
            (std::vector<int32_t>{3, -3, -3, 3, INT32_MIN, -1, -1, -9}));
  EXPECT_EQ(runBinary<int32_t>("arith.remsi", "i32", ElemKind::I32, a, b),
            (std::vector<int32_t>{1, -1, 1, -1, 0, 5, -5, 0}));
  EXPECT_EQ(runBinary<int32_t>("arith.floordivsi", "i32", ElemKind::I32, a, b),
            (std::vector<int32_t>{3, -4, -4, 3, INT32_MIN, -1, -1, -9}));
  EXPECT_EQ(runBinary<int32_t>("arith.ceildivsi", "i32", ElemKind::I32, a, b),
            (std::vector<int32_t>{4, -3, -3, 4, INT32_MIN, -1, -1, -9}));
  // Unsigned: -7 is 4294967289.
  EXPECT_EQ(runBinary<int32_t>("arith.divui", "i32", ElemKind::I32, a, b),
            (std::vector<int32_t>{3, int32_t(4294967289u / 2), 0, 0, 0, -1, -1, 0}));
  EXPECT_EQ(runBinary<int32_t>("arith.remui", "i32", ElemKind::I32, a, b),
            (std::vector<int32_t>{1, 1, 7, -7, INT32_MIN, 5, -5, 9}));
  std::vector<int32_t> x = {1, -16, -16, 1, 1, -1, 3, 3};
  std::vector<int32_t> s = {31, 2, 2, 32, 40, 31, 0, -1};
  EXPECT_EQ(runBinary<int32_t>("arith.shli", "i32", ElemKind::I32, x, s),
            (std::vector<int32_t>{INT32_MIN, -64, -64, 0, 0, INT32_MIN, 3, 0}));
  EXPECT_EQ(runBinary<int32_t>("arith.shrsi", "i32", ElemKind::I32, x, s),
            (std::vector<int32_t>{0, -4, -4, 0, 0, -1, 3, 0}));
  EXPECT_EQ(runBinary<int32_t>("arith.shrui", "i32", ElemKind::I32, x, s),
            (std::vector<int32_t>{0, 0x3ffffffc, 0x3ffffffc, 0, 0, 1, 3, 0}));
}

TEST(Ops, NarrowIntegersWrap) {
  std::vector<int8_t> a = {127, -128, 100, -1}, b = {1, -1, 100, -1};
  EXPECT_EQ(runBinary<int8_t>("arith.addi", "i8", ElemKind::I8, a, b),
            (std::vector<int8_t>{-128, 127, -56, -2}));
  EXPECT_EQ(runBinary<int8_t>("arith.muli", "i8", ElemKind::I8, a, b),
            (std::vector<int8_t>{127, -128, 16, 1}));
  EXPECT_EQ(runBinary<int8_t>("arith.maxui", "i8", ElemKind::I8, a, b),
            (std::vector<int8_t>{127, -1, 100, -1}));
  EXPECT_EQ(runBinary<int8_t>("arith.minsi", "i8", ElemKind::I8, a, b),
            (std::vector<int8_t>{1, -128, 100, -1}));
}

TEST(Ops, MulhiMatchesWideProducts) {
  std::vector<int32_t> a = {-766435501, -1, 123456789, 0}, b = {42, -1, 987654321, 5};
  auto hi = runBinary<int32_t>("tt.mulhiui", "i32", ElemKind::I32, a, b);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(uint32_t(hi[i]), uint32_t((uint64_t(uint32_t(a[i])) * uint32_t(b[i])) >> 32));
  std::vector<int64_t> c = {-1, INT64_MIN, 0x123456789abcdefll}, d = {-1, 3, 0x7edcba9876543210ll};
  auto hi64 = runBinary<int64_t>("tt.mulhiui", "i64", ElemKind::I64, c, d);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(uint64_t(hi64[i]),
              uint64_t((unsigned __int128)uint64_t(c[i]) * uint64_t(d[i]) >> 64));
}

/// Random f16 (or bf16) operands; the result of each op must be APFloat's
/// correctly rounded one.
void checkHalfOp(const std::string &op, const std::string &type, ElemKind kind,
                 const llvm::fltSemantics &sem) {
  std::mt19937 rng(5);
  int n = 512;
  std::vector<uint16_t> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = uint16_t(rng());
    b[i] = uint16_t(rng());
  }
  a[0] = 0x3c00; // 1.0 + 2^-11 in f16 is a tie (when type is f16)
  b[0] = 0x1000;
  auto z = runBinary<uint16_t>(op, type, kind, a, b);
  for (int i = 0; i < n; ++i) {
    llvm::APFloat x(sem, llvm::APInt(16, a[i])), y(sem, llvm::APInt(16, b[i]));
    auto rm = llvm::APFloat::rmNearestTiesToEven;
    if (op == "arith.addf")
      x.add(y, rm);
    else if (op == "arith.subf")
      x.subtract(y, rm);
    else if (op == "arith.mulf")
      x.multiply(y, rm);
    else
      x.divide(y, rm);
    if (x.isNaN()) {
      llvm::APFloat got(sem, llvm::APInt(16, z[i]));
      EXPECT_TRUE(got.isNaN()) << op << " " << i;
    } else {
      ASSERT_EQ(z[i], x.bitcastToAPInt().getZExtValue())
          << op << " " << type << " a=" << a[i] << " b=" << b[i];
    }
  }
}

TEST(Ops, HalfArithmeticRoundsEveryResult) {
  for (const char *op : {"arith.addf", "arith.subf", "arith.mulf", "arith.divf"}) {
    checkHalfOp(op, "f16", ElemKind::F16, llvm::APFloat::IEEEhalf());
    checkHalfOp(op, "bf16", ElemKind::BF16, llvm::APFloat::BFloat());
  }
}

TEST(Ops, FloatMinMaxAndCompareHandleNaN) {
  float nan = std::nanf(""), inf = INFINITY;
  std::vector<float> a = {1, nan, nan, -0.0f, 2, -inf, 3, nan};
  std::vector<float> b = {2, 1, nan, 0.0f, 2, 5, nan, 0};
  auto mx = runBinary<float>("arith.maxnumf", "f32", ElemKind::F32, a, b);
  EXPECT_EQ(mx[0], 2);
  EXPECT_EQ(mx[1], 1);
  EXPECT_TRUE(std::isnan(mx[2]));
  EXPECT_EQ(mx[5], 5);
  EXPECT_EQ(mx[6], 3);
  auto mm = runBinary<float>("arith.maximumf", "f32", ElemKind::F32, a, b);
  EXPECT_TRUE(std::isnan(mm[1]));
  EXPECT_FALSE(std::signbit(mm[3])); // max(-0, +0) = +0
  EXPECT_TRUE(std::isnan(mm[6]));
  auto mn = runBinary<float>("arith.minimumf", "f32", ElemKind::F32, a, b);
  EXPECT_TRUE(std::signbit(mn[3]));

  int n = 8;
  auto cmp = [&](const std::string &pred) {
    std::string body = "%z = arith.cmpf " + pred + ", %x, %y : tensor<8xf32>";
    Harness h(elementwise(body, "f32", "i1", n));
    unsigned ia = h.buffer("a", ElemKind::F32, a), ib = h.buffer("b", ElemKind::F32, b),
             ic = h.buffer("c", ElemKind::I1, std::vector<uint8_t>(n));
    EXPECT_EQ(h.run("k", {h.ptr(ia), h.ptr(ib), h.ptr(ic)}), "");
    return h.read<uint8_t>(ic);
  };
  EXPECT_EQ(cmp("olt"), (std::vector<uint8_t>{1, 0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(cmp("ult"), (std::vector<uint8_t>{1, 1, 1, 0, 0, 1, 1, 1}));
  EXPECT_EQ(cmp("oeq"), (std::vector<uint8_t>{0, 0, 0, 1, 1, 0, 0, 0}));
  EXPECT_EQ(cmp("une"), (std::vector<uint8_t>{1, 1, 1, 0, 0, 1, 1, 1}));
  EXPECT_EQ(cmp("uno"), (std::vector<uint8_t>{0, 1, 1, 0, 0, 0, 1, 1}));
}

/// Runs a unary conversion `line` (defining %z from %x) on `in`.
template <class In, class Out>
std::vector<Out> runCast(const std::string &line, const std::string &from, ElemKind fromKind,
                         const std::string &to, ElemKind toKind, const std::vector<In> &in) {
  int n = int(in.size());
  Harness h(elementwise(line, from, to, n));
  EXPECT_TRUE(h.parsed()) << line;
  unsigned ia = h.buffer("a", fromKind, in), ib = h.buffer("b", fromKind, in),
           ic = h.buffer("c", toKind, std::vector<Out>(n));
  EXPECT_EQ(h.run("k", {h.ptr(ia), h.ptr(ib), h.ptr(ic)}), "");
  return h.read<Out>(ic);
}

TEST(Ops, ConversionsRoundAsAsked) {
  std::vector<float> x = {1.0009765625f, 1.00048828125f, 1.00146484375f, 70000.0f,
                          -65519.0f, 1e-8f, -3.75f, 0.1f};
  auto rtne = runCast<float, uint16_t>("%z = tt.fp_to_fp %x, rounding = rtne : tensor<8xf32> -> tensor<8xf16>",
                                       "f32", ElemKind::F32, "f16", ElemKind::F16, x);
  auto rtz = runCast<float, uint16_t>("%z = tt.fp_to_fp %x, rounding = rtz : tensor<8xf32> -> tensor<8xf16>",
                                      "f32", ElemKind::F32, "f16", ElemKind::F16, x);
  auto trunc = runCast<float, uint16_t>("%z = arith.truncf %x : tensor<8xf32> to tensor<8xf16>",
                                        "f32", ElemKind::F32, "f16", ElemKind::F16, x);
  for (int i = 0; i < 8; ++i) {
    for (auto [bits, rm] : {std::pair{rtne[i], llvm::APFloat::rmNearestTiesToEven},
                            std::pair{rtz[i], llvm::APFloat::rmTowardZero},
                            std::pair{trunc[i], llvm::APFloat::rmNearestTiesToEven}}) {
      llvm::APFloat want(x[i]);
      bool loses;
      want.convert(llvm::APFloat::IEEEhalf(), rm, &loses);
      EXPECT_EQ(bits, want.bitcastToAPInt().getZExtValue()) << x[i];
    }
  }
  // Saturating float -> int, NaN -> 0.
  std::vector<float> f = {3.9f, -3.9f, 1e10f, -1e10f, std::nanf(""), 2147483520.0f, -0.5f, 255.5f};
  EXPECT_EQ((runCast<float, int32_t>("%z = arith.fptosi %x : tensor<8xf32> to tensor<8xi32>",
                                     "f32", ElemKind::F32, "i32", ElemKind::I32, f)),
            (std::vector<int32_t>{3, -3, INT32_MAX, INT32_MIN, 0, 2147483520, 0, 255}));
  EXPECT_EQ((runCast<float, uint8_t>("%z = arith.fptoui %x : tensor<8xf32> to tensor<8xi8>",
                                     "f32", ElemKind::F32, "i8", ElemKind::I8, f)),
            (std::vector<uint8_t>{3, 0, 255, 0, 0, 255, 0, 255}));
  // i1 sign-extends to -1; uitofp reads unsigned.
  std::vector<int32_t> iv = {-1, 2, -3, 4, 16777217, -16777217, 0, 7};
  EXPECT_EQ((runCast<int32_t, float>("%z = arith.uitofp %x : tensor<8xi32> to tensor<8xf32>",
                                     "i32", ElemKind::I32, "f32", ElemKind::F32, iv))[0],
            4294967296.0f);
  auto half = runCast<int32_t, uint16_t>("%z = arith.sitofp %x : tensor<8xi32> to tensor<8xf16>",
                                         "i32", ElemKind::I32, "f16", ElemKind::F16, iv);
  EXPECT_EQ(half[4], 0x7c00); // overflow to +inf
  EXPECT_EQ(half[5], 0xfc00);
  EXPECT_EQ(half[2], 0xc200); // -3
}

TEST(Ops, LibdeviceCallsAndMath) {
  std::vector<float> a = {0.5f, -1.25f, 3.0f, 10.0f}, b = {2.0f, 3.0f, 0.5f, -1.0f};
  struct Case {
    std::string sym;
    int nargs;
    float (*ref)(float, float);
  };
  std::vector<Case> cases = {
      {"__nv_expf", 1, [](float x, float) { return std::exp(x); }},
      {"__nv_logf", 1, [](float x, float) { return std::log(x); }},
      {"__nv_powf", 2, [](float x, float y) { return std::pow(x, y); }},
      {"__nv_fmaxf", 2, [](float x, float y) { return std::fmax(x, y); }},
      {"__nv_rsqrtf", 1, [](float x, float) { return 1 / std::sqrt(x); }},
      {"__nv_erff", 1, [](float x, float) { return std::erf(x); }},
      {"__ocml_tanh_f32", 1, [](float x, float) { return std::tanh(x); }},
  };
  for (const Case &c : cases) {
    std::string operands = c.nargs == 2 ? "%x, %y" : "%x";
    std::string types = c.nargs == 2 ? "tensor<4xf32>, tensor<4xf32>" : "tensor<4xf32>";
    std::string body = "%z = tt.extern_elementwise " + operands +
                       " {libname = \"libdevice\", libpath = \"\", pure = true, symbol = \"" +
                       c.sym + "\"} : (" + types + ") -> tensor<4xf32>";
    Harness h(elementwise(body, "f32", "f32", 4));
    ASSERT_TRUE(h.parsed()) << c.sym;
    unsigned ia = h.buffer("a", ElemKind::F32, a), ib = h.buffer("b", ElemKind::F32, b),
             ic = h.buffer("c", ElemKind::F32, std::vector<float>(4));
    EXPECT_EQ(h.run("k", {h.ptr(ia), h.ptr(ib), h.ptr(ic)}), "") << c.sym;
    auto z = h.read<float>(ic);
    for (int i = 0; i < 4; ++i) {
      float want = c.ref(a[i], b[i]);
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(z[i])) << c.sym;
      else
        EXPECT_FLOAT_EQ(z[i], want) << c.sym << " " << i;
    }
  }
  std::string body = "%z = tt.extern_elementwise %x {libname = \"m\", libpath = \"\", pure = "
                     "true, symbol = \"my_func\"} : (tensor<4xf32>) -> tensor<4xf32>";
  Harness h(elementwise(body, "f32", "f32", 4));
  unsigned ia = h.buffer("a", ElemKind::F32, a), ib = h.buffer("b", ElemKind::F32, b),
           ic = h.buffer("c", ElemKind::F32, std::vector<float>(4));
  std::string err = h.run("k", {h.ptr(ia), h.ptr(ib), h.ptr(ic)});
  EXPECT_NE(err.find("external function 'my_func' is not known to the interpreter"),
            std::string::npos)
      << err;
}

TEST(Ops, LibdeviceConversionsRoundInTheirDirection) {
  std::vector<int32_t> in = {16777217, -16777217, 3, 16777219};
  auto conv = [&](const std::string &sym) {
    std::string body = "%z = tt.extern_elementwise %x {libname = \"libdevice\", libpath = \"\", "
                       "pure = true, symbol = \"" + sym + "\"} : (tensor<4xi32>) -> tensor<4xf32>";
    return runCast<int32_t, float>(body, "i32", ElemKind::I32, "f32", ElemKind::F32, in);
  };
  EXPECT_EQ(conv("__nv_int2float_rn"), (std::vector<float>{16777216, -16777216, 3, 16777220}));
  EXPECT_EQ(conv("__nv_int2float_rz"), (std::vector<float>{16777216, -16777216, 3, 16777218}));
  EXPECT_EQ(conv("__nv_int2float_ru"), (std::vector<float>{16777218, -16777216, 3, 16777220}));
  EXPECT_EQ(conv("__nv_int2float_rd"), (std::vector<float>{16777216, -16777218, 3, 16777218}));
}

TEST(Ops, MapElementwisePacksConsecutiveElements) {
  // pack = 2: (x0, x1) -> (x1, x0 + x1).
  Harness h(elementwise(R"(%z = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
    ^bb0(%p: i32, %q: i32):
      %s = arith.addi %p, %q : i32
      tt.map_elementwise.return %q, %s : i32, i32
    }) : (tensor<6xi32>) -> tensor<6xi32>)",
                        "i32", "i32", 6));
  ASSERT_TRUE(h.parsed());
  unsigned a = h.buffer("a", ElemKind::I32, std::vector<int32_t>{1, 2, 3, 4, 5, 6}),
           b = h.buffer("b", ElemKind::I32, std::vector<int32_t>(6)),
           c = h.buffer("c", ElemKind::I32, std::vector<int32_t>(6));
  EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(b), h.ptr(c)}), "");
  EXPECT_EQ(h.read<int32_t>(c), (std::vector<int32_t>{2, 3, 4, 7, 6, 11}));
}

} // namespace
