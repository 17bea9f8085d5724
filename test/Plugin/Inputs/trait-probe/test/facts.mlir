// A plugin pass sees the traits, interfaces and effects of upstream and kiln
// ops exactly as kiln's own passes do: the plugin shares the host's MLIR
// type ids and singletons (see kiln_add_plugin).
// RUN: kiln-opt --plugin %plugin --trait_probe-facts %s | FileCheck %s
// Through the compile pipeline too, where kiln's own passes use the same
// ids.
// RUN: kiln compile %s --target cuda:90 --stage ttir --no-cache --plugin %plugin \
// RUN:   | FileCheck %s --check-prefix=COMPILE

// CHECK-LABEL: tt.func public @probe
// CHECK-SAME: trait_probe.facts = "function"
tt.func public @probe(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>, %t: tensor<8x!tt.ptr<f32>>, %n: i32) {
  // CHECK: arith.constant {trait_probe.facts = "constant int=1 pure"} 1 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: arith.constant {trait_probe.facts = "constant int=0 pure"} 0 : i32
  %c0 = arith.constant 0 : i32
  // CHECK: arith.addi {{.*}} {trait_probe.facts = "elementwise pure"}
  %s = arith.addi %n, %c1 : i32
  // CHECK: scf.for
  %r = scf.for %i = %c0 to %s step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %x = arith.addi %acc, %i : i32
    // CHECK: scf.yield {trait_probe.facts = "terminator return-like pure"}
    scf.yield %x : i32
  }
  // CHECK: } {trait_probe.facts = "pure loop"}
  // CHECK: tt.load {{.*}} {trait_probe.facts = "reads-global"}
  %v = tt.load %t : tensor<8x!tt.ptr<f32>>
  // CHECK: "tt.reduce"
  %m = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %y = arith.maxnumf %a, %b : f32
    // CHECK: tt.reduce.return {{.*}} {trait_probe.facts = "terminator return-like in-reduce pure"}
    tt.reduce.return %y : f32
  }) : (tensor<8xf32>) -> f32
  // CHECK: }) {trait_probe.facts = "same-encoding pure"}
  // CHECK: tt.store {{.*}} {trait_probe.facts = "writes-global"}
  tt.store %p, %m : !tt.ptr<f32>
  tt.store %q, %r : !tt.ptr<i32>
  // CHECK: tt.call @helper() {trait_probe.facts = "call"}
  tt.call @helper() : () -> ()
  // CHECK: tt.return {trait_probe.facts = "terminator return-like pure"}
  tt.return
}
// CHECK-LABEL: tt.func private @helper
tt.func private @helper() {
  tt.return
}

// COMPILE: tt.func public @probe
// COMPILE-SAME: trait_probe.facts = "function"
// COMPILE-DAG: arith.constant {trait_probe.facts = "constant int=1 pure"} 1 : i32
// COMPILE-DAG: arith.constant {trait_probe.facts = "constant int=0 pure"} 0 : i32
// COMPILE: scf.yield {trait_probe.facts = "terminator return-like pure"}
// COMPILE: tt.load {{.*}} {trait_probe.facts = "reads-global"}
// COMPILE: tt.reduce.return {{.*}} {trait_probe.facts = "terminator return-like in-reduce pure"}
// COMPILE: }) {trait_probe.facts = "same-encoding pure"}
// COMPILE: tt.store {{.*}} {trait_probe.facts = "writes-global"}
// COMPILE: tt.return {trait_probe.facts = "terminator return-like pure"}
