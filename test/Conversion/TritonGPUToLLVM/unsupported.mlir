// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// A reduction of pointers is a located error, before anything is
// converted (the plan sizes scratch for numbers only).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pointer_reduce(%x: tensor<128x!tt.ptr<f32>, #blocked>) {
    // expected-error @+1 {{op 'tt.reduce' cannot be lowered to LLVM yet: only integer and floating-point operands are supported}}
    %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>):
      tt.reduce.return %a : !tt.ptr<f32>
    }) : (tensor<128x!tt.ptr<f32>, #blocked>) -> !tt.ptr<f32>
    tt.return
  }
}

// -----

// A scan along an axis whose elements are spread over lanes that are not
// consecutive lane-id bits (lanes 1 and 4 along dimension 1, 2 and 8 along
// dimension 0).
#linear1 = #ttg.linear<{register = [], lane = [[0, 1], [1, 0], [0, 2], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @strided_scan(%x: tensor<32x4xi32, #linear1>) {
    // expected-error @+1 {{op 'tt.scan' cannot be lowered to LLVM yet: a scan along lanes that are not consecutive lane-id bits}}
    %0 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<32x4xi32, #linear1>) -> tensor<32x4xi32, #linear1>
    tt.return
  }
}

// -----

// An op without a lowering yet is named, at its location.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fpowi(%x: tensor<128xf32, #blocked>, %n: tensor<128xi32, #blocked>) {
    // expected-error @+1 {{op 'math.fpowi' cannot be lowered to LLVM yet}}
    %0 = math.fpowi %x, %n : tensor<128xf32, #blocked>, tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // A kernel returns nothing.
  // expected-error @+1 {{op 'tt.func' cannot be lowered to LLVM yet}}
  tt.func public @returns(%x: i32) -> i32 {
    tt.return %x : i32
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @dense() {
    // expected-error @+1 {{op 'arith.constant' cannot be lowered to LLVM yet}}
    %0 = arith.constant dense<[1, 2]> : tensor<2xi32, #blocked>
    tt.return
  }
}

// -----

// Block pointers are rewritten away in the ttir stage of stock Triton; one
// that reaches the lowering is an error (the conversion used to run away).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @block_pointer(%p: !tt.ptr<tensor<128xf32, #blocked>>) {
    // expected-error @+1 {{op 'tt.load' cannot be lowered to LLVM yet}}
    %0 = tt.load %p : !tt.ptr<tensor<128xf32, #blocked>>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_layout() {
    // expected-error @+1 {{op 'tt.make_range' cannot be lowered to LLVM: a tensor without a distributed ttg layout (run the ttgir stage first)}}
    %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    tt.return
  }
}

// -----

// expected-error @+1 {{the LLVM lowering supports ttg.target = "cuda:<cc>" (e.g. "cuda:90"), got "hip:gfx942"}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @amd() {
    tt.return
  }
}

// -----

// fp8 is reached only from f16/bf16/f32, with a rounding mode; toward zero
// only to e5m2 (as Triton 3.6).
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8(%x: tensor<128xf32, #blocked>, %d: tensor<128xf64, #blocked>) {
    // expected-error @+1 {{op 'tt.fp_to_fp' cannot be lowered to LLVM yet}}
    %0 = tt.fp_to_fp %x, rounding = rtz : tensor<128xf32, #blocked> -> tensor<128xf8E4M3FN, #blocked>
    // expected-error @+1 {{op 'tt.fp_to_fp' cannot be lowered to LLVM yet}}
    %1 = tt.fp_to_fp %d, rounding = rtne : tensor<128xf64, #blocked> -> tensor<128xf8E5M2, #blocked>
    tt.return
  }
}
