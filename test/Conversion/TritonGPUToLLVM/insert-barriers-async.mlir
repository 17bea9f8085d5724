// RUN: kiln-opt --split-input-file --llir-allocate-shared-memory --llir-insert-barriers %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // A copy's write lands at the wait, not where it is issued: the read of
  // the buffer waits for other threads after the wait; nothing between the
  // copy and the wait does.
  // CHECK-LABEL: tt.func public @read_after_wait
  tt.func public @read_after_wait(%p: tensor<512x!tt.ptr<f32>, #b>) {
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK-NEXT: ttg.async_commit_group
    // CHECK-NEXT: ttg.async_wait
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: tt.return
    %a = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %l = ttg.local_load %a token %w : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    tt.return
  }

  // A copy over a buffer other threads read must wait for those reads;
  // two copies in a row never need a barrier (it would not order when
  // they land).
  // CHECK-LABEL: tt.func public @write_after_read
  tt.func public @write_after_read(%p: tensor<512x!tt.ptr<f32>, #b>, %x: tensor<512xf32, #b>) {
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK-NEXT: ttg.async_commit_group
    // CHECK-NEXT: tt.return
    %a = ttg.local_alloc %x : (tensor<512xf32, #b>) -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %u = ttg.async_copy_global_to_local %p, %a : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t, %u
    tt.return
  }

  // A barrier does not complete a copy: after one, the copy's write is
  // still to land at the wait, and the read after the wait still needs a
  // barrier of its own. A copy not yet committed is not covered by the
  // wait, so reading its buffer needs no barrier there (nor would one
  // help); it lands at a wait after its commit.
  // CHECK-LABEL: tt.func public @barrier_before_wait
  tt.func public @barrier_before_wait(%p: tensor<512x!tt.ptr<f32>, #b>, %x: tensor<512xf32, #b>) {
    // CHECK: ttg.async_copy_global_to_local
    // CHECK-NEXT: ttg.async_commit_group
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load %[[C:.*]] :
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK-NEXT: ttg.async_wait
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load %[[A:.*]] :
    // CHECK-NEXT: ttg.local_load %[[B:.*]] :
    // CHECK-NEXT: ttg.async_commit_group
    // CHECK-NEXT: ttg.async_wait
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: tt.return
    %a = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %b2 = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %c = ttg.local_alloc %x : (tensor<512xf32, #b>) -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %lc = ttg.local_load %c : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    %u = ttg.async_copy_global_to_local %p, %b2 : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %w = ttg.async_wait %g {num = 0 : i32}
    %la = ttg.local_load %a : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    %lb = ttg.local_load %b2 : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    %h = ttg.async_commit_group tokens %u
    %v = ttg.async_wait %h {num = 0 : i32}
    %lb2 = ttg.local_load %b2 : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // Buffers 0 and 1 of a ring (constant indices) are disjoint bytes:
  // reading buffer 0 after the wait, then copying into buffer 1, needs only
  // the barrier after the wait. Copying into a buffer of dynamic index
  // overlaps all of the ring, so it waits for the read.
  // CHECK-LABEL: tt.func public @ring_constant_and_dynamic
  tt.func public @ring_constant_and_dynamic(%p: tensor<512x!tt.ptr<f32>, #b>, %i: i32) {
    // CHECK: ttg.async_wait
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: ttg.async_copy_global_to_local %{{.*}}, %[[S1:.*]] :
    // CHECK-NEXT: ttg.memdesc_index
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK-NEXT: tt.return
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x512xf32, #s, #smem, mutable>
    %s0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %s1 = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %s0 : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 0 : i32}
    %l = ttg.local_load %s0 : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
    %u = ttg.async_copy_global_to_local %p, %s1 : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %si = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %v = ttg.async_copy_global_to_local %p, %si : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // The pipelined loop: wait {num = 1} leaves a group in flight, which
  // lands at the next iteration's wait; each iteration's read needs the
  // barrier after its wait, and its copy the barrier after the read.
  // CHECK-LABEL: tt.func public @pipelined_loop
  tt.func public @pipelined_loop(%p: tensor<512x!tt.ptr<f32>, #b>, %n: i32) {
    // CHECK: ttg.async_commit_group
    // CHECK-NOT: gpu.barrier
    // CHECK: ttg.async_commit_group
    // CHECK-NEXT: scf.for
    // CHECK-NEXT: ttg.async_wait
    // CHECK-NEXT: ttg.memdesc_index
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: ttg.memdesc_index
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK-NEXT: ttg.async_commit_group
    // CHECK-NEXT: scf.yield
    // CHECK: ttg.async_wait {num = 0 : i32}
    // CHECK-NEXT: tt.return
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x512xf32, #s, #smem, mutable>
    %s0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t0 = ttg.async_copy_global_to_local %p, %s0 : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g0 = ttg.async_commit_group tokens %t0
    %s1 = ttg.memdesc_index %ring[%c1] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t1 = ttg.async_copy_global_to_local %p, %s1 : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g1 = ttg.async_commit_group tokens %t1
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%k0 = %g0, %k1 = %g1) -> (!ttg.async.token, !ttg.async.token) : i32 {
      %w = ttg.async_wait %k0 {num = 1 : i32}
      %cur = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
      %x = ttg.local_load %cur token %w : !ttg.memdesc<512xf32, #s, #smem, mutable> -> tensor<512xf32, #b>
      %nxt = ttg.memdesc_index %ring[%n] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
      %t = ttg.async_copy_global_to_local %p, %nxt : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
      %g = ttg.async_commit_group tokens %t
      scf.yield %k1, %g : !ttg.async.token, !ttg.async.token
    }
    %d = ttg.async_wait {num = 0 : i32}
    tt.return
  }
}
