// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-allocate-global-scratch --llir-insert-barriers --llir-convert-to-llvm %s | FileCheck %s
// RUN: kiln-opt -split-input-file --llir-allocate-global-scratch %s | FileCheck %s --check-prefix=ALLOC

// Two tensor maps made in the kernel, as Triton 3.6's ttgir stage leaves
// them: each gets 128 aligned bytes of the program's slice of global
// scratch, whose size and alignment the module then carries.
// ALLOC: module attributes {ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 256 : i32
// ALLOC: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// ALLOC: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 128 : i32}

// The slice: the hidden global_scratch parameter plus the linear program
// id (x + nx * (y + ny * z)) times 256, plus the map's offset.
// CHECK-LABEL: llvm.func @two_maps
// CHECK-SAME: (%[[A:arg0]]: !llvm.ptr<1>, %[[M:arg1]]: i32, %[[N:arg2]]: i32, %[[S:arg3]]: i64, %[[SCRATCH:arg4]]: !llvm.ptr<1>, %arg5: !llvm.ptr<1>)
// CHECK: %[[Z:.*]] = nvvm.read.ptx.sreg.ctaid.z
// CHECK: %[[NY:.*]] = nvvm.read.ptx.sreg.nctaid.y
// CHECK: %[[Y:.*]] = nvvm.read.ptx.sreg.ctaid.y
// CHECK: %[[NX:.*]] = nvvm.read.ptx.sreg.nctaid.x
// CHECK: %[[X:.*]] = nvvm.read.ptx.sreg.ctaid.x
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(256 : i64) : i64
// CHECK: %[[SLICE:.*]] = llvm.mul %{{.*}}, %[[SIZE]] : i64
// CHECK: %[[AT:.*]] = llvm.add %[[SLICE]], %{{.*}} : i64
// CHECK: %[[MAP:.*]] = llvm.getelementptr %[[SCRATCH]][%[[AT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// Warp 0 zeroes the map's 128 bytes of shared scratch (a word a lane),
// thread 0 sets every field there (innermost dimension first), and the
// warp copies it to global memory, releasing it; a barrier; every thread
// acquires it.
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[W0:.*]] = llvm.icmp "ult" %[[TID]]
// CHECK: %[[T0:.*]] = llvm.icmp "eq"
// CHECK: %[[SMEMI:.*]] = llvm.ptrtoint %[[SMEM]] : !llvm.ptr<3> to i32
// CHECK: %[[WORD:.*]] = llvm.getelementptr %[[SMEM]][%[[TID]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: %[[WORDI:.*]] = llvm.ptrtoint %[[WORD]] : !llvm.ptr<3> to i32
// CHECK: %[[MAPI:.*]] = llvm.ptrtoint %[[MAP]] : !llvm.ptr<1> to i64
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr<1> to i64
// CHECK: llvm.inline_asm has_side_effects "@$0 st.shared.b32 [$3], 0;
// CHECK-SAME: @$0 bar.warp.sync -1;
// CHECK-SAME: @$1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [$2], $5;
// CHECK-SAME: @$1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [$2], 1;
// CHECK-SAME: @$1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$2], 0, $6;
// CHECK-SAME: @$1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [$2], 1, $7;
// CHECK-SAME: @$1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [$2], 0, $8;
// CHECK-SAME: @$1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [$2], 1, $9;
// CHECK-SAME: @$1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [$2], 0, $10;
// CHECK-SAME: @$1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [$2], 0, $11;
// CHECK-SAME: @$1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [$2], 1, $12;
// CHECK-SAME: @$1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [$2], 6;
// CHECK-SAME: @$1 tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [$2], 0;
// CHECK-SAME: @$1 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [$2], 3;
// CHECK-SAME: @$1 tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [$2], 1;
// CHECK-SAME: @$0 bar.warp.sync -1;
// CHECK-SAME: @$0 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$4], [$2], 128;
// CHECK-SAME: "b,b,r,r,l,l,r,r,r,r,l,r,r" %[[W0]], %[[T0]], %[[SMEMI]], %[[WORDI]], %[[MAPI]], %[[BASE]], %{{.*}}, %{{.*}}, %[[N]], %[[M]], %{{.*}}, %{{.*}}, %{{.*}}
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.inline_asm has_side_effects "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", "l"
// The descriptor the copies use is the map's generic address.
// CHECK: %[[DESC:.*]] = llvm.addrspacecast %[[MAP]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: llvm.mlir.constant(128 : i64) : i64
// CHECK: llvm.getelementptr %[[SCRATCH]]
// CHECK: fill_mode.shared::cta.b1024.b32 [$2], 0;
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[DESC]]
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_maps(%a: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) {
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %map = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %map, %a, [%c64_i32, %c64_i32], [%n, %m], [%s], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %map : !tt.ptr<i8>
    %d = ttng.reinterpret_tensor_descriptor %map : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    %map2 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %map2, %a, [%c64_i32, %c64_i32], [%n, %m], [%s], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %map2 : !tt.ptr<i8>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%c0_i32, %c0_i32] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0_i32 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// A predicated wait polls only where the predicate holds; an arrival is
// thread 0's, under the op's predicate too.
// CHECK-LABEL: llvm.func @predicated
// CHECK-SAME: (%[[BARP:arg0]]: !llvm.ptr<3>, %[[PHASE:arg1]]: i32, %[[P:arg2]]: i1
// CHECK: llvm.cond_br %[[P]], ^[[WAIT:bb[0-9]+]], ^[[AFTER:bb[0-9]+]]
// CHECK: ^[[WAIT]]:
// CHECK: nvvm.mbarrier.try_wait.parity %[[BARP]], %[[PHASE]]
// CHECK: llvm.br ^[[AFTER]]
// CHECK: ^[[AFTER]]:
// CHECK: %[[ONE:.*]] = llvm.and %{{.*}}, %[[P]] : i1
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[BARP]] : !llvm.ptr<3> to i32
// CHECK: llvm.inline_asm has_side_effects "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], 2;", "b,r" %[[ONE]], %[[ADDR]]
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @predicated(%bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %phase: i32, %p: i1) {
    ttng.wait_barrier %bar, %phase, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %bar, 2, %p : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// With kiln.warps_per_arrival = 1 the first lane of every warp arrives (the
// mbarrier counts warps), under the op's predicate too.
// CHECK-LABEL: llvm.func @per_warp
// CHECK-SAME: (%[[BARW:arg0]]: !llvm.ptr<3>, %[[PW:arg1]]: i1
// CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[LANE:.*]] = llvm.urem %[[TID]], %[[C32]]
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[LANE]], %{{.*}}
// CHECK: %[[WHO:.*]] = llvm.and %[[FIRST]], %[[PW]] : i1
// CHECK: llvm.inline_asm has_side_effects "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], 1;", "b,r" %[[WHO]]
// With 4, thread 0 of every warp group.
// CHECK-LABEL: llvm.func @per_warp_group
// CHECK: %[[C128:.*]] = llvm.mlir.constant(128 : i32)
// CHECK: %[[TIDG:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[RANK:.*]] = llvm.urem %[[TIDG]], %[[C128]]
// CHECK: %[[FIRSTG:.*]] = llvm.icmp "eq" %[[RANK]], %{{.*}}
// CHECK: llvm.inline_asm has_side_effects "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], 1;", "b,r" %[[FIRSTG]]
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @per_warp(%bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %p: i1) {
    ttng.arrive_barrier %bar, 1, %p {kiln.warps_per_arrival = 1 : i32} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
  tt.func @per_warp_group(%bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    ttng.arrive_barrier %bar, 1 {kiln.warps_per_arrival = 4 : i32} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// Named barriers: bar.arrive and bar.sync with the id and the thread count.
// CHECK-LABEL: llvm.func @named_barriers
// CHECK: llvm.inline_asm has_side_effects "bar.arrive $0, $1;", "r,r" %arg0, %arg1
// CHECK: llvm.inline_asm has_side_effects "bar.sync $0, $1;", "r,r" %arg0, %arg1
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @named_barriers(%id: i32, %n: i32) {
    ttng.named_barrier_arrive %id, %n : i32, i32
    ttng.named_barrier_wait %id, %n : i32, i32
    tt.return
  }
}

// -----

// A TMA reduction: one cp.reduce.async.bulk.tensor per 64-column box of
// the 128-byte swizzle, from thread 0, then the bulk group is closed.
// CHECK-LABEL: llvm.func @reduce
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "@$0 cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [$1, {$3, $4}], [$2];", "b,l,r,r,r"
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce(%d: !tt.tensordesc<tensor<64x128xf16, #shared>>, %buf: !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, %i: i32) {
    ttng.async_tma_reduce add, %d[%i, %i] %buf : !tt.tensordesc<tensor<64x128xf16, #shared>>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tt.return
  }
}

// -----

// A prefetch: one cp.async.bulk.prefetch.tensor per 64-column box, from
// thread 0 where the predicate holds; no barrier, no shared memory.
// CHECK-LABEL: llvm.func @prefetch
// CHECK: %[[T0:.*]] = llvm.icmp "eq"
// CHECK: %[[P:.*]] = llvm.and %[[T0]], %arg3
// CHECK-COUNT-2: llvm.inline_asm has_side_effects "@$0 cp.async.bulk.prefetch.tensor.2d.L2.global.tile [$1, {$2, $3}];", "b,l,r,r" %[[P]]
// CHECK-NOT: cp.async.bulk.prefetch
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @prefetch(%d: !tt.tensordesc<tensor<64x128xf16, #shared>>, %i: i32, %j: i32, %p: i1) {
    ttng.async_tma_prefetch %d[%i, %j], %p : !tt.tensordesc<tensor<64x128xf16, #shared>>
    tt.return
  }
}

// -----

// An unswizzled block (Gluon's NVMMASharedLayout for a row of 32 bytes, or
// fewer than 8 rows): the buffer is row-major, one TMA message moves the
// whole 4x16 box.
// CHECK-LABEL: llvm.func @unswizzled
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] predicate
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.try_wait.parity
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unswizzled(%d: !tt.tensordesc<tensor<4x16xf16, #shared>>, %s0: i32, %s1: i32, %t0: i64, %t1: i64, %i: i32) {
    %true = arith.constant true
    %c0_i32 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<4x16xf16, #shared, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 128, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %true : !tt.tensordesc<tensor<4x16xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<4x16xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %c0_i32 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

// A reinterpreted buffer is read at the same address, through its own
// layout: f16 pairs written as 32-bit words.
// CHECK-LABEL: llvm.func @reinterpret
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem
// CHECK: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
#flat16 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#b16 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reinterpret(%x: tensor<256xf16, #b16>, %out: !tt.ptr<i32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<256xf16, #flat16, #smem, mutable>
    ttg.local_store %x, %buf : tensor<256xf16, #b16> -> !ttg.memdesc<256xf16, #flat16, #smem, mutable>
    %w = ttg.memdesc_reinterpret %buf : !ttg.memdesc<256xf16, #flat16, #smem, mutable> -> !ttg.memdesc<128xi32, #flat16, #smem, mutable>
    %v = ttg.local_load %w : !ttg.memdesc<128xi32, #flat16, #smem, mutable> -> tensor<128xi32, #b16>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b16>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #b16>
    %q = tt.addptr %p, %r : tensor<128x!tt.ptr<i32>, #b16>, tensor<128xi32, #b16>
    tt.store %q, %v : tensor<128x!tt.ptr<i32>, #b16>
    tt.return
  }
}
