// RUN: kiln-opt --llir-convert-to-llvm -split-input-file %s | FileCheck %s

// 64 elements over 128 threads: warps 2 and 3 hold copies of warps 0 and 1
// (the layout's warp bit 1 is free), so only threads with warp & 2 == 0
// store; every lane of those warps owns its element.
// CHECK-LABEL: llvm.func @warp_copies
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %{{.*}}
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[BIT:.*]] = llvm.and %[[WARP]], %[[TWO]]
// CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[BIT]], %{{.*}}
// CHECK: "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warp_copies(%p: tensor<64x!tt.ptr<i32>, #b>, %v: tensor<64xi32, #b>) {
    tt.store %p, %v : tensor<64x!tt.ptr<i32>, #b>
    tt.return
  }
}

// -----

// A scalar every thread holds is stored by thread 0 alone (lane 0 of warp
// 0), and a store mask is kept on top of that.
// CHECK-LABEL: llvm.func @scalar
// CHECK: %[[LANE0:.*]] = llvm.icmp "eq"
// CHECK: %[[WARP0:.*]] = llvm.icmp "eq"
// CHECK: %[[T0:.*]] = llvm.and %[[LANE0]], %[[WARP0]]
// CHECK: %[[PRED:.*]] = llvm.and %arg2, %[[T0]]
// CHECK: "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %arg0, %{{.*}}, %[[PRED]]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar(%p: !tt.ptr<f32>, %v: f32, %m: i1) {
    tt.store %p, %v, %m : !tt.ptr<f32>
    tt.return
  }
}
