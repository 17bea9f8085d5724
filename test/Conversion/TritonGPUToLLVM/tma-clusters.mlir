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

// -----

// A multicast copy of a block both CTAs hold: its two 64x64 messages are
// shared, the first sent by the CTA whose replicated rank bit is 0, the
// second by the other, each to both CTAs (mask 0b11 shifted by the rank's
// other bits, here none).
// CHECK-LABEL: llvm.func @load_multicast
// CHECK: %[[INDEX:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
// CHECK: %[[BASE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[WIDE:.*]] = llvm.shl %{{.*}}, %[[BASE]] : i32
// CHECK: %[[MASK:.*]] = llvm.trunc %[[WIDE]] : i32 to i16
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[INDEX]], %{{.*}} : i32
// CHECK: %[[SEND0:.*]] = llvm.and %{{.*}}, %[[FIRST]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%arg2, %arg1] multicast_mask = %[[MASK]] predicate = %[[SEND0]]
// CHECK: %[[SECOND:.*]] = llvm.icmp "eq" %[[INDEX]], %{{.*}} : i32
// CHECK: %[[SEND1:.*]] = llvm.and %{{.*}}, %[[SECOND]]
// CHECK: %[[ROW64:.*]] = llvm.add %arg1, %{{.*}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%arg2, %[[ROW64]]] multicast_mask = %[[MASK]] predicate = %[[SEND1]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: llvm.return
#whole2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#bar2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem2 = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_multicast(%d: !tt.tensordesc<tensor<128x64xf16, #whole2>>, %x: i32, %y: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #whole2, #smem2, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar2, #smem2, mutable>
    %true = arith.constant true
    ttng.async_tma_copy_global_to_local %d[%x, %y] %buf, %bar, %true {multicast} : !tt.tensordesc<tensor<128x64xf16, #whole2>>, !ttg.memdesc<1xi64, #bar2, #smem2, mutable> -> !ttg.memdesc<128x64xf16, #whole2, #smem2, mutable>
    tt.return
  }
}

// -----

// An arrival on another CTA's mbarrier: mapa of the CTA's own address,
// then a cluster-scope release arrive on the shared::cluster address; the
// cluster's barrier and the fence of mbarrier inits.
// CHECK-LABEL: llvm.func @remote_arrive
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[PEER:.*]] = llvm.xor %[[RANK]]
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i32
// CHECK: "@$0 mbarrier.arrive.shared::cluster.b64 _, [$1], 2;", "b,r" %{{.*}}, %[[ADDR]]
// CHECK: "fence.mbarrier_init.release.cluster;"
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK: nvvm.cluster.wait
#bar3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem3 = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remote_arrive() {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar3, #smem3, mutable>
    %one = arith.constant 1 : i32
    %rank = ttng.cluster_cta_rank : i32
    %peer = arith.xori %rank, %one : i32
    %remote = ttng.map_to_remote_buffer %bar, %peer : !ttg.memdesc<1xi64, #bar3, #smem3, mutable> -> !ttg.memdesc<1xi64, #bar3, #ttng.shared_cluster_memory, mutable>
    ttng.arrive_barrier %remote, 2 : !ttg.memdesc<1xi64, #bar3, #ttng.shared_cluster_memory, mutable>
    ttng.fence_mbarrier_init_release_cluster
    ttng.cluster_arrive {relaxed = true}
    ttng.cluster_wait
    tt.return
  }
}

// -----

// A tile of one swizzle atom (8 rows of 128 bytes) cannot be cut into a
// message per CTA: each CTA copies it whole by itself, no multicast.
// CHECK-LABEL: llvm.func @load_multicast_too_small
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: multicast_mask
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: llvm.return
#atom = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#bar4 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem4 = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_multicast_too_small(%d: !tt.tensordesc<tensor<8x64xf16, #atom>>, %x: i32, %y: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<8x64xf16, #atom, #smem4, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar4, #smem4, mutable>
    %true = arith.constant true
    ttng.async_tma_copy_global_to_local %d[%x, %y] %buf, %bar, %true {multicast} : !tt.tensordesc<tensor<8x64xf16, #atom>>, !ttg.memdesc<1xi64, #bar4, #smem4, mutable> -> !ttg.memdesc<8x64xf16, #atom, #smem4, mutable>
    tt.return
  }
}
