// RUN: kiln-opt %s --llir-check-mbarriers | FileCheck %s --check-prefix=PARSE
// RUN: kiln-opt %s --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm | FileCheck %s

// Gluon's async_copy.mbarrier_arrive, as Triton 3.6 prints it: every
// thread (no election) has the barrier track its earlier cp.async copies,
// with `.noinc` when asked.
// PARSE: ttng.async_copy_mbarrier_arrive %{{.*}} : !ttg.memdesc<1xi64
// PARSE: ttng.async_copy_mbarrier_arrive %{{.*}} {noIncrement} : !ttg.memdesc<1xi64
// CHECK-LABEL: llvm.func @copies_then_arrive
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NOT: llvm.cond_br
// CHECK: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true} : !llvm.ptr<3>
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copies_then_arrive(%p: tensor<512x!tt.ptr<f32>, #blocked> {tt.contiguity = 512 : i32, tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<512x!tt.ptr<f32>, #blocked> -> <512xf32, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 128 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

