// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// ttg.warp_specialize in the form Triton 3.6 prints (Gluon's TTGIR), through
// a custom-form and a generic-form round trip: captures, a default region
// yielding a tensor laid out for the module's 4 warps, and partitions whose
// layouts span their own warps.

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: @two_partitions
  tt.func @two_partitions(%p: !tt.ptr<i32>, %n: i32) -> tensor<64x64xf32, #mma> {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
    // CHECK: ttg.warp_specialize(%{{.*}}, %{{.*}}, %{{.*}}) attributes {requestedRegisters = array<i32: 24, 48>}
    // CHECK-NEXT: default {
    // CHECK: ttg.warp_yield %{{.*}} : tensor<64x64xf32, #mma>
    // CHECK-NEXT: }
    // CHECK-NEXT: partition0(%[[P:.*]]: !tt.ptr<i32>, %{{.*}}: i32, %{{.*}}: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(1) {
    // CHECK: tt.splat %[[P]] : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #blocked>
    // CHECK: ttg.warp_return
    // CHECK-NEXT: }
    // CHECK-NEXT: partition1({{.*}}) num_warps(2) {
    // CHECK: tensor<64xi32, #blocked1>
    // CHECK: } : (!tt.ptr<i32>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma>
    %r = ttg.warp_specialize(%p, %n, %bar) attributes {requestedRegisters = array<i32: 24, 48>}
    default {
      %c = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
      ttg.warp_yield %c : tensor<64x64xf32, #mma>
    }
    partition0(%a: !tt.ptr<i32>, %b: i32, %c: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(1) {
      %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked1>
      %s = tt.splat %a : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #blocked1>
      %q = tt.addptr %s, %r : tensor<32x!tt.ptr<i32>, #blocked1>, tensor<32xi32, #blocked1>
      tt.store %q, %r : tensor<32x!tt.ptr<i32>, #blocked1>
      ttg.warp_return
    }
    partition1(%a: !tt.ptr<i32>, %b: i32, %c: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(2) {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
      ttg.warp_return
    } : (!tt.ptr<i32>, i32, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> tensor<64x64xf32, #mma>
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: @no_captures
  // CHECK: ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
  // CHECK-NEXT: default {
  // CHECK-NEXT: ttg.warp_yield
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0() num_warps(4) {
  // CHECK-NEXT: ttg.warp_return
  // CHECK-NEXT: } : () -> ()
  tt.func @no_captures() {
    ttg.warp_specialize() attributes {warpGroupStartIds = array<i32: 4>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
