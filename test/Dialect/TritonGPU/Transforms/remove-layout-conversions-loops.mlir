// RUN: kiln-opt %s -split-input-file --ttgir-remove-layout-conversions | FileCheck %s

// A loop-carried pointer tensor that the body converts to its load's
// coalesced layout is carried in that layout: no conversion is left in
// the loop, the update is recomputed in the new layout.
// CHECK-LABEL: tt.func @carried_pointer
// CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<64x64x!tt.ptr<f16>, #[[V:blocked[0-9]*]]>, tensor<64x64xf32, #[[V]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load %[[P]] : tensor<64x64x!tt.ptr<f16>, #[[V]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.addptr %[[P]], %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[V]]>
// CHECK: scf.yield
#d = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#v = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @carried_pointer(%base: !tt.ptr<f16>, %n: i32) -> tensor<64x64xf32, #d> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<64> : tensor<64x64xi32, #d>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #d>
    %p0 = tt.splat %base : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #d>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %acc = %zero) -> (tensor<64x64x!tt.ptr<f16>, #d>, tensor<64x64xf32, #d>) : i32 {
      %pv = ttg.convert_layout %p : tensor<64x64x!tt.ptr<f16>, #d> -> tensor<64x64x!tt.ptr<f16>, #v>
      %x = tt.load %pv : tensor<64x64x!tt.ptr<f16>, #v>
      %xd = ttg.convert_layout %x : tensor<64x64xf16, #v> -> tensor<64x64xf16, #d>
      %xf = arith.extf %xd : tensor<64x64xf16, #d> to tensor<64x64xf32, #d>
      %a = arith.addf %acc, %xf : tensor<64x64xf32, #d>
      %pn = tt.addptr %p, %step : tensor<64x64x!tt.ptr<f16>, #d>, tensor<64x64xi32, #d>
      scf.yield %pn, %a : tensor<64x64x!tt.ptr<f16>, #d>, tensor<64x64xf32, #d>
    }
    tt.return %r#1 : tensor<64x64xf32, #d>
  }
}

// -----

// The accumulator of a tensor-core product keeps the MMA layout across the
// loop; the result is converted once, after it.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma
// CHECK-LABEL: tt.func @carried_accumulator
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32, #[[MMA]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.yield
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @carried_accumulator(%a: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %bb: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %n: i32) -> tensor<64x64xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #b>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #b>) : i32 {
      %c = ttg.convert_layout %acc : tensor<64x64xf32, #b> -> tensor<64x64xf32, #mma>
      %d = tt.dot %a, %bb, %c : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
      %db = ttg.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
      scf.yield %db : tensor<64x64xf32, #b>
    }
    tt.return %r : tensor<64x64xf32, #b>
  }
}
