// RUN: kiln-opt %s --ttgir-remove-layout-conversions | FileCheck %s

// The input is what ttgir-convert-from-ttir and ttgir-coalesce make of
// small kernels.
// CHECK-DAG: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V8:.*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked5 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked6 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// The load's layout flows forward to the store; the address and mask
// arithmetic is recomputed in it: no conversion is left.
// CHECK-LABEL: tt.func @forward_backward
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.*}} : tensor<1024xi32, #[[V4]]>
// CHECK: %[[L:.*]] = tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[E:.*]] = math.exp %[[L]] : tensor<1024xf32, #[[V4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.*}}, %[[E]], %{{.*}} : tensor<1024x!tt.ptr<f32>, #[[V4]]>
  tt.func @forward_backward(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg2: i32) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg2 : i32 -> tensor<1024xi32, #blocked>
    %2 = arith.cmpi slt, %0, %1 : tensor<1024xi32, #blocked>
    %3 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %4 = tt.addptr %3, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %5 = ttg.convert_layout %4 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %6 = ttg.convert_layout %2 : tensor<1024xi1, #blocked> -> tensor<1024xi1, #blocked1>
    %7 = tt.load %5, %6 : tensor<1024x!tt.ptr<f32>, #blocked1>
    %8 = ttg.convert_layout %7 : tensor<1024xf32, #blocked1> -> tensor<1024xf32, #blocked>
    %9 = math.exp %8 : tensor<1024xf32, #blocked>
    %10 = tt.splat %arg1 : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %11 = tt.addptr %10, %0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %12 = ttg.convert_layout %11 : tensor<1024x!tt.ptr<f32>, #blocked> -> tensor<1024x!tt.ptr<f32>, #blocked1>
    %13 = ttg.convert_layout %9 : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked1>
    %14 = ttg.convert_layout %2 : tensor<1024xi1, #blocked> -> tensor<1024xi1, #blocked1>
    tt.store %12, %13, %14 : tensor<1024x!tt.ptr<f32>, #blocked1>
    tt.return
  }
// Pointers computed from loaded data are not recomputed: the conversion
// in front of the atomic stays; its constant operand is rebuilt.
// CHECK-LABEL: tt.func @keep_load_convert
// CHECK: %[[ONE:.*]] = arith.constant dense<1> : tensor<1024xi32, #[[V1]]>
// CHECK: %[[L:.*]] = tt.load {{.*}} : tensor<1024x!tt.ptr<i32>, #[[V4]]>
// CHECK: %[[P:.*]] = tt.addptr %{{.*}}, %[[L]] : tensor<1024x!tt.ptr<i32>, #[[V4]]>
// CHECK: %[[C:.*]] = ttg.convert_layout %[[P]] : tensor<1024x!tt.ptr<i32>, #[[V4]]> -> tensor<1024x!tt.ptr<i32>, #[[V1]]>
// CHECK: tt.atomic_rmw add, relaxed, gpu, %[[C]], %[[ONE]] : {{.*}} -> tensor<1024xi32, #[[V1]]>
  tt.func @keep_load_convert(%arg0: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %3 = ttg.convert_layout %2 : tensor<1024x!tt.ptr<i32>, #blocked> -> tensor<1024x!tt.ptr<i32>, #blocked1>
    %4 = tt.load %3 : tensor<1024x!tt.ptr<i32>, #blocked1>
    %5 = ttg.convert_layout %4 : tensor<1024xi32, #blocked1> -> tensor<1024xi32, #blocked>
    %6 = tt.splat %arg1 : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
    %7 = tt.addptr %6, %5 : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
    %cst = arith.constant dense<1> : tensor<1024xi32, #blocked>
    %8 = tt.atomic_rmw add, relaxed, gpu, %7, %cst : (tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return
  }
// Through scf.for: the accumulator takes the load's layout, and a
// reduction to a scalar reads it as it is.
// CHECK-LABEL: tt.func @loop_reduce
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for {{.*}} -> (tensor<1024xf32, #[[V8]]>)
// CHECK: scf.yield {{.*}} : tensor<1024xf32, #[[V8]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: (tensor<1024xf32, #[[V8]]>) -> f32
  tt.func @loop_reduce(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %arg1: !tt.ptr<f32>, %arg2: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %0 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %2 = scf.for %arg3 = %c0_i32 to %arg2 step %c1024_i32 iter_args(%arg4 = %cst) -> (tensor<1024xf32, #blocked>)  : i32 {
      %4 = tt.splat %arg3 : i32 -> tensor<1024xi32, #blocked>
      %5 = arith.addi %4, %0 : tensor<1024xi32, #blocked>
      %6 = tt.addptr %1, %5 : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %7 = ttg.convert_layout %6 : tensor<1024x!tt.ptr<f16>, #blocked> -> tensor<1024x!tt.ptr<f16>, #blocked2>
      %8 = tt.load %7 : tensor<1024x!tt.ptr<f16>, #blocked2>
      %9 = ttg.convert_layout %8 : tensor<1024xf16, #blocked2> -> tensor<1024xf16, #blocked>
      %10 = arith.extf %9 : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %11 = arith.addf %arg4, %10 : tensor<1024xf32, #blocked>
      scf.yield %11 : tensor<1024xf32, #blocked>
    }
    %3 = "tt.reduce"(%2) <{axis = 0 : i32}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      %4 = arith.addf %arg3, %arg4 : f32
      tt.reduce.return %4 : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    tt.store %arg1, %3 : !tt.ptr<f32>
    tt.return
  }
// Backward through tt.trans: the mask is recomputed in the transposed
// layout of the store's (transpose_2d of the corpus).
// CHECK-LABEL: tt.func @transpose_mask
// CHECK: tt.broadcast {{.*}} -> tensor<64x32xi1, #[[COLS:.*]]>
// CHECK: %[[T:.*]] = tt.trans {{.*}} : tensor<64x32xi1, #[[COLS]]> -> tensor<32x64xi1, #[[ROWS:.*]]>
// CHECK: %[[V:.*]] = ttg.convert_layout %arg1 : tensor<32x64xf32, #{{.*}}> -> tensor<32x64xf32, #[[ROWS]]>
// CHECK: tt.store %{{.*}}, %[[V]], %[[T]] : tensor<32x64x!tt.ptr<f32>, #[[ROWS]]>
  tt.func @transpose_mask(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: tensor<32x64xf32, #blocked3>, %arg2: i32) {
    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %1 = ttg.convert_layout %0 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>>
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked4}>> -> tensor<64x1xi32, #blocked4>
    %3 = tt.splat %arg2 : i32 -> tensor<64x1xi32, #blocked4>
    %4 = arith.cmpi slt, %2, %3 : tensor<64x1xi32, #blocked4>
    %5 = tt.broadcast %4 : tensor<64x1xi1, #blocked4> -> tensor<64x32xi1, #blocked4>
    %6 = tt.trans %5 {order = array<i32: 1, 0>} : tensor<64x32xi1, #blocked4> -> tensor<32x64xi1, #blocked5>
    %7 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %8 = ttg.convert_layout %7 : tensor<64xi32, #blocked> -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>>
    %9 = tt.expand_dims %8 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked3}>> -> tensor<1x64xi32, #blocked3>
    %10 = tt.broadcast %9 : tensor<1x64xi32, #blocked3> -> tensor<32x64xi32, #blocked3>
    %11 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked3>
    %12 = tt.addptr %11, %10 : tensor<32x64x!tt.ptr<f32>, #blocked3>, tensor<32x64xi32, #blocked3>
    %13 = ttg.convert_layout %6 : tensor<32x64xi1, #blocked5> -> tensor<32x64xi1, #blocked3>
    %14 = ttg.convert_layout %12 : tensor<32x64x!tt.ptr<f32>, #blocked3> -> tensor<32x64x!tt.ptr<f32>, #blocked6>
    %15 = ttg.convert_layout %arg1 : tensor<32x64xf32, #blocked3> -> tensor<32x64xf32, #blocked6>
    %16 = ttg.convert_layout %13 : tensor<32x64xi1, #blocked3> -> tensor<32x64xi1, #blocked6>
    tt.store %14, %15, %16 : tensor<32x64x!tt.ptr<f32>, #blocked6>
    tt.return
  }
}

