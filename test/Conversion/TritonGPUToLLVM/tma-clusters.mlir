// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-allocate-global-scratch --llir-convert-to-llvm %s | FileCheck %s

// In a program of two CTAs each copies its tile of a block split over them:
// the second CTA's 64x128 half of a 64x256 block starts 128 columns in
// (its rank selects the block basis), in two 64-column messages.
// CHECK-LABEL: llvm.func @load_split
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[BIT:.*]] = llvm.and %[[RANK]], %{{.*}}
// CHECK: %[[ON:.*]] = llvm.icmp "ne" %[[BIT]], %{{.*}}
// CHECK: %[[ORIGIN:.*]] = llvm.select %[[ON]], %{{.*}}, %{{.*}} : i1, i32
// CHECK: %[[COL:.*]] = llvm.add %arg2, %[[ORIGIN]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%[[COL]], %arg1]
// CHECK: %[[COL64:.*]] = llvm.add %arg2, %[[ORIGIN]]
// CHECK: %[[NEXT:.*]] = llvm.add %[[COL64]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%[[NEXT]], %arg1]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: llvm.return
#split = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_split(%d: !tt.tensordesc<tensor<64x256xf16, #split>>, %x: i32, %y: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x256xf16, #split, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %true = arith.constant true
    ttng.async_tma_copy_global_to_local %d[%x, %y] %buf, %bar, %true : !tt.tensordesc<tensor<64x256xf16, #split>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x256xf16, #split, #smem, mutable>
    tt.return
  }
}

// -----

// A block every CTA holds whole goes out once, from the CTA of rank 0 (a
// reduction from each would add it twice).
// CHECK-LABEL: llvm.func @store_whole
// CHECK: %[[TID0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[MASKED:.*]] = llvm.and %[[RANK]], %{{.*}}
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[MASKED]], %{{.*}}
// CHECK-NEXT: %[[WHO:.*]] = llvm.and %[[TID0]], %[[FIRST]]
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group {{.*}}" %[[WHO]],
#whole = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#smem1 = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_whole(%d: !tt.tensordesc<tensor<128x64xf16, #whole>>, %x: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #whole, #smem1, mutable>
    ttng.async_tma_reduce add, %d[%x, %x] %buf : !tt.tensordesc<tensor<128x64xf16, #whole>>, !ttg.memdesc<128x64xf16, #whole, #smem1, mutable>
    tt.return
  }
}
