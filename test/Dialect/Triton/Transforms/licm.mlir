// RUN: kiln-opt -split-input-file --ttir-licm %s | FileCheck %s
// RUN: kiln-opt -split-input-file --llir-convert-to-llvm %s | FileCheck %s --check-prefix=LLVM

// An invariant computation leaves an ordinary loop but stays in one marked
// tt.disable_licm (tl.range(..., disable_licm=True)), whose back edge the
// LLVM lowering marks llvm.licm.disable.
// CHECK-LABEL: tt.func public @licm
// CHECK:       arith.muli %arg1, %arg1
// CHECK:       scf.for
// CHECK-NOT:   arith.muli
// CHECK:       scf.yield
// CHECK:       scf.for
// CHECK:         arith.muli %arg1, %arg1
// CHECK:       } {tt.disable_licm}
// LLVM: #[[LICM:.*]] = #llvm.loop_licm<disable = true>
// LLVM: #[[NOLICM:.*]] = #llvm.loop_annotation<licm = #[[LICM]]>
// LLVM-LABEL: llvm.func @licm
// LLVM: llvm.br ^{{.*}} {loop_annotation = #[[NOLICM]]}
// LLVM-NOT: loop_annotation
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @licm(%p: !tt.ptr<i32>, %x: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0) -> (i32) : i32 {
      %sq = arith.muli %x, %x : i32
      %t = arith.addi %s, %sq : i32
      scf.yield %t : i32
    }
    %b = scf.for %i = %c0 to %n step %c1 iter_args(%s = %a) -> (i32) : i32 {
      %sq = arith.muli %x, %x : i32
      %t = arith.addi %s, %sq : i32
      scf.yield %t : i32
    } {tt.disable_licm}
    tt.store %p, %b : !tt.ptr<i32>
    tt.return
  }
}
