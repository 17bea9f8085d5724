// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Rejected forms of every ttg attribute, type and op, of the module
// attributes, and of the layouts tt ops derive. Each case names the check it
// hits in its diagnostic.

//===----------------------------------------------------------------------===//
// Parsing encodings
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unexpected key 'sizesPerThread' in #ttg.blocked}}
#b = #ttg.blocked<{sizesPerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{#ttg.blocked needs 'order'}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]}>

// -----

// expected-error @+1 {{'sizePerThread' must be an integer, got 1.000000e+00 : f64}}
#b = #ttg.blocked<{sizePerThread = [1.0], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{'warpsPerCTA' must be between 0 and 1073741824, got -4 : i64}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [-4], order = [0]}>

// -----

// expected-error @+1 {{'order' must be a list of integers, got 0 : i64}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = 0}>

// -----

// expected-error @+1 {{every basis of 'CGALayout' must have one entry per dimension (1), got [0, 1]}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[0, 1]]}>

// -----

// expected-error @+1 {{'CGALayout' must be a list of bases, got 1 : i64}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = 1}>

// -----

// expected-error @+1 {{the parent of a #ttg.slice must be a distributed encoding, got #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}}
#s = #ttg.slice<{dim = 0, parent = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{#ttg.slice needs 'dim'}}
#s = #ttg.slice<{parent = #b}>

// -----

// expected-error @+1 {{#ttg.linear needs 'block'}}
#l = #ttg.linear<{register = [], lane = [[1]], warp = []}>

// -----

// expected-error @+1 {{#ttg.linear needs at least one basis to have a rank}}
#l = #ttg.linear<{register = [], lane = [], warp = [], block = []}>

// -----

// expected-error @+1 {{every basis of 'warp' must have one entry per dimension (2), got [1]}}
#l = #ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [[1]], block = []}>

// -----

// expected-error @+1 {{unexpected key 'rows' in #ttg.linear}}
#l = #ttg.linear<{register = [], lane = [[1]], warp = [], block = [], rows = []}>

// -----

// expected-error @+1 {{#ttg.swizzled_shared needs 'maxPhase'}}
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, order = [0]}>

// -----

// expected-error @+1 {{unexpected key 'CTAsPerCGA' in #ttg.swizzled_shared}}
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CTAsPerCGA = [1]}>

// -----

// expected-error @+1 {{#ttg.shared_memory takes no parameters}}
#smem = #ttg.shared_memory<3>

// -----

// expected-error @+1 {{!ttg.async.token takes no parameters}}
tt.func @token_parameters(%t: !ttg.async.token<1>) {
  tt.return
}

//===----------------------------------------------------------------------===//
// Encoding invariants
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank, got 2, 2, 1 and 2}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4], order = [1, 0]}>

// -----

// expected-error @+1 {{threadsPerWarp[0] = 24 is not a power of two}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [24], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{sizePerThread[1] = 0 is not a power of two}}
#b = #ttg.blocked<{sizePerThread = [1, 0], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// -----

// expected-error @+1 {{order must be a permutation of [0, 2), got [1, 1]}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 1]}>

// -----

// expected-error @+1 {{each basis of CGALayout bases must move along at most one dimension, got [1, 1]}}
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 1]]}>

// -----

// expected-error @+1 {{CGALayout bases do not reach every coordinate of dimension 0 below 4}}
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[2]]}>

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{slice dim 2 is out of range for a parent of rank 2}}
#s = #ttg.slice<{dim = 2, parent = #b}>

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{the parent of a #ttg.slice must have rank 2 or more, got 1}}
#s = #ttg.slice<{dim = 0, parent = #b}>

// -----

// expected-error @+1 {{each basis of the #ttg.linear bases must move along at most one dimension, got [1, 1]}}
#l = #ttg.linear<{register = [[1, 1]], lane = [], warp = [], block = []}>

// -----

// expected-error @+1 {{the #ttg.linear bases do not reach every coordinate of dimension 1 below 8}}
#l = #ttg.linear<{register = [[0, 1]], lane = [[0, 4]], warp = [[1, 0]], block = []}>

// -----

// expected-error @+1 {{vec = 3 is not a power of two}}
#s = #ttg.swizzled_shared<{vec = 3, perPhase = 1, maxPhase = 1, order = [0]}>

// -----

// expected-error @+1 {{maxPhase = 0 is not a power of two}}
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 0, order = [0]}>

// -----

// expected-error @+1 {{order must be a permutation of [0, 2), got [0, 2]}}
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 2]}>

//===----------------------------------------------------------------------===//
// !ttg.memdesc
//===----------------------------------------------------------------------===//

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{expected ','}}
tt.func @no_memory_space(%m: !ttg.memdesc<16xf16, #shared>) {
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{memdesc encoding must be a shared-memory encoding, got #ttg.blocked}}
tt.func @distributed_memdesc(%m: !ttg.memdesc<16xf16, #blocked, #smem>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{memdesc memory space must be #ttg.shared_memory (or a back end's shared memory space), got 3 : i32}}
tt.func @bad_memory_space(%m: !ttg.memdesc<16xf16, #shared, 3 : i32>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{memdesc dimensions must be positive}}
tt.func @empty_memdesc(%m: !ttg.memdesc<0x16xf16, #shared, #smem>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{memdesc element type must be an integer or float type, got '!tt.ptr<f16>'}}
tt.func @pointer_memdesc(%m: !ttg.memdesc<16x!tt.ptr<f16>, #shared, #smem>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{the memdesc encoding has rank 2 but the memdesc only 1}}
tt.func @memdesc_rank(%m: !ttg.memdesc<16xf16, #shared, #smem>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{memdesc shape must fit in its alloc shape}}
tt.func @alloc_too_small(%m: !ttg.memdesc<32x16xf16, #shared, #smem, mutable, 16x16>) {
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{expected '>'}}
tt.func @mutable_after_alloc_shape(%m: !ttg.memdesc<16x16xf16, #shared, #smem, 32x16, mutable>) {
  tt.return
}

//===----------------------------------------------------------------------===//
// Layouts against the module attributes
//===----------------------------------------------------------------------===//

// -----

#b64 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @lanes() {
    // expected-error @+1 {{'tt.make_range' op layout #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}> spans 64 lanes but the module has "ttg.threads-per-warp" = 32}}
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b64>
    tt.return
  }
}

// -----

// Without ttg.threads-per-warp a warp has 32 lanes.
#b16 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @default_lanes() {
    // expected-error @+1 {{spans 16 lanes but the module has "ttg.threads-per-warp" = 32}}
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b16>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @warps(%p: !tt.ptr<f32>) {
    // expected-error @+1 {{'tt.splat' op layout #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}> spans 8 warps but "ttg.num-warps" is 4}}
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// A tt.func's ttg.num-warps overrides the module's, also for its arguments.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // expected-error @+1 {{'tt.func' op block argument #0: layout #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> spans 4 warps but "ttg.num-warps" is 2}}
  tt.func @function_warps(%x: tensor<128xf32, #b>) attributes {"ttg.num-warps" = 2 : i32} {
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @no_num_warps() {
  // expected-error @+1 {{needs "ttg.num-warps" on the enclosing tt.func or module}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ctas() {
    // expected-error @+1 {{spans 2 CTAs but the module has "ttg.num-ctas" = 1}}
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @too_few_ctas() {
    // expected-error @+1 {{spans 1 CTAs but the module has "ttg.num-ctas" = 2}}
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[1]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @shared_ctas() {
    // expected-error @+1 {{'ttg.local_alloc' op layout #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[1]]}> spans 2 CTAs but the module has "ttg.num-ctas" = 1}}
    %a = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @rank(%p: i32) {
    // expected-error @+1 {{has rank 1 but the tensor has rank 2}}
    %s = tt.splat %p : i32 -> tensor<32x4xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @slice_lanes(%p: i32) {
    // A slice spans its parent's lanes, warps and CTAs.
    %ok = tt.splat %p : i32 -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>
    // expected-error @+1 {{has rank 1 but the tensor has rank 2}}
    %s = tt.splat %p : i32 -> tensor<32x4xi32, #ttg.slice<{dim = 0, parent = #b}>>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @shared_tensor(%p: i32) {
    // expected-error @+1 {{shared-memory encoding #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}> belongs on a !ttg.memdesc, not on a tensor}}
    %s = tt.splat %p : i32 -> tensor<32xi32, #shared>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @memory_space_tensor(%p: i32) {
    // expected-error @+1 {{#ttg.shared_memory is not a tensor layout}}
    %s = tt.splat %p : i32 -> tensor<32xi32, #ttg.shared_memory>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// Values in nested regions are checked too.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @nested(%c: i1) {
    scf.if %c {
      // expected-error @+1 {{'arith.constant' op layout}}
      %cst = arith.constant dense<0.0> : tensor<64xf32, #b>
    }
    tt.return
  }
}

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'ttg.num-warps' must be a power of two up to 65536, got 3 : i32}}
module attributes {"ttg.num-warps" = 3 : i32} {
}

// -----

// expected-error @+1 {{'ttg.threads-per-warp' must be an integer, got "32"}}
module attributes {"ttg.threads-per-warp" = "32"} {
}

// -----

// expected-error @+1 {{'ttg.num-ctas' must be a power of two up to 65536, got 0 : i32}}
module attributes {"ttg.num-ctas" = 0 : i32} {
}

// -----

// Clusters of CTAs that each run the program alone have one-CTA layouts.
// expected-error @+1 {{'ttg.cluster-ctas' needs 'ttg.num-ctas' = 1 (its CTAs each hold whole tensors), got 2}}
module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 2 : i32} {
}

// -----

// expected-error @+1 {{'ttg.target' must be a string, got 90 : i32}}
module attributes {ttg.target = 90 : i32} {
}

// -----

module {
  // expected-error @+1 {{'ttg.num-ctas' belongs on the module}}
  tt.func @ctas_on_func() attributes {"ttg.num-ctas" = 1 : i32} {
    tt.return
  }
}

// -----

module {
  tt.func @warps_on_op() {
    // expected-error @+1 {{'ttg.num-warps' belongs on the module or a tt.func}}
    %c = arith.constant {"ttg.num-warps" = 4 : i32} 0 : i32
    tt.return
  }
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @convert_shape(%x: tensor<128xf32, #b>) {
    // expected-error @+1 {{'ttg.convert_layout' op requires the same shape for all operands and results}}
    %y = ttg.convert_layout %x : tensor<128xf32, #b> -> tensor<256xf32, #b2>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @convert_type(%x: tensor<128xf32, #b>) {
    // expected-error @+1 {{'ttg.convert_layout' op requires the same element type for all operands and results}}
    %y = ttg.convert_layout %x : tensor<128xf32, #b> -> tensor<128xf16, #b2>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @alloc_immutable() {
  // expected-error @+1 {{'ttg.local_alloc' op an allocation without an initial value must be mutable}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_shape(%x: tensor<128xf32, #b>) {
    // expected-error @+1 {{'ttg.local_alloc' op source shape [128] does not match the memdesc shape [64]}}
    %a = ttg.local_alloc %x : (tensor<128xf32, #b>) -> !ttg.memdesc<64xf32, #shared, #smem>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_type(%x: tensor<128xf32, #b>) {
    // expected-error @+1 {{'ttg.local_alloc' op source element type 'f32' does not match the memdesc's 'f16'}}
    %a = ttg.local_alloc %x : (tensor<128xf32, #b>) -> !ttg.memdesc<128xf16, #shared, #smem>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @alloc_rank(%x: tensor<2x64xf32, #b>) {
    // expected-error @+1 {{'ttg.local_alloc' op source has rank 2 but the memdesc encoding has rank 1}}
    %a = ttg.local_alloc %x : (tensor<2x64xf32, #b>) -> !ttg.memdesc<2x64xf32, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @alloc_view() {
  // expected-error @+1 {{'ttg.local_alloc' op result must be a whole allocation (its alloc shape [128] differs from its shape [64])}}
  %a = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable, 128>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @alloc_alignment() {
  // expected-error @+1 {{'ttg.local_alloc' op alignment 48 is not a power of two}}
  %a = ttg.local_alloc {alignment = 48 : i32} : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_immutable(%x: tensor<128xf32, #b>, %m: !ttg.memdesc<128xf32, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_store' op cannot store into an immutable memdesc}}
    ttg.local_store %x, %m : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #shared, #smem>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @store_shape(%x: tensor<128xf32, #b>, %m: !ttg.memdesc<256xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.local_store' op source shape [128] does not match the memdesc shape [256]}}
    ttg.local_store %x, %m : tensor<128xf32, #b> -> !ttg.memdesc<256xf32, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @load_type(%m: !ttg.memdesc<128xf32, #shared, #smem>) {
    // expected-error @+1 {{'ttg.local_load' op result element type 'i32' does not match the memdesc's 'f32'}}
    %x = ttg.local_load %m : !ttg.memdesc<128xf32, #shared, #smem> -> tensor<128xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @load_buffers(%m: !ttg.memdesc<2x64xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{'ttg.local_load' op result has rank 2 but the memdesc encoding has rank 1}}
    %x = ttg.local_load %m : !ttg.memdesc<2x64xf32, #shared, #smem, mutable> -> tensor<2x64xf32, #b>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @index_rank1(%m: !ttg.memdesc<64xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{'ttg.memdesc_index' op needs a memdesc of rank 2 or more to index, got rank 1}}
  %v = ttg.memdesc_index %m[%i] : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @index_shape(%m: !ttg.memdesc<2x64xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{'ttg.memdesc_index' op result shape must be [64], got [32]}}
  %v = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<32xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @index_mutability(%m: !ttg.memdesc<2x64xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{'ttg.memdesc_index' op result must keep the element type, encoding, memory space and mutability of the source}}
  %v = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64xf32, #shared, #smem>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @index_view(%m: !ttg.memdesc<2x64xf32, #shared, #smem, mutable, 4x64>, %i: i32) {
  // expected-error @+1 {{'ttg.memdesc_index' op cannot index a view of part of an allocation}}
  %v = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x64xf32, #shared, #smem, mutable, 4x64> -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @index_result_view(%m: !ttg.memdesc<2x64xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{'ttg.memdesc_index' op result is a whole buffer, so its alloc shape must be its shape}}
  %v = ttg.memdesc_index %m[%i] : !ttg.memdesc<2x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64xf32, #shared, #smem, mutable, 2x64>
  tt.return
}

//===----------------------------------------------------------------------===//
// Encodings tt ops derive
//===----------------------------------------------------------------------===//

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reduce_result(%x: tensor<32x16xi32, #b>) {
    // expected-error @+1 {{'tt.reduce' op result #0 must be 'tensor<32xi32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>', got 'tensor<32xi32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>>'}}
    %s = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %c = arith.addi %a, %b : i32
      tt.reduce.return %c : i32
    }) : (tensor<32x16xi32, #b>) -> tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reduce_operands(%x: tensor<32x16xi32, #b>, %y: tensor<32x16xi32, #b2>) {
    // expected-error @+1 {{'tt.reduce' op requires the same encoding for all operands}}
    %s:2 = "tt.reduce"(%x, %y) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32, %c: i32, %d: i32):
      tt.reduce.return %a, %b : i32, i32
    }) : (tensor<32x16xi32, #b>, tensor<32x16xi32, #b2>) -> (tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #b2}>>)
    tt.return
  }
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expand_not_slice(%x: tensor<32xi32, #b1>) {
    // expected-error @+1 {{'tt.expand_dims' op source encoding must be a #ttg.slice along dimension 1, got #ttg.blocked}}
    %y = tt.expand_dims %x {axis = 1 : i32} : tensor<32xi32, #b1> -> tensor<32x1xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expand_wrong_dim(%x: tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>>) {
    // expected-error @+1 {{'tt.expand_dims' op source encoding must be a #ttg.slice along dimension 1}}
    %y = tt.expand_dims %x {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<32x1xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expand_wrong_parent(%x: tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>>) {
    // expected-error @+1 {{'tt.expand_dims' op result encoding must be #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>, got #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>}}
    %y = tt.expand_dims %x {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<32x1xi32, #b2>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expand_gains_encoding(%x: tensor<32xi32>) {
    // expected-error @+1 {{'tt.expand_dims' op result must have no encoding when the source has none}}
    %y = tt.expand_dims %x {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @broadcast_encoding(%x: tensor<32x1xi32, #b>) {
    // expected-error @+1 {{'tt.broadcast' op requires the same encoding for all operands and results}}
    %y = tt.broadcast %x : tensor<32x1xi32, #b> -> tensor<32x16xi32, #b2>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @addptr_encoding(%p: tensor<128x!tt.ptr<f32>, #b>, %o: tensor<128xi32, #b2>) {
    // expected-error @+1 {{'tt.addptr' op requires the same encoding for all operands and results}}
    %q = tt.addptr %p, %o : tensor<128x!tt.ptr<f32>, #b>, tensor<128xi32, #b2>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_outside(%m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{'ttg.memdesc_subslice' op dimension 1: elements 64 to 96 are not within the source's 64}}
  %v = ttg.memdesc_subslice %m[0, 64] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 64x64>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_unaligned(%m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{'ttg.memdesc_subslice' op dimension 1: offset 16 is not a multiple of the view's extent 32}}
  %v = ttg.memdesc_subslice %m[0, 16] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 64x64>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_alloc_shape(%m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{'ttg.memdesc_subslice' op result alloc shape must be the source's, [64, 64]}}
  %v = ttg.memdesc_subslice %m[0, 32] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @subslice_rank(%m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{'ttg.memdesc_subslice' op source, result and offsets must have the same rank}}
  %v = ttg.memdesc_subslice %m[0] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 64x64>
  tt.return
}

// -----

tt.func @relaxed_fence() {
  // expected-error @+1 {{'ttg.memory_fence' op a relaxed fence orders nothing; use acquire, release or acq_rel}}
  ttg.memory_fence relaxed, gpu
  tt.return
}
