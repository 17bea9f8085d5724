// RUN: kiln-opt %s -split-input-file -verify-diagnostics --llir-allocate-shared-memory --llir-convert-to-llvm | FileCheck %s

// A 16x16 i32 buffer, row-major, 4 elements of padding after every 16:
// 256 elements and 15 pads of 4 (none after the last row), 316 * 4 bytes.
// Each address is offset + (offset >> 4 << 2); a vector never crosses a
// pad, so each thread's 4 consecutive elements move as one v4 access.
// CHECK: module attributes {{{.*}}ttg.shared = 1264 : i32
// CHECK-LABEL: llvm.func @rows
// CHECK: %[[RUNS:.*]] = llvm.lshr %[[OFF:.*]], %{{.*}} : i32
// CHECK: %[[PAD:.*]] = llvm.shl %[[RUNS]], %{{.*}} : i32
// CHECK: %[[PHYS:.*]] = llvm.add %[[OFF]], %[[PAD]] : i32
// CHECK: llvm.getelementptr %{{.*}}[%[[PHYS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+4] {order = [1, 0], shape = [16, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rows(%x: tensor<16x16xi32, #blocked>, %p: !tt.ptr<i32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x16xi32, #shared, #smem, mutable>
    ttg.local_store %x, %buf : tensor<16x16xi32, #blocked> -> !ttg.memdesc<16x16xi32, #shared, #smem, mutable>
    %y = ttg.local_load %buf : !ttg.memdesc<16x16xi32, #shared, #smem, mutable> -> tensor<16x16xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x16x!tt.ptr<i32>, #blocked>
    tt.store %ps, %y : tensor<16x16x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

// A box of a box, as Gluon's subslices give it: rows 8..15 of a 16x16
// column-major buffer (a view its own shape's layout does not describe),
// then columns 4..7 of that. The starts add up with their pads: row 8 is
// offset 8, no pad; column 4 is offset 64, 4 pads of 2 (after every 16):
// 72 elements on. The view's elements are placed by the buffer's layout.
// CHECK-LABEL: llvm.func @nested
// CHECK-DAG: llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: llvm.mlir.constant(72 : i32) : i32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+2] {order = [0, 1], shape = [16, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nested(%p: !tt.ptr<f32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    %rows = ttg.memdesc_subslice %buf[8, 0] : !ttg.memdesc<16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<8x16xf32, #shared, #smem, mutable, 16x16>
    %box = ttg.memdesc_subslice %rows[0, 4] : !ttg.memdesc<8x16xf32, #shared, #smem, mutable, 16x16> -> !ttg.memdesc<8x4xf32, #shared, #smem, mutable, 16x16>
    %y = ttg.local_load %box : !ttg.memdesc<8x4xf32, #shared, #smem, mutable, 16x16> -> tensor<8x4xf32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<8x4x!tt.ptr<f32>, #blocked>
    tt.store %ps, %y : tensor<8x4x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Two intervals: each counts its pads on the unpadded offset. Rows 48..63
// of a 64x64 column-major buffer start at offset 48, padded 48 + 3 * 4 =
// 60; columns 16..31 of those at 1024, padded 1024 + 64 * 4 + 16 * 8 =
// 1408 (not 1440, which counting the second interval's pads on the first's
// result would give).
// CHECK-LABEL: llvm.func @two_intervals
// CHECK-DAG: llvm.mlir.constant(60 : i32) : i32
// CHECK-DAG: llvm.mlir.constant(1408 : i32) : i32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared = #ttg.padded_shared<[16:+4, 64:+8] {order = [0, 1], shape = [64, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_intervals(%p: !tt.ptr<i32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xi32, #shared, #smem, mutable>
    %rows = ttg.memdesc_subslice %buf[48, 0] : !ttg.memdesc<64x64xi32, #shared, #smem, mutable> -> !ttg.memdesc<16x64xi32, #shared, #smem, mutable, 64x64>
    %box = ttg.memdesc_subslice %rows[0, 16] : !ttg.memdesc<16x64xi32, #shared, #smem, mutable, 64x64> -> !ttg.memdesc<16x16xi32, #shared, #smem, mutable, 64x64>
    %y = ttg.local_load %box : !ttg.memdesc<16x16xi32, #shared, #smem, mutable, 64x64> -> tensor<16x16xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<16x16x!tt.ptr<i32>, #blocked>
    tt.store %ps, %y : tensor<16x16x!tt.ptr<i32>, #blocked>
    tt.return
  }
}

// -----

#shared = #ttg.padded_shared<[16:+2] {order = [0, 1], shape = [16, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indexed(%i: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable>
    // expected-error @+2 {{op 'ttg.memdesc_index' cannot be lowered to LLVM: buffers of a #ttg.padded_shared layout are not indexed yet}}
    // expected-error @+1 {{failed to legalize operation 'ttg.memdesc_index'}}
    %one = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x16x16xf32, #shared, #smem, mutable> -> !ttg.memdesc<16x16xf32, #shared, #smem, mutable>
    tt.return
  }
}
