// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm %s | FileCheck %s

// A memdesc is the address of its first element; buffer %i of two starts
// %i * 512 elements in. The 4 columns a thread holds are consecutive in
// the swizzled layout (vec = 4), so the store and the load are one
// vector<4xf32> each, with the barrier between them from insert-barriers.
// CHECK-LABEL: llvm.func @local_round_trip
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[N:.*]] = llvm.mlir.constant(512 : i32) : i32
// CHECK: %[[ELEMS:.*]] = llvm.mul %arg1, %[[N]] : i32
// CHECK: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][%[[ELEMS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: %[[SP:.*]] = llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %{{.*}}, %[[SP]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[LP:.*]] = llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[LP]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: ptr<3>
// CHECK: llvm.return
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @local_round_trip(%x: tensor<32x16xf32, #b>, %i: i32, %p: !tt.ptr<f32>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x32x16xf32, #s, #smem, mutable>
    %one = ttg.memdesc_index %buf[%i] : !ttg.memdesc<2x32x16xf32, #s, #smem, mutable> -> !ttg.memdesc<32x16xf32, #s, #smem, mutable>
    ttg.local_store %x, %one : tensor<32x16xf32, #b> -> !ttg.memdesc<32x16xf32, #s, #smem, mutable>
    %y = ttg.local_load %one : !ttg.memdesc<32x16xf32, #s, #smem, mutable> -> tensor<32x16xf32, #b>
    ttg.local_dealloc %buf : !ttg.memdesc<2x32x16xf32, #s, #smem, mutable>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #b>
    tt.store %ptr, %y : tensor<32x16x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// trans, join, split, reshape and cat only rename registers when the
// result layouts keep every element on its thread.
// CHECK-LABEL: llvm.func @views
// CHECK-NOT: ptr<3>
// CHECK-NOT: nvvm.shfl
// trans: the same two registers.
// CHECK: %[[X0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[X1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[X1]], %{{.*}}[1]
// join: the new dimension is the fastest register bit, so x and y alternate.
// CHECK: %[[A0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[A1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: %[[B0:.*]] = llvm.extractvalue %arg1[0]
// CHECK: %[[B1:.*]] = llvm.extractvalue %arg1[1]
// CHECK: %[[J0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0]
// CHECK: %[[J1:.*]] = llvm.insertvalue %[[B0]], %[[J0]][1]
// CHECK: %[[J2:.*]] = llvm.insertvalue %[[A1]], %[[J1]][2]
// CHECK: %[[J:.*]] = llvm.insertvalue %[[B1]], %[[J2]][3]
// split takes them apart again: x's registers, then y's.
// CHECK: %[[S0:.*]] = llvm.extractvalue %[[J]][0]
// CHECK: %[[S1:.*]] = llvm.extractvalue %[[J]][1]
// CHECK: %[[S2:.*]] = llvm.extractvalue %[[J]][2]
// CHECK: %[[S3:.*]] = llvm.extractvalue %[[J]][3]
// CHECK: llvm.insertvalue %[[S0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[S2]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[S1]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[S3]], %{{.*}}[1]
// cat: x's registers, then the rhs's.
// CHECK: %[[C0:.*]] = llvm.extractvalue %arg0[0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %arg0[1]
// CHECK: llvm.insertvalue %[[C0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.insertvalue %[[C1]], %{{.*}}[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: ptr<3>
// CHECK: llvm.return
#a = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#j = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [32, 1, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#r = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#r2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @views(%x: tensor<128x2xf32, #a>, %y: tensor<128x2xf32, #a>, %p: !tt.ptr<f32>) {
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<128x2xf32, #a> -> tensor<2x128xf32, #t>
    %j = tt.join %x, %y : tensor<128x2xf32, #a> -> tensor<128x2x2xf32, #j>
    %l, %h = tt.split %j : tensor<128x2x2xf32, #j> -> tensor<128x2xf32, #a>
    %r = tt.reshape %l : tensor<128x2xf32, #a> -> tensor<256xf32, #r2>
    %k = tt.cat %x, %h : tensor<128x2xf32, #a> -> tensor<256x2xf32, #a>
    %pt = tt.splat %p : !tt.ptr<f32> -> tensor<2x128x!tt.ptr<f32>, #t>
    tt.store %pt, %t : tensor<2x128x!tt.ptr<f32>, #t>
    %pk = tt.splat %p : !tt.ptr<f32> -> tensor<256x2x!tt.ptr<f32>, #a>
    tt.store %pk, %k : tensor<256x2x!tt.ptr<f32>, #a>
    tt.return
  }
}

// -----

// tt.gather through the scratch: the source goes in row-major (its 4
// consecutive columns as one vector), a barrier, then one load per result
// register at (index, column).
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: ttg.shared = 2048 : i32
// CHECK-LABEL: llvm.func @gather
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[I:.*]] = llvm.extractvalue %arg1[0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK: %[[M:.*]] = llvm.and %[[I]], %{{.*}} : i32
// CHECK: %[[ROW:.*]] = llvm.mul %[[M]], %{{.*}} : i32
// CHECK: %[[OFF:.*]] = llvm.add %[[ROW]], %{{.*}} : i32
// CHECK: %[[P:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.load %[[P]] : !llvm.ptr<3> -> f32
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: ptr<3>
// CHECK: llvm.return
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @gather(%x: tensor<32x16xf32, #b>, %i: tensor<32x16xi32, #b>, %p: !tt.ptr<f32>) {
    %g = tt.gather %x[%i] {axis = 0 : i32} : (tensor<32x16xf32, #b>, tensor<32x16xi32, #b>) -> tensor<32x16xf32, #b>
    %ptr = tt.splat %p : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #b>
    tt.store %ptr, %g : tensor<32x16x!tt.ptr<f32>, #b>
    tt.return
  }
}
