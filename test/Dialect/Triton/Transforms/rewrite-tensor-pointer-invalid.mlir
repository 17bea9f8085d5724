// RUN: kiln-opt %s -split-input-file -ttir-rewrite-tensor-pointer -verify-diagnostics

// Only structured control flow can carry a block pointer.
tt.func @branch(%a: !tt.ptr<f32>, %n: i64) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  // expected-error @+1 {{'cf.br' uses a block pointer, which ttir-rewrite-tensor-pointer cannot rewrite}}
  cf.br ^bb1(%p : !tt.ptr<tensor<16xf32>>)
^bb1(%q: !tt.ptr<tensor<16xf32>>):
  %v = tt.load %q : !tt.ptr<tensor<16xf32>>
  tt.return
}

// -----

// A block pointer cannot be stored into memory or cast: the op is named.
tt.func @cast(%a: !tt.ptr<f32>, %n: i64) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %p = tt.make_tensor_ptr %a, [%n], [%one], [%c0] {order = array<i32: 0>} : <tensor<16xf32>>
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' uses a block pointer}}
  %q = builtin.unrealized_conversion_cast %p : !tt.ptr<tensor<16xf32>> to i64
  tt.return
}
