// RUN: kiln-opt %s -canonicalize | FileCheck %s
//
// MLIR's canonicalizer on TTIR, as the ttir stage runs it: dead pure ops and
// dead plain loads go, ops with visible effects stay, and tt folds compose
// with arith/scf canonicalisation. (The tt patterns themselves are tested in
// test/Dialect/Triton/canonicalize.mlir.)

// CHECK-LABEL: tt.func @dead_code
// CHECK-SAME: (%[[P:.*]]: tensor<32x!tt.ptr<f32>>, %[[S:.*]]: !tt.ptr<i32>, %[[A:.*]]: tensor<32x32xf32>, %[[V:.*]]: tensor<32xf32>)
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %{{.*}} = tt.load %[[P]] {isVolatile = true}
// CHECK-NEXT: tt.store %[[P]], %[[V]]
// CHECK-NEXT: %{{.*}} = tt.atomic_rmw add, relaxed, gpu, %[[S]], %[[C1]]
// CHECK-NEXT: tt.print " x: " {{.*}} : %[[C1]] : i32
// CHECK-NEXT: tt.return
tt.func @dead_code(%p: tensor<32x!tt.ptr<f32>>, %s: !tt.ptr<i32>, %a: tensor<32x32xf32>, %v: tensor<32xf32>) {
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %sp = tt.splat %s : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %ap = tt.addptr %sp, %r : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %d = tt.dot %a, %a, %zero : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
  %l = tt.load %p : tensor<32x!tt.ptr<f32>>
  %vl = tt.load %p {isVolatile = true} : tensor<32x!tt.ptr<f32>>
  tt.store %p, %v : tensor<32x!tt.ptr<f32>>
  %old = tt.atomic_rmw add, relaxed, gpu, %s, %c1 : (!tt.ptr<i32>, i32) -> i32
  tt.print " x: " {hex = false, isSigned = array<i32: 1>} : %c1 : i32
  tt.return
}

// Constants flow through tt ops, arith and scf: the splatted sum folds, the
// zero offset disappears, the all-true mask goes, and the branch on a known
// condition is inlined.
// CHECK-LABEL: tt.func @folds_compose
// CHECK-SAME: (%[[P:.*]]: tensor<32x!tt.ptr<f32>>)
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]] : tensor<32x!tt.ptr<f32>>
// CHECK-NEXT: tt.return %[[L]]
tt.func @folds_compose(%p: tensor<32x!tt.ptr<f32>>) -> tensor<32xf32> {
  %c2 = arith.constant 2 : i32
  %cm2 = arith.constant -2 : i32
  %sum = arith.addi %c2, %cm2 : i32
  %off = tt.splat %sum : i32 -> tensor<32xi32>
  %q = tt.addptr %p, %off : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %true = arith.cmpi eq, %c2, %c2 : i32
  %mask = tt.splat %true : i1 -> tensor<32xi1>
  %r = scf.if %true -> tensor<32xf32> {
    %l = tt.load %q, %mask : tensor<32x!tt.ptr<f32>>
    scf.yield %l : tensor<32xf32>
  } else {
    %z = arith.constant dense<0.000000e+00> : tensor<32xf32>
    scf.yield %z : tensor<32xf32>
  }
  tt.return %r : tensor<32xf32>
}

// A loop whose results are unused and whose body only computes is removed.
// CHECK-LABEL: tt.func @dead_loop
// CHECK-NEXT: tt.return
tt.func @dead_loop(%x: tensor<32xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<32xf32>) : i32 {
    %s = tt.splat %i : i32 -> tensor<32xi32>
    %f = arith.sitofp %s : tensor<32xi32> to tensor<32xf32>
    %a = arith.addf %acc, %f : tensor<32xf32>
    scf.yield %a : tensor<32xf32>
  }
  tt.return
}
