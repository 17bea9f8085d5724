// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm -split-input-file %s \
// RUN:   | FileCheck %s --implicit-check-not=unrealized_conversion_cast
// RUN: kiln-opt --llir-allocate-shared-memory -split-input-file %s | FileCheck %s --check-prefix=ALLOC

// Rows of 32 along dimension 1 held by 4 registers of 8 lanes: the thread
// adds its 4 registers in order, then 3 butterfly steps over lanes 1, 2, 4
// (the lane bits whose bases move along dimension 1); lanes 8 and 16 and
// the warps hold other rows, so nothing goes through shared memory.
// ALLOC-LABEL: tt.func public @within_warp
// ALLOC-NOT: allocation.offset
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @within_warp
// CHECK: %[[R0:.+]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R1:.+]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R2:.+]] = llvm.extractvalue %arg0[2]
// CHECK: %[[R3:.+]] = llvm.extractvalue %arg0[3]
// CHECK: %[[S01:.+]] = llvm.fadd %[[R0]], %[[R1]] : f32
// CHECK: %[[S012:.+]] = llvm.fadd %[[S01]], %[[R2]] : f32
// CHECK: %[[T:.+]] = llvm.fadd %[[S012]], %[[R3]] : f32
// CHECK: %[[O1:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[B1:.+]] = llvm.bitcast %[[T]] : f32 to i32
// CHECK: nvvm.shfl.sync bfly %{{.+}}, %[[B1]], %[[O1]], %{{.+}} : i32 -> i32
// CHECK: %[[T1:.+]] = llvm.fadd %[[T]], %{{.+}} : f32
// CHECK: %[[O2:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.+}}, %{{.+}}, %[[O2]], %{{.+}} : i32 -> i32
// CHECK: %[[T2:.+]] = llvm.fadd %[[T1]], %{{.+}} : f32
// CHECK: %[[O4:.+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: nvvm.shfl.sync bfly %{{.+}}, %{{.+}}, %[[O4]], %{{.+}} : i32 -> i32
// CHECK: %[[T4:.+]] = llvm.fadd %[[T2]], %{{.+}} : f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.insertvalue %[[T4]], %{{.+}}[0] : !llvm.struct<(f32)>
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @within_warp(%x: tensor<16x32xf32, #blocked>) {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<16x32xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// A max (exactly associative) combines the thread's 4 registers as a tree,
// (r0, r1) and (r2, r3) then the two, for the same bits with a chain of 2
// instead of 3; an integer sum likewise. Floating-point sums keep register
// order (above).
// CHECK-LABEL: llvm.func @within_thread_tree
// CHECK: %[[R0:.+]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R1:.+]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R2:.+]] = llvm.extractvalue %arg0[2]
// CHECK: %[[R3:.+]] = llvm.extractvalue %arg0[3]
// CHECK: %[[M01:.+]] = llvm.intr.maxnum(%[[R0]], %[[R1]])
// CHECK: %[[M23:.+]] = llvm.intr.maxnum(%[[R2]], %[[R3]])
// CHECK: llvm.intr.maxnum(%[[M01]], %[[M23]])
// CHECK: %[[I0:.+]] = llvm.extractvalue %arg1[0]
// CHECK: %[[I1:.+]] = llvm.extractvalue %arg1[1]
// CHECK: %[[I2:.+]] = llvm.extractvalue %arg1[2]
// CHECK: %[[I3:.+]] = llvm.extractvalue %arg1[3]
// CHECK: %[[A01:.+]] = llvm.add %[[I0]], %[[I1]]
// CHECK: %[[A23:.+]] = llvm.add %[[I2]], %[[I3]]
// CHECK: llvm.add %[[A01]], %[[A23]]
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @within_thread_tree(%x: tensor<16x32xf32, #blocked>, %y: tensor<16x32xi32, #blocked>) {
    %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<16x32xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %s = "tt.reduce"(%y) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %t = arith.addi %a, %b : i32
      tt.reduce.return %t : i32
    }) : (tensor<16x32xi32, #blocked>) -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return
  }
}

// -----

// 1024 elements over 4 warps (the corpus's softmax and row sums): 7 adds
// of the thread's 8 registers, 5 butterfly steps over all lanes, then lane
// 0 of each warp writes its partial to slot `warp` of a 16-byte scratch,
// a barrier, and every thread reads the 4 partials in one 16-byte load and
// adds them in warp order, so every thread holds the same sum.
// ALLOC: ttg.shared = 16 : i32
// ALLOC-LABEL: tt.func public @across_warps
// ALLOC: "tt.reduce"
// ALLOC: allocation.offset = 0 : i32
// CHECK: ttg.shared = 16 : i32
// CHECK-LABEL: llvm.func @across_warps
// CHECK-COUNT-7: llvm.fadd
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.+]] = llvm.urem %[[TID]]
// CHECK: %[[WARP:.+]] = llvm.udiv %[[TID]]
// CHECK: llvm.mlir.constant(1 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(8 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.mlir.constant(16 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: %[[PARTIAL:.+]] = llvm.fadd
// CHECK: %[[SMEM:.+]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[M31:.+]] = llvm.mlir.constant(31 : i32)
// CHECK: %[[LOW:.+]] = llvm.and %[[LANE]], %[[M31]]
// CHECK: %[[IS0:.+]] = llvm.icmp "eq" %[[LOW]]
// CHECK: %[[WRITER:.+]] = llvm.and %[[IS0]]
// CHECK: %[[M3:.+]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[POS:.+]] = llvm.and %[[WARP]], %[[M3]]
// CHECK: llvm.cond_br %[[WRITER]], ^[[WRITE:.+]], ^[[JOIN:.+]]
// CHECK: ^[[WRITE]]:
// CHECK: %[[SLOT:.+]] = llvm.getelementptr %[[SMEM]][%[[POS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %[[PARTIAL]], %[[SLOT]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: ^[[JOIN]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[ALL:.+]] = llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-4: llvm.extractelement %[[ALL]]
// CHECK: %[[W01:.+]] = llvm.fadd
// CHECK: %[[W012:.+]] = llvm.fadd %[[W01]]
// CHECK: %[[SUM:.+]] = llvm.fadd %[[W012]]
// CHECK-NOT: nvvm.shfl.sync
// The scalar result is stored once, by thread 0.
// CHECK: %[[BITS:.+]] = llvm.bitcast %[[SUM]] : f32 to i32
// CHECK: llvm.inline_asm has_side_effects "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %arg1, %[[BITS]], %{{.+}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @across_warps(%x: tensor<1024xf32, #blocked>, %out: !tt.ptr<f32>) {
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    tt.store %out, %r : !tt.ptr<f32>
    tt.return
  }
}

// -----

// 16 warps along the axis: each thread reads 4 partials (a 16-byte load at
// slot 4 * (lane & 3)), and lanes 1 and 2, which hold the same (scalar)
// result, finish with two butterfly steps: no second barrier.
// CHECK: ttg.shared = 64 : i32
// CHECK-LABEL: llvm.func @sixteen_warps
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[M3:.+]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[G:.+]] = llvm.and %{{.+}}, %[[M3]]
// CHECK: %[[C4:.+]] = llvm.mlir.constant(4 : i32)
// CHECK: %[[FIRST:.+]] = llvm.mul %[[G]], %[[C4]]
// CHECK: llvm.getelementptr %{{.+}}[%[[FIRST]]]
// CHECK: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-3: llvm.fadd
// CHECK: llvm.mlir.constant(1 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.fadd
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.fadd
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 16 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @sixteen_warps(%x: tensor<512xf32, #blocked>, %out: !tt.ptr<f32>) {
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<512xf32, #blocked>) -> f32
    tt.store %out, %r : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Columns of a 32x32 tile, reduced over rows spread across registers (2),
// lanes 8 and 16 and 4 warps: each thread holds 4 columns, so 4 butterflies
// of 2 steps each; 32 results, so the scratch is 4 warp slots x 32 columns
// x 4 bytes, each partial at slot * 32 + column, 4 stores per writer and
// 4 x 4 loads per thread.
// ALLOC: ttg.shared = 512 : i32
// CHECK: ttg.shared = 512 : i32
// CHECK-LABEL: llvm.func @columns
// CHECK-COUNT-4: llvm.fadd
// CHECK-COUNT-8: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.mlir.constant(32 : i32)
// CHECK: llvm.mul
// CHECK-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @columns(%x: tensor<32x32xf32, #blocked>) {
    %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<32x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }
}
