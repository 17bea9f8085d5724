// RUN: kiln-opt %s -split-input-file -verify-diagnostics --llir-allocate-shared-memory --llir-convert-to-llvm | FileCheck %s

// wgmma descriptors read off any shared layout, not only nvmma_shared:
// Gluon's SharedLinearLayout "swizzling zero" operands are the PTX ISA's
// interleaved canonical layouts (8 x 16-byte core matrices). The high
// half of each descriptor holds LBO >> 4 at bit 16, SBO >> 4 at bit 32 and
// the swizzle mode (0: none) at bit 62.

// A (64x16 f16) M-major: 8 rows of M are one core matrix row, K steps 16
// bytes, the next 8 K 128 bytes on (LBO), the next 8 M 256 bytes (SBO):
// (8 << 16) | (16 << 32). B (16x64) K-major: 8 K in a core-matrix row, N
// steps 16 bytes, 8 N 128 bytes on (SBO), the next 8 K 1024 bytes (LBO):
// (64 << 16) | (8 << 32).
// CHECK-LABEL: llvm.func @interleaved
// CHECK-DAG: llvm.mlir.constant(68720001024 : i64)
// CHECK-DAG: llvm.mlir.constant(34363932672 : i64)
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
#a = #ttg.shared_linear<{offset = [[1, 0], [2, 0], [4, 0], [0, 1], [0, 2], [0, 4], [0, 8], [8, 0], [16, 0], [32, 0]]}, alignment = 16>
#b = #ttg.shared_linear<{offset = [[1, 0], [2, 0], [4, 0], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [8, 0]]}, alignment = 16>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @interleaved(%c: tensor<64x64xf32, #mma>, %out: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #a, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<16x64xf16, #b, #smem, mutable>
    %true = arith.constant true
    %d = ttng.warp_group_dot %a, %b, %c, %true {inputPrecision = 0 : i32} : !ttg.memdesc<64x16xf16, #a, #smem, mutable> * !ttg.memdesc<16x64xf16, #b, #smem, mutable> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// An unswizzled nvmma_shared B (row-major, what TMA writes) eight columns
// wide is one N-major core matrix per 8 K: LBO 128 bytes, SBO unused (one
// group of 8 N), mode 0: (8 << 16) | (8 << 32). A keeps its 128-byte
// swizzle (mode 1 at bit 62).
// CHECK-LABEL: llvm.func @unswizzled_nvmma
// CHECK-DAG: llvm.mlir.constant(34360262656 : i64)
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unswizzled_nvmma(%c: tensor<64x8xf32, #mma>, %out: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #a, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x8xf16, #b, #smem, mutable>
    %true = arith.constant true
    %d = ttng.warp_group_dot %a, %b, %c, %true {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #a, #smem, mutable> * !ttg.memdesc<64x8xf16, #b, #smem, mutable> -> tensor<64x8xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x8x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x8x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// The same swizzled shared_linear layout aligned to 1024 bytes is read
// with a 128-byte swizzle descriptor: SBO 1024 bytes, LBO 16 (unused),
// mode 1: (1 << 16) | (64 << 32) | (1 << 62).
// CHECK-LABEL: llvm.func @aligned_swizzle
// CHECK-DAG: llvm.mlir.constant(4611686293305360384 : i64)
#a = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0]]}, alignment = 1024>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @aligned_swizzle(%c: tensor<64x64xf32, #mma>, %out: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #a, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #b, #smem, mutable>
    %true = arith.constant true
    %d = ttng.warp_group_dot %a, %b, %c, %true {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #a, #smem, mutable> * !ttg.memdesc<64x64xf16, #b, #smem, mutable> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
