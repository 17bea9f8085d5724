// RUN: kiln-opt %s -split-input-file --ttgir-accelerate-matmul --llir-allocate-shared-memory --llir-convert-to-llvm | FileCheck %s

// A tf32 product whose B is one 8-column group (N = 8, K-major): one
// m64n8k8 wgmma per K step between the fence and the commit.
// CHECK-LABEL: llvm.func @n8
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @n8(%a: tensor<64x32xf32, #a>, %b: tensor<32x8xf32, #b>, %c: tensor<64x8xf32, #c>, %out: !tt.ptr<f32>) {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf32, #a> * tensor<32x8xf32, #b> -> tensor<64x8xf32, #c>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x8x!tt.ptr<f32>, #c>
    tt.store %p, %d : tensor<64x8x!tt.ptr<f32>, #c>
    tt.return
  }
}

// -----

// f16 operands, B transposed in shared memory (N-major): the descriptors
// of B say so (layout row = imm-trans-b 1), A stays K-major.
// CHECK-LABEL: llvm.func @f16
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @f16(%a: tensor<64x32xf16, #a>, %b: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #c>, %out: !tt.ptr<f32>) {
    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #c>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #c>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #c>
    tt.return
  }
}

// -----

// A use_acc flag known only at run time (Gluon's warpgroup_mma use_acc, a
// fused persistent loop's first step of a tile) is the scale-d predicate
// of the first K step (inline PTX: NVVM's op takes a constant); the others
// accumulate onto it. No select reads the accumulator's registers, which a
// wgmma in flight would own.
// CHECK-LABEL: llvm.func @dynamic_use_acc
// CHECK-SAME: %[[USE:arg[0-9]+]]: i1
// CHECK-NOT: llvm.select
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[FLAG:.*]] = llvm.zext %[[USE]] : i1 to i32
// CHECK: llvm.inline_asm has_side_effects {{.*}}setp.ne.b32 p, $66, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, $64, $65, p, 1, 1, 0, 0;{{.*}}%[[FLAG]] :
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @dynamic_use_acc(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared1, #smem>, %c: tensor<64x64xf32, #mma>, %use: i1, %out: !tt.ptr<f32>) {
    %d = ttng.warp_group_dot %a, %b, %c, %use : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// fp8 products with maxNumImpreciseAcc = 32 over K = 64: wgmma adds them
// with fewer mantissa bits than f32, so each run of 32 K elements (one
// m64n64k32 wgmma) goes to a partial sum started at zero (scale-d 0), and
// once it has retired, into the accumulator by one f32 add a register (32
// here), as Triton does; a run-time use_acc selects C for the first run.
// CHECK-LABEL: llvm.func @fp8_partial_sums
// CHECK-SAME: %[[USE:arg[0-9]+]]: i1
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects {{.*}}setp.ne.b32 p, ${{[0-9]+}}, 0;{{.*}}wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-32: llvm.select %[[USE]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-32: llvm.fadd
// CHECK-NOT: llvm.select
// CHECK: llvm.return
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @fp8_partial_sums(%a: !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem>, %b: !ttg.memdesc<64x64xf8E4M3FN, #shared1, #smem>, %c: tensor<64x64xf32, #mma>, %use: i1, %out: !tt.ptr<f32>) {
    %d = ttng.warp_group_dot %a, %b, %c, %use {maxNumImpreciseAcc = 32 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #shared, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared1, #smem> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
