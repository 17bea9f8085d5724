// RUN: kiln-opt --llir-convert-to-llvm -split-input-file %s | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// Math as Triton 3.6 lowers it on NVIDIA: f32 exp is x * log2(e) through
// ex2.approx; the other functions, and every f64 one, call libdevice;
// f16 goes through the f32 function.
// CHECK-DAG: llvm.func @__nv_exp(f64) -> f64
// CHECK-DAG: llvm.func @__nv_logf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_sinf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_sqrtf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_rsqrtf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_exp2f(f32) -> f32
// CHECK-DAG: llvm.func @__nv_tanhf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_floorf(f32) -> f32
// CHECK-LABEL: llvm.func @math(
// CHECK:      %[[L2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
// CHECK:      %[[S:.*]] = llvm.fmul %{{.*}}, %[[L2E]] : f32
// CHECK:      llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[S]]) : (f32) -> f32
// CHECK:      llvm.call @__nv_exp2f(%{{.*}}) : (f32) -> f32
// CHECK:      llvm.call @__nv_logf(%{{.*}}) : (f32) -> f32
// CHECK:      llvm.call @__nv_sqrtf(%{{.*}}) : (f32) -> f32
// CHECK:      llvm.call @__nv_rsqrtf(%{{.*}}) : (f32) -> f32
// CHECK:      llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK:      llvm.call @__nv_floorf(%{{.*}}) : (f32) -> f32
// CHECK:      llvm.call @__nv_exp(%{{.*}}) : (f64) -> f64
// CHECK:      %[[W:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK:      %[[R:.*]] = llvm.call @__nv_sinf(%[[W]]) : (f32) -> f32
// CHECK:      llvm.fptrunc %[[R]] : f32 to f16
// The absolute value and fma stay LLVM's.
// CHECK:      llvm.intr.fabs
// CHECK:      llvm.intr.fma
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @math(%x: tensor<32xf32, #blocked>, %d: tensor<32xf64, #blocked>, %h: tensor<32xf16, #blocked>) {
    %0 = math.exp %x : tensor<32xf32, #blocked>
    %1 = math.exp2 %x : tensor<32xf32, #blocked>
    %2 = math.log %x : tensor<32xf32, #blocked>
    %3 = math.sqrt %x : tensor<32xf32, #blocked>
    %4 = math.rsqrt %x : tensor<32xf32, #blocked>
    %5 = math.tanh %x : tensor<32xf32, #blocked>
    %6 = math.floor %x : tensor<32xf32, #blocked>
    %7 = math.exp %d : tensor<32xf64, #blocked>
    %8 = math.sin %h : tensor<32xf16, #blocked>
    %9 = math.absf %x : tensor<32xf32, #blocked>
    %10 = math.fma %x, %x, %x : tensor<32xf32, #blocked>
    tt.return
  }
}

// -----

// Division: arith.divf on f32 is Triton's fast division (div.full), the
// precise ops round correctly; f64 is LLVM's (IEEE) division and sqrt.
// CHECK-LABEL: llvm.func @division(
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.rn.f"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%{{.*}}) : (f32) -> f32
// CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f64
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
// CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f64
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @division(%x: tensor<32xf32, #blocked>, %d: f64) {
    %0 = arith.divf %x, %x : tensor<32xf32, #blocked>
    %1 = tt.precise_divf %x, %x : tensor<32xf32, #blocked>
    %2 = tt.precise_sqrt %x : tensor<32xf32, #blocked>
    %3 = tt.precise_divf %d, %d : f64
    %4 = tt.precise_sqrt %d : f64
    %5 = arith.divf %d, %d : f64
    tt.return
  }
}

// -----

// mulhiui through libdevice, on scalars and tensors; clampf as max then min
// (NaN-propagating: maximum/minimum); bitcasts and pointer casts.
// CHECK-DAG: llvm.func @__nv_umulhi(i32, i32) -> i32
// CHECK-DAG: llvm.func @__nv_umul64hi(i64, i64) -> i64
// CHECK-LABEL: llvm.func @ints(
// CHECK: llvm.call @__nv_umulhi(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.call @__nv_umulhi(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.call @__nv_umulhi(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.call @__nv_umul64hi(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: %[[MX:.*]] = llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%[[MX]], %{{.*}}) : (f32, f32) -> f32
// CHECK: %[[MA:.*]] = llvm.intr.maximum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.minimum(%[[MA]], %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.bitcast %{{.*}} : i32 to f32
// CHECK: llvm.bitcast %{{.*}} : i32 to f32
// CHECK: %[[I:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: llvm.inttoptr %[[I]] : i64 to !llvm.ptr<1>
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @ints(%a: i32, %t: tensor<64xi32, #blocked>, %l: i64, %x: f32, %p: !tt.ptr<f32>) {
    %0 = tt.mulhiui %a, %a : i32
    %1 = tt.mulhiui %t, %t : tensor<64xi32, #blocked>
    %2 = tt.mulhiui %l, %l : i64
    %3 = tt.clampf %x, %x, %x, propagateNan = none : f32
    %4 = tt.clampf %x, %x, %x, propagateNan = all : f32
    %5 = tt.bitcast %t : tensor<64xi32, #blocked> -> tensor<64xf32, #blocked>
    %6 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %7 = tt.int_to_ptr %6 : i64 -> !tt.ptr<f32>
    tt.return
  }
}

// -----

// tt.extern_elementwise calls its symbol per register; a pure one touches
// no memory, so LLVM may drop an unused call.
// CHECK-DAG: llvm.func @__nv_tanhf(f32) -> f32
// CHECK-DAG: llvm.func @my_fn(f32, i32) -> f32
// CHECK-LABEL: llvm.func @extern(
// CHECK: llvm.call @__nv_tanhf(%{{.*}}) {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none{{.*}}>} : (f32) -> f32
// CHECK: llvm.call @my_fn(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
// CHECK-NOT: memory_effects
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @extern(%x: tensor<32xf32, #blocked>, %i: tensor<32xi32, #blocked>) {
    %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<32xf32, #blocked>) -> tensor<32xf32, #blocked>
    %1 = tt.extern_elementwise %x, %i {libname = "mine", libpath = "/x.bc", pure = false, symbol = "my_fn"} : (tensor<32xf32, #blocked>, tensor<32xi32, #blocked>) -> tensor<32xf32, #blocked>
    tt.return
  }
}

// -----

// fp8 values are their bits in an i8: |x| clears the sign bit, -x flips it.
// CHECK-LABEL: llvm.func @fp8_abs_neg(
// CHECK: %[[ABS:.*]] = llvm.mlir.constant(127 : i8) : i8
// CHECK-COUNT-2: llvm.and %{{.*}}, %[[ABS]] : i8
// CHECK: %[[NEG:.*]] = llvm.mlir.constant(-128 : i8) : i8
// CHECK-COUNT-2: llvm.xor %{{.*}}, %[[NEG]] : i8
// CHECK-NOT: llvm.intr.fabs
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @fp8_abs_neg(%x: tensor<64xf8E4M3FN, #blocked>, %p: tensor<64x!tt.ptr<f8E4M3FN>, #blocked>) {
    %a = math.absf %x : tensor<64xf8E4M3FN, #blocked>
    %n = arith.negf %a : tensor<64xf8E4M3FN, #blocked>
    tt.store %p, %n : tensor<64x!tt.ptr<f8E4M3FN>, #blocked>
    tt.return
  }
}
