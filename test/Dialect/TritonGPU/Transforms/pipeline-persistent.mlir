// RUN: kiln-opt %s -split-input-file --ttgir-fuse-nested-loops --ttgir-optimize-accumulator-init --ttgir-pipeline --ttgir-tma-lowering | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-fuse-nested-loops --ttgir-optimize-accumulator-init --ttgir-pipeline --ttgir-tma-lowering | kiln-opt -split-input-file > /dev/null

// A persistent TMA matmul (tl.range(..., flatten=True)) as one pipelined
// loop: the rings and their phases run on across tiles, the copies of the
// next tile's first blocks are issued (their row from the scf.if that
// starts a tile, cloned ahead) while the current tile ends, the wgmma
// restarts its accumulator through use_acc instead of a select, stays in
// flight, and is waited for only in the epilogue, whose TMA store has a
// buffer for the whole loop and waits for the previous tile's copy only
// before refilling it. The copies ahead go right after the dot's wait,
// before the epilogue, so that the ring refills while the tile is stored.
// CHECK-LABEL: tt.func @persistent_tma
// CHECK: %[[RA:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK: %[[RB:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16
// CHECK: %[[OUT:.*]] = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
// CHECK: scf.for unsigned %[[T:.*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = {{.*}}, %[[TILE:[^ ]*]] = {{.*}}, %[[K:[^ ]*]] = {{.*}}, %[[ROW:[^ ]*]] = {{.*}}, %[[TILEA:[^ ]*]] = {{.*}}, %[[KA:[^ ]*]] = {{.*}}, %[[ROWA:[^ ]*]] = {{.*}}, %[[FILL:[^ ]*]] = {{.*}}, %[[READ:[^ ]*]] = {{.*}}, %[[PHASE:[^ ]*]] = {{.*}})
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : i64
// CHECK: %[[NEWROW:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: arith.muli %[[TILE]]
// CHECK: ttng.wait_barrier %{{.*}}, %[[PHASE]]
// CHECK-NOT: ttng.wait_barrier
// CHECK: %[[USE:.*]] = arith.xori %[[FIRST]], %true
// CHECK: %[[D:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]], %[[USE]] {{.*}}isAsync = true
// CHECK: %[[W:.*]]:3 = ttng.warp_group_dot_wait %[[D]], {{.*}} {pendings = 1 : i32}
// The copies two iterations ahead, their row from the ahead scf.if.
// CHECK: %[[AHEADROW:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: arith.muli %[[TILEA]]
// CHECK: } else {
// CHECK: scf.yield %[[ROWA]] : i32
// CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%[[AHEADROW]], %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[DONE:.*]] = ttng.warp_group_dot_wait %[[W]]#0 {pendings = 0 : i32}
// CHECK-NEXT: %[[H:.*]] = arith.truncf %[[DONE]]
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.barrier local
// CHECK-NEXT: ttg.local_store %[[H]], %[[OUT]]
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %{{.*}}[%[[NEWROW]], %{{.*}}] %[[OUT]]
// CHECK-NEXT: }
// CHECK: scf.yield %[[W]]#0,
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @persistent_tma(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<64x128xf16, #shared>>, %c: !tt.tensordesc<tensor<128x128xf16, #shared>>, %tiles: i32, %k_tiles: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %c132 = arith.constant 132 : i32
    %pid = tt.get_program_id x : i32
    scf.for %tile = %pid to %tiles step %c132 : i32 {
      %row = arith.muli %tile, %c128 : i32
      %acc = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
        %kk = arith.muli %k, %c64 : i32
        %x = tt.descriptor_load %a[%row, %kk] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %y = tt.descriptor_load %b[%kk, %c0] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked>
        %ys = ttg.local_alloc %y : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
        %d = ttng.warp_group_dot %xs, %ys, %sum {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %d : tensor<128x128xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      tt.descriptor_store %c[%row, %c0], %h : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #mma>
    } {tt.flatten}
    tt.return
  }
}

// -----

// Descriptors made per tile: the pipeliner marks the makes it clones, and
// each one's clones (the prologue's two, the loop's one that is read: the
// loads' in the copies ahead, the store's in the body) write one ring of
// num_stages maps. The unfused loop nest kept for the other case is not
// pipelined: its map gets a ring of num_stages + 1 of its own.
// CHECK-LABEL: tt.func @made_per_tile
// CHECK: %[[RA:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 384 : i32}
// CHECK: tt.addptr %[[RA]]
// CHECK: ttng.tensormap_create
// CHECK: tt.addptr %[[RA]]
// CHECK: ttng.tensormap_create
// CHECK: %[[RC:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 384 : i32}
// CHECK: scf.for unsigned
// CHECK: tt.addptr %[[RC]]
// CHECK: ttng.tensormap_create
// CHECK: tt.addptr %[[RA]]
// CHECK: ttng.tensormap_create
// CHECK-NOT: ttng.tensormap_create
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 512 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @made_per_tile(%pa: !tt.ptr<f16>, %b: !tt.tensordesc<tensor<64x128xf16, #shared>>, %pc: !tt.ptr<f16>, %tiles: i32, %k_tiles: i32, %m: i32, %k: i32, %sk: i64) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %c132 = arith.constant 132 : i32
    %pid = tt.get_program_id x : i32
    scf.for %tile = %pid to %tiles step %c132 : i32 {
      %row = arith.muli %tile, %c128 : i32
      %base = tt.addptr %pa, %row : !tt.ptr<f16>, i32
      %a = tt.make_tensor_descriptor %base, [%m, %k], [%sk, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<128x64xf16, #shared>>
      %c = tt.make_tensor_descriptor %pc, [%m, %c128], [%sk, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<128x128xf16, #shared>>
      %acc = scf.for %kk0 = %c0 to %k_tiles step %c1 iter_args(%sum = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
        %kk = arith.muli %kk0, %c64 : i32
        %x = tt.descriptor_load %a[%c0, %kk] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
        %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %y = tt.descriptor_load %b[%kk, %c0] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked>
        %ys = ttg.local_alloc %y : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
        %d = ttng.warp_group_dot %xs, %ys, %sum {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %d : tensor<128x128xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      tt.descriptor_store %c[%row, %c0], %h : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #mma>
    } {tt.flatten}
    tt.return
  }
}
