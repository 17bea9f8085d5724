// RUN: kiln-opt -split-input-file --ttgir-optimize-descriptor-encoding --ttgir-tma-lowering %s | FileCheck %s

// In a program of two CTAs a descriptor's block is split over them as the
// tensors copied through it are: B's block along N (each CTA copies its
// 64x128 tile: 16384 bytes on its own mbarrier), A's whole in each CTA.
// The swizzle is chosen for a CTA's tile.
// CHECK-DAG: #[[WHOLE:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 0]]}>
// CHECK-DAG: #[[SPLIT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK-DAG: #[[BAR:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = {{\[\[}}0]]}>
// CHECK-LABEL: tt.func public @split_b
// CHECK-SAME: !tt.tensordesc<tensor<128x64xf16, #[[WHOLE]]>>
// CHECK-SAME: !tt.tensordesc<tensor<64x256xf16, #[[SPLIT]]>>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #[[WHOLE]], #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<1xi64, #[[BAR]], #smem, mutable>
// CHECK: ttng.barrier_expect %{{.*}}, 16384
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<64x256xf16, #[[SPLIT]], #smem, mutable>
// CHECK: ttng.barrier_expect %{{.*}}, 16384
#whole = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0]]}>
#split = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_b(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x256xf16>>, %i: i32) -> (tensor<128x64xf16, #whole>, tensor<64x256xf16, #split>) {
    %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #whole>
    %y = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x256xf16>> -> tensor<64x256xf16, #split>
    tt.return %x, %y : tensor<128x64xf16, #whole>, tensor<64x256xf16, #split>
  }
}

// -----

// Two copies through one descriptor that split it differently: the loop's
// split wins (the block whole in each CTA) and the copy after the loop
// loads in it, then converts to the layout its users have; a store carried
// through the loop's descriptor converts its source the same way.
// CHECK-DAG: #[[W:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 0]]}>
// CHECK-LABEL: tt.func public @loop_split_wins
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[D:.*]] = %{{.*}}) -> (tensor<128x64xf16, #{{.*}}>, !tt.tensordesc<tensor<128x64xf16, #[[W]]>>)
// CHECK: ttg.local_load {{.*}} -> tensor<128x64xf16, #[[WHOLEB:blocked[0-9]*]]>
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK: %[[L:.*]] = ttg.local_load {{.*}} -> tensor<128x64xf16, #[[WHOLEB2:blocked[0-9]*]]>
// CHECK-NEXT: ttg.convert_layout %[[L]] : tensor<128x64xf16, #[[WHOLEB2]]> -> tensor<128x64xf16, #[[SPLITB:blocked[0-9]*]]>
// CHECK: %[[S:.*]] = ttg.convert_layout %{{.*}} : tensor<128x64xf16, #[[SPLITB]]> -> tensor<128x64xf16, #{{blocked[0-9]*}}>
// CHECK-NEXT: ttg.local_alloc %[[S]] : {{.*}} -> !ttg.memdesc<128x64xf16, #[[W]], #smem>
// CHECK: ttng.async_tma_copy_local_to_global
#w = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0]]}>
#s = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop_split_wins(%a: !tt.tensordesc<tensor<128x64xf16>>, %n: i32) -> (tensor<128x64xf16, #w>, tensor<128x64xf16, #s>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #w>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %d = %a) -> (tensor<128x64xf16, #w>, !tt.tensordesc<tensor<128x64xf16>>) : i32 {
      %x = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #w>
      %sum = arith.addf %acc, %x : tensor<128x64xf16, #w>
      scf.yield %sum, %d : tensor<128x64xf16, #w>, !tt.tensordesc<tensor<128x64xf16>>
    } {tt.num_stages = 1 : i32}
    %last = tt.descriptor_load %r#1[%n, %c0] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #s>
    tt.descriptor_store %r#1[%c0, %c0], %last : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16, #s>
    tt.return %r#0, %last : tensor<128x64xf16, #w>, tensor<128x64xf16, #s>
  }
}
