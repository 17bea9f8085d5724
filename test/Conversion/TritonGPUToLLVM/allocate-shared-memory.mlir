// RUN: kiln-opt --split-input-file --llir-allocate-shared-memory %s --verify-diagnostics | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// Two buffers live at once sit side by side; a third allocated after the
// first is dead reuses its bytes.
// CHECK: module attributes {{{.*}}ttg.shared = 1536 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func public @reuse
  tt.func public @reuse(%x: tensor<256xf32, #b>, %y: tensor<128xf32, #b>) {
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
    %a = ttg.local_alloc %x : (tensor<256xf32, #b>) -> !ttg.memdesc<256xf32, #s, #smem>
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 1024 : i32}
    %c = ttg.local_alloc %y : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf32, #s, #smem>
    %la = ttg.local_load %a : !ttg.memdesc<256xf32, #s, #smem> -> tensor<256xf32, #b>
    %lc = ttg.local_load %c : !ttg.memdesc<128xf32, #s, #smem> -> tensor<128xf32, #b>
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
    %d = ttg.local_alloc %y : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf32, #s, #smem>
    %ld = ttg.local_load %d : !ttg.memdesc<128xf32, #s, #smem> -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// A buffer used inside a loop stays live for the whole loop, so one
// allocated in the loop after its last use there cannot take its bytes.
// CHECK: ttg.shared = 768 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func public @loop
  tt.func public @loop(%x: tensor<128xf32, #b>, %y: tensor<64xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    scf.for %i = %c0 to %n step %c1 : i32 {
      ttg.local_store %x, %a : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #s, #smem, mutable>
      // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 512 : i32}
      %t = ttg.local_alloc %y : (tensor<64xf32, #b>) -> !ttg.memdesc<64xf32, #s, #smem>
      %l = ttg.local_load %t : !ttg.memdesc<64xf32, #s, #smem> -> tensor<64xf32, #b>
    }
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // expected-error @+1 {{kernel 'too_big' needs 262144 bytes of shared memory; cuda:90 allows 232448}}
  tt.func public @too_big() {
    // expected-note @+1 {{262144 bytes at offset 0 for 'ttg.local_alloc'}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<65536xf32, #s, #smem, mutable>
    tt.return
  }
}

// -----

// No buffers: ttg.shared is 0, as Triton writes it.
// CHECK: ttg.shared = 0 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:80"} {
  tt.func public @none() {
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// An async copy writes its buffer until the async_wait {num = 0} after it,
// even when the copy is the buffer's last use: a buffer allocated before
// that wait gets other bytes, one allocated after it may reuse them. The
// ring of three buffers indexed dynamically is one allocation.
// CHECK: module attributes {{{.*}}ttg.shared = 8192 : i32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func public @async_live_until_wait
  tt.func public @async_live_until_wait(%p: tensor<512x!tt.ptr<f32>, #b>, %x: tensor<512xf32, #b>, %i: i32) {
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %ring = ttg.local_alloc : () -> !ttg.memdesc<3x512xf32, #s, #smem, mutable>
    %slot = ttg.memdesc_index %ring[%i] : !ttg.memdesc<3x512xf32, #s, #smem, mutable> -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %slot : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 6144 : i32}
    %c = ttg.local_alloc %x : (tensor<512xf32, #b>) -> !ttg.memdesc<512xf32, #s, #smem>
    %lc = ttg.local_load %c : !ttg.memdesc<512xf32, #s, #smem> -> tensor<512xf32, #b>
    %w = ttg.async_wait %g {num = 0 : i32}
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
    %d = ttg.local_alloc %x : (tensor<512xf32, #b>) -> !ttg.memdesc<512xf32, #s, #smem>
    %ld = ttg.local_load %d : !ttg.memdesc<512xf32, #s, #smem> -> tensor<512xf32, #b>
    tt.return
  }

  // Without a wait {num = 0} the copy may land any time: its buffer stays
  // live to the end.
  // CHECK-LABEL: tt.func public @async_never_waited
  tt.func public @async_never_waited(%p: tensor<512x!tt.ptr<f32>, #b>, %x: tensor<512xf32, #b>) {
    // CHECK: ttg.local_alloc {allocation.offset = 0 : i32}
    %a = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %p, %a : tensor<512x!tt.ptr<f32>, #b> -> <512xf32, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    %w = ttg.async_wait %g {num = 1 : i32}
    // CHECK: ttg.local_alloc %{{.*}} {allocation.offset = 2048 : i32}
    %d = ttg.local_alloc %x : (tensor<512xf32, #b>) -> !ttg.memdesc<512xf32, #s, #smem>
    %ld = ttg.local_load %d : !ttg.memdesc<512xf32, #s, #smem> -> tensor<512xf32, #b>
    tt.return
  }
}
