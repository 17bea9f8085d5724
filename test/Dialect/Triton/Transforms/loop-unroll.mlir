// RUN: kiln-opt %s -ttir-loop-unroll | FileCheck %s
// A second run changes nothing: no loop keeps the attribute.
// RUN: kiln-opt %s -ttir-loop-unroll > %t.once.mlir
// RUN: kiln-opt %t.once.mlir -ttir-loop-unroll > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: kiln-opt %s -ttir-loop-unroll -verify-diagnostics -o /dev/null

// 8 iterations by 2: the step doubles, the body appears twice (the second
// copy on iv + 1), and no epilogue is needed.
// CHECK-LABEL: tt.func @unroll_exact
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: scf.for %[[IV:.*]] = %[[C0]] to %[[C8]] step %[[C2]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) : i32 {
// CHECK: %[[P0:.*]] = tt.addptr %{{.*}}, %[[IV]]
// CHECK: %[[L0:.*]] = tt.load %[[P0]]
// CHECK: %[[S0:.*]] = arith.addf %[[ACC]], %[[L0]]
// CHECK: %[[IV1:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK: %[[P1:.*]] = tt.addptr %{{.*}}, %[[IV1]]
// CHECK: %[[L1:.*]] = tt.load %[[P1]]
// CHECK: %[[S1:.*]] = arith.addf %[[S0]], %[[L1]]
// CHECK: scf.yield %[[S1]]
// CHECK-NOT: tt.loop_unroll_factor
// CHECK-NOT: scf.for
// CHECK: tt.return
tt.func @unroll_exact(%p: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    %x = tt.load %q : !tt.ptr<f32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return %r : f32
}

// 10 iterations by 4: a main loop over [0, 8) and an epilogue loop over
// [8, 10), which is marked not to be pipelined.
// CHECK-LABEL: tt.func @unroll_with_epilogue
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : i32
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C8]] step %[[C4]] : i32 {
// CHECK-COUNT-4: tt.store
// CHECK: }
// CHECK-NOT: tt.loop_unroll_factor
// CHECK: scf.for %{{.*}} = %[[C8]] to %[[C10]] step %[[C1]] : i32 {
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
tt.func @unroll_with_epilogue(%p: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  scf.for %i = %c0 to %c10 step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
    tt.store %q, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 4 : i32}
  tt.return
}

// An unknown trip count also needs an epilogue.
// CHECK-LABEL: tt.func @unroll_dynamic
// CHECK: scf.for
// CHECK-COUNT-2: tt.store
// CHECK: scf.for
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 1 : i32}
tt.func @unroll_dynamic(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
    tt.store %q, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return
}

// A factor of 1 unrolls nothing; the attribute goes.
// CHECK-LABEL: tt.func @factor_one
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
// CHECK-NOT: tt.loop_unroll_factor
// CHECK-NEXT: tt.return
tt.func @factor_one(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
    tt.store %q, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 1 : i32}
  tt.return
}

// A loop without the attribute is left as it is, other attributes included.
// CHECK-LABEL: tt.func @no_attribute
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: } {tt.num_stages = 3 : i32}
// CHECK-NEXT: tt.return
tt.func @no_attribute(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
    tt.store %q, %i : !tt.ptr<i32>
  } {tt.num_stages = 3 : i32}
  tt.return
}

// Nested tagged loops: the inner one is unrolled first, and the outer copies
// of it stay unrolled (2 x 2 stores, no epilogues: 4 and 6 are even).
// CHECK-LABEL: tt.func @nested
// CHECK: scf.for
// CHECK: scf.for
// CHECK-COUNT-2: tt.store
// CHECK: scf.for
// CHECK-COUNT-2: tt.store
// CHECK-NOT: scf.for
// CHECK-NOT: tt.store
// CHECK: tt.return
tt.func @nested(%p: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c6 = arith.constant 6 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    scf.for %j = %c0 to %c6 step %c1 : i32 {
      %k = arith.addi %i, %j : i32
      %q = tt.addptr %p, %k : !tt.ptr<i32>, i32
      tt.store %q, %k : !tt.ptr<i32>
    } {tt.loop_unroll_factor = 2 : i32}
  } {tt.loop_unroll_factor = 2 : i32}
  tt.return
}

// A factor that would copy the body past 65536 ops leaves the loop rolled,
// with a warning, rather than building IR as large as the factor says.
// CHECK-LABEL: tt.func @factor_too_large
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: tt.addptr
// CHECK-NEXT: tt.store
// CHECK-NEXT: }
// CHECK-NOT: tt.loop_unroll_factor
// CHECK-NEXT: tt.return
tt.func @factor_too_large(%p: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-warning @+1 {{not unrolling this loop by 100000: its 3 ops would be copied beyond the limit of 65536}}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<i32>, i32
    tt.store %q, %i : !tt.ptr<i32>
  } {tt.loop_unroll_factor = 100000 : i32}
  tt.return
}
