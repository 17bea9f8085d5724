// RUN: kiln-opt --llir-convert-to-llvm -split-input-file -verify-diagnostics %s

// In a program of several CTAs each CTA lowers its own tile: an op that
// would move elements between the CTAs of the cluster is a located error,
// found before anything is converted.
#split1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[0, 1]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @split_rows(%v: tensor<64x128xf32, #split1>, %p: tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #split1}>>) {
    // expected-error @+1 {{its axis is split over the CTAs}}
    %s = "tt.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tt.reduce.return %t : f32
    }) : (tensor<64x128xf32, #split1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #split1}>>
    tt.store %p, %s : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 1, parent = #split1}>>
    tt.return
  }
}

// -----

// Both CTAs hold every element: one does the atomic, and the other would
// need the value it returns.
#copies = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @old_values(%p: tensor<128x!tt.ptr<i32>, #copies>, %v: tensor<128xi32, #copies>, %q: tensor<128x!tt.ptr<i32>, #copies>) {
    // expected-error @+1 {{several CTAs hold its elements and would all need the value one atomic returns}}
    %old = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #copies>, tensor<128xi32, #copies>) -> tensor<128xi32, #copies>
    tt.store %q, %old : tensor<128x!tt.ptr<i32>, #copies>
    tt.return
  }
}

// -----

// Clusters are sm_90's.
// expected-error @+1 {{the module cannot be lowered to LLVM: thread-block clusters (num_ctas > 1) need sm_90 or newer; the target is sm_80}}
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @old_gpu() {
    tt.return
  }
}

// -----

// A layout must spread over the module's CTAs (the verifier says so).
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-ctas" = 4 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // expected-error @+1 {{spans 2 CTAs but the module has "ttg.num-ctas" = 4}}
  tt.func public @too_few(%p: tensor<128x!tt.ptr<i32>, #one>) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #one>
    tt.store %p, %r : tensor<128x!tt.ptr<i32>, #one>
    tt.return
  }
}
