// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s
// The result parses and verifies again.
// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | kiln-opt -split-input-file > /dev/null

// mma v2 (mma.sync) operands in a program of 16 CTAs (a thread-block
// cluster): a 64x128 result split along N (8 columns per CTA, too few for
// wgmma, as in Triton), A whole in every CTA and B split along N. Each
// ring is split over the CTAs as its operand is (layout::operandCGA, the
// load's split) and its swizzle is that of a CTA's tile, as Triton lays
// them out: B's tile is 32x8, 16 bytes a row, so 8 rows share a phase
// (perPhase 8, one phase); A's 64x32 as in one CTA.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0], [0, 0], [0, 0], [0, 0]]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1], [0, 2], [0, 4], [0, 8]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 1], [0, 2], [0, 4], [0, 8]], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 16 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: #[[SWA:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], CGALayout = {{\[\[}}0, 0], [0, 0], [0, 0], [0, 0]]}>
// CHECK-DAG: #[[SWB:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 8, maxPhase = 1, order = [1, 0], CGALayout = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8]]}>
// CHECK-LABEL: tt.func @split_n
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16, #[[SWA]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x32x128xf16, #[[SWB]], #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #[[SWA]], #smem, mutable>
// CHECK: ttg.async_copy_global_to_local {{.*}} : tensor<32x128x!tt.ptr<f16>, #blocked1> -> <32x128xf16, #[[SWB]], #smem, mutable>
// CHECK: scf.for
// CHECK: ttg.local_load {{.*}} : !ttg.memdesc<64x32xf16, #[[SWA]], #smem, mutable> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: ttg.local_load {{.*}} : !ttg.memdesc<32x128xf16, #[[SWB]], #smem, mutable> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK: tt.dot
tt.func @split_n(%pa0: tensor<64x32x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                 %pb0: tensor<32x128x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                 %n: i32) -> tensor<64x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
  %stepa = arith.constant dense<32> : tensor<64x32xi32, #blocked>
  %stepb = arith.constant dense<4096> : tensor<32x128xi32, #blocked1>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<64x128xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x128x!tt.ptr<f16>, #blocked1>) : i32 {
    %la = tt.load %pa : tensor<64x32x!tt.ptr<f16>, #blocked>
    %lb = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #blocked1>
    %a = ttg.convert_layout %la : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.convert_layout %lb : tensor<32x128xf16, #blocked1> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x128xf32, #mma>
    %pa1 = tt.addptr %pa, %stepa : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %pb1 = tt.addptr %pb, %stepb : tensor<32x128x!tt.ptr<f16>, #blocked1>, tensor<32x128xi32, #blocked1>
    scf.yield %d, %pa1, %pb1 : tensor<64x128xf32, #mma>, tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<32x128x!tt.ptr<f16>, #blocked1>
  }
  tt.return %r#0 : tensor<64x128xf32, #mma>
}
}

// -----

// A load split over the CTAs otherwise than its operand (B loaded whole by
// every CTA, the product split along N) stays synchronous: each CTA's
// copies could fill only a slot split as the load is. A, held whole alike
// by the load and the operand, is still streamed.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0], [0, 0]]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0], [0, 0]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 1], [0, 2]], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @split_otherwise
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK: tt.load %{{.*}} : tensor<32x128x!tt.ptr<f16>, #blocked1>
// CHECK: tt.return
tt.func @split_otherwise(%pa0: tensor<64x32x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                         %pb0: tensor<32x128x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                         %n: i32) -> tensor<64x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x128xf32, #mma>) : i32 {
    %la = tt.load %pa0 : tensor<64x32x!tt.ptr<f16>, #blocked>
    %lb = tt.load %pb0 : tensor<32x128x!tt.ptr<f16>, #blocked1>
    %a = ttg.convert_layout %la : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.convert_layout %lb : tensor<32x128xf16, #blocked1> -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x128xf32, #mma>
    scf.yield %d : tensor<64x128xf32, #mma>
  }
  tt.return %r : tensor<64x128xf32, #mma>
}
}
