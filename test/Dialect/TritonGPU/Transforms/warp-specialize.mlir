// RUN: kiln-opt -split-input-file --ttgir-warp-specialize=num-stages=3 %s | FileCheck %s

// A persistent TMA matmul whose tile loop Triton marks tt.warp_specialize,
// as kiln's ttgir stage has it before pipelining.
// Rings for A and B, and their ready and empty mbarriers: 4 slots, the 3
// of num-stages and one more, since the rings and the epilogue's buffer
// (128 KB) already keep a second CTA off the SM.
// CHECK-LABEL: @persistent_matmul
// CHECK: %[[A:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>
// CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64, {{#shared[0-9]*}}, #smem, mutable>
// CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64, {{#shared[0-9]*}}, #smem, mutable>
// CHECK-COUNT-8: ttng.init_barrier %{{.*}}, 1
// CHECK: ttg.warp_specialize({{.*}}) attributes {requestedRegisters = array<i32: 24>}
// The consumers: the tile loop carries the step counter into the K loop,
// which waits for its slot and reads it in place. One wgmma stays in
// flight: step c frees step c - 1's slot (not in a tile's first step), and
// the last slot is freed after the loop, once every wgmma is done.
// CHECK-NEXT: default {
// CHECK: scf.for {{.*}} iter_args(%[[TC:.*]] = %c0_i32{{.*}}) -> (i32)
// CHECK: %[[K:.*]]:2 = scf.for %[[KI:.*]] = %c0_i32 to {{.*}} iter_args(%[[ACC:.*]] = %cst, %[[C:.*]] = %[[TC]]) -> (tensor<128x128xf32, #mma>, i32)
// CHECK: %[[SLOT:.*]] = arith.remui %[[C]], %c4_i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[C]], %c4_i32
// CHECK: %[[PHASE:.*]] = arith.andi %[[ROUND]]
// CHECK: %[[R:.*]] = ttg.memdesc_index %[[READY]][%[[SLOT]]]
// CHECK: ttng.wait_barrier %[[R]], %[[PHASE]]
// CHECK: %[[AS:.*]] = ttg.memdesc_index %[[A]][%[[SLOT]]]
// CHECK: %[[BS:.*]] = ttg.memdesc_index %[[B]][%[[SLOT]]]
// CHECK: %[[BT:.*]] = ttg.memdesc_trans %[[BS]] {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, {{#shared[0-9]+}}, #smem, mutable>
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[AS]], %[[BT]], %[[ACC]] {inputPrecision = 0 : i32, isAsync = true}
// CHECK: %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[D]], %[[AS]], %[[BT]] {pendings = 1 : i32}
// CHECK: %[[NEXT:.*]] = arith.addi %[[C]], %c1_i32
// CHECK: %[[NOTFIRST:.*]] = arith.cmpi ne, %[[KI]], %c0_i32
// CHECK: %[[BACK:.*]] = arith.addi %[[C]], %c3_i32
// CHECK: %[[PREV:.*]] = arith.remui %[[BACK]], %c4_i32
// CHECK: %[[E:.*]] = ttg.memdesc_index %[[EMPTY]][%[[PREV]]]
// CHECK: ttng.arrive_barrier %[[E]], 1, %[[NOTFIRST]]
// CHECK: scf.yield %[[W]]#0, %[[NEXT]]
// CHECK: %[[DONE:.*]] = ttng.warp_group_dot_wait %[[K]]#0 {pendings = 0 : i32}
// CHECK: %[[RAN:.*]] = arith.cmpi ne, %[[K]]#1, %[[TC]]
// CHECK: %[[LAST:.*]] = ttg.memdesc_index %[[EMPTY]]
// CHECK: ttng.arrive_barrier %[[LAST]], 1, %[[RAN]]
// CHECK: arith.truncf %[[DONE]]
// The epilogue stays with the consumers.
// CHECK: tt.descriptor_store
// CHECK: ttg.warp_yield
// The producer warp: only the copies and what they need; it waits for a
// free slot (the parity before the consumers') and expects both blocks.
// CHECK: partition0({{.*}}) num_warps(1) {
// CHECK-NOT: tt.descriptor_store
// CHECK-NOT: ttng.warp_group_dot
// CHECK: scf.for
// CHECK: scf.for {{.*}} -> (i32)
// CHECK: %[[PSLOT:.*]] = arith.remui
// CHECK: %[[FREE:.*]] = arith.xori
// CHECK: ttng.wait_barrier %{{.*}}, %[[FREE]]
// CHECK: ttng.barrier_expect %{{.*}}, 32768, %true
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK-NOT: tt.descriptor_store
// CHECK: ttg.warp_return

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @persistent_matmul(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c: !tt.tensordesc<tensor<128x128xf16, #shared>>, %tiles: i32, %tiles_n: i32, %k_tiles: i32) {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c132_i32 = arith.constant 132 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %pid = tt.get_program_id x : i32
    scf.for %tile = %pid to %tiles step %c132_i32  : i32 {
      %m = arith.divsi %tile, %tiles_n : i32
      %n = arith.remsi %tile, %tiles_n : i32
      %row = arith.muli %m, %c128_i32 : i32
      %col = arith.muli %n, %c128_i32 : i32
      %acc = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%acc_in = %cst) -> (tensor<128x128xf32, #mma>)  : i32 {
        %off = arith.muli %k, %c64_i32 : i32
        %la = tt.descriptor_load %a[%row, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %sa = ttg.local_alloc %la : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %lb = tt.descriptor_load %b[%col, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %sb = ttg.local_alloc %lb : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %bt = ttg.memdesc_trans %sb {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared1, #smem>
        %d = ttng.warp_group_dot %sa, %bt, %acc_in {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %d : tensor<128x128xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %o = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
      tt.descriptor_store %c[%row, %col], %o : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #blocked1>
    } {tt.flatten, tt.warp_specialize}
    tt.return
  }
}

// -----

// A load whose descriptor the loop makes cannot stream: the loop is left
// to the pipeliner, unmarked loops too.
// CHECK-LABEL: @descriptor_in_loop
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.descriptor_load
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @descriptor_in_loop(%p: !tt.ptr<f16>, %n: i32, %out: !tt.ptr<f16>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    scf.for %i = %c0_i32 to %n step %c1_i32  : i32 {
      %d = tt.make_tensor_descriptor %p, [%c64_i32, %c64_i32], [%c64_i64, %c1_i64] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16, #shared2>>
      %l = tt.descriptor_load %d[%i, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared2>> -> tensor<64x64xf16, #blocked2>
    } {tt.warp_specialize}
    tt.return
  }
}

// -----

// Eight consumer warps of a matmul (two warp groups, each waiting only for
// its own wgmma, the slots' only readers): thread 0 of each warp group
// frees a slot, on an empty mbarrier counting two, with no CTA barrier.
// The rings take 96 KB, so two CTAs fit an SM: they keep num-stages' 3
// slots.
// CHECK-LABEL: @two_warp_groups
// CHECK-COUNT-3: ttng.init_barrier %{{.*}}, 1
// CHECK-SAME: {{$}}
// CHECK: ttng.init_barrier %{{.*}}, 2 :
// CHECK: default {
// CHECK-NOT: ttg.barrier
// CHECK: ttng.warp_group_dot_wait
// CHECK-NOT: ttg.barrier
// CHECK: ttng.arrive_barrier %{{.*}}, 1, %{{.*}} {kiln.warps_per_arrival = 4 : i32}
// CHECK-NOT: ttg.barrier
// CHECK: ttng.arrive_barrier %{{.*}}, 1, %{{.*}} {kiln.warps_per_arrival = 4 : i32}
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma3 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem3 = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_warp_groups(%a: !tt.tensordesc<tensor<128x64xf16, #shared3>>, %b: !tt.tensordesc<tensor<128x64xf16, #shared3>>, %k_tiles: i32) -> tensor<128x128xf32, #mma3> {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma3>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %acc = scf.for %k = %c0_i32 to %k_tiles step %c1_i32 iter_args(%acc_in = %cst) -> (tensor<128x128xf32, #mma3>)  : i32 {
      %off = arith.muli %k, %c64_i32 : i32
      %la = tt.descriptor_load %a[%c0_i32, %off] : !tt.tensordesc<tensor<128x64xf16, #shared3>> -> tensor<128x64xf16, #blocked3>
      %sa = ttg.local_alloc %la : (tensor<128x64xf16, #blocked3>) -> !ttg.memdesc<128x64xf16, #shared3, #smem3>
      %lb = tt.descriptor_load %b[%c0_i32, %off] : !tt.tensordesc<tensor<128x64xf16, #shared3>> -> tensor<128x64xf16, #blocked3>
      %sb = ttg.local_alloc %lb : (tensor<128x64xf16, #blocked3>) -> !ttg.memdesc<128x64xf16, #shared3, #smem3>
      %bt = ttg.memdesc_trans %sb {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared3, #smem3> -> !ttg.memdesc<64x128xf16, #shared4, #smem3>
      %d = ttng.warp_group_dot %sa, %bt, %acc_in {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared3, #smem3> * !ttg.memdesc<64x128xf16, #shared4, #smem3> -> tensor<128x128xf32, #mma3>
      scf.yield %d : tensor<128x128xf32, #mma3>
    } {tt.warp_specialize}
    tt.return %acc : tensor<128x128xf32, #mma3>
  }
}

// -----

// Outside a matmul's K loop, eight consumer warps free a slot with one
// arrival per warp, on an mbarrier counting 8 (a slot read into registers).
// CHECK-LABEL: @per_warp_release
// CHECK: ttng.init_barrier %{{.*}}, 1
// CHECK: ttng.init_barrier %{{.*}}, 8
// CHECK: default {
// CHECK: ttng.wait_barrier
// CHECK: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: ttng.arrive_barrier %{{.*}}, 1 {kiln.warps_per_arrival = 1 : i32}
#blocked5 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#shared5 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @per_warp_release(%x: !tt.tensordesc<tensor<64x64xf16, #shared5>>, %n: i32) -> tensor<64x64xf16, #blocked5> {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked5>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %sum = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%s = %cst) -> (tensor<64x64xf16, #blocked5>)  : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %l = tt.descriptor_load %x[%row, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared5>> -> tensor<64x64xf16, #blocked5>
      %t = arith.addf %s, %l : tensor<64x64xf16, #blocked5>
      scf.yield %t : tensor<64x64xf16, #blocked5>
    } {tt.warp_specialize}
    tt.return %sum : tensor<64x64xf16, #blocked5>
  }
}

// -----

// Four warps that read a slot into registers arrive one per warp too (the
// mbarrier counts 4): thread 0 alone may arrive before the other warps
// have read it.
// CHECK-LABEL: @per_warp_release_one_group
// CHECK: ttng.init_barrier %{{.*}}, 1
// CHECK: ttng.init_barrier %{{.*}}, 4
// CHECK: default {
// CHECK: ttng.wait_barrier
// CHECK: ttg.local_load
// CHECK-NOT: ttg.barrier
// CHECK: ttng.arrive_barrier %{{.*}}, 1 {kiln.warps_per_arrival = 1 : i32}
#blocked7 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared7 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @per_warp_release_one_group(%x: !tt.tensordesc<tensor<64x64xf16, #shared7>>, %n: i32) -> tensor<64x64xf16, #blocked7> {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked7>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    %sum = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%s = %cst) -> (tensor<64x64xf16, #blocked7>)  : i32 {
      %row = arith.muli %i, %c64_i32 : i32
      %l = tt.descriptor_load %x[%row, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared7>> -> tensor<64x64xf16, #blocked7>
      %t = arith.addf %s, %l : tensor<64x64xf16, #blocked7>
      scf.yield %t : tensor<64x64xf16, #blocked7>
    } {tt.warp_specialize}
    tt.return %sum : tensor<64x64xf16, #blocked7>
  }
}

// -----

// A conditional with a result that also writes memory would run in the
// producer too (which keeps what its copies depend on): the loop is left
// to the pipeliner.
// CHECK-LABEL: @conditional_store
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.descriptor_load
#blocked6 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared6 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @conditional_store(%x: !tt.tensordesc<tensor<64x64xf16, #shared6>>, %n: i32, %p: !tt.ptr<i32>) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%row = %c0_i32) -> (i32)  : i32 {
      %odd = arith.cmpi ne, %i, %c0_i32 : i32
      %next = scf.if %odd -> (i32) {
        tt.store %p, %i : !tt.ptr<i32>
        %r = arith.addi %row, %c64_i32 : i32
        scf.yield %r : i32
      } else {
        scf.yield %row : i32
      }
      %l = tt.descriptor_load %x[%next, %c0_i32] : !tt.tensordesc<tensor<64x64xf16, #shared6>> -> tensor<64x64xf16, #blocked6>
      scf.yield %next : i32
    } {tt.warp_specialize}
    tt.return
  }
}
