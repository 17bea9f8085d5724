// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// An op without a lowering yet is named, at its location.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce(%x: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{op 'tt.reduce' cannot be lowered to LLVM yet}}
    %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<128xf32, #blocked>) -> f32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @exp(%x: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{op 'math.exp' cannot be lowered to LLVM yet}}
    %0 = math.exp %x : tensor<128xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{op 'tt.func' cannot be lowered to LLVM yet}}
  tt.func private @device(%x: i32) -> i32 {
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
