// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=2" --ttgir-coalesce \
// RUN:   --ttgir-remove-layout-conversions | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=4" | FileCheck %s --check-prefix=FOUR
// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=2" -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=DOT

// Over the CTAs of a cluster, Triton's default split: the most strided
// dimension first, as far as it has elements, then the next; the threads
// of a CTA fill its tile.
// CHECK-DAG: #[[SPLIT:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1]]}>
// CHECK: module attributes {"ttg.num-ctas" = 2 : i32
// CHECK-LABEL: tt.func @vector
// CHECK: tt.load {{.*}} : tensor<1024x!tt.ptr<f32>, #[[SPLIT]]>
// FOUR: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1], [2]]}>
tt.func @vector(%x: !tt.ptr<f32>) {
  %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %p = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %ptrs = tt.addptr %p, %r : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %v = tt.load %ptrs : tensor<1024x!tt.ptr<f32>>
  tt.store %ptrs, %v : tensor<1024x!tt.ptr<f32>>
  tt.return
}

// -----

// A 2-D block with no reduction (a TMA copy's, say): its rows split over
// the CTAs, as Triton splits it, so that each CTA's rows keep their full
// width (a TMA box row of at least 16 bytes); with more CTAs than rows,
// the columns take the rest.
// CHECK-DAG: #[[ROWSPLIT:.*]] = #ttg.blocked<{{.*}}CGALayout = {{\[\[}}1, 0]]}>
// CHECK-LABEL: tt.func @block
// CHECK: tt.load {{.*}} : tensor<2x16x!tt.ptr<i8>, #[[ROWSPLIT]]>
// FOUR: #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0]]}>
tt.func @block(%x: !tt.ptr<i8>) {
  %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %c = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %sixteen = arith.constant dense<16> : tensor<2x1xi32>
  %rows = arith.muli %r2, %sixteen : tensor<2x1xi32>
  %rb = tt.broadcast %rows : tensor<2x1xi32> -> tensor<2x16xi32>
  %cb = tt.broadcast %c2 : tensor<1x16xi32> -> tensor<2x16xi32>
  %offs = arith.addi %rb, %cb : tensor<2x16xi32>
  %p = tt.splat %x : !tt.ptr<i8> -> tensor<2x16x!tt.ptr<i8>>
  %ptrs = tt.addptr %p, %offs : tensor<2x16x!tt.ptr<i8>>, tensor<2x16xi32>
  %v = tt.load %ptrs : tensor<2x16x!tt.ptr<i8>>
  tt.store %ptrs, %v : tensor<2x16x!tt.ptr<i8>>
  tt.return
}

// -----

// A row softmax: the axis its reduction combines along (1) stays whole in
// each CTA, from the load through the reduction to the store, and the rows
// split instead (32 of the 64 per CTA); after coalescing and removing
// conversions, one layout is left and no element changes CTA.
// CHECK-DAG: #[[ROWS:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CHECK-LABEL: tt.func @softmax
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.load {{.*}} : tensor<64x128x!tt.ptr<f32>, #[[ROWS]]>
// CHECK: "tt.reduce"
// CHECK: (tensor<64x128xf32, #[[ROWS]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[ROWS]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store {{.*}} : tensor<64x128x!tt.ptr<f32>, #[[ROWS]]>
// FOUR: #[[ROWS4:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = {{\[\[}}1, 0], [2, 0]]}>
// FOUR-LABEL: tt.func @softmax
// FOUR: tt.load {{.*}} : tensor<64x128x!tt.ptr<f32>, #[[ROWS4]]>
tt.func @softmax(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %c128 = arith.constant dense<128> : tensor<64x1xi32>
  %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %r3 = arith.muli %r2, %c128 : tensor<64x1xi32>
  %cols = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tt.broadcast %r3 : tensor<64x1xi32> -> tensor<64x128xi32>
  %cb = tt.broadcast %c2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %offs = arith.addi %rb, %cb : tensor<64x128xi32>
  %px = tt.splat %x : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %ptrs = tt.addptr %px, %offs : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  %v = tt.load %ptrs : tensor<64x128x!tt.ptr<f32>>
  %m = "tt.reduce"(%v) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %t = arith.maxnumf %a, %b : f32
    tt.reduce.return %t : f32
  }) : (tensor<64x128xf32>) -> tensor<64xf32>
  %m2 = tt.expand_dims %m {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %mb = tt.broadcast %m2 : tensor<64x1xf32> -> tensor<64x128xf32>
  %e = arith.subf %v, %mb : tensor<64x128xf32>
  %py = tt.splat %y : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %out = tt.addptr %py, %offs : tensor<64x128x!tt.ptr<f32>>, tensor<64x128xi32>
  tt.store %out, %e : tensor<64x128x!tt.ptr<f32>>
  tt.return
}

// -----

// Products through descriptors: a result wider than tall (128x256) is split
// along N (B's columns split, A whole in each CTA), one taller than wide
// (256x128) along M (A's rows split, B whole), as Triton's plan-cta splits
// the larger dimension.
// DOT-LABEL: tt.func @wide_and_tall
// DOT: tt.descriptor_load {{.*}} -> tensor<128x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0]]}>>
// DOT: tt.descriptor_load {{.*}} -> tensor<64x256xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1]]}>>
// DOT: tt.descriptor_load {{.*}} -> tensor<256x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}1, 0]]}>>
// DOT: tt.descriptor_load {{.*}} -> tensor<64x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0]]}>>
tt.func @wide_and_tall(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x256xf16>>,
                       %ta: !tt.tensordesc<tensor<256x64xf16>>, %tb: !tt.tensordesc<tensor<64x128xf16>>,
                       %i: i32) -> (tensor<128x256xf32>, tensor<256x128xf32>) {
  %z1 = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
  %z2 = arith.constant dense<0.000000e+00> : tensor<256x128xf32>
  %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  %y = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x256xf16>> -> tensor<64x256xf16>
  %d1 = tt.dot %x, %y, %z1 : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
  %u = tt.descriptor_load %ta[%i, %i] : !tt.tensordesc<tensor<256x64xf16>> -> tensor<256x64xf16>
  %v = tt.descriptor_load %tb[%i, %i] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16>
  %d2 = tt.dot %u, %v, %z2 : tensor<256x64xf16> * tensor<64x128xf16> -> tensor<256x128xf32>
  tt.return %d1, %d2 : tensor<128x256xf32>, tensor<256x128xf32>
}

// -----

// A square result whose CTAs keep 128 rows (256x256 over two) is split
// along M, as Triton's plan-cta splits it: each CTA keeps the full width N
// (one m64n256 wgmma per warp group and k step) and B is whole in each CTA.
// DOT-LABEL: tt.func @square
// DOT: tt.descriptor_load {{.*}} -> tensor<256x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}1, 0]]}>>
// DOT: tt.descriptor_load {{.*}} -> tensor<64x256xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0]]}>>
tt.func @square(%a: !tt.tensordesc<tensor<256x64xf16>>, %b: !tt.tensordesc<tensor<64x256xf16>>,
                %i: i32) -> tensor<256x256xf32> {
  %z = arith.constant dense<0.000000e+00> : tensor<256x256xf32>
  %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<256x64xf16>> -> tensor<256x64xf16>
  %y = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x256xf16>> -> tensor<64x256xf16>
  %d = tt.dot %x, %y, %z : tensor<256x64xf16> * tensor<64x256xf16> -> tensor<256x256xf32>
  tt.return %d : tensor<256x256xf32>
}

// -----

// A smaller square (128x128 over two CTAs: 64 rows each if split along M)
// splits along N, as Triton's does: A whole in each CTA, B's columns split.
// DOT-LABEL: tt.func @small_square
// DOT: tt.descriptor_load {{.*}} -> tensor<128x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0]]}>>
// DOT: tt.descriptor_load {{.*}} -> tensor<64x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1]]}>>
tt.func @small_square(%a: !tt.tensordesc<tensor<128x64xf16>>, %b: !tt.tensordesc<tensor<64x128xf16>>,
                      %i: i32) -> tensor<128x128xf32> {
  %z = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  %y = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16>
  %d = tt.dot %x, %y, %z : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
  tt.return %d : tensor<128x128xf32>
}

// -----

// A program whose buffers were made before layouts (by hwx's ops) and that
// tells its CTAs apart (ttg.lone-ctas, which hwx's cluster ops set) is run by
// each CTA of its cluster alone: its tensors get one-CTA layouts, and
// ttg.cluster-ctas keeps the cluster's size for the launch.
// DOT-LABEL: module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 1 : i32
// DOT: tt.func @own_buffers
// DOT: tt.load {{.*}} : tensor<128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.lone-ctas"} {
  tt.func @own_buffers(%x: !tt.ptr<f32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #nvmma, #smem, mutable>
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %p = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %p, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
    tt.store %ptrs, %v : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
