// RUN: kiln-opt %s -split-input-file --llir-forward-struct-fields | FileCheck %s

// A struct built field by field and taken apart again: each extract reads
// the value inserted, and the chain, left without users, goes. A field set
// twice reads the later value.
// CHECK-LABEL: llvm.func @pack_unpack
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32)
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK: %[[S:.*]] = llvm.fadd %[[A]], %[[C]]
// CHECK: %[[T:.*]] = llvm.fadd %[[S]], %[[B]]
// CHECK: llvm.return %[[T]]
llvm.func @pack_unpack(%a: f32, %b: f32, %c: f32) -> f32 {
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  %s0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(f32, f32)>
  %s1 = llvm.insertvalue %b, %s0[1] : !llvm.struct<(f32, f32)>
  %s2 = llvm.insertvalue %c, %s1[1] : !llvm.struct<(f32, f32)>
  %x = llvm.extractvalue %s2[0] : !llvm.struct<(f32, f32)>
  %y = llvm.extractvalue %s2[1] : !llvm.struct<(f32, f32)>
  %z = llvm.extractvalue %s1[1] : !llvm.struct<(f32, f32)>
  %p = llvm.fadd %x, %y : f32
  %q = llvm.fadd %p, %z : f32
  llvm.return %q : f32
}

// -----

// What the chain does not set comes from its base, and a struct that is
// used whole (returned) keeps its chain.
// CHECK-LABEL: llvm.func @partial
// CHECK-SAME: (%[[BASE:.*]]: !llvm.struct<(f32, f32)>, %[[A:.*]]: f32)
// CHECK: %[[S:.*]] = llvm.insertvalue %[[A]], %[[BASE]][0]
// CHECK: %[[X:.*]] = llvm.extractvalue %[[S]][1]
// CHECK: llvm.fadd %[[A]], %[[X]]
// CHECK: llvm.return %[[S]]
llvm.func @partial(%base: !llvm.struct<(f32, f32)>, %a: f32) -> !llvm.struct<(f32, f32)> {
  %s = llvm.insertvalue %a, %base[0] : !llvm.struct<(f32, f32)>
  %x = llvm.extractvalue %s[0] : !llvm.struct<(f32, f32)>
  %y = llvm.extractvalue %s[1] : !llvm.struct<(f32, f32)>
  %z = llvm.fadd %x, %y : f32
  llvm.return %s : !llvm.struct<(f32, f32)>
}

// -----

// A struct built from the fields of another (a layout-preserving op):
// every field reads the first struct's inserted value, through both.
// CHECK-LABEL: llvm.func @repack
// CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK: %[[S:.*]] = llvm.fsub %[[B]], %[[A]]
// CHECK: llvm.return %[[S]]
llvm.func @repack(%a: f32, %b: f32) -> f32 {
  %u = llvm.mlir.undef : !llvm.struct<(f32, f32)>
  %s0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(f32, f32)>
  %s1 = llvm.insertvalue %b, %s0[1] : !llvm.struct<(f32, f32)>
  %x = llvm.extractvalue %s1[0] : !llvm.struct<(f32, f32)>
  %y = llvm.extractvalue %s1[1] : !llvm.struct<(f32, f32)>
  %t0 = llvm.insertvalue %y, %u[0] : !llvm.struct<(f32, f32)>
  %t1 = llvm.insertvalue %x, %t0[1] : !llvm.struct<(f32, f32)>
  %p = llvm.extractvalue %t1[0] : !llvm.struct<(f32, f32)>
  %q = llvm.extractvalue %t1[1] : !llvm.struct<(f32, f32)>
  %r = llvm.fsub %p, %q : f32
  llvm.return %r : f32
}
