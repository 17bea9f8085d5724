// RUN: kiln-opt %s -split-input-file --ttgir-accelerate-matmul | FileCheck %s

// sm_90, operands straight from memory: wgmma with both operands in
// 128-byte-swizzled shared memory, warps along M first.
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @wgmma_f16
// CHECK: %[[A:.*]] = ttg.local_alloc %arg0 : (tensor<128x64xf16, #{{.*}}>) -> !ttg.memdesc<128x64xf16, #[[SA]], #smem>
// CHECK: %[[B:.*]] = ttg.local_alloc %arg1 : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16, #[[SB]], #smem>
// CHECK: %[[C:.*]] = ttg.convert_layout %arg2 : {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[D:.*]] = ttng.warp_group_dot %[[A]], %[[B]], %[[C]] :
// CHECK: ttg.convert_layout %[[D]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{.*}}>
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_f16(%a: tensor<128x64xf16, #a>, %b: tensor<64x128xf16, #b>, %c: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    tt.return %d : tensor<128x128xf32, #c>
  }
}

// -----

// The second product of attention: its A (P) is computed in registers and
// goes in the register dot_op layout; a chained dot puts every warp on M.
// tf32 cannot be transposed by wgmma: both operands K-major.
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[MMA32:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>
// CHECK-DAG: #[[KMAJ:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
// CHECK-LABEL: tt.func @attention_like
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf32, #[[MMA32]]>
// CHECK: %[[P:.*]] = arith.truncf
// CHECK: %[[PA:.*]] = ttg.convert_layout %[[P]] : {{.*}} -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// CHECK: ttng.warp_group_dot %[[PA]], {{.*}} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * !ttg.memdesc<64x64xf16
#l = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @attention_like(%q: tensor<64x64xf32, #l>, %k: tensor<64x64xf32, #l>, %v: tensor<64x64xf16, #l>, %z: tensor<64x64xf32, #l>) -> tensor<64x64xf32, #l> {
    %s = tt.dot %q, %k, %z, inputPrecision = tf32 : tensor<64x64xf32, #l> * tensor<64x64xf32, #l> -> tensor<64x64xf32, #l>
    %p = arith.truncf %s : tensor<64x64xf32, #l> to tensor<64x64xf16, #l>
    %o = tt.dot %p, %v, %z : tensor<64x64xf16, #l> * tensor<64x64xf16, #l> -> tensor<64x64xf32, #l>
    tt.return %o : tensor<64x64xf32, #l>
  }
}

// -----

// sm_80: mma.sync with register operands, warps balanced between M and N;
// i8 operands hold 4 consecutive K elements per register.
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @mma_sync_i8
// CHECK: ttg.convert_layout %arg0 : {{.*}} -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 4}>>
// CHECK: ttg.convert_layout %arg1 : {{.*}} -> tensor<64x64xi8, #ttg.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 4}>>
// CHECK: tt.dot {{.*}} -> tensor<64x64xi32, #[[MMA]]>
// f32 with ieee precision stays on the FMA path.
// CHECK-LABEL: tt.func @fma_f32
// CHECK: tt.dot %arg0, %arg1, %arg2 : tensor<32x32xf32, #{{.*}}> * tensor<32x32xf32, #{{.*}}> -> tensor<32x32xf32, #{{.*}}>
// CHECK-NOT: nvidia_mma
#l = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @mma_sync_i8(%a: tensor<64x64xi8, #l>, %b: tensor<64x64xi8, #l>, %c: tensor<64x64xi32, #l>) -> tensor<64x64xi32, #l> {
    %d = tt.dot %a, %b, %c : tensor<64x64xi8, #l> * tensor<64x64xi8, #l> -> tensor<64x64xi32, #l>
    tt.return %d : tensor<64x64xi32, #l>
  }
  tt.func @fma_f32(%a: tensor<32x32xf32, #l>, %b: tensor<32x32xf32, #l>, %c: tensor<32x32xf32, #l>) -> tensor<32x32xf32, #l> {
    %d = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<32x32xf32, #l> * tensor<32x32xf32, #l> -> tensor<32x32xf32, #l>
    tt.return %d : tensor<32x32xf32, #l>
  }
}

// -----

// fp8 needs sm_89 for mma.sync; on sm_80 the dot is left alone. M = 32 is
// too few rows for wgmma's 64, so sm_90 also uses mma.sync for it.
// CHECK-LABEL: tt.func @fp8_sm80
// CHECK-NOT: nvidia_mma
#l = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @fp8_sm80(%a: tensor<64x64xf8E4M3FN, #l>, %b: tensor<64x64xf8E4M3FN, #l>, %c: tensor<64x64xf32, #l>) -> tensor<64x64xf32, #l> {
    %d = tt.dot %a, %b, %c : tensor<64x64xf8E4M3FN, #l> * tensor<64x64xf8E4M3FN, #l> -> tensor<64x64xf32, #l>
    tt.return %d : tensor<64x64xf32, #l>
  }
}

// -----

// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @small_m_sm90
// CHECK: tt.dot {{.*}} -> tensor<32x64xf32, #[[MMA]]>
#l = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @small_m_sm90(%a: tensor<32x64xbf16, #l>, %b: tensor<64x64xbf16, #l>, %c: tensor<32x64xf32, #l>) -> tensor<32x64xf32, #l> {
    %d = tt.dot %a, %b, %c : tensor<32x64xbf16, #l> * tensor<64x64xbf16, #l> -> tensor<32x64xf32, #l>
    tt.return %d : tensor<32x64xf32, #l>
  }
}

// -----

// f16 accumulators: wgmma for f16 (and fp8) operands on sm_90, as Triton
// does. Mixed fp8 operands take no tensor core: the FMA lowering computes
// in f32, the operands converted first.
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func @f16_accumulator
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<64x64xf16, #[[MMA]]>
// CHECK-LABEL: tt.func @mixed_fp8
// CHECK: %[[A:.*]] = tt.fp_to_fp %arg0 : tensor<64x64xf8E4M3FN, #{{[a-z0-9]+}}> -> tensor<64x64xf32,
// CHECK: %[[B:.*]] = tt.fp_to_fp %arg1 : tensor<64x64xf8E5M2, #{{[a-z0-9]+}}> -> tensor<64x64xf32,
// CHECK: tt.dot %[[A]], %[[B]], %arg2 : tensor<64x64xf32, #{{[a-z0-9]+}}> * tensor<64x64xf32, #{{[a-z0-9]+}}> -> tensor<64x64xf32, #{{[a-z0-9]+}}>
#l = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @f16_accumulator(%a: tensor<64x64xf16, #l>, %b: tensor<64x64xf16, #l>, %c: tensor<64x64xf16, #l>) -> tensor<64x64xf16, #l> {
    %d = tt.dot %a, %b, %c : tensor<64x64xf16, #l> * tensor<64x64xf16, #l> -> tensor<64x64xf16, #l>
    tt.return %d : tensor<64x64xf16, #l>
  }
  tt.func @mixed_fp8(%a: tensor<64x64xf8E4M3FN, #l>, %b: tensor<64x64xf8E5M2, #l>, %c: tensor<64x64xf32, #l>) -> tensor<64x64xf32, #l> {
    %d = tt.dot %a, %b, %c : tensor<64x64xf8E4M3FN, #l> * tensor<64x64xf8E5M2, #l> -> tensor<64x64xf32, #l>
    tt.return %d : tensor<64x64xf32, #l>
  }
}

// -----

// A program of 2 CTAs whose result is split along N: the accumulator keeps
// the split, the instruction covers one CTA's 64 columns, A is whole in
// each CTA and B split along N (its shared buffer too).
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {{\[\[}}0, 1]], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[SA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 0]]}>
// CHECK-DAG: #[[SB:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK-LABEL: tt.func @wgmma_cluster
// CHECK: ttg.local_alloc %arg0 : (tensor<128x64xf16, #{{.*}}>) -> !ttg.memdesc<128x64xf16, #[[SA]], #smem>
// CHECK: ttg.local_alloc %arg1 : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16, #[[SB]], #smem>
// CHECK: ttng.warp_group_dot {{.*}} -> tensor<128x128xf32, #[[MMA]]>
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0]]}>
#b = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1], CGALayout = [[0, 1]]}>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @wgmma_cluster(%a: tensor<128x64xf16, #a>, %b: tensor<64x128xf16, #b>, %c: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    %d = tt.dot %a, %b, %c : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    tt.return %d : tensor<128x128xf32, #c>
  }
}

// -----

// Whether wgmma can take a product is judged on the part of the result one
// CTA computes, as Triton judges it: a 256x128 result split along M over 8
// CTAs leaves each 32 rows, fewer than a warp group's 64, so mma.sync
// computes it (with the split), not wgmma.
// CHECK-DAG: #[[MMA2:.*]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], CGALayout = {{\[\[}}1, 0], [2, 0], [4, 0]], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @rows_per_cta
// CHECK-NOT: ttng.warp_group_dot
// CHECK: tt.dot {{.*}} -> tensor<256x128xf32, #[[MMA2]]>
#c = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0], [2, 0], [4, 0]]}>
module attributes {"ttg.num-ctas" = 8 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @rows_per_cta(%a: tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #c}>>, %b: tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #c}>>, %c: tensor<256x128xf32, #c>) -> tensor<256x128xf32, #c> {
    %d = tt.dot %a, %b, %c : tensor<256x64xf16, #ttg.dot_op<{opIdx = 0, parent = #c}>> * tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #c}>> -> tensor<256x128xf32, #c>
    tt.return %d : tensor<256x128xf32, #c>
  }
}

// -----

// A dot no tensor core takes (32 rows of fp8 with an f16 result: too few
// rows for wgmma, and mma.sync's fp8 accumulates in f32 only) stays on the
// FMA lowering, which computes in the result's type: its fp8 operands are
// converted to f16 first, as Triton does.
// CHECK-LABEL: tt.func @fma_fp8
// CHECK: %[[A:.*]] = tt.fp_to_fp %{{.*}} : tensor<32x32xf8E5M2, {{.*}}> -> tensor<32x32xf16,
// CHECK: %[[B:.*]] = tt.fp_to_fp %{{.*}} : tensor<32x32xf8E5M2, {{.*}}> -> tensor<32x32xf16,
// CHECK: tt.dot %[[A]], %[[B]], %{{.*}} : tensor<32x32xf16, {{.*}}> * tensor<32x32xf16, {{.*}}> -> tensor<32x32xf16,
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @fma_fp8(%a: tensor<32x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<32x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf16, #blocked>) -> tensor<32x32xf16, #blocked> {
    %d = tt.dot %a, %b, %c : tensor<32x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<32x32xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf16, #blocked>
    tt.return %d : tensor<32x32xf16, #blocked>
  }
}
