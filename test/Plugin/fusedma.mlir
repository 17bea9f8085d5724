// The fusedma plugin's passes, run by kiln-opt from the real .so: the fuse
// rewrites exactly the single-use, same-block, float-tensor products; the
// lowering leaves no fusedma op behind.
// RUN: kiln-opt --plugin %kiln_plugins/libfusedma.so --fusedma-fuse %s | FileCheck %s
// RUN: kiln-opt --plugin %kiln_plugins/libfusedma.so --fusedma-fuse --fusedma-lower %s | FileCheck %s --check-prefix=LOWER --implicit-check-not=fusedma.
// RUN: kiln-opt --plugin %kiln_plugins/libfusedma.so --pass-pipeline='builtin.module(fusedma-fuse,fusedma-lower)' %s | FileCheck %s --check-prefix=LOWER --implicit-check-not=fusedma.
// The op is pure, so kiln's CSE merges two identical ones.
// RUN: kiln-opt --plugin %kiln_plugins/libfusedma.so --cse %s | FileCheck %s --check-prefix=CSE

// CHECK-LABEL: tt.func @product_left
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: tensor<128xf32>, %[[B:[a-z0-9_]+]]: tensor<128xf32>, %[[C:[a-z0-9_]+]]: tensor<128xf32>)
// CHECK-NEXT: %[[R:.*]] = fusedma.fma %[[A]], %[[B]], %[[C]] : tensor<128xf32>
// CHECK-NEXT: tt.return %[[R]]
// LOWER-LABEL: tt.func @product_left
// LOWER-NEXT: %[[R:.*]] = math.fma %{{.*}}, %{{.*}}, %{{.*}} : tensor<128xf32>
// LOWER-NEXT: tt.return %[[R]]
tt.func @product_left(%a: tensor<128xf32>, %b: tensor<128xf32>, %c: tensor<128xf32>) -> tensor<128xf32> {
  %m = arith.mulf %a, %b : tensor<128xf32>
  %r = arith.addf %m, %c : tensor<128xf32>
  tt.return %r : tensor<128xf32>
}

// CHECK-LABEL: tt.func @product_right
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: tensor<4x8xf16>, %[[B:[a-z0-9_]+]]: tensor<4x8xf16>, %[[C:[a-z0-9_]+]]: tensor<4x8xf16>)
// CHECK-NEXT: %[[R:.*]] = fusedma.fma %[[A]], %[[B]], %[[C]] : tensor<4x8xf16>
// CHECK-NEXT: tt.return %[[R]]
tt.func @product_right(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>, %c: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %m = arith.mulf %a, %b : tensor<4x8xf16>
  %r = arith.addf %c, %m : tensor<4x8xf16>
  tt.return %r : tensor<4x8xf16>
}

// Both addends are products: the left one is fused, the right one stays a
// multiplication feeding the fma.
// CHECK-LABEL: tt.func @two_products
// CHECK-SAME: (%[[A:[a-z0-9_]+]]: tensor<16xf32>, %[[B:[a-z0-9_]+]]: tensor<16xf32>, %[[C:[a-z0-9_]+]]: tensor<16xf32>, %[[D:[a-z0-9_]+]]: tensor<16xf32>)
// CHECK-NEXT: %[[CD:.*]] = arith.mulf %[[C]], %[[D]]
// CHECK-NEXT: %[[R:.*]] = fusedma.fma %[[A]], %[[B]], %[[CD]] : tensor<16xf32>
// CHECK-NEXT: tt.return %[[R]]
tt.func @two_products(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>, %d: tensor<16xf32>) -> tensor<16xf32> {
  %ab = arith.mulf %a, %b : tensor<16xf32>
  %cd = arith.mulf %c, %d : tensor<16xf32>
  %r = arith.addf %ab, %cd : tensor<16xf32>
  tt.return %r : tensor<16xf32>
}

// A chain a*b + c*d + e: each add absorbs one product.
// CHECK-LABEL: tt.func @chain
// CHECK: %[[F1:.*]] = fusedma.fma
// CHECK-NEXT: %[[F2:.*]] = fusedma.fma %{{.*}}, %{{.*}}, %[[F1]]
// CHECK-NOT: arith.
tt.func @chain(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>, %d: tensor<16xf32>, %e: tensor<16xf32>) -> tensor<16xf32> {
  %ab = arith.mulf %a, %b : tensor<16xf32>
  %s = arith.addf %ab, %e : tensor<16xf32>
  %cd = arith.mulf %c, %d : tensor<16xf32>
  %r = arith.addf %s, %cd : tensor<16xf32>
  tt.return %r : tensor<16xf32>
}

// A product with a second user must be kept, so fusing would not save it.
// CHECK-LABEL: tt.func @product_used_twice
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: fusedma.fma
tt.func @product_used_twice(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %m = arith.mulf %a, %b : tensor<16xf32>
  %r = arith.addf %m, %c : tensor<16xf32>
  tt.return %r, %m : tensor<16xf32>, tensor<16xf32>
}

// x*y + x*y: one product used twice by the same add.
// CHECK-LABEL: tt.func @square_added_to_itself
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: fusedma.fma
tt.func @square_added_to_itself(%a: tensor<16xf32>) -> tensor<16xf32> {
  %m = arith.mulf %a, %a : tensor<16xf32>
  %r = arith.addf %m, %m : tensor<16xf32>
  tt.return %r : tensor<16xf32>
}

// A product computed outside the loop is not moved into its body.
// CHECK-LABEL: tt.func @product_outside_loop
// CHECK: arith.mulf
// CHECK: scf.for
// CHECK: arith.addf
// CHECK-NOT: fusedma.fma
tt.func @product_outside_loop(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %m = arith.mulf %a, %b : tensor<16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<16xf32>) : i32 {
    %s = arith.addf %m, %acc : tensor<16xf32>
    scf.yield %s : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// Inside a loop body, product and add together are fused.
// CHECK-LABEL: tt.func @product_inside_loop
// CHECK: scf.for
// CHECK-NEXT: fusedma.fma
// CHECK-NEXT: scf.yield
// LOWER-LABEL: tt.func @product_inside_loop
// LOWER: scf.for
// LOWER-NEXT: math.fma
tt.func @product_inside_loop(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<16xf32>) : i32 {
    %m = arith.mulf %a, %b : tensor<16xf32>
    %s = arith.addf %m, %acc : tensor<16xf32>
    scf.yield %s : tensor<16xf32>
  }
  tt.return %r : tensor<16xf32>
}

// Scalars are left alone; so is integer arithmetic.
// CHECK-LABEL: tt.func @not_float_tensors
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK-NOT: fusedma.fma
tt.func @not_float_tensors(%a: f32, %b: f32, %c: f32, %i: tensor<16xi32>) -> (f32, tensor<16xi32>) {
  %m = arith.mulf %a, %b : f32
  %r = arith.addf %m, %c : f32
  %mi = arith.muli %i, %i : tensor<16xi32>
  %ri = arith.addi %mi, %i : tensor<16xi32>
  tt.return %r, %ri : f32, tensor<16xi32>
}

// CHECK-LABEL: tt.func @identical_fmas
// CSE-LABEL: tt.func @identical_fmas
// CSE-NEXT: %[[R:.*]] = fusedma.fma
// CSE-NEXT: tt.return %[[R]], %[[R]]
tt.func @identical_fmas(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = fusedma.fma %a, %a, %a : tensor<16xf32>
  %1 = fusedma.fma %a, %a, %a : tensor<16xf32>
  tt.return %0, %1 : tensor<16xf32>, tensor<16xf32>
}
