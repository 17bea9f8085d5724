// RUN: kiln-opt -split-input-file --llir-allocate-warp-groups --llir-allocate-shared-memory \
// RUN:   --llir-insert-barriers --llir-convert-to-llvm --llir-lower-warp-specialize %s | FileCheck %s
// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory %s | FileCheck %s --check-prefix=ALLOC

// Clusters of CTAs that each run the program alone (ttg.cluster-ctas, as a
// kernel managing its own buffers compiles with num_ctas > 1): one-CTA
// layouts, but the program is the cluster (its id is the cluster's), the
// kernel requires the cluster's shape, a copy multicasts to the CTAs its
// mask names (those of the cluster), and an arrival reaches another CTA's barrier through mapa.
// CHECK-LABEL: llvm.func @lone_ctas
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: nvvm.read.ptx.sreg.clusterid.x
// CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[IN:.*]] = llvm.and %arg4, %[[THREE]] : i32
// CHECK: %[[MASK:.*]] = llvm.trunc %[[IN]] : i32 to i16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask = %[[MASK]]
// CHECK: nvvm.mapa
// CHECK: mbarrier.arrive.shared::cluster.b64
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lone_ctas(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %out: !tt.ptr<i32>, %x: i32, %y: i32, %mask: i32, %peer: i32) {
    %pid = tt.get_program_id x : i32
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b>
    %v = tt.splat %pid : i32 -> tensor<128xi32, #b>
    tt.store %p, %v : tensor<128x!tt.ptr<i32>, #b>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %true = arith.constant true
    ttng.async_tma_copy_global_to_local %d[%x, %y] %buf, %bar, %true multicast_mask %mask : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %there = ttng.map_to_remote_buffer %bar, %peer : !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #ttng.shared_cluster_memory, mutable>
    ttng.arrive_barrier %there, 1 : !ttg.memdesc<1xi64, #bar, #ttng.shared_cluster_memory, mutable>
    tt.return
  }
}

// -----

// A cluster barrier the default warps reach outside warp specialisation
// waits for every thread of the cluster, the idle workers' too: the default
// warps send them its word (2: arrive, 4: wait, after op 1) at the
// dispatch barrier (all 8 warps: the worker has a warp group of its own),
// and meet them there once more after it.
// CHECK-LABEL: llvm.func @gathered
// CHECK: llvm.store %[[ARRIVE:.*]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: "bar.sync 1, 256;"
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: "bar.sync 1, 256;"
// CHECK: llvm.store %[[WAIT:.*]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NEXT: "bar.sync 1, 256;"
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: "bar.sync 1, 256;"
// Those inside the op's regions are their own warps': not gathered (the
// barrier after the default region's is its join).
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: "bar.sync 1, 256;"
// CHECK-NEXT: llvm.br
// CHECK: llvm.switch %{{.*}} : i32, ^[[EXIT:bb[0-9]+]] [
// CHECK-NEXT: 1: ^{{bb[0-9]+}},
// CHECK-NEXT: 2: ^[[WARRIVE:bb[0-9]+]],
// CHECK-NEXT: 4: ^[[WWAIT:bb[0-9]+]]
// CHECK: nvvm.cluster.wait
// CHECK-NEXT: llvm.br
// CHECK: ^[[WARRIVE]]:
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: "bar.sync 1, 256;"
// CHECK: ^[[WWAIT]]:
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: "bar.sync 1, 256;"
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @gathered(%p: !tt.ptr<i32>) {
    ttng.cluster_arrive {relaxed = false}
    ttng.cluster_wait
    ttg.warp_specialize(%p)
    default {
      ttng.cluster_arrive {relaxed = true}
      ttg.warp_yield
    }
    partition0(%x: !tt.ptr<i32>) num_warps(1) {
      ttng.cluster_wait
      ttg.warp_return
    } : (!tt.ptr<i32>) -> ()
    tt.return
  }
}

// -----

// A barrier other CTAs arrive on (through map_to_remote_buffer) stays
// allocated to the end: a buffer made after its last local use does not
// take its bytes.
// ALLOC-LABEL: tt.func public @remote_lifetime
// ALLOC: ttg.local_alloc {allocation.offset = [[BAR:[0-9]+]] : i32}
// ALLOC-NOT: allocation.offset = [[BAR]] :
// ALLOC: tt.return
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @remote_lifetime(%out: !tt.ptr<f32>, %peer: i32) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %there = ttng.map_to_remote_buffer %bar, %peer : !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #ttng.shared_cluster_memory, mutable>
    ttng.arrive_barrier %there, 1 : !ttg.memdesc<1xi64, #bar, #ttng.shared_cluster_memory, mutable>
    %v = arith.constant dense<1.0> : tensor<128xf32, #b>
    %buf = ttg.local_alloc %v : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf32, #bar, #smem>
    %w = ttg.local_load %buf : !ttg.memdesc<128xf32, #bar, #smem> -> tensor<128xf32, #b>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>
    tt.store %p, %w : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}
