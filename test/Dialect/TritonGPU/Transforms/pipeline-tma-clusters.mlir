// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s

// A wgmma loop of a 2-CTA program whose product is split along N: both
// CTAs hold the whole of A's tile (its CGA repeats it), each its own half
// of B. A's copies are shared (multicast); B's are not. The rings get a
// slot more than the 3 stages; each slot an `empty` mbarrier counting one
// arrival per warp group of each CTA of the group; the inits are fenced
// and the cluster meets before the first copy. In the loop, each CTA
// frees the slot it read last iteration (the one the next iteration
// fills: not in the first iteration, which read nothing before, and only
// where that fill happens) in both CTAs, then waits on its own empty
// barrier of the slot it fills now (freed an iteration earlier), with a
// parity that starts at 1 (passing on the fresh barrier) and flips when
// the fill slot wraps to 0.
// CHECK-LABEL: tt.func public @multicast_a
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16, #[[SA:shared[0-9]*]], #smem, mutable>
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x64x256xf16
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier %{{.*}}, 1 :
// CHECK: %[[E:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier %{{.*}}, 2 :
// CHECK: %[[RANK:.*]] = ttng.cluster_cta_rank : i32
// CHECK: %[[PEER:.*]] = arith.xori %[[RANK]], %c1_i32 : i32
// CHECK: ttng.fence_mbarrier_init_release_cluster
// CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT: ttng.cluster_wait
// CHECK: ttng.async_tma_copy_global_to_local %arg0[{{.*}}] {{.*}} {multicast}
// CHECK: ttng.async_tma_copy_global_to_local %arg1[{{.*}}] {{.*}} : !tt.tensordesc
// CHECK: %[[D2:.*]] = arith.muli %c64_i32, %c2_i32
// CHECK: %[[D3:.*]] = arith.muli %c64_i32, %c3_i32
// CHECK: scf.for %[[IV:arg[0-9]+]] = %[[LB:[a-z0-9_]+]] to %[[UB:[a-z0-9_]+]] step %{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[FILL:arg[0-9]+]] = %c2_i32, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}, %[[EPHASE:arg[0-9]+]] = %c1_i32)
// CHECK: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
// CHECK: %[[LEFT:.*]] = arith.subi %[[UB]], %[[IV]]
// CHECK: %[[PRED:.*]] = arith.cmpi ugt, %[[LEFT]], %[[D2]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[FILL]], %c1_i32
// CHECK: %[[NEXTWRAPS:.*]] = arith.cmpi sge, %[[NEXT]], %c4_i32
// CHECK: %[[NEXTFILL:.*]] = arith.select %[[NEXTWRAPS]], %{{.*}}, %[[NEXT]]
// CHECK: %[[NEXTFILLS:.*]] = arith.cmpi ugt, %[[LEFT]], %[[D3]]
// CHECK: %[[NOTFIRST:.*]] = arith.cmpi ne, %[[IV]], %[[LB]]
// CHECK: %[[FREED:.*]] = arith.andi %[[NEXTFILLS]], %[[NOTFIRST]]
// CHECK: %[[FREE:.*]] = ttg.memdesc_index %[[E]][%[[NEXTFILL]]]
// CHECK: %[[R1:.*]] = ttng.map_to_remote_buffer %[[FREE]], %[[PEER]] : {{.*}} -> !ttg.memdesc<1xi64, #{{.*}}, #ttng.shared_cluster_memory, mutable>
// CHECK: ttng.arrive_barrier %[[R1]], 1, %[[FREED]] {kiln.warps_per_arrival = 4 : i32}
// CHECK: %[[R0:.*]] = ttng.map_to_remote_buffer %[[FREE]], %[[RANK]]
// CHECK: ttng.arrive_barrier %[[R0]], 1, %[[FREED]] {kiln.warps_per_arrival = 4 : i32}
// CHECK: %[[EMPTY:.*]] = ttg.memdesc_index %[[E]][%[[FILL]]]
// CHECK: ttng.wait_barrier %[[EMPTY]], %[[EPHASE]], %[[PRED]]
// CHECK: ttng.async_tma_copy_global_to_local %arg0[{{.*}}] {{.*}} {multicast}
// CHECK: ttng.async_tma_copy_global_to_local %arg1[{{.*}}] {{.*}} : !tt.tensordesc
// CHECK: %[[WRAPS:.*]] = arith.cmpi eq, %[[NEXTFILL]], %c0_i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[EPHASE]], %{{.*}}
// CHECK: %[[NEXTE:.*]] = arith.select %[[WRAPS]], %[[FLIP]], %[[EPHASE]]
// CHECK: scf.yield {{.*}}, %[[NEXTFILL]], {{.*}}, %[[NEXTE]]
// CHECK-COUNT-4: ttng.inval_barrier
// CHECK-COUNT-4: ttng.inval_barrier
// CHECK-NOT: ttng.inval_barrier
// CHECK: ttg.local_dealloc %[[E]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[0, 0]]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[0, 1]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 1]], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @multicast_a(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<64x256xf16, #shared1>>, %row: i32, %col: i32, %K: i32) -> tensor<128x256xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %acc = scf.for %k = %c0_i32 to %K step %c64_i32 iter_args(%acc_in = %zero) -> (tensor<128x256xf32, #mma>)  : i32 {
      %x = tt.descriptor_load %a[%row, %k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %y = tt.descriptor_load %b[%k, %col] : !tt.tensordesc<tensor<64x256xf16, #shared1>> -> tensor<64x256xf16, #blocked1>
      %ys = ttg.local_alloc %y : (tensor<64x256xf16, #blocked1>) -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %ys, %acc_in {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %acc : tensor<128x256xf32, #mma>
  }
}

// -----

// Four CTAs, the product split 2 x 2: A's copies are shared by the two CTAs
// of a row (rank bit 1), B's by the two of a column (bit 0). A CTA's slots
// are written by its row and its column, never by the CTA across the
// diagonal: three CTAs free each slot (rank, rank ^ 1, rank ^ 2), not four.
// CHECK-LABEL: tt.func public @multicast_both
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier %{{.*}}, 1 :
// CHECK: %[[E:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK-COUNT-4: ttng.init_barrier %{{.*}}, 3 :
// CHECK: %[[RANK:.*]] = ttng.cluster_cta_rank : i32
// CHECK-DAG: %[[ROW:.*]] = arith.xori %[[RANK]], %c2_i32 : i32
// CHECK-DAG: %[[COL:.*]] = arith.xori %[[RANK]], %c1_i32 : i32
// CHECK: ttng.async_tma_copy_global_to_local %arg0[{{.*}}] {{.*}} {multicast}
// CHECK: ttng.async_tma_copy_global_to_local %arg1[{{.*}}] {{.*}} {multicast}
// CHECK: scf.for
// CHECK: %[[FREE:.*]] = ttg.memdesc_index %[[E]]
// CHECK: ttng.map_to_remote_buffer %[[FREE]], %[[ROW]]
// CHECK: ttng.map_to_remote_buffer %[[FREE]], %[[RANK]]
// CHECK: ttng.map_to_remote_buffer %[[FREE]], %[[COL]]
// CHECK-NOT: ttng.map_to_remote_buffer
// CHECK: ttng.wait_barrier
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0], [0, 0]]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[0, 0], [0, 1]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0], [0, 1]], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0], [0, 0]]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0], [0, 1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @multicast_both(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<64x256xf16, #shared1>>, %row: i32, %col: i32, %K: i32) -> tensor<128x256xf32, #mma> {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %acc = scf.for %k = %c0_i32 to %K step %c64_i32 iter_args(%acc_in = %zero) -> (tensor<128x256xf32, #mma>)  : i32 {
      %x = tt.descriptor_load %a[%row, %k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %y = tt.descriptor_load %b[%k, %col] : !tt.tensordesc<tensor<64x256xf16, #shared1>> -> tensor<64x256xf16, #blocked1>
      %ys = ttg.local_alloc %y : (tensor<64x256xf16, #blocked1>) -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %ys, %acc_in {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %acc : tensor<128x256xf32, #mma>
  }
}
