// RUN: kiln-opt %s -split-input-file -ttir-rewrite-tensor-descriptor-to-pointer | FileCheck %s

// An in-kernel descriptor: i32 shape widened to i64, every dimension masked
// against it, and zero padding chosen by the (constant false) NaN flag.
// CHECK-LABEL: tt.func @load_2d
// CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f16>, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[LD:.*]]: i64
// CHECK-DAG: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK-DAG: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-DAG: %[[PADNAN:.*]] = arith.constant false
// CHECK: tt.splat %[[BASE]] : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
// CHECK: tt.splat %[[LD]] : i64 -> tensor<16x1xi64>
// CHECK: tt.addptr
// CHECK: %[[ADDR:.*]] = tt.addptr
// CHECK: tt.splat %[[M64]] : i64 -> tensor<16x1xi64>
// CHECK: %[[ROWS:.*]] = tt.broadcast %{{.*}} : tensor<16x1xi1> -> tensor<16x32xi1>
// CHECK: tt.splat %[[N64]] : i64 -> tensor<1x32xi64>
// CHECK: %[[COLS:.*]] = tt.broadcast %{{.*}} : tensor<1x32xi1> -> tensor<16x32xi1>
// CHECK: %[[MASK:.*]] = arith.andi %[[ROWS]], %[[COLS]] : tensor<16x32xi1>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf16>
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7E00> : tensor<16x32xf16>
// CHECK: %[[OTHER:.*]] = arith.select %[[PADNAN]], %[[NAN]], %[[ZERO]]
// CHECK: tt.load %[[ADDR]], %[[MASK]], %[[OTHER]] : tensor<16x32x!tt.ptr<f16>>
tt.func @load_2d(%base: !tt.ptr<f16>, %m: i32, %n: i32, %ld: i64, %i: i32, %j: i32) -> tensor<16x32xf16> {
  %c1 = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %base, [%m, %n], [%ld, %c1] : !tt.ptr<f16>, !tt.tensordesc<tensor<16x32xf16>>
  %v = tt.descriptor_load %d[%i, %j] : !tt.tensordesc<tensor<16x32xf16>> -> tensor<16x32xf16>
  tt.return %v : tensor<16x32xf16>
}

// -----

// padding = nan sets the flag; an integer block pads with zero regardless.
// CHECK-LABEL: tt.func @nan_flag_and_int_store
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: arith.select %[[T]]
// CHECK: tt.load
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %{{.*}} : tensor<8xi1>
// CHECK: tt.store %{{.*}}, %{{.*}}, %[[MASK]] : tensor<8x!tt.ptr<i32>>
tt.func @nan_flag_and_int_store(%a: !tt.ptr<f32>, %b: !tt.ptr<i32>, %n: i32, %v: tensor<8xi32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %da = tt.make_tensor_descriptor %a, [%n], [%c1] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<8xf32>>
  %x = tt.descriptor_load %da[%c0] : !tt.tensordesc<tensor<8xf32>> -> tensor<8xf32>
  %db = tt.make_tensor_descriptor %b, [%n], [%c1] : !tt.ptr<i32>, !tt.tensordesc<tensor<8xi32>>
  tt.descriptor_store %db[%c0], %v : !tt.tensordesc<tensor<8xi32>>, tensor<8xi32>
  tt.return %x : tensor<8xf32>
}

// -----

// A kernel argument of descriptor type becomes (base, shape..., strides...,
// padding-is-nan); the frontend's own i32 shape and i64 stride arguments
// after it stay. A rank-reduced load reshapes the loaded block.
// CHECK-LABEL: tt.func public @desc_arg
// CHECK-SAME: (%[[BASE:[^:]*]]: !tt.ptr<f32>, %[[S0:[^:]*]]: i64, %[[S1:[^:]*]]: i64, %[[T0:[^:]*]]: i64, %[[T1:[^:]*]]: i64, %[[PAD:[^:]*]]: i1, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i32 {tt.divisibility = 16 : i32})
// CHECK: tt.splat %[[BASE]] : !tt.ptr<f32> -> tensor<1x64x!tt.ptr<f32>>
// CHECK: arith.select %[[PAD]]
// CHECK: %[[BLOCK:.*]] = tt.load {{.*}} : tensor<1x64x!tt.ptr<f32>>
// CHECK: %[[ROW:.*]] = tt.reshape %[[BLOCK]] : tensor<1x64xf32> -> tensor<64xf32>
// CHECK: tt.return %[[ROW]]
tt.func public @desc_arg(%d: !tt.tensordesc<tensor<1x64xf32>>, %s0: i32, %s1: i32, %t0: i64, %t1: i64, %i: i32 {tt.divisibility = 16 : i32}) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %v = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<1x64xf32>> -> tensor<64xf32>
  tt.return %v : tensor<64xf32>
}

// -----

// A descriptor carried by scf.for: its parts are loop-carried.
// CHECK-LABEL: tt.func @desc_in_for
// CHECK: scf.for {{.*}} -> (!tt.ptr<f32>, i64, i64, i1)
// CHECK: tt.store
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<f32>, i64, i64, i1
tt.func @desc_in_for(%a: !tt.ptr<f32>, %n: i32, %v: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %one = arith.constant 1 : i64
  %d = tt.make_tensor_descriptor %a, [%n], [%one] : !tt.ptr<f32>, !tt.tensordesc<tensor<16xf32>>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%e = %d) -> (!tt.tensordesc<tensor<16xf32>>) : i32 {
    tt.descriptor_store %e[%k], %v : !tt.tensordesc<tensor<16xf32>>, tensor<16xf32>
    scf.yield %e : !tt.tensordesc<tensor<16xf32>>
  }
  tt.return
}

// -----

// Gather rows x_offsets at columns y + range; reduce becomes a masked
// atomic (fadd for floats, umax for an unsigned block).
// CHECK-LABEL: tt.func @gather_and_reduce
// CHECK: %[[X:.*]] = arith.extsi %{{.*}} : tensor<4xi32> to tensor<4xi64>
// CHECK: tt.expand_dims %[[X]] {axis = 1 : i32} : tensor<4xi64> -> tensor<4x1xi64>
// CHECK: tt.load {{.*}} : tensor<4x32x!tt.ptr<f32>>
// CHECK: tt.atomic_rmw fadd, release, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x32x!tt.ptr<f32>>, tensor<1x32xf32>, tensor<1x32xi1>) -> tensor<1x32xf32>
// CHECK: tt.atomic_rmw umax, release, gpu
tt.func @gather_and_reduce(%a: !tt.ptr<f32>, %u: !tt.ptr<i32>, %m: i32, %n: i32, %x: tensor<4xi32>, %y: i32, %v: tensor<1x32xf32>, %w: tensor<1x32xi32>) -> tensor<4x32xf32> {
  %one = arith.constant 1 : i64
  %ld = arith.constant 32 : i64
  %d = tt.make_tensor_descriptor %a, [%m, %n], [%ld, %one] : !tt.ptr<f32>, !tt.tensordesc<tensor<1x32xf32>>
  %g = tt.descriptor_gather %d[%x, %y] : (!tt.tensordesc<tensor<1x32xf32>>, tensor<4xi32>, i32) -> tensor<4x32xf32>
  tt.descriptor_reduce add, %d[%y, %y], %v : !tt.tensordesc<tensor<1x32xf32>>, tensor<1x32xf32>
  %du = tt.make_tensor_descriptor %u, [%m, %n], [%ld, %one] : !tt.ptr<i32>, !tt.tensordesc<tensor<1x32xui32>>
  tt.descriptor_reduce max, %du[%y, %y], %w : !tt.tensordesc<tensor<1x32xui32>>, tensor<1x32xi32>
  tt.return %g : tensor<4x32xf32>
}
