// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm -split-input-file %s | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// 64 bins from 512 masked values in 4 warps. Per register (4 per thread):
// one ballot of "counts" (in range and unmasked), one per bin bit (6);
// lane l owns bins l and l + 32 and ANDs, per bin, the ballots (or their
// complements) that match the bin's bits; a popcount per bin. Then the
// 64 i32 counters in scratch (256 bytes) are zeroed, a barrier, each warp
// adds its counts (lane-strided, conflict-free), a barrier, and every
// thread reads the bin of its result register.
// CHECK: ttg.shared = 256
// CHECK-LABEL: llvm.func @masked_bins(
// CHECK-COUNT-7: nvvm.vote.sync ballot
// CHECK: llvm.intr.ctpop
// CHECK: llvm.intr.ctpop
// CHECK-NOT: llvm.intr.ctpop
// CHECK-COUNT-7: nvvm.vote.sync ballot
// CHECK-COUNT-2: llvm.intr.ctpop
// CHECK-COUNT-7: nvvm.vote.sync ballot
// CHECK-COUNT-2: llvm.intr.ctpop
// CHECK-COUNT-7: nvvm.vote.sync ballot
// CHECK-COUNT-2: llvm.intr.ctpop
// CHECK-NOT: nvvm.vote.sync
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: %[[HI:.*]] = llvm.add %{{.*}}, %{{.*}}32
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @masked_bins(%x: tensor<512xi32, #b4>, %m: tensor<512xi1, #b4>, %out: tensor<64x!tt.ptr<i32>, #b1>) {
    %h = tt.histogram %x, %m : tensor<512xi32, #b4> -> tensor<64xi32, #b1>
    tt.store %out, %h : tensor<64x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// The "counts" ballot: a value counts when it has no bit at or above
// log2(bins) (so negatives and values >= 16 do not), and only lanes with no
// free lane bit: 16 values over 32 lanes put lanes 16..31 on copies, so
// the ballot is ANDed with 0xFFFF. 16 bins pad to 32 (one per lane), 4 bin
// bits, all lane bits. Warps 1..3 repeat warp 0 (free warp bits): only
// one distinct warp, so warp 0 just stores its counts, no zeroing and no
// atomics, one barrier; results read as 16-byte vectors.
// CHECK: ttg.shared = 128
// CHECK-LABEL: llvm.func @copies(
// CHECK: %[[HIGH:.*]] = llvm.mlir.constant(-16 : i32)
// CHECK: %[[ABOVE:.*]] = llvm.and %{{.*}}, %[[HIGH]]
// CHECK: %[[IN:.*]] = llvm.icmp "eq" %[[ABOVE]]
// CHECK: %[[B:.*]] = nvvm.vote.sync ballot %{{.*}}, %[[IN]] -> i32
// CHECK: %[[LANES:.*]] = llvm.mlir.constant(65535 : i32)
// CHECK: llvm.and %[[B]], %[[LANES]]
// CHECK-COUNT-4: nvvm.vote.sync ballot
// CHECK-NOT: nvvm.vote.sync
// CHECK: llvm.intr.ctpop
// CHECK-NOT: llvm.intr.ctpop
// CHECK: %[[WARPBITS:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
// CHECK: %[[WARP0:.*]] = llvm.icmp "eq" %[[WARPBITS]]
// CHECK: llvm.cond_br %[[WARP0]]
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.atomicrmw
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
#src = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copies(%x: tensor<16xi32, #src>, %out: tensor<16x!tt.ptr<i32>, #dst>) {
    %h = tt.histogram %x : tensor<16xi32, #src> -> tensor<16xi32, #dst>
    tt.store %out, %h : tensor<16x!tt.ptr<i32>, #dst>
    tt.return
  }
}
