// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm -split-input-file %s \
// RUN:   | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// Replicated elements are never combined with their copies.
//
// 64 elements over 128 threads: the layout's warp=2 basis is 0, so warps 2
// and 3 hold copies of warps 0 and 1 (lanes and warp=1 cover the 64
// elements once). Why the IR proves the sum counts each element once:
//  - only 2 warp slots exist (ttg.shared = 8: 2 x f32), written by threads
//    with lane = 0 and (warp & 2) = 0, i.e. warps 0 and 1 only — the
//    copies in warps 2 and 3 never write;
//  - the write slot is `warp & 1`, and the reader loads exactly those 2
//    slots (one vector<2xf32>) and adds them once: 5 butterfly steps (32
//    lanes, all distinct) plus 1 add, 63 additions for 64 elements.
// Adding all 4 warps' partials would double the sum.
// CHECK: ttg.shared = 8 : i32
// CHECK-LABEL: llvm.func @copies_across_warps
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.+]] = llvm.urem %[[TID]]
// CHECK: %[[WARP:.+]] = llvm.udiv %[[TID]]
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[M31:.+]] = llvm.mlir.constant(31 : i32)
// CHECK: %[[L:.+]] = llvm.and %[[LANE]], %[[M31]]
// CHECK: %[[LANE0:.+]] = llvm.icmp "eq" %[[L]]
// CHECK: %[[M2:.+]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[W:.+]] = llvm.and %[[WARP]], %[[M2]]
// CHECK: %[[NOTCOPY:.+]] = llvm.icmp "eq" %[[W]]
// CHECK: %[[WRITER:.+]] = llvm.and %[[LANE0]], %[[NOTCOPY]]
// CHECK: %[[M1:.+]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[POS:.+]] = llvm.and %[[WARP]], %[[M1]]
// CHECK: llvm.cond_br %[[WRITER]]
// CHECK: llvm.getelementptr %{{.+}}[%[[POS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store {{.+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[BOTH:.+]] = llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK: %[[P0:.+]] = llvm.extractelement %[[BOTH]]
// CHECK: %[[P1:.+]] = llvm.extractelement %[[BOTH]]
// CHECK: %[[SUM:.+]] = llvm.fadd %[[P0]], %[[P1]] : f32
// CHECK-NOT: llvm.fadd
// CHECK-NOT: llvm.load
// CHECK: %[[BITS:.+]] = llvm.bitcast %[[SUM]] : f32 to i32
// CHECK: "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %arg1, %[[BITS]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copies_across_warps(%x: tensor<64xf32, #blocked>, %out: !tt.ptr<f32>) {
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64xf32, #blocked>) -> f32
    tt.store %out, %r : !tt.ptr<f32>
    tt.return
  }
}

// -----

// 16 elements over one warp: lane=16's basis is 0 (lanes 16-31 hold copies
// of lanes 0-15), so the butterfly runs over lanes 1, 2, 4, 8 only — a step
// over 16 would add every element twice. No shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @copies_across_lanes
// CHECK: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.bitcast
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK-NEXT: llvm.bitcast
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK-NEXT: llvm.bitcast
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(8 : i32)
// CHECK-NEXT: llvm.bitcast
// CHECK: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @copies_across_lanes(%x: tensor<16xf32, #blocked>, %out: !tt.ptr<f32>) {
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<16xf32, #blocked>) -> f32
    tt.store %out, %r : !tt.ptr<f32>
    tt.return
  }
}
