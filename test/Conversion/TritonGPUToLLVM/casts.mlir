// RUN: kiln-opt --llir-convert-to-llvm -split-input-file %s | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// tt.fp_to_fp as Triton 3.6 on sm_90: fp8 through the paired cvt
// (satfinite, round to nearest even), two registers per instruction.
// CHECK-LABEL: llvm.func @to_fp8(
// CHECK:     llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1;", "=h,r,r" %{{.*}}, %{{.*}} : (f32, f32) -> i16
// CHECK:     llvm.lshr
// CHECK:     llvm.trunc %{{.*}} : i16 to i8
// CHECK-NOT: cvt.rn.satfinite.e4m3x2
// CHECK:     llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK:     llvm.inline_asm "cvt.rn.satfinite.e5m2x2.f16x2 $0, $1;", "=h,r" %{{.*}} : (i32) -> i16
// bf16 goes through f32 (exactly).
// CHECK:     llvm.fpext %{{.*}} : bf16 to f32
// CHECK:     llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $2, $1;"
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @to_fp8(%x: tensor<64xf32, #blocked>, %h: tensor<64xf16, #blocked>, %b: tensor<64xbf16, #blocked>) {
    %0 = tt.fp_to_fp %x, rounding = rtne : tensor<64xf32, #blocked> -> tensor<64xf8E4M3FN, #blocked>
    %1 = tt.fp_to_fp %h, rounding = rtne : tensor<64xf16, #blocked> -> tensor<64xf8E5M2, #blocked>
    %2 = tt.fp_to_fp %b, rounding = rtne : tensor<64xbf16, #blocked> -> tensor<64xf8E4M3FN, #blocked>
    tt.return
  }
}

// -----

// fp8 back to wider floats: exact, through f16 pairs; toward-zero f32 to
// f16/bf16 by cvt.rz; f32 to e5m2 toward zero keeps the high byte of the
// f16; a scalar pairs with itself.
// CHECK-LABEL: llvm.func @from_fp8(
// CHECK:     llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %{{.*}} : (i16) -> i32
// CHECK:     llvm.fpext %{{.*}} : f16 to f32
// CHECK:     llvm.fpext %{{.*}} : f16 to f32
// CHECK:     llvm.inline_asm "cvt.rz.f16.f32 $0, $1;", "=h,r" %{{.*}} : (f32) -> i16
// CHECK:     llvm.inline_asm "cvt.rz.bf16.f32 $0, $1;", "=h,r" %{{.*}} : (f32) -> i16
// CHECK:     llvm.fptrunc %{{.*}} : f32 to f16
// CHECK:     llvm.inline_asm "cvt.rz.f16.f32 $0, $1;"
// CHECK:     %[[HI:.*]] = llvm.lshr %{{.*}}, %{{.*}} : i16
// CHECK:     llvm.trunc %[[HI]] : i16 to i8
// CHECK:     llvm.inline_asm "cvt.rn.f16x2.e5m2x2 $0, $1;"
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @from_fp8(%q: tensor<64xf8E4M3FN, #blocked>, %x: tensor<64xf32, #blocked>, %s: f32, %e: f8E5M2) {
    %0 = tt.fp_to_fp %q : tensor<64xf8E4M3FN, #blocked> -> tensor<64xf32, #blocked>
    %1 = tt.fp_to_fp %x, rounding = rtz : tensor<64xf32, #blocked> -> tensor<64xf16, #blocked>
    %2 = tt.fp_to_fp %x, rounding = rtz : tensor<64xf32, #blocked> -> tensor<64xbf16, #blocked>
    %3 = tt.fp_to_fp %x, rounding = rtne : tensor<64xf32, #blocked> -> tensor<64xf16, #blocked>
    %4 = tt.fp_to_fp %s, rounding = rtz : f32 -> f8E5M2
    %5 = tt.fp_to_fp %e : f8E5M2 -> f16
    tt.return
  }
}

// -----

// Before sm_89 there is no cvt from fp8: e4m3 bits move into an f16 and are
// rescaled by 256 (NaN kept apart); e5m2 is the high byte of an f16.
// CHECK-LABEL: llvm.func @from_fp8_sm80(
// CHECK-NOT: e4m3x2
// CHECK:     %[[C7:.*]] = llvm.mlir.constant(7 : i16) : i16
// CHECK:     %[[MAG:.*]] = llvm.shl %{{.*}}, %[[C7]] : i16
// CHECK:     %[[BITS:.*]] = llvm.or %[[MAG]], %{{.*}} : i16
// CHECK:     %[[C256:.*]] = llvm.mlir.constant(2.560000e+02 : f16) : f16
// CHECK:     %[[H:.*]] = llvm.bitcast %[[BITS]] : i16 to f16
// CHECK:     %[[V:.*]] = llvm.fmul %[[H]], %[[C256]] : f16
// CHECK:     %[[C127:.*]] = llvm.mlir.constant(127 : i16) : i16
// CHECK:     %[[NAN:.*]] = llvm.icmp "eq" %{{.*}}, %[[C127]] : i16
// CHECK:     llvm.select %[[NAN]], %{{.*}}, %[[V]] : i1, f16
// CHECK-LABEL: llvm.func @from_e5m2_sm80(
// CHECK-NOT: e5m2x2
// CHECK:     %[[BYTE:.*]] = llvm.and %{{.*}}, %{{.*}} : i16
// CHECK:     %[[E5:.*]] = llvm.shl %[[BYTE]], %{{.*}} : i16
// CHECK-NEXT: llvm.bitcast %[[E5]] : i16 to f16
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @from_fp8_sm80(%q: tensor<64xf8E4M3FN, #blocked>) {
    %0 = tt.fp_to_fp %q : tensor<64xf8E4M3FN, #blocked> -> tensor<64xbf16, #blocked>
    tt.return
  }
  tt.func public @from_e5m2_sm80(%e: f8E5M2) {
    %1 = tt.fp_to_fp %e : f8E5M2 -> f16
    tt.return
  }
}

// -----

// tt.elementwise_inline_asm: 4 packed i8 elements travel in one 32-bit
// register; two results come back as a struct, one asm per 4 registers.
// CHECK-LABEL: llvm.func @inline_asm(
// CHECK:     llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
// CHECK:     llvm.inline_asm has_side_effects "shl.b32 $0, $2, 1; mov.b32 $1, $2;", "=r,=r,r" %{{.*}} : (vector<4xi8>) -> !llvm.struct<(vector<4xi8>, vector<4xi8>)>
// CHECK:     llvm.extractvalue %{{.*}}[1] : !llvm.struct<(vector<4xi8>, vector<4xi8>)>
// CHECK:     llvm.inline_asm has_side_effects "shl.b32 $0, $2, 1; mov.b32 $1, $2;"
// CHECK-NOT: llvm.inline_asm
// A pure asm of 32-bit values, one register at a time, without side effects.
// CHECK:     llvm.inline_asm "add.f32 $0, $1, $2;", "=r,r,r" %{{.*}}, %{{.*}} : (f32, f32) -> f32
// CHECK-NOT: has_side_effects
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @inline_asm(%x: tensor<256xi8, #blocked>, %f: f32) {
    %0:2 = tt.elementwise_inline_asm "shl.b32 $0, $2, 1; mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 4 : i32, pure = false} %x : tensor<256xi8, #blocked> -> tensor<256xi8, #blocked>, tensor<256xi8, #blocked>
    %1 = tt.elementwise_inline_asm "add.f32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %f, %f : f32, f32 -> f32
    tt.return
  }
}

// -----

// An fp8 splat constant (a masked load's `other`) is its bits in an i8 in
// every register: LLVM has no fp8 type.
// CHECK-LABEL: llvm.func @fp8_constant
// CHECK: %[[BITS:.*]] = llvm.mlir.constant(56 : i8) : i8
// CHECK: llvm.insertvalue %[[BITS]], %{{.*}}[0] : !llvm.struct<(i8, i8)>
// CHECK: llvm.insertvalue %[[BITS]], %{{.*}}[1] : !llvm.struct<(i8, i8)>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_constant(%p: !tt.ptr<f8E4M3FN>) {
    %one = arith.constant dense<1.000000e+00> : tensor<256xf8E4M3FN, #b>
    %ps = tt.splat %p : !tt.ptr<f8E4M3FN> -> tensor<256x!tt.ptr<f8E4M3FN>, #b>
    tt.store %ps, %one : tensor<256x!tt.ptr<f8E4M3FN>, #b>
    tt.return
  }
}
