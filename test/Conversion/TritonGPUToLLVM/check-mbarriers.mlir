// RUN: kiln-opt %s -split-input-file --llir-check-mbarriers -verify-diagnostics | FileCheck %s

// Waits that provably never complete are rejected, with the barrier's init.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_arrival() {
    %c0 = arith.constant 0 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @+1 {{the barrier is initialised here}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{this mbarrier wait can never complete: phase 0 (parity 0) of the barrier needs 1 arrival(s) and gets 0 before this wait}}
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  tt.func @too_few_bytes(%d: !tt.tensordesc<tensor<128x64xf16, #shared>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %bar = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @+1 {{the barrier is initialised here}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 32768, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %bar, %true : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // expected-error @+1 {{gets 1, and expects 32768 byte(s) of which TMA copies deliver 16384 before this wait}}
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  tt.func @second_phase_never_opens() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @+1 {{the barrier is initialised here}}
    ttng.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %bar, 2 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{phase 1 (parity 1) of the barrier needs 2 arrival(s) and gets 0}}
    ttng.wait_barrier %bar, %c1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// Waits that complete, and waits the check cannot judge, pass unchanged.
// CHECK-LABEL: tt.func @completes
// CHECK-COUNT-2: ttng.wait_barrier
// CHECK-LABEL: tt.func @copies_complete
// CHECK-LABEL: tt.func @warp_arrivals
// CHECK-LABEL: tt.func @unknown
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @completes() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // Parity 1 of a fresh barrier: the phase before it counts as complete.
    ttng.wait_barrier %bar, %c1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  tt.func @copies_complete(%d: !tt.tensordesc<tensor<128x64xf16, #shared>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %bar, %true : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  // One arrival per warp group of 8 warps: 2 arrivals.
  tt.func @warp_arrivals() {
    %c0 = arith.constant 0 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 2 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %bar, 1 {kiln.warps_per_arrival = 4 : i32} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }

  // A predicate, an index not constant, a region between: not judged.
  tt.func @unknown(%p: i1, %i: i32) {
    %c0 = arith.constant 0 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %a, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %a, 1, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %a, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %ring = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %b0 = ttg.memdesc_index %ring[%c0] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %b0, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %bi = ttg.memdesc_index %ring[%i] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %bi, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %b0, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %c = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %c, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    scf.if %p {
      ttng.arrive_barrier %c, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    }
    ttng.wait_barrier %c, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----


// The static check: an incrementing arrival adds nothing the barrier's
// count can use, so a wait with no other arrival never completes; with
// noIncrement the 128 threads' arrivals complete a count of 128.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @arrivals() {
    %c0 = arith.constant 0 : i32
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @+1 {{the barrier is initialised here}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{this mbarrier wait can never complete: phase 0 (parity 0) of the barrier needs 1 arrival(s) and gets 0 before this wait}}
    ttng.wait_barrier %bar, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %bar2 = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar2, 128 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar2 {noIncrement} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar2, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}
