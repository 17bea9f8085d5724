// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// The buffer of a TMA copy must have the descriptor's nvmma_shared layout.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wrong_swizzle(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %buf: !ttg.memdesc<64x64xf16, #shared64, #smem, mutable>, %bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>, %i: i32, %p: i1) {
    // expected-error @+1 {{the shared buffer of a TMA copy must have the descriptor's layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>}}
    ttng.async_tma_copy_global_to_local %d[%i, %i] %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared64, #smem, mutable>
    tt.return
  }
}

// -----

// A kernel's descriptor argument needs a TMA layout for its tensor map.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{tensor descriptor '!tt.tensordesc<tensor<64x64xf16>>' needs a #ttg.nvmma_shared block encoding for TMA}}
  tt.func public @no_encoding(%d: !tt.tensordesc<tensor<64x64xf16>>, %s0: i32, %s1: i32, %t0: i64, %t1: i64) {
    tt.return
  }
}

// -----

// Below sm_90 there is no TMA.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{tensor descriptor arguments need TMA (cuda:90 or later)}}
  tt.func public @sm80(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %s0: i32, %s1: i32, %t0: i64, %t1: i64) {
    tt.return
  }
}

// -----

// Triton has no TMA increment: cp.reduce.async.bulk.tensor's inc is not
// offered, and an f32 max is not a PTX reduction.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce_kind(%d: !tt.tensordesc<tensor<32x32xf32, #shared>>, %buf: !ttg.memdesc<32x32xf32, #shared, #smem>, %i: i32) {
    // expected-error @+1 {{a TMA 'max' reduction of 'f32' elements has no PTX instruction (cp.reduce.async.bulk.tensor)}}
    ttng.async_tma_reduce max, %d[%i, %i] %buf : !tt.tensordesc<tensor<32x32xf32, #shared>>, !ttg.memdesc<32x32xf32, #shared, #smem>
    tt.return
  }
}

// -----

// Tensor maps are made on the device from sm_90 on.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tensormap_sm80(%map: !tt.ptr<i8>) {
    // expected-error @+1 {{op 'ttng.tensormap_fenceproxy_acquire' needs tensor maps made on the device (cuda:90 or later)}}
    ttng.tensormap_fenceproxy_acquire %map : !tt.ptr<i8>
    tt.return
  }
}
