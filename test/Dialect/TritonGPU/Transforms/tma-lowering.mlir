// RUN: kiln-opt -split-input-file --ttgir-optimize-descriptor-encoding --ttgir-tma-lowering %s | FileCheck %s

// Descriptor blocks get Triton's default nvmma_shared encoding (the widest
// swizzle dividing a row's bytes: 128 B for 64 f16, 64 B for 32 f16, 32 B
// for 8 f32; none below 8 rows), kernel signatures included.
// CHECK-DAG: #[[S128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S64:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[S0:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>
// CHECK-DAG: #[[BAR:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: tt.func public @load_store
// CHECK-SAME: %[[A:arg0]]: !tt.tensordesc<tensor<128x64xf16, #[[S128]]>>
// CHECK-SAME: !tt.tensordesc<tensor<16x32xf16, #[[S64]]>>
// CHECK-SAME: !tt.tensordesc<tensor<8x8xf32, #[[S32]]>>
// CHECK-SAME: !tt.tensordesc<tensor<4x32xf32, #[[S0]]>>
// A load: buffer, one-arrival mbarrier, expect the block's 16384 bytes,
// the copy, wait on phase 0, invalidate, read into the load's layout.
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #[[S128]], #smem, mutable>
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #[[BAR]], #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %[[B]], 1
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: ttng.barrier_expect %[[B]], 16384, %[[TRUE]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[A]][%{{.*}}, %{{.*}}] %[[BUF]], %[[B]], %[[TRUE]] evictionPolicy = evict_last
// CHECK-NEXT: %[[PHASE:.*]] = arith.constant 0 : i32
// CHECK-NEXT: ttng.wait_barrier %[[B]], %[[PHASE]]
// CHECK-NEXT: ttng.inval_barrier %[[B]]
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<128x64xf16, #[[S128]], #smem, mutable> -> tensor<128x64xf16, #blocked>
// A store: into a buffer, fence, copy, wait for the copy to have read it.
// CHECK-NEXT: %[[SRC:.*]] = ttg.local_alloc %[[V]] : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #[[S128]], #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[A]][%{{.*}}, %{{.*}}] %[[SRC]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tt.descriptor_
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @load_store(%a: !tt.tensordesc<tensor<128x64xf16>>, %a0: i32, %a1: i32, %a2: i64, %a3: i64,
                             %b: !tt.tensordesc<tensor<16x32xf16>>, %c: !tt.tensordesc<tensor<8x8xf32>>,
                             %d: !tt.tensordesc<tensor<4x32xf32>>, %i: i32) {
    %v = tt.descriptor_load %a[%i, %i] evictionPolicy = evict_last : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
    tt.descriptor_store %a[%i, %i], %v : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16, #blocked>
    tt.return
  }
}

// -----

// A descriptor made in the kernel: 128 bytes of the program's global
// scratch, a tensor map in TMA's order (innermost dimension first: box 64
// of the 128-byte swizzle by 64 rows, extents n then m, the row stride in
// bytes), NaN padding, the acquire fence, and the descriptor view the
// copies use.
// CHECK-LABEL: tt.func public @make_descriptor
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f16>, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[S:.*]]: i64, %{{.*}}: i64, %[[I:.*]]: i32)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[BYTES:.*]] = arith.muli %[[S]], %[[TWO]] : i64
// CHECK: %[[MAP:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: ttng.tensormap_create %[[MAP]], %[[BASE]], [%[[C64]], %[[C64]]], [%[[N]], %[[M]]], [%[[BYTES]]], [%[[C1]], %[[C1]]] {elem_type = 6 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[MAP]] : !tt.ptr<i8>
// CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[MAP]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #{{.*}}>>
// CHECK: ttng.async_tma_copy_global_to_local %[[D]][%[[I]], %[[I]]]
// A reduction: into a buffer, fence, reduce, wait for it to have read it.
// CHECK: %[[SRC:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_reduce add, %[[D]][%[[I]], %[[I]]] %[[SRC]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK-NOT: tt.descriptor_
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @make_descriptor(%base: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %one: i64, %i: i32) {
    %c1 = arith.constant 1 : i64
    %d = tt.make_tensor_descriptor %base, [%m, %n], [%s, %c1] {padding = 2 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_reduce add, %d[%i, %i], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// A rank-reducing load and store (a 1x64x64 block as a 64x64 tensor): the
// buffer drops the unit dimension (its nvmma_shared layout rank 2), the
// copy keeps the descriptor's three coordinates.
// CHECK-LABEL: tt.func public @rank_reducing
// CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[R2:.*]], #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] %[[BUF]]
// CHECK: ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #[[R2]], #smem>
// CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @rank_reducing(%d: !tt.tensordesc<tensor<1x64x64xf16, #shared3>>, %b: i32, %i: i32) {
    %v = tt.descriptor_load %d[%b, %i, %i] : !tt.tensordesc<tensor<1x64x64xf16, #shared3>> -> tensor<64x64xf16, #blocked>
    tt.descriptor_store %d[%b, %i, %i], %v : !tt.tensordesc<tensor<1x64x64xf16, #shared3>>, tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// Stores in a loop keep their buffers for the loop. Stores of unlike
// blocks have one each and wait, before refilling it, only for their own
// copy of the previous pass (1 of the 2 groups a pass issues may stay in
// flight); the halves of a split epilogue (alike blocks) share one buffer,
// each waiting for the copy before it, so the loop holds one block's bytes.
// CHECK-LABEL: tt.func public @stores_in_loop
// CHECK: %[[WIDE:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16
// CHECK: %[[NARROW:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16
// CHECK: scf.for
// CHECK: ttng.async_tma_store_wait {pendings = 1 : i32}
// CHECK: ttg.local_store %{{.*}}, %[[WIDE]]
// CHECK: ttng.async_tma_store_wait {pendings = 1 : i32}
// CHECK: ttg.local_store %{{.*}}, %[[NARROW]]
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK-NEXT: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-LABEL: tt.func public @split_epilogue
// CHECK: %[[HALF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16
// CHECK-NOT: ttg.local_alloc
// CHECK: scf.for
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.local_store %{{.*}}, %[[HALF]]
// CHECK: ttng.async_tma_copy_local_to_global %{{.*}} %[[HALF]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.local_store %{{.*}}, %[[HALF]]
// CHECK: ttng.async_tma_copy_local_to_global %{{.*}} %[[HALF]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @stores_in_loop(%w: !tt.tensordesc<tensor<64x64xf16>>, %n: !tt.tensordesc<tensor<64x32xf16>>,
                                 %x: tensor<64x64xf16, #blocked>, %y: tensor<64x32xf16, #blocked>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      tt.descriptor_store %w[%i, %c0], %x : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
      tt.descriptor_store %n[%i, %c0], %y : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #blocked>
    }
    tt.return
  }
  tt.func public @split_epilogue(%n: !tt.tensordesc<tensor<64x32xf16>>, %x: tensor<64x32xf16, #blocked>,
                                 %y: tensor<64x32xf16, #blocked>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      tt.descriptor_store %n[%i, %c0], %x : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #blocked>
      tt.descriptor_store %n[%i, %c32], %y : !tt.tensordesc<tensor<64x32xf16>>, tensor<64x32xf16, #blocked>
    }
    tt.return
  }
}

// -----

// A store in a loop of a tile four swizzle spans wide (a 128x256 f16 wgmma
// epilogue) goes out span by span through a ring of two 128x64 buffers:
// the pieces are register views of the accumulator (reshape, trans, split:
// no layout conversion), each waits only for the copy two pieces back
// (pendings 1) and is copied to its own column offset. The loop keeps 32 KB
// of shared memory for the store instead of 64 KB.
// CHECK-LABEL: tt.func public @wide_store_in_pieces
// CHECK: %[[RING:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #[[SH:.*]], #smem, mutable>
// CHECK: scf.for %[[I:.*]] = %{{.*}}
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %{{.*}} : tensor<128x256xf16, #mma> -> tensor<128x2x2x64xf16, #linear
// CHECK: tt.trans %{{.*}} {order = array<i32: 0, 3, 1, 2>}
// CHECK-COUNT-3: tt.split
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[P0:.*]] = ttg.memdesc_index %[[RING]][%{{.*}}] : !ttg.memdesc<2x128x64xf16, #[[SH]], #smem, mutable> -> !ttg.memdesc<128x64xf16
// CHECK: ttng.async_tma_store_wait {pendings = 1 : i32}
// CHECK: ttg.local_store %{{.*}}, %[[P0]]
// CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%[[I]], %[[N:arg[0-9]+]]] %[[P0]]
// CHECK: %[[C64:.*]] = arith.addi %[[N]], %c64_i32
// CHECK: ttng.async_tma_store_wait {pendings = 1 : i32}
// CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%[[I]], %[[C64]]]
// CHECK: arith.addi %[[N]], %c128_i32
// CHECK: ttng.async_tma_store_wait {pendings = 1 : i32}
// CHECK: arith.addi %[[N]], %c192_i32
// CHECK: ttng.async_tma_store_wait {pendings = 1 : i32}
// CHECK: ttng.async_tma_copy_local_to_global
// CHECK-NEXT: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wide_store_in_pieces(%c: !tt.tensordesc<tensor<128x256xf16>>, %x: tensor<128x256xf16, #mma>,
                                       %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      tt.descriptor_store %c[%i, %n], %x : !tt.tensordesc<tensor<128x256xf16>>, tensor<128x256xf16, #mma>
    }
    tt.return
  }
}

// -----

// Where lanes, not registers, pick the span (8 columns a thread, 32 lanes
// along the row), the tile goes out whole.
// CHECK-LABEL: tt.func public @wide_store_whole
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<128x256xf16
// CHECK-NOT: tt.split
// CHECK: ttng.async_tma_copy_local_to_global
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wide_store_whole(%c: !tt.tensordesc<tensor<128x256xf16>>, %x: tensor<128x256xf16, #blocked>,
                                   %n: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      tt.descriptor_store %c[%i, %n], %x : !tt.tensordesc<tensor<128x256xf16>>, tensor<128x256xf16, #blocked>
    }
    tt.return
  }
}
