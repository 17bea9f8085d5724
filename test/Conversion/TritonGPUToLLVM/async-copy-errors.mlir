// RUN: kiln-opt --llir-allocate-shared-memory --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// Masked-off elements are zero-filled by cp.async: any other `other` is an
// error, as in Triton.
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @nonzero_other(%ptrs: tensor<128x!tt.ptr<f32>, #b>, %m: tensor<128xi1, #b>) {
    %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #b>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    // expected-error @+1 {{op 'ttg.async_copy_global_to_local' cannot be lowered to LLVM: masked-off elements are zero-filled, so `other` must be a zero constant}}
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %m other %one : tensor<128x!tt.ptr<f32>, #b> -> <128xf32, #s, #smem, mutable>
    tt.return
  }
}

// -----

// -0.0 is not the fill either.
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @negative_zero_other(%ptrs: tensor<128x!tt.ptr<f32>, #b>, %m: tensor<128xi1, #b>) {
    %nz = arith.constant dense<-0.000000e+00> : tensor<128xf32, #b>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    // expected-error @+1 {{`other` must be a zero constant}}
    %t = ttg.async_copy_global_to_local %ptrs, %buf mask %m other %nz : tensor<128x!tt.ptr<f32>, #b> -> <128xf32, #s, #smem, mutable>
    tt.return
  }
}

// -----

// cp.async is sm_80's; fence.proxy.async sm_90's.
#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:75"} {
  tt.func public @old_target(%ptrs: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128xf32, #s, #smem, mutable>
    // expected-error @+1 {{op 'ttg.async_copy_global_to_local' cannot be lowered to LLVM: cp.async needs sm_80}}
    %t = ttg.async_copy_global_to_local %ptrs, %buf : tensor<128x!tt.ptr<f32>, #b> -> <128xf32, #s, #smem, mutable>
    // expected-error @+1 {{op 'ttg.async_commit_group' cannot be lowered to LLVM: cp.async needs sm_80}}
    %g = ttg.async_commit_group tokens %t
    // expected-error @+1 {{op 'ttg.async_wait' cannot be lowered to LLVM: cp.async needs sm_80}}
    %w = ttg.async_wait %g {num = 0 : i32}
    // expected-error @+1 {{op 'ttng.fence_async_shared' cannot be lowered to LLVM: fence.proxy.async needs sm_90}}
    ttng.fence_async_shared {bCluster = false}
    tt.return
  }
}

// -----

// One f16 per thread and pointers of unknown alignment: 2 bytes, under
// cp.async's smallest copy.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @too_narrow(%ptrs: tensor<32x!tt.ptr<f16>, #b>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32xf16, #s, #smem, mutable>
    // expected-error @+1 {{op 'ttg.async_copy_global_to_local' cannot be lowered to LLVM: cp.async copies 4, 8 or 16 bytes, but only 1 element(s) of 16 bits are consecutive in both the pointers and the buffer}}
    %t = ttg.async_copy_global_to_local %ptrs, %buf : tensor<32x!tt.ptr<f16>, #b> -> <32xf16, #s, #smem, mutable>
    tt.return
  }
}
