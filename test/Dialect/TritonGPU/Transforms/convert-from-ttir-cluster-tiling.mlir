// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=4" -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=FOUR
// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=8" -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=EIGHT
// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=16" -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=SIXTEEN

// Products over clusters of 4, 8 and 16 CTAs, tiled as Triton's plan-cta
// tiles them: as few CTAs along M as leave each CTA 128 rows (else 64),
// the rest along N if each CTA keeps 64 columns (else the 64-row split
// stands), so that no CTA is left fewer rows than a warp group's 64 where
// the result has them. A result split along both M and N has the CTA id's
// low bits along N; A follows its split along M and B along N, each held
// whole along K, the CTAs of the other dimension holding copies
// (layout::operandCGA), and the values the result flows into (the loop's
// accumulator, the store) are split as it is.

// 256x128 over 4: 2 CTAs along M (128 rows each) and 2 along N; over 8:
// 4 along M (64 rows each) and 2 along N (64 columns); over 16: 4 along M
// and 4 along N (32 columns, 64-row chunks being the smallest). Along M
// alone, 8 CTAs would keep 32 rows each, fewer than a warp group's.
// EIGHT-LABEL: tt.func @tall
// EIGHT: tt.descriptor_load {{.*}} -> tensor<256x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0], [1, 0], [2, 0]]}>>
// EIGHT: tt.descriptor_load {{.*}} -> tensor<64x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 0], [0, 0]]}>>
// EIGHT: tt.dot {{.*}} -> tensor<256x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0], [2, 0]]}>>
// EIGHT: scf.yield {{.*}} : tensor<256x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0], [2, 0]]}>>
// EIGHT: arith.truncf {{.*}} to tensor<256x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0], [2, 0]]}>>
// EIGHT-NOT: ttg.convert_layout
// EIGHT: tt.descriptor_store
// SIXTEEN-LABEL: tt.func @tall
// SIXTEEN: tt.descriptor_load {{.*}} -> tensor<256x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0], [0, 0], [1, 0], [2, 0]]}>>
// SIXTEEN: tt.descriptor_load {{.*}} -> tensor<64x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [0, 0], [0, 0]]}>>
// SIXTEEN: tt.dot {{.*}} -> tensor<256x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0]]}>>
// SIXTEEN: arith.truncf {{.*}} to tensor<256x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0]]}>>
// FOUR-LABEL: tt.func @tall
// FOUR: tt.descriptor_load {{.*}} -> tensor<256x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0], [1, 0]]}>>
// FOUR: tt.descriptor_load {{.*}} -> tensor<64x128xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 0]]}>>
// FOUR: tt.dot {{.*}} -> tensor<256x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0]]}>>
tt.func @tall(%a: !tt.tensordesc<tensor<256x64xf16>>, %b: !tt.tensordesc<tensor<64x128xf16>>,
              %c: !tt.tensordesc<tensor<256x128xf16>>, %m: i32, %n: i32, %k: i32) {
  %zero = arith.constant dense<0.000000e+00> : tensor<256x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%in = %zero) -> (tensor<256x128xf32>) : i32 {
    %x = tt.descriptor_load %a[%m, %i] : !tt.tensordesc<tensor<256x64xf16>> -> tensor<256x64xf16>
    %y = tt.descriptor_load %b[%i, %n] : !tt.tensordesc<tensor<64x128xf16>> -> tensor<64x128xf16>
    %d = tt.dot %x, %y, %in : tensor<256x64xf16> * tensor<64x128xf16> -> tensor<256x128xf32>
    scf.yield %d : tensor<256x128xf32>
  }
  %out = arith.truncf %acc : tensor<256x128xf32> to tensor<256x128xf16>
  tt.descriptor_store %c[%m, %n], %out : !tt.tensordesc<tensor<256x128xf16>>, tensor<256x128xf16>
  tt.return
}

// -----

// A square 128x128 result with pointer loads over 16 CTAs: 2 along M (64
// rows each) and 8 along N, as Triton tiles it (along N alone, each CTA
// would keep 8 columns, too few for wgmma); A's and B's pointers are
// computed in their operands' splits, the store's in the result's.
// SIXTEEN-LABEL: tt.func @square
// SIXTEEN: tt.load {{.*}} : tensor<128x64x!tt.ptr<f16>, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0], [0, 0], [0, 0], [1, 0]]}>>
// SIXTEEN: tt.load {{.*}} : tensor<64x128x!tt.ptr<f16>, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 0]]}>>
// SIXTEEN: tt.dot {{.*}} -> tensor<128x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [0, 4], [1, 0]]}>>
// SIXTEEN: tt.store {{.*}} : tensor<128x128x!tt.ptr<f32>, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [0, 4], [1, 0]]}>>
// EIGHT-LABEL: tt.func @square
// EIGHT: tt.dot {{.*}} -> tensor<128x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [1, 0]]}>>
// FOUR-LABEL: tt.func @square
// FOUR: tt.dot {{.*}} -> tensor<128x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0]]}>>
tt.func @square(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %stride = arith.constant dense<128> : tensor<128x1xi32>
  %kstride = arith.constant dense<128> : tensor<64x1xi32>
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %ka = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kb = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %arow = arith.muli %rows, %stride : tensor<128x1xi32>
  %aoffs0 = tt.broadcast %arow : tensor<128x1xi32> -> tensor<128x64xi32>
  %aoffs1 = tt.broadcast %ka : tensor<1x64xi32> -> tensor<128x64xi32>
  %aoffs = arith.addi %aoffs0, %aoffs1 : tensor<128x64xi32>
  %abase = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %aptrs = tt.addptr %abase, %aoffs : tensor<128x64x!tt.ptr<f16>>, tensor<128x64xi32>
  %brow = arith.muli %kb, %kstride : tensor<64x1xi32>
  %boffs0 = tt.broadcast %brow : tensor<64x1xi32> -> tensor<64x128xi32>
  %boffs1 = tt.broadcast %cols : tensor<1x128xi32> -> tensor<64x128xi32>
  %boffs = arith.addi %boffs0, %boffs1 : tensor<64x128xi32>
  %bbase = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  %bptrs = tt.addptr %bbase, %boffs : tensor<64x128x!tt.ptr<f16>>, tensor<64x128xi32>
  %acc = scf.for %i = %c0 to %k step %c64 iter_args(%in = %zero) -> (tensor<128x128xf32>) : i32 {
    %x = tt.load %aptrs : tensor<128x64x!tt.ptr<f16>>
    %y = tt.load %bptrs : tensor<64x128x!tt.ptr<f16>>
    %d = tt.dot %x, %y, %in : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %crow = arith.muli %rows, %stride : tensor<128x1xi32>
  %coffs0 = tt.broadcast %crow : tensor<128x1xi32> -> tensor<128x128xi32>
  %coffs1 = tt.broadcast %cols : tensor<1x128xi32> -> tensor<128x128xi32>
  %coffs = arith.addi %coffs0, %coffs1 : tensor<128x128xi32>
  %cbase = tt.splat %c : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  %cptrs = tt.addptr %cbase, %coffs : tensor<128x128x!tt.ptr<f32>>, tensor<128x128xi32>
  tt.store %cptrs, %acc : tensor<128x128x!tt.ptr<f32>>
  tt.return
}

// -----

// A 256x256 result over 4 CTAs: 2 along M and 2 along N (128x128 each), as
// Triton tiles it. A 64x128 one over 16: all along N (64 rows at most
// along M), each CTA keeping 8 columns (mma.sync's n8).
// FOUR-LABEL: tt.func @big_and_short
// FOUR: tt.descriptor_load {{.*}} -> tensor<256x64xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 0], [1, 0]]}>>
// FOUR: tt.descriptor_load {{.*}} -> tensor<64x256xf16, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 0]]}>>
// FOUR: tt.dot {{.*}} -> tensor<256x256xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [1, 0]]}>>
// FOUR: tt.dot {{.*}} -> tensor<64x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2]]}>>
// SIXTEEN-LABEL: tt.func @big_and_short
// SIXTEEN: tt.dot {{.*}} -> tensor<64x128xf32, #ttg.blocked<{{.*}}CGALayout = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8]]}>>
tt.func @big_and_short(%a: !tt.tensordesc<tensor<256x64xf16>>, %b: !tt.tensordesc<tensor<64x256xf16>>,
                       %sa: !tt.tensordesc<tensor<64x32xf16>>, %sb: !tt.tensordesc<tensor<32x128xf16>>,
                       %i: i32) -> (tensor<256x256xf32>, tensor<64x128xf32>) {
  %z = arith.constant dense<0.000000e+00> : tensor<256x256xf32>
  %zs = arith.constant dense<0.000000e+00> : tensor<64x128xf32>
  %x = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<256x64xf16>> -> tensor<256x64xf16>
  %y = tt.descriptor_load %b[%i, %i] : !tt.tensordesc<tensor<64x256xf16>> -> tensor<64x256xf16>
  %d = tt.dot %x, %y, %z : tensor<256x64xf16> * tensor<64x256xf16> -> tensor<256x256xf32>
  %u = tt.descriptor_load %sa[%i, %i] : !tt.tensordesc<tensor<64x32xf16>> -> tensor<64x32xf16>
  %v = tt.descriptor_load %sb[%i, %i] : !tt.tensordesc<tensor<32x128xf16>> -> tensor<32x128xf16>
  %e = tt.dot %u, %v, %zs : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
  tt.return %d, %e : tensor<256x256xf32>, tensor<64x128xf32>
}
