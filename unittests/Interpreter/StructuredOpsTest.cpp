//===- StructuredOpsTest.cpp - control flow, memory, tensors ----------------===//
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

TEST(Ops, ControlFlow) {
  // Collatz steps of n with scf.while, parity with scf.if, a sum with scf.for
  // and an early exit through cf branches, all scalar.
  Harness h(R"(
module {
  tt.func private @steps(%n: i32) -> i32 attributes {noinline = true} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %r:2 = scf.while (%v = %n, %s = %c0) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi ne, %v, %c1 : i32
      scf.condition(%more) %v, %s : i32, i32
    } do {
    ^bb0(%v: i32, %s: i32):
      %odd = arith.andi %v, %c1 : i32
      %isOdd = arith.cmpi ne, %odd, %c0 : i32
      %next = scf.if %isOdd -> (i32) {
        %t = arith.muli %v, %c3 : i32
        %u = arith.addi %t, %c1 : i32
        scf.yield %u : i32
      } else {
        %h = arith.divsi %v, %c2 : i32
        scf.yield %h : i32
      }
      %s1 = arith.addi %s, %c1 : i32
      scf.yield %next, %s1 : i32, i32
    }
    tt.return %r#1 : i32
  }
  tt.func public @k(%out: !tt.ptr<i32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %neg = arith.cmpi slt, %n, %c0 : i32
    cf.cond_br %neg, ^bail, ^work
  ^work:
    %st = tt.call @steps(%n) : (i32) -> i32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
      %a = arith.addi %acc, %i : i32
      scf.yield %a : i32
    }
    %p1 = tt.addptr %out, %c1 : !tt.ptr<i32>, i32
    gpu.barrier
    tt.store %out, %st : !tt.ptr<i32>
    tt.store %p1, %sum : !tt.ptr<i32>
    cf.br ^bail
  ^bail:
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned out = h.buffer("out", ElemKind::I32, std::vector<int32_t>{-5, -5});
  EXPECT_EQ(h.run("k", {h.ptr(out), i32(27)}), "");
  EXPECT_EQ(h.read<int32_t>(out), (std::vector<int32_t>{111, 351}));
  unsigned untouched = h.buffer("u", ElemKind::I32, std::vector<int32_t>{-5, -5});
  EXPECT_EQ(h.run("k", {h.ptr(untouched), i32(-1)}), "");
  EXPECT_EQ(h.read<int32_t>(untouched), (std::vector<int32_t>{-5, -5}));
}

/// An argmin over each row of a 3x5 i32 matrix (multi-operand reduce, odd
/// sizes), its sum along axis 0, and the same argmin with an scf.if in the
/// combine region (run element by element) must agree.
const char *kReduceKernel = R"(
module {
  tt.func public @k(%x: !tt.ptr<i32>, %idx: !tt.ptr<i32>, %idx2: !tt.ptr<i32>, %sum: !tt.ptr<i32>) {
    %r15 = tt.make_range {end = 15 : i32, start = 0 : i32} : tensor<15xi32>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<15x!tt.ptr<i32>>
    %xa = tt.addptr %xp, %r15 : tensor<15x!tt.ptr<i32>>, tensor<15xi32>
    %flat = tt.load %xa : tensor<15x!tt.ptr<i32>>
    %m = tt.reshape %flat : tensor<15xi32> -> tensor<3x5xi32>
    %r5 = tt.make_range {end = 5 : i32, start = 0 : i32} : tensor<5xi32>
    %c0 = tt.expand_dims %r5 {axis = 0 : i32} : tensor<5xi32> -> tensor<1x5xi32>
    %cols = tt.broadcast %c0 : tensor<1x5xi32> -> tensor<3x5xi32>
    %best:2 = "tt.reduce"(%m, %cols) <{axis = 1 : i32}> ({
    ^bb0(%v0: i32, %i0: i32, %v1: i32, %i1: i32):
      %lt = arith.cmpi slt, %v1, %v0 : i32
      %eq = arith.cmpi eq, %v1, %v0 : i32
      %il = arith.cmpi slt, %i1, %i0 : i32
      %tie = arith.andi %eq, %il : i1
      %take = arith.ori %lt, %tie : i1
      %v = arith.select %take, %v1, %v0 : i32
      %i = arith.select %take, %i1, %i0 : i32
      tt.reduce.return %v, %i : i32, i32
    }) : (tensor<3x5xi32>, tensor<3x5xi32>) -> (tensor<3xi32>, tensor<3xi32>)
    %best2:2 = "tt.reduce"(%m, %cols) <{axis = 1 : i32}> ({
    ^bb0(%v0: i32, %i0: i32, %v1: i32, %i1: i32):
      %lt = arith.cmpi slt, %v1, %v0 : i32
      %r:2 = scf.if %lt -> (i32, i32) {
        scf.yield %v1, %i1 : i32, i32
      } else {
        %eq = arith.cmpi eq, %v1, %v0 : i32
        %il = arith.cmpi slt, %i1, %i0 : i32
        %tie = arith.andi %eq, %il : i1
        %v = arith.select %tie, %v1, %v0 : i32
        %i = arith.select %tie, %i1, %i0 : i32
        scf.yield %v, %i : i32, i32
      }
      tt.reduce.return %r#0, %r#1 : i32, i32
    }) : (tensor<3x5xi32>, tensor<3x5xi32>) -> (tensor<3xi32>, tensor<3xi32>)
    %s = "tt.reduce"(%m) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }) : (tensor<3x5xi32>) -> tensor<5xi32>
    %r3 = tt.make_range {end = 3 : i32, start = 0 : i32} : tensor<3xi32>
    %ip = tt.splat %idx : !tt.ptr<i32> -> tensor<3x!tt.ptr<i32>>
    %ia = tt.addptr %ip, %r3 : tensor<3x!tt.ptr<i32>>, tensor<3xi32>
    tt.store %ia, %best#1 : tensor<3x!tt.ptr<i32>>
    %jp = tt.splat %idx2 : !tt.ptr<i32> -> tensor<3x!tt.ptr<i32>>
    %ja = tt.addptr %jp, %r3 : tensor<3x!tt.ptr<i32>>, tensor<3xi32>
    tt.store %ja, %best2#1 : tensor<3x!tt.ptr<i32>>
    %sp = tt.splat %sum : !tt.ptr<i32> -> tensor<5x!tt.ptr<i32>>
    %sa = tt.addptr %sp, %r5 : tensor<5x!tt.ptr<i32>>, tensor<5xi32>
    tt.store %sa, %s : tensor<5x!tt.ptr<i32>>
    tt.return
  }
}
)";

TEST(Ops, ReduceWithSeveralOperandsAndAnyRegion) {
  Harness h(kReduceKernel);
  ASSERT_TRUE(h.parsed());
  std::vector<int32_t> x = {4, 2, 9, 2, 7, /**/ 0, 0, -1, 5, -1, /**/ 8, 8, 8, 8, 3};
  unsigned ix = h.buffer("x", ElemKind::I32, x), ii = h.buffer("i", ElemKind::I32, std::vector<int32_t>(3)),
           ij = h.buffer("j", ElemKind::I32, std::vector<int32_t>(3)),
           is = h.buffer("s", ElemKind::I32, std::vector<int32_t>(5));
  EXPECT_EQ(h.run("k", {h.ptr(ix), h.ptr(ii), h.ptr(ij), h.ptr(is)}), "");
  EXPECT_EQ(h.read<int32_t>(ii), (std::vector<int32_t>{1, 2, 4}));
  EXPECT_EQ(h.read<int32_t>(ij), (std::vector<int32_t>{1, 2, 4}));
  EXPECT_EQ(h.read<int32_t>(is), (std::vector<int32_t>{12, 10, 16, 15, 9}));
}

TEST(Ops, ScanForwardReverseAndNonCommutative) {
  // Row-wise inclusive sums forward and reverse, plus a scan whose combine is
  // associative but not commutative (keep the left-most non-zero value), on
  // a 2x6 tensor.
  Harness h(R"(
module {
  tt.func public @k(%x: !tt.ptr<i32>, %f: !tt.ptr<i32>, %r: !tt.ptr<i32>, %l: !tt.ptr<i32>) {
    %r12 = tt.make_range {end = 12 : i32, start = 0 : i32} : tensor<12xi32>
    %xp = tt.splat %x : !tt.ptr<i32> -> tensor<12x!tt.ptr<i32>>
    %xa = tt.addptr %xp, %r12 : tensor<12x!tt.ptr<i32>>, tensor<12xi32>
    %v = tt.load %xa : tensor<12x!tt.ptr<i32>>
    %m = tt.reshape %v : tensor<12xi32> -> tensor<2x6xi32>
    %fw = "tt.scan"(%m) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<2x6xi32>) -> tensor<2x6xi32>
    %rv = "tt.scan"(%m) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<2x6xi32>) -> tensor<2x6xi32>
    %lm = "tt.scan"(%m) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %c0 = arith.constant 0 : i32
      %nz = arith.cmpi ne, %a, %c0 : i32
      %s = arith.select %nz, %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<2x6xi32>) -> tensor<2x6xi32>
    %f1 = tt.reshape %fw : tensor<2x6xi32> -> tensor<12xi32>
    %r1 = tt.reshape %rv : tensor<2x6xi32> -> tensor<12xi32>
    %l1 = tt.reshape %lm : tensor<2x6xi32> -> tensor<12xi32>
    %fp = tt.splat %f : !tt.ptr<i32> -> tensor<12x!tt.ptr<i32>>
    %fa = tt.addptr %fp, %r12 : tensor<12x!tt.ptr<i32>>, tensor<12xi32>
    tt.store %fa, %f1 : tensor<12x!tt.ptr<i32>>
    %rp = tt.splat %r : !tt.ptr<i32> -> tensor<12x!tt.ptr<i32>>
    %ra = tt.addptr %rp, %r12 : tensor<12x!tt.ptr<i32>>, tensor<12xi32>
    tt.store %ra, %r1 : tensor<12x!tt.ptr<i32>>
    %lp = tt.splat %l : !tt.ptr<i32> -> tensor<12x!tt.ptr<i32>>
    %la = tt.addptr %lp, %r12 : tensor<12x!tt.ptr<i32>>, tensor<12xi32>
    tt.store %la, %l1 : tensor<12x!tt.ptr<i32>>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  std::vector<int32_t> x = {1, 2, 3, 4, 5, 6, 0, 0, 7, 0, 9, 1};
  unsigned ix = h.buffer("x", ElemKind::I32, x), f = h.buffer("f", ElemKind::I32, std::vector<int32_t>(12)),
           r = h.buffer("r", ElemKind::I32, std::vector<int32_t>(12)),
           l = h.buffer("l", ElemKind::I32, std::vector<int32_t>(12));
  EXPECT_EQ(h.run("k", {h.ptr(ix), h.ptr(f), h.ptr(r), h.ptr(l)}), "");
  EXPECT_EQ(h.read<int32_t>(f), (std::vector<int32_t>{1, 3, 6, 10, 15, 21, 0, 0, 7, 7, 16, 17}));
  EXPECT_EQ(h.read<int32_t>(r), (std::vector<int32_t>{21, 20, 18, 15, 11, 6, 17, 17, 17, 10, 10, 1}));
  EXPECT_EQ(h.read<int32_t>(l), (std::vector<int32_t>{1, 1, 1, 1, 1, 1, 0, 0, 7, 7, 7, 7}));
}

TEST(Ops, ShapeOps) {
  // trans, join, split, cat, broadcast and expand_dims on small tensors;
  // the result is flattened into one output of 24 elements.
  Harness h(R"(
module {
  tt.func public @k(%o: !tt.ptr<i32>) {
    %r6 = tt.make_range {end = 6 : i32, start = 0 : i32} : tensor<6xi32>
    %m = tt.reshape %r6 : tensor<6xi32> -> tensor<2x3xi32>
    %t = tt.trans %m {order = array<i32: 1, 0>} : tensor<2x3xi32> -> tensor<3x2xi32>
    %t1 = tt.reshape %t : tensor<3x2xi32> -> tensor<6xi32>
    %j = tt.join %r6, %t1 : tensor<6xi32> -> tensor<6x2xi32>
    %j1 = tt.reshape %j : tensor<6x2xi32> -> tensor<12xi32>
    %a, %b = tt.split %j : tensor<6x2xi32> -> tensor<6xi32>
    %d = arith.subi %b, %a : tensor<6xi32>
    %cat = tt.cat %d, %r6 : tensor<6xi32> -> tensor<12xi32>
    %c2 = arith.addi %cat, %j1 : tensor<12xi32>
    %e = tt.expand_dims %c2 {axis = 0 : i32} : tensor<12xi32> -> tensor<1x12xi32>
    %bc = tt.broadcast %e : tensor<1x12xi32> -> tensor<2x12xi32>
    %out = tt.reshape %bc : tensor<2x12xi32> -> tensor<24xi32>
    %r24 = tt.make_range {end = 24 : i32, start = 0 : i32} : tensor<24xi32>
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<24x!tt.ptr<i32>>
    %oa = tt.addptr %op, %r24 : tensor<24x!tt.ptr<i32>>, tensor<24xi32>
    tt.store %oa, %out : tensor<24x!tt.ptr<i32>>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned o = h.buffer("o", ElemKind::I32, std::vector<int32_t>(24));
  EXPECT_EQ(h.run("k", {h.ptr(o)}), "");
  // t1 = [0,3,1,4,2,5]; j1 = [0,0,1,3,2,1,3,4,4,2,5,5]; d = t1 - r6 =
  // [0,2,-1,1,-2,0]; cat = d ++ r6.
  std::vector<int32_t> j1 = {0, 0, 1, 3, 2, 1, 3, 4, 4, 2, 5, 5};
  std::vector<int32_t> cat = {0, 2, -1, 1, -2, 0, 0, 1, 2, 3, 4, 5};
  std::vector<int32_t> want;
  for (int rep = 0; rep < 2; ++rep)
    for (int i = 0; i < 12; ++i)
      want.push_back(cat[i] + j1[i]);
  EXPECT_EQ(h.read<int32_t>(o), want);
}

TEST(Ops, GatherHistogramAndGatherBounds) {
  const char *src = R"(
module {
  tt.func public @k(%x: !tt.ptr<f32>, %i: !tt.ptr<i32>, %y: !tt.ptr<f32>, %h: !tt.ptr<i32>) {
    %r8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r8 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %xv = tt.load %xa : tensor<8x!tt.ptr<f32>>
    %ip = tt.splat %i : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %ia = tt.addptr %ip, %r8 : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %iv = tt.load %ia : tensor<8x!tt.ptr<i32>>
    %m = tt.reshape %xv : tensor<8xf32> -> tensor<2x4xf32>
    %mi = tt.reshape %iv : tensor<8xi32> -> tensor<2x4xi32>
    %g = tt.gather %m[%mi] {axis = 1 : i32} : (tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<2x4xf32>
    %g1 = tt.reshape %g : tensor<2x4xf32> -> tensor<8xf32>
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %r8 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %ya, %g1 : tensor<8x!tt.ptr<f32>>
    %c6 = arith.constant dense<6> : tensor<8xi32>
    %mask = arith.cmpi slt, %r8, %c6 : tensor<8xi32>
    %hist = tt.histogram %iv, %mask : tensor<8xi32> -> tensor<4xi32>
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %hp = tt.splat %h : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %ha = tt.addptr %hp, %r4 : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    tt.store %ha, %hist : tensor<4x!tt.ptr<i32>>
    tt.return
  }
}
)";
  Harness h(src);
  ASSERT_TRUE(h.parsed());
  unsigned x = h.buffer("x", ElemKind::F32, std::vector<float>{10, 11, 12, 13, 20, 21, 22, 23});
  unsigned i = h.buffer("i", ElemKind::I32, std::vector<int32_t>{3, 3, 0, 1, 2, 1, 1, 0});
  unsigned y = h.buffer("y", ElemKind::F32, std::vector<float>(8));
  unsigned hi = h.buffer("h", ElemKind::I32, std::vector<int32_t>(4));
  EXPECT_EQ(h.run("k", {h.ptr(x), h.ptr(i), h.ptr(y), h.ptr(hi)}), "");
  EXPECT_EQ(h.read<float>(y), (std::vector<float>{13, 13, 10, 11, 22, 21, 21, 20}));
  EXPECT_EQ(h.read<int32_t>(hi), (std::vector<int32_t>{1, 2, 1, 2})); // first 6 only

  Harness bad(src);
  x = bad.buffer("x", ElemKind::F32, std::vector<float>(8));
  i = bad.buffer("i", ElemKind::I32, std::vector<int32_t>{0, 0, 0, 0, 0, 4, 0, 0});
  y = bad.buffer("y", ElemKind::F32, std::vector<float>(8));
  hi = bad.buffer("h", ElemKind::I32, std::vector<int32_t>(4));
  std::string err = bad.run("k", {bad.ptr(x), bad.ptr(i), bad.ptr(y), bad.ptr(hi)});
  EXPECT_NE(err.find("error: tt.gather in program (0, 0, 0): element [1, 1]: index 4 is "
                     "outside [0, 4) along axis 1"),
            std::string::npos)
      << err;
}

TEST(Ops, AtomicsGiveTheSequentialResult) {
  // Every program adds 1 at idx[i] for every unmasked lane (duplicates
  // included) and records the old values; then a CAS chain and max/xchg.
  Harness h(R"(
module {
  tt.func public @k(%cnt: !tt.ptr<i32>, %idx: !tt.ptr<i32>, %old: !tt.ptr<i32>, %f: !tt.ptr<f32>, %cas: !tt.ptr<i32>) {
    %r8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ip = tt.splat %idx : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %ia = tt.addptr %ip, %r8 : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %iv = tt.load %ia : tensor<8x!tt.ptr<i32>>
    %cp = tt.splat %cnt : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %ca = tt.addptr %cp, %iv : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %one = arith.constant dense<1> : tensor<8xi32>
    %c7 = arith.constant dense<7> : tensor<8xi32>
    %mask = arith.cmpi slt, %r8, %c7 : tensor<8xi32>
    %prev = tt.atomic_rmw add, acq_rel, gpu, %ca, %one, %mask : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>, tensor<8xi1>) -> tensor<8xi32>
    %pid = tt.get_program_id x : i32
    %c8 = arith.constant 8 : i32
    %base = arith.muli %pid, %c8 : i32
    %ob = tt.addptr %old, %base : !tt.ptr<i32>, i32
    %op = tt.splat %ob : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %oa = tt.addptr %op, %r8 : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    tt.store %oa, %prev : tensor<8x!tt.ptr<i32>>
    %half = arith.constant 0.5 : f32
    %fo = tt.atomic_rmw fadd, relaxed, gpu, %f, %half : (!tt.ptr<f32>, f32) -> f32
    %pidf = arith.sitofp %pid : i32 to f32
    %f1 = tt.addptr %f, %c8 : !tt.ptr<f32>, i32
    %mo = tt.atomic_rmw max, relaxed, gpu, %f1, %pidf : (!tt.ptr<f32>, f32) -> f32
    %p1 = arith.addi %pid, %pid : i32
    %got = tt.atomic_cas acq_rel, gpu, %cas, %pid, %p1 : (!tt.ptr<i32>, i32, i32) -> i32
    %c1 = arith.constant 1 : i32
    %cas1 = tt.addptr %cas, %c1 : !tt.ptr<i32>, i32
    %x = tt.atomic_rmw exch, relaxed, gpu, %cas1, %pid : (!tt.ptr<i32>, i32) -> i32
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned cnt = h.buffer("cnt", ElemKind::I32, std::vector<int32_t>(4));
  unsigned idx = h.buffer("idx", ElemKind::I32, std::vector<int32_t>{0, 1, 0, 3, 0, 1, 2, 3});
  unsigned old = h.buffer("old", ElemKind::I32, std::vector<int32_t>(24, -9));
  unsigned f = h.buffer("f", ElemKind::F32, std::vector<float>(9, 0.0f));
  unsigned cas = h.buffer("cas", ElemKind::I32, std::vector<int32_t>{0, -1});
  EXPECT_EQ(h.run("k", {h.ptr(cnt), h.ptr(idx), h.ptr(old), h.ptr(f), h.ptr(cas)}, {3, 1, 1}), "");
  // Lane 7 is masked off: idx 3 gets one add per program.
  EXPECT_EQ(h.read<int32_t>(cnt), (std::vector<int32_t>{9, 6, 3, 3}));
  std::vector<int32_t> want;
  for (int p = 0; p < 3; ++p) {
    std::vector<int32_t> o = {3 * p, 2 * p, 3 * p + 1, p, 3 * p + 2, 2 * p + 1, p, 0};
    want.insert(want.end(), o.begin(), o.end());
  }
  EXPECT_EQ(h.read<int32_t>(old), want);
  auto fv = h.read<float>(f);
  EXPECT_EQ(fv[0], 1.5f);
  EXPECT_EQ(fv[8], 2.0f);
  // CAS: pid 0 swaps 0 -> 0, pid 1 sees 0 != 1, pid 2 sees 0 != 2.
  EXPECT_EQ(h.read<int32_t>(cas), (std::vector<int32_t>{0, 2}));
}

TEST(Ops, AtomicsOnNarrowAndWideFloats) {
  // rmwStep decodes and rounds in the element's own format.
  Harness h(R"(
module {
  tt.func public @k(%h: !tt.ptr<f16>, %d: !tt.ptr<f64>, %b: !tt.ptr<bf16>) {
    %x = arith.constant 1.0e-3 : f16
    %y = arith.constant 0.1 : f64
    %z = arith.constant -3.0 : bf16
    %0 = tt.atomic_rmw fadd, relaxed, gpu, %h, %x : (!tt.ptr<f16>, f16) -> f16
    %1 = tt.atomic_rmw fadd, relaxed, gpu, %d, %y : (!tt.ptr<f64>, f64) -> f64
    %2 = tt.atomic_rmw min, relaxed, gpu, %b, %z : (!tt.ptr<bf16>, bf16) -> bf16
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned hb = h.buffer("h", ElemKind::F16, std::vector<uint16_t>{0x3c00}); // 1.0
  unsigned db = h.buffer("d", ElemKind::F64, std::vector<double>{0.2});
  unsigned bb = h.buffer("b", ElemKind::BF16, std::vector<uint16_t>{0x3f80}); // 1.0
  EXPECT_EQ(h.run("k", {h.ptr(hb), h.ptr(db), h.ptr(bb)}, {3, 1, 1}), "");
  // 1 + 3 * 0.001 in f32 then f16 after each step: 1.0 + 2^-10 three times.
  EXPECT_EQ(h.read<uint16_t>(hb)[0], 0x3c03);
  EXPECT_EQ(h.read<double>(db)[0], 0.2 + 0.1 + 0.1 + 0.1);
  EXPECT_EQ(h.read<uint16_t>(bb)[0], 0xc040); // -3.0
}

TEST(Ops, UnsignedForReadsItsBoundsUnsigned) {
  // 0x7FFFFFF0 to 0x80000005 unsigned is 21 iterations; read signed, the
  // bound would be negative and the loop would not stop.
  Harness h(R"(
module {
  tt.func public @k(%out: !tt.ptr<i32>) {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %lb = arith.constant 2147483632 : i32
    %ub = arith.constant -2147483643 : i32
    %n = scf.for unsigned %i = %lb to %ub step %one iter_args(%c = %z) -> (i32) : i32 {
      %c1 = arith.addi %c, %one : i32
      scf.yield %c1 : i32
    }
    tt.store %out, %n : !tt.ptr<i32>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned out = h.buffer("out", ElemKind::I32, std::vector<int32_t>{-1});
  EXPECT_EQ(h.run("k", {h.ptr(out)}), "");
  EXPECT_EQ(h.read<int32_t>(out)[0], 21);
}

TEST(Ops, UnsupportedTypesAreErrorsNotCrashes) {
  Harness h(R"(
module {
  tt.func public @i4() {
    %c = arith.constant 3 : i4
    tt.return
  }
  tt.func public @sel(%x: !tt.ptr<f32>, %c: i1) {
    %i0 = arith.constant 0 : i32
    %l1 = arith.constant 1 : i64
    %p = tt.make_tensor_ptr %x, [%l1], [%l1], [%i0] {order = array<i32: 0>} : <tensor<8xf32>>
    %s = arith.select %c, %p, %p : !tt.ptr<tensor<8xf32>>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  EXPECT_NE(h.run("i4", {}, {1, 2, 1})
                .find(":4:10: error: arith.constant in program (0, 0, 0): unsupported element "
                      "type i4 in the interpreter"),
            std::string::npos);
  unsigned x = h.buffer("x", ElemKind::F32, std::vector<float>(8, 0.0f));
  EXPECT_NE(h.run("sel", {h.ptr(x), Tensor::scalarInt(ElemKind::I1, 1)})
                .find("arith.select in program (0, 0, 0): block pointer values "
                      "(!tt.ptr<tensor<8xf32>>) are not supported by this op"),
            std::string::npos);
}

TEST(Ops, BlockPointersCheckBoundariesAndPad) {
  // A 4x4 block at (3, 1) of a 5x3 row-major matrix, checked on both
  // dimensions (padding NaN), then advanced by (-3, -1) and stored back
  // with boundary checks.
  Harness h(R"(
module {
  tt.func public @k(%m: !tt.ptr<f32>, %o: !tt.ptr<f32>, %w: !tt.ptr<f32>) {
    %c5 = arith.constant 5 : i64
    %c3 = arith.constant 3 : i64
    %c1 = arith.constant 1 : i64
    %i3 = arith.constant 3 : i32
    %i1 = arith.constant 1 : i32
    %in3 = arith.constant -3 : i32
    %in1 = arith.constant -1 : i32
    %p = tt.make_tensor_ptr %m, [%c5, %c3], [%c3, %c1], [%i3, %i1] {order = array<i32: 1, 0>} : <tensor<4x4xf32>>
    %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<4x4xf32>>
    %flat = tt.reshape %v : tensor<4x4xf32> -> tensor<16xf32>
    %r16 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %oa = tt.addptr %op, %r16 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %oa, %flat : tensor<16x!tt.ptr<f32>>
    %q = tt.make_tensor_ptr %w, [%c5, %c3], [%c3, %c1], [%i3, %i1] {order = array<i32: 1, 0>} : <tensor<4x4xf32>>
    %q2 = tt.advance %q, [%in3, %in1] : <tensor<4x4xf32>>
    tt.store %q2, %v {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<4x4xf32>>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  std::vector<float> m(15);
  for (int i = 0; i < 15; ++i)
    m[i] = float(i);
  unsigned im = h.buffer("m", ElemKind::F32, m), io = h.buffer("o", ElemKind::F32, std::vector<float>(16)),
           iw = h.buffer("w", ElemKind::F32, std::vector<float>(15, -1.0f));
  EXPECT_EQ(h.run("k", {h.ptr(im), h.ptr(io), h.ptr(iw)}), "");
  auto o = h.read<float>(io);
  // Rows 3, 4 are in bounds (then 5, 6 are not); columns 1, 2 (then 3, 4 not).
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      float got = o[r * 4 + c];
      if (r < 2 && c < 2)
        EXPECT_EQ(got, float((3 + r) * 3 + 1 + c));
      else
        EXPECT_TRUE(std::isnan(got)) << r << "," << c;
    }
  auto w = h.read<float>(iw);
  // The block at (0, 0) covers rows 0-3 and columns 0-2 of w.
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 3; ++c) {
      float want = r < 4 ? o[r * 4 + c] : -1.0f;
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(w[r * 3 + c]));
      else
        EXPECT_EQ(w[r * 3 + c], want) << r << "," << c;
    }
}

TEST(Ops, TensorDescriptorsZeroOutOfBounds) {
  // Descriptor made in the kernel over a 5x3 i32 matrix: a 2x4 block at
  // (4, 1) reads zeros outside; storing a block at (-1, 2) writes only the
  // in-bounds elements.
  Harness h(R"(
module {
  tt.func public @k(%m: !tt.ptr<i32>, %o: !tt.ptr<i32>) {
    %c5 = arith.constant 5 : i32
    %c3 = arith.constant 3 : i32
    %s3 = arith.constant 3 : i64
    %s1 = arith.constant 1 : i64
    %i4 = arith.constant 4 : i32
    %i1 = arith.constant 1 : i32
    %im1 = arith.constant -1 : i32
    %i2 = arith.constant 2 : i32
    %d = tt.make_tensor_descriptor %m, [%c5, %c3], [%s3, %s1] : !tt.ptr<i32>, !tt.tensordesc<tensor<2x4xi32>>
    %v = tt.descriptor_load %d[%i4, %i1] : !tt.tensordesc<tensor<2x4xi32>> -> tensor<2x4xi32>
    %flat = tt.reshape %v : tensor<2x4xi32> -> tensor<8xi32>
    %r8 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %oa = tt.addptr %op, %r8 : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    tt.store %oa, %flat : tensor<8x!tt.ptr<i32>>
    %k = arith.constant dense<100> : tensor<2x4xi32>
    tt.descriptor_store %d[%im1, %i2], %k : !tt.tensordesc<tensor<2x4xi32>>, tensor<2x4xi32>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  std::vector<int32_t> m(15);
  for (int i = 0; i < 15; ++i)
    m[i] = i + 1;
  unsigned im = h.buffer("m", ElemKind::I32, m), io = h.buffer("o", ElemKind::I32, std::vector<int32_t>(8, -7));
  EXPECT_EQ(h.run("k", {h.ptr(im), h.ptr(io)}), "");
  EXPECT_EQ(h.read<int32_t>(io), (std::vector<int32_t>{14, 15, 0, 0, 0, 0, 0, 0}));
  auto after = h.read<int32_t>(im);
  for (int i = 0; i < 15; ++i)
    EXPECT_EQ(after[i], i == 2 ? 100 : i + 1) << i;
}

TEST(Ops, DotAccumulatesInTheAccumulatorType) {
  auto kernel = [](const std::string &in, const std::string &acc, int m, int k, int n) {
    std::string s = R"(
module {
  tt.func public @k(%a: !tt.ptr<$I>, %b: !tt.ptr<$I>, %c: !tt.ptr<$C>) {
    %ra = tt.make_range {end = $MK : i32, start = 0 : i32} : tensor<$MKxi32>
    %rb = tt.make_range {end = $KN : i32, start = 0 : i32} : tensor<$KNxi32>
    %rc = tt.make_range {end = $MN : i32, start = 0 : i32} : tensor<$MNxi32>
    %ap = tt.splat %a : !tt.ptr<$I> -> tensor<$MKx!tt.ptr<$I>>
    %aa = tt.addptr %ap, %ra : tensor<$MKx!tt.ptr<$I>>, tensor<$MKxi32>
    %bp = tt.splat %b : !tt.ptr<$I> -> tensor<$KNx!tt.ptr<$I>>
    %ba = tt.addptr %bp, %rb : tensor<$KNx!tt.ptr<$I>>, tensor<$KNxi32>
    %cp = tt.splat %c : !tt.ptr<$C> -> tensor<$MNx!tt.ptr<$C>>
    %ca = tt.addptr %cp, %rc : tensor<$MNx!tt.ptr<$C>>, tensor<$MNxi32>
    %av = tt.load %aa : tensor<$MKx!tt.ptr<$I>>
    %bv = tt.load %ba : tensor<$KNx!tt.ptr<$I>>
    %cv = tt.load %ca : tensor<$MNx!tt.ptr<$C>>
    %am = tt.reshape %av : tensor<$MKx$I> -> tensor<$Mx$Kx$I>
    %bm = tt.reshape %bv : tensor<$KNx$I> -> tensor<$Kx$Nx$I>
    %cm = tt.reshape %cv : tensor<$MNx$C> -> tensor<$Mx$Nx$C>
    %d = tt.dot %am, %bm, %cm : tensor<$Mx$Kx$I> * tensor<$Kx$Nx$I> -> tensor<$Mx$Nx$C>
    %df = tt.reshape %d : tensor<$Mx$Nx$C> -> tensor<$MNx$C>
    tt.store %ca, %df : tensor<$MNx!tt.ptr<$C>>
    tt.return
  }
}
)";
    s = replaceAll(s, "$MK", std::to_string(m * k));
    s = replaceAll(s, "$KN", std::to_string(k * n));
    s = replaceAll(s, "$MN", std::to_string(m * n));
    s = replaceAll(s, "$M", std::to_string(m));
    s = replaceAll(s, "$K", std::to_string(k));
    s = replaceAll(s, "$N", std::to_string(n));
    s = replaceAll(s, "$I", in);
    return replaceAll(s, "$C", acc);
  };
  {
    Harness h(kernel("i8", "i32", 2, 3, 2));
    ASSERT_TRUE(h.parsed());
    unsigned a = h.buffer("a", ElemKind::I8, std::vector<int8_t>{-128, 127, 3, 1, -1, 2});
    unsigned b = h.buffer("b", ElemKind::I8, std::vector<int8_t>{-128, 1, 127, -2, 5, 6});
    unsigned c = h.buffer("c", ElemKind::I32, std::vector<int32_t>{1, 2, 3, 4});
    EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(b), h.ptr(c)}), "");
    EXPECT_EQ(h.read<int32_t>(c), (std::vector<int32_t>{
                                      1 + 16384 + 16129 + 15, 2 - 128 - 254 + 18,
                                      3 - 128 - 127 + 10, 4 + 1 + 2 + 12}));
  }
  {
    // f16 accumulator: 2048 + 1 + 1 rounds after each step (2048 + 1 is a
    // tie that stays 2048), so the result is 2048, not 2050.
    Harness h(kernel("f16", "f16", 1, 2, 1));
    ASSERT_TRUE(h.parsed());
    unsigned a = h.buffer("a", ElemKind::F16, std::vector<uint16_t>{0x3c00, 0x3c00});
    unsigned b = h.buffer("b", ElemKind::F16, std::vector<uint16_t>{0x3c00, 0x3c00});
    unsigned c = h.buffer("c", ElemKind::F16, std::vector<uint16_t>{0x6800}); // 2048
    EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(b), h.ptr(c)}), "");
    EXPECT_EQ(h.read<uint16_t>(c)[0], 0x6800);
  }
  {
    Harness h(kernel("f32", "f32", 4, 8, 4));
    ASSERT_TRUE(h.parsed());
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<float> av(32), bv(32), cv(16);
    for (float &v : av) v = u(rng);
    for (float &v : bv) v = u(rng);
    for (float &v : cv) v = u(rng);
    unsigned a = h.buffer("a", ElemKind::F32, av), b = h.buffer("b", ElemKind::F32, bv),
             c = h.buffer("c", ElemKind::F32, cv);
    EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(b), h.ptr(c)}), "");
    auto d = h.read<float>(c);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double ref = cv[i * 4 + j];
        for (int kk = 0; kk < 8; ++kk)
          ref += double(av[i * 8 + kk]) * bv[kk * 4 + j];
        EXPECT_NEAR(d[i * 4 + j], ref, 1e-5);
      }
  }
}

TEST(Ops, DotScaledDecodesFp4AndScales) {
  // lhs: e2m1, two values per byte along K (low nibble 0.5, high nibble
  // 1.0), one e8m0 scale per 32 elements of K (2^0 for row 0, 2^1 for row
  // 1); rhs: f16 ones.
  Harness h(R"(
module {
  tt.func public @k(%a: !tt.ptr<i8>, %s: !tt.ptr<i8>, %b: !tt.ptr<f16>, %o: !tt.ptr<f32>) {
    %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %r64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r2 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %ap = tt.splat %a : !tt.ptr<i8> -> tensor<32x!tt.ptr<i8>>
    %aa = tt.addptr %ap, %r32 : tensor<32x!tt.ptr<i8>>, tensor<32xi32>
    %av = tt.load %aa : tensor<32x!tt.ptr<i8>>
    %am = tt.reshape %av : tensor<32xi8> -> tensor<2x16xi8>
    %sp = tt.splat %s : !tt.ptr<i8> -> tensor<2x!tt.ptr<i8>>
    %sa = tt.addptr %sp, %r2 : tensor<2x!tt.ptr<i8>>, tensor<2xi32>
    %sv = tt.load %sa : tensor<2x!tt.ptr<i8>>
    %sm = tt.reshape %sv : tensor<2xi8> -> tensor<2x1xi8>
    %bp = tt.splat %b : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
    %ba = tt.addptr %bp, %r64 : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
    %bv = tt.load %ba : tensor<64x!tt.ptr<f16>>
    %bm = tt.reshape %bv : tensor<64xf16> -> tensor<32x2xf16>
    %c = arith.constant dense<0.0> : tensor<2x2xf32>
    %d = tt.dot_scaled %am scale %sm, %bm, %c lhs = e2m1 rhs = fp16 {fastMath = false} : tensor<2x16xi8>, tensor<2x1xi8> * tensor<32x2xf16> -> tensor<2x2xf32>
    %df = tt.reshape %d : tensor<2x2xf32> -> tensor<4xf32>
    %op = tt.splat %o : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %oa = tt.addptr %op, %r4 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %oa, %df : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned a = h.buffer("a", ElemKind::I8, std::vector<uint8_t>(32, 0x21));
  unsigned s = h.buffer("s", ElemKind::I8, std::vector<uint8_t>{127, 128});
  unsigned b = h.buffer("b", ElemKind::F16, std::vector<uint16_t>(64, 0x3c00));
  unsigned o = h.buffer("o", ElemKind::F32, std::vector<float>(4));
  EXPECT_EQ(h.run("k", {h.ptr(a), h.ptr(s), h.ptr(b), h.ptr(o)}), "");
  EXPECT_EQ(h.read<float>(o), (std::vector<float>{24, 24, 48, 48}));
}

TEST(Ops, ErrorsNameLocationProgramAndElement) {
  Harness h(R"(
module {
  tt.func public @k(%x: !tt.ptr<f32>) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %pid = tt.get_program_id y : i32
    %b = tt.splat %pid : i32 -> tensor<4xi32>
    %o = arith.addi %r, %b : tensor<4xi32>
    %xp = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %o : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = tt.load %xa : tensor<4x!tt.ptr<f32>> loc("kern.py":7:12)
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  unsigned x = h.buffer("x", ElemKind::F32, std::vector<float>(5));
  std::string err = h.run("k", {h.ptr(x)}, {1, 3, 1});
  EXPECT_EQ(err, "kern.py:7:12: error: tt.load in program (0, 2, 0): element [3]: "
                 "out-of-bounds read: element 5 is past the end of buffer 'x' "
                 "(5 x f32, 20 bytes)");

  // A null pointer is outside every buffer.
  Harness n(R"(
module {
  tt.func public @k(%x: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i64
    %p = tt.int_to_ptr %c0 : i64 -> !tt.ptr<f32>
    %v = tt.load %p : !tt.ptr<f32>
    tt.return
  }
}
)");
  unsigned y = n.buffer("x", ElemKind::F32, std::vector<float>(1));
  err = n.run("k", {n.ptr(y)});
  EXPECT_NE(err.find("out-of-bounds read: address 0x0000000000000000 is not in any buffer"),
            std::string::npos)
      << err;
}

TEST(Ops, PrintGoesToTheGivenStream) {
  Harness h(R"(
module {
  tt.func public @k(%v: i64, %f: f16) {
    tt.print " v: " {hex = true, isSigned = array<i32: 0>} : %v : i64
    tt.print " f: " {hex = false, isSigned = array<i32: 0>} : %f : f16
    tt.return
  }
}
)");
  ASSERT_TRUE(h.parsed());
  EXPECT_EQ(h.run("k", {Tensor::scalarInt(ElemKind::I64, 255), Tensor::scalarFloat(ElemKind::F16, 0.1)},
                  {1, 1, 2}),
            "");
  EXPECT_EQ(h.printed, "pid (0, 0, 0) v: 0x00000000000000ff\n"
                       "pid (0, 0, 0) f: 0.0999755859\n"
                       "pid (0, 0, 1) v: 0x00000000000000ff\n"
                       "pid (0, 0, 1) f: 0.0999755859\n");
}

} // namespace
