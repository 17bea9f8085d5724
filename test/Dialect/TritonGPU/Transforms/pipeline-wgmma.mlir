// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-pipeline=num-stages=2 | FileCheck %s --check-prefix=S2
// The result parses and verifies again.
// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | kiln-opt -split-input-file > /dev/null

// The sm_90 form: both operands reach the wgmma through local_alloc, with
// 16 contiguous bytes per thread; bounds and step are dynamic.

#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @both_streamed
// CHECK-SAME: (%[[PA0:[^:]*]]: tensor<128x64x!tt.ptr<f16>, {{.*}}, %[[PB0:[^:]*]]: tensor<64x128x!tt.ptr<f16>, {{.*}}, %[[LB:.*]]: i32, %[[UB:.*]]: i32, %[[STEP:.*]]: i32)
// CHECK-DAG: %[[SLOT0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16, #shared, #smem, mutable>
// Prologue, iteration 0: issued iff lb < ub.
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : i32
// CHECK: %[[PA1:.*]] = tt.addptr %[[PA0]], %[[STEPA:.*]] :
// CHECK: %[[PB1:.*]] = tt.addptr %[[PB0]], %[[STEPB:.*]] :
// CHECK: %[[M0:.*]] = tt.splat %[[ANY]] : i1 -> tensor<128x64xi1, #blocked>
// CHECK: %[[S0:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT0]]]
// CHECK: %[[T0:.*]] = ttg.async_copy_global_to_local %[[PA0]], %[[S0]] mask %[[M0]] {contiguity = 8 : i32}
// One commit group per load, so that each can be waited for on its own.
// CHECK: ttg.async_commit_group tokens %[[T0]]
// CHECK: %[[SB0:.*]] = ttg.memdesc_index %[[RB]][%[[SLOT0]]]
// CHECK: %[[TB0:.*]] = ttg.async_copy_global_to_local %[[PB0]], %[[SB0]] mask %{{.*}} {contiguity = 8 : i32}
// CHECK: ttg.async_commit_group tokens %[[TB0]]
// Iteration 1: iff also ub - lb > step (unsigned).
// CHECK: %[[IN1:.*]] = arith.cmpi ugt, %[[SPAN]], %[[STEP]] : i32
// CHECK: %[[P1:.*]] = arith.andi %[[ANY]], %[[IN1]] : i1
// CHECK: %[[PA2:.*]] = tt.addptr %[[PA1]], %[[STEPA]]
// CHECK: %[[PB2:.*]] = tt.addptr %[[PB1]], %[[STEPB]]
// CHECK: tt.splat %[[P1]]
// CHECK: ttg.memdesc_index %[[RA]][%[[ONE]]]
// CHECK: ttg.async_copy_global_to_local %[[PA1]]
// CHECK: ttg.async_copy_global_to_local %[[PB1]]
// CHECK: ttg.async_commit_group
// CHECK: %[[DIST:.*]] = arith.muli %[[STEP]], %[[TWO]] : i32
// The pointers are carried two iterations ahead only (nothing else uses
// them); the slot to fill starts at 2, the slot to read at 0.
// The groups' tokens of the two iterations in flight follow.
// CHECK: %[[R:.*]]:9 = scf.for %[[IV:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[PA:.*]] = %[[PA2]], %[[PB:.*]] = %[[PB2]], %[[FILL:.*]] = %[[TWO]], %[[READ:.*]] = %[[SLOT0]], %[[TA:[^ ]*]] = %{{[^,]*}}, %[[TB:[^ ]*]] = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %{{[^ ]*}} = %{{[^)]*}})
// CHECK-NEXT: %[[VA:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// CHECK-NEXT: %[[VB:.*]] = ttg.memdesc_index %[[RB]][%[[READ]]]
// Read where A is read: two groups per iteration, those of the iteration
// issued ahead (2) may be pending; B's read right after shares the wait.
// CHECK-NEXT: ttg.async_wait %[[TA]], %[[TB]] {num = 2 : i32}
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[VA]], %[[VB]], %[[ACC]] {inputPrecision = 0 : i32, isAsync = true}
// Ring distance: the copies below overwrite slot (i + 2) mod 3 = (i - 1)
// mod 3, which only dot i - 1 read; pendings = 1 has retired it.
// CHECK-NEXT: %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[D]], %[[VA]], %[[VB]] {pendings = 1 : i32}
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[UB]], %[[IV]] : i32
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ugt, %[[LEFT]], %[[DIST]] : i32
// CHECK-NEXT: %[[PAN:.*]] = tt.addptr %[[PA]], %[[STEPA]]
// CHECK-NEXT: %[[PBN:.*]] = tt.addptr %[[PB]], %[[STEPB]]
// CHECK-NEXT: %[[MA:.*]] = tt.splat %[[MORE]] : i1 -> tensor<128x64xi1, #blocked>
// CHECK-NEXT: %[[FA:.*]] = ttg.memdesc_index %[[RA]][%[[FILL]]]
// CHECK-NEXT: %[[TA:.*]] = ttg.async_copy_global_to_local %[[PA]], %[[FA]] mask %[[MA]]
// CHECK-NEXT: ttg.async_commit_group tokens %[[TA]]
// CHECK-NEXT: tt.splat %[[MORE]] : i1 -> tensor<64x128xi1, #blocked1>
// CHECK-NEXT: %[[FB:.*]] = ttg.memdesc_index %[[RB]][%[[FILL]]]
// CHECK-NEXT: %[[TB:.*]] = ttg.async_copy_global_to_local %[[PB]], %[[FB]]
// CHECK-NEXT: ttg.async_commit_group tokens %[[TB]]
// CHECK-NEXT: %[[F1:.*]] = arith.addi %[[FILL]], %[[ONE]] : i32
// CHECK-NEXT: %[[FW:.*]] = arith.cmpi sge, %[[F1]], %[[THREE]] : i32
// CHECK-NEXT: %[[FN:.*]] = arith.select %[[FW]], %[[SLOT0]], %[[F1]] : i32
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[READ]], %[[ONE]] : i32
// CHECK-NEXT: %[[RW:.*]] = arith.cmpi sge, %[[R1]], %[[THREE]] : i32
// CHECK-NEXT: %[[RN:.*]] = arith.select %[[RW]], %[[SLOT0]], %[[R1]] : i32
// CHECK-NEXT: scf.yield %[[W]]#0, %[[PAN]], %[[PBN]], %[[FN]], %[[RN]], {{.*}} :
// CHECK: %[[FINAL:.*]] = ttng.warp_group_dot_wait %[[R]]#0 {pendings = 0 : i32}
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[RA]]
// CHECK-NEXT: ttg.local_dealloc %[[RB]]
// CHECK-NEXT: tt.return %[[FINAL]]

// S2-LABEL: tt.func @both_streamed
// S2: ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
// S2: ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16, #shared, #smem, mutable>
// S2-COUNT-2: ttg.async_commit_group
// S2-NOT: ttg.async_commit_group
// S2: scf.for
// S2: ttg.async_wait %{{.*}}, %{{.*}} {num = 0 : i32}
// S2: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// S2: arith.cmpi ugt, %{{.*}}, %arg4 : i32
// S2: ttg.async_commit_group
// S2: scf.yield
tt.func @both_streamed(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                       %pb0: tensor<64x128x!tt.ptr<f16>, #blocked2> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                       %lb: i32, %ub: i32, %step: i32) -> tensor<128x128xf32, #mma> {
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %stepa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %stepb = arith.constant dense<8192> : tensor<64x128xi32, #blocked2>
  %r:3 = scf.for %k = %lb to %ub step %step iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked2>) : i32 {
    %la = tt.load %pa : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %lb2 = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked2>
    %ma = ttg.local_alloc %la : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %mb = ttg.local_alloc %lb2 : (tensor<64x128xf16, #blocked2>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
    %d = ttng.warp_group_dot %ma, %mb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
    %pa1 = tt.addptr %pa, %stepa : tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    %pb1 = tt.addptr %pb, %stepb : tensor<64x128x!tt.ptr<f16>, #blocked2>, tensor<64x128xi32, #blocked2>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked2>
  }
  tt.return %r#0 : tensor<128x128xf32, #mma>
}
}

// -----

// The corpus kernel's shape: B's layout gives each thread one f16 (2
// contiguous bytes), so B stays a synchronous load into a buffer that the
// next iteration overwrites: the wgmma must finish in its iteration
// (pendings = 0, no wait after the loop). A's masked load keeps its mask,
// and its pointers, still returned by the loop, are carried both as they
// are and two iterations ahead.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 4], order = [0, 1]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @b_synchronous
// CHECK-SAME: %[[MASK:[^:]*]]: tensor<128x64xi1
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK-NOT: ttg.local_alloc :
// CHECK: %[[M0:.*]] = tt.splat %{{.*}} : i1 -> tensor<128x64xi1, #blocked>
// CHECK: %[[MM0:.*]] = arith.andi %[[MASK]], %[[M0]]
// CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %[[MM0]] {contiguity = 8 : i32}
// CHECK: %[[R:.*]]:8 = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, %[[PA:[^ ]*]] = %{{[^,]*}}, %[[PB:[^ ]*]] = %{{[^,]*}}, %[[PAH:[^ ]*]] = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %[[READ:[^ ]*]] = %{{[^,]*}}, %[[TA:[^ ]*]] = %{{[^,]*}}, %{{[^ ]*}} = %{{[^)]*}})
// CHECK-NEXT: %[[VA:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// CHECK-NEXT: %[[LB:.*]] = tt.load %[[PB]] : tensor<64x128x!tt.ptr<f16>, #blocked1>
// CHECK-NEXT: ttg.async_wait %[[TA]] {num = 1 : i32}
// CHECK-NEXT: %[[MB:.*]] = ttg.local_alloc %[[LB]] : (tensor<64x128xf16, #blocked1>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[VA]], %[[MB]], %[[ACC]] {{.*}}isAsync = true
// CHECK-NEXT: %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[D]], %[[VA]], %[[MB]] {pendings = 0 : i32}
// CHECK: %[[PAH1:.*]] = tt.addptr %[[PAH]],
// CHECK: ttg.async_copy_global_to_local %[[PAH]], %{{.*}} mask %{{.*}}
// CHECK: %[[PA1:.*]] = tt.addptr %[[PA]],
// CHECK: scf.yield %[[W]]#0, %[[PA1]], %{{.*}}, %[[PAH1]],
// CHECK-NEXT: }
// CHECK-NEXT: ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[RA]]
// CHECK-NEXT: tt.return %[[R]]#0, %[[R]]#1
tt.func @b_synchronous(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                       %pb0: tensor<64x128x!tt.ptr<f16>, #blocked> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                       %ma: tensor<128x64xi1, #blocked1> {tt.constancy = dense<[1, 64]> : tensor<2xi32>},
                       %n: i32) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %cst = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
  %stepa = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %stepb = arith.constant dense<8192> : tensor<64x128xi32, #blocked>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked>) : i32 {
    %la = tt.load %pa, %ma, %cst : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %lb = tt.load %pb : tensor<64x128x!tt.ptr<f16>, #blocked>
    %sa = ttg.local_alloc %la : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %sb = ttg.local_alloc %lb : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared1, #smem>
    %d = ttng.warp_group_dot %sa, %sb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
    %pa1 = tt.addptr %pa, %stepa : tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    %pb1 = tt.addptr %pb, %stepb : tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>, tensor<64x128x!tt.ptr<f16>, #blocked>
  }
  tt.return %r#0, %r#1 : tensor<128x128xf32, #mma>, tensor<128x64x!tt.ptr<f16>, #blocked1>
}
}

// -----

// A loop's tt.num_stages overrides the option: 4 slots, 3 groups in the
// prologue, 2 left pending in the loop; tt.num_stages = 1 leaves a loop
// alone.

#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @override
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x64x128xf16, #shared, #smem, mutable>
// CHECK-COUNT-6: ttg.async_commit_group
// CHECK-NOT: ttg.async_commit_group
// CHECK: scf.for
// CHECK: ttg.async_wait %{{.*}}, %{{.*}} {num = 4 : i32}
// CHECK: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK: ttg.async_commit_group
// CHECK: scf.yield
// CHECK: } {tt.num_stages = 4 : i32}
// S2-LABEL: tt.func @override
// S2: ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
// S2: ttg.async_wait %{{.*}}, %{{.*}} {num = 4 : i32}
// CHECK-LABEL: tt.func @one_stage
// CHECK-NOT: ttg.async
// CHECK: tt.load
// CHECK-NOT: ttg.async
// CHECK: ttng.warp_group_dot {{.*}} {inputPrecision = 0 : i32}
// CHECK-NOT: ttg.async
// CHECK: tt.return
tt.func @override(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                  %pb0: tensor<64x128x!tt.ptr<f16>, #blocked2> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                  %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
    %la = tt.load %pa0 : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %lb = tt.load %pb0 : tensor<64x128x!tt.ptr<f16>, #blocked2>
    %ma = ttg.local_alloc %la : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %mb = ttg.local_alloc %lb : (tensor<64x128xf16, #blocked2>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
    %d = ttng.warp_group_dot %ma, %mb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
    scf.yield %d : tensor<128x128xf32, #mma>
  } {tt.num_stages = 4 : i32}
  tt.return %r : tensor<128x128xf32, #mma>
}
tt.func @one_stage(%pa0: tensor<128x64x!tt.ptr<f16>, #blocked1> {tt.contiguity = dense<[1, 64]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                   %pb0: tensor<64x128x!tt.ptr<f16>, #blocked2> {tt.contiguity = dense<[1, 128]> : tensor<2xi32>, tt.divisibility = dense<[16, 16]> : tensor<2xi32>},
                   %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
    %la = tt.load %pa0 : tensor<128x64x!tt.ptr<f16>, #blocked1>
    %lb = tt.load %pb0 : tensor<64x128x!tt.ptr<f16>, #blocked2>
    %ma = ttg.local_alloc %la : (tensor<128x64xf16, #blocked1>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %mb = ttg.local_alloc %lb : (tensor<64x128xf16, #blocked2>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
    %d = ttng.warp_group_dot %ma, %mb, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
    scf.yield %d : tensor<128x128xf32, #mma>
  } {tt.num_stages = 1 : i32}
  tt.return %r : tensor<128x128xf32, #mma>
}
}
