// RUN: kiln-opt --split-input-file --llir-allocate-shared-memory --llir-insert-barriers %s | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // A read after a write of the same buffer waits; so does a write after
  // that read. Reads after reads do not.
  // CHECK-LABEL: tt.func public @straight
  tt.func public @straight(%x: tensor<128xf32, #b>) {
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_store
    // CHECK-NEXT: tt.return
    %a = ttg.local_alloc %x : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    %l = ttg.local_load %a : !ttg.memdesc<128xf32, #s, #smem, mutable> -> tensor<128xf32, #b>
    %m = ttg.local_load %a : !ttg.memdesc<128xf32, #s, #smem, mutable> -> tensor<128xf32, #b>
    ttg.local_store %x, %a : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    tt.return
  }

  // Buffers live at the same time do not overlap: the first read waits for
  // both initialising writes, and then nothing is pending for the second.
  // CHECK-LABEL: tt.func public @disjoint
  tt.func public @disjoint(%x: tensor<128xf32, #b>) {
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: ttg.local_alloc
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: ttg.local_load
    // CHECK-NEXT: tt.return
    %a = ttg.local_alloc %x : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf32, #s, #smem>
    %c = ttg.local_alloc %x : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf32, #s, #smem>
    %l = ttg.local_load %a : !ttg.memdesc<128xf32, #s, #smem> -> tensor<128xf32, #b>
    %m = ttg.local_load %c : !ttg.memdesc<128xf32, #s, #smem> -> tensor<128xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  // The store of iteration i+1 must wait for the load of iteration i: the
  // loop body's end reaches its start.
  // CHECK-LABEL: tt.func public @loop
  tt.func public @loop(%x: tensor<128xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    // CHECK: scf.for
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_store
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128xf32, #b>) : i32 {
      ttg.local_store %acc, %a : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #s, #smem, mutable>
      %l = ttg.local_load %a : !ttg.memdesc<128xf32, #s, #smem, mutable> -> tensor<128xf32, #b>
      scf.yield %l : tensor<128xf32, #b>
    }
    tt.return
  }

  // A write in one branch of an if orders a later read.
  // CHECK-LABEL: tt.func public @branch
  tt.func public @branch(%x: tensor<128xf32, #b>, %c: i1) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    // CHECK: scf.if
    // CHECK-NEXT: ttg.local_store
    // CHECK: }
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttg.local_load
    scf.if %c {
      ttg.local_store %x, %a : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    }
    %l = ttg.local_load %a : !ttg.memdesc<128xf32, #s, #smem, mutable> -> tensor<128xf32, #b>
    tt.return
  }
}
