// RUN: kiln-opt %s --ttgir-remove-layout-conversions | FileCheck %s

// A load's layout flows into both branches of an scf.if and its result;
// scf.while is not propagated into (yet): its loop-carried tensor keeps its
// layout, with conversions at the boundary.
// CHECK-DAG: #[[V4:.*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[V1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @if_while
// CHECK: %[[L:.*]] = tt.load {{.*}} : tensor<512x!tt.ptr<f32>, #[[V4]]>
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (tensor<512xf32, #[[V4]]>)
// CHECK:   math.exp %[[L]] : tensor<512xf32, #[[V4]]>
// CHECK:   scf.yield {{.*}} : tensor<512xf32, #[[V4]]>
// CHECK: } else {
// CHECK:   scf.yield %[[L]] : tensor<512xf32, #[[V4]]>
// CHECK: %[[IN:.*]] = ttg.convert_layout %[[IF]] : tensor<512xf32, #[[V4]]> -> tensor<512xf32, #[[V1]]>
// CHECK: %[[W:.*]]:2 = scf.while ({{.*}}, %{{.*}} = %[[IN]]) : (i32, tensor<512xf32, #[[V1]]>)
// CHECK: %[[OUT:.*]] = ttg.convert_layout %[[W]]#1 : tensor<512xf32, #[[V1]]> -> tensor<512xf32, #[[V4]]>
// CHECK: tt.store %{{.*}}, %[[OUT]] : tensor<512x!tt.ptr<f32>, #[[V4]]>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @if_while(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i1, %arg2: i32) {
    %0 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %2 = tt.addptr %1, %0 : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %3 = ttg.convert_layout %2 : tensor<512x!tt.ptr<f32>, #blocked> -> tensor<512x!tt.ptr<f32>, #blocked1>
    %4 = tt.load %3 : tensor<512x!tt.ptr<f32>, #blocked1>
    %5 = ttg.convert_layout %4 : tensor<512xf32, #blocked1> -> tensor<512xf32, #blocked>
    %6 = scf.if %arg1 -> (tensor<512xf32, #blocked>) {
      %10 = math.exp %5 : tensor<512xf32, #blocked>
      scf.yield %10 : tensor<512xf32, #blocked>
    } else {
      scf.yield %5 : tensor<512xf32, #blocked>
    }
    %c0_i32 = arith.constant 0 : i32
    %7:2 = scf.while (%arg3 = %c0_i32, %arg4 = %6) : (i32, tensor<512xf32, #blocked>) -> (i32, tensor<512xf32, #blocked>) {
      %10 = arith.cmpi slt, %arg3, %arg2 : i32
      scf.condition(%10) %arg3, %arg4 : i32, tensor<512xf32, #blocked>
    } do {
    ^bb0(%arg3: i32, %arg4: tensor<512xf32, #blocked>):
      %c1_i32 = arith.constant 1 : i32
      %10 = arith.addi %arg3, %c1_i32 : i32
      %11 = arith.addf %arg4, %arg4 : tensor<512xf32, #blocked>
      scf.yield %10, %11 : i32, tensor<512xf32, #blocked>
    }
    %8 = ttg.convert_layout %2 : tensor<512x!tt.ptr<f32>, #blocked> -> tensor<512x!tt.ptr<f32>, #blocked1>
    %9 = ttg.convert_layout %7#1 : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    tt.store %8, %9 : tensor<512x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

