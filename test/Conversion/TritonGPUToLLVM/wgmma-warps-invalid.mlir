// RUN: kiln-opt --llir-allocate-shared-memory --llir-convert-to-llvm -verify-diagnostics %s

// A version-3 layout with fewer than four warps along M parses (tensors
// may be converted to and from it, convert-layout.mlir), but wgmma cannot
// compute in it: its lowering says why.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @two_warps_along_m(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x64xf16, #shared1, #smem>, %c: tensor<64x64xf32, #mma>, %out: !tt.ptr<f32>) {
    // expected-error @+2 {{the warps of a warp group must own consecutive 16-row slices}}
    // expected-error @+1 {{failed to legalize operation 'ttng.warp_group_dot'}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
