// RUN: kiln-opt %s -split-input-file --ttgir-accelerate-matmul --llir-allocate-shared-memory --llir-convert-to-llvm | FileCheck %s

// A tf32 product whose B is one 8-column group (N = 8, K-major): one
// m64n8k8 wgmma per K step between the fence and the commit.
// CHECK-LABEL: llvm.func @n8
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @n8(%a: tensor<64x32xf32, #a>, %b: tensor<32x8xf32, #b>, %c: tensor<64x8xf32, #c>, %out: !tt.ptr<f32>) {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #a> * tensor<32x8xf32, #b> -> tensor<64x8xf32, #c>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x8x!tt.ptr<f32>, #c>
    tt.store %p, %d : tensor<64x8x!tt.ptr<f32>, #c>
    tt.return
  }
}

// -----

// f16 operands, B transposed in shared memory (N-major): the descriptors
// of B say so (layout row = imm-trans-b 1), A stays K-major.
// CHECK-LABEL: llvm.func @f16
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @f16(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #c>, %out: !tt.ptr<f32>) {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #c>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #c>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #c>
    tt.return
  }
}
