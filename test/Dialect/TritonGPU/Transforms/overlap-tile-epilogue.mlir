// RUN: kiln-opt -split-input-file --ttgir-overlap-tile-epilogue %s | FileCheck %s

// The consumers of a warp-specialised persistent matmul: each tile's K
// loop of wgmmas, a wait for all of them, the accumulator narrowed and
// stored. The tile loop is copied under `K runs`; in the copy the narrowed
// tile and its row are carried to the next pass, where they are stored
// right after K's first step (peeled) issues its wgmma; the last tile is
// stored after the loop. The original loop stays for a K loop that never
// runs.
// CHECK-LABEL: @consumer
// CHECK: ttg.warp_specialize
// CHECK-NEXT: default {
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %c0_i32, %[[KN:.*]] : i32
// CHECK: scf.if %[[RUNS]] {
// CHECK: %[[T:.*]]:3 = scf.for %[[I:.*]] = {{.*}} iter_args(%[[PREV:.*]] = %cst{{.*}}, %[[ROW:.*]] = %c0_i32{{.*}}, %[[HAS:.*]] = %false) -> (tensor<128x128xf16, #mma>, i32, i1)
// CHECK: %[[R:.*]] = arith.muli %[[I]], %c128_i32
// CHECK: %[[D0:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %cst {isAsync = true}
// CHECK-NEXT: scf.if %[[HAS]] {
// CHECK-NEXT: ttg.local_store %[[PREV]], %{{.*}}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %{{.*}}[%[[ROW]], %c0_i32{{.*}}]
// CHECK-NEXT: }
// CHECK-NEXT: %[[W0:.*]] = ttng.warp_group_dot_wait %[[D0]] {pendings = 1 : i32}
// CHECK: %[[K1:.*]] = arith.addi %c0_i32, %c1_i32
// CHECK: %[[K:.*]] = scf.for %{{.*}} = %[[K1]] to %[[KN]] step %c1_i32 iter_args(%{{.*}} = %[[W0]])
// CHECK: %[[DONE:.*]] = ttng.warp_group_dot_wait %[[K]] {pendings = 0 : i32}
// CHECK-NEXT: %[[NARROW:.*]] = arith.truncf %[[DONE]]
// CHECK: scf.yield %[[NARROW]], %[[R]], %true
// CHECK: scf.if %[[T]]#2 {
// CHECK-NEXT: ttg.local_store %[[T]]#0
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %{{.*}}[%[[T]]#1, %c0_i32{{.*}}]
// CHECK: } else {
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %c0_i32 to %[[KN]]
// CHECK: arith.truncf
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttng.async_tma_copy_local_to_global
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @consumer(%c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>, %tiles: i32, %kn: i32) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %out = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%tiles) attributes {requestedRegisters = array<i32: 24>}
    default {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
      scf.for %i = %c0 to %tiles step %c1 : i32 {
        %row = arith.muli %i, %c128 : i32
        %acc = scf.for %k = %c0 to %kn step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
          %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
          %w = ttng.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
          scf.yield %w : tensor<128x128xf32, #mma>
        }
        %done = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>
        %narrow = arith.truncf %done : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
        ttg.local_store %narrow, %out : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
        ttng.async_tma_copy_local_to_global %c_desc[%row, %c0] %out : !tt.tensordesc<tensor<128x128xf16, #shared>>, !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
      }
      ttng.async_tma_store_wait {pendings = 0 : i32}
      ttg.warp_yield
    }
    partition0(%n: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Left alone: the stores use a value that is not a scalar (here a view
// chosen per tile), and a K loop whose bound changes from tile to tile.
// CHECK-LABEL: @not_matched
// CHECK-NOT: scf.if
// CHECK: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @not_matched(%tiles: i32, %kn: i32) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %out = ttg.local_alloc : () -> !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%tiles) attributes {requestedRegisters = array<i32: 24>}
    default {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
      scf.for %i = %c0 to %tiles step %c1 : i32 {
        %acc = scf.for %k = %c0 to %kn step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
          %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
          %w = ttng.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
          scf.yield %w : tensor<128x128xf32, #mma>
        }
        %done = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>
        %slot = arith.remsi %i, %c2 : i32
        %view = ttg.memdesc_index %out[%slot] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
        %narrow = arith.truncf %done : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
        ttg.local_store %narrow, %view : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
      }
      scf.for %i = %c0 to %tiles step %c1 : i32 {
        %acc = scf.for %k = %c0 to %i step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
          %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
          scf.yield %d : tensor<128x128xf32, #mma>
        }
        %done = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>
        %narrow = arith.truncf %done : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
        %view = ttg.memdesc_index %out[%c0] : !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
        ttg.local_store %narrow, %view : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
      }
      ttg.warp_yield
    }
    partition0(%n: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Left alone: after the narrowing the task arrives on an mbarrier another
// partition waits for; moving it past the next tile's first wgmma would
// hold that partition back a whole step.
// CHECK-LABEL: @arrives_after
// CHECK-NOT: arith.cmpi slt
// CHECK: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @arrives_after(%tiles: i32, %kn: i32) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %out = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttg.warp_specialize(%tiles) attributes {requestedRegisters = array<i32: 24>}
    default {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %true = arith.constant true
      %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
      scf.for %i = %c0 to %tiles step %c1 : i32 {
        %acc = scf.for %k = %c0 to %kn step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
          %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
          %w = ttng.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
          scf.yield %w : tensor<128x128xf32, #mma>
        }
        %done = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>
        %narrow = arith.truncf %done : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
        ttg.local_store %narrow, %out : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
        ttng.arrive_barrier %bar, 1, %true : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
      }
      ttg.warp_yield
    }
    partition0(%n: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}

// -----

// Left alone: the K loop reads global memory before its wgmma (here the
// bias the stores also write), which the previous tile's moved stores
// would then write after it instead of before.
// CHECK-LABEL: @reads_before_dot
// CHECK-NOT: arith.cmpi slt
// CHECK: tt.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reads_before_dot(%tiles: i32, %kn: i32, %p: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %out = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%tiles) attributes {requestedRegisters = array<i32: 24>}
    default {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %f1 = arith.constant 1.0 : f32
      %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
      scf.for %i = %c0 to %tiles step %c1 : i32 {
        %acc = scf.for %k = %c0 to %kn step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
          %bias = tt.load %p : !tt.ptr<f32>
          %d = ttng.warp_group_dot %a, %b, %c {isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
          %w = ttng.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
          scf.yield %w : tensor<128x128xf32, #mma>
        }
        %done = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>
        %narrow = arith.truncf %done : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
        ttg.local_store %narrow, %out : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
        tt.store %p, %f1 : !tt.ptr<f32>
      }
      ttg.warp_yield
    }
    partition0(%n: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> ()
    tt.return
  }
}
