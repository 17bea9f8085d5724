// RUN: kiln-opt %s -split-input-file -ttir-rewrite-tensor-pointer | FileCheck %s

// A 1-D load without boundaryCheck: no mask, no other; the i32 offset is
// widened and the address is base + (offset + range) * stride in i64.
// CHECK-LABEL: tt.func @load_1d_unchecked
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f32>, %[[N:.*]]: i64, %[[OFF:.*]]: i32)
// CHECK: %[[OFF64:.*]] = arith.extsi %[[OFF]] : i32 to i64
// CHECK: %[[RANGE:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32}
// CHECK: %[[START:.*]] = tt.splat %[[OFF64]] : i64 -> tensor<16xi64>
// CHECK: %[[RANGE64:.*]] = arith.extsi %[[RANGE]] : tensor<16xi32> to tensor<16xi64>
// CHECK: %[[COORD:.*]] = arith.addi %[[START]], %[[RANGE64]]
// CHECK: %[[PTRS:.*]] = tt.splat %[[BASE]] : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK: %[[STRIDE:.*]] = tt.splat %{{.*}} : i64 -> tensor<16xi64>
// CHECK: %[[SCALED:.*]] = arith.muli %[[COORD]], %[[STRIDE]]
// CHECK: %[[ADDR:.*]] = tt.addptr %[[PTRS]], %[[SCALED]] : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
// CHECK: %[[V:.*]] = tt.load %[[ADDR]] : tensor<16x!tt.ptr<f32>>
// CHECK: tt.return %[[V]]
// CHECK-NOT: make_tensor_ptr
tt.func @load_1d_unchecked(%base: !tt.ptr<f32>, %n: i64, %off: i32) -> tensor<16xf32> {
  %c1 = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %base, [%n], [%c1], [%off] {order = array<i32: 0>} : <tensor<16xf32>>
  %v = tt.load %p : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// A 2-D load checked on dimension 1 only, NaN-padded: rows and columns are
// laid out along their own dimension, and only the column bound is masked.
// CHECK-LABEL: tt.func @load_2d_checked_dim1_nan
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f16>, %[[M:.*]]: i64, %[[N:.*]]: i64, %[[LD:.*]]: i64
// CHECK: %[[ROWS:.*]] = tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xi64> -> tensor<32x1xi64>
// CHECK: %[[COLS:.*]] = tt.expand_dims %{{.*}} {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK: %[[LDS:.*]] = tt.splat %[[LD]] : i64 -> tensor<32x1xi64>
// CHECK: arith.muli %[[ROWS]], %[[LDS]] : tensor<32x1xi64>
// CHECK: tt.broadcast %{{.*}} : tensor<32x1xi64> -> tensor<32x64xi64>
// CHECK: tt.addptr
// CHECK: tt.broadcast %{{.*}} : tensor<1x64xi64> -> tensor<32x64xi64>
// CHECK: %[[ADDR:.*]] = tt.addptr
// CHECK-NOT: %[[M]]
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<1x64xi64>
// CHECK: %[[UPPER:.*]] = tt.splat %[[N]] : i64 -> tensor<1x64xi64>
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[COLS]], %[[ZERO]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[COLS]], %[[UPPER]]
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : tensor<1x64xi1>
// CHECK: %[[MASK:.*]] = tt.broadcast %[[IN]] : tensor<1x64xi1> -> tensor<32x64xi1>
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7E00> : tensor<32x64xf16>
// CHECK: tt.load %[[ADDR]], %[[MASK]], %[[NAN]] cacheModifier = cg : tensor<32x64x!tt.ptr<f16>>
tt.func @load_2d_checked_dim1_nan(%base: !tt.ptr<f16>, %m: i64, %n: i64, %ld: i64, %i: i32, %j: i32) -> tensor<32x64xf16> {
  %c1 = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %base, [%m, %n], [%ld, %c1], [%i, %j] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  %v = tt.load %p cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<32x64xf16>>
  tt.return %v : tensor<32x64xf16>
}

// -----

// Both dimensions checked, zero padding: two bounds, and-ed after broadcast.
// CHECK-LABEL: tt.func @load_2d_checked_both_zero
// CHECK: %[[R:.*]] = tt.broadcast %{{.*}} : tensor<8x1xi1> -> tensor<8x4xi1>
// CHECK: %[[C:.*]] = tt.broadcast %{{.*}} : tensor<1x4xi1> -> tensor<8x4xi1>
// CHECK: %[[MASK:.*]] = arith.andi %[[R]], %[[C]] : tensor<8x4xi1>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<8x4xi32>
// CHECK: tt.load %{{.*}}, %[[MASK]], %[[ZERO]] : tensor<8x4x!tt.ptr<i32>>
tt.func @load_2d_checked_both_zero(%base: !tt.ptr<i32>, %m: i64, %n: i64, %ld: i64) -> tensor<8x4xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %base, [%m, %n], [%ld, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<8x4xi32>>
  %v = tt.load %p {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<8x4xi32>>
  tt.return %v : tensor<8x4xi32>
}

// -----

// A checked load without padding has a mask and no other (undefined there).
// CHECK-LABEL: tt.func @load_checked_no_padding
// CHECK: %[[MASK:.*]] = arith.andi
// CHECK: tt.load %{{.*}}, %[[MASK]] : tensor<16x!tt.ptr<f32>>
tt.func @load_checked_no_padding(%base: !tt.ptr<f32>, %n: i64) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %base, [%n], [%c1], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  %v = tt.load %p {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}

// -----

// Advance inside scf.for: the loop carries the block pointer's parts; the
// offset advances in i64, the others pass through unchanged.
// CHECK-LABEL: tt.func @advance_in_for
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f32>, %[[N:.*]]: i64
// CHECK: %[[OFF0:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: scf.for %{{.*}} iter_args(%[[B:.*]] = %[[BASE]], %[[S:.*]] = %[[N]], %[[ST:.*]] = %{{.*}}, %[[OFF:.*]] = %[[OFF0]], %[[ACC:.*]] = %{{.*}}) -> (!tt.ptr<f32>, i64, i64, i64, tensor<16xf32>)
// CHECK: tt.splat %[[OFF]] : i64 -> tensor<16xi64>
// CHECK: tt.load
// CHECK: %[[STEP:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %[[STEP]] : i64
// CHECK: scf.yield %[[B]], %[[S]], %[[ST]], %[[NEXT]], %{{.*}} : !tt.ptr<f32>, i64, i64, i64, tensor<16xf32>
// CHECK-NOT: tt.advance
tt.func @advance_in_for(%base: !tt.ptr<f32>, %n: i64) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %p = tt.make_tensor_ptr %base, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  %r:2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%q = %p, %acc = %zero) -> (!tt.ptr<tensor<16xf32>>, tensor<16xf32>) : i32 {
    %v = tt.load %q {boundaryCheck = array<i32: 0>, padding = 1 : i32} : !tt.ptr<tensor<16xf32>>
    %a = arith.addf %acc, %v : tensor<16xf32>
    %q2 = tt.advance %q, [%c16] : <tensor<16xf32>>
    scf.yield %q2, %a : !tt.ptr<tensor<16xf32>>, tensor<16xf32>
  }
  tt.return %r#1 : tensor<16xf32>
}

// -----

// A store through a block pointer checked on dimension 0: masked store.
// CHECK-LABEL: tt.func @store_2d_checked_dim0
// CHECK: %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<4x1xi1>
// CHECK: %[[MASK:.*]] = tt.broadcast %[[IN]] : tensor<4x1xi1> -> tensor<4x8xi1>
// CHECK: tt.store %{{.*}}, %{{.*}}, %[[MASK]] evictionPolicy = evict_last : tensor<4x8x!tt.ptr<f32>>
tt.func @store_2d_checked_dim0(%base: !tt.ptr<f32>, %m: i64, %n: i64, %v: tensor<4x8xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %base, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<4x8xf32>>
  tt.store %p, %v evictionPolicy = evict_last {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<4x8xf32>>
  tt.return
}

// -----

// scf.if yielding one of two block pointers, and scf.while carrying one:
// both carry the parts (Triton itself rejects scf.while).
// CHECK-LABEL: tt.func @if_and_while
// CHECK: %[[SEL:.*]]:4 = scf.if %{{.*}} -> (!tt.ptr<f32>, i64, i64, i64)
// CHECK: scf.while (%{{.*}} = %[[SEL]]#0, %{{.*}} = %[[SEL]]#1, %{{.*}} = %[[SEL]]#2, %{{.*}} = %[[SEL]]#3) : (!tt.ptr<f32>, i64, i64, i64) -> (!tt.ptr<f32>, i64, i64, i64)
// CHECK: scf.condition
// CHECK: tt.store
// CHECK-NOT: !tt.ptr<tensor
tt.func @if_and_while(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %n: i64, %c: i1, %v: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i64
  %pa = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  %pb = tt.make_tensor_ptr %b, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  %p = scf.if %c -> (!tt.ptr<tensor<16xf32>>) {
    scf.yield %pa : !tt.ptr<tensor<16xf32>>
  } else {
    scf.yield %pb : !tt.ptr<tensor<16xf32>>
  }
  %w = scf.while (%q = %p) : (!tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>> {
    scf.condition(%c) %q : !tt.ptr<tensor<16xf32>>
  } do {
  ^bb0(%q: !tt.ptr<tensor<16xf32>>):
    tt.store %q, %v {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<16xf32>>
    %q2 = tt.advance %q, [%c16] : <tensor<16xf32>>
    scf.yield %q2 : !tt.ptr<tensor<16xf32>>
  }
  tt.return
}

// -----

// A block pointer crossing a call: the callee takes and returns its parts.
// CHECK-LABEL: tt.func private @bump
// CHECK-SAME: (%{{.*}}: !tt.ptr<f32>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) -> (!tt.ptr<f32>, i64, i64, i64)
// CHECK: tt.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f32>, i64, i64, i64
// CHECK-LABEL: tt.func @caller
// CHECK: %[[R:.*]]:4 = tt.call @bump(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!tt.ptr<f32>, i64, i64, i64) -> (!tt.ptr<f32>, i64, i64, i64)
// CHECK: tt.splat %[[R]]#3 : i64 -> tensor<16xi64>
tt.func private @bump(%p: !tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>> {
  %c16 = arith.constant 16 : i32
  %q = tt.advance %p, [%c16] : <tensor<16xf32>>
  tt.return %q : !tt.ptr<tensor<16xf32>>
}
tt.func @caller(%a: !tt.ptr<f32>, %n: i64) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  %q = tt.call @bump(%p) : (!tt.ptr<tensor<16xf32>>) -> !tt.ptr<tensor<16xf32>>
  %v = tt.load %q : !tt.ptr<tensor<16xf32>>
  tt.return %v : tensor<16xf32>
}
