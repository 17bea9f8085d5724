// RUN: kiln-opt %s -ttir-reorder-broadcast | FileCheck %s

//===----------------------------------------------------------------------===//
// elementwise(splat(a), splat(b)) -> splat(elementwise(a, b))
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @splat_splat
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[R:.*]] = tt.splat %[[S]] : f32 -> tensor<128xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @splat_splat(%a: f32, %b: f32) -> tensor<128xf32> {
  %sa = tt.splat %a : f32 -> tensor<128xf32>
  %sb = tt.splat %b : f32 -> tensor<128xf32>
  %r = arith.addf %sa, %sb : tensor<128xf32>
  tt.return %r : tensor<128xf32>
}

// A splat constant is a splat; the result element type follows the op.
// CHECK-LABEL: tt.func @splat_constant_compare
// CHECK-SAME: (%[[A:.*]]: f32)
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[S:.*]] = arith.cmpf olt, %[[A]], %[[C]] : f32
// CHECK-NEXT: %[[R:.*]] = tt.splat %[[S]] : i1 -> tensor<16x16xi1>
// CHECK-NEXT: tt.return %[[R]]
tt.func @splat_constant_compare(%a: f32) -> tensor<16x16xi1> {
  %two = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
  %sa = tt.splat %a : f32 -> tensor<16x16xf32>
  %r = arith.cmpf olt, %sa, %two : tensor<16x16xf32>
  tt.return %r : tensor<16x16xi1>
}

// tt ops are elementwise too: a splatted base pointer advanced by a splatted
// offset is one scalar addptr.
// CHECK-LABEL: tt.func @splat_addptr
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f16>, %[[O:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = tt.addptr %[[P]], %[[O]] : !tt.ptr<f16>, i32
// CHECK-NEXT: %[[R:.*]] = tt.splat %[[S]] : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
// CHECK-NEXT: tt.return %[[R]]
tt.func @splat_addptr(%p: !tt.ptr<f16>, %o: i32) -> tensor<64x!tt.ptr<f16>> {
  %sp = tt.splat %p : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %so = tt.splat %o : i32 -> tensor<64xi32>
  %r = tt.addptr %sp, %so : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  tt.return %r : tensor<64x!tt.ptr<f16>>
}

// One operand is not a splat: nothing moves.
// CHECK-LABEL: tt.func @splat_and_tensor
// CHECK-NEXT: %[[S:.*]] = tt.splat
// CHECK-NEXT: arith.addf %[[S]], %{{.*}} : tensor<128xf32>
tt.func @splat_and_tensor(%a: f32, %t: tensor<128xf32>) -> tensor<128xf32> {
  %sa = tt.splat %a : f32 -> tensor<128xf32>
  %r = arith.addf %sa, %t : tensor<128xf32>
  tt.return %r : tensor<128xf32>
}

// An external function call moves when it is pure and stays when it is not.
// CHECK-LABEL: tt.func @splat_extern_elementwise
// CHECK-SAME: (%[[A:.*]]: f32)
// CHECK: %[[S:.*]] = tt.splat %[[A]]
// CHECK: %[[PURE:.*]] = tt.extern_elementwise %[[A]] {{.*}}pure = true{{.*}} : (f32) -> f32
// CHECK: tt.splat %[[PURE]]
// CHECK: tt.extern_elementwise %[[S]] {{.*}}pure = false{{.*}} : (tensor<128xf32>) -> tensor<128xf32>
tt.func @splat_extern_elementwise(%a: f32) -> (tensor<128xf32>, tensor<128xf32>) {
  %sa = tt.splat %a : f32 -> tensor<128xf32>
  %p = tt.extern_elementwise %sa {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<128xf32>) -> tensor<128xf32>
  %q = tt.extern_elementwise %sa {libname = "", libpath = "", pure = false, symbol = "__nv_expf"} : (tensor<128xf32>) -> tensor<128xf32>
  tt.return %p, %q : tensor<128xf32>, tensor<128xf32>
}

// Inline asm that handles two elements per invocation may give different
// results within a pair, so it is not computed on a scalar.
// CHECK-LABEL: tt.func @splat_packed_inline_asm
// CHECK: %[[S:.*]] = tt.splat
// CHECK-NEXT: tt.elementwise_inline_asm {{.*}} %[[S]] : tensor<128xi32> -> tensor<128xi32>
tt.func @splat_packed_inline_asm(%a: i32) -> tensor<128xi32> {
  %sa = tt.splat %a : i32 -> tensor<128xi32>
  %r = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 2 : i32, pure = true} %sa : tensor<128xi32> -> tensor<128xi32>
  tt.return %r : tensor<128xi32>
}

//===----------------------------------------------------------------------===//
// elementwise(broadcast(a), ...) -> broadcast(elementwise(a, ...))
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @broadcast_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<1x64xf32>, %[[B:.*]]: tensor<1x64xf32>)
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : tensor<1x64xf32>
// CHECK-NEXT: %[[R:.*]] = tt.broadcast %[[S]] : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @broadcast_broadcast(%a: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<32x64xf32> {
  %ba = tt.broadcast %a : tensor<1x64xf32> -> tensor<32x64xf32>
  %bb = tt.broadcast %b : tensor<1x64xf32> -> tensor<32x64xf32>
  %r = arith.addf %ba, %bb : tensor<32x64xf32>
  tt.return %r : tensor<32x64xf32>
}

// Splats and splat constants shrink to the broadcast's source shape, and
// the move repeats down a chain of elementwise ops.
// CHECK-LABEL: tt.func @broadcast_chain
// CHECK-SAME: (%[[A:.*]]: tensor<32x1xf32>, %[[S:.*]]: f32)
// CHECK-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<32x1xf32>
// CHECK-DAG: %[[SS:.*]] = tt.splat %[[S]] : f32 -> tensor<32x1xf32>
// CHECK: %[[M:.*]] = arith.mulf %[[A]], %[[SS]] : tensor<32x1xf32>
// CHECK: %[[E:.*]] = math.exp %[[M]] : tensor<32x1xf32>
// CHECK: %[[D:.*]] = arith.addf %[[E]], %[[TWO]] : tensor<32x1xf32>
// CHECK-NEXT: %[[R:.*]] = tt.broadcast %[[D]] : tensor<32x1xf32> -> tensor<32x64xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @broadcast_chain(%a: tensor<32x1xf32>, %s: f32) -> tensor<32x64xf32> {
  %two = arith.constant dense<2.000000e+00> : tensor<32x64xf32>
  %ba = tt.broadcast %a : tensor<32x1xf32> -> tensor<32x64xf32>
  %ss = tt.splat %s : f32 -> tensor<32x64xf32>
  %m = arith.mulf %ba, %ss : tensor<32x64xf32>
  %e = math.exp %m : tensor<32x64xf32>
  %d = arith.addf %e, %two : tensor<32x64xf32>
  tt.return %d : tensor<32x64xf32>
}

// Broadcasts from different shapes (a row and a column) do not line up.
// CHECK-LABEL: tt.func @broadcast_shapes_differ
// CHECK: %[[BA:.*]] = tt.broadcast %{{.*}} : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK: %[[BB:.*]] = tt.broadcast %{{.*}} : tensor<32x1xf32> -> tensor<32x64xf32>
// CHECK: arith.addf %[[BA]], %[[BB]] : tensor<32x64xf32>
tt.func @broadcast_shapes_differ(%a: tensor<1x64xf32>, %b: tensor<32x1xf32>) -> tensor<32x64xf32> {
  %ba = tt.broadcast %a : tensor<1x64xf32> -> tensor<32x64xf32>
  %bb = tt.broadcast %b : tensor<32x1xf32> -> tensor<32x64xf32>
  %r = arith.addf %ba, %bb : tensor<32x64xf32>
  tt.return %r : tensor<32x64xf32>
}

// tt.trans is not elementwise: the broadcast stays in front of it.
// CHECK-LABEL: tt.func @broadcast_into_trans
// CHECK: %[[B:.*]] = tt.broadcast %{{.*}} : tensor<1x64xf32> -> tensor<32x64xf32>
// CHECK-NEXT: tt.trans %[[B]]
tt.func @broadcast_into_trans(%a: tensor<1x64xf32>) -> tensor<64x32xf32> {
  %b = tt.broadcast %a : tensor<1x64xf32> -> tensor<32x64xf32>
  %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
  tt.return %t : tensor<64x32xf32>
}

// A load through broadcast pointers reads memory: it is not elementwise
// and not effect-free, so it keeps its full shape.
// CHECK-LABEL: tt.func @broadcast_into_load
// CHECK: %[[B:.*]] = tt.broadcast %{{.*}} : tensor<1x64x!tt.ptr<f32>> -> tensor<32x64x!tt.ptr<f32>>
// CHECK-NEXT: tt.load %[[B]] : tensor<32x64x!tt.ptr<f32>>
tt.func @broadcast_into_load(%p: tensor<1x64x!tt.ptr<f32>>) -> tensor<32x64xf32> {
  %b = tt.broadcast %p : tensor<1x64x!tt.ptr<f32>> -> tensor<32x64x!tt.ptr<f32>>
  %l = tt.load %b : tensor<32x64x!tt.ptr<f32>>
  tt.return %l : tensor<32x64xf32>
}

//===----------------------------------------------------------------------===//
// expand_dims and the broadcast/expand_dims canonicalisations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @expand_dims_of_splat
// CHECK-SAME: (%[[A:.*]]: i32)
// CHECK-NEXT: %[[R:.*]] = tt.splat %[[A]] : i32 -> tensor<1x64xi32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @expand_dims_of_splat(%a: i32) -> tensor<1x64xi32> {
  %s = tt.splat %a : i32 -> tensor<64xi32>
  %e = tt.expand_dims %s {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  tt.return %e : tensor<1x64xi32>
}

// CHECK-LABEL: tt.func @expand_dims_of_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<1x64xi32>)
// CHECK-NEXT: %[[E:.*]] = tt.expand_dims %[[A]] {axis = 2 : i32} : tensor<1x64xi32> -> tensor<1x64x1xi32>
// CHECK-NEXT: %[[R:.*]] = tt.broadcast %[[E]] : tensor<1x64x1xi32> -> tensor<16x64x1xi32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @expand_dims_of_broadcast(%a: tensor<1x64xi32>) -> tensor<16x64x1xi32> {
  %b = tt.broadcast %a : tensor<1x64xi32> -> tensor<16x64xi32>
  %e = tt.expand_dims %b {axis = 2 : i32} : tensor<16x64xi32> -> tensor<16x64x1xi32>
  tt.return %e : tensor<16x64x1xi32>
}

// broadcast(splat) is a splat, which then moves below the add.
// CHECK-LABEL: tt.func @broadcast_of_splat
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = arith.muli %[[A]], %[[B]] : i32
// CHECK-NEXT: %[[R:.*]] = tt.splat %[[S]] : i32 -> tensor<16x64xi32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @broadcast_of_splat(%a: i32, %b: i32) -> tensor<16x64xi32> {
  %sa = tt.splat %a : i32 -> tensor<1x64xi32>
  %ba = tt.broadcast %sa : tensor<1x64xi32> -> tensor<16x64xi32>
  %sb = tt.splat %b : i32 -> tensor<16x64xi32>
  %r = arith.muli %ba, %sb : tensor<16x64xi32>
  tt.return %r : tensor<16x64xi32>
}
