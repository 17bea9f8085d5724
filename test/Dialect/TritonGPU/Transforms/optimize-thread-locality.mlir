// RUN: kiln-opt %s -split-input-file --ttgir-optimize-thread-locality | FileCheck %s

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
