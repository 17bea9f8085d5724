// RUN: kiln-opt %s -split-input-file -ttir-combine | FileCheck %s

//===----------------------------------------------------------------------===//
// add(dot(a, b, 0), d) -> dot(a, b, d)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @dot_addf_dot_on_left
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x32xf16>, %[[D:.*]]: tensor<32x32xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]] : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_addf_dot_on_left(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %dot, %d : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// The accumulator may be defined after the dot; the dot moves down to the add.
// CHECK-LABEL: tt.func @dot_addf_dot_on_right
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x32xf16>, %[[E:.*]]: tensor<32x32xf32>)
// CHECK: %[[D:.*]] = arith.mulf %[[E]], %[[E]]
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]], inputPrecision = tf32 :
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_addf_dot_on_right(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %e: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero, inputPrecision = tf32 : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %d = arith.mulf %e, %e : tensor<32x32xf32>
  %sum = arith.addf %d, %dot : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// CHECK-LABEL: tt.func @dot_addi
// CHECK-SAME: (%[[A:.*]]: tensor<32x32xi8>, %[[B:.*]]: tensor<32x32xi8>, %[[D:.*]]: tensor<32x32xi32>)
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]] : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_addi(%a: tensor<32x32xi8>, %b: tensor<32x32xi8>, %d: tensor<32x32xi32>) -> tensor<32x32xi32> {
  %zero = arith.constant dense<0> : tensor<32x32xi32>
  %dot = tt.dot %a, %b, %zero : tensor<32x32xi8> * tensor<32x32xi8> -> tensor<32x32xi32>
  %sum = arith.addi %dot, %d : tensor<32x32xi32>
  tt.return %sum : tensor<32x32xi32>
}

// A zero accumulator written as a splat of a scalar zero counts as zero.
// CHECK-LABEL: tt.func @dot_addf_splat_zero
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x32xf16>, %[[D:.*]]: tensor<32x32xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[A]], %[[B]], %[[D]] :
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_addf_splat_zero(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c0 = arith.constant 0.000000e+00 : f32
  %zero = tt.splat %c0 : f32 -> tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %dot, %d : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// CHECK-LABEL: tt.func @dot_scaled_addf
// CHECK-SAME: (%[[A:.*]]: tensor<32x32xbf16>, %[[B:.*]]: tensor<32x32xbf16>, %[[D:.*]]: tensor<32x32xf32>)
// CHECK-NEXT: %[[R:.*]] = tt.dot_scaled %[[A]], %[[B]], %[[D]] lhs = bf16 rhs = bf16
// CHECK-NEXT: tt.return %[[R]]
tt.func @dot_scaled_addf(%a: tensor<32x32xbf16>, %b: tensor<32x32xbf16>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot_scaled %a, %b, %zero lhs = bf16 rhs = bf16 {fastMath = false} : tensor<32x32xbf16> * tensor<32x32xbf16> -> tensor<32x32xf32>
  %sum = arith.addf %d, %dot : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// The dot's result is used twice: the add stays.
// CHECK-LABEL: tt.func @dot_add_dot_used_twice
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00>
// CHECK: %[[DOT:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[ZERO]]
// CHECK: arith.addf %[[DOT]], %{{.*}}
tt.func @dot_add_dot_used_twice(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>) {
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %dot, %d : tensor<32x32xf32>
  tt.return %sum, %dot : tensor<32x32xf32>, tensor<32x32xf32>
}

// The accumulator is not zero: the add stays.
// CHECK-LABEL: tt.func @dot_add_nonzero_acc
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00>
// CHECK: %[[DOT:.*]] = tt.dot %{{.*}}, %{{.*}}, %[[ONE]]
// CHECK: arith.addf %[[DOT]], %{{.*}}
tt.func @dot_add_nonzero_acc(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %one = arith.constant dense<1.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %one : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %sum = arith.addf %dot, %d : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// fp8 accumulation with maxNumImpreciseAcc keeps partial sums imprecise; a
// float add is not folded into it.
// CHECK-LABEL: tt.func @dot_addf_imprecise_acc
// CHECK: %[[DOT:.*]] = tt.dot {{.*}}maxNumImpreciseAcc = 32
// CHECK: arith.addf %[[DOT]], %{{.*}}
tt.func @dot_addf_imprecise_acc(%a: tensor<32x32xf8E5M2>, %b: tensor<32x32xf8E5M2>, %d: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero {maxNumImpreciseAcc = 32 : i32} : tensor<32x32xf8E5M2> * tensor<32x32xf8E5M2> -> tensor<32x32xf32>
  %sum = arith.addf %dot, %d : tensor<32x32xf32>
  tt.return %sum : tensor<32x32xf32>
}

// The dot is outside the loop and the add inside: combining would redo the
// dot on every iteration, so the add stays.
// CHECK-LABEL: tt.func @dot_add_in_loop
// CHECK: %[[DOT:.*]] = tt.dot
// CHECK: scf.for
// CHECK: arith.addf %[[DOT]], %{{.*}}
tt.func @dot_add_in_loop(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %d: tensor<32x32xf32>, %n: i32) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
  %dot = tt.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %d) -> (tensor<32x32xf32>) : i32 {
    %sum = arith.addf %dot, %acc : tensor<32x32xf32>
    scf.yield %sum : tensor<32x32xf32>
  }
  tt.return %r : tensor<32x32xf32>
}

// -----

//===----------------------------------------------------------------------===//
// select(c, load(p, c), other) -> load(p, c, other)
//===----------------------------------------------------------------------===//

// Triton's form: the mask is a splat of the select's scalar condition.
// CHECK-LABEL: tt.func @select_load_splat_mask
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[C:.*]]: i1, %[[O:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[M:.*]] = tt.splat %[[C]]
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]], %[[M]], %[[O]] :
// CHECK-NEXT: tt.return %[[L]]
tt.func @select_load_splat_mask(%p: tensor<64x!tt.ptr<f32>>, %c: i1, %other: tensor<64xf32>) -> tensor<64xf32> {
  %mask = tt.splat %c : i1 -> tensor<64xi1>
  %l = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  %s = arith.select %c, %l, %other : tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// The mask is the select's own tensor condition; an existing `other` is
// replaced, and the cache modifier kept.
// CHECK-LABEL: tt.func @select_load_tensor_mask
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]], %[[M]], %[[O]] cacheModifier = ca :
// CHECK-NEXT: tt.return %[[L]]
tt.func @select_load_tensor_mask(%p: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>, %other: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<64xf32>
  %l = tt.load %p, %mask, %zero cacheModifier = ca : tensor<64x!tt.ptr<f32>>
  %s = arith.select %mask, %l, %other : tensor<64xi1>, tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// A scalar load under a scalar mask.
// CHECK-LABEL: tt.func @select_load_scalar
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>, %[[C:.*]]: i1, %[[O:.*]]: f32)
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]], %[[C]], %[[O]] : !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[L]]
tt.func @select_load_scalar(%p: !tt.ptr<f32>, %c: i1, %other: f32) -> f32 {
  %l = tt.load %p, %c : !tt.ptr<f32>
  %s = arith.select %c, %l, %other : f32
  tt.return %s : f32
}

// `other` is computed between the load and the select, with no write in
// between: the load is rebuilt at the select.
// CHECK-LABEL: tt.func @select_load_other_after_load
// CHECK: %[[O:.*]] = arith.mulf
// CHECK-NEXT: %[[L:.*]] = tt.load %{{.*}}, %{{.*}}, %[[O]] :
// CHECK-NEXT: tt.return %[[L]]
tt.func @select_load_other_after_load(%p: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>, %x: tensor<64xf32>) -> tensor<64xf32> {
  %l = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  %other = arith.mulf %x, %x : tensor<64xf32>
  %s = arith.select %mask, %l, %other : tensor<64xi1>, tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// ... but not past a store, which may change what the load reads.
// CHECK-LABEL: tt.func @select_load_store_in_between
// CHECK: %[[L:.*]] = tt.load %{{.*}}, %{{.*}} :
// CHECK: tt.store
// CHECK: arith.select %{{.*}}, %[[L]], %{{.*}}
tt.func @select_load_store_in_between(%p: tensor<64x!tt.ptr<f32>>, %q: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>, %x: tensor<64xf32>) -> tensor<64xf32> {
  %l = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  tt.store %q, %x : tensor<64x!tt.ptr<f32>>
  %other = arith.mulf %x, %x : tensor<64xf32>
  %s = arith.select %mask, %l, %other : tensor<64xi1>, tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// The select's condition is not the load's mask: nothing changes.
// CHECK-LABEL: tt.func @select_load_masks_differ
// CHECK: %[[L:.*]] = tt.load %{{.*}}, %{{.*}} :
// CHECK-NEXT: arith.select %{{.*}}, %[[L]], %{{.*}}
tt.func @select_load_masks_differ(%p: tensor<64x!tt.ptr<f32>>, %m1: tensor<64xi1>, %m2: tensor<64xi1>, %other: tensor<64xf32>) -> tensor<64xf32> {
  %l = tt.load %p, %m1 : tensor<64x!tt.ptr<f32>>
  %s = arith.select %m2, %l, %other : tensor<64xi1>, tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// An unmasked load, and a load selected on the false side: nothing changes.
// CHECK-LABEL: tt.func @select_load_no_match
// CHECK: %[[L0:.*]] = tt.load %{{.*}} :
// CHECK-NEXT: arith.select %{{.*}}, %[[L0]], %{{.*}}
// CHECK: %[[L1:.*]] = tt.load %{{.*}}, %{{.*}} :
// CHECK-NEXT: arith.select %{{.*}}, %{{.*}}, %[[L1]]
tt.func @select_load_no_match(%p: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>, %other: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %l0 = tt.load %p : tensor<64x!tt.ptr<f32>>
  %s0 = arith.select %mask, %l0, %other : tensor<64xi1>, tensor<64xf32>
  %l1 = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  %s1 = arith.select %mask, %other, %l1 : tensor<64xi1>, tensor<64xf32>
  tt.return %s0, %s1 : tensor<64xf32>, tensor<64xf32>
}

// The load has another user (as in an argmax next to a masked sum):
// rewriting the select would add a second load of the same memory.
// CHECK-LABEL: tt.func @select_load_shared
// CHECK-NEXT: %[[L:.*]] = tt.load %{{.*}}, %{{.*}} :
// CHECK-NEXT: %[[S:.*]] = arith.select %{{.*}}, %[[L]], %{{.*}}
// CHECK-NEXT: tt.return %[[S]], %[[L]]
tt.func @select_load_shared(%p: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>, %other: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %l = tt.load %p, %mask : tensor<64x!tt.ptr<f32>>
  %s = arith.select %mask, %l, %other : tensor<64xi1>, tensor<64xf32>
  tt.return %s, %l : tensor<64xf32>, tensor<64xf32>
}

// A volatile load used once is still one access after the rewrite.
// CHECK-LABEL: tt.func @select_load_volatile
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[M:.*]]: tensor<64xi1>, %[[O:.*]]: tensor<64xf32>)
// CHECK-NEXT: %[[L:.*]] = tt.load %[[P]], %[[M]], %[[O]] {isVolatile = true} :
// CHECK-NEXT: tt.return %[[L]]
tt.func @select_load_volatile(%p: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>, %other: tensor<64xf32>) -> tensor<64xf32> {
  %l = tt.load %p, %mask {isVolatile = true} : tensor<64x!tt.ptr<f32>>
  %s = arith.select %mask, %l, %other : tensor<64xi1>, tensor<64xf32>
  tt.return %s : tensor<64xf32>
}

// -----

//===----------------------------------------------------------------------===//
// addptr(addptr(p, x), y) -> addptr(p, x + y)
//===----------------------------------------------------------------------===//

// 64-bit offsets always combine; the outer op's attributes stay.
// CHECK-LABEL: tt.func @addptr_i64
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[X:.*]]: tensor<64xi64>, %[[Y:.*]]: tensor<64xi64>)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[X]], %[[Y]] : tensor<64xi64>
// CHECK-NEXT: %[[R:.*]] = tt.addptr %[[P]], %[[S]] {tt.divisibility = 16 : i32} :
// CHECK-NEXT: tt.return %[[R]]
tt.func @addptr_i64(%p: tensor<64x!tt.ptr<f32>>, %x: tensor<64xi64>, %y: tensor<64xi64>) -> tensor<64x!tt.ptr<f32>> {
  %0 = tt.addptr %p, %x : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  %1 = tt.addptr %0, %y {tt.divisibility = 16 : i32} : tensor<64x!tt.ptr<f32>>, tensor<64xi64>
  tt.return %1 : tensor<64x!tt.ptr<f32>>
}

// 32-bit constants whose sum fits combine, and the sum folds.
// CHECK-LABEL: tt.func @addptr_i32_constants
// CHECK-SAME: (%[[P:.*]]: !tt.ptr<f32>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<25> : tensor<8xi32>
// CHECK-NEXT: %[[B:.*]] = tt.splat %[[P]]
// CHECK-NEXT: %[[R:.*]] = tt.addptr %[[B]], %[[C]]
// CHECK-NEXT: tt.return %[[R]]
tt.func @addptr_i32_constants(%p: !tt.ptr<f32>) -> tensor<8x!tt.ptr<f32>> {
  %c10 = arith.constant 10 : i32
  %c15 = arith.constant dense<15> : tensor<8xi32>
  %base = tt.splat %p : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  %x = tt.splat %c10 : i32 -> tensor<8xi32>
  %0 = tt.addptr %base, %x : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  %1 = tt.addptr %0, %c15 : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
  tt.return %1 : tensor<8x!tt.ptr<f32>>
}

// 32-bit offsets that are not constant might overflow when added first.
// CHECK-LABEL: tt.func @addptr_i32_unknown
// CHECK-NEXT: %[[A:.*]] = tt.addptr %{{.*}}, %{{.*}}
// CHECK-NEXT: tt.addptr %[[A]], %{{.*}}
tt.func @addptr_i32_unknown(%p: !tt.ptr<f32>, %x: i32, %y: i32) -> !tt.ptr<f32> {
  %0 = tt.addptr %p, %x : !tt.ptr<f32>, i32
  %1 = tt.addptr %0, %y : !tt.ptr<f32>, i32
  tt.return %1 : !tt.ptr<f32>
}

// Constants whose 32-bit sum overflows stay apart.
// CHECK-LABEL: tt.func @addptr_i32_overflow
// CHECK-NOT: arith.addi
// CHECK: %[[A:.*]] = tt.addptr %{{.*}}, %{{.*}}
// CHECK-NEXT: tt.addptr %[[A]], %{{.*}}
tt.func @addptr_i32_overflow(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %big = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %0 = tt.addptr %p, %big : !tt.ptr<f32>, i32
  %1 = tt.addptr %0, %one : !tt.ptr<f32>, i32
  tt.return %1 : !tt.ptr<f32>
}

// Offsets of different types are not added.
// CHECK-LABEL: tt.func @addptr_types_differ
// CHECK-NOT: arith.addi
// CHECK: %[[A:.*]] = tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<f32>, i32
// CHECK-NEXT: tt.addptr %[[A]], %{{.*}} : !tt.ptr<f32>, i64
tt.func @addptr_types_differ(%p: !tt.ptr<f32>, %x: i32, %y: i64) -> !tt.ptr<f32> {
  %0 = tt.addptr %p, %x : !tt.ptr<f32>, i32
  %1 = tt.addptr %0, %y : !tt.ptr<f32>, i64
  tt.return %1 : !tt.ptr<f32>
}

// -----

//===----------------------------------------------------------------------===//
// broadcast of a splat constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @broadcast_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<3.000000e+00> : tensor<8x4xf32>
// CHECK-NEXT: tt.return %[[C]]
tt.func @broadcast_constant() -> tensor<8x4xf32> {
  %c = arith.constant dense<3.000000e+00> : tensor<1x4xf32>
  %b = tt.broadcast %c : tensor<1x4xf32> -> tensor<8x4xf32>
  tt.return %b : tensor<8x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// sum(x[:, :, None] * y[None, :, :], 1) -> dot(x, y)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @broadcast_mul_reduce
// CHECK-SAME: (%[[X:.*]]: tensor<16x8xf32>, %[[Y:.*]]: tensor<8x32xf32>)
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
// CHECK-NEXT: %[[R:.*]] = tt.dot %[[X]], %[[Y]], %[[Z]] : tensor<16x8xf32> * tensor<8x32xf32> -> tensor<16x32xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @broadcast_mul_reduce(%x: tensor<16x8xf32>, %y: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %x3 = tt.expand_dims %x {axis = 2 : i32} : tensor<16x8xf32> -> tensor<16x8x1xf32>
  %xb = tt.broadcast %x3 : tensor<16x8x1xf32> -> tensor<16x8x32xf32>
  %y3 = tt.expand_dims %y {axis = 0 : i32} : tensor<8x32xf32> -> tensor<1x8x32xf32>
  %yb = tt.broadcast %y3 : tensor<1x8x32xf32> -> tensor<16x8x32xf32>
  %m = arith.mulf %xb, %yb : tensor<16x8x32xf32>
  %r = "tt.reduce"(%m) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8x32xf32>) -> tensor<16x32xf32>
  tt.return %r : tensor<16x32xf32>
}

// Too small for a dot (M = 8 < 16), and a max instead of a sum: both stay.
// CHECK-LABEL: tt.func @broadcast_mul_reduce_no_match
// CHECK-NOT: tt.dot
// CHECK: "tt.reduce"
// CHECK: "tt.reduce"
// CHECK-NOT: tt.dot
tt.func @broadcast_mul_reduce_no_match(%x: tensor<8x8xf32>, %y: tensor<8x32xf32>, %u: tensor<16x8xf32>) -> (tensor<8x32xf32>, tensor<16x32xf32>) {
  %x3 = tt.expand_dims %x {axis = 2 : i32} : tensor<8x8xf32> -> tensor<8x8x1xf32>
  %xb = tt.broadcast %x3 : tensor<8x8x1xf32> -> tensor<8x8x32xf32>
  %y3 = tt.expand_dims %y {axis = 0 : i32} : tensor<8x32xf32> -> tensor<1x8x32xf32>
  %yb = tt.broadcast %y3 : tensor<1x8x32xf32> -> tensor<8x8x32xf32>
  %m = arith.mulf %xb, %yb : tensor<8x8x32xf32>
  %r = "tt.reduce"(%m) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<8x8x32xf32>) -> tensor<8x32xf32>
  %u3 = tt.expand_dims %u {axis = 2 : i32} : tensor<16x8xf32> -> tensor<16x8x1xf32>
  %ub = tt.broadcast %u3 : tensor<16x8x1xf32> -> tensor<16x8x32xf32>
  %yb2 = tt.broadcast %y3 : tensor<1x8x32xf32> -> tensor<16x8x32xf32>
  %m2 = arith.mulf %ub, %yb2 : tensor<16x8x32xf32>
  %r2 = "tt.reduce"(%m2) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.maxnumf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8x32xf32>) -> tensor<16x32xf32>
  tt.return %r, %r2 : tensor<8x32xf32>, tensor<16x32xf32>
}

// -----

//===----------------------------------------------------------------------===//
// 1-D reshapes feeding reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @reshape_for_sum
// CHECK: tt.reshape %{{.*}} allow_reorder : tensor<4x8xf32> -> tensor<32xf32>
tt.func @reshape_for_sum(%x: tensor<4x8xf32>) -> f32 {
  %r = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32xf32>) -> f32
  tt.return %s : f32
}

// An arg-reduce pairs each element with an index: its order matters.
// CHECK-LABEL: tt.func @reshape_for_argmax
// CHECK: tt.reshape %{{[a-z0-9]+}} : tensor<4x8xf32> -> tensor<32xf32>
tt.func @reshape_for_argmax(%x: tensor<4x8xf32>) -> i32 {
  %r = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %i = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %s:2 = "tt.reduce"(%r, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v = arith.select %gt, %a, %b : f32
    %vi = arith.select %gt, %ai, %bi : i32
    tt.reduce.return %v, %vi : f32, i32
  }) : (tensor<32xf32>, tensor<32xi32>) -> (f32, i32)
  tt.return %s#1 : i32
}

// Another user sees the elements in order.
// CHECK-LABEL: tt.func @reshape_also_stored
// CHECK: tt.reshape %{{[a-z0-9]+}} : tensor<4x8xf32> -> tensor<32xf32>
tt.func @reshape_also_stored(%x: tensor<4x8xf32>, %p: tensor<32x!tt.ptr<f32>>) -> f32 {
  %r = tt.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  tt.store %p, %r : tensor<32x!tt.ptr<f32>>
  %s = "tt.reduce"(%r) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<32xf32>) -> f32
  tt.return %s : f32
}

// -----

//===----------------------------------------------------------------------===//
// reshape(descriptor_load) dropping leading unit dimensions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @descriptor_load_rank_reduce
// CHECK-NEXT: %[[L:.*]] = tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<1x64xf16>> -> tensor<64xf16>
// CHECK-NEXT: tt.return %[[L]]
tt.func @descriptor_load_rank_reduce(%desc: !tt.tensordesc<tensor<1x64xf16>>, %i: i32) -> tensor<64xf16> {
  %l = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<tensor<1x64xf16>> -> tensor<1x64xf16>
  %r = tt.reshape %l : tensor<1x64xf16> -> tensor<64xf16>
  tt.return %r : tensor<64xf16>
}

// The load has another user that needs the 2-D shape.
// CHECK-LABEL: tt.func @descriptor_load_used_twice
// CHECK: tt.descriptor_load {{.*}} -> tensor<1x64xf16>
// CHECK: tt.reshape
tt.func @descriptor_load_used_twice(%desc: !tt.tensordesc<tensor<1x64xf16>>, %i: i32) -> (tensor<64xf16>, tensor<1x64xf16>) {
  %l = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<tensor<1x64xf16>> -> tensor<1x64xf16>
  %r = tt.reshape %l : tensor<1x64xf16> -> tensor<64xf16>
  tt.return %r, %l : tensor<64xf16>, tensor<1x64xf16>
}
