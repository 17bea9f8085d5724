// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %s | FileCheck %s

// 8 consecutive f16 per thread, 8-element vectors in the swizzled buffer
// and pointers known 16-byte aligned: one 16-byte .cg copy per thread and
// row repetition (2, 1024 elements apart), at the offsets local_store
// uses. The mask's vector copies 16 or 0 bytes (zero fill). Groups and
// waits map one to one; tokens are i32 zeros. The load after the wait
// reads what other threads copied: a barrier after the wait.
// CHECK-LABEL: llvm.func @copy_f16
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[DST0:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: %[[SIZE0:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
// CHECK: nvvm.cp.async.shared.global %[[DST0]], %{{.*}}, 16, cache = cg, %[[SIZE0]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: %[[DST1:.*]] = llvm.getelementptr %{{.*}}[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK: nvvm.cp.async.shared.global %[[DST1]], %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK: nvvm.cp.async.wait.group 0
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @copy_f16(%p: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #b>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %c32 = arith.constant dense<32> : tensor<64x1xi32, #b>
    %roff = arith.muli %r2, %c32 : tensor<64x1xi32, #b>
    %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b>
    %rb = tt.broadcast %roff : tensor<64x1xi32, #b> -> tensor<64x32xi32, #b>
    %cb = tt.broadcast %c2 : tensor<1x32xi32, #b> -> tensor<64x32xi32, #b>
    %off = arith.addi %rb, %cb : tensor<64x32xi32, #b>
    %base = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #b>
    %ptrs = tt.addptr %base, %off : tensor<64x32x!tt.ptr<f16>, #b>, tensor<64x32xi32, #b>
    %sn = tt.splat %n : i32 -> tensor<64x1xi32, #b>
    %rowin = arith.cmpi slt, %r2, %sn : tensor<64x1xi32, #b>
    %mask = tt.broadcast %rowin : tensor<64x1xi1, #b> -> tensor<64x32xi1, #b>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %mask other %zero : tensor<64x32x!tt.ptr<f16>, #b> -> <64x32xf16, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 1 : i32}
    %x = ttg.local_load %buf token %w : !ttg.memdesc<64x32xf16, #s, #smem, mutable> -> tensor<64x32xf16, #b>
    %done = ttg.async_wait {num = 0 : i32}
    tt.store %ptrs, %x : tensor<64x32x!tt.ptr<f16>, #b>
    tt.return
  }
}

// -----

// f32 pointers of unknown alignment (no divisibility): 4-byte copies, which
// cache in L1 (.ca), without a mask. The layout holds each element in two
// lanes (lane bit 4 is free: 16 lanes cover the 64 elements), so lanes
// 16-31 copy nothing: one branch around all of the thread's copies.
// CHECK-LABEL: llvm.func @copy_f32_replicated
// CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.cond_br %[[OWNER]], ^[[COPY:.*]], ^[[JOIN:.*]]
// CHECK: ^[[COPY]]:
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: llvm.br ^[[JOIN]]
// CHECK: ^[[JOIN]]:
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.shared.global
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:80"} {
  tt.func public @copy_f32_replicated(%ptrs: tensor<64x!tt.ptr<f32>, #b>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf : tensor<64x!tt.ptr<f32>, #b> -> <64xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}

// -----

// The proxy fences, for the CTA and for the cluster.
// CHECK-LABEL: llvm.func @fences
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @fences() {
    ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = true}
    tt.return
  }
}
