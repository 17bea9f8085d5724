// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// The ops the corpus's dot kernels use, ttg's cp.async ops and memdesc_trans
// and ttng's, in the form Triton 3.6 prints, through a custom-form and a
// generic-form round trip.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cp_async
  tt.func @cp_async(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %o: tensor<64x64xf16, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: %[[T0:.*]] = ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} other %{{.*}} {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %p, %buf mask %m other %o {contiguity = 8 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} cacheModifier = cg : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %p, %buf cacheModifier = cg : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    // CHECK: %[[G:.*]] = ttg.async_commit_group tokens %[[T0]], %{{.*}}
    %g = ttg.async_commit_group tokens %t0, %t1
    // CHECK: ttg.async_commit_group{{$}}
    %e = ttg.async_commit_group
    // CHECK: %[[W:.*]] = ttg.async_wait %[[G]] {num = 1 : i32}
    %w = ttg.async_wait %g {num = 1 : i32}
    // CHECK: ttg.async_wait {num = 0 : i32}
    %w0 = ttg.async_wait {num = 0 : i32}
    // CHECK: ttg.local_load %{{.*}} token %[[W]]
    %v = ttg.local_load %buf token %w : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @wgmma
  tt.func @wgmma(%a: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %c: tensor<64x128xf32, #mma>, %use: i1) {
    // CHECK: %[[BT:.*]] = ttg.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>
    %bt = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>
    // CHECK: ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = false}
    // CHECK: %[[D:.*]] = ttng.warp_group_dot %{{.*}}, %[[BT]], %{{.*}} {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared1, #smem, mutable> -> tensor<64x128xf32, #mma>
    %d = ttng.warp_group_dot %a, %bt, %c {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared1, #smem, mutable> -> tensor<64x128xf32, #mma>
    // CHECK: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc
    %d1 = ttng.warp_group_dot %a, %bt, %c, %use {maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared1, #smem, mutable> -> tensor<64x128xf32, #mma>
    // CHECK: %{{.*}}:3 = ttng.warp_group_dot_wait %[[D]], %{{.*}}, %[[BT]] {pendings = 0 : i32} : tensor<64x128xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>
    %r:3 = ttng.warp_group_dot_wait %d, %a, %bt {pendings = 0 : i32} : tensor<64x128xf32, #mma>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tma
  tt.func @tma(%desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %x: i32, %y: i32, %pred: i1, %phase: i32) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.init_barrier %{{.*}}, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // CHECK: ttng.barrier_expect %{{.*}}, 16384, %{{.*}} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.async_tma_copy_global_to_local {{.*}} evictionPolicy = evict_first {multicast} : !tt.tensordesc
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %buf, %bar, %pred evictionPolicy = evict_first {multicast} : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}}, %{{.*}} deps %{{.*}} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %phase, %pred deps %buf : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.inval_barrier %{{.*}} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    // CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_local_to_global %desc[%x, %y] %buf : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}

// -----

// Descriptors made on the device, TMA reductions and mbarrier arrivals, as
// Triton 3.6 prints them.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @tensormap
  tt.func @tensormap(%base: !tt.ptr<f16>, %m: i32, %n: i32, %stride: i64, %buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %p: i1) {
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[MAP:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    %map = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    // CHECK: ttng.tensormap_create %[[MAP]], %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}], [%{{.*}}, %{{.*}}] {elem_type = 6 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_create %map, %base, [%c64, %c64], [%n, %m], [%stride], [%c1, %c1] {elem_type = 6 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    // CHECK: ttng.tensormap_fenceproxy_acquire %[[MAP]] : !tt.ptr<i8>
    ttng.tensormap_fenceproxy_acquire %map : !tt.ptr<i8>
    // CHECK: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[MAP]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    %d = ttng.reinterpret_tensor_descriptor %map : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    // CHECK: ttng.async_tma_reduce add, %[[D]][%{{.*}}, %{{.*}}] %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.async_tma_reduce add, %d[%m, %n] %buf : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // CHECK: ttng.async_tma_prefetch %[[D]][%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #shared>>
    ttng.async_tma_prefetch %d[%m, %n], %p : !tt.tensordesc<tensor<64x64xf16, #shared>>
    // CHECK: ttng.arrive_barrier %{{.*}}, 2 : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK: ttng.arrive_barrier %{{.*}}, 1, %{{.*}} : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    ttng.arrive_barrier %bar, 1, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %c5 = arith.constant 5 : i32
    %c256 = arith.constant 256 : i32
    // CHECK: ttng.named_barrier_arrive %{{.*}}, %{{.*}} : i32, i32
    ttng.named_barrier_arrive %c5, %c256 : i32, i32
    // CHECK: ttng.named_barrier_wait %{{.*}}, %{{.*}} : i32, i32
    ttng.named_barrier_wait %c5, %c256 : i32, i32
    tt.return
  }
}

// -----

// Gluon's reinterpret of a buffer.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @reinterpret
  // CHECK: ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable> -> !ttg.memdesc<2048xi32, #{{.*}}, #smem, mutable>
  tt.func @reinterpret(%buf: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) {
    %v = ttg.memdesc_reinterpret %buf : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<2048xi32, #flat, #smem, mutable>
    tt.return
  }
}

// -----

// Thread-block clusters: another CTA's mbarrier, the cluster's barrier and
// the fence of mbarrier inits, as Triton prints them.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cluster
  tt.func @cluster(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
    // CHECK: ttng.fence_mbarrier_init_release_cluster
    ttng.fence_mbarrier_init_release_cluster
    // CHECK: ttng.cluster_arrive {relaxed = true}
    ttng.cluster_arrive {relaxed = true}
    // CHECK: ttng.cluster_wait
    ttng.cluster_wait
    // CHECK: %[[R:.*]] = ttng.cluster_cta_rank : i32
    %rank = ttng.cluster_cta_rank : i32
    // CHECK: %[[V:.*]] = ttng.map_to_remote_buffer %{{.*}}, %[[R]] : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable> -> !ttg.memdesc<1xi64, #{{.*}}, #ttng.shared_cluster_memory, mutable>
    %remote = ttng.map_to_remote_buffer %bar, %rank : !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #ttng.shared_cluster_memory, mutable>
    // CHECK: ttng.arrive_barrier %[[V]], 1 : !ttg.memdesc<1xi64, #{{.*}}, #ttng.shared_cluster_memory, mutable>
    ttng.arrive_barrier %remote, 1 : !ttg.memdesc<1xi64, #shared, #ttng.shared_cluster_memory, mutable>
    tt.return
  }
}
