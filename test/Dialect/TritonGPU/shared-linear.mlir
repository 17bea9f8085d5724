// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// Gluon's SharedLinearLayout as Triton 3.6 prints it: offset bases, block
// bases when a cluster splits the buffer, the alignment always. A basis
// may move along two dimensions (a swizzle).

// CHECK-DAG: #[[S:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 1]]}, alignment = 16>
#shared = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 1]]}, alignment = 16>
#smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @buffer
  // CHECK: ttg.local_alloc %{{.*}} : (tensor<4x4xf16, #{{.*}}>) -> !ttg.memdesc<4x4xf16, #[[S]], #smem, mutable>
  tt.func @buffer(%x: tensor<4x4xf16, #blocked>) {
    %a = ttg.local_alloc %x : (tensor<4x4xf16, #blocked>) -> !ttg.memdesc<4x4xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// The block bases are in tensor coordinates: each CTA holds 2 of the 4 rows.
// CHECK: #[[C:shared[0-9]*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [1, 0]], block = {{\[\[}}2, 0]]}, alignment = 128>
#cga = #ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [[2, 0]]}, alignment = 128>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cluster
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x2xf32, #[[C]], #smem, mutable>
  tt.func @cluster() {
    %b = ttg.local_alloc : () -> !ttg.memdesc<4x2xf32, #cga, #smem, mutable>
    tt.return
  }
}

// -----

// Without an alignment Gluon's default (16 bytes) is printed.
// CHECK: #ttg.shared_linear<{offset = {{\[\[}}1]]}, alignment = 16>
#shared = #ttg.shared_linear<{offset = [[1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @default_alignment() {
    %a = ttg.local_alloc : () -> !ttg.memdesc<2xi32, #shared, #smem, mutable>
    tt.return
  }
}
