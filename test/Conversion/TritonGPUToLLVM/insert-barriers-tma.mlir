// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers %s | FileCheck %s

// mbarriers and TMA: init is a plain write (a barrier before the others
// use it); arming, copying and waiting do not race; what the TMA load
// wrote is read after the wait without a bar.sync; overwriting the buffer
// by TMA after a generic read of it needs one before the issue; a TMA
// store of what threads wrote needs fence.proxy.async, then the barrier.
// CHECK-LABEL: tt.func public @tma_barriers
// CHECK: ttng.init_barrier
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttng.barrier_expect
// CHECK-NEXT: ttng.async_tma_copy_global_to_local
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.local_load
// CHECK-NEXT: ttng.barrier_expect
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttng.async_tma_copy_global_to_local
// CHECK-NEXT: ttng.wait_barrier
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// The barrier before the store already follows every thread's wait, so
// the inval needs no other.
// CHECK-NEXT: ttng.async_tma_store_wait
// CHECK-NEXT: ttng.inval_barrier
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tma_barriers(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %i: i32, %p: i1, %v: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    ttng.barrier_expect %bar, 8192, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttg.local_store %v, %buf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_local_to_global %d[%i, %i] %buf : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}
