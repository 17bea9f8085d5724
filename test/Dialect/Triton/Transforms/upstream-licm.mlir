// RUN: kiln-opt %s -loop-invariant-code-motion | FileCheck %s
//
// MLIR's loop-invariant code motion on TTIR: pure (effect-free and
// speculatable) tt ops whose operands are defined outside an scf.for move
// in front of it; loads, stores and atomics stay, since the loop may run zero
// times or write what they read.

// CHECK-LABEL: tt.func @hoist_pure
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[Q:.*]]: tensor<32x32x!tt.ptr<f32>>, %[[A:.*]]: tensor<32x32xf32>, %[[N:.*]]: i32)
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: %[[R:.*]] = tt.make_range
// CHECK: %[[SP:.*]] = tt.splat %[[P]]
// CHECK: %[[AP:.*]] = tt.addptr %[[SP]], %[[R]]
// CHECK: %[[E:.*]] = tt.expand_dims %[[R]]
// CHECK: %[[B:.*]] = tt.broadcast %[[E]]
// CHECK: %[[T:.*]] = tt.trans %[[A]]
// CHECK: %[[D:.*]] = tt.dot %[[A]], %[[T]]
// CHECK: scf.for
// CHECK-NEXT: %[[L:.*]] = tt.load %[[AP]]
// CHECK-NEXT: tt.store %[[Q]], %[[D]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.yield
tt.func @hoist_pure(%p: !tt.ptr<f32>, %q: tensor<32x32x!tt.ptr<f32>>, %a: tensor<32x32xf32>, %n: i32)
    -> (tensor<32xf32>, i32, tensor<32x32xi32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<32xf32>
  %zero2 = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pacc = %c0, %bacc = %zero2) -> (tensor<32xf32>, i32, tensor<32x32xf32>) : i32 {
    %pid = tt.get_program_id x : i32
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %sp = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %ap = tt.addptr %sp, %range : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    %e = tt.expand_dims %range {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %b = tt.broadcast %e : tensor<1x32xi32> -> tensor<32x32xi32>
    %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<32x32xf32> -> tensor<32x32xf32>
    %d = tt.dot %a, %t, %zero2 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %l = tt.load %ap : tensor<32x!tt.ptr<f32>>
    tt.store %q, %d : tensor<32x32x!tt.ptr<f32>>
    %s = arith.addf %acc, %l : tensor<32xf32>
    %bi = arith.sitofp %b : tensor<32x32xi32> to tensor<32x32xf32>
    scf.yield %s, %pid, %bi : tensor<32xf32>, i32, tensor<32x32xf32>
  }
  %bo = arith.fptosi %r#2 : tensor<32x32xf32> to tensor<32x32xi32>
  tt.return %r#0, %r#1, %bo : tensor<32xf32>, i32, tensor<32x32xi32>
}

// A load from loop-invariant pointers, in a loop without stores, still
// stays: hoisting it would read memory even when the loop does not run.
// CHECK-LABEL: tt.func @keep_invariant_load
// CHECK: %[[SP:.*]] = tt.splat
// CHECK: scf.for
// CHECK-NEXT: tt.load %[[SP]]
tt.func @keep_invariant_load(%p: !tt.ptr<f32>, %n: i32) -> tensor<32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32xf32>) : i32 {
    %sp = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %l = tt.load %sp : tensor<32x!tt.ptr<f32>>
    %s = arith.addf %acc, %l : tensor<32xf32>
    scf.yield %s : tensor<32xf32>
  }
  tt.return %r : tensor<32xf32>
}

// Ops that depend on the induction variable stay in the loop.
// CHECK-LABEL: tt.func @keep_variant
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[I]]
// CHECK-NEXT: tt.addptr %{{.*}}, %[[S]]
tt.func @keep_variant(%p: tensor<32x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %v = arith.constant dense<1.000000e+00> : tensor<32xf32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %s = tt.splat %i : i32 -> tensor<32xi32>
    %ap = tt.addptr %p, %s : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    tt.store %ap, %v : tensor<32x!tt.ptr<f32>>
  }
  tt.return
}
