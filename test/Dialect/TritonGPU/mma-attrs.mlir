// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s

// The tensor-core encodings in Triton 3.6's textual form, round-tripped:
// #mma and #shared aliases, dot operands inline, defaults left out.

// CHECK: #[[MMA:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK: #[[SH:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #[[SHT:shared[0-9]*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>
// CHECK: tensor<128x128xf32, #[[MMA]]>
// CHECK: tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: !ttg.memdesc<128x64xf16, #[[SH]], #smem>
// CHECK: !ttg.memdesc<2x64x128xi8, #[[SHT]], #smem, mutable>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true, rank = 3}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @v3(%acc: tensor<128x128xf32, #mma>, %a: tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
              %s: !ttg.memdesc<128x64xf16, #shared, #smem>, %t: !ttg.memdesc<2x64x128xi8, #shared1, #smem, mutable>) {
    tt.return
  }
}

// -----

// CHECK: #[[MMA2:mma[0-9]*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CGALayout = {{\[\[}}0, 1]], instrShape = [16, 8]}>
// CHECK: tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #[[MMA2]], kWidth = 4}>>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CGALayout = [[0, 1]], instrShape = [16, 8]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
  tt.func @v2(%b: tensor<64x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>>) {
    tt.return
  }
}

// -----

// The FMA path's operands: a blocked parent and no kWidth, as Triton prints them.
// CHECK: #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #[[B]]}>>
// CHECK-SAME: tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #[[B]]}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fma(%a: tensor<64x16xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>,
               %b: tensor<16x64xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>) {
    tt.return
  }
}
