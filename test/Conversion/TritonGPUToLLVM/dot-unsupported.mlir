// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// Dots that have no mma.sync or FMA lowering are located errors, found
// before anything is converted.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#A = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>
#B = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_on_sm80(%a: tensor<32x32xf8E4M3FN, #A>, %b: tensor<32x32xf8E4M3FN, #B>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{op 'tt.dot' cannot be lowered to LLVM: mma.sync on fp8 (e4m3, e5m2) needs sm_89 or newer, the target is sm_80}}
    %d = tt.dot %a, %b, %c : tensor<32x32xf8E4M3FN, #A> * tensor<32x32xf8E4M3FN, #B> -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#A = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#B = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ieee_f32(%a: tensor<32x16xf32, #A>, %b: tensor<16x32xf32, #B>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{an ieee f32 dot cannot use tensor cores; give it a #ttg.blocked result layout (the FMA path)}}
    %d = tt.dot %a, %b, %c : tensor<32x16xf32, #A> * tensor<16x32xf32, #B> -> tensor<32x32xf32, #mma>
    tt.return
  }
  tt.func public @tf32x3(%a: tensor<32x16xf32, #A>, %b: tensor<16x32xf32, #B>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{inputPrecision = tf32x3 is split into three tf32 dots before the llir stage}}
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<32x16xf32, #A> * tensor<16x32xf32, #B> -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

// A and B disagree on which lanes hold which K: no instruction fits.
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#A = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#B = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 4}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kwidths(%a: tensor<32x32xf16, #A>, %b: tensor<32x32xf16, #B>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{lane bit 0 moves B by (4, 0); mma.sync's fragment needs (2, 0)}}
    %d = tt.dot %a, %b, %c : tensor<32x32xf16, #A> * tensor<32x32xf16, #B> -> tensor<32x32xf32, #mma>
    tt.return
  }
  tt.func public @k_too_small(%a: tensor<32x8xf16, #A>, %b: tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %c: tensor<32x32xf32, #mma>) {
    // expected-error @+1 {{one mma.sync needs 16 (is K smaller than the instruction?)}}
    %d = tt.dot %a, %b, %c : tensor<32x8xf16, #A> * tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<32x32xf32, #mma>
    tt.return
  }
}

// -----

// The FMA path needs operands of the result's element type (Triton casts
// them before), and the dot_op layouts of the result's blocked layout.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @mixed(%a: tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>>, %b: tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{an FMA dot needs A and B of the result's element type}}
    %d = tt.dot %a, %b, %c : tensor<32x8xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked}>> * tensor<8x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return
  }
  tt.func public @other_parent(%a: tensor<32x8xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>, %b: tensor<8x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %c: tensor<32x32xf32, #blocked>) {
    // expected-error @+1 {{A and B need #ttg.dot_op layouts (opIdx 0 and 1) whose parent is the result's layout}}
    %d = tt.dot %a, %b, %c : tensor<32x8xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>> * tensor<8x32xf32, #ttg.dot_op<{opIdx = 1, parent = #blocked}>> -> tensor<32x32xf32, #blocked>
    tt.return
  }
}
