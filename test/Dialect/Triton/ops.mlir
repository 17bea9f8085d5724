// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// Every tt op, type and enum value, in the textual form Triton 3.6 prints.
// The first run prints, reparses and checks the custom form; the second goes
// through the generic form, so enum properties (stored as i32) and operand
// segment sizes must survive a round trip as well.

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The global address space (1) is implicit and never printed; the shorthand
// tensordesc prints in the 3.6 form.
// CHECK-LABEL: tt.func @types
// CHECK-SAME: %{{[^:]*}}: !tt.ptr<f32>,
// CHECK-SAME: %{{[^:]*}}: !tt.ptr<f32>,
// CHECK-SAME: %{{[^:]*}}: !tt.ptr<f16, 3>,
// CHECK-SAME: %{{[^:]*}}: !tt.ptr<!tt.ptr<i8>>,
// CHECK-SAME: %{{[^:]*}}: tensor<16x!tt.ptr<bf16>>,
// CHECK-SAME: %{{[^:]*}}: tensor<2x4x!tt.ptr<i64, 3>>,
// CHECK-SAME: %{{[^:]*}}: !tt.ptr<tensor<32x64xf16>>,
// CHECK-SAME: %{{[^:]*}}: !tt.ptr<tensor<16xf32>, 3>,
// CHECK-SAME: %{{[^:]*}}: !tt.tensordesc<tensor<128x64xf16>>,
// CHECK-SAME: %{{[^:]*}}: !tt.tensordesc<tensor<8x128xbf16>>)
tt.func @types(%p0: !tt.ptr<f32>, %p1: !tt.ptr<f32, 1>, %p3: !tt.ptr<f16, 3>,
               %pp: !tt.ptr<!tt.ptr<i8>>, %tp: tensor<16x!tt.ptr<bf16>>,
               %tp3: tensor<2x4x!tt.ptr<i64, 3>>, %bp: !tt.ptr<tensor<32x64xf16>>,
               %bp3: !tt.ptr<tensor<16xf32>, 3>,
               %d0: !tt.tensordesc<tensor<128x64xf16>>,
               %d1: !tt.tensordesc<8x128xbf16>) {
  tt.return
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @casts
tt.func @casts(%p: !tt.ptr<f32>, %i: i64, %tp: tensor<8x!tt.ptr<f32>>,
               %ti: tensor<8xi64>, %f: f32, %h: tensor<8xf16>,
               %f8: tensor<8xf8E5M2>) {
  // CHECK: tt.int_to_ptr %{{[[:alnum:]_]+}} : i64 -> !tt.ptr<f32>
  %0 = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
  // CHECK: tt.int_to_ptr %{{[[:alnum:]_]+}} : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  %1 = tt.int_to_ptr %ti : tensor<8xi64> -> tensor<8x!tt.ptr<f32>>
  // CHECK: tt.ptr_to_int %{{[[:alnum:]_]+}} : !tt.ptr<f32> -> i64
  %2 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
  // CHECK: tt.ptr_to_int %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  %3 = tt.ptr_to_int %tp : tensor<8x!tt.ptr<f32>> -> tensor<8xi64>
  // CHECK: tt.bitcast %{{[[:alnum:]_]+}} : f32 -> i32
  %4 = tt.bitcast %f : f32 -> i32
  // CHECK: tt.bitcast %{{[[:alnum:]_]+}} : tensor<8xf16> -> tensor<8xbf16>
  %5 = tt.bitcast %h : tensor<8xf16> -> tensor<8xbf16>
  // CHECK: tt.bitcast %{{[[:alnum:]_]+}} : !tt.ptr<f32> -> !tt.ptr<i8>
  %6 = tt.bitcast %p : !tt.ptr<f32> -> !tt.ptr<i8>
  // CHECK: tt.bitcast %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>> -> tensor<8x!tt.ptr<f64>>
  %7 = tt.bitcast %tp : tensor<8x!tt.ptr<f32>> -> tensor<8x!tt.ptr<f64>>
  // A narrowing conversion names its rounding mode; a widening one does not.
  // CHECK: tt.fp_to_fp %{{[[:alnum:]_]+}}, rounding = rtne : f32 -> f8E4M3FN
  %8 = tt.fp_to_fp %f, rounding = rtne : f32 -> f8E4M3FN
  // CHECK: tt.fp_to_fp %{{[[:alnum:]_]+}}, rounding = rtz : tensor<8xf16> -> tensor<8xf8E5M2>
  %9 = tt.fp_to_fp %h, rounding = rtz : tensor<8xf16> -> tensor<8xf8E5M2>
  // CHECK: tt.fp_to_fp %{{[[:alnum:]_]+}} : tensor<8xf8E5M2> -> tensor<8xf32>
  %10 = tt.fp_to_fp %f8 : tensor<8xf8E5M2> -> tensor<8xf32>
  // CHECK: tt.fp_to_fp %{{[[:alnum:]_]+}} : tensor<8xf16> -> tensor<8xbf16>
  %11 = tt.fp_to_fp %h : tensor<8xf16> -> tensor<8xbf16>
  tt.return
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @arith
tt.func @arith(%x: f32, %lo: f32, %hi: f32, %t: tensor<8xf32>, %a: i32,
               %ti: tensor<8xi64>) {
  // CHECK: tt.clampf %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, propagateNan = none : f32
  %0 = tt.clampf %x, %lo, %hi, propagateNan = none : f32
  // CHECK: tt.clampf %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, propagateNan = all : tensor<8xf32>
  %1 = tt.clampf %t, %t, %t, propagateNan = all : tensor<8xf32>
  // CHECK: tt.precise_sqrt %{{[[:alnum:]_]+}} : f32
  %2 = tt.precise_sqrt %x : f32
  // CHECK: tt.precise_sqrt %{{[[:alnum:]_]+}} : tensor<8xf32>
  %3 = tt.precise_sqrt %t : tensor<8xf32>
  // CHECK: tt.precise_divf %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : f32
  %4 = tt.precise_divf %x, %lo : f32
  // CHECK: tt.precise_divf %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8xf32>
  %5 = tt.precise_divf %t, %t : tensor<8xf32>
  // CHECK: tt.mulhiui %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : i32
  %6 = tt.mulhiui %a, %a : i32
  // CHECK: tt.mulhiui %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8xi64>
  %7 = tt.mulhiui %ti, %ti : tensor<8xi64>
  tt.return
}

//===----------------------------------------------------------------------===//
// Pointers, block pointers and memory
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @pointers
tt.func @pointers(%p: !tt.ptr<f32>, %o: i32, %tp: tensor<8x!tt.ptr<f32>>,
                  %to: tensor<8xi64>, %l: !tt.ptr<i8, 3>, %b: !tt.ptr<f16>,
                  %s: i64) {
  // CHECK: tt.addptr %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : !tt.ptr<f32>, i32
  %0 = tt.addptr %p, %o : !tt.ptr<f32>, i32
  // CHECK: tt.addptr %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  %1 = tt.addptr %tp, %to : tensor<8x!tt.ptr<f32>>, tensor<8xi64>
  // CHECK: tt.addptr %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : !tt.ptr<i8, 3>, i32
  %2 = tt.addptr %l, %o : !tt.ptr<i8, 3>, i32
  // The result type is printed without `!tt.ptr`, as Triton prints it.
  // CHECK: %[[BP:.*]] = tt.make_tensor_ptr %{{[[:alnum:]_]+}}, [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  %3 = tt.make_tensor_ptr %b, [%s, %s], [%s, %s], [%o, %o] {order = array<i32: 1, 0>} : <tensor<32x64xf16>>
  // CHECK: tt.advance %[[BP]], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : <tensor<32x64xf16>>
  %4 = tt.advance %3, [%o, %o] : <tensor<32x64xf16>>
  tt.return
}

// CHECK-LABEL: tt.func @loads
tt.func @loads(%p: !tt.ptr<f32>, %c: i1, %tp: tensor<8x!tt.ptr<f32>>,
               %m: tensor<8xi1>, %other: tensor<8xf32>,
               %bp: !tt.ptr<tensor<32x64xf16>>) {
  // CHECK: tt.load %{{[[:alnum:]_]+}} : !tt.ptr<f32>
  %0 = tt.load %p : !tt.ptr<f32>
  // CHECK: tt.load %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : !tt.ptr<f32>
  %1 = tt.load %p, %c : !tt.ptr<f32>
  // CHECK: tt.load %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>
  %2 = tt.load %tp, %m : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.load %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>
  %3 = tt.load %tp, %m, %other : tensor<8x!tt.ptr<f32>>
  // The defaults (none, evict_normal, not volatile) are not printed.
  // CHECK: tt.load %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>
  %4 = tt.load %tp cacheModifier = none evictionPolicy = evict_normal : tensor<8x!tt.ptr<f32>>
  // The clauses may come in either order; they print cacheModifier first.
  // CHECK: tt.load %{{[[:alnum:]_]+}} cacheModifier = ca evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
  %5 = tt.load %tp evictionPolicy = evict_first cacheModifier = ca : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.load %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  %6 = tt.load %tp, %m, %other cacheModifier = cg evictionPolicy = evict_last {isVolatile = true} : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.load %{{[[:alnum:]_]+}} cacheModifier = cv : !tt.ptr<f32>
  %7 = tt.load %p cacheModifier = cv : !tt.ptr<f32>
  // Block pointers: boundaryCheck and padding (zero = 1, nan = 2).
  // CHECK: tt.load %{{[[:alnum:]_]+}} : !tt.ptr<tensor<32x64xf16>>
  %8 = tt.load %bp : !tt.ptr<tensor<32x64xf16>>
  // CHECK: tt.load %{{[[:alnum:]_]+}} {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  %9 = tt.load %bp {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<32x64xf16>>
  // CHECK: tt.load %{{[[:alnum:]_]+}} cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<32x64xf16>>
  %10 = tt.load %bp cacheModifier = cg {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// CHECK-LABEL: tt.func @stores
tt.func @stores(%p: !tt.ptr<f32>, %v: f32, %c: i1, %tp: tensor<8x!tt.ptr<f32>>,
                %tv: tensor<8xf32>, %m: tensor<8xi1>,
                %bp: !tt.ptr<tensor<32x64xf16>>, %blk: tensor<32x64xf16>) {
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : !tt.ptr<f32>
  tt.store %p, %v : !tt.ptr<f32>
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : !tt.ptr<f32>
  tt.store %p, %v, %c : !tt.ptr<f32>
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8x!tt.ptr<f32>>
  tt.store %tp, %tv, %m : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} cacheModifier = wb evictionPolicy = evict_first : tensor<8x!tt.ptr<f32>>
  tt.store %tp, %tv evictionPolicy = evict_first cacheModifier = wb : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} cacheModifier = cs : tensor<8x!tt.ptr<f32>>
  tt.store %tp, %tv, %m cacheModifier = cs : tensor<8x!tt.ptr<f32>>
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} cacheModifier = wt evictionPolicy = evict_last : !tt.ptr<f32>
  tt.store %p, %v cacheModifier = wt evictionPolicy = evict_last : !tt.ptr<f32>
  // CHECK: tt.store %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf16>>
  tt.store %bp, %blk {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<32x64xf16>>
  tt.return
}

// Every RMW op, memory semantic and scope.
// CHECK-LABEL: tt.func @atomics
tt.func @atomics(%pi: !tt.ptr<i32>, %i: i32, %tpf: tensor<8x!tt.ptr<f32>>,
                 %tf: tensor<8xf32>, %m: tensor<8xi1>, %tpi: tensor<8x!tt.ptr<i64>>,
                 %ti: tensor<8xi64>) {
  // CHECK: tt.atomic_rmw and, relaxed, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32) -> i32
  %0 = tt.atomic_rmw and, relaxed, gpu, %pi, %i : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_rmw or, acquire, cta, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32) -> i32
  %1 = tt.atomic_rmw or, acquire, cta, %pi, %i : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_rmw xor, release, sys, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32) -> i32
  %2 = tt.atomic_rmw xor, release, sys, %pi, %i : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_rmw add, acq_rel, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (tensor<8x!tt.ptr<i64>>, tensor<8xi64>, tensor<8xi1>) -> tensor<8xi64>
  %3 = tt.atomic_rmw add, acq_rel, gpu, %tpi, %ti, %m : (tensor<8x!tt.ptr<i64>>, tensor<8xi64>, tensor<8xi1>) -> tensor<8xi64>
  // CHECK: tt.atomic_rmw fadd, relaxed, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8xi1>) -> tensor<8xf32>
  %4 = tt.atomic_rmw fadd, relaxed, gpu, %tpf, %tf, %m : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8xi1>) -> tensor<8xf32>
  // CHECK: tt.atomic_rmw max, acq_rel, cta, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>) -> tensor<8xf32>
  %5 = tt.atomic_rmw max, acq_rel, cta, %tpf, %tf : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>) -> tensor<8xf32>
  // CHECK: tt.atomic_rmw min, acq_rel, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32) -> i32
  %6 = tt.atomic_rmw min, acq_rel, gpu, %pi, %i : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_rmw umax, acq_rel, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32) -> i32
  %7 = tt.atomic_rmw umax, acq_rel, gpu, %pi, %i : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_rmw umin, acq_rel, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32) -> i32
  %8 = tt.atomic_rmw umin, acq_rel, gpu, %pi, %i : (!tt.ptr<i32>, i32) -> i32
  // CHECK: tt.atomic_rmw exch, acq_rel, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8xi1>) -> tensor<8xf32>
  %9 = tt.atomic_rmw exch, acq_rel, gpu, %tpf, %tf, %m : (tensor<8x!tt.ptr<f32>>, tensor<8xf32>, tensor<8xi1>) -> tensor<8xf32>
  // CHECK: tt.atomic_cas acq_rel, gpu, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (!tt.ptr<i32>, i32, i32) -> i32
  %10 = tt.atomic_cas acq_rel, gpu, %pi, %i, %i : (!tt.ptr<i32>, i32, i32) -> i32
  // CHECK: tt.atomic_cas relaxed, sys, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : (tensor<8x!tt.ptr<i64>>, tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
  %11 = tt.atomic_cas relaxed, sys, %tpi, %ti, %ti : (tensor<8x!tt.ptr<i64>>, tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
  tt.return
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @shapes
tt.func @shapes(%f: f32, %p: !tt.ptr<f32>, %one: tensor<1x1xf32>,
                %v: tensor<8xf32>, %a: tensor<4x8xf32>, %r: tensor<1x8xf32>,
                %t3: tensor<2x4x8xi32>) {
  // CHECK: tt.splat %{{[[:alnum:]_]+}} : f32 -> tensor<8xf32>
  %0 = tt.splat %f : f32 -> tensor<8xf32>
  // CHECK: tt.splat %{{[[:alnum:]_]+}} : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %1 = tt.splat %p : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  // The result type is the element type and is not printed (Triton 3.6).
  // CHECK: tt.unsplat %{{[[:alnum:]_]+}} : tensor<1x1xf32>{{$}}
  %2 = tt.unsplat %one : tensor<1x1xf32>
  // CHECK: tt.expand_dims %{{[[:alnum:]_]+}} {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %3 = tt.expand_dims %v {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  // CHECK: tt.expand_dims %{{[[:alnum:]_]+}} {axis = 2 : i32} : tensor<4x8xf32> -> tensor<4x8x1xf32>
  %4 = tt.expand_dims %a {axis = 2 : i32} : tensor<4x8xf32> -> tensor<4x8x1xf32>
  // CHECK: tt.reshape %{{[[:alnum:]_]+}} : tensor<4x8xf32> -> tensor<32xf32>
  %5 = tt.reshape %a : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: tt.reshape %{{[[:alnum:]_]+}} allow_reorder : tensor<4x8xf32> -> tensor<2x16xf32>
  %6 = tt.reshape %a allow_reorder : tensor<4x8xf32> -> tensor<2x16xf32>
  // CHECK: tt.reshape %{{[[:alnum:]_]+}} allow_reorder efficient_layout : tensor<4x8xf32> -> tensor<8x4xf32>
  %7 = tt.reshape %a allow_reorder efficient_layout : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tt.broadcast %{{[[:alnum:]_]+}} : tensor<1x8xf32> -> tensor<4x8xf32>
  %8 = tt.broadcast %r : tensor<1x8xf32> -> tensor<4x8xf32>
  // cat only needs the element count to add up.
  // CHECK: tt.cat %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<4x8xf32> -> tensor<8x8xf32>
  %9 = tt.cat %a, %a : tensor<4x8xf32> -> tensor<8x8xf32>
  // CHECK: %[[J:.*]] = tt.join %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<4x8xf32> -> tensor<4x8x2xf32>
  %10 = tt.join %a, %a : tensor<4x8xf32> -> tensor<4x8x2xf32>
  // CHECK: %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} = tt.split %[[J]] : tensor<4x8x2xf32> -> tensor<4x8xf32>
  %11, %12 = tt.split %10 : tensor<4x8x2xf32> -> tensor<4x8xf32>
  // CHECK: tt.trans %{{[[:alnum:]_]+}} {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %13 = tt.trans %a {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: tt.trans %{{[[:alnum:]_]+}} {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  %14 = tt.trans %t3 {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
  tt.return
}

// CHECK-LABEL: tt.func @gather
tt.func @gather(%src: tensor<4x8xf32>, %idx: tensor<4x2xi32>,
                %idx0: tensor<16x8xi64>) {
  // CHECK: tt.gather %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  %0 = tt.gather %src[%idx] {axis = 1 : i32} : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x2xf32>
  // CHECK: tt.gather %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}] {axis = 0 : i32, efficient_layout} : (tensor<4x8xf32>, tensor<16x8xi64>) -> tensor<16x8xf32>
  %1 = tt.gather %src[%idx0] {axis = 0 : i32, efficient_layout} : (tensor<4x8xf32>, tensor<16x8xi64>) -> tensor<16x8xf32>
  tt.return
}

//===----------------------------------------------------------------------===//
// SPMD
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @spmd
tt.func @spmd() {
  // CHECK: tt.get_program_id x : i32
  %0 = tt.get_program_id x : i32
  // CHECK: tt.get_program_id y : i32
  %1 = tt.get_program_id y : i32
  // CHECK: tt.get_program_id z : i32
  %2 = tt.get_program_id z : i32
  // CHECK: tt.get_num_programs x : i32
  %3 = tt.get_num_programs x : i32
  // CHECK: tt.get_num_programs y : i32
  %4 = tt.get_num_programs y : i32
  // CHECK: tt.get_num_programs z : i32
  %5 = tt.get_num_programs z : i32
  // CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %6 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // CHECK: tt.make_range {end = 80 : i32, start = 16 : i32} : tensor<64xi32>
  %7 = tt.make_range {start = 16 : i32, end = 80 : i32} : tensor<64xi32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Matrix multiplication
//===----------------------------------------------------------------------===//

// Every input precision; ieee is the default and is not printed.
// CHECK-LABEL: tt.func @dot
tt.func @dot(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
             %ah: tensor<16x32xf16>, %bh: tensor<32x8xf16>,
             %a8: tensor<16x32xf8E4M3FN>, %b8: tensor<32x8xf8E5M2>,
             %ai: tensor<16x32xi8>, %bi: tensor<32x8xi8>, %ci: tensor<16x8xi32>,
             %a3: tensor<2x16x32xbf16>, %b3: tensor<2x32x8xbf16>,
             %c3: tensor<2x16x8xf32>) {
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %0 = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %1 = tt.dot %a, %b, %c, inputPrecision = ieee : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %2 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, inputPrecision = tf32x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %3 = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, inputPrecision = bf16x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %4 = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, inputPrecision = bf16x6 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  %5 = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  %6 = tt.dot %ah, %bh, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf8E4M3FN> * tensor<32x8xf8E5M2> -> tensor<16x8xf32>
  %7 = tt.dot %a8, %b8, %c {maxNumImpreciseAcc = 32 : i32} : tensor<16x32xf8E4M3FN> * tensor<32x8xf8E5M2> -> tensor<16x8xf32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  %8 = tt.dot %ai, %bi, %ci : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  // CHECK: tt.dot %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<2x16x32xbf16> * tensor<2x32x8xbf16> -> tensor<2x16x8xf32>
  %9 = tt.dot %a3, %b3, %c3 : tensor<2x16x32xbf16> * tensor<2x32x8xbf16> -> tensor<2x16x8xf32>
  tt.return
}

// Every scaled-dot element type. Scales hold one e8m0 exponent (i8) per 32
// elements of K; e2m1 packs two values per i8 along K unless k_pack is false,
// in which case it packs them along M (lhs) or N (rhs).
// CHECK-LABEL: tt.func @dot_scaled
tt.func @dot_scaled(%c: tensor<128x32xf32>,
                    %a_e4m3: tensor<128x64xf8E4M3FN>, %a_scale: tensor<128x2xi8>,
                    %b_e5m2: tensor<64x32xf8E5M2>, %b_scale: tensor<32x2xi8>,
                    %a_e2m1: tensor<128x32xi8>, %b_e2m1: tensor<32x32xi8>,
                    %a_e2m1_m: tensor<64x64xi8>,
                    %a_fp6: tensor<128x64xi8>, %b_fp6: tensor<64x32xi8>,
                    %a_bf16: tensor<128x64xbf16>, %b_bf16: tensor<64x32xbf16>,
                    %b_fp16: tensor<64x32xf16>) {
  // CHECK: tt.dot_scaled %{{[[:alnum:]_]+}} scale %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} scale %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x32xf8E5M2>, tensor<32x2xi8> -> tensor<128x32xf32>
  %0 = tt.dot_scaled %a_e4m3 scale %a_scale, %b_e5m2 scale %b_scale, %c lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x64xf8E4M3FN>, tensor<128x2xi8> * tensor<64x32xf8E5M2>, tensor<32x2xi8> -> tensor<128x32xf32>
  // CHECK: tt.dot_scaled %{{[[:alnum:]_]+}} scale %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} scale %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} lhs = e2m1 rhs = e2m1 {fastMath = true} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<128x32xf32>
  %1 = tt.dot_scaled %a_e2m1 scale %a_scale, %b_e2m1 scale %b_scale, %c lhs = e2m1 rhs = e2m1 {fastMath = true} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<128x32xf32>
  // CHECK: tt.dot_scaled %{{[[:alnum:]_]+}} scale %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} lhs = e2m1 rhs = bf16 {fastMath = false, lhs_k_pack = false} : tensor<64x64xi8>, tensor<128x2xi8> * tensor<64x32xbf16> -> tensor<128x32xf32>
  %2 = tt.dot_scaled %a_e2m1_m scale %a_scale, %b_bf16, %c lhs = e2m1 rhs = bf16 {fastMath = false, lhs_k_pack = false} : tensor<64x64xi8>, tensor<128x2xi8> * tensor<64x32xbf16> -> tensor<128x32xf32>
  // CHECK: tt.dot_scaled %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} scale %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} lhs = e2m3 rhs = e3m2 {fastMath = false} : tensor<128x64xi8> * tensor<64x32xi8>, tensor<32x2xi8> -> tensor<128x32xf32>
  %3 = tt.dot_scaled %a_fp6, %b_fp6 scale %b_scale, %c lhs = e2m3 rhs = e3m2 {fastMath = false} : tensor<128x64xi8> * tensor<64x32xi8>, tensor<32x2xi8> -> tensor<128x32xf32>
  // CHECK: tt.dot_scaled %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} lhs = bf16 rhs = fp16 {fastMath = false} : tensor<128x64xbf16> * tensor<64x32xf16> -> tensor<128x32xf32>
  %4 = tt.dot_scaled %a_bf16, %b_fp16, %c lhs = bf16 rhs = fp16 {fastMath = false} : tensor<128x64xbf16> * tensor<64x32xf16> -> tensor<128x32xf32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Reductions, scans and elementwise regions (printed in generic form)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @reduce
tt.func @reduce(%v: tensor<8xf32>, %a: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  // A rank-1 input reduces to a scalar.
  // CHECK: "tt.reduce"(%{{[[:alnum:]_]+}}) <{axis = 0 : i32}> ({
  // CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
  // CHECK-NEXT: tt.reduce.return %[[S]] : f32
  // CHECK-NEXT: }) : (tensor<8xf32>) -> f32
  %0 = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  // CHECK: "tt.reduce"(%{{[[:alnum:]_]+}}) <{axis = 1 : i32}> ({
  // CHECK: tt.reduce.return %{{[[:alnum:]_]+}} : f32
  // CHECK-NEXT: }) : (tensor<4x8xf32>) -> tensor<4xf32>
  %1 = "tt.reduce"(%a) <{axis = 1 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    %s = arith.maxnumf %x, %y : f32
    tt.reduce.return %s : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  // Several operands (an argmax): 2N block arguments, N yielded values.
  // CHECK: %{{[[:alnum:]_]+}}:2 = "tt.reduce"(%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}) <{axis = 0 : i32}> ({
  // CHECK-NEXT: ^bb0(%{{[[:alnum:]_]+}}: f32, %{{[[:alnum:]_]+}}: i32, %{{[[:alnum:]_]+}}: f32, %{{[[:alnum:]_]+}}: i32):
  // CHECK: tt.reduce.return %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : f32, i32
  // CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  %2:2 = "tt.reduce"(%a, %i) <{axis = 0 : i32}> ({
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %v2 = arith.select %gt, %v0, %v1 : f32
    %i2 = arith.select %gt, %i0, %i1 : i32
    tt.reduce.return %v2, %i2 : f32, i32
  }) : (tensor<4x8xf32>, tensor<4x8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  tt.return
}

// CHECK-LABEL: tt.func @scan
tt.func @scan(%v: tensor<8xi32>, %a: tensor<4x8xf32>) {
  // CHECK: "tt.scan"(%{{[[:alnum:]_]+}}) <{axis = 0 : i32, reverse = false}> ({
  // CHECK-NEXT: ^bb0(%{{[[:alnum:]_]+}}: i32, %{{[[:alnum:]_]+}}: i32):
  // CHECK: tt.scan.return %{{[[:alnum:]_]+}} : i32
  // CHECK-NEXT: }) : (tensor<8xi32>) -> tensor<8xi32>
  %0 = "tt.scan"(%v) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %y : i32
    tt.scan.return %s : i32
  }) : (tensor<8xi32>) -> tensor<8xi32>
  // CHECK: %{{[[:alnum:]_]+}}:2 = "tt.scan"(%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}) <{axis = 1 : i32, reverse = true}> ({
  // CHECK: tt.scan.return %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : f32, f32
  // CHECK-NEXT: }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %1:2 = "tt.scan"(%a, %a) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%x0: f32, %y0: f32, %x1: f32, %y1: f32):
    %s = arith.addf %x0, %x1 : f32
    %p = arith.mulf %y0, %y1 : f32
    tt.scan.return %s, %p : f32, f32
  }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  tt.return
}

// CHECK-LABEL: tt.func @map_elementwise
tt.func @map_elementwise(%x: tensor<128xi32>, %y: tensor<128xi32>,
                         %f: tensor<4x8xf32>) {
  // A region with several blocks, as Triton emits for a Python `if`.
  // CHECK: "tt.map_elementwise"(%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}) <{pack = 1 : i32}> ({
  // CHECK-NEXT: ^bb0(%{{[[:alnum:]_]+}}: i32, %{{[[:alnum:]_]+}}: i32):
  // CHECK: cf.cond_br
  // CHECK: ^bb1(%[[R:.*]]: i32):
  // CHECK-NEXT: tt.map_elementwise.return %[[R]] : i32
  // CHECK-NEXT: }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %0 = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %lt = arith.cmpi slt, %a, %b : i32
    cf.cond_br %lt, ^bb1(%c0 : i32), ^bb1(%a : i32)
  ^bb1(%r: i32):
    tt.map_elementwise.return %r : i32
  }) : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>
  // pack = 2: two scalars of each operand in, two of each result out.
  // CHECK: %{{[[:alnum:]_]+}}:2 = "tt.map_elementwise"(%{{[[:alnum:]_]+}}) <{pack = 2 : i32}> ({
  // CHECK-NEXT: ^bb0(%{{[[:alnum:]_]+}}: f32, %{{[[:alnum:]_]+}}: f32):
  // CHECK: tt.map_elementwise.return %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : f32, f32, i32, i32
  // CHECK-NEXT: }) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  %1:2 = "tt.map_elementwise"(%f) <{pack = 2 : i32}> ({
  ^bb0(%a0: f32, %a1: f32):
    %s = arith.addf %a0, %a1 : f32
    %i0 = arith.fptosi %a0 : f32 to i32
    %i1 = arith.fptosi %a1 : f32 to i32
    tt.map_elementwise.return %s, %s, %i0, %i1 : f32, f32, i32, i32
  }) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>)
  tt.return
}

// CHECK-LABEL: tt.func @extern_and_asm
tt.func @extern_and_asm(%x: tensor<8xf32>, %s: f32, %b: tensor<512xi8>,
                        %i: i32) {
  // CHECK: tt.extern_elementwise %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %0 = tt.extern_elementwise %x, %x {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  // CHECK: tt.extern_elementwise %{{[[:alnum:]_]+}} {libname = "", libpath = "", pure = false, symbol = "__nv_expf"} : (f32) -> f32
  %1 = tt.extern_elementwise %s {libname = "", libpath = "", pure = false, symbol = "__nv_expf"} : (f32) -> f32
  // CHECK: tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %{{[[:alnum:]_]+}} : tensor<512xi8> -> tensor<512xi8>
  %2 = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 4 : i32, pure = true} %b : tensor<512xi8> -> tensor<512xi8>
  // Several results, and a scalar.
  // CHECK: %{{[[:alnum:]_]+}}:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %{{[[:alnum:]_]+}} : i32 -> i32, i32
  %3:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %i : i32 -> i32, i32
  // No operands at all.
  // CHECK: tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  %4 = tt.elementwise_inline_asm "mov.u32 $0, %clock;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// CHECK-LABEL: tt.func @histogram
tt.func @histogram(%x: tensor<64xi32>, %m: tensor<64xi1>) {
  // CHECK: tt.histogram %{{[[:alnum:]_]+}} : tensor<64xi32> -> tensor<16xi32>
  %0 = tt.histogram %x : tensor<64xi32> -> tensor<16xi32>
  // CHECK: tt.histogram %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<64xi32> -> tensor<16xi32>
  %1 = tt.histogram %x, %m : tensor<64xi32> -> tensor<16xi32>
  tt.return
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @debug
tt.func @debug(%a: tensor<8xi32>, %b: tensor<8xf32>, %s: i64,
               %c: tensor<8xi1>, %c1: i1) {
  // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : tensor<8xi32>, tensor<8xf32>
  tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %a, %b : tensor<8xi32>, tensor<8xf32>
  // CHECK: tt.print "s" {hex = true, isSigned = array<i32: 0>} : %{{[[:alnum:]_]+}} : i64
  tt.print "s" {hex = true, isSigned = array<i32: 0>} : %s : i64
  // CHECK: tt.print "no args" {hex = false, isSigned = array<i32>}
  tt.print "no args" {hex = false, isSigned = array<i32>}
  // CHECK: tt.assert %{{[[:alnum:]_]+}}, "index out of bounds" : tensor<8xi1>
  tt.assert %c, "index out of bounds" : tensor<8xi1>
  // CHECK: tt.assert %{{[[:alnum:]_]+}}, "scalar" : i1
  tt.assert %c1, "scalar" : i1
  tt.return
}

//===----------------------------------------------------------------------===//
// Tensor descriptors
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func @descriptors
tt.func @descriptors(%base: !tt.ptr<f16>, %m: i32, %n: i32, %ld: i64,
                     %d: !tt.tensordesc<tensor<128x64xf16>>,
                     %d1: !tt.tensordesc<tensor<1x64xf16>>,
                     %v: tensor<128x64xf16>, %v1: tensor<64xf16>) {
  %c1 = arith.constant 1 : i64
  // Both types are printed without their `!tt.` prefix, as Triton does.
  // CHECK: tt.make_tensor_descriptor %{{[[:alnum:]_]+}}, [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : <f16>, <tensor<128x64xf16>>
  %0 = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<128x64xf16>>
  // CHECK: tt.make_tensor_descriptor %{{[[:alnum:]_]+}}, [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] {padding = 2 : i32} : <f16>, <tensor<128x64xf16>>
  %1 = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] {padding = 2 : i32} : <f16>, <tensor<128x64xf16>>
  // CHECK: tt.make_tensor_descriptor %{{[[:alnum:]_]+}}, [%{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}] : <f16>, <tensor<64xf16>>
  %2 = tt.make_tensor_descriptor %base, [%n], [%c1] {padding = 1 : i32} : <f16>, <tensor<64xf16>>
  // CHECK: tt.descriptor_load %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  %3 = tt.descriptor_load %d[%m, %n] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  // CHECK: tt.descriptor_load %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  %4 = tt.descriptor_load %d[%m, %n] evictionPolicy = evict_last cacheModifier = cg : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
  // A leading unit dimension of the block may be dropped.
  // CHECK: tt.descriptor_load %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : !tt.tensordesc<tensor<1x64xf16>> -> tensor<64xf16>
  %5 = tt.descriptor_load %d1[%m, %n] : !tt.tensordesc<tensor<1x64xf16>> -> tensor<64xf16>
  // CHECK: tt.descriptor_store %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
  tt.descriptor_store %d[%m, %n], %v : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
  // CHECK: tt.descriptor_store %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<1x64xf16>>, tensor<64xf16>
  tt.descriptor_store %d1[%m, %n], %v1 : !tt.tensordesc<tensor<1x64xf16>>, tensor<64xf16>
  tt.return
}

// Triton types an integer block signed or unsigned (`tl.make_tensor_descriptor`
// on an int32 pointer gives si32, on a uint8 pointer ui8) over a signless
// base pointer; the tensors moved through the descriptor stay signless.
// Lines as Triton 3.6 prints them.
// CHECK-LABEL: tt.func @descriptor_signedness
tt.func @descriptor_signedness(%in_ptr: !tt.ptr<i32>, %u8_ptr: !tt.ptr<i8>, %M: i32, %N: i32,
                               %d: i64, %c1_i64: i64, %c0_i32: i32,
                               %g: !tt.tensordesc<tensor<1x16xui32>>, %idx: tensor<8xi32>,
                               %r: !tt.tensordesc<tensor<16xui32>>, %v: tensor<16xi32>,
                               %h: !tt.tensordesc<tensor<64xsi64>>, %w: tensor<64xi64>) {
  // CHECK: tt.make_tensor_descriptor %{{[[:alnum:]_]+}}, [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : <i32>, <tensor<16x16xsi32>>
  %d_0 = tt.make_tensor_descriptor %in_ptr, [%M, %N], [%d, %c1_i64] : <i32>, <tensor<16x16xsi32>>
  // CHECK: tt.make_tensor_descriptor %{{[[:alnum:]_]+}}, [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], [%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : <i8>, <tensor<16x16xui8>>
  %o = tt.make_tensor_descriptor %u8_ptr, [%M, %N], [%d, %c1_i64] : <i8>, <tensor<16x16xui8>>
  // CHECK: tt.descriptor_load %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : !tt.tensordesc<tensor<16x16xsi32>> -> tensor<16x16xi32>
  %x = tt.descriptor_load %d_0[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<16x16xsi32>> -> tensor<16x16xi32>
  // CHECK: tt.descriptor_store %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<16x16xsi32>>, tensor<16x16xi32>
  tt.descriptor_store %d_0[%c0_i32, %c0_i32], %x : !tt.tensordesc<tensor<16x16xsi32>>, tensor<16x16xi32>
  // CHECK: tt.descriptor_load %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : !tt.tensordesc<tensor<16x16xui8>> -> tensor<16x16xi8>
  %y = tt.descriptor_load %o[%c0_i32, %c0_i32] : !tt.tensordesc<tensor<16x16xui8>> -> tensor<16x16xi8>
  // CHECK: tt.descriptor_store %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<16x16xui8>>, tensor<16x16xi8>
  tt.descriptor_store %o[%c0_i32, %c0_i32], %y : !tt.tensordesc<tensor<16x16xui8>>, tensor<16x16xi8>
  // CHECK: tt.descriptor_reduce min, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<16xui32>>, tensor<16xi32>
  tt.descriptor_reduce min, %r[%c0_i32], %v : !tt.tensordesc<tensor<16xui32>>, tensor<16xi32>
  // CHECK: tt.descriptor_reduce max, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<64xsi64>>, tensor<64xi64>
  tt.descriptor_reduce max, %h[%c0_i32], %w : !tt.tensordesc<tensor<64xsi64>>, tensor<64xi64>
  // CHECK: tt.descriptor_gather %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : (!tt.tensordesc<tensor<1x16xui32>>, tensor<8xi32>, i32) -> tensor<8x16xi32>
  %z = tt.descriptor_gather %g[%idx, %c0_i32] : (!tt.tensordesc<tensor<1x16xui32>>, tensor<8xi32>, i32) -> tensor<8x16xi32>
  // CHECK: tt.descriptor_scatter %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<1x16xui32>>, tensor<8xi32>, i32, tensor<8x16xi32>
  tt.descriptor_scatter %g[%idx, %c0_i32], %z : !tt.tensordesc<tensor<1x16xui32>>, tensor<8xi32>, i32, tensor<8x16xi32>
  tt.return
}

// tl.reshape of a one-element tensor to a scalar, as Triton 3.6 prints it.
// CHECK-LABEL: tt.func @unsplat_to_scalar
tt.func @unsplat_to_scalar(%x_0: tensor<1x1xi64>, %c1: i64) -> i64 {
  // CHECK: %[[S:[[:alnum:]_]+]] = tt.unsplat %{{[[:alnum:]_]+}} : tensor<1x1xi64>{{$}}
  %s = tt.unsplat %x_0 : tensor<1x1xi64>
  // CHECK: arith.addi %[[S]], %{{[[:alnum:]_]+}} : i64
  %0 = arith.addi %s, %c1 : i64
  tt.return %0 : i64
}

// Every descriptor reduction kind.
// CHECK-LABEL: tt.func @descriptor_reduce
tt.func @descriptor_reduce(%d: !tt.tensordesc<tensor<32x32xi32>>,
                           %df: !tt.tensordesc<32x32xf32>, %i: i32,
                           %v: tensor<32x32xi32>, %vf: tensor<32x32xf32>) {
  // CHECK: tt.descriptor_reduce add, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
  tt.descriptor_reduce add, %df[%i, %i], %vf : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
  // CHECK: tt.descriptor_reduce min, %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  tt.descriptor_reduce min, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce max,
  tt.descriptor_reduce max, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce inc,
  tt.descriptor_reduce inc, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce dec,
  tt.descriptor_reduce dec, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce and,
  tt.descriptor_reduce and, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce or,
  tt.descriptor_reduce or, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  // CHECK: tt.descriptor_reduce xor,
  tt.descriptor_reduce xor, %d[%i, %i], %v : !tt.tensordesc<tensor<32x32xi32>>, tensor<32x32xi32>
  tt.return
}

// Gather and scatter move whole rows of a [1, N] block.
// CHECK-LABEL: tt.func @descriptor_gather_scatter
tt.func @descriptor_gather_scatter(%d: !tt.tensordesc<tensor<1x128xbf16>>,
                                   %x: tensor<32xi32>, %y: i32,
                                   %v: tensor<32x128xbf16>) {
  // CHECK: tt.descriptor_gather %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  %0 = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32) -> tensor<32x128xbf16>
  // CHECK: tt.descriptor_scatter %{{[[:alnum:]_]+}}[%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}], %{{[[:alnum:]_]+}} : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  tt.descriptor_scatter %d[%x, %y], %v : !tt.tensordesc<tensor<1x128xbf16>>, tensor<32xi32>, i32, tensor<32x128xbf16>
  tt.return
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: tt.func private @declaration(i32, !tt.ptr<f32>) -> f32
tt.func private @declaration(i32, !tt.ptr<f32>) -> f32

// CHECK-LABEL: tt.func private @callee
// CHECK-SAME: (%{{[[:alnum:]_]+}}: i32, %{{[[:alnum:]_]+}}: f32) -> (i32, f32) attributes {noinline = true}
// CHECK: tt.return %{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}} : i32, f32
tt.func private @callee(%x: i32, %y: f32) -> (i32, f32) attributes {noinline = true} {
  tt.return %x, %y : i32, f32
}

// Kernel argument hints ride on the argument attributes.
// CHECK-LABEL: tt.func public @kernel
// CHECK-SAME: (%{{[[:alnum:]_]+}}: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %{{[[:alnum:]_]+}}: i32 {tt.divisibility = 16 : i32})
// CHECK: %{{[[:alnum:]_]+}}:2 = tt.call @callee(%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}) : (i32, f32) -> (i32, f32)
// CHECK: tt.call @declaration(%{{[[:alnum:]_]+}}, %{{[[:alnum:]_]+}}) : (i32, !tt.ptr<f32>) -> f32
// CHECK: tt.return{{$}}
tt.func public @kernel(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                       %n: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
  %f = arith.constant 1.0 : f32
  %0:2 = tt.call @callee(%n, %f) : (i32, f32) -> (i32, f32)
  %1 = tt.call @declaration(%n, %p) : (i32, !tt.ptr<f32>) -> f32
  tt.return
}
