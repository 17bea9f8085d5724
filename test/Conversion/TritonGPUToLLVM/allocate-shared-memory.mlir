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
