//===- MathXPluginTest.cpp - plugin ops through KernelBuilder::call -------===//
//
// Loads the real mathx plugin library from the build tree (it is never
// linked into this test) and uses its kernel-language ops by name: what
// they expand to, what they compute on the reference interpreter, and how
// their misuse is reported.
//
//===----------------------------------------------------------------------===//
#include "FrontendTestUtil.h"

#include "kiln/Plugin/OpRegistry.h"
#include "kiln/Plugin/PluginManager.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace kiln;
using namespace kiln::testing;
using interp::ElemKind;
using interp::Tensor;

namespace {

std::vector<std::string> operandNames(const KernelOp &op) {
  std::vector<std::string> names;
  for (const KernelOpOperand &operand : op.operands)
    names.push_back(operand.name);
  return names;
}

class MathX : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::Error error = PluginManager::get().load(KILN_MATHX_PLUGIN);
    loadError = error ? llvm::toString(std::move(error)) : "";
  }
  void SetUp() override { ASSERT_EQ(loadError, "") << "loading " << KILN_MATHX_PLUGIN; }

  /// Why the plugin did not load (empty: it did); every test checks it.
  static inline std::string loadError;
};

TEST_F(MathX, RegistersItsOpsWithSignatures) {
  const LoadedPlugin *plugin = nullptr;
  for (const LoadedPlugin &p : PluginManager::get().plugins())
    if (p.name == "mathx")
      plugin = &p;
  ASSERT_TRUE(plugin);
  EXPECT_EQ(plugin->ops, (std::vector<std::string>{"mathx.softplus", "mathx.lerp", "mathx.clamp"}));

  const OpRegistry &ops = PluginManager::get().ops();
  const KernelOp *softplus = ops.lookup("mathx.softplus");
  ASSERT_TRUE(softplus);
  EXPECT_EQ(operandNames(*softplus), (std::vector<std::string>{"x"}));
  EXPECT_EQ(softplus->numResults, 1u);
  EXPECT_EQ(softplus->signature, "(x: float) -> float");
  EXPECT_FALSE(softplus->summary.empty());
  const KernelOp *lerp = ops.lookup("mathx.lerp");
  ASSERT_TRUE(lerp);
  EXPECT_EQ(operandNames(*lerp), (std::vector<std::string>{"a", "b", "t"}));
  const KernelOp *clamp = ops.lookup("mathx.clamp");
  ASSERT_TRUE(clamp);
  EXPECT_EQ(operandNames(*clamp), (std::vector<std::string>{"x", "lo", "hi"}));
  EXPECT_TRUE(llvm::all_of(clamp->operands, [](const KernelOpOperand &o) { return o.kind == "tensor"; }));
}

/// A reference softplus in double precision, stable on its own terms.
double softplusRef(double x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

TEST_F(MathX, SoftplusThroughCallIsStable) {
  KernelBuilder kb("softplus");
  Diagnostics diags(kb.context());
  Type f32 = kb.builder().getF32Type();
  Value x = kb.pointerArg(f32, "x", 16), y = kb.pointerArg(f32, "y", 16);
  Value offs = kb.arange(0, 16);
  Value xv = kb.load(kb.addptr(x, offs));
  FailureOr<SmallVector<Value>> result = kb.call("mathx.softplus", {xv});
  ASSERT_TRUE(succeeded(result));
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].getType(), xv.getType());
  ASSERT_TRUE(succeeded(kb.store(kb.addptr(y, offs), (*result)[0])));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  EXPECT_TRUE(diags.all.empty());

  std::string ir = print(*module);
  // Expanded into core ops: nothing of the plugin is left in the IR.
  EXPECT_EQ(ir.find("mathx"), std::string::npos);
  EXPECT_TRUE(containsInOrder(ir, {"tt.load", "arith.constant 0.000000e+00 : f32", "tt.splat",
                                   "arith.maxnumf", "math.absf", "arith.negf", "math.exp",
                                   "math.log1p", "arith.addf", ": tensor<16xf32>", "tt.store"}));
  EXPECT_TRUE(reparses(ir));

  // Includes values where log(1 + exp(x)) overflows (x >= 89 in f32) or
  // rounds the tail away (x <= -17).
  std::vector<float> xs = {-1000, -100, -20, -5, -1, -1e-3f, 0,  1e-8f,
                           1e-3f, 0.5f, 1,   5,  20, 88,     89, 1000};
  Buffers buffers;
  Tensor xb = buffers.add(ElemKind::F32, xs);
  Tensor yb = buffers.add(ElemKind::F32, std::vector<float>(16, -1.0f));
  ASSERT_TRUE(runKernel(*module, "softplus", {xb, yb}, buffers));
  std::vector<float> ys = buffers.read<float>(1);
  for (size_t i = 0; i < xs.size(); ++i) {
    double want = softplusRef(xs[i]);
    ASSERT_TRUE(std::isfinite(ys[i])) << "softplus(" << xs[i] << ") = " << ys[i];
    // A few f32 ulps; absolute only among denormals (exp(-100) is one).
    EXPECT_NEAR(ys[i], want, std::max(5e-7 * want, 1e-44)) << "softplus(" << xs[i] << ")";
    if (want > 0) {
      EXPECT_GT(ys[i], 0.0f) << "softplus(" << xs[i] << ") lost its tail";
    }
  }
}

TEST_F(MathX, LerpBroadcastsAScalarWeightAndClampKeepsNaN) {
  KernelBuilder kb("mix");
  Diagnostics diags(kb.context());
  Type f32 = kb.builder().getF32Type(), i32 = kb.builder().getI32Type();
  Value pa = kb.pointerArg(f32, "a"), pb = kb.pointerArg(f32, "b"),
        pout = kb.pointerArg(f32, "out");
  Value pi = kb.pointerArg(i32, "i"), piout = kb.pointerArg(i32, "iout");
  Value t = kb.scalarArg(f32, "t");
  Value offs = kb.arange(0, 8);
  Value a = kb.load(kb.addptr(pa, offs));
  Value b = kb.load(kb.addptr(pb, offs));
  FailureOr<SmallVector<Value>> mixed = kb.call("mathx.lerp", {a, b, t});
  ASSERT_TRUE(succeeded(mixed));
  // Float clamp with scalar bounds; NaN must come through as NaN.
  FailureOr<SmallVector<Value>> clamped =
      kb.call("mathx.clamp", {(*mixed)[0], kb.constFloat(-1.0), kb.constFloat(2.0)});
  ASSERT_TRUE(succeeded(clamped));
  ASSERT_TRUE(succeeded(kb.store(kb.addptr(pout, offs), (*clamped)[0])));
  // Integer clamp (signed) with bounds of other shapes: [8] and [1].
  Value iv = kb.load(kb.addptr(pi, offs));
  Value lo = kb.full({1}, -3, i32);
  FailureOr<SmallVector<Value>> iclamped = kb.call("mathx.clamp", {iv, lo, kb.constInt(5)});
  ASSERT_TRUE(succeeded(iclamped));
  ASSERT_TRUE(succeeded(kb.store(kb.addptr(piout, offs), (*iclamped)[0])));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  std::string ir = print(*module);
  EXPECT_TRUE(
      containsInOrder(ir, {"arith.subf", "tt.splat %arg5 : f32 -> tensor<8xf32>", "math.fma",
                           "arith.maxnumf", "arith.minnumf", "arith.cmpf une", "arith.select",
                           "tt.store", "arith.maxsi", "arith.minsi", "tt.store"}));
  EXPECT_TRUE(reparses(ir));

  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> as = {0, 0, 1, -4, 10, nan, 0.5f, 2};
  std::vector<float> bs = {1, 4, 3, -4, 20, 1, nan, 2};
  std::vector<int32_t> is = {-10, -3, -2, 0, 4, 5, 6, INT32_MIN};
  Buffers buffers;
  Tensor ab = buffers.add(ElemKind::F32, as);
  Tensor bb = buffers.add(ElemKind::F32, bs);
  Tensor ob = buffers.add(ElemKind::F32, std::vector<float>(8));
  Tensor ib = buffers.add(ElemKind::I32, is);
  Tensor iob = buffers.add(ElemKind::I32, std::vector<int32_t>(8));
  ASSERT_TRUE(runKernel(*module, "mix",
                        {ab, bb, ob, ib, iob, Tensor::scalarFloat(ElemKind::F32, 0.25)}, buffers));
  std::vector<float> out = buffers.read<float>(2);
  for (size_t k = 0; k < as.size(); ++k) {
    float want = std::fma(0.25f, bs[k] - as[k], as[k]);
    if (!std::isnan(want))
      want = std::min(std::max(want, -1.0f), 2.0f);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(out[k])) << "element " << k << " is " << out[k];
    } else {
      EXPECT_EQ(out[k], want) << "element " << k;
    }
  }
  EXPECT_EQ(buffers.read<int32_t>(4), (std::vector<int32_t>{-3, -3, -2, 0, 4, 5, 5, -3}));
}

TEST_F(MathX, MisuseIsReportedNotCrashed) {
  struct Case {
    const char *what;
    std::function<FailureOr<SmallVector<Value>>(KernelBuilder &)> call;
    const char *error;
  };
  auto floats = [](KernelBuilder &kb, int64_t n) {
    return kb.full({n}, 1.0, kb.builder().getF32Type());
  };
  const std::vector<Case> cases = {
      {"unknown op", [&](KernelBuilder &kb) { return kb.call("mathx.softplux", {floats(kb, 8)}); },
       "unknown kernel op 'mathx.softplux'; loaded ops: "},
      {"too few operands",
       [&](KernelBuilder &kb) {
         return kb.call("mathx.lerp", {floats(kb, 8), floats(kb, 8)});
       },
       "'mathx.lerp' takes 3 operand(s) (a, b, t) but was given 2; signature: (a: float, b: "
       "float, t: float)"},
      {"too many operands",
       [&](KernelBuilder &kb) {
         return kb.call("mathx.softplus", {floats(kb, 8), floats(kb, 8)});
       },
       "'mathx.softplus' takes 1 operand(s) (x) but was given 2"},
      {"integer softplus",
       [&](KernelBuilder &kb) { return kb.call("mathx.softplus", {kb.arange(0, 8)}); },
       "mathx.softplus takes float operands, got 'tensor<8xi32>'"},
      {"shape mismatch inside the op",
       [&](KernelBuilder &kb) {
         return kb.call("mathx.lerp", {floats(kb, 64), floats(kb, 128), kb.constFloat(0.5)});
       },
       "shapes [128] and [64] cannot be broadcast together"},
      {"mixed element types inside the op",
       [&](KernelBuilder &kb) {
         return kb.call("mathx.clamp", {floats(kb, 8), kb.constInt(0), kb.constInt(1)});
       },
       "maximum: operands have different element types, 'f32' and 'i32'"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    KernelBuilder kb("k");
    Diagnostics diags(kb.context());
    kb.setLoc(FileLineColLoc::get(&kb.context(), "user.py", 11, 4));
    EXPECT_TRUE(failed(c.call(kb)));
    EXPECT_TRUE(diags.onlyError(c.error));
    if (!diags.errors.empty()) {
      EXPECT_TRUE(StringRef(diags.errors[0]).starts_with("loc(\"user.py\":11:4)"))
          << diags.errors[0];
    }
    EXPECT_FALSE(kb.finish());
  }
}

} // namespace
