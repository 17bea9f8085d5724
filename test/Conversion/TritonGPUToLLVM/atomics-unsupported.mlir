// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// Kinds and element types without a PTX atom are located errors, found
// before anything is converted.
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @float_max(%p: tensor<128x!tt.ptr<f32>, #b1>, %v: tensor<128xf32, #b1>) {
    // expected-error @+1 {{op 'tt.atomic_rmw' cannot be lowered to LLVM: atomic max of f32 is not a PTX atom (max takes 32- or 64-bit integers)}}
    %0 = tt.atomic_rmw max, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<f32>, #b1>, tensor<128xf32, #b1>) -> tensor<128xf32, #b1>
    tt.return
  }
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @float_add(%p: !tt.ptr<f32>, %v: f32) {
    // expected-error @+1 {{atomic add of f32 is not a PTX atom (add takes 32- or 64-bit integers; floats use fadd)}}
    %0 = tt.atomic_rmw add, relaxed, gpu, %p, %v : (!tt.ptr<f32>, f32) -> f32
    tt.return
  }
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @short_and(%p: tensor<128x!tt.ptr<i16>, #b1>, %v: tensor<128xi16, #b1>) {
    // expected-error @+1 {{atomic and of i16 is not a PTX atom (and takes 32- or 64-bit integers)}}
    %0 = tt.atomic_rmw and, relaxed, gpu, %p, %v : (tensor<128x!tt.ptr<i16>, #b1>, tensor<128xi16, #b1>) -> tensor<128xi16, #b1>
    tt.return
  }
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @short_exch(%p: tensor<128x!tt.ptr<f16>, #b1>, %v: tensor<128xf16, #b1>) {
    // expected-error @+1 {{atomic exch of f16 is not a PTX atom (exch takes 32- or 64-bit values)}}
    %0 = tt.atomic_rmw exch, relaxed, gpu, %p, %v : (tensor<128x!tt.ptr<f16>, #b1>, tensor<128xf16, #b1>) -> tensor<128xf16, #b1>
    tt.return
  }
}

// -----

// bf16 atom.add needs sm_90 (Triton falls back to a compare-and-swap loop
// below it; kiln does not yet).
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bf16_add80(%p: tensor<128x!tt.ptr<bf16>, #b1>, %v: tensor<128xbf16, #b1>) {
    // expected-error @+1 {{op 'tt.atomic_rmw' cannot be lowered to LLVM: atomic fadd of bf16 needs sm_90}}
    %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<128x!tt.ptr<bf16>, #b1>, tensor<128xbf16, #b1>) -> tensor<128xbf16, #b1>
    tt.return
  }
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @byte_cas(%p: tensor<128x!tt.ptr<i8>, #b1>, %v: tensor<128xi8, #b1>) {
    // expected-error @+1 {{op 'tt.atomic_cas' cannot be lowered to LLVM: atomic cas of i8 is not a PTX atom (cas takes 32- or 64-bit values, 16-bit from sm_70)}}
    %0 = tt.atomic_cas acq_rel, gpu, %p, %v, %v : (tensor<128x!tt.ptr<i8>, #b1>, tensor<128xi8, #b1>, tensor<128xi8, #b1>) -> tensor<128xi8, #b1>
    tt.return
  }
}
