//===- DecomposeScaledDotTest.cpp - ttgir-decompose-scaled-dot, run ------===//
//
// The decomposition of tt.dot_scaled is checked by running both forms with
// the interpreter on random operands: every format pair, e2m1 packed along
// K or not, scales on one side or both, fast math or NaN scales.
//
//===----------------------------------------------------------------------===//
#include "Harness.h"

#include "kiln/Dialect/Triton/Transforms/Passes.h"
#include "kiln/RunSpec/FloatFormats.h"

#include "mlir/Pass/PassManager.h"

#include <cmath>
#include <random>

using namespace kiln::interp;
using namespace kiln::interp::testing;

namespace {

struct Format {
  const char *name, *type;
  ElemKind kind;
};

const Format kE2M1{"e2m1", "i8", ElemKind::I8}, kE4M3{"e4m3", "f8E4M3FN", ElemKind::F8E4M3FN},
    kE5M2{"e5m2", "f8E5M2", ElemKind::F8E5M2}, kBF16{"bf16", "bf16", ElemKind::BF16},
    kFP16{"fp16", "f16", ElemKind::F16};

struct Case {
  Format a, b;
  bool aScale, bScale, fastMath;
  bool aKPack = true, bKPack = true;
};

constexpr int64_t M = 16, N = 16, K = 64;

/// The stored shape of operand a or b: e2m1 halves the packed dimension.
std::pair<int64_t, int64_t> storedShape(const Format &f, bool isB, bool kPack) {
  int64_t rows = isB ? K : M, cols = isB ? N : K;
  if (std::string(f.name) == "e2m1") {
    bool packRows = isB == kPack; // b packs K (its rows) with k_pack
    (packRows ? rows : cols) /= 2;
  }
  return {rows, cols};
}

std::string tensor(std::pair<int64_t, int64_t> shape, const std::string &type) {
  return "tensor<" + std::to_string(shape.first) + "x" + std::to_string(shape.second) + "x" +
         type + ">";
}

/// @k(a, sa, b, sb, o): loads everything flat, reshapes, stores the
/// M x N f32 result of tt.dot_scaled.
std::string kernel(const Case &c) {
  auto as = storedShape(c.a, false, c.aKPack), bs = storedShape(c.b, true, c.bKPack);
  std::pair<int64_t, int64_t> sas{M, K / 32}, sbs{N, K / 32};
  std::string body;
  int id = 0;
  auto load = [&](const std::string &ptr, std::pair<int64_t, int64_t> shape,
                  const std::string &type) {
    int64_t n = shape.first * shape.second;
    std::string flat = "tensor<" + std::to_string(n) + "x";
    std::string v = "%v" + std::to_string(id++);
    body += "    " + v + "r = tt.make_range {end = " + std::to_string(n) +
            " : i32, start = 0 : i32} : " + flat + "i32>\n";
    body += "    " + v + "p = tt.splat " + ptr + " : !tt.ptr<" + type + "> -> " + flat + "!tt.ptr<" +
            type + ">>\n";
    body += "    " + v + "a = tt.addptr " + v + "p, " + v + "r : " + flat + "!tt.ptr<" + type +
            ">>, " + flat + "i32>\n";
    body += "    " + v + "l = tt.load " + v + "a : " + flat + "!tt.ptr<" + type + ">>\n";
    body += "    " + v + " = tt.reshape " + v + "l : " + flat + type + "> -> " +
            tensor(shape, type) + "\n";
    return v;
  };
  std::string a = load("%a", as, c.a.type), b = load("%b", bs, c.b.type);
  std::string sa = c.aScale ? load("%sa", sas, "i8") : "", sb = c.bScale ? load("%sb", sbs, "i8") : "";
  std::string types = tensor(as, c.a.type) + (c.aScale ? ", " + tensor(sas, "i8") : "") + " * " +
                      tensor(bs, c.b.type) + (c.bScale ? ", " + tensor(sbs, "i8") : "");
  std::string attrs = std::string("{fastMath = ") + (c.fastMath ? "true" : "false") +
                      (c.aKPack ? "" : ", lhs_k_pack = false") +
                      (c.bKPack ? "" : ", rhs_k_pack = false") + "}";
  body += "    %c = arith.constant dense<0.0> : tensor<16x16xf32>\n";
  body += "    %d = tt.dot_scaled " + a + (c.aScale ? " scale " + sa : "") + ", " + b +
          (c.bScale ? " scale " + sb : "") + ", %c lhs = " + c.a.name + " rhs = " + c.b.name +
          " " + attrs + " : " + types + " -> tensor<16x16xf32>\n";
  body += R"(    %df = tt.reshape %d : tensor<16x16xf32> -> tensor<256xf32>
    %or = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %oa = tt.addptr %op, %or : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %oa, %df : tensor<256x!tt.ptr<f32>>
    tt.return
)";
  return std::string("module {\n  tt.func public @k(%a: !tt.ptr<") + c.a.type +
         ">, %sa: !tt.ptr<i8>, %b: !tt.ptr<" + c.b.type +
         ">, %sb: !tt.ptr<i8>, %o: !tt.ptr<f32>) {\n" + body + "  }\n}\n";
}

/// Random bits of one operand element: any e2m1 pair, fp8 without NaNs,
/// 16-bit floats k / 16 in [-2, 2].
std::vector<uint8_t> operandBytes(const Format &f, int64_t count, std::mt19937 &rng) {
  std::vector<uint8_t> bytes;
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> sixteenths(-32, 32);
  for (int64_t i = 0; i < count; ++i) {
    if (const FloatFormat *format = floatFormatOf(f.kind); format && format->expBits + format->manBits == 15) {
      uint32_t h = encodeFloat(sixteenths(rng) / 16.0, *format);
      bytes.push_back(uint8_t(h));
      bytes.push_back(uint8_t(h >> 8));
      continue;
    }
    uint8_t b = uint8_t(byte(rng));
    if (f.kind == ElemKind::F8E4M3FN && (b & 0x7f) == 0x7f)
      b &= 0xfe; // not NaN
    if (f.kind == ElemKind::F8E5M2 && (b & 0x7c) == 0x7c)
      b &= 0xfb; // not Inf/NaN
    bytes.push_back(b);
  }
  return bytes;
}

/// Runs the kernel of `c` on fixed random inputs and returns its output;
/// `decompose` runs the pass first.
std::vector<float> runCase(const Case &c, bool decompose, uint8_t nanScaleAt = 0) {
  Harness h(kernel(c));
  EXPECT_TRUE(h.parsed()) << kernel(c);
  if (!h.parsed())
    return {};
  if (decompose) {
    mlir::PassManager pm(&h.ctx);
    pm.addPass(kiln::tt::createTritonDecomposeScaledDot());
    EXPECT_TRUE(mlir::succeeded(pm.run(*h.module)));
    bool left = false;
    h.module->walk([&](kiln::tt::DotScaledOp) { left = true; });
    EXPECT_FALSE(left);
  }
  std::mt19937 rng(7);
  auto as = storedShape(c.a, false, c.aKPack), bs = storedShape(c.b, true, c.bKPack);
  // Scales 2^-8 .. 2^7 (f16 computes hold them exactly).
  std::uniform_int_distribution<int> exponent(119, 134);
  std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
  for (uint8_t &s : sa)
    s = uint8_t(exponent(rng));
  for (uint8_t &s : sb)
    s = uint8_t(exponent(rng));
  if (nanScaleAt)
    sa[nanScaleAt] = 0xff;
  unsigned a = h.buffer("a", c.a.kind, operandBytes(c.a, as.first * as.second, rng));
  unsigned b = h.buffer("b", c.b.kind, operandBytes(c.b, bs.first * bs.second, rng));
  unsigned sab = h.buffer("sa", ElemKind::I8, sa), sbb = h.buffer("sb", ElemKind::I8, sb);
  unsigned o = h.buffer("o", ElemKind::F32, std::vector<float>(M * N));
  EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(sab), h.ptr(b), h.ptr(sbb), h.ptr(o)}), "");
  return h.read<float>(o);
}

void expectSameResults(const Case &c, uint8_t nanScaleAt = 0) {
  SCOPED_TRACE(std::string(c.a.name) + " x " + c.b.name + (c.aKPack ? "" : " (a packed along M)") +
               (c.bKPack ? "" : " (b packed along N)"));
  std::vector<float> want = runCase(c, false, nanScaleAt), got = runCase(c, true, nanScaleAt);
  ASSERT_EQ(want.size(), got.size());
  size_t nans = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
      ++nans;
      continue;
    }
    // Every scaled operand is exact in the compute type; only the order of
    // the f32 sums may differ.
    EXPECT_NEAR(got[i], want[i], 1e-5f * std::max(1.0f, std::abs(want[i]))) << "element " << i;
  }
  EXPECT_EQ(nans > 0, nanScaleAt != 0);
}

TEST(DecomposeScaledDot, EveryFormatPairMatchesTheScaledDot) {
  for (const Format &a : {kE2M1, kE4M3, kE5M2, kBF16})
    for (const Format &b : {kE2M1, kE4M3, kE5M2, kBF16})
      expectSameResults({a, b, true, true, true});
}

TEST(DecomposeScaledDot, HalfOperandsComputeInHalf) {
  expectSameResults({kE4M3, kFP16, true, false, true});
  expectSameResults({kFP16, kE2M1, false, true, true});
}

TEST(DecomposeScaledDot, E2M1PackedAlongMOrN) {
  expectSameResults({kE2M1, kE2M1, true, true, true, /*aKPack=*/false, /*bKPack=*/false});
  expectSameResults({kE2M1, kBF16, true, false, true, /*aKPack=*/false});
}

TEST(DecomposeScaledDot, OneSideScaled) {
  expectSameResults({kE4M3, kBF16, true, false, false});
  expectSameResults({kBF16, kE5M2, false, true, false});
}

TEST(DecomposeScaledDot, NaNScalesGiveNaNRowsUnlessFastMath) {
  // Scale 5 of a covers row 2's second 32 elements of K: row 2 is NaN.
  expectSameResults({kE4M3, kE4M3, true, true, false}, 5);
}

} // namespace
