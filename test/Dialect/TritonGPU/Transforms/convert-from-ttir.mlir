// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="target=hip:gfx942 num-warps=8 threads-per-warp=64" | FileCheck %s --check-prefix=WIDE

// Module attributes, and the default layout: one element per thread, lanes
// then warps from the fastest dimension.
// CHECK-DAG: #[[B1D:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
// WIDE: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
// WIDE: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32}
// CHECK-LABEL: tt.func @elementwise(%arg0: !tt.ptr<f32>, %arg1: i32)
tt.func @elementwise(%x: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %p = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %ptrs = tt.addptr %p, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %v = tt.load %ptrs : tensor<256x!tt.ptr<f32>>
  %s = arith.addf %v, %c : tensor<256xf32>
  %sum = "tt.reduce"(%s) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<256xf32>) -> f32
  tt.store %ptrs, %s : tensor<256x!tt.ptr<f32>>
  tt.return
}
// CHECK: tt.make_range {{.*}} : tensor<256xi32, #[[B1D]]>
// CHECK: arith.constant dense<1.000000e+00> : tensor<256xf32, #[[B1D]]>
// CHECK: tt.load {{.*}} : tensor<256x!tt.ptr<f32>, #[[B1D]]>
// CHECK: "tt.reduce"
// CHECK: (tensor<256xf32, #[[B1D]]>) -> f32
// CHECK: tt.store {{.*}} : tensor<256x!tt.ptr<f32>, #[[B1D]]>

// -----

// Derived layouts: expand_dims takes a slice of its result's layout,
// broadcast keeps its operand's, a reduction gives the slice of its
// operand's, trans permutes it.
// CHECK-DAG: #[[B1D:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[ROW:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[COL:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[TR:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @two_d
// CHECK-SAME: -> tensor<64x32xf32, #[[ROW]]>
// CHECK: %[[R:.*]] = tt.make_range {{.*}} : tensor<64xi32, #[[B1D]]>
// CHECK: %[[S:.*]] = ttg.convert_layout %[[R]] : tensor<64xi32, #[[B1D]]> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[COL]]}>>
// CHECK: %[[E:.*]] = tt.expand_dims %[[S]] {axis = 1 : i32} : {{.*}} -> tensor<64x1xi32, #[[COL]]>
// CHECK: %[[B:.*]] = tt.broadcast %[[E]] : tensor<64x1xi32, #[[COL]]> -> tensor<64x32xi32, #[[COL]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[B]] : tensor<64x32xi32, #[[COL]]> -> tensor<64x32xi32, #[[ROW]]>
// CHECK: %[[F:.*]] = arith.sitofp %[[C]] : tensor<64x32xi32, #[[ROW]]> to tensor<64x32xf32, #[[ROW]]>
// CHECK: (tensor<64x32xf32, #[[ROW]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[ROW]]}>>
// CHECK: tt.trans %[[F]] {order = array<i32: 1, 0>} : tensor<64x32xf32, #[[ROW]]> -> tensor<32x64xf32, #[[TR]]>
// CHECK: tt.return %[[F]] : tensor<64x32xf32, #[[ROW]]>
tt.func @two_d(%x: !tt.ptr<f32>) -> tensor<64x32xf32> {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %b = tt.broadcast %e : tensor<64x1xi32> -> tensor<64x32xi32>
  %f = arith.sitofp %b : tensor<64x32xi32> to tensor<64x32xf32>
  %rows = "tt.reduce"(%f) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %c: f32):
    %t = arith.maxnumf %a, %c : f32
    tt.reduce.return %t : f32
  }) : (tensor<64x32xf32>) -> tensor<64xf32>
  %t = tt.trans %f {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  tt.return %f : tensor<64x32xf32>
}

// -----

// Loop-carried tensors: iteration arguments, results and yields agree.
// CHECK-DAG: #[[B1D:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @loop
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32, #[[B1D]]>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]]) -> (tensor<128xf32, #[[B1D]]>)
// CHECK: scf.yield {{.*}} : tensor<128xf32, #[[B1D]]>
tt.func @loop(%n: i32) -> tensor<128xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128xf32>) : i32 {
    %o = arith.constant dense<1.0> : tensor<128xf32>
    %next = arith.addf %acc, %o : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  tt.return %res : tensor<128xf32>
}

// -----

// scf.if results and yields, scf.while arguments, conditions and yields.
// CHECK-DAG: #[[B1D:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @control_flow
// CHECK: scf.if %{{.*}} -> (tensor<512xf32, #[[B1D]]>)
// CHECK: scf.yield {{.*}} : tensor<512xf32, #[[B1D]]>
// CHECK: scf.while ({{.*}}) : (i32, tensor<512xf32, #[[B1D]]>) -> (i32, tensor<512xf32, #[[B1D]]>)
// CHECK: scf.condition(%{{.*}}) {{.*}} : i32, tensor<512xf32, #[[B1D]]>
// CHECK: ^bb0(%{{.*}}: i32, %{{.*}}: tensor<512xf32, #[[B1D]]>):
// CHECK: scf.yield {{.*}} : i32, tensor<512xf32, #[[B1D]]>
tt.func @control_flow(%v: tensor<512xf32>, %c: i1, %n: i32) -> tensor<512xf32> {
  %w = scf.if %c -> (tensor<512xf32>) {
    %e = math.exp %v : tensor<512xf32>
    scf.yield %e : tensor<512xf32>
  } else {
    scf.yield %v : tensor<512xf32>
  }
  %c0 = arith.constant 0 : i32
  %res:2 = scf.while (%i = %c0, %acc = %w) : (i32, tensor<512xf32>) -> (i32, tensor<512xf32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, tensor<512xf32>
  } do {
  ^bb0(%j: i32, %b: tensor<512xf32>):
    %one = arith.constant 1 : i32
    %k = arith.addi %j, %one : i32
    %d = arith.addf %b, %b : tensor<512xf32>
    scf.yield %k, %d : i32, tensor<512xf32>
  }
  tt.return %res#1 : tensor<512xf32>
}

// -----

// tt.join and tt.split as Triton lays them out: the pair dimension held by
// each thread (two registers, fastest), the other dimensions in the
// default layout of the halves, so that neither moves an element between
// threads; a split's operand is converted to that layout.
// CHECK-DAG: #[[HALF:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[PAIR:.*]] = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
// CHECK-LABEL: tt.func @join_split
// CHECK: tt.join %{{.*}}, %{{.*}} : tensor<16x64xf32, #[[HALF]]> -> tensor<16x64x2xf32, #[[PAIR]]>
// CHECK: %[[CVT:.*]] = ttg.convert_layout %{{.*}} : tensor<16x64x2xf32, #{{.*}}> -> tensor<16x64x2xf32, #[[PAIR]]>
// CHECK: tt.split %[[CVT]] : tensor<16x64x2xf32, #[[PAIR]]> -> tensor<16x64xf32, #[[HALF]]>
tt.func @join_split(%a: tensor<16x64xf32>, %b: tensor<16x64x2xf32>) -> (tensor<16x64x2xf32>, tensor<16x64xf32>) {
  %j = tt.join %a, %a : tensor<16x64xf32> -> tensor<16x64x2xf32>
  %l, %r = tt.split %b : tensor<16x64x2xf32> -> tensor<16x64xf32>
  tt.return %j, %l : tensor<16x64x2xf32>, tensor<16x64xf32>
}

// -----

// tt.cat puts both operands' registers side by side (it may reorder): the
// result's default layout keeps its run of one element a thread where that
// already holds both (4 warps), and gets a run of two where the operands
// repeat over the threads and the result has but one register (8 warps of
// 64 lanes, 512 threads for 128-element operands), as Triton lays it out.
// CHECK-LABEL: tt.func @cat
// CHECK: tt.cat %{{.*}}, %{{.*}} : tensor<128xf32, #{{.*}}> -> tensor<256xf32, #[[ONE:[^>]*]]>
// WIDE-DAG: #[[RUN2:.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
// WIDE-LABEL: tt.func @cat
// WIDE: tt.cat %{{.*}}, %{{.*}} : tensor<128xf32, #{{.*}}> -> tensor<256xf32, #[[RUN2]]>
tt.func @cat(%a: tensor<128xf32>, %b: tensor<128xf32>) -> tensor<256xf32> {
  %c = tt.cat %a, %b : tensor<128xf32> -> tensor<256xf32>
  tt.return %c : tensor<256xf32>
}
