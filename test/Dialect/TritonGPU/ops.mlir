// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// Every ttg attribute, type and op in the textual form Triton 3.6 prints,
// through a custom-form and a generic-form round trip. Aliases are Triton's:
// #blocked, #linear, #shared, #smem; slices print inline.

// CHECK-DAG: #[[B1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B3:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[L:linear[0-9]*]] = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2]], lane = {{\[\[}}0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}8, 0], [16, 0]], block = []}>
// CHECK-DAG: #[[S:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[S1:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #[[SMEM:smem]] = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#linear = #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory

// CHECK: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {

// Distributed encodings on tt, arith and ttg values alike; a reduction's
// result and an expand_dims source are slices.
// CHECK-LABEL: tt.func @distributed
// CHECK: tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #[[B1]]>
// CHECK: arith.addi %{{.*}} : tensor<1024xi32, #[[B1]]>
// CHECK: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>> -> tensor<32x1xi32, #[[B2]]>
// CHECK: tt.broadcast %{{.*}} : tensor<32x1xi32, #[[B2]]> -> tensor<32x16xi32, #[[B2]]>
// CHECK: (tensor<32x16xi32, #[[B2]]>) -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK: ttg.convert_layout %{{.*}} : tensor<32x16xi32, #[[B2]]> -> tensor<32x16xi32, #[[L]]>
// CHECK: ttg.convert_layout %{{.*}} : tensor<32x16xi32, #[[L]]> -> tensor<32x16xi32, #[[B3]]>
tt.func @distributed(%p: !tt.ptr<i32>) -> tensor<32x16xi32, #blocked3> {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
  %s = arith.addi %r, %r : tensor<1024xi32, #blocked>
  %ptrs = tt.splat %p : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>, #blocked>
  %addr = tt.addptr %ptrs, %s : tensor<1024x!tt.ptr<i32>, #blocked>, tensor<1024xi32, #blocked>
  tt.store %addr, %s : tensor<1024x!tt.ptr<i32>, #blocked>
  %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
  %col = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<32x1xi32, #blocked2>
  %wide = tt.broadcast %col : tensor<32x1xi32, #blocked2> -> tensor<32x16xi32, #blocked2>
  %sum = "tt.reduce"(%wide) <{axis = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tt.reduce.return %c : i32
  }) : (tensor<32x16xi32, #blocked2>) -> tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
  %lin = ttg.convert_layout %wide : tensor<32x16xi32, #blocked2> -> tensor<32x16xi32, #linear>
  %out = ttg.convert_layout %lin : tensor<32x16xi32, #linear> -> tensor<32x16xi32, #blocked3>
  tt.return %out : tensor<32x16xi32, #blocked3>
}

// Shared memory: an initialised immutable buffer, a mutable multi-buffered
// one indexed, stored to and loaded from (after an async token), freed.
// CHECK-LABEL: tt.func @shared
// CHECK: ttg.local_alloc %{{.*}} : (tensor<32x16xf16, #[[B2]]>) -> !ttg.memdesc<32x16xf16, #[[S]], #[[SMEM]]>
// CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<32x16xf16, #[[S]], #[[SMEM]]> -> tensor<32x16xf16, #[[B2]]>
// CHECK: ttg.local_alloc {alignment = 128 : i32} : () -> !ttg.memdesc<2x32x16xf16, #[[S]], #[[SMEM]], mutable>
// CHECK: ttg.memdesc_index %{{.*}}[%{{.*}}] : !ttg.memdesc<2x32x16xf16, #[[S]], #[[SMEM]], mutable> -> !ttg.memdesc<32x16xf16, #[[S]], #[[SMEM]], mutable>
// CHECK: ttg.local_store %{{.*}}, %{{.*}} : tensor<32x16xf16, #[[B2]]> -> !ttg.memdesc<32x16xf16, #[[S]], #[[SMEM]], mutable>
// CHECK: ttg.local_load %{{.*}} token %{{.*}} : !ttg.memdesc<32x16xf16, #[[S]], #[[SMEM]], mutable> -> tensor<32x16xf16, #[[B2]]>
// CHECK: ttg.local_dealloc %{{.*}} : !ttg.memdesc<2x32x16xf16, #[[S]], #[[SMEM]], mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #[[S1]], #[[SMEM]], mutable>
tt.func @shared(%x: tensor<32x16xf16, #blocked2>, %i: i32, %tok: !ttg.async.token) {
  %a = ttg.local_alloc %x : (tensor<32x16xf16, #blocked2>) -> !ttg.memdesc<32x16xf16, #shared, #smem>
  %y = ttg.local_load %a : !ttg.memdesc<32x16xf16, #shared, #smem> -> tensor<32x16xf16, #blocked2>
  %bufs = ttg.local_alloc {alignment = 128 : i32} : () -> !ttg.memdesc<2x32x16xf16, #shared, #smem, mutable>
  %buf = ttg.memdesc_index %bufs[%i] : !ttg.memdesc<2x32x16xf16, #shared, #smem, mutable> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
  ttg.local_store %y, %buf : tensor<32x16xf16, #blocked2> -> !ttg.memdesc<32x16xf16, #shared, #smem, mutable>
  %z = ttg.local_load %buf token %tok : !ttg.memdesc<32x16xf16, #shared, #smem, mutable> -> tensor<32x16xf16, #blocked2>
  ttg.local_dealloc %bufs : !ttg.memdesc<2x32x16xf16, #shared, #smem, mutable>
  %bars = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared1, #smem, mutable>
  tt.return
}

// A view of part of an allocation prints its alloc shape last.
// CHECK-LABEL: tt.func @alloc_shape
// CHECK-SAME: !ttg.memdesc<16x16xf16, #[[S]], #[[SMEM]], mutable, 32x16>
// CHECK-SAME: !ttg.memdesc<16x16xf16, #[[S]], #[[SMEM]], 2x16x16>
tt.func @alloc_shape(%a: !ttg.memdesc<16x16xf16, #shared, #smem, mutable, 32x16>,
                     %b: !ttg.memdesc<16x16xf16, #shared, #smem, 2x16x16>) {
  tt.return
}

}

// -----

// Two CTAs: CGA layouts print after the other keys; a slice takes its
// parent's CGA layout. num-warps may be set per function.
// CHECK-DAG: #[[BC:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}0, 1]]}>
// CHECK-DAG: #[[BF:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0], CGALayout = {{\[\[}}0]]}>
// CHECK-DAG: #[[LC:linear[0-9]*]] = #ttg.linear<{register = [], lane = {{\[\[}}1], [2], [4], [8], [16]], warp = {{\[\[}}32], [64]], block = {{\[\[}}128]]}>
// CHECK-DAG: #[[SC:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
#cga = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1]]}>
#cga8 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0], CGALayout = [[0]]}>
#lincga = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = [[128]]}>
#scga = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @cga
  // CHECK-SAME: tensor<64x64xf32, #[[BC]]>
  // CHECK-SAME: tensor<64xf32, #ttg.slice<{dim = 0, parent = #[[BC]]}>>
  // CHECK-SAME: tensor<256xf32, #[[LC]]>
  // CHECK-SAME: !ttg.memdesc<64x64xf32, #[[SC]], #smem>
  tt.func @cga(%a: tensor<64x64xf32, #cga>, %b: tensor<64xf32, #ttg.slice<{dim = 0, parent = #cga}>>,
               %c: tensor<256xf32, #lincga>, %d: !ttg.memdesc<64x64xf32, #scga, #smem>) {
    tt.return
  }
  // CHECK-LABEL: tt.func @eight_warps
  // CHECK-SAME: attributes {"ttg.num-warps" = 8 : i32}
  tt.func @eight_warps(%a: tensor<256xf32, #cga8>) attributes {"ttg.num-warps" = 8 : i32} {
    tt.return
  }
}

// -----

// Wave64: a layout spans ttg.threads-per-warp lanes.
// CHECK: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
#wave64 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func @wave64(%a: tensor<256xf32, #wave64>) {
    tt.return
  }
}

// -----

// memdesc_subslice as Triton prints it: offsets in brackets after the
// source, the view's type keeping the allocation's shape.
// CHECK-LABEL: tt.func @subslice
// CHECK: ttg.memdesc_subslice %{{.*}}[0, 64] : !ttg.memdesc<128x128xf16, #{{.*}}, #smem, mutable> -> !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable, 128x128>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @subslice(%m: !ttg.memdesc<128x128xf16, #nvmma, #smem, mutable>) {
  %v = ttg.memdesc_subslice %m[0, 64] : !ttg.memdesc<128x128xf16, #nvmma, #smem, mutable> -> !ttg.memdesc<128x64xf16, #nvmma, #smem, mutable, 128x128>
  tt.return
}

// -----

// kiln's memory fence (no Triton 3.6 op prints one): order and scope.
// CHECK-LABEL: tt.func @memory_fence
// CHECK: ttg.memory_fence acq_rel, gpu
// CHECK: ttg.memory_fence release, sys
tt.func @memory_fence() {
  ttg.memory_fence acq_rel, gpu
  ttg.memory_fence release, sys
  tt.return
}
