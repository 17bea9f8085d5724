// RUN: kiln-opt --llir-convert-to-llvm %s | FileCheck %s

// The kernel's shared memory is one external array of size 0 in address
// space 3 (the launcher gives its size); barriers become bar.sync 0.
// CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @barrier
// CHECK: nvvm.barrier0
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90", ttg.shared = 16 : i32} {
  tt.func public @barrier() {
    gpu.barrier
    tt.return
  }
}
