// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %S/Inputs/tma-copy.ttgir | FileCheck %s

// A descriptor parameter is the CUtensorMap by value (Triton 3.6's ABI)
// and carries what tensordesc_meta records: 128-byte swizzle (mode 3), f16
// (type 6), boxes of 64x64 (a 256-byte row is two swizzle spans).
// CHECK-LABEL: llvm.func @tma_copy
// CHECK-SAME: (%[[IN:arg0]]: !llvm.ptr {kiln.tensordesc_meta = {block_size = array<i64: 64, 64>, elem_size = 2 : i32, elem_type = 6 : i32, fp4_padded = false, swizzle = 3 : i32}, llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %[[OUT:arg5]]: !llvm.ptr {{{.*}}nvvm.grid_constant}
// CHECK-SAME: %arg10: !llvm.ptr<1>, %arg11: !llvm.ptr<1>)
// CHECK: %[[ROW:.*]] = llvm.mul
// CHECK: %[[BUF:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[BAR:.*]] = llvm.getelementptr %{{.*}}[16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// Thread 0 initialises the barrier; everyone waits before using it.
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: nvvm.mbarrier.init %[[BAR]], %{{.*}}, predicate = %[[T0]]
// CHECK-NEXT: nvvm.barrier0
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %{{.*}}, predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// Two boxes, coordinates innermost first; the second starts 64 columns
// (4096 elements) in.
// CHECK: %[[DST0:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST0]], %[[IN]], %[[BAR]], box[%{{.*}}, %[[ROW]]] predicate = %[[P:.*]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[C4096:.*]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK: llvm.getelementptr %[[BUF]][%[[C4096]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: %[[COL:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[IN]], %[[BAR]], box[%[[COL]], %[[ROW]]] predicate = %[[P]]
// The wait needs no bar.sync after it; the inval does, before it.
// CHECK-NEXT: %[[TICKS:.*]] = llvm.mlir.constant(10000000 : i32) : i32
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[BAR]], %{{.*}}, %[[TICKS]]
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.inline_asm has_side_effects "@$0 mbarrier.inval.shared::cta.b64 [$1];"
// The store reads what the TMA load wrote (both async proxy): no fence.
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[OUT]], %{{.*}}, box[%{{.*}}, %[[ROW]]], predicate
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[OUT]], %{{.*}}, box[%[[COL2:.*]], %[[ROW]]], predicate
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: llvm.return
