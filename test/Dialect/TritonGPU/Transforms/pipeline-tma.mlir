// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s

// The descriptor loads of a wgmma loop stream into rings of TMA copies, as
// Triton 3.6's pipeliner makes them: a ring of 3 buffers per operand and,
// both operands being first read together (by the dot), one ring of 3
// mbarriers for the two (initialised before the loop, one arrival per
// phase, expecting both copies' bytes), the first two iterations' copies
// before the loop, then each iteration waits once on its slot's mbarrier
// with the parity of the ring's round, multiplies without a fence (TMA and
// wgmma are both async-proxy), keeps one wgmma in flight and refills the
// slot the previous iteration read. The parity flips whenever the read
// slot wraps to 0.
// CHECK-LABEL: tt.func @tma_loop
// CHECK-SAME: (%[[A:.*]]: !tt.tensordesc<tensor<128x64xf16, #shared>>, %[[B:.*]]: !tt.tensordesc<tensor<128x64xf16, #shared>>, %[[N:.*]]: i32)
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[BA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[BAR:.*]], #smem, mutable>
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 1
// CHECK-NOT: ttng.init_barrier
// Prologue: iteration 0 into slot 0 (16384 bytes per copy, 32768 for both).
// CHECK: %[[P0:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK: %[[S0:.*]] = ttg.memdesc_index %[[RA]][%[[SLOT0:.*]]]
// CHECK: %[[M0:.*]] = ttg.memdesc_index %[[BA]][%[[SLOT0]]]
// CHECK: ttng.barrier_expect %[[M0]], 32768, %[[P0]]
// CHECK: ttng.async_tma_copy_global_to_local %[[A]][%{{.*}}, %{{.*}}] %[[S0]], %[[M0]], %[[P0]]
// CHECK-NOT: ttng.barrier_expect
// CHECK: ttng.async_tma_copy_global_to_local %[[B]][%{{.*}}, %{{.*}}] %{{.*}}, %[[M0]], %[[P0]]
// Iteration 1 into slot 1.
// CHECK: ttg.memdesc_index %[[RA]][%[[SLOT1:.*]]]
// CHECK: ttng.async_tma_copy_global_to_local %[[A]]
// CHECK: ttng.async_tma_copy_global_to_local %[[B]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[FILL:.*]] = %[[SLOT2:.*]], %[[READ:.*]] = %[[SLOT0]], %[[PHASE:.*]] = %[[SLOT0]])
// CHECK: %[[SA:.*]] = ttg.memdesc_index %[[RA]][%[[READ]]]
// CHECK: %[[SB:.*]] = ttg.memdesc_index %[[RB]][%[[READ]]]
// CHECK: %[[WA:.*]] = ttg.memdesc_index %[[BA]][%[[READ]]]
// CHECK-NEXT: ttng.wait_barrier %[[WA]], %[[PHASE]]
// CHECK-NOT: ttng.wait_barrier
// CHECK-NOT: ttng.fence_async_shared
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[SA]], %{{.*}}, %{{.*}} {{.*}}isAsync = true
// CHECK: ttng.warp_group_dot_wait %[[D]], %[[SA]], %{{.*}} {pendings = 1 : i32}
// CHECK: %[[F:.*]] = ttg.memdesc_index %[[BA]][%[[FILL]]]
// CHECK: ttng.barrier_expect %[[F]], 32768, %[[MORE:.*]] :
// CHECK: ttng.async_tma_copy_global_to_local %[[A]][%{{.*}}, %{{.*}}] %{{.*}}, %[[F]], %[[MORE]]
// CHECK: ttng.async_tma_copy_global_to_local %[[B]][%{{.*}}, %{{.*}}] %{{.*}}, %[[F]], %[[MORE]]
// CHECK: %[[NEXTFILL:.*]] = arith.select %{{.*}}, %[[SLOT0]], %{{.*}} : i32
// CHECK: %[[NEXT:.*]] = arith.select %{{.*}}, %[[SLOT0]], %{{.*}} : i32
// CHECK: %[[WRAPS:.*]] = arith.cmpi eq, %[[NEXT]], %[[SLOT0]] : i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[PHASE]], %[[SLOT1]] : i32
// CHECK: %[[NP:.*]] = arith.select %[[WRAPS]], %[[FLIP]], %[[PHASE]] : i32
// CHECK: scf.yield %{{.*}}, %[[NEXTFILL]], %[[NEXT]], %[[NP]]
// After the loop: the last dot, then the mbarriers are invalidated.
// CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
// CHECK-COUNT-3: ttng.inval_barrier
// CHECK-NOT: ttng.inval_barrier
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
// dot's buffer is written from there. The slot read last iteration is
// refilled once this one's is read, before the dot.
// CHECK-LABEL: tt.func @other_layout
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %{{.*}} : !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable> -> tensor<128x64xf16, #blocked>
// CHECK: ttng.async_tma_copy_global_to_local
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

// -----

// Attention's shape: K's slot is read by the first dot, V's only after it.
// The two loads keep an mbarrier ring each, so that the first dot waits for
// K alone; the views before the reads (memdesc_trans) do not split a group,
// the dot between does.
// CHECK-LABEL: tt.func @two_groups
// CHECK-COUNT-2: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: %[[BK:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: %[[BV:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: ttng.barrier_expect %{{.*}}, 16384
// CHECK: ttng.barrier_expect %{{.*}}, 16384
// CHECK: scf.for
// CHECK: %[[WK:.*]] = ttg.memdesc_index %[[BK]]
// CHECK-NEXT: ttng.wait_barrier %[[WK]]
// CHECK-NOT: ttng.wait_barrier
// CHECK: ttng.warp_group_dot
// CHECK: %[[WV:.*]] = ttg.memdesc_index %[[BV]]
// CHECK-NEXT: ttng.wait_barrier %[[WV]]
// CHECK-NOT: ttng.wait_barrier
// CHECK: ttng.warp_group_dot
// CHECK: scf.yield
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_groups(%k: !tt.tensordesc<tensor<128x64xf16, #shared>>, %v: !tt.tensordesc<tensor<128x64xf16, #shared>>, %q: !ttg.memdesc<128x64xf16, #shared, #smem>, %n: i32) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s_acc = %zero, %o_acc = %zero) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>) : i32 {
      %off = arith.muli %i, %c128 : i32
      %x = tt.descriptor_load %k[%off, %c0] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %y = tt.descriptor_load %v[%off, %c0] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %xt = ttg.memdesc_trans %xs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %s = ttng.warp_group_dot %q, %xt, %s_acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      %ys = ttg.local_alloc %y : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %o = ttng.warp_group_dot %q, %yt, %o_acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %s, %o : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %r#0, %r#1 : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
  }
}

// -----

// A and B read one after the other through views and scalar arithmetic:
// still one group.
// CHECK-LABEL: tt.func @one_group_through_views
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK-NOT: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: ttng.barrier_expect %{{.*}}, 32768
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK-NOT: ttng.wait_barrier
// CHECK: ttng.warp_group_dot
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_group_through_views(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<128x64xf16, #shared>>, %n: i32, %seed: i32) -> (tensor<128x128xf32, #mma>, i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %h = %seed) -> (tensor<128x128xf32, #mma>, i32) : i32 {
      %off = arith.muli %k, %c64 : i32
      %x = tt.descriptor_load %a[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %y = tt.descriptor_load %b[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %h2 = arith.xori %h, %k : i32
      %ys = ttg.local_alloc %y : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
      scf.yield %d, %h2 : tensor<128x128xf32, #mma>, i32
    } {tt.num_stages = 3 : i32}
    tt.return %r#0, %r#1 : tensor<128x128xf32, #mma>, i32
  }
}
