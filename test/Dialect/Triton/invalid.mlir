// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// At least one rejected form of every tt op, and of the types. Each case
// names the check it hits in its diagnostic.

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

tt.func @misspelt_op(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{custom op 'tt.laod' is unknown}}
  %0 = tt.laod %p : !tt.ptr<f32>
  tt.return
}

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
tt.func @unterminated_ptr(%p: !tt.ptr<f32) {
  tt.return
}

// -----

// expected-error @+1 {{expected non-function type}}
tt.func @empty_ptr(%p: !tt.ptr<>) {
  tt.return
}

// -----

// expected-error @+1 {{expected integer value}}
tt.func @symbolic_address_space(%p: !tt.ptr<f32, shared>) {
  tt.return
}

// -----

// expected-error @+1 {{tensordesc block type must be a ranked tensor, got 'f32'}}
tt.func @scalar_tensordesc(%d: !tt.tensordesc<f32>) {
  tt.return
}

// -----

// expected-error @+1 {{unknown  type `pointer` in dialect `tt`}}
tt.func @unknown_type(%p: !tt.pointer<f32>) {
  tt.return
}

// -----

// expected-error @+1 {{tensordesc block type must have a static shape, got 'tensor<?x64xf16>'}}
tt.func @dynamic_tensordesc(%d: !tt.tensordesc<tensor<?x64xf16>>) {
  tt.return
}

// -----

// Triton tensors always have a static shape; verifiers count their elements.
tt.func @dynamic_tensor(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating-point or integer or pointer to a scalar values, but got 'tensor<?x4xf32>'}}
  %0 = "tt.reshape"(%x) : (tensor<?x4xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @dynamic_block_pointer(%bp: !tt.ptr<tensor<?x64xf16>>) {
  // expected-error @+1 {{'ptr' must be pointer to a scalar or statically shaped tensor of pointer to a scalar values or pointer to a tensor block, but got '!tt.ptr<tensor<?x64xf16>>'}}
  %0 = tt.load %bp : !tt.ptr<tensor<?x64xf16>>
  tt.return
}

// -----

tt.func @unknown_enum_case() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %0 = tt.get_program_id w : i32
  tt.return
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

// -----

tt.func @int_to_ptr_from_i32(%i: i32) {
  // expected-error @+1 {{operand #0 must be 64-bit signless integer or statically shaped tensor of 64-bit signless integer values, but got 'i32'}}
  %0 = tt.int_to_ptr %i : i32 -> !tt.ptr<f32>
  tt.return
}

// -----

tt.func @int_to_ptr_shape(%i: tensor<8xi64>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tt.int_to_ptr %i : tensor<8xi64> -> tensor<4x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @ptr_to_int_to_i32(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{result #0 must be 64-bit signless integer or statically shaped tensor of 64-bit signless integer values, but got 'i32'}}
  %0 = tt.ptr_to_int %p : !tt.ptr<f32> -> i32
  tt.return
}

// -----

tt.func @bitcast_width(%x: tensor<8xf32>) {
  // expected-error @+1 {{cannot bitcast 'f32' (32 bits) to 'i16' (16 bits)}}
  %0 = tt.bitcast %x : tensor<8xf32> -> tensor<8xi16>
  tt.return
}

// -----

tt.func @bitcast_ptr_to_int(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{cannot bitcast between a pointer and a non-pointer ('!tt.ptr<f32>' to 'i64'); use ptr_to_int or int_to_ptr}}
  %0 = tt.bitcast %p : !tt.ptr<f32> -> i64
  tt.return
}

// -----

tt.func @bitcast_address_space(%p: !tt.ptr<f32, 3>) {
  // expected-error @+1 {{cannot bitcast a pointer from address space 3 to address space 1}}
  %0 = tt.bitcast %p : !tt.ptr<f32, 3> -> !tt.ptr<i32>
  tt.return
}

// -----

tt.func @fp_to_fp_narrowing_needs_rounding(%x: f32) {
  // expected-error @+1 {{a narrowing conversion from 'f32' to 'f16' needs a rounding mode}}
  %0 = tt.fp_to_fp %x : f32 -> f16
  tt.return
}

// -----

tt.func @fp_to_fp_widening_takes_no_rounding(%x: tensor<8xf8E5M2>) {
  // expected-error @+1 {{a rounding mode is only allowed when narrowing, not from 'f8E5M2' to 'f32'}}
  %0 = tt.fp_to_fp %x, rounding = rtne : tensor<8xf8E5M2> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @fp_to_fp_integer(%x: i32) {
  // expected-error @+1 {{operand #0 must be floating-point or statically shaped tensor of floating-point values, but got 'i32'}}
  %0 = tt.fp_to_fp %x, rounding = rtne : i32 -> f16
  tt.return
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

// -----

tt.func @clampf_mixed_types(%x: f32, %h: f16) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "tt.clampf"(%x, %h, %x) <{propagateNan = 0 : i32}> : (f32, f16, f32) -> f32
  tt.return
}

// -----

tt.func @clampf_bad_propagate_nan(%x: f32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'propagateNan' [none, all]}}
  %0 = tt.clampf %x, %x, %x, propagateNan = some : f32
  tt.return
}

// -----

tt.func @precise_sqrt_integer(%x: i32) {
  // expected-error @+1 {{operand #0 must be floating-point or statically shaped tensor of floating-point values, but got 'i32'}}
  %0 = tt.precise_sqrt %x : i32
  tt.return
}

// -----

tt.func @precise_divf_integer(%x: tensor<8xi32>) {
  // expected-error @+1 {{operand #0 must be floating-point or statically shaped tensor of floating-point values, but got 'tensor<8xi32>'}}
  %0 = tt.precise_divf %x, %x : tensor<8xi32>
  tt.return
}

// -----

tt.func @mulhiui_float(%x: f32) {
  // expected-error @+1 {{operand #0 must be integer or statically shaped tensor of integer values, but got 'f32'}}
  %0 = tt.mulhiui %x, %x : f32
  tt.return
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

// -----

tt.func @addptr_shape(%p: tensor<8x!tt.ptr<f32>>, %o: tensor<4xi32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tt.addptr %p, %o : tensor<8x!tt.ptr<f32>>, tensor<4xi32>
  tt.return
}

// -----

tt.func @addptr_not_a_pointer(%p: i64, %o: i32) {
  // expected-error @+1 {{'result' must be pointer to a scalar or statically shaped tensor of pointer to a scalar values, but got 'i64'}}
  %0 = tt.addptr %p, %o : i64, i32
  tt.return
}

// -----

tt.func @advance_offset_count(%bp: !tt.ptr<tensor<32x64xf16>>, %o: i32) {
  // expected-error @+1 {{expects 2 offsets, got 1}}
  %0 = tt.advance %bp, [%o] : <tensor<32x64xf16>>
  tt.return
}

// -----

// The custom form infers the mask type from the pointer type, so a mask of
// another shape is a parse error there.
// expected-note @+1 {{prior use here}}
tt.func @load_mask_shape_custom(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<8xi1>' vs 'tensor<4xi1>'}}
  %0 = tt.load %p, %m : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @+1 {{failed to verify that mask shape matches ptr}}
  %0 = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x!tt.ptr<f32>>, tensor<4xi1>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_other_type(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf16>) {
  // expected-error @+1 {{failed to verify that other matches pointee type}}
  %0 = "tt.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<8x!tt.ptr<f32>>, tensor<8xi1>, tensor<8xf16>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @load_other_without_mask(%p: !tt.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'other' needs a mask}}
  %0 = "tt.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @load_block_pointer_with_mask(%bp: !tt.ptr<tensor<32x64xf16>>, %m: tensor<32x64xi1>) {
  // expected-error @+1 {{a block-pointer load takes no mask or other; use boundaryCheck and padding}}
  %0 = tt.load %bp, %m : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @load_padding_without_block_pointer(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{padding is only allowed with a block pointer}}
  %0 = tt.load %p {padding = 1 : i32} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_boundary_check_without_block_pointer(%p: tensor<8x!tt.ptr<f32>>) {
  // expected-error @+1 {{boundaryCheck is only allowed with a block pointer}}
  %0 = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @load_boundary_check_range(%bp: !tt.ptr<tensor<32x64xf16>>) {
  // expected-error @+1 {{boundaryCheck dimension 2 is out of range for rank 2}}
  %0 = tt.load %bp {boundaryCheck = array<i32: 0, 2>} : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @load_bad_cache_modifier(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'cache' [none, ca, cg, wb, cs, wt, cv]}}
  %0 = tt.load %p cacheModifier = lu : !tt.ptr<f32>
  tt.return
}

// -----

tt.func @store_value_type(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf16>) {
  // expected-error @+1 {{failed to verify that value matches pointee type}}
  "tt.store"(%p, %v) : (tensor<8x!tt.ptr<f32>>, tensor<8xf16>) -> ()
  tt.return
}

// -----

tt.func @store_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf32>, %m: tensor<8x1xi1>) {
  // expected-error @+1 {{failed to verify that mask shape matches ptr}}
  "tt.store"(%p, %v, %m) : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8x1xi1>) -> ()
  tt.return
}

// -----

tt.func @store_block_pointer_with_mask(%bp: !tt.ptr<tensor<32x64xf16>>, %v: tensor<32x64xf16>, %m: tensor<32x64xi1>) {
  // expected-error @+1 {{a block-pointer store takes no mask; use boundaryCheck}}
  tt.store %bp, %v, %m : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @store_boundary_check_range(%bp: !tt.ptr<tensor<32x64xf16>>, %v: tensor<32x64xf16>) {
  // expected-error @+1 {{boundaryCheck dimension -1 is out of range for rank 2}}
  tt.store %bp, %v {boundaryCheck = array<i32: -1>} : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @atomic_rmw_pointee(%p: tensor<8x!tt.ptr<f16>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{pointer type 'tensor<8x!tt.ptr<f16>>' does not point to values of type 'tensor<8xf32>'}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<8x!tt.ptr<f16>>, tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @atomic_rmw_fadd_on_integers(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{fadd needs a float value, got 'i32'}}
  %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_rmw_bitwise_on_floats(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{xor needs an integer value, got 'f32'}}
  %0 = tt.atomic_rmw xor, acq_rel, cta, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @atomic_rmw_mask_type(%p: tensor<8x!tt.ptr<i32>>, %v: tensor<8xi32>, %m: tensor<8xi8>) {
  // expected-error @+1 {{operand #2 must be 1-bit signless integer or statically shaped tensor of 1-bit signless integer values, but got 'tensor<8xi8>'}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v, %m : (tensor<8x!tt.ptr<i32>>, tensor<8xi32>, tensor<8xi8>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @atomic_rmw_result_type(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{result type must be the value type 'i32'}}
  %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i64
  tt.return
}

// -----

tt.func @atomic_rmw_bad_scope(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, cta, sys]}}
  %0 = tt.atomic_rmw add, relaxed, warp, %p, %v : (!tt.ptr<i32>, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_cas_cmp_type(%p: !tt.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @+1 {{cmp, val and result must all have type 'i32'}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i64, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_cas_pointee(%p: !tt.ptr<i64>, %v: i32) {
  // expected-error @+1 {{pointer type '!tt.ptr<i64>' does not point to values of type 'i32'}}
  %0 = tt.atomic_cas acq_rel, gpu, %p, %v, %v : (!tt.ptr<i64>, i32, i32) -> i32
  tt.return
}

// -----

tt.func @atomic_cas_bad_semantic(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'sem' [relaxed, acquire, release, acq_rel]}}
  %0 = tt.atomic_cas seq_cst, gpu, %p, %v, %v : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// -----

tt.func @splat_of_tensor(%x: tensor<1xf32>) {
  // expected-error @+1 {{splats a scalar, not a tensor}}
  %0 = tt.splat %x : tensor<1xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tt.splat %x : f32 -> tensor<8xf16>
  tt.return
}

// -----

tt.func @unsplat_many_elements(%x: tensor<2xf32>) {
  // expected-error @+1 {{needs a tensor of exactly one element, got [2]}}
  %0 = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @unsplat_result_type(%x: tensor<1x1xf32>) {
  // expected-error @+2 {{inferred type(s) 'f32' are incompatible with return type(s) of operation 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "tt.unsplat"(%x) : (tensor<1x1xf32>) -> f16
  tt.return
}

// -----

// The result type is inferred; an explicit `-> type` is not part of the form.
tt.func @unsplat_arrow(%x: tensor<1xf32>) {
  // expected-error @+1 {{expected operation name in quotes}}
  %0 = tt.unsplat %x : tensor<1xf32> -> f32
  tt.return
}

// -----

tt.func @expand_dims_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 1}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_negative_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{axis -1 is out of range for rank 1}}
  %0 = tt.expand_dims %x {axis = -1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_result_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{result shape must be [8, 1], got [1, 8]}}
  %0 = tt.expand_dims %x {axis = 1 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  tt.return
}

// -----

tt.func @reshape_element_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{cannot reshape [4, 8] into [16]: element counts differ}}
  %0 = tt.reshape %x : tensor<4x8xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reshape_element_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tt.reshape %x : tensor<4x8xf32> -> tensor<32xi32>
  tt.return
}

// -----

tt.func @broadcast_non_unit_dimension(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{dimension 0 of size 2 cannot be broadcast to 4}}
  %0 = tt.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{source and result must have the same rank, got 1 and 2}}
  %0 = tt.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @cat_element_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result must hold the elements of both operands (64), got 32}}
  %0 = tt.cat %x, %x : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @cat_operand_types(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) {
  // expected-error @+1 {{requires all operands to have the same type}}
  %0 = "tt.cat"(%x, %y) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @join_result_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result must be [4, 8, 2] of 'f32'}}
  %0 = tt.join %x, %x : tensor<4x8xf32> -> tensor<2x4x8xf32>
  tt.return
}

// -----

tt.func @split_last_dimension(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{the last dimension of the source must be 2, got [4, 8]}}
  %0, %1 = tt.split %x : tensor<4x8xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @split_result_shape(%x: tensor<4x8x2xf32>) {
  // expected-error @+1 {{results must be [4, 8] of 'f32'}}
  %0, %1 = tt.split %x : tensor<4x8x2xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_not_a_permutation(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, 2), got [1, 1]}}
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @trans_order_size(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{order has 3 entries but the tensor has rank 2}}
  %0 = tt.trans %x {order = array<i32: 2, 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_result_shape(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{result shape must be [8, 2, 4], got [8, 4, 2]}}
  %0 = tt.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x4x2xf32>
  tt.return
}

// -----

tt.func @gather_rank(%src: tensor<4x8xf32>, %idx: tensor<8xi32>) {
  // expected-error @+1 {{source and indices must have the same rank}}
  %0 = tt.gather %src[%idx] {axis = 0 : i32} : (tensor<4x8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @gather_axis(%src: tensor<4x8xf32>, %idx: tensor<4x8xi32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = tt.gather %src[%idx] {axis = 2 : i32} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
  tt.return
}

// -----

tt.func @gather_index_dimension(%src: tensor<4x8xf32>, %idx: tensor<8x8xi32>) {
  // expected-error @+1 {{indices dimension 0 (8) exceeds the source's (4)}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<8x8xi32>) -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @gather_result(%src: tensor<4x8xf32>, %idx: tensor<4x2xi32>) {
  // expected-error @+1 {{result must have the indices' shape and the source's element type}}
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x8xf32>
  tt.return
}

//===----------------------------------------------------------------------===//
// SPMD
//===----------------------------------------------------------------------===//

// -----

tt.func @get_program_id_i64() {
  // expected-error @+1 {{result #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = tt.get_program_id x : i64
  tt.return
}

// -----

tt.func @get_num_programs_axis() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'axis' [x, y, z]}}
  %0 = tt.get_num_programs 0 : i32
  tt.return
}

// -----

tt.func @get_num_programs_i64() {
  // expected-error @+1 {{result #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = tt.get_num_programs y : i64
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{end (0) must be greater than start (0)}}
  %0 = tt.make_range {end = 0 : i32, start = 0 : i32} : tensor<0xi32>
  tt.return
}

// -----

tt.func @make_range_size() {
  // expected-error @+1 {{result has 64 elements but the range [0, 128) has 128}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<64xi32>
  tt.return
}

// -----

tt.func @make_range_i64() {
  // expected-error @+1 {{result must be a 1-D tensor of i32}}
  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi64>
  tt.return
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

// -----

tt.func @dot_reduction_dimension(%a: tensor<16x32xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{reduction dimensions differ: a is [16, 32], b is [16, 8]}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x8xf16> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_accumulator_shape(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{accumulator shape [8, 16] does not match a [16, 32] * b [32, 8]}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<8x16xf32>
  tt.return
}

// -----

tt.func @dot_rank(%a: tensor<32xf16>, %b: tensor<32xf16>, %c: tensor<1xf32>) {
  // expected-error @+1 {{operands must be 2-D (or 3-D batched), got rank 1}}
  %0 = tt.dot %a, %b, %c : tensor<32xf16> * tensor<32xf16> -> tensor<1xf32>
  tt.return
}

// -----

tt.func @dot_batch(%a: tensor<2x16x32xf16>, %b: tensor<4x32x8xf16>, %c: tensor<2x16x8xf32>) {
  // expected-error @+1 {{accumulator shape [2, 16, 8] does not match a [2, 16, 32] * b [4, 32, 8]}}
  %0 = tt.dot %a, %b, %c : tensor<2x16x32xf16> * tensor<4x32x8xf16> -> tensor<2x16x8xf32>
  tt.return
}

// -----

tt.func @dot_mixed_float_and_integer(%a: tensor<16x32xi8>, %b: tensor<32x8xf8E4M3FN>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{a and b must both be float or both be integer}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x8xf8E4M3FN> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_mixed_widths(%a: tensor<16x32xf16>, %b: tensor<32x8xf8E5M2>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{a and b must have elements of the same width, got 'f16' and 'f8E5M2'}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf8E5M2> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_integer_accumulator_for_floats(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xi32>) {
  // expected-error @+1 {{accumulator 'i32' does not suit inputs of 'f16'}}
  %0 = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xi32>
  tt.return
}

// -----

tt.func @dot_result_is_accumulator(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{failed to verify that result type matches accumulator}}
  %0 = "tt.dot"(%a, %b, %c) : (tensor<16x32xf16>, tensor<32x8xf16>, tensor<16x8xf32>) -> tensor<16x8xf16>
  tt.return
}

// -----

tt.func @dot_bad_input_precision(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'inputPrecision' [tf32, tf32x3, ieee, bf16x3, bf16x6]}}
  %0 = tt.dot %a, %b, %c, inputPrecision = fp64 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @dot_scaled_reduction_dimension(%a: tensor<128x64xf8E4M3FN>, %b: tensor<32x32xf8E5M2>, %c: tensor<128x32xf32>) {
  // expected-error @+1 {{reduction dimensions differ: a holds K = 64, b holds K = 32}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E4M3FN> * tensor<32x32xf8E5M2> -> tensor<128x32xf32>
  tt.return
}

// -----

// With k_pack, e2m1 packs along K: 32 bytes of a hold K = 64, but 64 rows of
// b hold K = 64 only if b is packed too.
tt.func @dot_scaled_packed_k(%a: tensor<128x32xi8>, %b: tensor<32x32xi8>, %c: tensor<128x32xf32>) {
  // expected-error @+1 {{reduction dimensions differ: a holds K = 64, b holds K = 32}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<128x32xi8> * tensor<32x32xi8> -> tensor<128x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_accumulator(%a: tensor<64x64xi8>, %b: tensor<64x32xbf16>, %c: tensor<64x32xf32>) {
  // expected-error @+1 {{accumulator shape [64, 32] does not match the 128x32 product of a [64, 64] and b [64, 32]}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false, lhs_k_pack = false} : tensor<64x64xi8> * tensor<64x32xbf16> -> tensor<64x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_rank(%a: tensor<64xbf16>, %b: tensor<64xbf16>, %c: tensor<1xf32>) {
  // expected-error @+1 {{a, b and c must have the same rank, at least 2}}
  %0 = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<64xbf16> * tensor<64xbf16> -> tensor<1xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_rows(%a: tensor<128x64xf8E4M3FN>, %s: tensor<64x2xi8>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<128x32xf32>) {
  // expected-error @+1 {{lhs scale shape [64, 2] must have 128 rows}}
  %0 = tt.dot_scaled %a scale %s, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<64x2xi8> * tensor<64x32xf8E4M3FN> -> tensor<128x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_scale_block(%a: tensor<128x64xf8E4M3FN>, %b: tensor<64x32xf8E4M3FN>, %s: tensor<32x8xi8>, %c: tensor<128x32xf32>) {
  // expected-error @+1 {{rhs scale shape [32, 8] must hold one value per 16 or 32 elements of K = 64}}
  %0 = tt.dot_scaled %a, %b scale %s, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN> * tensor<64x32xf8E4M3FN>, tensor<32x8xi8> -> tensor<128x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_mixed_scale_blocks(%a: tensor<128x64xf8E4M3FN>, %sa: tensor<128x4xi8>, %b: tensor<64x32xf8E4M3FN>, %sb: tensor<32x2xi8>, %c: tensor<128x32xf32>) {
  // expected-error @+1 {{lhs and rhs scales use different block sizes (16 and 32)}}
  %0 = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x4xi8> * tensor<64x32xf8E4M3FN>, tensor<32x2xi8> -> tensor<128x32xf32>
  tt.return
}

// -----

tt.func @dot_scaled_bad_element_type(%a: tensor<128x64xbf16>, %b: tensor<64x32xbf16>, %c: tensor<128x32xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'b_elem_type' [e4m3, e5m2, e2m3, e3m2, e2m1, bf16, fp16]}}
  %0 = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = fp32 {fastMath = false} : tensor<128x64xbf16> * tensor<64x32xbf16> -> tensor<128x32xf32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Reductions, scans and elementwise regions
//===----------------------------------------------------------------------===//

// -----

tt.func @reduce_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = "tt.reduce"(%x) <{axis = 2 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_operand_shapes(%x: tensor<4x8xf32>, %y: tensor<8x4xi32>) {
  // expected-error @+1 {{all operands must have the same shape}}
  %0:2 = "tt.reduce"(%x, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tt.reduce.return %a, %i : f32, i32
  }) : (tensor<4x8xf32>, tensor<8x4xi32>) -> (tensor<8xf32>, tensor<4xi32>)
  tt.return
}

// -----

tt.func @reduce_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 must be 'tensor<8xf32>', got 'tensor<4xf32>'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @reduce_result_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{expects 1 results, got 2}}
  %0:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> (f32, f32)
  tt.return
}

// -----

tt.func @reduce_region_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must take 2 arguments, but it takes 1}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_argument_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region argument #1 has type 'f16' but 'f32' is required}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f16):
    tt.reduce.return %a : f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_yield_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must yield 1 values, but it yields 2}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_region_yield_type(%x: tensor<8xi32>) {
  // expected-error @+1 {{combine region result #0 has type 'i64' but 'i32' is required}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %w = arith.extsi %a : i32 to i64
    tt.reduce.return %w : i64
  }) : (tensor<8xi32>) -> i32
  tt.return
}

// -----

tt.func @reduce_region_terminator(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region must end in 'tt.reduce.return', not 'llvm.unreachable'}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    llvm.unreachable
  }) : (tensor<8xf32>) -> f32
  tt.return
}

// -----

tt.func @reduce_return_outside_reduce(%x: f32) {
  // expected-error @+1 {{expects parent op 'tt.reduce'}}
  tt.reduce.return %x : f32
}

// -----

tt.func @scan_axis(%x: tensor<8xi32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.scan.return %s : i32
  }) : (tensor<8xi32>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @scan_result_type(%x: tensor<8xi32>) {
  // expected-error @+1 {{result type 'tensor<8xi64>' must match operand type 'tensor<8xi32>'}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.scan.return %s : i32
  }) : (tensor<8xi32>) -> tensor<8xi64>
  tt.return
}

// -----

tt.func @scan_region_yield_type(%x: tensor<8xf32>) {
  // expected-error @+1 {{combine region result #0 has type 'f16' but 'f32' is required}}
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: f32, %b: f32):
    %h = arith.truncf %a : f32 to f16
    tt.scan.return %h : f16
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @scan_region_arity(%x: tensor<8xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{combine region must take 4 arguments, but it takes 2}}
  %0:2 = "tt.scan"(%x, %y) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    tt.scan.return %a, %b : f32, f32
  }) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  tt.return
}

// -----

tt.func @scan_return_outside_scan(%x: f32) {
  // expected-error @+1 {{expects parent op 'tt.scan'}}
  tt.scan.return %x : f32
}

// -----

tt.func @map_elementwise_pack_power_of_two(%x: tensor<12xf32>) {
  // expected-error @+1 {{pack must be a power of 2, got 3}}
  %0 = "tt.map_elementwise"(%x) <{pack = 3 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    tt.map_elementwise.return %a, %b, %c : f32, f32, f32
  }) : (tensor<12xf32>) -> tensor<12xf32>
  tt.return
}

// -----

tt.func @map_elementwise_pack_divides(%x: tensor<2xf32>) {
  // expected-error @+1 {{element count must be a multiple of pack 4}}
  %0 = "tt.map_elementwise"(%x) <{pack = 4 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tt.map_elementwise.return %a, %b, %c, %d : f32, f32, f32, f32
  }) : (tensor<2xf32>) -> tensor<2xf32>
  tt.return
}

// -----

tt.func @map_elementwise_no_operands() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %0 = "tt.map_elementwise"() <{pack = 1 : i32}> ({
  ^bb0:
    %c = arith.constant 0 : i32
    tt.map_elementwise.return %c : i32
  }) : () -> tensor<8xi32>
  tt.return
}

// -----

tt.func @map_elementwise_region_arity(%x: tensor<8xf32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{region must take 4 arguments, but it takes 2}}
  %0 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%a: f32, %b: i32):
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

// With pack = 2, the arguments are two of the first operand, then two of the
// second: (f32, f32, i32, i32), not interleaved.
tt.func @map_elementwise_region_argument_order(%x: tensor<8xf32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{region argument #1 has type 'i32' but 'f32' is required}}
  %0 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%a: f32, %i: i32, %b: f32, %j: i32):
    tt.map_elementwise.return %a, %b : f32, f32
  }) : (tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_return_types(%x: tensor<8xf32>) {
  // expected-error @+1 {{region must yield 1 values of the result element types}}
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    %i = arith.fptosi %a : f32 to i32
    tt.map_elementwise.return %i : i32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_store(%x: tensor<8xf32>, %p: !tt.ptr<f32>) {
  // expected-error @+1 {{region must not write to memory, but 'tt.store' does}}
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.store %p, %a : !tt.ptr<f32>
    tt.map_elementwise.return %a : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @map_elementwise_return_outside(%x: f32) {
  // expected-error @+1 {{expects parent op 'tt.map_elementwise'}}
  tt.map_elementwise.return %x : f32
}

// -----

tt.func @extern_elementwise_no_symbol(%x: f32) {
  // expected-error @+1 {{needs a non-empty symbol}}
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = ""} : (f32) -> f32
  tt.return
}

// -----

tt.func @extern_elementwise_shapes(%x: tensor<8xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tt.extern_elementwise %x, %y {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<8xf32>, tensor<4xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @inline_asm_packing(%x: tensor<6xi8>) {
  // expected-error @+1 {{element count 6 is not a multiple of packed_element 4}}
  %0 = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %x : tensor<6xi8> -> tensor<6xi8>
  tt.return
}

// -----

tt.func @inline_asm_zero_packing(%x: i32) {
  // expected-error @+1 {{packed_element must be at least 1}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : i32 -> i32
  tt.return
}

// -----

// LLVM's code generator aborts on asm whose constraints or operand
// references do not fit its operands: errors here instead. Four i8 share
// one register, so packed_element 4 gives one output and one input.
tt.func @inline_asm_constraints(%x: tensor<8xi8>) {
  // expected-error @+1 {{constraints "=r,r,r" give 1 outputs and 2 inputs; the asm has 1 outputs and 1 inputs}}
  %0 = tt.elementwise_inline_asm "shl.b32 $0, $1, 3;" {constraints = "=r,r,r", packed_element = 4 : i32, pure = true} %x : tensor<8xi8> -> tensor<8xi8>
  tt.return
}

// -----

tt.func @inline_asm_operand_out_of_range() {
  // expected-error @+1 {{asm string refers to operand $1; the asm has 1 (1 outputs, then 0 inputs)}}
  %0 = tt.elementwise_inline_asm "mov.u64 ${1}, %clock64;" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return
}

// -----

tt.func @inline_asm_bad_reference(%x: i32) {
  // expected-error @+1 {{asm string has '$x', which names no operand}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $x;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : i32 -> i32
  tt.return
}

// -----

tt.func @histogram_rank(%x: tensor<8x8xi32>) {
  // expected-error @+1 {{source and result must be 1-D}}
  %0 = tt.histogram %x : tensor<8x8xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @histogram_mask_shape(%x: tensor<64xi32>, %m: tensor<32xi1>) {
  // expected-error @+1 {{failed to verify that mask shape matches src}}
  %0 = "tt.histogram"(%x, %m) : (tensor<64xi32>, tensor<32xi1>) -> tensor<16xi32>
  tt.return
}

// -----

tt.func @histogram_float(%x: tensor<64xf32>) {
  // expected-error @+1 {{'src' must be statically shaped tensor of integer values, but got 'tensor<64xf32>'}}
  %0 = tt.histogram %x : tensor<64xf32> -> tensor<16xi32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

// -----

tt.func @print_is_signed_count(%x: tensor<8xi32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{isSigned must have one entry per argument (2), got 1}}
  tt.print "x" {hex = false, isSigned = array<i32: 1>} : %x, %y : tensor<8xi32>, tensor<8xi32>
  tt.return
}

// -----

tt.func @assert_integer_condition(%c: tensor<8xi32>) {
  // expected-error @+1 {{operand #0 must be 1-bit signless integer or statically shaped tensor of 1-bit signless integer values, but got 'tensor<8xi32>'}}
  tt.assert %c, "nonzero" : tensor<8xi32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Block pointers and tensor descriptors
//===----------------------------------------------------------------------===//

// -----

tt.func @make_tensor_ptr_operand_count(%b: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{shape, strides and offsets need 2 entries each for a rank-2 block}}
  %0 = tt.make_tensor_ptr %b, [%s], [%s], [%o] {order = array<i32: 0>} : <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_order(%b: !tt.ptr<f16>, %s: i64, %o: i32) {
  // expected-error @+1 {{order must be a permutation of [0, 2), got [0, 2]}}
  %0 = tt.make_tensor_ptr %b, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 0, 2>} : <tensor<32x64xf16>>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @make_tensor_ptr_base(%b: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: '!tt.ptr<f16>' vs '!tt.ptr<f32>'}}
  %0 = tt.make_tensor_ptr %b, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @make_tensor_ptr_base_generic(%b: !tt.ptr<f32>, %s: i64, %o: i32) {
  // expected-error @+1 {{failed to verify that base type follows the block pointer type}}
  %0 = "tt.make_tensor_ptr"(%b, %s, %s, %s, %s, %o, %o) <{order = array<i32: 1, 0>}> : (!tt.ptr<f32>, i64, i64, i64, i64, i32, i32) -> !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @make_tensor_descriptor_rank(%b: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{expects 2 shape and stride values, got 1}}
  %0 = tt.make_tensor_descriptor %b, [%n], [%s] : <f16>, <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @make_tensor_descriptor_element(%b: !tt.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{base points to 'f32' but the block holds 'f16'}}
  %0 = tt.make_tensor_descriptor %b, [%n, %n], [%s, %s] : <f32>, <tensor<32x64xf16>>
  tt.return
}

// -----

// Signedness aside, the block's element type is the pointee type: the width
// must match.
tt.func @make_tensor_descriptor_signed_width(%b: !tt.ptr<i16>, %n: i32, %s: i64) {
  // expected-error @+1 {{base points to 'i16' but the block holds 'si32'}}
  %0 = tt.make_tensor_descriptor %b, [%n], [%s] : <i16>, <tensor<16xsi32>>
  tt.return
}

// -----

tt.func @make_tensor_descriptor_signed_float(%b: !tt.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{base points to 'f32' but the block holds 'si32'}}
  %0 = tt.make_tensor_descriptor %b, [%n], [%s] : <f32>, <tensor<16xsi32>>
  tt.return
}

// -----

// Only the block carries signedness; the base pointer is signless.
tt.func @make_tensor_descriptor_signed_base(%b: !tt.ptr<si32>, %n: i32, %s: i64) {
  // expected-error @+1 {{base points to 'si32' but the block holds 'si32'}}
  %0 = tt.make_tensor_descriptor %b, [%n], [%s] : <si32>, <tensor<16xsi32>>
  tt.return
}

// -----

tt.func @descriptor_load_signed_width(%d: !tt.tensordesc<tensor<16xsi32>>, %i: i32) {
  // expected-error @+1 {{result element type 'i16' does not match the descriptor's 'si32'}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<16xsi32>> -> tensor<16xi16>
  tt.return
}

// -----

// Values moved through a descriptor are signless.
tt.func @descriptor_load_signed_result(%d: !tt.tensordesc<tensor<16xsi32>>, %i: i32) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of floating-point or integer or pointer to a scalar values, but got 'tensor<16xsi32>'}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<16xsi32>> -> tensor<16xsi32>
  tt.return
}

// -----

tt.func @descriptor_store_unsigned_width(%d: !tt.tensordesc<tensor<16xui8>>, %i: i32, %v: tensor<16xi16>) {
  // expected-error @+1 {{source element type 'i16' does not match the descriptor's 'ui8'}}
  tt.descriptor_store %d[%i], %v : !tt.tensordesc<tensor<16xui8>>, tensor<16xi16>
  tt.return
}

// -----

tt.func @descriptor_gather_unsigned_width(%d: !tt.tensordesc<tensor<1x16xui32>>, %x: tensor<8xi32>, %y: i32) {
  // expected-error @+1 {{result element type must match the descriptor's}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x16xui32>>, tensor<8xi32>, i32) -> tensor<8x16xi64>
  tt.return
}

// -----

// expected-note @+1 {{prior use here}}
tt.func @make_tensor_descriptor_stride_type(%b: !tt.ptr<f16>, %n: i32) {
  // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'i64' vs 'i32'}}
  %0 = tt.make_tensor_descriptor %b, [%n, %n], [%n, %n] : <f16>, <tensor<32x64xf16>>
  tt.return
}

// -----

tt.func @descriptor_load_index_count(%d: !tt.tensordesc<tensor<128x64xf16>>, %i: i32) {
  // expected-error @+1 {{expects 2 indices for a rank-2 descriptor, got 1}}
  %0 = tt.descriptor_load %d[%i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  tt.return
}

// -----

tt.func @descriptor_load_element_type(%d: !tt.tensordesc<tensor<128x64xf16>>, %i: i32) {
  // expected-error @+1 {{result element type 'bf16' does not match the descriptor's 'f16'}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xbf16>
  tt.return
}

// -----

tt.func @descriptor_load_shape(%d: !tt.tensordesc<tensor<128x64xf16>>, %i: i32) {
  // expected-error @+1 {{result shape [64, 64] does not match the descriptor block [128, 64]}}
  %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<64x64xf16>
  tt.return
}

// -----

tt.func @descriptor_store_shape(%d: !tt.tensordesc<tensor<128x64xf16>>, %i: i32, %v: tensor<128x128xf16>) {
  // expected-error @+1 {{source shape [128, 128] does not match the descriptor block [128, 64]}}
  tt.descriptor_store %d[%i, %i], %v : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x128xf16>
  tt.return
}

// -----

tt.func @descriptor_store_index_count(%d: !tt.tensordesc<tensor<128x64xf16>>, %i: i32, %v: tensor<128x64xf16>) {
  // expected-error @+1 {{expects 2 indices for a rank-2 descriptor, got 3}}
  tt.descriptor_store %d[%i, %i, %i], %v : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
  tt.return
}

// -----

tt.func @descriptor_reduce_element_type(%d: !tt.tensordesc<tensor<32x32xf32>>, %i: i32, %v: tensor<32x32xi32>) {
  // expected-error @+1 {{source element type 'i32' does not match the descriptor's 'f32'}}
  tt.descriptor_reduce add, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xi32>
  tt.return
}

// -----

tt.func @descriptor_reduce_index_count(%d: !tt.tensordesc<tensor<32x32xi32>>, %i: i32, %v: tensor<32x32xi32>) {
  // expected-error @+1 {{expects 2 indices for a rank-2 descriptor, got 1}}
  tt.descriptor_reduce max, %d[%i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  tt.return
}

// -----

tt.func @descriptor_reduce_bad_kind(%d: !tt.tensordesc<tensor<32x32xi32>>, %i: i32, %v: tensor<32x32xi32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [add, min, max, inc, dec, and, or, xor]}}
  tt.descriptor_reduce mul, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  tt.return
}

// -----

tt.func @descriptor_gather_block(%d: !tt.tensordesc<tensor<2x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{descriptor block must have shape [1, N], got [2, 128]}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<2x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @descriptor_gather_offsets(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32x1xi32>, %y: i32) {
  // expected-error @+1 {{x_offsets must be a 1-D tensor}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32x1xi32>, i32) -> tensor<32x128xbf16>
  tt.return
}

// -----

tt.func @descriptor_gather_result(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32) {
  // expected-error @+1 {{result must have shape [32, 128], got [16, 128]}}
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<16x128xbf16>
  tt.return
}

// -----

tt.func @descriptor_scatter_source(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32, %v: tensor<32x64xbf16>) {
  // expected-error @+1 {{source must have shape [32, 128], got [32, 64]}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x64xbf16>
  tt.return
}

// -----

tt.func @descriptor_scatter_element_type(%d: !tt.tensordesc<tensor<1x128xbf16>>, %x: tensor<32xi32>, %y: i32, %v: tensor<32x128xf16>) {
  // expected-error @+1 {{source element type must match the descriptor's}}
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xf16>
  tt.return
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')}}
"tt.func"() <{function_type = (i32) -> (), sym_name = "entry_block_mismatch"}> ({
^bb0(%x: f32):
  tt.return
}) : () -> ()

// -----

tt.func @call_unknown() {
  // expected-error @+1 {{calls @nowhere, which is not a tt.func here}}
  tt.call @nowhere() : () -> ()
  tt.return
}

// -----

tt.func private @callee(i32) -> f32

tt.func @call_type_mismatch(%x: i64) {
  // expected-error @+1 {{call type '(i64) -> f32' does not match @callee's '(i32) -> f32'}}
  %0 = tt.call @callee(%x) : (i64) -> f32
  tt.return
}

// -----

tt.func @return_count(%x: i32) -> i32 {
  // expected-error @+1 {{returns 0 values but @return_count declares 1}}
  tt.return
}

// -----

tt.func @return_type(%x: i64) -> i32 {
  // expected-error @+1 {{value #0 has type 'i64' but @return_type returns 'i32'}}
  tt.return %x : i64
}

// -----

func.func @return_outside_tt_func() {
  // expected-error @+1 {{expects parent op 'tt.func'}}
  tt.return
}
