// RUN: kiln-opt %s -split-input-file --ttgir-remove-layout-conversions | FileCheck %s

// A split epilogue of a wgmma accumulator, as ttgir-convert-from-ttir and
// accelerate-matmul leave it: the accumulator converted to a blocked
// layout, reshaped, transposed, converted again so that each thread holds
// both halves, split. The layout engine says where reshape, trans and
// split put the accumulator's registers, so the accumulator's layout flows
// through them as #ttg.linear layouts and no conversion is left, as in
// Triton 3.6's TTGIR for the same kernel.
// CHECK-DAG: #[[L3:.*]] = {{\#ttg\.linear<\{register = \[\[0, 1, 0\], \[8, 0, 0\], \[0, 8, 0\], \[0, 16, 0\], \[0, 32, 0\], \[0, 0, 1\], \[64, 0, 0\]\], lane = \[\[0, 2, 0\], \[0, 4, 0\], \[1, 0, 0\], \[2, 0, 0\], \[4, 0, 0\]\], warp = \[\[16, 0, 0\], \[32, 0, 0\]\], block = \[\]\}>}}
// CHECK-DAG: #[[L2:.*]] = {{\#ttg\.linear<\{register = \[\[0, 1\], \[8, 0\], \[0, 8\], \[0, 16\], \[0, 32\], \[64, 0\]\], lane = \[\[0, 2\], \[0, 4\], \[1, 0\], \[2, 0\], \[4, 0\]\], warp = \[\[16, 0\], \[32, 0\]\], block = \[\]\}>}}
// CHECK-LABEL: tt.func @split_epilogue
// CHECK: ttng.warp_group_dot
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %{{.*}} : tensor<128x128xf32, #mma> -> tensor<128x2x64xf32, #linear
// CHECK: tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #linear{{[0-9]*}}> -> tensor<128x64x2xf32, #[[L3]]>
// CHECK: tt.split %{{.*}} : tensor<128x64x2xf32, #[[L3]]> -> tensor<128x64xf32, #[[L2]]>
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<128x64xf32, #[[L2]]> to tensor<128x64xf16, #[[L2]]>
// CHECK-NEXT: ttg.local_alloc %[[H]] : (tensor<128x64xf16, #[[L2]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 2, 2], order = [1, 2, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_epilogue(%a: !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #ttg.shared_memory>, %c: tensor<128x128xf32, #mma>) -> !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory> {
    %acc = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory> * !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #ttg.shared_memory> -> tensor<128x128xf32, #mma>
    %0 = ttg.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    %1 = tt.reshape %0 : tensor<128x128xf32, #blocked> -> tensor<128x2x64xf32, #blocked1>
    %2 = tt.trans %1 {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #blocked1> -> tensor<128x64x2xf32, #blocked2>
    %3 = ttg.convert_layout %2 : tensor<128x64x2xf32, #blocked2> -> tensor<128x64x2xf32, #blocked3>
    %lhs, %rhs = tt.split %3 : tensor<128x64x2xf32, #blocked3> -> tensor<128x64xf32, #blocked4>
    %4 = arith.truncf %lhs : tensor<128x64xf32, #blocked4> to tensor<128x64xf16, #blocked4>
    %5 = ttg.local_alloc %4 : (tensor<128x64xf16, #blocked4>) -> !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
    tt.return %5 : !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
  }
}

// -----

// A split whose pair is spread over lanes in the layout that reaches it
// cannot be done in registers: the conversion in front of it stays.
// CHECK-LABEL: tt.func @split_across_lanes
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x2xf32, #blocked> -> tensor<64x2xf32, #blocked{{[0-9]+}}>
// CHECK-NEXT: tt.split
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_across_lanes(%p: tensor<64x2x!tt.ptr<f32>, #blocked>) -> tensor<64xf32, #blocked2> {
    %v = tt.load %p : tensor<64x2x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %v : tensor<64x2xf32, #blocked> -> tensor<64x2xf32, #blocked1>
    %lhs, %rhs = tt.split %c : tensor<64x2xf32, #blocked1> -> tensor<64xf32, #blocked2>
    tt.return %lhs : tensor<64xf32, #blocked2>
  }
}
