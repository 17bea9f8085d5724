// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %s | FileCheck %s

// A warp-local gather of 64-bit values, one register a thread: the source
// lane is the index itself (the lane bases are the identity), so each
// result is one shuffle of the low and one of the high half, no scratch.
#l = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[0], [0]], block = []}>
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @lanes
// CHECK: %[[I:.*]] = llvm.extractvalue %arg1[0] : !llvm.struct<(i32)>
// CHECK-COUNT-2: nvvm.shfl.sync {{ *}}idx %{{.*}}, %{{.*}}, %{{.*}}
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @lanes(%x: tensor<32xi64, #l>, %i: tensor<32xi32, #l>, %p: !tt.ptr<i64>) {
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<32xi64, #l>, tensor<32xi32, #l>) -> tensor<32xi64, #l>
    %ptr = tt.splat %p : !tt.ptr<i64> -> tensor<32x!tt.ptr<i64>, #l>
    tt.store %ptr, %g : tensor<32x!tt.ptr<i64>, #l>
    tt.return
  }
}

// -----

// Rows 0-15 in one register bit and three lane bits, the columns spread
// over registers, lanes and warps alike in both layouts: index bit 0 picks
// one of two source registers, so each of the 4 result registers is two
// shuffles (all lanes send the same register) and a select.
#src = #ttg.linear<{register = [[1, 0], [0, 16]], lane = [[2, 0], [4, 0], [8, 0], [0, 1], [0, 2]], warp = [[0, 4], [0, 8]], block = []}>
#idx = #ttg.linear<{register = [[0, 16], [4, 0]], lane = [[1, 0], [2, 0], [8, 0], [0, 2], [0, 1]], warp = [[0, 4], [0, 8]], block = []}>
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @registers
// CHECK-COUNT-2: nvvm.shfl.sync {{ *}}idx
// CHECK: llvm.select
// CHECK-COUNT-6: nvvm.shfl.sync {{ *}}idx
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: ptr<3>
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @registers(%x: tensor<16x32xf32, #src>, %i: tensor<16x32xi32, #idx>, %p: !tt.ptr<f32>) {
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<16x32xf32, #src>, tensor<16x32xi32, #idx>) -> tensor<16x32xf32, #idx>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #idx>
    tt.store %ptr, %g : tensor<16x32x!tt.ptr<f32>, #idx>
    tt.return
  }
}

// -----

// Warp-local, but the 16 registers along the axis would cost 16 shuffles a
// result register: through the scratch instead (512 x 4 bytes).
#wide = #ttg.linear<{register = [[32], [64], [128], [256]], lane = [[1], [2], [4], [8], [16]], warp = [[0], [0]], block = []}>
// CHECK: ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @too_many_registers
// CHECK-NOT: nvvm.shfl
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @too_many_registers(%x: tensor<512xf32, #wide>, %i: tensor<512xi32, #wide>, %p: !tt.ptr<f32>) {
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<512xf32, #wide>, tensor<512xi32, #wide>) -> tensor<512xf32, #wide>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #wide>
    tt.store %ptr, %g : tensor<512x!tt.ptr<f32>, #wide>
    tt.return
  }
}
