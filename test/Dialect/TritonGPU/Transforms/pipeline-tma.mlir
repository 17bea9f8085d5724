// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s

// The descriptor loads of a wgmma loop stream into rings of TMA copies, as
// Triton 3.6's pipeliner makes them: a ring of 3 buffers per operand, each
// with a ring of 3 mbarriers (initialised before the loop, one arrival per
// phase), the first two iterations' copies before the loop, then each
// iteration waits on its slot's mbarrier with the parity of the ring's
// round, multiplies without a fence (TMA and wgmma are both async-proxy),
// keeps one wgmma in flight and refills the slot the previous iteration
// read. The parity flips whenever the read slot wraps to 0.
// CHECK-LABEL: tt.func @tma_loop
// CHECK-SAME: (%[[A:.*]]: !tt.tensordesc<tensor<128x64xf16, #shared>>, %[[B:.*]]: !tt.tensordesc<tensor<128x64xf16, #shared>>, %[[N:.*]]: i32)
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[BA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BAR:.*]], #smem, mutable>
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 1
// CHECK: %[[BB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BAR]], #smem, mutable>
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 1
// Prologue: iteration 0 into slot 0 (16384 bytes per copy).
// CHECK: %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK: %[[S0:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT0:.*]]]
// CHECK: %[[M0:.*]] = ttg.memdesc_index %[[BA]][%[[SLOT0]]]
// CHECK: ttng.barrier_expect %[[M0]], 16384, %[[P0]]
// CHECK: ttng.async_tma_copy_global_to_local %[[A]][%{{.*}}, %{{.*}}] %[[S0]], %[[M0]], %[[P0]]
// CHECK: ttng.async_tma_copy_global_to_local %[[B]]
// Iteration 1 into slot 1.
// CHECK: ttg.memdesc_index %[[RA]][%[[SLOT1:.*]]]
// CHECK: ttng.async_tma_copy_global_to_local %[[A]]
// CHECK: ttng.async_tma_copy_global_to_local %[[B]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[FILL:.*]] = %[[SLOT2:.*]], %[[READ:.*]] = %[[SLOT0]], %[[PHASE:.*]] = %[[SLOT0]])
// CHECK: %[[SA:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// CHECK: %[[SB:.*]] = ttg.memdesc_index %[[RB]][%[[READ]]]
// CHECK: %[[WA:.*]] = ttg.memdesc_index %[[BA]][%[[READ]]]
// CHECK-NEXT: ttng.wait_barrier %[[WA]], %[[PHASE]]
// CHECK: %[[WB:.*]] = ttg.memdesc_index %[[BB]][%[[READ]]]
// CHECK-NEXT: ttng.wait_barrier %[[WB]], %[[PHASE]]
// CHECK-NOT: ttng.fence_async_shared
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[SA]], %{{.*}}, %{{.*}} {{.*}}isAsync = true
// CHECK: ttng.warp_group_dot_wait %[[D]], %[[SA]], %{{.*}} {pendings = 1 : i32}
// CHECK: %[[F:.*]] = ttg.memdesc_index %[[BA]][%[[FILL]]]
// CHECK: ttng.barrier_expect %[[F]], 16384, %[[MORE:.*]] :
// CHECK: ttng.async_tma_copy_global_to_local %[[A]][%{{.*}}, %{{.*}}] %{{.*}}, %[[F]], %[[MORE]]
// CHECK: ttng.async_tma_copy_global_to_local %[[B]]
// CHECK: %[[NEXTFILL:.*]] = arith.select %{{.*}}, %[[SLOT0]], %{{.*}} : i32
// CHECK: %[[NEXT:.*]] = arith.select %{{.*}}, %[[SLOT0]], %{{.*}} : i32
// CHECK: %[[WRAPS:.*]] = arith.cmpi eq, %[[NEXT]], %[[SLOT0]] : i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[PHASE]], %[[SLOT1]] : i32
// CHECK: %[[NP:.*]] = arith.select %[[WRAPS]], %[[FLIP]], %[[PHASE]] : i32
// CHECK: scf.yield %{{.*}}, %[[NEXTFILL]], %[[NEXT]], %[[NP]]
// After the loop: the last dot, then the mbarriers are invalidated.
// CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-COUNT-3: ttng.inval_barrier
// CHECK: ttg.local_dealloc %[[BA]]
// CHECK: ttg.local_dealloc %[[RA]]
// CHECK-NOT: ttg.async_wait
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tma_loop(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<128x64xf16, #shared>>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %off = arith.muli %k, %c64 : i32
      %x = tt.descriptor_load %a[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %y = tt.descriptor_load %b[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %ys = ttg.local_alloc %y : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<128x128xf32, #mma>
  }
}

// -----

// A descriptor load in another layout than the buffer the dot reads still
// streams, read from its slot into registers after the slot's wait; the
// dot's buffer is written from there.
// CHECK-LABEL: tt.func @other_layout
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable> -> tensor<128x64xf16, #blocked>
// CHECK-NEXT: ttg.local_alloc %[[V]]
// CHECK-NOT: tt.descriptor_load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @other_layout(%a: !tt.tensordesc<tensor<128x64xf16, #shared64>>, %b: !ttg.memdesc<64x128xf16, #shared1, #smem>, %n: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<128x64xf16, #shared64>> -> tensor<128x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %xs, %b, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<128x128xf32, #mma>
  }
}

// -----

// A loop without a dot: its rank-reducing descriptor load (a 1x64x64 block
// as 64x64) streams too, into slots of the reduced rank.
// CHECK-LABEL: tt.func @no_dot
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #[[R2:.*]], #smem, mutable>
// CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<1x64x64xf16, #{{.*}}>>, !ttg.memdesc<1xi64, {{.*}}> -> !ttg.memdesc<64x64xf16, #[[R2]], #smem, mutable>
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK-NEXT: ttg.local_load %{{.*}} : !ttg.memdesc<64x64xf16, #[[R2]], #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK-NOT: tt.descriptor_load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_dot(%a: !tt.tensordesc<tensor<1x64x64xf16, #shared3>>, %out: tensor<64x64x!tt.ptr<f16>, #blocked>, %b: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    scf.for %k = %c0 to %n step %c64 : i32 {
      %x = tt.descriptor_load %a[%b, %c0, %k] : !tt.tensordesc<tensor<1x64x64xf16, #shared3>> -> tensor<64x64xf16, #blocked>
      tt.store %out, %x : tensor<64x64x!tt.ptr<f16>, #blocked>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}
