// RUN: kiln-opt %s -split-input-file --ttgir-optimize-thread-locality | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-optimize-thread-locality --ttgir-remove-layout-conversions | FileCheck %s --check-prefix=KEPT

// gather_rows of the corpus: each warp gets whole columns (32 lanes along
// the gather axis), the four warps spread over the columns.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[G:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @columns
// CHECK: %[[S:.*]] = ttg.convert_layout %arg0 : tensor<32x16xf32, #[[B]]> -> tensor<32x16xf32, #[[G]]>
// CHECK: %[[I:.*]] = ttg.convert_layout %arg1 : tensor<32x16xi32, #[[B]]> -> tensor<32x16xi32, #[[G]]>
// CHECK: %[[R:.*]] = tt.gather %[[S]][%[[I]]] {axis = 0 : i32, efficient_layout} : (tensor<32x16xf32, #[[G]]>, tensor<32x16xi32, #[[G]]>) -> tensor<32x16xf32, #[[G]]>
// CHECK: %[[O:.*]] = ttg.convert_layout %[[R]] : tensor<32x16xf32, #[[G]]> -> tensor<32x16xf32, #[[B]]>
// CHECK: tt.return %[[O]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @columns(%src: tensor<32x16xf32, #blocked>, %idx: tensor<32x16xi32, #blocked>) -> tensor<32x16xf32, #blocked> {
    %r = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<32x16xf32, #blocked>, tensor<32x16xi32, #blocked>) -> tensor<32x16xf32, #blocked>
    tt.return %r : tensor<32x16xf32, #blocked>
  }
}

// -----

// A short gather axis (8 rows) leaves 4 lanes for the columns; a longer
// index tensor (16 rows) gives each thread two elements along the axis.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[G:.*]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @short_axis
// CHECK: tt.gather {{.*}} efficient_layout{{.*}} -> tensor<16x64xf32, #[[G]]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @short_axis(%src: tensor<8x64xf32, #blocked>, %idx: tensor<16x64xi32, #blocked>) -> tensor<16x64xf32, #blocked> {
    %r = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<8x64xf32, #blocked>, tensor<16x64xi32, #blocked>) -> tensor<16x64xf32, #blocked>
    tt.return %r : tensor<16x64xf32, #blocked>
  }
}

// -----

// 512 rows: a warp-local layout leaves each thread 16 rows of the source,
// more candidates than the lowering shuffles among (planGather), so the
// gather keeps its layouts and goes through shared memory unconverted.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @long_axis
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.gather %arg0[%arg1] {axis = 0 : i32} :
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @long_axis(%src: tensor<512x16xf32, #blocked>, %idx: tensor<512x16xi32, #blocked>) -> tensor<512x16xf32, #blocked> {
    %r = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<512x16xf32, #blocked>, tensor<512x16xi32, #blocked>) -> tensor<512x16xf32, #blocked>
    tt.return %r : tensor<512x16xf32, #blocked>
  }
}

// -----

// 1-D gathers and gathers already marked keep their layout.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @kept
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.gather %arg0[%arg1] {axis = 0 : i32} :
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @kept(%src: tensor<128xf32, #blocked>, %idx: tensor<128xi32, #blocked>) -> tensor<128xf32, #blocked> {
    %r = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<128xf32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xf32, #blocked>
    tt.return %r : tensor<128xf32, #blocked>
  }
}

// -----

// A row sum accumulated across a loop (Triton's test_optimize_thread_locality
// pattern): each thread adds its 16 elements of a row (4 per vector, 4
// repeats along the row) into its own accumulator in the loop, without
// shuffles; after the loop one reduction across the 8 lanes of a row, and
// the loop's start value added last.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// The split's view is an anchor for the conversion removal, which would
// otherwise give it a layout whose last dimension spans lanes.
// KEPT: #[[KS:[a-z0-9]+]] = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// KEPT-LABEL: tt.func @row_sums
// KEPT: tt.reshape {{.*}} -> tensor<32x8x16xf32, #[[KS]]>
// KEPT: "tt.reduce"({{.*}}) <{axis = 2 : i32}>
// CHECK-LABEL: tt.func @row_sums
// CHECK: %[[INIT:.*]] = arith.constant dense<1.000000e+00> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK: %[[PART:.*]] = arith.constant dense<-0.000000e+00> : tensor<32x8xf32, #ttg.slice<{dim = 2, parent = #[[S]]}>>
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[OLD:.*]] = %[[INIT]], %[[ACC:.*]] = %[[PART]])
// CHECK:   %[[V:.*]] = tt.load
// CHECK:   %[[R:.*]] = tt.reshape %[[V]] allow_reorder efficient_layout : tensor<32x128xf32, #[[B]]> -> tensor<32x8x16xf32, #[[S]]>
// CHECK:   %[[L:.*]] = "tt.reduce"(%[[R]]) <{axis = 2 : i32}>
// CHECK:     arith.addf
// CHECK:   %[[U:.*]] = arith.addf %[[ACC]], %[[L]] : tensor<32x8xf32, #ttg.slice<{dim = 2, parent = #[[S]]}>>
// CHECK:   scf.yield %[[OLD]], %[[U]]
// CHECK: %[[T:.*]] = "tt.reduce"(%[[LOOP]]#1) <{axis = 1 : i32}>
// CHECK:   arith.addf
// CHECK: %[[C:.*]] = ttg.convert_layout %[[T]] : tensor<32xf32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #[[S]]}>}>> -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK: %[[F:.*]] = arith.addf %[[INIT]], %[[C]]
// CHECK: tt.store {{.*}}, %[[F]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_sums(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %n: i32) {
    %one = arith.constant dense<1.000000e+00> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ptrs = tt.splat %x : !tt.ptr<f32> -> tensor<32x128x!tt.ptr<f32>, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %v = tt.load %ptrs : tensor<32x128x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u = arith.addf %acc, %s : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %u : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    %yp = tt.splat %y : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.store %yp, %r : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// A running maximum (the accumulator second in the update, as
// tl.maximum(tl.max(x, 1), acc) writes it): the threads' maxima start at
// NaN, which maxnumf drops; an integer minimum at the largest i32.
#blocked = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @running_max
// CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000> : tensor<4xf32
// CHECK-DAG: %[[SEVEN:.*]] = arith.constant dense<7> : tensor<4xi32
// CHECK: arith.constant dense<0x7FC00000> : tensor<4x16xf32
// CHECK: arith.constant dense<2147483647> : tensor<4x16xi32
// CHECK: scf.for
// CHECK:   tt.reshape {{.*}} allow_reorder efficient_layout : tensor<4x64xf32, #{{.*}}> -> tensor<4x16x4xf32
// CHECK:   "tt.reduce"({{.*}}) <{axis = 2 : i32}>
// CHECK:     arith.maxnumf
// CHECK:   arith.maxnumf %{{.*}}, %{{.*}} : tensor<4x16xf32
// CHECK:   tt.reshape {{.*}} -> tensor<4x16x4xi32
// CHECK:   arith.minsi
// CHECK: "tt.reduce"({{.*}}) <{axis = 1 : i32}>
// CHECK:   arith.minsi
// CHECK: arith.minsi %[[SEVEN]], %
// CHECK: "tt.reduce"({{.*}}) <{axis = 1 : i32}>
// CHECK:   arith.maxnumf
// CHECK: arith.maxnumf %{{.*}}, %[[NINF]] :
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @running_max(%x: tensor<4x64x!tt.ptr<f32>, #blocked>, %k: tensor<4x64x!tt.ptr<i32>, #blocked>, %n: i32) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %ninf = arith.constant dense<0xFF800000> : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %big = arith.constant dense<7> : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf, %low = %big) -> (tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %v = tt.load %x : tensor<4x64x!tt.ptr<f32>, #blocked>
      %m = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<4x64xf32, #blocked>) -> tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u = arith.maxnumf %m, %acc : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %w = tt.load %k : tensor<4x64x!tt.ptr<i32>, #blocked>
      %l = "tt.reduce"(%w) <{axis = 1 : i32}> ({
      ^bb0(%a: i32, %b: i32):
        %t = arith.minsi %a, %b : i32
        tt.reduce.return %t : i32
      }) : (tensor<4x64xi32, #blocked>) -> tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %v2 = arith.minsi %low, %l : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %u, %v2 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r#0, %r#1 : tensor<4xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// Left alone: a sum folded in with another op (a maximum of sums is not a
// sum of maxima), a reduction of computed values, one element of a row per
// thread, a reduction along a leading axis; below, a carried value the loop
// also reads elsewhere, an update under a condition, fp8 maxima (no
// infinity to start from).
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @kept_reductions
// CHECK-NOT: tt.reshape
// CHECK: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @kept_reductions(%x: tensor<32x128x!tt.ptr<f32>, #blocked>, %o: tensor<32x32x!tt.ptr<f32>, #one>, %n: i32) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %z = arith.constant dense<0.000000e+00> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %z1 = arith.constant dense<0.000000e+00> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>
    %z0 = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z1, %a3 = %z0) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) : i32 {
      %v = tt.load %x : tensor<32x128x!tt.ptr<f32>, #blocked>
      %s0 = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u0 = arith.maxnumf %a0, %s0 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %sq = arith.mulf %v, %v : tensor<32x128xf32, #blocked>
      %s1 = "tt.reduce"(%sq) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u1 = arith.addf %a1, %s1 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %w = tt.load %o : tensor<32x32x!tt.ptr<f32>, #one>
      %s2 = "tt.reduce"(%w) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x32xf32, #one>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>
      %u2 = arith.addf %a2, %s2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>
      %s3 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
      %u3 = arith.addf %a3, %s3 : tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
      scf.yield %u0, %u1, %u2, %u3 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    }
    tt.return %r#0, %r#1, %r#2, %r#3 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #one}>>, tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @kept_uses
// CHECK-NOT: tt.reshape
// CHECK: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @kept_uses(%x: tensor<32x128x!tt.ptr<f32>, #blocked>, %h: tensor<32x128x!tt.ptr<f8E4M3FN>, #blocked>, %o: tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>, %n: i32, %c: i1) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>) {
    %z = arith.constant dense<0.000000e+00> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %z8 = arith.constant dense<0.000000e+00> : tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %z, %a1 = %z, %a2 = %z8) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      tt.store %o, %a0 : tensor<32x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #blocked}>>
      %v = tt.load %x : tensor<32x128x!tt.ptr<f32>, #blocked>
      %s0 = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u0 = arith.addf %a0, %s0 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %w = tt.load %x : tensor<32x128x!tt.ptr<f32>, #blocked>
      %s1 = "tt.reduce"(%w) <{axis = 1 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u1 = scf.if %c -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) {
        %t = arith.addf %a1, %s1 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
        scf.yield %t : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      } else {
        scf.yield %a1 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      }
      %e = tt.load %h : tensor<32x128x!tt.ptr<f8E4M3FN>, #blocked>
      %s2 = "tt.reduce"(%e) <{axis = 1 : i32}> ({
      ^bb0(%a: f8E4M3FN, %b: f8E4M3FN):
        %t = arith.maximumf %a, %b : f8E4M3FN
        tt.reduce.return %t : f8E4M3FN
      }) : (tensor<32x128xf8E4M3FN, #blocked>) -> tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u2 = arith.maximumf %a2, %s2 : tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %u0, %u1, %u2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r#0, %r#1, %r#2 : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<32xf8E4M3FN, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// A running maximum that drops NaNs (tl.maximum's default) starts each
// thread's maxima at NaN, which maxnumf drops, so a NaN start value and an
// empty loop give what they gave before.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @nan_start
// CHECK: arith.constant dense<0x7FC00000> : tensor<32x8xf32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nan_start(%x: tensor<32x128x!tt.ptr<f32>, #blocked>, %n: i32) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %z = arith.constant dense<0x7FC00000> : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) : i32 {
      %v = tt.load %x : tensor<32x128x!tt.ptr<f32>, #blocked>
      %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
      ^bb0(%p: f32, %q: f32):
        %t = arith.maxnumf %p, %q : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x128xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %u = arith.maxnumf %a, %s : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      scf.yield %u : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    }
    tt.return %r : tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}
