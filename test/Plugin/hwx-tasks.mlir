// hwx's warp specialisation as kiln.language encodes it: each `with` block
// is a pair of calls of the scope op marked kiln.scope "begin" (with its
// constexprs) and "end". ttir.expand-kernel-ops gathers each block into a
// region, expands the calls, then builds the scopes: the tasks become one
// ttg.warp_specialize.
// RUN: kiln-opt --plugin %kiln_plugins/libhwx.so --ttir-expand-kernel-ops -split-input-file -verify-diagnostics %s | FileCheck %s

// The default task becomes the default region; the replicated task two
// partitions of 2 warps asking for 40 registers, each with its replica id.
// Buffers, barriers and the loop bound are captured; the constant, the
// program id and the arange are made again in each partition.
// CHECK-LABEL: tt.func public @tasks
// CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
// CHECK: %[[BUFS:.*]] = ttg.local_alloc {hwx.inferred_layout} : () -> !ttg.memdesc<2x64xf32
// CHECK: ttg.warp_specialize(%[[BUFS]], %[[BARS]], %arg1) attributes {requestedRegisters = array<i32: 40, 40>}
// CHECK-NEXT: default {
// CHECK: ttng.wait_barrier
// CHECK: ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%[[U0:.*]]: !ttg.memdesc<2x64xf32{{.*}}, %[[B0:.*]]: !ttg.memdesc<2x1xi64{{.*}}, %[[N0:.*]]: i32) num_warps(2) {
// CHECK: tt.get_program_id x
// CHECK: tt.make_range {end = 64 : i32, start = 0 : i32}
// CHECK: %[[R0:.*]] = arith.constant 0 : i32
// CHECK: ttg.memdesc_index %[[U0]][%[[R0]]]
// CHECK: ttg.local_store
// CHECK: ttg.memdesc_index %[[B0]][%[[N0]]]
// CHECK: ttng.arrive_barrier
// CHECK: ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1({{.*}}) num_warps(2) {
// CHECK: %[[R1:.*]] = arith.constant 1 : i32
// CHECK: ttg.memdesc_index %{{.*}}[%[[R1]]]
// CHECK: ttg.warp_return
// CHECK-NOT: kiln.scope
// CHECK-NOT: tt.call
module {
  tt.func public @tasks(%x: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %bars = tt.call @"hwx.alloc_barriers.kiln_op.0"() {kiln.constants = "{\22num\22: 2}"} : () -> !tt.ptr<i8>
    %bufs = tt.call @"hwx.alloc.kiln_op.0"() {kiln.constants = "{\22shape\22: [64], \22dtype\22: \22fp32\22, \22num\22: 2}"} : () -> !tt.ptr<i8>
    %pid = tt.get_program_id x : i32
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22kind\22: \22default\22}"} : () -> ()
    %bar = tt.call @"hwx.index.kiln_op.0"(%bars, %c0) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
    tt.call @"hwx.barrier_wait.kiln_op.0"(%bar, %c0, %c0) : (!tt.ptr<i8>, i32, i32) -> ()
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.2"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 2, \22registers\22: 40, \22replicate\22: 2}"} : () -> ()
    %r = tt.call @"hwx.async_task_replica_id.kiln_op.0"() : () -> i32
    %buf = tt.call @"hwx.index.kiln_op.1"(%bufs, %r) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
    %s = tt.splat %pid : i32 -> tensor<64xi32>
    %v = arith.addi %offs, %s : tensor<64xi32>
    %f = arith.sitofp %v : tensor<64xi32> to tensor<64xf32>
    tt.call @"hwx.store.kiln_op.0"(%buf, %f) : (!tt.ptr<i8>, tensor<64xf32>) -> ()
    %bar2 = tt.call @"hwx.index.kiln_op.2"(%bars, %n) : (!tt.ptr<i8>, i32) -> !tt.ptr<i8>
    %t = arith.constant true
    tt.call @"hwx.barrier_arrive.kiln_op.0"(%bar2, %t) {kiln.constants = "{}"} : (!tt.ptr<i8>, i1) -> ()
    tt.call @"hwx.async_task.kiln_op.3"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.alloc_barriers.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc_barriers"}
  tt.func private @"hwx.alloc.kiln_op.0"() -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.alloc"}
  tt.func private @"hwx.index.kiln_op.0"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.index.kiln_op.1"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.index.kiln_op.2"(!tt.ptr<i8>, i32) -> !tt.ptr<i8> attributes {kiln.kernel_op = "hwx.index"}
  tt.func private @"hwx.barrier_wait.kiln_op.0"(!tt.ptr<i8>, i32, i32) attributes {kiln.kernel_op = "hwx.barrier_wait"}
  tt.func private @"hwx.barrier_arrive.kiln_op.0"(!tt.ptr<i8>, i1) attributes {kiln.kernel_op = "hwx.barrier_arrive"}
  tt.func private @"hwx.store.kiln_op.0"(!tt.ptr<i8>, tensor<64xf32>) attributes {kiln.kernel_op = "hwx.store"}
  tt.func private @"hwx.async_task_replica_id.kiln_op.0"() -> i32 attributes {kiln.kernel_op = "hwx.async_task_replica_id"}
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.2"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.3"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

// Triton's CSE left the row arithmetic of the default task in the first
// task, where the producer computed it too: it moves before the tasks (the
// product with it), rather than being a use after its block; the producer
// computes it again from its captured operands.
// CHECK-LABEL: tt.func public @merged_by_cse
// CHECK: %[[SCALED:.*]] = arith.muli %arg1, %{{.*}} : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %arg2, %[[SCALED]] : i32
// CHECK-NEXT: ttg.warp_specialize(%arg0, %arg2, %arg1)
// CHECK-NEXT: default {
// CHECK-NEXT: tt.store %arg0, %[[ROW]]
// CHECK: partition0(%[[X:.*]]: !tt.ptr<i32>, %[[BASE:.*]]: i32, %[[M:.*]]: i32) num_warps(1) {
// CHECK: arith.muli %[[M]]
// CHECK: arith.addi %[[BASE]]
module {
  tt.func public @merged_by_cse(%x: !tt.ptr<i32>, %m: i32, %base: i32) {
    %c128 = arith.constant 128 : i32
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1}"} : () -> ()
    %scaled = arith.muli %m, %c128 : i32
    %row = arith.addi %base, %scaled : i32
    %p = tt.addptr %x, %row : !tt.ptr<i32>, i32
    tt.store %p, %row : !tt.ptr<i32>
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.2"() {kiln.scope = "begin", kiln.constants = "{\22kind\22: \22default\22}"} : () -> ()
    tt.store %x, %row : !tt.ptr<i32>
    tt.call @"hwx.async_task.kiln_op.3"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.2"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.3"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

// The same with a division (free of memory effects, not speculatable): the
// task's body always runs, so it moves before the tasks too, and reaches
// the producer as a capture.
// CHECK-LABEL: tt.func public @division_merged_by_cse
// CHECK: %[[Q:.*]] = arith.divsi %arg1, %arg2 : i32
// CHECK-NEXT: ttg.warp_specialize(%arg0, %[[Q]])
// CHECK-NEXT: default {
// CHECK-NEXT: tt.store %arg0, %[[Q]]
// CHECK: partition0(%[[X:.*]]: !tt.ptr<i32>, %[[CQ:.*]]: i32) num_warps(1) {
// CHECK: tt.addptr %[[X]], %[[CQ]]
module {
  tt.func public @division_merged_by_cse(%x: !tt.ptr<i32>, %n: i32, %d: i32) {
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1}"} : () -> ()
    %q = arith.divsi %n, %d : i32
    %p = tt.addptr %x, %q : !tt.ptr<i32>, i32
    tt.store %p, %q : !tt.ptr<i32>
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.2"() {kiln.scope = "begin", kiln.constants = "{\22kind\22: \22default\22}"} : () -> ()
    tt.store %x, %q : !tt.ptr<i32>
    tt.call @"hwx.async_task.kiln_op.3"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.2"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.3"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

// A tensor loaded before the block cannot reach a task's warps.
module {
  tt.func public @tensor_capture(%x: !tt.ptr<f32>) {
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    // expected-note @below {{the tensor is computed here}}
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1}"} : () -> ()
    // expected-error @below {{a tensor computed outside this hwx.async_task is used in it}}
    tt.store %p, %v : tensor<64x!tt.ptr<f32>>
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

// A value made in a task, used after the block.
module {
  tt.func public @escapes(%x: !tt.ptr<f32>) {
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1}"} : () -> ()
    // expected-note @below {{the value is made here}}
    %v = tt.load %x : !tt.ptr<f32>
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    // expected-error @below {{this uses a value made inside a `with hwx.async_task(...)` block, after it}}
    tt.store %x, %v : !tt.ptr<f32>
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

// A task outside async_tasks; registers on some tasks only; bad warps.
module {
  tt.func public @stray() {
    // expected-error @below {{hwx.async_task(...) must be directly inside `with hwx.async_tasks():`}}
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

module {
  tt.func public @some_registers() {
    // expected-error @below {{either every non-default hwx.async_task gives registers or none does}}
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1, \22registers\22: 40}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.2"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 1}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.3"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.2"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.3"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

module {
  tt.func public @three_warps() {
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    // expected-error @below {{hwx.async_task needs num_warps, a power of two up to 16, got 3}}
    tt.call @"hwx.async_task.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{\22num_warps\22: 3}"} : () -> ()
    tt.call @"hwx.async_task.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.call @"hwx.async_tasks.kiln_op.1"() {kiln.scope = "end"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_tasks.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_tasks"}
  tt.func private @"hwx.async_task.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_task"}
  tt.func private @"hwx.async_task.kiln_op.1"() attributes {kiln.kernel_op = "hwx.async_task"}
}

// -----

// A block that never ends (a bare `hwx.async_tasks()` call).
module {
  tt.func public @unclosed() {
    // expected-error @below {{a `with hwx.async_tasks(...)` block that does not end in the block it begins in}}
    tt.call @"hwx.async_tasks.kiln_op.0"() {kiln.scope = "begin", kiln.constants = "{}"} : () -> ()
    tt.return
  }
  tt.func private @"hwx.async_tasks.kiln_op.0"() attributes {kiln.kernel_op = "hwx.async_tasks"}
}
