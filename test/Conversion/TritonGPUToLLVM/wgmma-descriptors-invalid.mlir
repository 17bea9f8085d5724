// RUN: kiln-opt %s -split-input-file -verify-diagnostics --llir-allocate-shared-memory --llir-convert-to-llvm

// Shared layouts no wgmma descriptor reads are located errors, not wrong
// products.
// A row-major B 64 columns wide: its K rows are 128 bytes apart, not the
// 16 of a core matrix, and no swizzle fits it either.
#a = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unreadable(%c: tensor<64x64xf32, #mma>, %out: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #a, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #b, #smem, mutable>
    %true = arith.constant true
    // expected-error @+2 {{the shared layout of operand B is not one a wgmma descriptor can read}}
    // expected-error @+1 {{failed to legalize operation 'ttng.warp_group_dot'}}
    %d = ttng.warp_group_dot %a, %b, %c, %true {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #a, #smem, mutable> * !ttg.memdesc<64x64xf16, #b, #smem, mutable> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// A swizzle needs the buffer to start at its pattern (8 rows of 128 bytes
// here); a shared_linear buffer aligned to 16 bytes only cannot use one.
#a = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0]]}, alignment = 16>
#b = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @misaligned_swizzle(%c: tensor<64x64xf32, #mma>, %out: !tt.ptr<f32>) {
    %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #a, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #b, #smem, mutable>
    %true = arith.constant true
    // expected-error @+2 {{the shared layout of operand A is not one a wgmma descriptor can read}}
    // expected-error @+1 {{failed to legalize operation 'ttng.warp_group_dot'}}
    %d = ttng.warp_group_dot %a, %b, %c, %true {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #a, #smem, mutable> * !ttg.memdesc<64x64xf16, #b, #smem, mutable> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
