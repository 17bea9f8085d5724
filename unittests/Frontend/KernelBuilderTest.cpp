//===- KernelBuilderTest.cpp - building TTIR kernels from C++ -------------===//
//
// Real kernels built with kiln::KernelBuilder: the IR must verify, print as
// the TTIR Triton would write, parse again, and compute the right numbers
// on the reference interpreter (whose bounds checks also prove the masks).
// Then every kind of misuse: one located diagnostic each, never a crash.
//
//===----------------------------------------------------------------------===//
#include "FrontendTestUtil.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace kiln;
using namespace kiln::testing;
using interp::ElemKind;
using interp::Tensor;

namespace {

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

TEST(KernelBuilder, MaskedVectorAdd) {
  KernelBuilder kb("add");
  Diagnostics diags(kb.context());
  Type f32 = kb.builder().getF32Type();
  Value x = kb.pointerArg(f32, "x", 16);
  Value y = kb.pointerArg(f32, "y", 16);
  Value z = kb.pointerArg(f32, "z", 16);
  Value n = kb.scalarArg(kb.builder().getI32Type(), "n");
  // One statement per op: C++ leaves the order of arguments unspecified.
  Value pid = kb.programId(0);
  Value start = kb.mul(pid, kb.constInt(256));
  Value offs = kb.add(start, kb.arange(0, 256)); // start is splat
  Value mask = kb.cmp(CmpKind::LT, offs, n);     // so is n
  Value xv = kb.load(kb.addptr(x, offs), mask);  // and x
  Value yv = kb.load(kb.addptr(y, offs), mask);
  ASSERT_TRUE(succeeded(kb.store(kb.addptr(z, offs), kb.add(xv, yv), mask)));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  EXPECT_TRUE(diags.all.empty());

  std::string ir = print(*module);
  EXPECT_TRUE(
      containsInOrder(ir, {"tt.func public @add(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, "
                           "%arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, "
                           "%arg2: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg3: i32) "
                           "attributes {noinline = false}",
                           "tt.get_program_id x : i32",
                           "arith.constant 256 : i32",
                           "arith.muli",
                           "tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>",
                           "tt.splat %",
                           ": i32 -> tensor<256xi32>",
                           "arith.addi",
                           ": tensor<256xi32>",
                           "tt.splat %arg3 : i32 -> tensor<256xi32>",
                           "arith.cmpi slt",
                           "tt.splat %arg0 : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>",
                           "tt.addptr",
                           ": tensor<256x!tt.ptr<f32>>, tensor<256xi32>",
                           "tt.load",
                           "tt.splat %arg1",
                           "tt.load",
                           "arith.addf",
                           ": tensor<256xf32>",
                           "tt.splat %arg2",
                           "tt.store",
                           ": tensor<256x!tt.ptr<f32>>",
                           "tt.return"}));
  EXPECT_TRUE(reparses(ir));

  // 1000 elements over 4 programs of 256: the last 24 lanes must be masked,
  // or the interpreter reports an access past the end of the buffers.
  const int count = 1000;
  std::vector<float> xs(count), ys(count);
  for (int i = 0; i < count; ++i) {
    xs[i] = 0.5f * i;
    ys[i] = 1000.0f - 3 * i;
  }
  Buffers buffers;
  Tensor xb = buffers.add(ElemKind::F32, xs);
  Tensor yb = buffers.add(ElemKind::F32, ys);
  Tensor zb = buffers.add(ElemKind::F32, std::vector<float>(count, -1.0f));
  ASSERT_TRUE(runKernel(*module, "add", {xb, yb, zb, Tensor::scalarInt(ElemKind::I32, count)},
                        buffers, /*programs=*/4));
  std::vector<float> zs = buffers.read<float>(2);
  for (int i = 0; i < count; ++i)
    ASSERT_EQ(zs[i], xs[i] + ys[i]) << "element " << i;
}

/// Row softmax over column blocks: a first loop carries the running max and
/// sum (online softmax, two f32 iter_args), a second one writes
/// exp(x - max) / sum. One program per row.
OwningOpRef<ModuleOp> buildSoftmax(KernelBuilder &kb, int32_t block) {
  Type f32 = kb.builder().getF32Type(), i32 = kb.builder().getI32Type();
  Value out = kb.pointerArg(f32, "out", 16);
  Value in = kb.pointerArg(f32, "in", 16);
  Value inStride = kb.scalarArg(i32, "in_stride");
  Value outStride = kb.scalarArg(i32, "out_stride");
  Value nCols = kb.scalarArg(i32, "n_cols");
  Value row = kb.programId(0);
  Value rowIn = kb.addptr(in, kb.mul(row, inStride));
  Value rowOut = kb.addptr(out, kb.mul(row, outStride));
  Value cols = kb.arange(0, block);
  Value zero = kb.constInt(0);
  Value step = kb.constInt(block);
  Value negInf = kb.constFloat(-INFINITY);
  Value noSum = kb.constFloat(0.0);

  auto loadBlock = [&](Value start, Value &mask) {
    Value offs = kb.add(start, cols);
    mask = kb.cmp(CmpKind::LT, offs, nCols);
    return std::make_pair(offs, kb.load(kb.addptr(rowIn, offs), mask, negInf));
  };
  FailureOr<SmallVector<Value>> stats =
      kb.forLoop(zero, nCols, step, {negInf, noSum},
                 [&](Value start, ValueRange carried) -> SmallVector<Value> {
                   Value mask;
                   Value x = loadBlock(start, mask).second;
                   Value max = kb.maximum(carried[0], kb.reduce(x, 0, ReduceKind::Max));
                   Value rescale = kb.exp(kb.sub(carried[0], max));
                   Value blockSum = kb.reduce(kb.exp(kb.sub(x, max)), 0, ReduceKind::Sum);
                   return {max, kb.add(kb.mul(carried[1], rescale), blockSum)};
                 });
  if (failed(stats))
    return nullptr;
  Value max = (*stats)[0], sum = (*stats)[1];
  FailureOr<SmallVector<Value>> written =
      kb.forLoop(zero, nCols, step, {}, [&](Value start, ValueRange) -> SmallVector<Value> {
        Value mask;
        auto [offs, x] = loadBlock(start, mask);
        Value y = kb.div(kb.exp(kb.sub(x, max)), sum);
        (void)kb.store(kb.addptr(rowOut, offs), y, mask);
        return {};
      });
  if (failed(written))
    return nullptr;
  return kb.finish();
}

TEST(KernelBuilder, RowSoftmaxWithLoopsAndReductions) {
  KernelBuilder kb("softmax");
  Diagnostics diags(kb.context());
  OwningOpRef<ModuleOp> module = buildSoftmax(kb, 128);
  ASSERT_TRUE(module) << (diags.errors.empty() ? "" : diags.errors[0]);
  std::string ir = print(*module);
  EXPECT_TRUE(containsInOrder(ir, {"tt.func public @softmax(",
                                   "arith.constant 0xFF800000 : f32",
                                   "scf.for",
                                   "iter_args(",
                                   "-> (f32, f32)",
                                   ": i32 {",
                                   "tt.load",
                                   "\"tt.reduce\"(",
                                   "<{axis = 0 : i32}>",
                                   "arith.maxnumf",
                                   "tt.reduce.return",
                                   ": f32",
                                   "(tensor<128xf32>) -> f32",
                                   "arith.maxnumf",
                                   "math.exp",
                                   "\"tt.reduce\"(",
                                   "arith.addf",
                                   "tt.reduce.return",
                                   "scf.yield",
                                   "scf.for",
                                   "math.exp",
                                   "arith.divf",
                                   "tt.store",
                                   "tt.return"}));
  EXPECT_EQ(countOf(ir, "scf.for"), 2u);
  EXPECT_EQ(countOf(ir, "\"tt.reduce\""), 2u);
  EXPECT_TRUE(reparses(ir));

  // 3 rows of 300 columns: three blocks of 128, the last one masked.
  const int rows = 3, cols = 300, inStride = 301, outStride = 300;
  std::vector<float> input(rows * inStride);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = 6.0f * std::sin(0.37f * i) + (i / inStride);
  Buffers buffers;
  Tensor outBuf = buffers.add(ElemKind::F32, std::vector<float>(rows * outStride, -1.0f));
  Tensor inBuf = buffers.add(ElemKind::F32, input);
  ASSERT_TRUE(runKernel(*module, "softmax",
                        {outBuf, inBuf, Tensor::scalarInt(ElemKind::I32, inStride),
                         Tensor::scalarInt(ElemKind::I32, outStride),
                         Tensor::scalarInt(ElemKind::I32, cols)},
                        buffers, rows));
  std::vector<float> got = buffers.read<float>(0);
  for (int r = 0; r < rows; ++r) {
    double max = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      max = std::max(max, double(input[r * inStride + c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(input[r * inStride + c] - max);
    for (int c = 0; c < cols; ++c)
      ASSERT_NEAR(got[r * outStride + c], std::exp(input[r * inStride + c] - max) / sum, 1e-6)
          << "row " << r << ", column " << c;
  }
}

TEST(KernelBuilder, BroadcastsSizeOneDimsAndLowerRanks) {
  KernelBuilder kb("outer");
  Diagnostics diags(kb.context());
  Type f32 = kb.builder().getF32Type();
  Value a = kb.pointerArg(f32, "a"), b = kb.pointerArg(f32, "b"), out = kb.pointerArg(f32, "out");
  Value i = kb.arange(0, 16);
  Value j = kb.arange(0, 32);
  Value av = kb.load(kb.addptr(a, i));
  Value bv = kb.load(kb.addptr(b, j));
  Value column = kb.expandDims(av, 1); // [16, 1]
  Value row = kb.expandDims(bv, -2);   // [1, 32]
  Value product = kb.mul(column, row); // [16, 32]
  Value shifted = kb.add(product, bv); // [32] gains a leading dim
  Value rowStart = kb.mul(kb.expandDims(i, 1), kb.constInt(32));
  Value offs = kb.add(rowStart, kb.expandDims(j, 0));
  ASSERT_TRUE(succeeded(kb.store(kb.addptr(out, offs), shifted)));
  EXPECT_EQ(KernelBuilder::shape(shifted), ArrayRef<int64_t>({16, 32}));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  std::string ir = print(*module);
  EXPECT_TRUE(containsInOrder(
      ir, {"tt.expand_dims %", "{axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>",
           "tt.expand_dims %", "{axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>",
           "tt.broadcast %", ": tensor<16x1xf32> -> tensor<16x32xf32>", "tt.broadcast %",
           ": tensor<1x32xf32> -> tensor<16x32xf32>", "arith.mulf",
           // bv + product: [32] -> [1, 32] -> [16, 32]
           "tt.expand_dims %", "{axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>",
           "tt.broadcast %", "arith.addf", ": tensor<16x32xf32>", "tt.store"}));
  EXPECT_TRUE(reparses(ir));

  std::vector<float> as(16), bs(32);
  for (int k = 0; k < 16; ++k)
    as[k] = k - 4;
  for (int k = 0; k < 32; ++k)
    bs[k] = 0.25f * k;
  Buffers buffers;
  Tensor ab = buffers.add(ElemKind::F32, as);
  Tensor bb = buffers.add(ElemKind::F32, bs);
  Tensor ob = buffers.add(ElemKind::F32, std::vector<float>(16 * 32));
  ASSERT_TRUE(runKernel(*module, "outer", {ab, bb, ob}, buffers));
  std::vector<float> got = buffers.read<float>(2);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 32; ++c)
      ASSERT_EQ(got[r * 32 + c], as[r] * bs[c] + bs[c]) << r << ", " << c;
}

TEST(KernelBuilder, DotOfATransposedTile) {
  KernelBuilder kb("matmul");
  Diagnostics diags(kb.context());
  Type f32 = kb.builder().getF32Type();
  Value pa = kb.pointerArg(f32, "a", 16), pbt = kb.pointerArg(f32, "bt", 16),
        pc = kb.pointerArg(f32, "c", 16);
  Value rows = kb.expandDims(kb.arange(0, 16), 1);
  Value cols = kb.expandDims(kb.arange(0, 16), 0);
  Value offs = kb.add(kb.mul(rows, kb.constInt(16)), cols);
  Value a = kb.load(kb.addptr(pa, offs));
  Value bt = kb.load(kb.addptr(pbt, offs));
  Value c = kb.dot(a, kb.trans(bt));
  EXPECT_EQ(KernelBuilder::shape(c), ArrayRef<int64_t>({16, 16}));
  ASSERT_TRUE(succeeded(kb.store(kb.addptr(pc, offs), c)));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  std::string ir = print(*module);
  EXPECT_TRUE(
      containsInOrder(ir, {"tt.trans %", "{order = array<i32: 1, 0>}",
                           "arith.constant dense<0.000000e+00> : tensor<16x16xf32>", "tt.dot %",
                           ": tensor<16x16xf32> * tensor<16x16xf32> -> "
                           "tensor<16x16xf32>"}));
  EXPECT_TRUE(reparses(ir));

  std::vector<float> as(256), bts(256);
  for (int k = 0; k < 256; ++k) {
    as[k] = (k % 7) - 3;
    bts[k] = (k % 5) - 2;
  }
  Buffers buffers;
  Tensor ab = buffers.add(ElemKind::F32, as);
  Tensor bb = buffers.add(ElemKind::F32, bts);
  Tensor cb = buffers.add(ElemKind::F32, std::vector<float>(256));
  ASSERT_TRUE(runKernel(*module, "matmul", {ab, bb, cb}, buffers));
  std::vector<float> got = buffers.read<float>(2);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      float want = 0;
      for (int k = 0; k < 16; ++k)
        want += as[m * 16 + k] * bts[n * 16 + k]; // b[k][n] = bt[n][k]
      ASSERT_EQ(got[m * 16 + n], want) << m << ", " << n;
    }
}

TEST(KernelBuilder, GeneralReduceComputesArgmax) {
  KernelBuilder kb("argmax");
  Diagnostics diags(kb.context());
  Type f32 = kb.builder().getF32Type(), i32 = kb.builder().getI32Type();
  Value px = kb.pointerArg(f32, "x"), pmax = kb.pointerArg(f32, "max"),
        pidx = kb.pointerArg(i32, "index");
  Value idx = kb.arange(0, 64);
  Value x = kb.load(kb.addptr(px, idx));
  // Two inputs, two accumulators: the larger value wins, ties go to the
  // smaller index.
  FailureOr<SmallVector<Value>> best =
      kb.reduce({x, idx}, 0, [&](ValueRange acc, ValueRange next) -> SmallVector<Value> {
        Value greater = kb.cmp(CmpKind::GT, next[0], acc[0]);
        Value tie =
            kb.bitAnd(kb.cmp(CmpKind::EQ, next[0], acc[0]), kb.cmp(CmpKind::LT, next[1], acc[1]));
        Value take = kb.bitOr(greater, tie);
        return {kb.select(take, next[0], acc[0]), kb.select(take, next[1], acc[1])};
      });
  ASSERT_TRUE(succeeded(best));
  ASSERT_EQ(best->size(), 2u);
  EXPECT_EQ((*best)[0].getType(), f32); // rank 1 reduces to scalars
  ASSERT_TRUE(succeeded(kb.store(pmax, (*best)[0])));
  ASSERT_TRUE(succeeded(kb.store(pidx, (*best)[1])));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  std::string ir = print(*module);
  EXPECT_TRUE(
      containsInOrder(ir, {"\"tt.reduce\"(%", "<{axis = 0 : i32}>", "^bb0(%", ": f32, %",
                           ": i32, %", ": f32, %", ": i32)", "arith.select", "tt.reduce.return %",
                           ": f32, i32", "(tensor<64xf32>, tensor<64xi32>) -> (f32, i32)"}));
  EXPECT_TRUE(reparses(ir));

  std::vector<float> xs(64);
  for (int k = 0; k < 64; ++k)
    xs[k] = std::cos(0.3f * k);
  xs[41] = xs[50] = 7.0f; // a tie: the first one wins
  Buffers buffers;
  Tensor xb = buffers.add(ElemKind::F32, xs);
  Tensor mb = buffers.add(ElemKind::F32, std::vector<float>(1));
  Tensor ib = buffers.add(ElemKind::I32, std::vector<int32_t>(1, -1));
  ASSERT_TRUE(runKernel(*module, "argmax", {xb, mb, ib}, buffers));
  EXPECT_EQ(buffers.read<float>(1)[0], 7.0f);
  EXPECT_EQ(buffers.read<int32_t>(2)[0], 41);
}

TEST(KernelBuilder, CastsAndSignedness) {
  KernelBuilder kb("casts");
  Diagnostics diags(kb.context());
  OpBuilder &b = kb.builder();
  Value i = kb.arange(0, 8);
  Value seven = kb.constInt(7);
  EXPECT_TRUE(kb.div(i, seven, Sign::Unsigned));
  EXPECT_TRUE(kb.cmp(CmpKind::GE, i, seven, Sign::Unsigned));
  EXPECT_TRUE(kb.rem(i, seven));
  Value f = kb.cast(i, b.getF32Type());
  EXPECT_TRUE(kb.cast(i, b.getF32Type(), Sign::Unsigned));
  EXPECT_TRUE(kb.cast(f, b.getF16Type()));
  EXPECT_TRUE(kb.cast(kb.cast(i, b.getI1Type()), b.getI64Type()));
  EXPECT_TRUE(kb.cast(f, b.getI1Type()));
  EXPECT_EQ(kb.cast(i, b.getI32Type()), i); // no-op casts build nothing
  EXPECT_TRUE(kb.neg(i));
  EXPECT_TRUE(kb.math(MathFn::Abs, i));
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  std::string ir = print(*module);
  EXPECT_TRUE(containsInOrder(
      ir, {"arith.divui", "arith.cmpi uge", "arith.remsi", "arith.sitofp", "arith.uitofp",
           "arith.truncf", ": tensor<8xf32> to tensor<8xf16>", "arith.cmpi ne", "arith.extui",
           ": tensor<8xi1> to tensor<8xi64>", "arith.cmpf une", "arith.subi", "math.absi"}));
  EXPECT_TRUE(reparses(ir));
}

TEST(KernelBuilder, BuildsInACallersContext) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  {
    KernelBuilder kb(context, "empty");
    module = kb.finish();
  }
  // The builder is gone; the module lives on in the caller's context.
  ASSERT_TRUE(module);
  EXPECT_TRUE(containsInOrder(
      print(*module), {"tt.func public @empty() attributes {noinline = false}", "tt.return"}));
}

//===----------------------------------------------------------------------===//
// Misuse
//===----------------------------------------------------------------------===//

TEST(KernelBuilderErrors, ShapeMismatchIsALocatedDiagnostic) {
  KernelBuilder kb("bad");
  Diagnostics diags(kb.context());
  Value p = kb.pointerArg(kb.builder().getI32Type(), "p");
  Value a = kb.arange(0, 64);
  Value c = kb.arange(0, 128);
  kb.setLoc(FileLineColLoc::get(&kb.context(), "kernel.py", 7, 12));
  Value sum = kb.add(a, c);
  EXPECT_FALSE(sum);
  ASSERT_TRUE(diags.onlyError("shapes [64] and [128] cannot be broadcast together"));
  EXPECT_TRUE(StringRef(diags.errors[0]).starts_with("loc(\"kernel.py\":7:12): "))
      << diags.errors[0];
  // The failure travels as a null value, without further diagnostics.
  EXPECT_FALSE(kb.mul(sum, a));
  EXPECT_FALSE(kb.exp(kb.cast(sum, kb.builder().getF32Type())));
  EXPECT_TRUE(failed(kb.store(kb.addptr(p, a), sum)));
  EXPECT_TRUE(failed(kb.forLoop(sum, sum, sum, {}, [](Value, ValueRange) {
    ADD_FAILURE() << "the body of a failed loop must not be built";
    return SmallVector<Value>();
  })));
  EXPECT_TRUE(failed(kb.call("mathx.softplus", {sum})));
  EXPECT_EQ(diags.errors.size(), 1u);
  // A kernel with an error is never handed on.
  EXPECT_FALSE(kb.finish());
  EXPECT_EQ(diags.errors.size(), 1u);
}

TEST(KernelBuilderErrors, NothingIsBuiltAfterFinish) {
  KernelBuilder kb("k");
  Diagnostics diags(kb.context());
  OwningOpRef<ModuleOp> module = kb.finish();
  ASSERT_TRUE(module);
  EXPECT_FALSE(kb.arange(0, 8));
  EXPECT_TRUE(diags.onlyError("the kernel is already finished"));
  EXPECT_FALSE(kb.finish());
  EXPECT_EQ(diags.errors.size(), 2u);
  EXPECT_TRUE(succeeded(verify(*module))); // untouched by the later calls
}

struct Misuse {
  const char *what;
  std::function<void(KernelBuilder &)> build;
  const char *error;
};

TEST(KernelBuilderErrors, EachMisuseIsOneDiagnostic) {
  auto ptr = [](KernelBuilder &kb) { return kb.pointerArg(kb.builder().getF32Type(), "p"); };
  auto ints = [](KernelBuilder &kb, int32_t n) { return kb.arange(0, n); };
  auto floats = [](KernelBuilder &kb, ArrayRef<int64_t> shape) {
    return kb.full(shape, 1.5, kb.builder().getF32Type());
  };
  const std::vector<Misuse> cases = {
      {"range of 100", [&](KernelBuilder &kb) { EXPECT_FALSE(kb.arange(0, 100)); },
       "has 100 elements; it must be a power of 2"},
      {"empty range", [&](KernelBuilder &kb) { EXPECT_FALSE(kb.arange(5, 5)); },
       "end (5) must be greater than start (5)"},
      {"grid axis 3", [&](KernelBuilder &kb) { EXPECT_FALSE(kb.programId(3)); },
       "grid axis must be 0, 1 or 2, got 3"},
      {"f32 + i32",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.add(kb.constFloat(1), kb.constInt(1))); },
       "operands have different element types, 'f32' and 'i32'"},
      {"bitwise and of floats",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.bitAnd(floats(kb, {8}), floats(kb, {8}))); },
       "bitAnd does not take operands of type 'f32'"},
      {"add of pointers",
       [&](KernelBuilder &kb) {
         Value p = ptr(kb);
         EXPECT_FALSE(kb.add(p, p));
       },
       "(use addptr for pointers)"},
      {"other without mask",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.load(ptr(kb), {}, kb.constFloat(0))); },
       "'other' needs a mask"},
      {"mask of i32",
       [&](KernelBuilder &kb) {
         Value i = ints(kb, 16);
         EXPECT_FALSE(kb.load(kb.addptr(ptr(kb), i), i));
       },
       "the mask must be i1, got 'tensor<16xi32>'"},
      {"mask wider than the pointers",
       [&](KernelBuilder &kb) {
         Value ptrs = kb.addptr(ptr(kb), ints(kb, 64));
         EXPECT_FALSE(kb.load(ptrs, kb.cmp(CmpKind::LT, ints(kb, 128), kb.constInt(3))));
       },
       "cannot broadcast [128] to [64]"},
      {"store of i32 through f32 pointers",
       [&](KernelBuilder &kb) { EXPECT_TRUE(failed(kb.store(ptr(kb), kb.constInt(1)))); },
       "the value must have the pointee type 'f32', got 'i32'"},
      {"dot with unequal inner dimensions",
       [&](KernelBuilder &kb) {
         EXPECT_FALSE(kb.dot(floats(kb, {16, 32}), floats(kb, {16, 16})));
       },
       "the inner dimensions 32 and 16 differ"},
      {"dot of vectors",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.dot(floats(kb, {16}), floats(kb, {16}))); },
       "dot takes two 2-D (or batched 3-D) tensors"},
      {"reduce along a missing axis",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.reduce(ints(kb, 16), 1, ReduceKind::Sum)); },
       "axis 1 is out of range for rank 1"},
      {"combine with no result",
       [&](KernelBuilder &kb) {
         EXPECT_TRUE(failed(kb.reduce(ValueRange{ints(kb, 16)}, 0, [](ValueRange, ValueRange) {
           return SmallVector<Value>();
         })));
       },
       "the combine function returned 0 values for 1 inputs"},
      {"combine returning a tensor",
       [&](KernelBuilder &kb) {
         Value t = ints(kb, 16);
         EXPECT_TRUE(failed(kb.reduce(
             ValueRange{t}, 0, [&](ValueRange, ValueRange) { return SmallVector<Value>{t}; })));
       },
       "combine result #0 must be a scalar 'i32', got 'tensor<16xi32>'"},
      {"loop-carried value changes type",
       [&](KernelBuilder &kb) {
         EXPECT_TRUE(
             failed(kb.forLoop(kb.constInt(0), kb.constInt(4), kb.constInt(1), {kb.constFloat(0)},
                               [](Value iv, ValueRange) { return SmallVector<Value>{iv}; })));
       },
       "loop-carried value #0 starts as 'f32' but the body returns 'i32'"},
      {"error inside a loop body",
       [&](KernelBuilder &kb) {
         EXPECT_TRUE(failed(
             kb.forLoop(kb.constInt(0), kb.constInt(4), kb.constInt(1), {}, [&](Value, ValueRange) {
               EXPECT_FALSE(kb.arange(0, 3));
               return SmallVector<Value>();
             })));
       },
       "has 3 elements; it must be a power of 2"},
      {"loop bounds of two types",
       [&](KernelBuilder &kb) {
         Value i64 = kb.constInt(4, kb.builder().getI64Type());
         EXPECT_TRUE(failed(kb.forLoop(kb.constInt(0), i64, kb.constInt(1), {},
                                       [](Value, ValueRange) { return SmallVector<Value>(); })));
       },
       "bounds and step must be integer scalars of one type, got 'i32', 'i64' and 'i32'"},
      {"reshape changing the count",
       [&](KernelBuilder &kb) {
         EXPECT_FALSE(kb.reshape(ints(kb, 64), {16, 8}));
       },
       "cannot reshape [64] into [16, 8]: element counts differ"},
      {"trans with a repeated dimension",
       [&](KernelBuilder &kb) {
         EXPECT_FALSE(kb.trans(floats(kb, {4, 8}), {0, 0}));
       },
       "order [0, 0] is not a permutation of the 2 dimensions"},
      {"expandDims past the end",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.expandDims(ints(kb, 8), 3)); },
       "axis 3 is out of range for rank 1"},
      {"constant too wide",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.constInt(300, kb.builder().getI8Type())); },
       "constant 300 does not fit in 'i8'"},
      {"fractional integer fill",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.full({4}, 0.5, kb.builder().getI32Type())); },
       "constant 0.5 is not an integer of type 'i32'"},
      {"fill of a non-power-of-2 shape",
       [&](KernelBuilder &kb) {
         EXPECT_FALSE(floats(kb, {4, 6}));
       },
       "dimension 1 of [4, 6] is 6; tensor dimensions must be powers of 2"},
      {"splat of a tensor", [&](KernelBuilder &kb) { EXPECT_FALSE(kb.splat(ints(kb, 8), {8})); },
       "splat takes a scalar, got 'tensor<8xi32>'"},
      {"null operand nobody explained",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.add(Value(), kb.constInt(1))); }, "null operand"},
      {"exp of integers", [&](KernelBuilder &kb) { EXPECT_FALSE(kb.exp(ints(kb, 8))); },
       "math functions take floats, got 'i32'"},
      {"select on an i32",
       [&](KernelBuilder &kb) {
         EXPECT_FALSE(kb.select(kb.constInt(1), kb.constInt(2), kb.constInt(3)));
       },
       "the condition must be i1, got 'i32'"},
      {"unknown plugin op",
       [&](KernelBuilder &kb) { EXPECT_TRUE(failed(kb.call("nosuch.op", {ints(kb, 8)}))); },
       "unknown kernel op 'nosuch.op'"},
      {"pointer to pointer",
       [&](KernelBuilder &kb) {
         Type p = tt::PointerType::get(kb.builder().getF32Type(), 1);
         EXPECT_FALSE(kb.pointerArg(p, "pp"));
       },
       "pointer argument 'pp' must point to an integer or float type"},
      {"divisibility on a float",
       [&](KernelBuilder &kb) { EXPECT_FALSE(kb.scalarArg(kb.builder().getF32Type(), "s", 16)); },
       "divisibility applies to integers, not 'f32'"},
  };
  for (const Misuse &c : cases) {
    SCOPED_TRACE(c.what);
    KernelBuilder kb("k");
    Diagnostics diags(kb.context());
    kb.setLoc(FileLineColLoc::get(&kb.context(), "misuse.py", 3, 1));
    c.build(kb);
    EXPECT_TRUE(diags.onlyError(c.error));
    if (!diags.errors.empty()) {
      EXPECT_TRUE(StringRef(diags.errors[0]).starts_with("loc(\"misuse.py\":3:1)"))
          << diags.errors[0];
    }
    EXPECT_FALSE(kb.finish());
    EXPECT_EQ(diags.errors.size(), 1u);
  }
}

} // namespace
