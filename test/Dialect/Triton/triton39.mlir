// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,CUSTOM
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file \
// RUN:   | FileCheck %s --check-prefixes=CHECK,VIA-GENERIC
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// What Triton 3.7, 3.8 and 3.9 print that 3.6 did not: new ops, ttg.barrier,
// and the newer spellings of cache hints and descriptor types. Each chunk
// is its own context: kiln prints the 3.6 spelling unless every one it
// parsed in the context was the newer (docs/ttgir.md, "Spellings"). The
// generic form holds the hints as properties, without a spelling: through
// it they come back in 3.6's.

// CHECK-LABEL: tt.func @new_ops
// GENERIC-LABEL: sym_name = "new_ops"
tt.func @new_ops(%p: tensor<128x!tt.ptr<i32>>, %m: tensor<128xi1>, %v: tensor<128xi32>,
                 %s: !tt.ptr<i64>, %x: i64, %f: tensor<128xf32>, %h: !tt.ptr<f16>,
                 %t: i64, %q: tensor<4x!tt.ptr<i16>>, %e: tensor<4xi16>) {
  // CHECK: tt.approx_divf %{{.*}}, %{{.*}} : tensor<128xf32>
  %0 = tt.approx_divf %f, %f : tensor<128xf32>
  // CHECK: tt.atomic_load acquire, gpu, %{{.*}}, %{{.*}} : (tensor<128x!tt.ptr<i32>>, tensor<128xi1>) -> tensor<128xi32>
  %1 = tt.atomic_load acquire, gpu, %p, %m : (tensor<128x!tt.ptr<i32>>, tensor<128xi1>) -> tensor<128xi32>
  // CHECK: tt.atomic_load relaxed, sys, %{{.*}} : (tensor<128x!tt.ptr<i32>>) -> tensor<128xi32>
  %2 = tt.atomic_load relaxed, sys, %p : (tensor<128x!tt.ptr<i32>>) -> tensor<128xi32>
  // CHECK: tt.atomic_load acquire, cta, %{{.*}} : (!tt.ptr<f16>) -> f16
  %3 = tt.atomic_load acquire, cta, %h : (!tt.ptr<f16>) -> f16
  // CHECK: tt.atomic_store release, cta, %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<i32>>
  tt.atomic_store release, cta, %p, %1, %m : tensor<128x!tt.ptr<i32>>
  // CHECK: tt.atomic_store relaxed, gpu, %{{.*}}, %{{.*}} : !tt.ptr<i64>
  tt.atomic_store relaxed, gpu, %s, %x : !tt.ptr<i64>
  // CHECK: tt.atomic_poll acquire, gpu, %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<i32>>, tensor<128xi32> -> tensor<128xi1>
  %4 = tt.atomic_poll acquire, gpu, %p, %v : tensor<128x!tt.ptr<i32>>, tensor<128xi32> -> tensor<128xi1>
  // CHECK: tt.atomic_poll relaxed, sys, %{{.*}}, %{{.*}} timeout %{{.*}} : !tt.ptr<i64>, i64 -> i1
  %5 = tt.atomic_poll relaxed, sys, %s, %x timeout %t : !tt.ptr<i64>, i64 -> i1
  // CHECK: tt.atomic_poll acquire, cta, %{{.*}}, %{{.*}} timeout %{{.*}} : tensor<4x!tt.ptr<i16>>, tensor<4xi16> -> tensor<4xi1>
  %6 = tt.atomic_poll acquire, cta, %q, %e timeout %t : tensor<4x!tt.ptr<i16>>, tensor<4xi16> -> tensor<4xi1>
  // CHECK: tt.grid_dependency_wait
  tt.grid_dependency_wait
  // CHECK: tt.grid_dependency_launch_dependents
  tt.grid_dependency_launch_dependents
  // GENERIC: "tt.atomic_poll"(%{{.*}}, %{{.*}}, %{{.*}}) <{scope = 3 : i32, sem = 1 : i32}> : (!tt.ptr<i64>, i64, i64) -> i1
  tt.return
}

// -----

// Every address-space form of Triton's ttg.barrier.
// CHECK-LABEL: tt.func @barriers
tt.func @barriers() {
  // CHECK: ttg.barrier all
  ttg.barrier all
  // CHECK: ttg.barrier local
  ttg.barrier local
  // CHECK: ttg.barrier local|global_read|global_write
  ttg.barrier local|global_read|global_write
  // CHECK: ttg.barrier tensor_read|tensor_write
  ttg.barrier tensor_write|tensor_read
  // CHECK: ttg.barrier all
  ttg.barrier local|global_read|global_write|tensor_read|tensor_write
  // CHECK: ttg.barrier none
  ttg.barrier none
  // GENERIC: "ttg.barrier"() <{addrSpace = 6 : i32}> : () -> ()
  ttg.barrier global_read|global_write
  tt.return
}

// -----

// Triton 3.9's spelling only: printed back as 3.9 prints it.
// CHECK-LABEL: tt.func @hints39
tt.func @hints39(%tp: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>, %tv: tensor<8xf32>,
                 %d: !tt.tensordesc<64x64xf16>, %i: i32) {
  // CUSTOM: tt.load %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  // VIA-GENERIC: tt.load %{{.*}}, %{{.*}} cacheModifier = cg : tensor<8x!tt.ptr<f32>>
  %0 = tt.load %tp, %m {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  // CUSTOM: tt.load %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>, isVolatile = true} : tensor<8x!tt.ptr<f32>>
  // VIA-GENERIC: tt.load %{{.*}} evictionPolicy = evict_last {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_last>, isVolatile = true} : tensor<8x!tt.ptr<f32>>
  // The defaults print nothing, as in 3.9.
  // CUSTOM: tt.load %{{.*}} : tensor<8x!tt.ptr<f32>>
  %2 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  // CUSTOM: tt.store %{{.*}}, %{{.*}}, %{{.*}} {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  tt.store %tp, %tv, %m {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  // CUSTOM: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>} : !tt.tensordesc<64x64xf16> -> tensor<64x64xf16>
  %3 = tt.descriptor_load %d[%i, %i] {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>} : !tt.tensordesc<64x64xf16> -> tensor<64x64xf16>
  // Both spellings set the same properties.
  // GENERIC: "tt.load"(%{{.*}}, %{{.*}}) <{boundaryCheck = array<i32>, cache = 3 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 1, 0>}>
  tt.return
}

// -----

// Triton 3.6's spelling, the same hints: printed in that spelling.
// CHECK-LABEL: tt.func @hints36
tt.func @hints36(%tp: tensor<8x!tt.ptr<f32>>, %m: tensor<8xi1>,
                 %d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // CHECK: tt.load %{{.*}}, %{{.*}} cacheModifier = cg : tensor<8x!tt.ptr<f32>>
  %0 = tt.load %tp, %m cacheModifier = cg : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.descriptor_load %{{.*}}[%{{.*}}, %{{.*}}] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  %3 = tt.descriptor_load %d[%i, %i] evictionPolicy = evict_first cacheModifier = cg : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // GENERIC: "tt.load"(%{{.*}}, %{{.*}}) <{boundaryCheck = array<i32>, cache = 3 : i32, evict = 1 : i32, isVolatile = false, operandSegmentSizes = array<i32: 1, 1, 0>}>
  tt.return
}

// -----

// Both spellings in one input: printed in Triton 3.6's.
// CHECK-LABEL: tt.func @mixed
// CHECK-SAME: !tt.tensordesc<tensor<64x64xf16>>
// CHECK-SAME: !tt.tensordesc<tensor<16xi32>>
tt.func @mixed(%tp: tensor<8x!tt.ptr<f32>>, %d: !tt.tensordesc<64x64xf16>,
               %d2: !tt.tensordesc<tensor<16xi32>>) {
  // CHECK: tt.load %{{.*}} cacheModifier = cg : tensor<8x!tt.ptr<f32>>
  %0 = tt.load %tp {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>} : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.load %{{.*}} evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
  %1 = tt.load %tp evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
  tt.return
}

// -----

// Descriptor types with layouts, as Triton 3.8+ prints them in TTGIR.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @desc38
  // CHECK-SAME: %{{[^:]*}}: !tt.tensordesc<64x64xf16, #shared>
  // CHECK-SAME: %{{[^:]*}}: !tt.tensordesc<16x32xbf16>
  tt.func public @desc38(%a: !tt.tensordesc<64x64xf16, #shared>, %b: !tt.tensordesc<16x32xbf16>) {
    tt.return
  }
}

// -----

// The same in Triton 3.6's form.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @desc36
  // CHECK-SAME: %{{[^:]*}}: !tt.tensordesc<tensor<64x64xf16, #shared>>
  tt.func public @desc36(%a: !tt.tensordesc<tensor<64x64xf16, #shared>>) {
    tt.return
  }
}
