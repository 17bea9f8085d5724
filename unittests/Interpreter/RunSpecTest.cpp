//===- RunSpecTest.cpp - run specs: parsing, launches, comparisons --------===//
#include "kiln/Interpreter/Interpreter.h"
#include "kiln/RunSpec/RunSpec.h"

#include "Harness.h"

#include <cmath>

using namespace kiln::interp;
using namespace kiln::interp::testing;

namespace {

std::string errorOf(llvm::Error e) { return e ? llvm::toString(std::move(e)) : ""; }

TEST(RunSpec, ParsesTheCorpusFormat) {
  auto spec = parseRunSpec(R"({
    "name": "t", "kernel": "k", "ttir": "k.ttir", "grid": [4, 2],
    "args": [
      {"name": "x", "kind": "buffer", "dtype": "bf16", "shape": [2, 3], "role": "input",
       "file": "x.bin"},
      {"name": "y", "kind": "buffer", "dtype": "u8", "shape": [6], "role": "output",
       "expect": "y.out.bin", "tolerance": {"rtol": 0.5, "atol": 2}},
      {"name": "s", "kind": "scalar", "dtype": "f32", "value": "-inf"},
      {"name": "d", "kind": "tensor_descriptor", "dtype": "f16", "shape": [8, 8],
       "block": [4, 4], "file": "d.bin"}
    ],
    "triton_median_ms_h200": 0.1})",
                           "/cases/t");
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->kernel, "k");
  EXPECT_EQ(spec->ttir, "/cases/t/k.ttir");
  EXPECT_EQ(spec->grid, (std::array<int64_t, 3>{4, 2, 1}));
  ASSERT_EQ(spec->args.size(), 4u);
  EXPECT_EQ(spec->args[0].dtype, ElemKind::BF16);
  EXPECT_EQ(spec->args[0].file, "/cases/t/x.bin");
  EXPECT_EQ(spec->args[1].role, Role::Output);
  EXPECT_TRUE(spec->args[1].isUnsigned);
  EXPECT_EQ(spec->args[1].tolerance.rtol, 0.5);
  EXPECT_EQ(spec->args[1].tolerance.atol, 2);
  EXPECT_TRUE(std::isinf(spec->args[2].floatValue));
  EXPECT_EQ(spec->args[3].kind, ArgKind::TensorDescriptor);
  EXPECT_EQ(spec->args[3].block, (Shape{4, 4}));

  EXPECT_EQ(errorOf(setGrid(*spec, "7")), "");
  EXPECT_EQ(spec->grid, (std::array<int64_t, 3>{7, 1, 1}));
  EXPECT_EQ(errorOf(setScalar(*spec, "s", "2.5")), "");
  EXPECT_EQ(spec->args[2].floatValue, 2.5);
  EXPECT_EQ(errorOf(setScalar(*spec, "x", "1")), "--set x: 'x' is not a scalar argument");
}

TEST(RunSpec, RejectsBadSpecs) {
  auto err = [](llvm::StringRef text) {
    auto s = parseRunSpec(text, "/d");
    return s ? std::string("<accepted>") : llvm::toString(s.takeError());
  };
  EXPECT_EQ(err("{"), "malformed JSON: [1:1, byte=1]: Expected object key");
  EXPECT_EQ(err(R"({"args": [{"kind": "buffer", "dtype": "f32"}]})"),
            "argument 0 ('arg0'): \"shape\" must be an array of sizes");
  EXPECT_EQ(err(R"({"args": [{"kind": "scalar", "dtype": "i32", "value": 1.5}]})"),
            "argument 0 ('arg0'): the value of an integer scalar must be an integer");
  EXPECT_EQ(err(R"({"args": [{"kind": "buffer", "dtype": "f32", "shape": [2], "role": "x"}]})"),
            "argument 0 ('arg0'): unknown role 'x' (expected input, output or inout)");
  EXPECT_EQ(err(R"({"args": [{"kind": "buffer", "dtype": "f32", "shape": [2], "role": "inout"}]})"),
            "argument 0 ('arg0'): an inout buffer needs its initial contents (\"file\", \"data\" "
            "or \"fill\")");
  EXPECT_EQ(err(R"({"grid": [0, -1], "args": []})"),
            "\"grid\" sizes must be non-negative integers");
  EXPECT_EQ(err(R"({"num_ctas": 3, "args": []})"), "\"num_ctas\" must be 1, 2, 4, 8 or 16");
  EXPECT_EQ(err(R"({"num_ctas": 16, "args": []})"), "<accepted>");
  EXPECT_EQ(err(R"({"num_ctas": 32, "args": []})"),
            "\"num_ctas\" must be an integer from 1 to 16");
  auto clustered = parseRunSpec(R"({"num_ctas": 4, "args": []})", "/d");
  ASSERT_TRUE(bool(clustered)) << llvm::toString(clustered.takeError());
  EXPECT_EQ(clustered->numCtas, 4);
}

TEST(RunSpec, ValuesMustFitTheirDtype) {
  auto err = [](llvm::StringRef arg) {
    auto s = parseRunSpec(("{\"args\": [" + arg + "]}").str(), "/d");
    return s ? std::string("<accepted>") : llvm::toString(s.takeError());
  };
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "i8", "shape": [2], "data": [-128, 127]})"),
            "<accepted>");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "i8", "shape": [2], "data": [0, 128]})"),
            "argument 0 ('arg0'): \"data\"[1]: 128 is out of range for i8 (-128 to 127)");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "u8", "shape": [2], "data": [0, 255]})"),
            "<accepted>");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "u8", "shape": [1], "expect": [256]})"),
            "argument 0 ('arg0'): \"expect\"[0]: 256 is out of range for u8 (0 to 255)");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "bool", "shape": [1], "data": [2]})"),
            "argument 0 ('arg0'): \"data\"[0]: 2 is out of range for i1 (0 to 1)");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "i64", "shape": [1], "data": ["inf"]})"),
            "argument 0 ('arg0'): \"data\"[0]: inf is not an integer");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "i32", "shape": [1], "fill": 1e10})"),
            "argument 0 ('arg0'): \"fill\": 1e+10 is out of range for i32 (-2147483648 to "
            "2147483647)");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "f8e4m3fn", "shape": [1], "data": [1000]})"),
            "argument 0 ('arg0'): \"data\"[0]: 1000 is out of range for f8e4m3fn (it overflows to "
            "infinity or NaN)");
  EXPECT_EQ(err(R"({"kind": "buffer", "dtype": "f16", "shape": [1], "data": ["inf"]})"),
            "<accepted>");
  EXPECT_EQ(err(R"({"kind": "scalar", "dtype": "i8", "value": -129})"),
            "argument 0 ('arg0'): \"value\": -129 is out of range for i8 (-128 to 127)");
  EXPECT_EQ(err(R"({"kind": "scalar", "dtype": "f32", "value": 1e39})"),
            "argument 0 ('arg0'): \"value\": 1e+39 is out of range for f32 (it overflows to "
            "infinity or NaN)");

  // 64-bit scalars are exact, not rounded through a double.
  auto spec = parseRunSpec(R"({"args": [
      {"name": "a", "kind": "scalar", "dtype": "u64", "value": 18446744073709551615},
      {"name": "b", "kind": "scalar", "dtype": "i64", "value": 9223372036854775807},
      {"name": "c", "kind": "scalar", "dtype": "i16", "value": 7}]})",
                           "/d");
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->args[0].intValue, -1);
  EXPECT_EQ(spec->args[1].intValue, INT64_MAX);
  EXPECT_EQ(errorOf(setScalar(*spec, "c", "40000")),
            "--set c: 40000 is out of range for i16 (-32768 to 32767)");
  EXPECT_EQ(errorOf(setScalar(*spec, "b", "9223372036854775808")),
            "--set b: 9223372036854775808 is out of range for i64 (-9223372036854775808 to "
            "9223372036854775807)");
  EXPECT_EQ(errorOf(setScalar(*spec, "a", "18446744073709551615")), "");
  EXPECT_EQ(spec->args[0].intValue, -1);
}

const char *kDescKernel = R"(
module {
  tt.func public @k(%d: !tt.tensordesc<tensor<2x2xf32>>, %d0: i32, %d1: i32, %s0: i64, %s1: i64,
                    %o: !tt.ptr<i64>, %scale: f32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %v = tt.descriptor_load %d[%c1, %c1] : !tt.tensordesc<tensor<2x2xf32>> -> tensor<2x2xf32>
    %sv = tt.splat %scale : f32 -> tensor<2x2xf32>
    %w = arith.mulf %v, %sv : tensor<2x2xf32>
    tt.descriptor_store %d[%c0, %c0], %w : !tt.tensordesc<tensor<2x2xf32>>, tensor<2x2xf32>
    %e0 = arith.extsi %d0 : i32 to i64
    %e1 = arith.extsi %d1 : i32 to i64
    %o1 = tt.addptr %o, %c1 : !tt.ptr<i64>, i32
    %c2 = arith.constant 2 : i32
    %o2 = tt.addptr %o, %c2 : !tt.ptr<i64>, i32
    %c3 = arith.constant 3 : i32
    %o3 = tt.addptr %o, %c3 : !tt.ptr<i64>, i32
    tt.store %o, %e0 : !tt.ptr<i64>
    tt.store %o1, %e1 : !tt.ptr<i64>
    tt.store %o2, %s0 : !tt.ptr<i64>
    tt.store %o3, %s1 : !tt.ptr<i64>
    tt.return
  }
}
)";

TEST(RunSpec, DescriptorsExpandAndOutputsCompare) {
  Harness h(kDescKernel);
  ASSERT_TRUE(h.parsed());
  auto spec = parseRunSpec(R"({"kernel": "k", "args": [
      {"name": "d", "kind": "tensor_descriptor", "dtype": "f32", "shape": [3, 3], "block": [2, 2],
       "role": "inout", "data": [1, 2, 3, 4, 5, 6, 7, 8, 9],
       "expect": [10, 12, 3, 16, 18, 6, 7, 8, 9]},
      {"name": "o", "kind": "buffer", "dtype": "i64", "shape": [4], "role": "output",
       "expect": [3, 3, 3, 1]},
      {"name": "scale", "kind": "scalar", "dtype": "f32", "value": 2}]})",
                           "/d");
  ASSERT_TRUE(bool(spec)) << llvm::toString(spec.takeError());
  auto launch = prepareLaunch(*spec, *h.module);
  ASSERT_TRUE(bool(launch)) << llvm::toString(launch.takeError());
  EXPECT_EQ(launch->args.size(), 7u);
  Interpreter interp(*h.module);
  RunOptions opts;
  EXPECT_EQ(errorOf(interp.run(launch->kernel, launch->args, launch->memory, opts)), "");
  auto checks = checkOutputs(*spec, *launch);
  ASSERT_TRUE(bool(checks));
  ASSERT_EQ(checks->size(), 2u);
  // The block at (1, 1) is [5, 6, 8, 9] * 2, stored at (0, 0).
  EXPECT_TRUE((*checks)[0].pass) << formatCheck((*checks)[0]);
  EXPECT_TRUE((*checks)[1].pass) << formatCheck((*checks)[1]);

  // Wrong block shape and wrong argument count are reported.
  auto bad = parseRunSpec(R"({"args": [
      {"name": "d", "kind": "tensor_descriptor", "dtype": "f32", "shape": [3, 3], "block": [4, 4]},
      {"name": "o", "kind": "buffer", "dtype": "i64", "shape": [4]},
      {"name": "scale", "kind": "scalar", "dtype": "f32", "value": 2}]})",
                          "/d");
  ASSERT_TRUE(bool(bad));
  EXPECT_EQ(errorOf(prepareLaunch(*bad, *h.module).takeError()),
            "argument 'd' (kernel argument 0): the run spec's block shape differs from the "
            "kernel's !tt.tensordesc<tensor<2x2xf32>>");
  bad->args[0].block = {2, 2};
  bad->args.pop_back();
  EXPECT_EQ(errorOf(prepareLaunch(*bad, *h.module).takeError()),
            "the run spec gives 6 kernel arguments but @k takes 7: "
            "(!tt.tensordesc<tensor<2x2xf32>>, i32, i32, i64, i64, !tt.ptr<i64>, f32)");
}

/// Builds a launch whose one output buffer holds `got` and compares it.
OutputCheck compare(ElemKind kind, const std::vector<double> &got, const std::vector<double> &want,
                    Tolerance tol, bool unsignedInts = false) {
  RunSpec spec;
  ArgSpec a;
  a.name = "out";
  a.dtype = kind;
  a.isUnsigned = unsignedInts;
  a.role = Role::Output;
  a.shape = {int64_t(got.size())};
  a.expectData = want;
  a.tolerance = tol;
  spec.args.push_back(a);
  Launch launch;
  unsigned id = launch.memory.addBuffer("out", kind, a.shape, /*poison=*/false);
  launch.bufferOfArg.push_back(int(id));
  for (size_t i = 0; i < got.size(); ++i) {
    uint64_t bits = isIntKind(kind) ? uint64_t(int64_t(got[i]))
                                    : Tensor::scalarFloat(kind, got[i]).bitsAt(0);
    std::memcpy(&launch.memory.buffer(id).bytes[i * byteSize(kind)], &bits, byteSize(kind));
  }
  auto checks = checkOutputs(spec, launch);
  EXPECT_TRUE(bool(checks));
  return (*checks)[0];
}

TEST(RunSpec, ComparisonFollowsTheCorpusRule) {
  double nan = std::nan(""), inf = HUGE_VAL;
  // |got - want| <= atol + rtol * |want|; NaN only matches NaN.
  OutputCheck c = compare(ElemKind::F32, {1.0, nan, inf, 100.0}, {1.05, nan, inf, 101.0},
                          {0.01, 0.04});
  EXPECT_TRUE(c.pass) << formatCheck(c);
  EXPECT_NEAR(c.maxAbsErr, 1.0, 1e-6);
  c = compare(ElemKind::F32, {1.0, 2.0, nan}, {1.0, 2.5, 3.0}, {0, 0.1});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.firstIndex, "[1]");
  EXPECT_EQ(c.got, "2");
  EXPECT_EQ(c.want, "2.5");
  EXPECT_TRUE(std::isnan(c.maxAbsErr));
  // An infinity matches only itself, whatever the tolerance.
  c = compare(ElemKind::F32, {inf}, {-inf}, {1, 1});
  EXPECT_FALSE(c.pass);
  c = compare(ElemKind::F32, {1e30}, {inf}, {1, 1});
  EXPECT_FALSE(c.pass);
  c = compare(ElemKind::I32, {5, -3}, {5, -3}, {0, 0});
  EXPECT_TRUE(c.pass);
  c = compare(ElemKind::I32, {5, -3}, {5, -4}, {0, 0});
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.firstIndex, "[1]");
  EXPECT_EQ(formatCheck(c), "out: FAIL max_abs_err=1.000e+00 max_rel_err=2.500e-01 "
                            "first_mismatch=[1] (got -3, want -4) [2 x i32, atol=0 rtol=0, "
                            "1 mismatching]");
  c = compare(ElemKind::I8, {-1}, {255}, {0, 0}, /*unsignedInts=*/true);
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.want, "");
}

} // namespace
