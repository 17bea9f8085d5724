// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s
// The result parses and verifies again.
// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | kiln-opt -split-input-file > /dev/null

// The sm_80 form: the loads reach tt.dot through conversions to dot operand
// layouts; the ring gets Triton's swizzled layout for mma v2 operands (16
// bytes per row group, one phase per 128-byte row: A of 128x64 and B of
// 64x128 f16 both vec 8, perPhase 1, maxPhase 8) and each slot is read
// back with local_load in the operand layout, after the wait.

#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: #[[SWZ:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func @mma_v2
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #[[SWZ]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16, #[[SWZ]], #smem, mutable>
// CHECK-COUNT-4: ttg.async_commit_group
// The loop carries the groups' tokens of the two iterations in flight.
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %[[READ:[^ ]*]] = %{{[^,]*}}, %[[TA:[^ ]*]] = %{{[^,]*}}, %[[TB:[^ ]*]] = %{{[^,]*}}, %[[TA1:[^ ]*]] = %{{[^,]*}}, %[[TB1:[^ ]*]] = %{{[^)]*}})
// CHECK-NEXT: %[[VA:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// CHECK-NEXT: %[[VB:.*]] = ttg.memdesc_index %[[RB]][%[[READ]]]
// Each operand is waited for where it is read: A's group, then B's.
// CHECK-NEXT: %[[TOK:.*]] = ttg.async_wait %[[TA]] {num = 3 : i32}
// CHECK-NEXT: %[[A:.*]] = ttg.local_load %[[VA]] token %[[TOK]] : !ttg.memdesc<128x64xf16, #[[SWZ]], #smem, mutable> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[TOKB:.*]] = ttg.async_wait %[[TB]] {num = 2 : i32}
// CHECK-NEXT: %[[B:.*]] = ttg.local_load %[[VB]] token %[[TOKB]] : !ttg.memdesc<64x128xf16, #[[SWZ]], #smem, mutable> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NOT: ttng.
// CHECK: ttg.async_copy_global_to_local
// CHECK: %[[NA:.*]] = ttg.async_commit_group
// CHECK: ttg.async_copy_global_to_local
// CHECK: %[[NB:.*]] = ttg.async_commit_group
// CHECK: scf.yield %[[D]], {{.*}}, %[[TA1]], %[[TB1]], %[[NA]], %[[NB]] :
// CHECK-NOT: ttng.
// CHECK: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[RA]]
// CHECK-NEXT: ttg.local_dealloc %[[RB]]
tt.func @mma_v2(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                %pb0: tensor<64x128x!tt.ptr<f16>, #blocked2> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %stepa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %stepb = arith.constant dense<8192> : tensor<64x128xi32, #blocked2>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked2>) : i32 {
    %la = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %lb = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked2>
    %a = ttg.convert_layout %la : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.convert_layout %lb : tensor<64x128xf16, #blocked2> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    %pa1 = tt.addptr %pa, %stepa : tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    %pb1 = tt.addptr %pb, %stepb : tensor<64x128x!tt.ptr<f16>, #blocked2>, tensor<64x128xi32, #blocked2>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked2>
  }
  tt.return %r#0 : tensor<128x128xf32, #mma>
}
}

// -----

// Loads that stay synchronous: A's `other` is 1.0 (cp.async would write
// zero), B's threads read one f16 each (2 contiguous bytes). Nothing is
// left to pipeline, so the loop is untouched. A loop without a dot is
// untouched too.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @synchronous
// CHECK-NOT: ttg.local_alloc
// CHECK-NOT: ttg.async
// CHECK: scf.for
// CHECK-NEXT: tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64x!tt.ptr<f16>
// CHECK-NEXT: tt.load %{{.*}} : tensor<64x128x!tt.ptr<f16>
// CHECK-NOT: ttg.async
// CHECK: tt.return
tt.func @synchronous(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                     %pb0: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                     %ma: tensor<128x64xi1, #blocked1>, %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %one = arith.constant dense<1.000000e+00> : tensor<128x64xf16, #blocked1>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
    %la = tt.load %pa0, %ma, %one : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %lb = tt.load %pb0 : tensor<64x128x!tt.ptr<f16>, #blocked>
    %a = ttg.convert_layout %la : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %b = ttg.convert_layout %lb : tensor<64x128xf16, #blocked> -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    scf.yield %d : tensor<128x128xf32, #mma>
  }
  tt.return %r : tensor<128x128xf32, #mma>
}
// CHECK-LABEL: tt.func @no_dot
// CHECK-NOT: ttg.async
// CHECK: scf.for
// CHECK-NEXT: tt.load
// CHECK-NOT: ttg.async
// CHECK: tt.return
tt.func @no_dot(%p0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                %n: i32) -> tensor<128x64xf16, #blocked1> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf16, #blocked1>) : i32 {
    %l = tt.load %p0 : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %s = arith.addf %acc, %l : tensor<128x64xf16, #blocked1>
    scf.yield %s : tensor<128x64xf16, #blocked1>
  }
  tt.return %r : tensor<128x64xf16, #blocked1>
}
}

// -----

// A masked load with a zero `other` whose mask depends on the induction
// variable (the K tail): the copies recompute the mask for their own
// iteration. A loop with unsigned bounds compares them unsigned.

#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @k_tail
// CHECK-SAME: %[[K:[^:]*]]: i32 {tt.divisibility = 16 : i32}, %[[N:[^:]*]]: i32
// CHECK: %[[ANY:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : i32
// Iteration 0's mask: k < K - 0 * 64 for the columns, and the trip count.
// CHECK: %[[LEFT0:.*]] = arith.subi %[[K]], %{{.*}} : i32
// CHECK: %[[SPL0:.*]] = tt.splat %[[LEFT0]] : i32 -> tensor<1x64xi32, #blocked>
// CHECK: %[[CMP0:.*]] = arith.cmpi slt, %{{.*}}, %[[SPL0]]
// CHECK: %[[BR0:.*]] = tt.broadcast %[[CMP0]]
// CHECK: %[[TRIP0:.*]] = tt.splat %[[ANY]] : i1 -> tensor<128x64xi1, #blocked>
// CHECK: %[[MASK0:.*]] = arith.andi %[[BR0]], %[[TRIP0]]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[MASK0]] {contiguity = 8 : i32}
// CHECK: scf.for unsigned %[[IV:[^ ]*]] = {{.*}} {
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: arith.muli %[[AHEAD]], %{{.*}} : i32
// CHECK: ttg.async_copy_global_to_local
// CHECK: scf.yield
tt.func @k_tail(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                %K: i32 {tt.divisibility = 16 : i32}, %n: i32, %bt: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %zf = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
  %stepa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
  %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>) : i32 {
    %done = arith.muli %k, %c64 : i32
    %left = arith.subi %K, %done : i32
    %lefts = tt.splat %left : i32 -> tensor<1x64xi32, #blocked1>
    %in = arith.cmpi slt, %cols2, %lefts : tensor<1x64xi32, #blocked1>
    %m = tt.broadcast %in : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
    %la = tt.load %pa, %m, %zf : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %a = ttg.convert_layout %la : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %bt, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    %pa1 = tt.addptr %pa, %stepa : tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    scf.yield %d, %pa1 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>
  } {unsignedCmp}
  tt.return %r#0 : tensor<128x128xf32, #mma>
}
}

// -----

// A load that reaches the dot through computation on its value (an fp8
// operand upcast and scaled, as a decomposed tt.dot_scaled has it) streams
// too: its ring keeps the load's own rows unswizzled (vec = the 16 bytes a
// thread copies) and each slot is read back into the load's blocked layout,
// after the wait, where the load stood.
#blocked1 = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-DAG: #[[ROWS:.*]] = #ttg.swizzled_shared<{vec = 16, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @upcast_operand
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf8E5M2, #[[ROWS]], #smem, mutable>
// CHECK: scf.for
// CHECK: %[[VA:.*]] = ttg.memdesc_index %[[RA]]
// CHECK: %[[TOK:.*]] = ttg.async_wait %{{.*}} {num = 1 : i32}
// CHECK-NEXT: %[[LA:.*]] = ttg.local_load %[[VA]] token %[[TOK]] : !ttg.memdesc<128x64xf8E5M2, #[[ROWS]], #smem, mutable> -> tensor<128x64xf8E5M2, #blocked>
// CHECK-NEXT: tt.fp_to_fp %[[LA]]
// CHECK: tt.dot
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} : tensor<128x64x!tt.ptr<f8E5M2>, #blocked> -> <128x64xf8E5M2, #[[ROWS]], #smem, mutable>
tt.func @upcast_operand(%pa0: tensor<128x64x!tt.ptr<f8E5M2>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                        %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>,
                        %scale: tensor<128x64xf16, #blocked1>, %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %stepa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f8E5M2>, #blocked1>) : i32 {
    %la = tt.load %pa : tensor<128x64x!tt.ptr<f8E5M2>, #blocked1>
    %up = tt.fp_to_fp %la : tensor<128x64xf8E5M2, #blocked1> -> tensor<128x64xf16, #blocked1>
    %scaled = arith.mulf %up, %scale : tensor<128x64xf16, #blocked1>
    %a = ttg.convert_layout %scaled : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = tt.dot %a, %b, %acc : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<128x128xf32, #mma>
    %pa1 = tt.addptr %pa, %stepa : tensor<128x64x!tt.ptr<f8E5M2>, #blocked1>, tensor<128x64xi32, #blocked1>
    scf.yield %d, %pa1 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f8E5M2>, #blocked1>
  }
  tt.return %r#0 : tensor<128x128xf32, #mma>
}
}
