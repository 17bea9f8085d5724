// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm -split-input-file %s \
// RUN:   | FileCheck %s
// RUN: kiln-opt --llir-allocate-shared-memory -split-input-file %s | FileCheck %s --check-prefix=ALLOC

// A program of two CTAs (a cluster): its index is the cluster's, each CTA
// computes the coordinates of its half (the block basis, 512, applied to
// the CTA's rank), and the kernel requires the cluster shape.
// CHECK-LABEL: llvm.func @halves
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: nvvm.read.ptx.sreg.clusterid.x
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[BIT:.*]] = llvm.and %[[RANK]], %{{.*}}
// CHECK: %[[SET:.*]] = llvm.icmp "ne" %[[BIT]]
// CHECK: %[[HALF:.*]] = llvm.mlir.constant(512 : i32)
// CHECK: llvm.select %[[SET]], %[[HALF]]
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @halves(%out: !tt.ptr<i32>) {
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %base = tt.splat %pid : i32 -> tensor<1024xi32, #b>
    %v = arith.addi %r, %base : tensor<1024xi32, #b>
    %p = tt.splat %out : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #b>
    %ptrs = tt.addptr %p, %r : tensor<1024x!tt.ptr<i32>, #b>, tensor<1024xi32, #b>
    tt.store %ptrs, %v : tensor<1024x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// Both CTAs hold the whole tensor (a zero block basis): only CTA 0 stores.
// CHECK-LABEL: llvm.func @copies
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[BIT:.*]] = llvm.and %[[RANK]], %[[ONE]]
// CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[BIT]]
// CHECK: "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copies(%p: tensor<128x!tt.ptr<i32>, #b>, %v: tensor<128xi32, #b>) {
    tt.store %p, %v : tensor<128x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// A scalar: thread 0 of CTA 0 stores it; num_programs counts clusters.
// CHECK-LABEL: llvm.func @scalar
// CHECK: nvvm.read.ptx.sreg.nclusterid.x
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: st.global.b32
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar(%p: !tt.ptr<i32>) {
    %n = tt.get_num_programs x : i32
    tt.store %p, %n : !tt.ptr<i32>
    tt.return
  }
}

// -----

// A row reduction whose rows are split over the CTAs (not their columns):
// each CTA reduces its 32 rows alone, through the scratch of its own tile
// (32 rows x 4 warps x 4 bytes), and stores its 32 sums: no other CTA
// holds them, so the CTA's rank plays no part.
// ALLOC: ttg.shared = 512
// ALLOC-NEXT: tt.func public @row_sums
// CHECK-LABEL: llvm.func @row_sums
// CHECK: nvvm.shfl.sync bfly
// CHECK-NOT: cluster.ctarank
// CHECK: st.global
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @row_sums(%v: tensor<64x128xf32, #b>, %p: tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>) {
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #b>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #b}>>
    tt.store %p, %s : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #b}>>
    tt.return
  }
}

// -----

// Rows split over the CTAs to columns split over them: each CTA stores its
// 32x128 tile in its scratch (16 KiB), a cluster barrier, then each element
// is loaded from the scratch of the CTA holding it (mapa: a
// shared::cluster address), and a cluster barrier before the scratch is
// reused.
// ALLOC: ttg.shared = 16384
// ALLOC-NEXT: tt.func public @across
// CHECK-LABEL: llvm.func @across
// CHECK: llvm.store
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: nvvm.read.ptx.sreg.cluster.ctarank
// CHECK: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.load %[[REMOTE]] {alignment = 4 : i64} : !llvm.ptr<7> -> i32
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
#split0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[1, 0]]}>
#split1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[0, 1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @across(%v: tensor<64x128xi32, #split0>, %p: tensor<64x128x!tt.ptr<i32>, #split1>) {
    %c = ttg.convert_layout %v : tensor<64x128xi32, #split0> -> tensor<64x128xi32, #split1>
    tt.store %p, %c : tensor<64x128x!tt.ptr<i32>, #split1>
    tt.return
  }
}

// -----

// Both CTAs hold the whole tile (a zero block basis), as operand A of a
// product split along N: each CTA copies it into its own buffer, so the
// copies do not depend on the CTA's rank (once per cluster would leave one
// CTA's buffer empty).
// CHECK-LABEL: llvm.func @copy_to_each_cta
// CHECK-NOT: cluster.ctarank
// CHECK: nvvm.cp.async.shared.global
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0]]}>
#s = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copy_to_each_cta(%ptrs: tensor<64x32x!tt.ptr<f16>, #b> {tt.contiguity = 8 : i32, tt.divisibility = 16 : i32}) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #s, #smem, mutable>
    %t = ttg.async_copy_global_to_local %ptrs, %buf {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #b> -> <64x32xf16, #s, #smem, mutable>
    %g = ttg.async_commit_group tokens %t
    tt.return
  }
}
