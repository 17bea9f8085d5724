// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %s \
// RUN:   | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// An argmax (the corpus's row_sum_argmax): value and index travel together
// through the inlined combine region. The region is not one commutative op,
// so at each butterfly step the pair is put in lane order first (the lane
// whose bit is 0 on the left: selects on `lane & bit`), which makes both
// lanes of the pair compute the same tuple, NaNs and ties included. Each
// operand has its own 16-byte part of the scratch (f32 at 0, i32 at 16).
// CHECK: ttg.shared = 32 : i32
// CHECK-LABEL: llvm.func @argmax
// In-thread: registers 0 and 1 through the region, in register order.
// CHECK: %[[V0:.+]] = llvm.extractvalue %arg0[0]
// CHECK: %[[V1:.+]] = llvm.extractvalue %arg0[1]
// CHECK: %[[I0:.+]] = llvm.extractvalue %arg1[0]
// CHECK: %[[I1:.+]] = llvm.extractvalue %arg1[1]
// CHECK: llvm.fcmp "oeq" %[[V0]], %[[V1]] : f32
// CHECK: llvm.icmp "slt" %[[I0]], %[[I1]] : i32
// CHECK: llvm.fcmp "ogt" %[[V0]], %[[V1]] : f32
// The first butterfly step (lane bit 0): both operands shuffled, then
// ordered by the lane's bit.
// CHECK: %[[ONE:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[BIT:.+]] = llvm.and %{{.+}}, %[[ONE]] : i32
// CHECK: %[[UPPER:.+]] = llvm.icmp "ne" %[[BIT]]
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: %[[LV:.+]] = llvm.select %[[UPPER]], %[[OV:.+]], %[[MV:.+]] : i1, f32
// CHECK: %[[LI:.+]] = llvm.select %[[UPPER]], %[[OI:.+]], %[[MI:.+]] : i1, i32
// CHECK: %[[RV:.+]] = llvm.select %[[UPPER]], %[[MV]], %[[OV]] : i1, f32
// CHECK: %[[RI:.+]] = llvm.select %[[UPPER]], %[[MI]], %[[OI]] : i1, i32
// CHECK: llvm.fcmp "oeq" %[[LV]], %[[RV]] : f32
// CHECK: llvm.icmp "slt" %[[LI]], %[[RI]] : i32
// CHECK-COUNT-8: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// Across warps: both partials stored, one barrier, both read back.
// CHECK: llvm.cond_br
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: %[[IBASE:.+]] = llvm.getelementptr %{{.+}}[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[ISLOT:.+]] = llvm.getelementptr %[[IBASE]][%{{.+}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.store %{{.+}}, %[[ISLOT]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: nvvm.shfl.sync
// CHECK: "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %arg2
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @argmax(%v: tensor<256xf32, #blocked>, %i: tensor<256xi32, #blocked>, %out: !tt.ptr<i32>) {
    %r:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %tie = arith.cmpf oeq, %a, %b : f32
      %lower = arith.cmpi slt, %ai, %bi : i32
      %tie_lower = arith.andi %tie, %lower : i1
      %gt = arith.cmpf ogt, %a, %b : f32
      %take = arith.ori %gt, %tie_lower : i1
      %rv = arith.select %take, %a, %b : f32
      %ri = arith.select %take, %ai, %bi : i32
      tt.reduce.return %rv, %ri : f32, i32
    }) : (tensor<256xf32, #blocked>, tensor<256xi32, #blocked>) -> (f32, i32)
    tt.store %out, %r#1 : !tt.ptr<i32>
    tt.return
  }
}
