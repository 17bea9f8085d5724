// RUN: kiln-opt %s -split-input-file -ttir-rewrite-tensor-descriptor-to-pointer -verify-diagnostics

// No pointer atomic computes a float minimum.
tt.func @float_min(%a: !tt.ptr<f32>, %n: i32, %v: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %a, [%n], [%one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16xf32>>
  // expected-error @+1 {{no pointer atomic implements a 'min' reduction of 'f32' (needed on targets without TMA)}}
  tt.descriptor_reduce min, %d[%c0], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
  tt.return
}

// -----

tt.func @branch(%a: !tt.ptr<f32>, %n: i32) {
  %one = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %a, [%n], [%one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16xf32>>
  // expected-error @+1 {{'cf.br' uses a tensor descriptor, which ttir-rewrite-tensor-descriptor-to-pointer cannot rewrite}}
  cf.br ^bb1(%d : !tt.tensordesc<tensor<16xf32>>)
^bb1(%e: !tt.tensordesc<tensor<16xf32>>):
  tt.return
}
