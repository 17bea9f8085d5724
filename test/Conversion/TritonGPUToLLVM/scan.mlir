// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm -split-input-file %s \
// RUN:   | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// The corpus's cumsum: 1024 i32 over 4 warps, one element per thread in
// each of 8 blocks of 128. Per block, a Hillis-Steele scan over the 32
// lanes (shfl.sync up by 1, 2, 4, 8, 16, kept where lane >= step); lane 31
// of each warp writes its 8 block totals to slot block * 4 + warp (128
// bytes), one barrier, then every thread loads the 32 totals (8 x 16 bytes)
// and folds the blocks and warps before its own.
// CHECK: ttg.shared = 128 : i32
// CHECK-LABEL: llvm.func @cumsum
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.+]] = llvm.urem %[[TID]]
// CHECK: %[[M31:.+]] = llvm.mlir.constant(31 : i32)
// CHECK: %[[POS:.+]] = llvm.and %[[LANE]], %[[M31]]
// CHECK: %[[S1:.+]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[HAS1:.+]] = llvm.icmp "uge" %[[POS]], %[[S1]]
// CHECK: %[[D1:.+]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[UP1:.+]] = nvvm.shfl.sync up %{{.+}}, %{{.+}}, %[[D1]], %{{.+}} : i32 -> i32
// CHECK: %[[ADD1:.+]] = llvm.add %[[UP1]], %{{.+}} : i32
// CHECK: llvm.select %[[HAS1]], %[[ADD1]], %{{.+}} : i1, i32
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK: nvvm.shfl.sync up
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK: nvvm.shfl.sync up
// CHECK: llvm.mlir.constant(8 : i32)
// CHECK: nvvm.shfl.sync up
// CHECK: llvm.mlir.constant(16 : i32)
// CHECK: nvvm.shfl.sync up
// CHECK-NOT: nvvm.shfl.sync {{bfly|idx}}
// CHECK: llvm.icmp "eq" %[[POS]]
// CHECK: llvm.cond_br
// CHECK-COUNT-8: llvm.store {{.+}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum(%x: tensor<1024xi32, #blocked>) {
    %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<1024xi32, #blocked>) -> tensor<1024xi32, #blocked>
    tt.return
  }
}

// -----

// A reverse scan within one warp: chunks of 4 consecutive elements per
// thread scanned from the top (register 3 first), lanes in reverse order
// through shfl.sync idx from lane + step (kept where 31 - lane >= step),
// then each chunk takes the next lane's inclusive value. No shared memory.
// CHECK: ttg.shared = 0 : i32
// CHECK-LABEL: llvm.func @reverse
// CHECK: %[[R0:.+]] = llvm.extractvalue %arg0[0]
// CHECK: %[[R1:.+]] = llvm.extractvalue %arg0[1]
// CHECK: %[[R2:.+]] = llvm.extractvalue %arg0[2]
// CHECK: %[[R3:.+]] = llvm.extractvalue %arg0[3]
// CHECK: %[[LANE:.+]] = llvm.urem
// CHECK: %[[A32:.+]] = llvm.add %[[R3]], %[[R2]] : i32
// CHECK: %[[A321:.+]] = llvm.add %[[A32]], %[[R1]] : i32
// CHECK: %[[A3210:.+]] = llvm.add %[[A321]], %[[R0]] : i32
// CHECK: %[[POS:.+]] = llvm.xor %{{.+}}, %{{.+}} : i32
// CHECK: llvm.icmp "uge" %[[POS]]
// CHECK: %[[SRC1:.+]] = llvm.add %[[LANE]], %{{.+}} : i32
// CHECK: nvvm.shfl.sync idx %{{.+}}, %{{.+}}, %[[SRC1]], %{{.+}} : i32 -> i32
// CHECK-COUNT-4: nvvm.shfl.sync idx
// CHECK: llvm.icmp "ne" %[[POS]]
// CHECK: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reverse(%x: tensor<128xi32, #blocked>) {
    %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    tt.return
  }
}

// -----

// One warp, two blocks (64 elements: each lane holds elements lane and
// lane + 32): the first block's total comes from lane 31 by shfl.sync idx and is added
// to the second block (the combine's left operand: earlier elements).
// CHECK-LABEL: llvm.func @blocks_in_one_warp
// CHECK-COUNT-10: nvvm.shfl.sync up
// CHECK: %[[M:.+]] = llvm.mlir.constant(-32 : i32)
// CHECK: %[[KEEP:.+]] = llvm.and %{{.+}}, %[[M]]
// CHECK: %[[LAST:.+]] = llvm.or %[[KEEP]], %{{.+}}
// CHECK: %[[TOTAL:.+]] = nvvm.shfl.sync idx %{{.+}}, %{{.+}}, %[[LAST]], %{{.+}} : i32 -> i32
// CHECK: llvm.add %[[TOTAL]], %{{.+}} : i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: !llvm.ptr<3>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @blocks_in_one_warp(%x: tensor<64xi32, #blocked>) {
    %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<64xi32, #blocked>) -> tensor<64xi32, #blocked>
    tt.return
  }
}
