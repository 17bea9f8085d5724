// RUN: kiln-opt %s -inline='default-pipeline=' | FileCheck %s
//
// MLIR's inliner on TTIR (the first pass of the ttir stage): tt.call of a
// tt.func is inlined unless the callee says `noinline = true`. The
// canonicalizer the inliner runs by default is switched off, so that the
// output shows what the tt dialect's inliner interface itself produced.

// Single-block callee: its tt.return operands replace the call's results.
// The private callee has no calls left and is removed.
// CHECK-NOT: tt.func private @scale
// CHECK-LABEL: tt.func public @calls_scale
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[S:.*]]: f32)
// CHECK-NEXT: %[[X:.*]] = tt.load %[[P]]
// CHECK-NEXT: %[[SS:.*]] = tt.splat %[[S]] : f32 -> tensor<64xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[X]], %[[SS]]
// CHECK-NEXT: tt.store %[[P]], %[[Y]]
// CHECK-NEXT: tt.return
tt.func private @scale(%x: tensor<64xf32>, %s: f32) -> tensor<64xf32> {
  %ss = tt.splat %s : f32 -> tensor<64xf32>
  %y = arith.mulf %x, %ss : tensor<64xf32>
  tt.return %y : tensor<64xf32>
}

tt.func public @calls_scale(%p: tensor<64x!tt.ptr<f32>>, %s: f32) {
  %x = tt.load %p : tensor<64x!tt.ptr<f32>>
  %y = tt.call @scale(%x, %s) : (tensor<64xf32>, f32) -> tensor<64xf32>
  tt.store %p, %y : tensor<64x!tt.ptr<f32>>
  tt.return
}

// Callee with several blocks and returns: each tt.return becomes a branch
// to the block after the call, which receives the returned value.
// CHECK-NOT: tt.func private @pick
// CHECK-LABEL: tt.func public @calls_pick
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32, %[[P:.*]]: !tt.ptr<i32>)
// CHECK-NOT: tt.call
// CHECK: cf.cond_br %[[C]], ^[[T:bb[0-9]+]], ^[[F:bb[0-9]+]]
// CHECK: ^[[T]]:
// CHECK-NEXT: cf.br ^[[JOIN:bb[0-9]+]](%[[A]] : i32)
// CHECK: ^[[F]]:
// CHECK-NEXT: %[[D:.*]] = arith.muli %[[B]], %[[B]]
// CHECK-NEXT: cf.br ^[[JOIN]](%[[D]] : i32)
// CHECK: ^[[JOIN]](%[[R:.*]]: i32):
// CHECK-NEXT: tt.store %[[P]], %[[R]]
tt.func private @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^then, ^else
^then:
  tt.return %a : i32
^else:
  %d = arith.muli %b, %b : i32
  tt.return %d : i32
}

tt.func public @calls_pick(%c: i1, %a: i32, %b: i32, %p: !tt.ptr<i32>) {
  %r = tt.call @pick(%c, %a, %b) : (i1, i32, i32) -> i32
  tt.store %p, %r : !tt.ptr<i32>
  tt.return
}

// A callee whose body holds a loop and a reduction is inlined with them.
// CHECK-NOT: tt.func private @loop_sum
// CHECK-LABEL: tt.func public @calls_loop_sum
// CHECK-NOT: tt.call
// CHECK: scf.for
// CHECK: "tt.reduce"
// CHECK: tt.return
tt.func private @loop_sum(%x: tensor<32xf32>, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.000000e+00 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %rr: f32):
      %t = arith.addf %l, %rr : f32
      tt.reduce.return %t : f32
    }) : (tensor<32xf32>) -> f32
    %a = arith.addf %acc, %s : f32
    scf.yield %a : f32
  }
  tt.return %r : f32
}

tt.func public @calls_loop_sum(%x: tensor<32xf32>, %n: i32) -> f32 {
  %r = tt.call @loop_sum(%x, %n) : (tensor<32xf32>, i32) -> f32
  tt.return %r : f32
}

// `noinline = true` keeps the call and the callee.
// CHECK-LABEL: tt.func private @kept
// CHECK-SAME: attributes {noinline = true}
// CHECK-LABEL: tt.func public @calls_kept
// CHECK-NEXT: %[[R:.*]] = tt.call @kept(%{{.*}}) : (i32) -> i32
// CHECK-NEXT: tt.return %[[R]]
tt.func private @kept(%a: i32) -> i32 attributes {noinline = true} {
  %b = arith.addi %a, %a : i32
  tt.return %b : i32
}

tt.func public @calls_kept(%a: i32) -> i32 {
  %r = tt.call @kept(%a) : (i32) -> i32
  tt.return %r : i32
}

// `noinline = false`, as Triton prints it on every function, inlines.
// CHECK-NOT: tt.func private @not_noinline
// CHECK-LABEL: tt.func public @calls_not_noinline
// CHECK-NEXT: %[[R:.*]] = arith.subi
// CHECK-NEXT: tt.return %[[R]]
tt.func private @not_noinline(%a: i32) -> i32 attributes {noinline = false} {
  %b = arith.subi %a, %a : i32
  tt.return %b : i32
}

tt.func public @calls_not_noinline(%a: i32) -> i32 {
  %r = tt.call @not_noinline(%a) : (i32) -> i32
  tt.return %r : i32
}

// Inside an scf.for, whose body must stay one block, only a single-block
// callee is inlined; a public callee is inlined and still kept.
// CHECK-LABEL: tt.func private @branchy
// CHECK-LABEL: tt.func public @public_callee
// CHECK-LABEL: tt.func public @calls_in_loop
// CHECK: scf.for
// CHECK-NEXT: %[[X:.*]] = tt.call @branchy(
// CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]], %[[X]]
// CHECK-NEXT: scf.yield %[[Y]]
tt.func private @branchy(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^then, ^else
^then:
  tt.return %a : i32
^else:
  %d = arith.muli %b, %b : i32
  tt.return %d : i32
}

tt.func public @public_callee(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  tt.return %b : i32
}

tt.func public @calls_in_loop(%c: i1, %a: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (i32) : i32 {
    %x = tt.call @branchy(%c, %acc, %i) : (i1, i32, i32) -> i32
    %y = tt.call @public_callee(%x) : (i32) -> i32
    scf.yield %y : i32
  }
  tt.return %r : i32
}
