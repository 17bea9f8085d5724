// RUN: kiln-opt %s -split-input-file --ttgir-split-tf32x3-dots | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-split-tf32x3-dots | kiln-opt -split-input-file > /dev/null

// A tf32x3 dot: three tf32 dots of the operands' big parts (rounded to
// the top 19 bits, a NaN kept) and small rests, the cross terms into zero
// with a NaN there dropped, the big product onto them, the accumulator
// last. Layouts stay as they were.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #blocked}>
#b = #ttg.dot_op<{opIdx = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @tf32x3
// CHECK-SAME: (%[[A:.*]]: tensor<32x32xf32, #{{.*}}>, %[[B:.*]]: tensor<32x32xf32, #{{.*}}>, %[[C:.*]]: tensor<32x32xf32, #blocked>)
// CHECK: %[[AI:.*]] = arith.bitcast %[[A]]
// CHECK: %[[AH:.*]] = arith.constant dense<4096> : tensor<32x32xi32
// CHECK: %[[AMASK:.*]] = arith.constant dense<-8192> : tensor<32x32xi32
// CHECK: %[[AR:.*]] = arith.addi %[[AI]], %[[AH]]
// CHECK: %[[AM:.*]] = arith.andi %[[AR]], %[[AMASK]]
// CHECK: %[[ANAN:.*]] = arith.cmpf uno, %[[A]], %[[A]]
// CHECK: %[[AMF:.*]] = arith.bitcast %[[AM]] {{.*}} to tensor<32x32xf32
// CHECK: %[[ABIG:.*]] = arith.select %[[ANAN]], %[[A]], %[[AMF]]
// CHECK: %[[BI:.*]] = arith.bitcast %[[B]]
// CHECK: %[[BNAN:.*]] = arith.cmpf uno, %[[B]], %[[B]]
// CHECK: %[[BBIG:.*]] = arith.select %[[BNAN]], %[[B]], %{{.*}}
// CHECK: %[[ASMALL:.*]] = arith.subf %[[A]], %[[ABIG]]
// CHECK: %[[BSMALL:.*]] = arith.subf %[[B]], %[[BBIG]]
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #blocked>
// CHECK: %[[D1:.*]] = tt.dot %[[ASMALL]], %[[BBIG]], %[[ZERO]], inputPrecision = tf32
// CHECK: %[[D2:.*]] = tt.dot %[[ABIG]], %[[BSMALL]], %[[D1]], inputPrecision = tf32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[D2]], %[[D2]]
// CHECK: %[[CROSS:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[D2]]
// CHECK: %[[D3:.*]] = tt.dot %[[ABIG]], %[[BBIG]], %[[CROSS]], inputPrecision = tf32
// CHECK-NOT: tf32x3
// CHECK: %[[R:.*]] = arith.addf %[[D3]], %[[C]]
// CHECK-NOT: tf32x3
// CHECK: tt.return %[[R]]
  tt.func @tf32x3(%a: tensor<32x32xf32, #a>, %b: tensor<32x32xf32, #b>, %c: tensor<32x32xf32, #blocked>) -> tensor<32x32xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #blocked>
    tt.return %d : tensor<32x32xf32, #blocked>
  }
}

// -----

// Other precisions, and tf32x3 on other types, are left alone.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #blocked}>
#b = #ttg.dot_op<{opIdx = 1, parent = #blocked}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @others
// CHECK-NEXT: tt.dot {{.*}} inputPrecision = tf32 :
// CHECK-NEXT: tt.dot {{.*}} : tensor<32x32xf32
// CHECK-NEXT: tt.dot {{.*}} inputPrecision = tf32x3 : tensor<32x32xf16
// CHECK-NEXT: tt.return
  tt.func @others(%a: tensor<32x32xf32, #a>, %b: tensor<32x32xf32, #b>, %c: tensor<32x32xf32, #blocked>,
                  %h: tensor<32x32xf16, #a>, %g: tensor<32x32xf16, #b>) -> tensor<32x32xf32, #blocked> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #blocked>
    %e = tt.dot %a, %b, %d, inputPrecision = ieee : tensor<32x32xf32, #a> * tensor<32x32xf32, #b> -> tensor<32x32xf32, #blocked>
    %f = tt.dot %h, %g, %e, inputPrecision = tf32x3 : tensor<32x32xf16, #a> * tensor<32x32xf16, #b> -> tensor<32x32xf32, #blocked>
    tt.return %f : tensor<32x32xf32, #blocked>
  }
}
