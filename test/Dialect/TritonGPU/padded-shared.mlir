// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// Gluon's PaddedSharedLayout in Triton 3.6's two printed forms: the
// identity over a shape with an order, or explicit bases.
// CHECK: #ttg.padded_shared<[16:+4, 64:+8] {order = [0, 1], shape = [64, 64]}>
#shared = #ttg.padded_shared<[16:+4, 64:+8] {order = [0, 1], shape = [64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @identity() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xi32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// CHECK: #ttg.padded_shared<[32:+4] {offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0]], block = []}>
#shared = #ttg.padded_shared<[32:+4] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @bases() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<4x4xf32, #shared, #smem, mutable>
    tt.return
  }
}
