// RUN: kiln-opt %s -split-input-file --ttgir-fence-insertion | FileCheck %s

// Threads write a buffer through a box of it (memdesc_subslice) and a
// wgmma reads the whole buffer: the writes need the async-proxy fence as
// if they went to the buffer itself; through a reinterpreted view too.
// CHECK-LABEL: tt.func @through_views
// CHECK: ttg.local_store
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot
// CHECK: ttg.local_store
// CHECK: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @through_views(%x: tensor<64x64xf16, #blocked>, %i: tensor<2048xi32, #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>, %b: !ttg.memdesc<64x64xf16, #shared, #smem>, %acc: tensor<64x64xf32, #mma>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %left = ttg.memdesc_subslice %a[0, 0] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 64x128>
    ttg.local_store %x, %left : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 64x128>
    %d = ttng.warp_group_dot %left, %b, %acc : !ttg.memdesc<64x64xf16, #shared, #smem, mutable, 64x128> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %c = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %words = ttg.memdesc_reinterpret %c : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<2048xi32, #flat, #smem, mutable>
    ttg.local_store %i, %words : tensor<2048xi32, #ttg.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> !ttg.memdesc<2048xi32, #flat, #smem, mutable>
    %e = ttng.warp_group_dot %c, %b, %d : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return
  }
}
