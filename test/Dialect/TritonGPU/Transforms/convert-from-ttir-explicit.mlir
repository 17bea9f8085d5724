// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-warps=8" -verify-diagnostics | FileCheck %s

// ttng.warp_group_dot written before layouts (as hwx writes it): the op
// chooses the accumulator's layout (wgmma's, the one accelerate-matmul
// would pick), the loop carrying it takes that layout so that no
// conversion reads the accumulator while a product is in flight, and the
// wait passes it on; the conversion to the default layout comes after the
// last wait.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-LABEL: tt.func public @carried
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #{{blocked.*}}>
// CHECK: %[[INIT:.*]] = ttg.convert_layout %[[ZERO]] : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] {isAsync = true} : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK-NEXT: %[[W:.*]] = ttng.warp_group_dot_wait %[[D]] {pendings = 1 : i32} : tensor<128x128xf32, #[[MMA]]>
// CHECK-NEXT: scf.yield %[[W]] : tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[LAST:.*]] = ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32} : tensor<128x128xf32, #[[MMA]]>
// CHECK: ttg.convert_layout %[[LAST]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{blocked.*}}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module {
  tt.func public @carried(%y: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #nv, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #nv, #smem, mutable>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32>) : i32 {
      %d = ttng.warp_group_dot %a, %b, %acc {isAsync = true} : !ttg.memdesc<128x64xf16, #nv, #smem, mutable> * !ttg.memdesc<64x128xf16, #nv, #smem, mutable> -> tensor<128x128xf32>
      %w = ttng.warp_group_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32>
      scf.yield %w : tensor<128x128xf32>
    }
    %last = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32>
    %p = tt.splat %y : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
    tt.store %p, %last : tensor<128x128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A in registers: the chain's second product (attention's P @ V). Its A
// takes the operand layout of its accumulator's, which has all warps
// along M.
// CHECK: #[[CHAIN:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func public @a_in_registers
// CHECK: %[[A:.*]] = ttg.convert_layout %{{.*}} -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[CHAIN]], kWidth = 2}>>
// CHECK: ttng.warp_group_dot %[[A]], %{{.*}} -> tensor<128x64xf32, #[[CHAIN]]>
module {
  tt.func public @a_in_registers(%x: !tt.ptr<f16>, %y: !tt.ptr<f32>) {
    %px = tt.splat %x : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
    %a = tt.load %px : tensor<128x64x!tt.ptr<f16>>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32>
    %d = ttng.warp_group_dot %a, %b, %zero {isAsync = true} : tensor<128x64xf16> * !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable> -> tensor<128x64xf32>
    %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<128x64xf32>
    %py = tt.splat %y : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
    tt.store %py, %w : tensor<128x64x!tt.ptr<f32>>
    tt.return
  }
}
