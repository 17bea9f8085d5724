// RUN: kiln-opt -split-input-file -verify-diagnostics --ttgir-decompose-scaled-dot %s | FileCheck %s

// mxfp4 x bf16: the e2m1 nibbles (low first, packed along K) decoded into
// bf16 bits and interleaved back along K; the e8m0 scale shifted into the
// bf16 exponent, repeated over its 32 elements of K; NaN where the scale is
// 255; then an ordinary tt.dot.
// CHECK-LABEL: tt.func @mxfp4_x_bf16
// CHECK-DAG:  %[[NAN:.*]] = arith.constant dense<0x7FC0> : tensor<128x64xbf16>
// CHECK-DAG:  %[[FF:.*]] = arith.constant dense<-1> : tensor<128x2xi8>
// CHECK:      %[[HI:.*]] = arith.shrui %arg0, %{{.*}} : tensor<128x32xi8>
// CHECK:      %[[HIV:.*]] = tt.bitcast %{{.*}} : tensor<128x32xi16> -> tensor<128x32xbf16>
// CHECK:      %[[LOV:.*]] = tt.bitcast %{{.*}} : tensor<128x32xi16> -> tensor<128x32xbf16>
// CHECK:      %[[J:.*]] = tt.join %[[LOV]], %[[HIV]] : tensor<128x32xbf16> -> tensor<128x32x2xbf16>
// CHECK:      %[[A:.*]] = tt.reshape %[[J]] : tensor<128x32x2xbf16> -> tensor<128x64xbf16>
// CHECK:      %[[E:.*]] = arith.extui %arg1 : tensor<128x2xi8> to tensor<128x2xi16>
// CHECK:      %[[S:.*]] = arith.shli %[[E]], %{{.*}} : tensor<128x2xi16>
// CHECK:      %[[SB:.*]] = tt.bitcast %[[S]] : tensor<128x2xi16> -> tensor<128x2xbf16>
// CHECK:      %[[X:.*]] = tt.expand_dims %[[SB]] {axis = 2 : i32}
// CHECK:      %[[R:.*]] = tt.broadcast %[[X]] : tensor<128x2x1xbf16> -> tensor<128x2x32xbf16>
// CHECK:      %[[F:.*]] = tt.reshape %[[R]] : tensor<128x2x32xbf16> -> tensor<128x64xbf16>
// CHECK:      %[[M:.*]] = arith.mulf %[[A]], %[[F]] : tensor<128x64xbf16>
// CHECK:      %[[ISNAN:.*]] = arith.cmpi eq, %arg1, %[[FF]] : tensor<128x2xi8>
// CHECK:      %[[MASK:.*]] = tt.reshape %{{.*}} : tensor<128x2x32xi1> -> tensor<128x64xi1>
// CHECK:      %[[AS:.*]] = arith.select %[[MASK]], %[[NAN]], %[[M]]
// CHECK:      tt.dot %[[AS]], %arg2, %arg3 : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
// CHECK-NOT:  tt.dot_scaled
tt.func @mxfp4_x_bf16(%a: tensor<128x32xi8>, %sa: tensor<128x2xi8>, %b: tensor<64x128xbf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<128x32xi8>, tensor<128x2xi8> * tensor<64x128xbf16> -> tensor<128x128xf32>
  tt.return %d : tensor<128x128xf32>
}

// -----

// mxfp8 x mxfp8 with fast math: both sides upcast with tt.fp_to_fp; b's
// scale (given [N, K/32]) is transposed to [K/32, N] and repeated along K;
// no NaN masks.
// CHECK-LABEL: tt.func @mxfp8_fast
// CHECK:      %[[A:.*]] = tt.fp_to_fp %arg0 : tensor<64x64xf8E4M3FN> -> tensor<64x64xbf16>
// CHECK:      arith.mulf %[[A]], %{{.*}} : tensor<64x64xbf16>
// CHECK:      %[[B:.*]] = tt.fp_to_fp %arg2 : tensor<64x32xf8E5M2> -> tensor<64x32xbf16>
// CHECK:      %[[T:.*]] = tt.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<32x2xbf16> -> tensor<2x32xbf16>
// CHECK:      %[[X:.*]] = tt.expand_dims %[[T]] {axis = 1 : i32} : tensor<2x32xbf16> -> tensor<2x1x32xbf16>
// CHECK:      %[[R:.*]] = tt.broadcast %[[X]] : tensor<2x1x32xbf16> -> tensor<2x32x32xbf16>
// CHECK:      %[[F:.*]] = tt.reshape %[[R]] : tensor<2x32x32xbf16> -> tensor<64x32xbf16>
// CHECK:      arith.mulf %[[B]], %[[F]] : tensor<64x32xbf16>
// CHECK-NOT:  arith.select
// CHECK:      tt.dot
tt.func @mxfp8_fast(%a: tensor<64x64xf8E4M3FN>, %sa: tensor<64x2xi8>, %b: tensor<64x32xf8E5M2>, %sb: tensor<32x2xi8>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %d = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e5m2 {fastMath = true} : tensor<64x64xf8E4M3FN>, tensor<64x2xi8> * tensor<64x32xf8E5M2>, tensor<32x2xi8> -> tensor<64x32xf32>
  tt.return %d : tensor<64x32xf32>
}

// -----

// An f16 operand makes f16 the compute type: the scale goes through f32
// (2^(s - 127) does not fit f16's exponent) and is truncated. e2m1 packed
// along N (rhs_k_pack = false) is interleaved along N, b's last dimension:
// no transpose before the reshape.
// CHECK-LABEL: tt.func @fp16_x_mxfp4_packed_along_n
// CHECK:      %[[J:.*]] = tt.join %{{.*}}, %{{.*}} : tensor<64x16xf16> -> tensor<64x16x2xf16>
// CHECK:      tt.reshape %[[J]] : tensor<64x16x2xf16> -> tensor<64x32xf16>
// CHECK:      %[[W:.*]] = arith.extui %arg1 : tensor<32x2xi8> to tensor<32x2xi32>
// CHECK:      %[[S:.*]] = arith.shli %[[W]], %{{.*}} : tensor<32x2xi32>
// CHECK:      %[[F:.*]] = tt.bitcast %[[S]] : tensor<32x2xi32> -> tensor<32x2xf32>
// CHECK:      arith.truncf %[[F]] : tensor<32x2xf32> to tensor<32x2xf16>
// CHECK:      tt.dot %arg0, %{{.*}}, %arg3 : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
tt.func @fp16_x_mxfp4_packed_along_n(%a: tensor<64x64xf16>, %sb: tensor<32x2xi8>, %b: tensor<64x16xi8>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %d = tt.dot_scaled %a, %b scale %sb, %c lhs = fp16 rhs = e2m1 {fastMath = false, rhs_k_pack = false} : tensor<64x64xf16> * tensor<64x16xi8>, tensor<32x2xi8> -> tensor<64x32xf32>
  tt.return %d : tensor<64x32xf32>
}

// -----

// e2m1 packed along K of b (its rows): the pair dimension is moved next to
// K before the reshape.
// CHECK-LABEL: tt.func @bf16_x_mxfp4
// CHECK:      %[[J:.*]] = tt.join %{{.*}}, %{{.*}} : tensor<32x32xbf16> -> tensor<32x32x2xbf16>
// CHECK:      %[[T:.*]] = tt.trans %[[J]] {order = array<i32: 0, 2, 1>} : tensor<32x32x2xbf16> -> tensor<32x2x32xbf16>
// CHECK:      tt.reshape %[[T]] : tensor<32x2x32xbf16> -> tensor<64x32xbf16>
tt.func @bf16_x_mxfp4(%a: tensor<64x64xbf16>, %b: tensor<32x32xi8>, %sb: tensor<32x2xi8>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %d = tt.dot_scaled %a, %b scale %sb, %c lhs = bf16 rhs = e2m1 {fastMath = true} : tensor<64x64xbf16> * tensor<32x32xi8>, tensor<32x2xi8> -> tensor<64x32xf32>
  tt.return %d : tensor<64x32xf32>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
tt.func @with_layout(%a: tensor<32x32xbf16, #blocked>, %b: tensor<32x32xbf16, #blocked>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
  // expected-error @+1 {{op 'tt.dot_scaled' with a layout cannot be decomposed}}
  %d = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<32x32xbf16, #blocked> * tensor<32x32xbf16, #blocked> -> tensor<32x32xf32, #blocked>
  tt.return %d : tensor<32x32xf32, #blocked>
}
}

// -----

// Float scales (e4m3, one per 16 elements of K) are converted, and NaN
// where the scale is NaN.
// CHECK-LABEL: tt.func @float_scales
// CHECK:      %[[S:.*]] = tt.fp_to_fp %arg1 : tensor<64x4xf8E4M3FN> -> tensor<64x4xbf16>
// CHECK:      %[[X:.*]] = tt.expand_dims %[[S]] {axis = 2 : i32} : tensor<64x4xbf16> -> tensor<64x4x1xbf16>
// CHECK:      tt.broadcast %[[X]] : tensor<64x4x1xbf16> -> tensor<64x4x16xbf16>
// CHECK:      arith.cmpf uno, %[[S]], %[[S]] : tensor<64x4xbf16>
tt.func @float_scales(%a: tensor<64x32xi8>, %sa: tensor<64x4xf8E4M3FN>, %b: tensor<64x32xbf16>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %d = tt.dot_scaled %a scale %sa, %b, %c lhs = e2m1 rhs = bf16 {fastMath = false} : tensor<64x32xi8>, tensor<64x4xf8E4M3FN> * tensor<64x32xbf16> -> tensor<64x32xf32>
  tt.return %d : tensor<64x32xf32>
}
