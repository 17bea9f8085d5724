// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// Rounding to fp8 needs sm_89's cvt; toward zero, e5m2 is the high byte of
// an f16 on any target.
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @to_fp8_sm80(%x: tensor<64xf16, #blocked>, %p: tensor<64x!tt.ptr<f8E5M2>, #blocked>) {
    // expected-error @+1 {{op 'tt.fp_to_fp' cannot be lowered to LLVM: converting to 'f8E5M2' needs sm_89 or later (cvt to fp8); this is sm_80}}
    %0 = tt.fp_to_fp %x, rounding = rtne : tensor<64xf16, #blocked> -> tensor<64xf8E5M2, #blocked>
    tt.store %p, %0 : tensor<64x!tt.ptr<f8E5M2>, #blocked>
    %1 = tt.fp_to_fp %x, rounding = rtz : tensor<64xf16, #blocked> -> tensor<64xf8E5M2, #blocked>
    tt.store %p, %1 : tensor<64x!tt.ptr<f8E5M2>, #blocked>
    tt.return
  }
}

