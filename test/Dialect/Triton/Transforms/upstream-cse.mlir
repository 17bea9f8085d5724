// RUN: kiln-opt %s -cse | FileCheck %s
//
// MLIR's CSE on TTIR: pure tt ops are merged; a load is merged with an
// earlier identical load only when nothing in between may write memory.

// CHECK-LABEL: tt.func @pure_ops
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[X:.*]]: tensor<64x32xf32>, %[[Y:.*]]: tensor<32x64xf32>)
// CHECK-NEXT: %[[PID:.*]] = tt.get_program_id x
// CHECK-NEXT: %[[R:.*]] = tt.make_range
// CHECK-NEXT: %[[S:.*]] = tt.splat %[[P]]
// CHECK-NEXT: %[[A:.*]] = tt.addptr %[[S]], %[[R]]
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[R]]
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %[[E]]
// CHECK-NEXT: %[[T:.*]] = tt.trans %[[X]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant
// CHECK-NEXT: %[[D:.*]] = tt.dot %[[X]], %[[Y]], %[[Z]]
// CHECK-NEXT: tt.return %[[PID]], %[[PID]], %[[A]], %[[A]], %[[B]], %[[B]], %[[T]], %[[T]], %[[D]], %[[D]] :
tt.func @pure_ops(%p: !tt.ptr<f32>, %x: tensor<64x32xf32>, %y: tensor<32x64xf32>)
    -> (i32, i32, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x64xi32>, tensor<64x64xi32>,
        tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %pid0 = tt.get_program_id x : i32
  %pid1 = tt.get_program_id x : i32
  %r0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %s0 = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %s1 = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %a0 = tt.addptr %s0, %r0 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %a1 = tt.addptr %s1, %r1 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %e0 = tt.expand_dims %r0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %e1 = tt.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %b0 = tt.broadcast %e0 : tensor<1x64xi32> -> tensor<64x64xi32>
  %b1 = tt.broadcast %e1 : tensor<1x64xi32> -> tensor<64x64xi32>
  %t0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  %t1 = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf32> -> tensor<32x64xf32>
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %d0 = tt.dot %x, %y, %zero : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %d1 = tt.dot %x, %y, %zero : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  tt.return %pid0, %pid1, %a0, %a1, %b0, %b1, %t0, %t1, %d0, %d1
    : i32, i32, tensor<64x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>, tensor<64x64xi32>, tensor<64x64xi32>,
      tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// Ops that differ in an attribute are different values.
// CHECK-LABEL: tt.func @attributes_differ
// CHECK: tt.get_program_id x
// CHECK: tt.get_program_id y
// CHECK: tt.expand_dims %{{.*}} {axis = 0 : i32}
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32}
tt.func @attributes_differ(%r: tensor<64xi32>) -> (i32, i32, tensor<1x64xi32>, tensor<64x1xi32>) {
  %x = tt.get_program_id x : i32
  %y = tt.get_program_id y : i32
  %e0 = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %e1 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  tt.return %x, %y, %e0, %e1 : i32, i32, tensor<1x64xi32>, tensor<64x1xi32>
}

// Two loads of the same pointers with nothing in between are one load.
// CHECK-LABEL: tt.func @loads_merge
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>)
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[L]], %[[L]]
// CHECK-NEXT: tt.return %[[S]]
tt.func @loads_merge(%p: tensor<64x!tt.ptr<f32>>) -> tensor<64xf32> {
  %l0 = tt.load %p : tensor<64x!tt.ptr<f32>>
  %l1 = tt.load %p : tensor<64x!tt.ptr<f32>>
  %s = arith.addf %l0, %l1 : tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// A store between them (here to other pointers, which may alias) keeps both.
// CHECK-LABEL: tt.func @loads_across_store
// CHECK: %[[L0:.*]] = tt.load %{{.*}}
// CHECK-NEXT: tt.store
// CHECK-NEXT: %[[L1:.*]] = tt.load %{{.*}}
// CHECK-NEXT: arith.addf %[[L0]], %[[L1]]
tt.func @loads_across_store(%p: tensor<64x!tt.ptr<f32>>, %q: tensor<64x!tt.ptr<f32>>, %v: tensor<64xf32>) -> tensor<64xf32> {
  %l0 = tt.load %p : tensor<64x!tt.ptr<f32>>
  tt.store %q, %v : tensor<64x!tt.ptr<f32>>
  %l1 = tt.load %p : tensor<64x!tt.ptr<f32>>
  %s = arith.addf %l0, %l1 : tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// So does an atomic, and volatile loads are never merged.
// CHECK-LABEL: tt.func @loads_across_atomic_and_volatile
// CHECK: tt.load
// CHECK-NEXT: tt.atomic_rmw
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.load %{{.*}} {isVolatile = true}
// CHECK-NEXT: tt.load %{{.*}} {isVolatile = true}
tt.func @loads_across_atomic_and_volatile(%p: !tt.ptr<i32>, %v: i32) -> (i32, i32, i32, i32, i32) {
  %l0 = tt.load %p : !tt.ptr<i32>
  %old = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  %l1 = tt.load %p : !tt.ptr<i32>
  %v0 = tt.load %p {isVolatile = true} : !tt.ptr<i32>
  %v1 = tt.load %p {isVolatile = true} : !tt.ptr<i32>
  tt.return %l0, %old, %l1, %v0, %v1 : i32, i32, i32, i32, i32
}
