// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %s | FileCheck %s
// Again with freed memory overwritten (glibc): the layouts here repeat
// their tiles over the shape, where the layout engine once named the
// repeated input through a reference into a layout it had replaced.
// RUN: env GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=165 \
// RUN:   kiln-opt -split-input-file --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %s | FileCheck %s

// ttg.convert_layout takes the cheapest path the layouts allow
// (kiln/Analysis/ConvertLayoutPlan.h).

// Register permutation: dst registers 1 and 2 are src registers 2 and 1 of
// the same thread; no shuffle, no shared memory, no barrier.
// CHECK-LABEL: llvm.func @registers
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: ptr<3>
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[R0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R2:.*]] = llvm.extractvalue %arg0[2]
// CHECK: %[[R3:.*]] = llvm.extractvalue %arg0[3]
// CHECK: llvm.insertvalue %[[R0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[R2]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[R1]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[R3]], %{{.*}}[3]
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#perm = #ttg.linear<{register = [[2], [1]], lane = [[4], [8], [16], [32], [64]], warp = [[128], [256]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @registers(%x: tensor<512xf32, #b4>, %p: !tt.ptr<f32>) {
    %y = ttg.convert_layout %x : tensor<512xf32, #b4> -> tensor<512xf32, #perm>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #perm>
    tt.store %ptr, %y : tensor<512x!tt.ptr<f32>, #perm>
    tt.return
  }
}

// -----

// Lanes 2k and 2k+1 swap elements inside each warp: one shfl.idx per
// 32-bit half of the i64, from lane id with bits 0 and 1 swapped; no
// shared memory.
// CHECK-LABEL: llvm.func @lanes
// CHECK-NOT: ptr<3>
// CHECK: nvvm.shfl.sync idx
// CHECK: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#lanes = #ttg.linear<{register = [], lane = [[2], [1], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @lanes(%x: tensor<128xi64, #b1>, %p: !tt.ptr<i64>) {
    %y = ttg.convert_layout %x : tensor<128xi64, #b1> -> tensor<128xi64, #lanes>
    %ptr = tt.splat %p : !tt.ptr<i64> -> tensor<128x!tt.ptr<i64>, #lanes>
    tt.store %ptr, %y : tensor<128x!tt.ptr<i64>, #lanes>
    tt.return
  }
}

// -----

// Across warps, through the scratch: a 4096-byte scratch placed after
// the live 8192-byte buffer, the two layouts share 4 consecutive columns
// per thread so both sides move vector<4xf32>, one barrier between the
// stores and the loads, and the swizzle is an XOR of a constant into the
// thread's offset.
// CHECK: ttg.shared = 12288 : i32
// CHECK-LABEL: llvm.func @shared
// CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %{{.*}}[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[SCRATCH]][%[[OFF:.*]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}}, %[[P0]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[SCRATCH]][%[[OFF]]]
// CHECK: %[[P2:.*]] = llvm.getelementptr %[[P1]][512]
// CHECK: llvm.store %{{.*}}, %[[P2]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[Q0:.*]] = llvm.getelementptr %[[SCRATCH]][%[[LOFF:.*]]]
// CHECK-NEXT: llvm.load %[[Q0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement
// CHECK: %[[SW:.*]] = llvm.xor %[[LOFF]], %{{.*}} : i32
// CHECK-NEXT: %[[Q1:.*]] = llvm.getelementptr %[[SCRATCH]][%[[SW]]]
// CHECK-NEXT: llvm.load %[[Q1]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: ptr<3> -> vector
// The local_load of the buffer its allocation wrote waits for it.
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @shared(%x: tensor<32x32xf32, #rows>, %z: tensor<2048xf32, #b1>, %p: !tt.ptr<f32>) {
    %buf = ttg.local_alloc %z : (tensor<2048xf32, #b1>) -> !ttg.memdesc<2048xf32, #s, #smem>
    %y = ttg.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
    %l = ttg.local_load %buf : !ttg.memdesc<2048xf32, #s, #smem> -> tensor<2048xf32, #b1>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #cols>
    tt.store %ptr, %y : tensor<32x32x!tt.ptr<f32>, #cols>
    %ptr2 = tt.splat %p : !tt.ptr<f32> -> tensor<2048x!tt.ptr<f32>, #b1>
    tt.store %ptr2, %l : tensor<2048x!tt.ptr<f32>, #b1>
    tt.return
  }
}

// -----

// When the two layouts share more registers than one 16-byte vector, the
// rest become rounds (a quarter of the tensor in scratch at a time): four
// rounds of two vector stores, barrier, two vector loads, with a barrier
// between rounds.
// CHECK: ttg.shared = 4096 : i32
// CHECK-LABEL: llvm.func @rounds
// CHECK-COUNT-2: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: nvvm.barrier0
// CHECK-COUNT-2: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-4: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @rounds(%x: tensor<64x64xf32, #rows>, %p: !tt.ptr<f32>) {
    %y = ttg.convert_layout %x : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #cols>
    tt.store %ptr, %y : tensor<64x64x!tt.ptr<f32>, #cols>
    tt.return
  }
}

// -----

// Between version-3 tensor-core layouts whose warps split N (Triton's tests
// convert such layouts; wgmma itself needs warp groups along M): through
// shared memory, as between any two layouts that move elements across warps.
// CHECK-LABEL: llvm.func @mma_v3_warps_along_n
// CHECK: llvm.store %{{.*}}, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3>
#mma_n = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 32, 16]}>
#mma_m = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @mma_v3_warps_along_n(%x: tensor<64x128xf16, #mma_n>, %p: !tt.ptr<f16>) {
    %y = ttg.convert_layout %x : tensor<64x128xf16, #mma_n> -> tensor<64x128xf16, #mma_m>
    %ptr = tt.splat %p : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #mma_m>
    tt.store %ptr, %y : tensor<64x128x!tt.ptr<f16>, #mma_m>
    tt.return
  }
}
