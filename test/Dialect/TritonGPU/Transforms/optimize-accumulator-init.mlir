// RUN: kiln-opt %s -split-input-file --ttgir-optimize-accumulator-init | FileCheck %s

// select(c, 0, acc) as the accumulator: use_acc = !c; select(c, acc, 0):
// use_acc = c, and-ed with a use_acc the wgmma has. A select of a tensor
// condition, of a value that is not zero, or with other users stays.
// CHECK-LABEL: tt.func @fold
// CHECK-SAME: (%[[A:.*]]: !ttg.memdesc<64x16xf16, #shared, #smem>, %[[B:.*]]: !ttg.memdesc<16x64xf16, #shared, #smem>, %[[ACC:.*]]: tensor<64x64xf32, #mma>, %[[C:.*]]: i1, %[[U:.*]]: i1, %[[M:.*]]: tensor<64x64xi1, #mma>)
// CHECK: %[[NOT:.*]] = arith.xori %[[C]], %true
// CHECK: ttng.warp_group_dot %[[A]], %[[B]], %[[ACC]], %[[NOT]]
// CHECK: %[[BOTH:.*]] = arith.andi %[[U]], %[[C]]
// CHECK: ttng.warp_group_dot %[[A]], %[[B]], %[[ACC]], %[[BOTH]]
// CHECK: %[[S1:.*]] = arith.select %[[M]], %{{.*}}, %[[ACC]] : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
// CHECK: ttng.warp_group_dot %[[A]], %[[B]], %[[S1]] :
// CHECK: %[[S2:.*]] = arith.select %[[C]], %[[ACC]], %[[ACC]]
// CHECK: ttng.warp_group_dot %[[A]], %[[B]], %[[S2]] :
// CHECK: %[[S3:.*]] = arith.select %[[C]], %{{.*}}, %[[ACC]]
// CHECK: ttng.warp_group_dot %[[A]], %[[B]], %[[S3]] :
// CHECK: tt.return %[[S3]]
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fold(%a: !ttg.memdesc<64x16xf16, #shared, #smem>, %b: !ttg.memdesc<16x64xf16, #shared, #smem>, %acc: tensor<64x64xf32, #mma>, %c: i1, %u: i1, %m: tensor<64x64xi1, #mma>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %s0 = arith.select %c, %zero, %acc : tensor<64x64xf32, #mma>
    %d0 = ttng.warp_group_dot %a, %b, %s0 : !ttg.memdesc<64x16xf16, #shared, #smem> * !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %s1 = arith.select %c, %acc, %zero : tensor<64x64xf32, #mma>
    %d1 = ttng.warp_group_dot %a, %b, %s1, %u : !ttg.memdesc<64x16xf16, #shared, #smem> * !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %s2 = arith.select %m, %zero, %acc : tensor<64x64xi1, #mma>, tensor<64x64xf32, #mma>
    %d2 = ttng.warp_group_dot %a, %b, %s2 : !ttg.memdesc<64x16xf16, #shared, #smem> * !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %s3 = arith.select %c, %acc, %acc : tensor<64x64xf32, #mma>
    %d3 = ttng.warp_group_dot %a, %b, %s3 : !ttg.memdesc<64x16xf16, #shared, #smem> * !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    %s4 = arith.select %c, %zero, %acc : tensor<64x64xf32, #mma>
    %d4 = ttng.warp_group_dot %a, %b, %s4 : !ttg.memdesc<64x16xf16, #shared, #smem> * !ttg.memdesc<16x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
    tt.return %s4 : tensor<64x64xf32, #mma>
  }
}
