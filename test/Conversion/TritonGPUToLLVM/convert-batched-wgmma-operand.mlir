// RUN: kiln-opt %s --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm | FileCheck %s

// A rank-3 (batched) wgmma layout is one tensors may be converted to and
// from, as Gluon's conversion tests do (wgmma itself computes in rank 2):
// a slice of its A operand's layout, from and back to a blocked layout.
// CHECK-LABEL: llvm.func @batched_operand_slice
// CHECK: nvvm.barrier0
// CHECK: nvvm.ldmatrix
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1, 1], instrShape = [16, 32, 16]}>
#sliced = #ttg.slice<{dim = 1, parent = #ttg.dot_op<{opIdx = 0, parent = #mma3, kWidth = 2}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @batched_operand_slice(%x: tensor<4x32xf16, #blocked>, %p: tensor<4x32x!tt.ptr<f16>, #blocked>) {
    %a = ttg.convert_layout %x : tensor<4x32xf16, #blocked> -> tensor<4x32xf16, #sliced>
    %b = ttg.convert_layout %a : tensor<4x32xf16, #sliced> -> tensor<4x32xf16, #blocked>
    tt.store %p, %b : tensor<4x32x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
