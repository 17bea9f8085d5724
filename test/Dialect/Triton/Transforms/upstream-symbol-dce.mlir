// RUN: kiln-opt %s -symbol-dce | FileCheck %s
//
// MLIR's symbol DCE on TTIR: private tt.funcs that nothing calls are
// removed (typically callees left over after inlining); public ones are
// kernel entry points and stay, as does everything they call.

// CHECK-NOT: @unused_helper
tt.func private @unused_helper(%a: i32) -> i32 {
  tt.return %a : i32
}

// CHECK-LABEL: tt.func private @used_helper
tt.func private @used_helper(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  tt.return %b : i32
}

// Reachable only through another private function that is itself used.
// CHECK-LABEL: tt.func private @used_indirectly
tt.func private @used_indirectly(%a: i32) -> i32 {
  %b = tt.call @used_helper(%a) : (i32) -> i32
  tt.return %b : i32
}

// A private function calling a public one keeps nothing alive by itself.
// CHECK-NOT: @unused_caller
tt.func private @unused_caller(%a: i32) -> i32 {
  %b = tt.call @kernel(%a) : (i32) -> i32
  tt.return %b : i32
}

// CHECK-LABEL: tt.func public @kernel
// CHECK: tt.call @used_indirectly
tt.func public @kernel(%a: i32) -> i32 {
  %b = tt.call @used_indirectly(%a) : (i32) -> i32
  tt.return %b : i32
}

// Public and never called: kept.
// CHECK-LABEL: tt.func public @other_kernel
tt.func public @other_kernel() {
  tt.return
}

// A declaration without a body, unused and private: removed.
// CHECK-NOT: @unused_declaration
tt.func private @unused_declaration(i32) -> i32
