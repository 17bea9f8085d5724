// Plugin ops of any kind, as kiln.language encodes them: a tt.call of a
// bodiless declaration marked kiln.kernel_op, constexprs as JSON, each
// non-tensor value a !tt.ptr<i8> placeholder. ttir.expand-kernel-ops builds
// hwx's ttg/ttng ops and gives loop, branch and while values the real types;
// wrong uses are located errors.
// RUN: kiln-opt --plugin %kiln_plugins/libhwx.so --ttir-expand-kernel-ops -split-input-file -verify-diagnostics %s | FileCheck %s

// CHECK: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @carried
// CHECK-NOT: tt.call
// CHECK: %[[BUFS:.*]] = ttg.local_alloc {hwx.inferred_layout} : () -> !ttg.memdesc<2x64x64xf16, #[[NVMMA]], #smem, mutable>
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK-COUNT-2: ttng.init_barrier %{{.*}}, 1
// CHECK: %[[FIRST:.*]] = ttg.memdesc_index %[[BUFS]][%{{.*}}] : {{.*}} -> !ttg.memdesc<64x64xf16
// CHECK: scf.for {{.*}} iter_args(%[[CUR:.*]] = %[[FIRST]]) -> (!ttg.memdesc<64x64xf16
// CHECK: ttg.local_load %[[CUR]]
// CHECK: %[[NEXT:.*]] = scf.if {{.*}} -> (!ttg.memdesc<64x64xf16
// CHECK: scf.yield %[[NEXT]] : !ttg.memdesc<64x64xf16
// CHECK: ttng.barrier_expect %{{.*}}, 8192, %true
// An integer predicate is compared with zero.
// CHECK: %[[PRED:.*]] = arith.cmpi ne, %arg1, %{{.*}} : i32
// CHECK: ttng.wait_barrier %{{.*}}, %{{.*}}, %[[PRED]] : !ttg.memdesc<1xi64
// CHECK-NOT: kiln.kernel_op
module {
  tt.func public @carried(%y: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bufs = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shape\22: [64, 64], \22dtype\22: \22fp16\22, \22num\22: 2}"} : () -> !tt.ptr<i8>
    %bars = tt.call @"hwx.alloc_barriers.kiln_op.0"() {kiln.constants = "{\22num\22: 2}"} : () -> !tt.ptr<i8>
    %first = tt.call @"hwx.index.kiln_op.0"(%bufs, %c0) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %first) -> (!tt.ptr<i8>) : i32 {
      %v = tt.call @"hwx.load.kiln_op.0"(%cur) : (!tt.ptr<i8>) -> tensor<64x64xf16>
      %odd = arith.andi %i, %c1 : i32
      %c = arith.cmpi eq, %odd, %c0 : i32
      %next = scf.if %c -> (!tt.ptr<i8>) {
        %b = tt.call @"hwx.index.kiln_op.1"(%bufs, %c1) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
        scf.yield %b : !tt.ptr<i8>
      } else {
        scf.yield %first : !tt.ptr<i8>
      }
      scf.yield %next : !tt.ptr<i8>
    }
    %bar = tt.call @"hwx.index.kiln_op.2"(%bars, %c0) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
    %t = arith.constant true
    tt.call @"hwx.barrier_expect.kiln_op.0"(%bar, %t) {kiln.constants = "{\22bytes\22: 8192}"} : (!tt.ptr<i8>, i1) -> ()
    tt.call @"hwx.barrier_wait.kiln_op.0"(%bar, %c0, %n) : (!tt.ptr<i8>, i32, i32) -> ()
    tt.return
  }
  tt.func private @"hwx.alloc.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc"}
  tt.func private @"hwx.alloc_barriers.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc_barriers"}
  tt.func private @"hwx.index.kiln_op.0"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.index.kiln_op.1"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.index.kiln_op.2"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.load.kiln_op.0"(!tt.ptr<i8>) -> tensor<64x64xf16> attributes {kiln.kernel_op = "hwx.load"}
  tt.func private @"hwx.barrier_expect.kiln_op.0"(!tt.ptr<i8>, i1) attributes {kiln.kernel_op = "hwx.barrier_expect"}
  tt.func private @"hwx.barrier_wait.kiln_op.0"(!tt.ptr<i8>, i32, i32) attributes {kiln.kernel_op = "hwx.barrier_wait"}
}

// -----

// A while loop carries a barrier: its before and after arguments and its
// results take the barrier's type.
// CHECK-LABEL: tt.func public @while_loop
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!ttg.memdesc<1xi64
// CHECK: scf.condition(%{{.*}}) %{{.*}} : !ttg.memdesc<1xi64
// CHECK: ^bb0(%{{.*}}: !ttg.memdesc<1xi64
module {
  tt.func public @while_loop(%n: i32) {
    %c0 = arith.constant 0 : i32
    %bars = tt.call @"hwx.alloc_barriers.kiln_op.0"() : () -> !tt.ptr<i8>
    %bar = tt.call @"hwx.index.kiln_op.0"(%bars, %c0) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
    %r = scf.while (%b = %bar) : (!tt.ptr<i8>) -> !tt.ptr<i8> {
      %c = arith.cmpi slt, %c0, %n : i32
      scf.condition(%c) %b : !tt.ptr<i8>
    } do {
    ^bb0(%b2: !tt.ptr<i8>):
      %t = arith.constant true
      tt.call @"hwx.barrier_arrive.kiln_op.0"(%b2, %t) {kiln.constants = "{\22count\22: 2}"} : (!tt.ptr<i8>, i1) -> ()
      scf.yield %b2 : !tt.ptr<i8>
    }
    %t0 = arith.constant true
    tt.call @"hwx.barrier_wait.kiln_op.0"(%r, %c0, %t0) : (!tt.ptr<i8>, i32, i1) -> ()
    tt.return
  }
  tt.func private @"hwx.alloc_barriers.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc_barriers"}
  tt.func private @"hwx.index.kiln_op.0"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.barrier_arrive.kiln_op.0"(!tt.ptr<i8>, i1) attributes {kiln.kernel_op = "hwx.barrier_arrive"}
  tt.func private @"hwx.barrier_wait.kiln_op.0"(!tt.ptr<i8>, i32, i1) attributes {kiln.kernel_op = "hwx.barrier_wait"}
}

// -----

// A branch gives a buffer of one shape on one side and of another on the other.
module {
  tt.func public @two_kinds(%c: i1) {
    %a = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shape\22: [64], \22dtype\22: \22fp32\22}"} : () -> !tt.ptr<i8>
    // expected-remark @+1 {{the plugin value was made here}}
    %b = tt.call @"hwx.alloc.kiln_op.1"() {kiln.constants = "{\22shape\22: [128], \22dtype\22: \22fp32\22}"} : () -> !tt.ptr<i8>
    %r = scf.if %c -> (!tt.ptr<i8>) {
      scf.yield %a : !tt.ptr<i8>
    } else {
      // expected-error @+1 {{carries a plugin value of type '!ttg.memdesc<1x128xf32}}
      scf.yield %b : !tt.ptr<i8>
    }
    tt.return
  }
  tt.func private @"hwx.alloc.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc"}
  tt.func private @"hwx.alloc.kiln_op.1"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc"}
}

// -----

module {
  tt.func public @plugin_value_misused(%p: !tt.ptr<i8>) {
    %c = arith.constant 1 : i32
    // expected-remark @+1 {{the plugin value was made here}}
    %a = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shape\22: [64], \22dtype\22: \22fp32\22}"} : () -> !tt.ptr<i8>
    // expected-error @+1 {{'tt.addptr' cannot take a plugin value}}
    %q = tt.addptr %a, %c : !tt.ptr<i8>, i32
    tt.return
  }
  tt.func private @"hwx.alloc.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc"}
}

// -----

module {
  tt.func public @not_a_plugin_value(%p: !tt.ptr<i8>) {
    // expected-error @+1 {{operand 'buf' of 'hwx.load' is not a value a plugin op made}}
    %v = tt.call @"hwx.load.kiln_op.0"(%p) : (!tt.ptr<i8>) -> tensor<64xf32>
    tt.return
  }
  tt.func private @"hwx.load.kiln_op.0"(!tt.ptr<i8>) -> tensor<64xf32> attributes {kiln.kernel_op = "hwx.load"}
}

// -----

module {
  tt.func public @bad_constants() {
    // expected-error @+1 {{'hwx.alloc' has no constexpr operand 'shapes'}}
    %a = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shapes\22: [64], \22shape\22: [64], \22dtype\22: \22fp32\22}"} : () -> !tt.ptr<i8>
    // expected-error @+1 {{'hwx.alloc' has constexprs that are not a JSON object}}
    %b = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "[1]"} : () -> !tt.ptr<i8>
    // expected-error @+1 {{hwx.alloc: shape must be a list of powers of two, got [48]}}
    %c = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shape\22: [48], \22dtype\22: \22fp32\22}"} : () -> !tt.ptr<i8>
    // expected-error @+1 {{'hwx.alloc' needs constexpr 'dtype'}}
    %d = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shape\22: [64]}"} : () -> !tt.ptr<i8>
    tt.return
  }
  tt.func private @"hwx.alloc.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc"}
}
