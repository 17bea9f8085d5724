// RUN: kiln-opt --llir-convert-to-llvm -split-input-file %s | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// Cache and eviction hints become the PTX accesses Triton 3.6 emits, still
// 16 bytes wide and predicated by the mask; evict hints add an L2 policy.
// CHECK-LABEL: llvm.func @hints(
// CHECK-NOT: llvm.cond_br
// CHECK:     llvm.inline_asm has_side_effects "{\0A\09mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$5 ld.global.cg.v4.b32 {$0, $1, $2, $3}, [$4];\0A\09}", "=r,=r,=r,=r,l,b" %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i1) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:     llvm.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK:     createpolicy.fractional.L2::evict_last.b64 pol, 1.0;\0A\09ld.global.L1::evict_last.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [$4], pol;
// A volatile load stays an LLVM load.
// CHECK:     llvm.load volatile %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.cond_br
// CHECK:     llvm.inline_asm has_side_effects "{\0A\09@$5 st.global.cs.v4.b32 [$0], {$1, $2, $3, $4};\0A\09}", "l,r,r,r,r,b"
// CHECK:     st.global.wt.L1::evict_first.L2::cache_hint.v4.b32 [$0], {$1, $2, $3, $4}, pol;
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @hints(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %nb = tt.splat %n : i32 -> tensor<128xi32, #blocked>
    %m = arith.cmpi slt, %r, %nb : tensor<128xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %a = tt.load %pp, %m cacheModifier = cg : tensor<128x!tt.ptr<f32>, #blocked>
    %b = tt.load %pp evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>, #blocked>
    %c = tt.load %pp {isVolatile = true} : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %pp, %a, %m cacheModifier = cs : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %pp, %b cacheModifier = wt evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// tt.print: one vprintf per register with Triton's format (index padded to
// the digits of its dimension, floats as double, the prefix inline);
// tt.assert: __assertfail where a register is false, then a barrier.
// CHECK-DAG: llvm.mlir.global internal constant @printfFormat_0("pid (%u, %u, %u) idx (%3u) x: (operand 0) %f\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @printfFormat_1("pid (%u, %u, %u) idx (%3u) x: (operand 1) %lli\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @printfFormat_2("pid (%u, %u, %u) hello\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @printfFormat_3("pid (%u, %u, %u) idx (%3u) h: 0x%08x\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertMessage_0("x must be positive\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertFile_0("kernel.py\00")
// CHECK-DAG: llvm.mlir.global internal constant @assertFunc_0("unknown\00")
// CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) attributes {passthrough = ["noreturn"]}
// CHECK-LABEL: llvm.func @debug(
// CHECK:     llvm.alloca %{{.*}} x !llvm.struct<(i32, i32, i32, i32, f64)>
// CHECK:     llvm.fpext %{{.*}} : f32 to f64
// CHECK:     llvm.call @vprintf(
// CHECK:     llvm.call @vprintf(
// CHECK:     llvm.call @vprintf(
// CHECK:     llvm.call @vprintf(
// CHECK:     llvm.cond_br
// CHECK:     %[[LINE:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK:     llvm.call @__assertfail(%{{.*}}, %{{.*}}, %[[LINE]], %{{.*}}, %{{.*}})
// CHECK:     nvvm.barrier0
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @debug(%x: tensor<128xf32, #blocked>, %i: tensor<128xi64, #blocked>, %u: tensor<128xi32, #blocked>, %c: tensor<128xi1, #blocked>) {
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %x, %i : tensor<128xf32, #blocked>, tensor<128xi64, #blocked>
    tt.print " hello" {hex = false, isSigned = array<i32>}
    tt.print " h: " {hex = true, isSigned = array<i32: 0>} : %u : tensor<128xi32, #blocked>
    tt.assert %c, "x must be positive" : tensor<128xi1, #blocked> loc("kernel.py":7:3)
    tt.return
  }
}

// -----

// A device function over register structs with its part of shared memory
// and the hidden scratch pointers; several results come back as a struct;
// tt.call passes a null part (the function needs no shared memory) and the
// caller's own hidden pointers.
// CHECK-LABEL: llvm.func internal @pair(
// CHECK-SAME: %{{.*}}: !llvm.struct<(f32, f32)>, %{{.*}}: f32, %{{.*}}: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>) -> !llvm.struct<(struct<(f32, f32)>, f32)> attributes {no_inline}
// CHECK:     llvm.return %{{.*}} : !llvm.struct<(struct<(f32, f32)>, f32)>
// CHECK-LABEL: llvm.func @caller(
// CHECK-SAME: %[[X:.*]]: !llvm.struct<(f32, f32)>, %[[S:.*]]: f32, %[[G:.*]]: !llvm.ptr<1>, %[[P:.*]]: !llvm.ptr<1>)
// CHECK:     %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr<3>
// CHECK:     %[[R:.*]] = llvm.call @pair(%[[X]], %[[S]], %[[NONE]], %[[G]], %[[P]])
// CHECK:     llvm.extractvalue %[[R]][0]
// CHECK:     llvm.extractvalue %[[R]][1]
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @pair(%x: tensor<64xf32, #blocked>, %s: f32) -> (tensor<64xf32, #blocked>, f32) attributes {noinline = true} {
    %0 = arith.addf %x, %x : tensor<64xf32, #blocked>
    tt.return %0, %s : tensor<64xf32, #blocked>, f32
  }
  tt.func public @caller(%x: tensor<64xf32, #blocked>, %s: f32) {
    %0:2 = tt.call @pair(%x, %s) : (tensor<64xf32, #blocked>, f32) -> (tensor<64xf32, #blocked>, f32)
    tt.return
  }
}
