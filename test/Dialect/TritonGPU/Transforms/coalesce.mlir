// RUN: kiln-opt %s --ttgir-coalesce | FileCheck %s

// CHECK-DAG: #[[D:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:.*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V2:.*]] = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[T:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// A 16-byte aligned f32 load: 4 per thread; a store through a pointer of
// unknown alignment: 1 (it keeps the default layout).
// CHECK-LABEL: tt.func @vec4
// CHECK: %[[P:.*]] = ttg.convert_layout %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[D]]> -> tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[L:.*]] = tt.load %[[P]] : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[B:.*]] = ttg.convert_layout %[[L]] : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[D]]>
// CHECK: tt.store %{{.*}}, %[[B]] : tensor<1024x!tt.ptr<f32>, #[[D]]>
tt.func @vec4(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32>) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
  %ax = tt.addptr %px, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  %v = tt.load %ax : tensor<1024x!tt.ptr<f32>, #blocked>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
  %ay = tt.addptr %py, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  tt.store %ay, %v : tensor<1024x!tt.ptr<f32>, #blocked>
  tt.return
}
// A load widens to what another access of its slice allows (the L1 cache
// serves the gaps); the store keeps its own width.
// CHECK-LABEL: tt.func @widen
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: tt.store %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
tt.func @widen(%x: !tt.ptr<f32>, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
  %ax = tt.addptr %px, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  %v = tt.load %ax : tensor<1024x!tt.ptr<f32>, #blocked>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
  %ay = tt.addptr %py, %r : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
  tt.store %ay, %v : tensor<1024x!tt.ptr<f32>, #blocked>
  tt.return
}
// 16 bytes of f16 are 8 elements; the store's value is converted too.
// CHECK-LABEL: tt.func @f16x8
// CHECK: tt.load %{{.*}} : tensor<1024x!tt.ptr<f16>, #[[V8]]>
// CHECK: %[[V:.*]] = ttg.convert_layout %{{.*}} : tensor<1024xf16, #[[D]]> -> tensor<1024xf16, #[[V8]]>
// CHECK: tt.store %{{.*}}, %[[V]] : tensor<1024x!tt.ptr<f16>, #[[V8]]>
tt.func @f16x8(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
  %px = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
  %ax = tt.addptr %px, %r : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
  %v = tt.load %ax : tensor<1024x!tt.ptr<f16>, #blocked>
  tt.store %ax, %v : tensor<1024x!tt.ptr<f16>, #blocked>
  tt.return
}
// No more per thread than the tensor's share (256 / 128 threads).
// CHECK-LABEL: tt.func @small
// CHECK: tt.load %{{.*}} : tensor<256x!tt.ptr<f32>, #[[V2]]>
tt.func @small(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
  %ax = tt.addptr %px, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
  %v = tt.load %ax : tensor<256x!tt.ptr<f32>, #blocked>
  tt.return
}
// 2-D: rows of 16 contiguous f32: 4 per thread along the rows, 4 lanes per
// row (gather_rows of the corpus).
// CHECK-LABEL: tt.func @tile
// CHECK: tt.load %{{.*}} : tensor<32x16x!tt.ptr<f32>, #[[T]]>
tt.func @tile(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
  %e = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
  %c16 = arith.constant dense<16> : tensor<32x1xi32, #blocked2>
  %ro = arith.muli %e, %c16 : tensor<32x1xi32, #blocked2>
  %rb = tt.broadcast %ro : tensor<32x1xi32, #blocked2> -> tensor<32x16xi32, #blocked2>
  %c = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
  %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x16xi32, #blocked2>
  %cb = tt.broadcast %ce : tensor<1x16xi32, #blocked2> -> tensor<32x16xi32, #blocked2>
  %o = arith.addi %rb, %cb : tensor<32x16xi32, #blocked2>
  %p = tt.splat %x : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #blocked2>
  %a = tt.addptr %p, %o : tensor<32x16x!tt.ptr<f32>, #blocked2>, tensor<32x16xi32, #blocked2>
  %v = tt.load %a : tensor<32x16x!tt.ptr<f32>, #blocked2>
  tt.return
}
// Atomics: every operand converted, the result converted back.
// CHECK-LABEL: tt.func @atomic
// CHECK: %[[A:.*]] = tt.atomic_rmw add, acq_rel, gpu, {{.*}} -> tensor<1024xi32, #[[V4]]>
// CHECK: ttg.convert_layout %[[A]] : tensor<1024xi32, #[[V4]]> -> tensor<1024xi32, #[[D]]>
tt.func @atomic(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %m: tensor<1024xi1, #blocked>) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
  %px = tt.splat %x : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
  %ax = tt.addptr %px, %r : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
  %one = arith.constant dense<1> : tensor<1024xi32, #blocked>
  %old = tt.atomic_rmw add, acq_rel, gpu, %ax, %one, %m : (tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xi32, #blocked>
  tt.return
}
}
