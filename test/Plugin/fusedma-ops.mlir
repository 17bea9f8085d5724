// The fusedma dialect, known to kiln-opt only through the plugin: its op
// round-trips in custom and generic form, on tensors and scalars, and its
// verifier rejects what a*b+c does not define.
// RUN: kiln-opt --plugin %kiln_plugins/libfusedma.so %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: kiln-opt --plugin %kiln_plugins/libfusedma.so %s -split-input-file -verify-diagnostics -mlir-print-op-generic \
// RUN:   | kiln-opt --plugin %kiln_plugins/libfusedma.so -split-input-file | FileCheck %s
// Without the plugin the dialect is unknown, and the error says which.
// RUN: not kiln-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: Dialect `fusedma' not found for custom op 'fusedma.fma'

// CHECK-LABEL: tt.func @forms
// CHECK-NEXT: %{{.*}} = fusedma.fma %arg0, %arg1, %arg2 : tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = fusedma.fma %arg3, %arg3, %arg3 : f16
// CHECK-NEXT: %{{.*}} = fusedma.fma %arg4, %arg4, %arg4 : tensor<2xbf16>
tt.func @forms(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>, %s: f16, %t: tensor<2xbf16>) {
  %0 = fusedma.fma %a, %b, %c : tensor<4x8xf32>
  %1 = fusedma.fma %s, %s, %s : f16
  %2 = fusedma.fma %t, %t, %t : tensor<2xbf16>
  tt.return
}

// -----

tt.func @integers(%a: tensor<4xi32>) {
  // expected-error @+1 {{operand #0 must be float or ranked tensor of floats, but got 'tensor<4xi32>'}}
  %0 = "fusedma.fma"(%a, %a, %a) : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  tt.return
}

// -----

tt.func @mixed_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "fusedma.fma"(%a, %b, %a) : (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @mixed_shapes(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = "fusedma.fma"(%a, %a, %b) : (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
  tt.return
}

// -----

tt.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{operand #0 must be float or ranked tensor of floats, but got 'tensor<*xf32>'}}
  %0 = "fusedma.fma"(%a, %a, %a) : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  tt.return
}
