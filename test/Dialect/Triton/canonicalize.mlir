// RUN: kiln-opt %s -canonicalize -split-input-file | FileCheck %s
// Again with freed memory overwritten (glibc), so that a pattern reading an
// op it has already replaced goes visibly wrong.
// RUN: env GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
// RUN:   kiln-opt %s -canonicalize -split-input-file | FileCheck %s

// One case per folder and pattern of the tt dialect, each followed by the
// nearby forms where it must not fire. Results are returned so that dead
// code elimination does not hide what was (not) folded.

//===----------------------------------------------------------------------===//
// splat, expand_dims, broadcast, reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @splat_of_constant
// CHECK-DAG: %[[F:.*]] = arith.constant dense<1.500000e+00> : tensor<8xf32>
// CHECK-DAG: %[[I:.*]] = arith.constant dense<7> : tensor<4x8xi32>
// CHECK-NOT: tt.splat
// CHECK: tt.return %[[F]], %[[I]]
tt.func @splat_of_constant() -> (tensor<8xf32>, tensor<4x8xi32>) {
  %f = arith.constant 1.5 : f32
  %i = arith.constant 7 : i32
  %0 = tt.splat %f : f32 -> tensor<8xf32>
  %1 = tt.splat %i : i32 -> tensor<4x8xi32>
  tt.return %0, %1 : tensor<8xf32>, tensor<4x8xi32>
}

// -----

// CHECK-LABEL: tt.func @splat_of_argument
// CHECK: %[[S:.*]] = tt.splat %{{[[:alnum:]_]+}} : f32 -> tensor<8xf32>
// CHECK: tt.return %[[S]]
tt.func @splat_of_argument(%x: f32) -> tensor<8xf32> {
  %0 = tt.splat %x : f32 -> tensor<8xf32>
  tt.return %0 : tensor<8xf32>
}

// -----

// A splat pointer has no constant to fold to.
// CHECK-LABEL: tt.func @splat_of_pointer
// CHECK: tt.splat %{{[[:alnum:]_]+}} : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
tt.func @splat_of_pointer(%p: !tt.ptr<f32>) -> tensor<8x!tt.ptr<f32>> {
  %0 = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  tt.return %0 : tensor<8x!tt.ptr<f32>>
}

// -----

// CHECK-LABEL: tt.func @expand_dims_of_splat
// CHECK-NEXT: %[[S:.*]] = tt.splat %{{[[:alnum:]_]+}} : f32 -> tensor<1x8xf32>
// CHECK-NEXT: tt.return %[[S]]
tt.func @expand_dims_of_splat(%x: f32) -> tensor<1x8xf32> {
  %0 = tt.splat %x : f32 -> tensor<8xf32>
  %1 = tt.expand_dims %0 {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  tt.return %1 : tensor<1x8xf32>
}

// -----

// CHECK-LABEL: tt.func @expand_dims_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<3> : tensor<8x1xi32>
// CHECK-NEXT: tt.return %[[C]]
tt.func @expand_dims_of_constant() -> tensor<8x1xi32> {
  %c = arith.constant dense<3> : tensor<8xi32>
  %0 = tt.expand_dims %c {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  tt.return %0 : tensor<8x1xi32>
}

// -----

// CHECK-LABEL: tt.func @expand_dims_of_range
// CHECK: %[[R:.*]] = tt.make_range
// CHECK: tt.expand_dims %[[R]] {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
tt.func @expand_dims_of_range() -> tensor<1x8xi32> {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %0 = tt.expand_dims %r {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  tt.return %0 : tensor<1x8xi32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_splat
// CHECK-NEXT: %[[S:.*]] = tt.splat %{{[[:alnum:]_]+}} : i32 -> tensor<4x8xi32>
// CHECK-NEXT: tt.return %[[S]]
tt.func @broadcast_of_splat(%x: i32) -> tensor<4x8xi32> {
  %0 = tt.splat %x : i32 -> tensor<1x8xi32>
  %1 = tt.broadcast %0 : tensor<1x8xi32> -> tensor<4x8xi32>
  tt.return %1 : tensor<4x8xi32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4x8xf16>
// CHECK-NEXT: tt.return %[[C]]
tt.func @broadcast_of_constant() -> tensor<4x8xf16> {
  %c = arith.constant dense<2.0> : tensor<4x1xf16>
  %0 = tt.broadcast %c : tensor<4x1xf16> -> tensor<4x8xf16>
  tt.return %0 : tensor<4x8xf16>
}

// -----

// CHECK-LABEL: tt.func @broadcast_same_type
// CHECK-NEXT: tt.return %arg0
tt.func @broadcast_same_type(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tt.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_broadcast
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %arg0 : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[B]]
tt.func @broadcast_of_broadcast(%x: tensor<1x1xf32>) -> tensor<4x8xf32> {
  %0 = tt.broadcast %x : tensor<1x1xf32> -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %1 : tensor<4x8xf32>
}

// -----

// The inner broadcast has another user, so it stays; the outer one still
// reads the original source.
// CHECK-LABEL: tt.func @broadcast_of_shared_broadcast
// CHECK-NEXT: %[[B0:.*]] = tt.broadcast %arg0 : tensor<1x1xf32> -> tensor<1x8xf32>
// CHECK-NEXT: %[[B1:.*]] = tt.broadcast %arg0 : tensor<1x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[B0]], %[[B1]]
tt.func @broadcast_of_shared_broadcast(%x: tensor<1x1xf32>) -> (tensor<1x8xf32>, tensor<4x8xf32>) {
  %0 = tt.broadcast %x : tensor<1x1xf32> -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %0, %1 : tensor<1x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_argument
// CHECK-NEXT: %[[B:.*]] = tt.broadcast %arg0 : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[B]]
tt.func @broadcast_of_argument(%x: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = tt.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: tt.func @reshape_of_splat
// CHECK-NEXT: %[[S:.*]] = tt.splat %{{[[:alnum:]_]+}} : f32 -> tensor<2x4xf32>
// CHECK-NEXT: tt.return %[[S]]
tt.func @reshape_of_splat(%x: f32) -> tensor<2x4xf32> {
  %0 = tt.splat %x : f32 -> tensor<8xf32>
  %1 = tt.reshape %0 : tensor<8xf32> -> tensor<2x4xf32>
  tt.return %1 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: tt.func @reshape_of_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<true> : tensor<2x4xi1>
// CHECK-NEXT: tt.return %[[C]]
tt.func @reshape_of_constant() -> tensor<2x4xi1> {
  %c = arith.constant dense<true> : tensor<8xi1>
  %0 = tt.reshape %c allow_reorder : tensor<8xi1> -> tensor<2x4xi1>
  tt.return %0 : tensor<2x4xi1>
}

// -----

// CHECK-LABEL: tt.func @reshape_same_type
// CHECK-NEXT: tt.return %arg0
tt.func @reshape_same_type(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = tt.reshape %x : tensor<2x4xf32> -> tensor<2x4xf32>
  tt.return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: tt.func @reshape_of_reshape
// CHECK-NEXT: %[[R:.*]] = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @reshape_of_reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %0 = tt.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  %1 = tt.reshape %0 : tensor<2x16xf32> -> tensor<32xf32>
  tt.return %1 : tensor<32xf32>
}

// -----

// Once either step may reorder elements, the order after both is unspecified.
// CHECK-LABEL: tt.func @reshape_of_reshape_reorder
// CHECK-NEXT: %[[R0:.*]] = tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT: %[[R1:.*]] = tt.reshape %arg0 allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT: tt.return %[[R0]], %[[R1]]
tt.func @reshape_of_reshape_reorder(%x: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<32xf32>) {
  %0 = tt.reshape %x allow_reorder : tensor<4x8xf32> -> tensor<2x16xf32>
  %1 = tt.reshape %0 : tensor<2x16xf32> -> tensor<32xf32>
  %2 = tt.reshape %x : tensor<4x8xf32> -> tensor<16x2xf32>
  %3 = tt.reshape %2 allow_reorder : tensor<16x2xf32> -> tensor<32xf32>
  tt.return %1, %3 : tensor<32xf32>, tensor<32xf32>
}

// -----

// efficient_layout pins a reshape: neither pattern touches it.
// CHECK-LABEL: tt.func @reshape_with_layout_hint
// CHECK: %[[R0:.*]] = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK: %[[R1:.*]] = tt.reshape %[[R0]] efficient_layout : tensor<2x16xf32> -> tensor<32xf32>
// CHECK: %[[S:.*]] = tt.splat %arg1 : f32 -> tensor<8xf32>
// CHECK: %[[R2:.*]] = tt.reshape %[[S]] efficient_layout : tensor<8xf32> -> tensor<2x4xf32>
// CHECK: tt.return %[[R1]], %[[R2]]
tt.func @reshape_with_layout_hint(%x: tensor<4x8xf32>, %y: f32) -> (tensor<32xf32>, tensor<2x4xf32>) {
  %0 = tt.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  %1 = tt.reshape %0 efficient_layout : tensor<2x16xf32> -> tensor<32xf32>
  %2 = tt.splat %y : f32 -> tensor<8xf32>
  %3 = tt.reshape %2 efficient_layout : tensor<8xf32> -> tensor<2x4xf32>
  tt.return %1, %3 : tensor<32xf32>, tensor<2x4xf32>
}

//===----------------------------------------------------------------------===//
// trans
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tt.func @trans_identity
// CHECK-NEXT: tt.return %arg0
tt.func @trans_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tt.trans %x {order = array<i32: 0, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return %0 : tensor<4x8xf32>
}

// -----

// An identity permutation that changes the encoding is not a no-op: folding
// it would change the value's type.
// CHECK-LABEL: tt.func @trans_identity_new_encoding
// CHECK-NEXT: %[[T:.*]] = tt.trans %arg0 {order = array<i32: 0, 1>} : tensor<4x8xf32, "a"> -> tensor<4x8xf32, "b">
// CHECK-NEXT: tt.return %[[T]]
tt.func @trans_identity_new_encoding(%x: tensor<4x8xf32, "a">) -> tensor<4x8xf32, "b"> {
  %0 = tt.trans %x {order = array<i32: 0, 1>} : tensor<4x8xf32, "a"> -> tensor<4x8xf32, "b">
  tt.return %0 : tensor<4x8xf32, "b">
}

// -----

// CHECK-LABEL: tt.func @trans_of_trans_identity
// CHECK-NEXT: tt.return %arg0
tt.func @trans_of_trans_identity(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %1 = tt.trans %0 {order = array<i32: 1, 2, 0>} : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  tt.return %1 : tensor<2x4x8xf32>
}

// -----

// Result dimension i of the outer trans is source dimension inner[outer[i]]:
// outer [1, 0, 2] after inner [2, 0, 1] is [0, 2, 1].
// CHECK-LABEL: tt.func @trans_of_trans_composed
// CHECK-NEXT: %[[T:.*]] = tt.trans %arg0 {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT: tt.return %[[T]]
tt.func @trans_of_trans_composed(%x: tensor<2x4x8xf32>) -> tensor<2x8x4xf32> {
  %0 = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %1 = tt.trans %0 {order = array<i32: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  tt.return %1 : tensor<2x8x4xf32>
}

// -----

// Composing to the identity while changing the encoding leaves one trans.
// CHECK-LABEL: tt.func @trans_of_trans_new_encoding
// CHECK-NEXT: %[[T:.*]] = tt.trans %arg0 {order = array<i32: 0, 1>} : tensor<4x8xf32, "a"> -> tensor<4x8xf32, "b">
// CHECK-NEXT: tt.return %[[T]]
tt.func @trans_of_trans_new_encoding(%x: tensor<4x8xf32, "a">) -> tensor<4x8xf32, "b"> {
  %0 = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32, "a"> -> tensor<8x4xf32, "c">
  %1 = tt.trans %0 {order = array<i32: 1, 0>} : tensor<8x4xf32, "c"> -> tensor<4x8xf32, "b">
  tt.return %1 : tensor<4x8xf32, "b">
}

// -----

// CHECK-LABEL: tt.func @trans_of_splat_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<8x4xbf16>
// CHECK-NEXT: tt.return %[[C]]
tt.func @trans_of_splat_constant() -> tensor<8x4xbf16> {
  %c = arith.constant dense<1.0> : tensor<4x8xbf16>
  %0 = tt.trans %c {order = array<i32: 1, 0>} : tensor<4x8xbf16> -> tensor<8x4xbf16>
  tt.return %0 : tensor<8x4xbf16>
}

// -----

// A non-splat constant would need its elements permuted; it is left alone.
// CHECK-LABEL: tt.func @trans_of_dense_constant
// CHECK: %[[T:.*]] = tt.trans %{{[[:alnum:]_]+}} {order = array<i32: 1, 0>} : tensor<2x2xi32> -> tensor<2x2xi32>
// CHECK-NEXT: tt.return %[[T]]
tt.func @trans_of_dense_constant() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %0 = tt.trans %c {order = array<i32: 1, 0>} : tensor<2x2xi32> -> tensor<2x2xi32>
  tt.return %0 : tensor<2x2xi32>
}

//===----------------------------------------------------------------------===//
// make_range
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tt.func @make_range_one_element
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<5> : tensor<1xi32>
// CHECK-NEXT: tt.return %[[C]]
tt.func @make_range_one_element() -> tensor<1xi32> {
  %0 = tt.make_range {end = 6 : i32, start = 5 : i32} : tensor<1xi32>
  tt.return %0 : tensor<1xi32>
}

// -----

// CHECK-LABEL: tt.func @make_range_two_elements
// CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @make_range_two_elements() -> tensor<2xi32> {
  %0 = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  tt.return %0 : tensor<2xi32>
}

//===----------------------------------------------------------------------===//
// addptr, advance
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tt.func @addptr_zero
// CHECK-NEXT: tt.return %arg0, %arg1
tt.func @addptr_zero(%p: !tt.ptr<f32>, %tp: tensor<8x!tt.ptr<f16>>) -> (!tt.ptr<f32>, tensor<8x!tt.ptr<f16>>) {
  %c0 = arith.constant 0 : i32
  %z = arith.constant dense<0> : tensor<8xi64>
  %0 = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  %1 = tt.addptr %tp, %z : tensor<8x!tt.ptr<f16>>, tensor<8xi64>
  tt.return %0, %1 : !tt.ptr<f32>, tensor<8x!tt.ptr<f16>>
}

// -----

// CHECK-LABEL: tt.func @addptr_nonzero
// CHECK: %[[A0:.*]] = tt.addptr %arg0, %{{[[:alnum:]_]+}} : !tt.ptr<f32>, i32
// CHECK: %[[A1:.*]] = tt.addptr %arg1, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
// CHECK: %[[A2:.*]] = tt.addptr %arg1, %arg2 : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
// CHECK: tt.return %[[A0]], %[[A1]], %[[A2]]
tt.func @addptr_nonzero(%p: !tt.ptr<f32>, %tp: tensor<8x!tt.ptr<f16>>, %o: tensor<8xi32>) -> (!tt.ptr<f32>, tensor<8x!tt.ptr<f16>>, tensor<8x!tt.ptr<f16>>) {
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %0 = tt.addptr %p, %c1 : !tt.ptr<f32>, i32
  %1 = tt.addptr %tp, %r : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  %2 = tt.addptr %tp, %o : tensor<8x!tt.ptr<f16>>, tensor<8xi32>
  tt.return %0, %1, %2 : !tt.ptr<f32>, tensor<8x!tt.ptr<f16>>, tensor<8x!tt.ptr<f16>>
}

// -----

// CHECK-LABEL: tt.func @advance_zero
// CHECK-NEXT: tt.return %arg0
tt.func @advance_zero(%bp: !tt.ptr<tensor<32x64xf16>>) -> !tt.ptr<tensor<32x64xf16>> {
  %c0 = arith.constant 0 : i32
  %0 = tt.advance %bp, [%c0, %c0] : <tensor<32x64xf16>>
  tt.return %0 : !tt.ptr<tensor<32x64xf16>>
}

// -----

// One non-zero offset (constant or not) keeps the advance.
// CHECK-LABEL: tt.func @advance_nonzero
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i32
// CHECK: %[[A0:.*]] = tt.advance %arg0, [%[[C0]], %[[C32]]] : <tensor<32x64xf16>>
// CHECK: %[[A1:.*]] = tt.advance %arg0, [%arg1, %[[C0]]] : <tensor<32x64xf16>>
// CHECK: tt.return %[[A0]], %[[A1]]
tt.func @advance_nonzero(%bp: !tt.ptr<tensor<32x64xf16>>, %o: i32) -> (!tt.ptr<tensor<32x64xf16>>, !tt.ptr<tensor<32x64xf16>>) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %0 = tt.advance %bp, [%c0, %c32] : <tensor<32x64xf16>>
  %1 = tt.advance %bp, [%o, %c0] : <tensor<32x64xf16>>
  tt.return %0, %1 : !tt.ptr<tensor<32x64xf16>>, !tt.ptr<tensor<32x64xf16>>
}

//===----------------------------------------------------------------------===//
// bitcast, fp_to_fp
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: tt.func @bitcast_same_type
// CHECK-NEXT: tt.return %arg0
tt.func @bitcast_same_type(%x: tensor<8xi32>) -> tensor<8xi32> {
  %0 = tt.bitcast %x : tensor<8xi32> -> tensor<8xi32>
  tt.return %0 : tensor<8xi32>
}

// -----

// CHECK-LABEL: tt.func @bitcast_round_trip
// CHECK-NEXT: tt.return %arg0
tt.func @bitcast_round_trip(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xi32>
  %1 = tt.bitcast %0 : tensor<8xi32> -> tensor<8xf32>
  tt.return %1 : tensor<8xf32>
}

// -----

// CHECK-LABEL: tt.func @bitcast_of_bitcast
// CHECK-NEXT: %[[B:.*]] = tt.bitcast %arg0 : f16 -> i16
// CHECK-NEXT: tt.return %[[B]]
tt.func @bitcast_of_bitcast(%x: f16) -> i16 {
  %0 = tt.bitcast %x : f16 -> bf16
  %1 = tt.bitcast %0 : bf16 -> i16
  tt.return %1 : i16
}

// -----

// CHECK-LABEL: tt.func @bitcast_of_pointer_bitcast
// CHECK-NEXT: %[[B:.*]] = tt.bitcast %arg0 : !tt.ptr<f32> -> !tt.ptr<i8>
// CHECK-NEXT: tt.return %[[B]]
tt.func @bitcast_of_pointer_bitcast(%p: !tt.ptr<f32>) -> !tt.ptr<i8> {
  %0 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i32>
  %1 = tt.bitcast %0 : !tt.ptr<i32> -> !tt.ptr<i8>
  tt.return %1 : !tt.ptr<i8>
}

// -----

// CHECK-LABEL: tt.func @bitcast_of_argument
// CHECK-NEXT: %[[B:.*]] = tt.bitcast %arg0 : f32 -> i32
// CHECK-NEXT: tt.return %[[B]]
tt.func @bitcast_of_argument(%x: f32) -> i32 {
  %0 = tt.bitcast %x : f32 -> i32
  tt.return %0 : i32
}

// -----

// CHECK-LABEL: tt.func @fp_to_fp_same_type
// CHECK-NEXT: tt.return %arg0
tt.func @fp_to_fp_same_type(%x: tensor<8xf16>) -> tensor<8xf16> {
  %0 = tt.fp_to_fp %x : tensor<8xf16> -> tensor<8xf16>
  tt.return %0 : tensor<8xf16>
}

// -----

// Zero converts exactly, with its sign, except into the fp8 formats that
// have no negative zero.
// CHECK-LABEL: tt.func @fp_to_fp_of_zero
// CHECK-DAG: %[[Z0:.*]] = arith.constant 0.000000e+00 : f8E4M3FN
// CHECK-DAG: %[[Z1:.*]] = arith.constant dense<0.000000e+00> : tensor<8xf32>
// CHECK-DAG: %[[Z2:.*]] = arith.constant dense<-0.000000e+00> : tensor<8xbf16>
// CHECK-DAG: %[[Z3:.*]] = arith.constant 0.000000e+00 : f8E5M2FNUZ
// CHECK-NOT: tt.fp_to_fp
// CHECK: tt.return %[[Z0]], %[[Z1]], %[[Z2]], %[[Z3]]
tt.func @fp_to_fp_of_zero() -> (f8E4M3FN, tensor<8xf32>, tensor<8xbf16>, f8E5M2FNUZ) {
  %z = arith.constant 0.0 : f32
  %z8 = arith.constant dense<0.0> : tensor<8xf8E5M2>
  %nz = arith.constant dense<-0.0> : tensor<8xf32>
  %nzs = arith.constant -0.0 : f16
  %0 = tt.fp_to_fp %z, rounding = rtne : f32 -> f8E4M3FN
  %1 = tt.fp_to_fp %z8 : tensor<8xf8E5M2> -> tensor<8xf32>
  %2 = tt.fp_to_fp %nz, rounding = rtz : tensor<8xf32> -> tensor<8xbf16>
  %3 = tt.fp_to_fp %nzs, rounding = rtne : f16 -> f8E5M2FNUZ
  tt.return %0, %1, %2, %3 : f8E4M3FN, tensor<8xf32>, tensor<8xbf16>, f8E5M2FNUZ
}

// -----

// Any other constant depends on the rounding mode and is left to codegen.
// CHECK-LABEL: tt.func @fp_to_fp_of_nonzero
// CHECK: %[[F:.*]] = tt.fp_to_fp %{{[[:alnum:]_]+}}, rounding = rtne : f32 -> f8E4M3FN
// CHECK: tt.return %[[F]]
tt.func @fp_to_fp_of_nonzero() -> f8E4M3FN {
  %c = arith.constant 0.1 : f32
  %0 = tt.fp_to_fp %c, rounding = rtne : f32 -> f8E4M3FN
  tt.return %0 : f8E4M3FN
}

//===----------------------------------------------------------------------===//
// load, store with constant masks
//===----------------------------------------------------------------------===//

// -----

// An all-true mask is dropped, together with `other`, which is never read.
// CHECK-LABEL: tt.func @load_all_true_mask
// CHECK-NEXT: %[[L0:.*]] = tt.load %arg0 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[L1:.*]] = tt.load %arg0 cacheModifier = cg evictionPolicy = evict_last : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: %[[L2:.*]] = tt.load %arg1 : !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[L0]], %[[L1]], %[[L2]]
tt.func @load_all_true_mask(%p: tensor<8x!tt.ptr<f32>>, %s: !tt.ptr<f32>) -> (tensor<8xf32>, tensor<8xf32>, f32) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %t = arith.constant true
  %other = arith.constant dense<0.0> : tensor<8xf32>
  %0 = tt.load %p, %true : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %p, %true, %other cacheModifier = cg evictionPolicy = evict_last : tensor<8x!tt.ptr<f32>>
  %2 = tt.load %s, %t : !tt.ptr<f32>
  tt.return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, f32
}

// -----

// An all-false mask reads nothing: the result is `other`.
// CHECK-LABEL: tt.func @load_all_false_mask
// CHECK-NOT: tt.load
// CHECK: tt.return %arg1, %arg3
tt.func @load_all_false_mask(%p: tensor<8x!tt.ptr<f32>>, %other: tensor<8xf32>, %s: !tt.ptr<i32>, %o: i32) -> (tensor<8xf32>, i32) {
  %false = arith.constant dense<false> : tensor<8xi1>
  %f = arith.constant false
  %0 = tt.load %p, %false, %other : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %s, %f, %o : !tt.ptr<i32>
  tt.return %0, %1 : tensor<8xf32>, i32
}

// -----

// All-false without `other` (undefined result), a volatile load, a mask that
// is not all one value and a mask that is not constant all stay.
// CHECK-LABEL: tt.func @load_mask_kept
// CHECK: %[[L0:.*]] = tt.load %arg0, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>
// CHECK: %[[L1:.*]] = tt.load %arg0, %{{[[:alnum:]_]+}}, %arg1 {isVolatile = true} : tensor<8x!tt.ptr<f32>>
// CHECK: %[[L2:.*]] = tt.load %arg0, %{{[[:alnum:]_]+}}, %arg1 : tensor<8x!tt.ptr<f32>>
// CHECK: %[[L3:.*]] = tt.load %arg0, %arg2, %arg1 : tensor<8x!tt.ptr<f32>>
// CHECK: tt.return %[[L0]], %[[L1]], %[[L2]], %[[L3]]
tt.func @load_mask_kept(%p: tensor<8x!tt.ptr<f32>>, %other: tensor<8xf32>, %m: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %false = arith.constant dense<false> : tensor<8xi1>
  %mixed = arith.constant dense<[true, false, true, false, true, false, true, false]> : tensor<8xi1>
  %0 = tt.load %p, %false : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %p, %false, %other {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %2 = tt.load %p, %mixed, %other : tensor<8x!tt.ptr<f32>>
  %3 = tt.load %p, %m, %other : tensor<8x!tt.ptr<f32>>
  tt.return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: tt.func @store_all_true_mask
// CHECK-NEXT: tt.store %arg0, %arg1 evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg2, %arg3 : !tt.ptr<i32>
// CHECK-NEXT: tt.return
tt.func @store_all_true_mask(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %s: !tt.ptr<i32>, %i: i32) {
  %true = arith.constant dense<true> : tensor<8xi1>
  %t = arith.constant true
  tt.store %p, %v, %true evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
  tt.store %s, %i, %t : !tt.ptr<i32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @store_all_false_mask
// CHECK-NEXT: tt.return
tt.func @store_all_false_mask(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %s: !tt.ptr<i32>, %i: i32) {
  %false = arith.constant dense<false> : tensor<8xi1>
  %f = arith.constant false
  tt.store %p, %v, %false : tensor<8x!tt.ptr<f32>>
  tt.store %s, %i, %f : !tt.ptr<i32>
  tt.return
}

// -----

// CHECK-LABEL: tt.func @store_mask_kept
// CHECK: tt.store %arg0, %arg1, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>
// CHECK: tt.store %arg0, %arg1, %arg2 : tensor<8x!tt.ptr<f32>>
// CHECK-NEXT: tt.return
tt.func @store_mask_kept(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %m: tensor<8xi1>) {
  %mixed = arith.constant dense<[true, true, true, true, false, false, false, false]> : tensor<8xi1>
  tt.store %p, %v, %mixed : tensor<8x!tt.ptr<f32>>
  tt.store %p, %v, %m : tensor<8x!tt.ptr<f32>>
  tt.return
}
