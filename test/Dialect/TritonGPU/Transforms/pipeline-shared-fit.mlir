// RUN: kiln-opt %s -split-input-file --ttgir-pipeline | FileCheck %s

// The rings must fit in the target's shared memory (227 KiB on cuda:90)
// beside the kernel's other buffers: 4 stages of a 32 KiB and a 64 KiB
// block would need 384 KiB, so the loop gets 2 stages (3 would need 288).
// CHECK-LABEL: tt.func @fewer_stages
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x128x128xf16, #shared, #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<2x256x128xf16, #shared, #smem, mutable>
// CHECK-NOT: tt.descriptor_load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @fewer_stages(%a: !tt.tensordesc<tensor<128x128xf16, #shared>>, %b: !tt.tensordesc<tensor<256x128xf16, #shared>>, %n: i32) -> tensor<128x256xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %y = tt.descriptor_load %b[%c0, %k] : !tt.tensordesc<tensor<256x128xf16, #shared>> -> tensor<256x128xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %ys = ttg.local_alloc %y : (tensor<256x128xf16, #blocked>) -> !ttg.memdesc<256x128xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<256x128xf16, #shared, #smem> -> !ttg.memdesc<128x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<128x128xf16, #shared, #smem> * !ttg.memdesc<128x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.num_stages = 4 : i32}
    tt.return %r : tensor<128x256xf32, #mma>
  }
}

// -----

// Beside 144 KiB of buffers the kernel keeps, even 2 stages of both loads
// would not fit: the largest load stays synchronous, the other streams
// with the 3 stages asked for, which then fit.
// CHECK-LABEL: tt.func @largest_stays
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK-NOT: ttg.local_alloc : () -> !ttg.memdesc<2x256x64xf16
// CHECK: scf.for
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<tensor<256x64xf16, #shared>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @largest_stays(%a: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !tt.tensordesc<tensor<256x64xf16, #shared>>, %big: tensor<512x128xf16, #blocked>, %n: i32) -> tensor<128x256xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %keep = ttg.local_alloc %big : (tensor<512x128xf16, #blocked>) -> !ttg.memdesc<512x128xf16, #shared, #smem>
    %keep2 = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %y = tt.descriptor_load %b[%c0, %k] : !tt.tensordesc<tensor<256x64xf16, #shared>> -> tensor<256x64xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %ys = ttg.local_alloc %y : (tensor<256x64xf16, #blocked>) -> !ttg.memdesc<256x64xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<256x64xf16, #shared, #smem> -> !ttg.memdesc<64x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<128x256xf32, #mma>
  }
}

// -----

// The scratch of a conversion in the loop (a fused persistent loop's
// epilogue: 32 KiB) is live beside the rings: with the 32 KiB the kernel
// keeps, 2 stages of both loads (192 KiB) would fit without it, not with
// it, so the larger load stays synchronous and the other gets 3 stages.
// CHECK-LABEL: tt.func @scratch_in_loop
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x128xf16, #shared, #smem, mutable>
// CHECK-NOT: ttg.local_alloc : () -> !ttg.memdesc<{{[0-9]}}x256x128xf16
// CHECK: scf.for
// CHECK: tt.descriptor_load %{{.*}} : !tt.tensordesc<tensor<256x128xf16, #shared>>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scratch_in_loop(%a: !tt.tensordesc<tensor<128x128xf16, #shared>>, %b: !tt.tensordesc<tensor<256x128xf16, #shared>>, %out: tensor<128x256x!tt.ptr<f16>, #blocked>, %n: i32) -> tensor<128x256xf32, #mma> {
    %keep = ttg.local_alloc : () -> !ttg.memdesc<16x1024xf16, #shared, #smem, mutable>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xf32, #mma>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<128x128xf16, #shared>> -> tensor<128x128xf16, #blocked>
      %y = tt.descriptor_load %b[%c0, %k] : !tt.tensordesc<tensor<256x128xf16, #shared>> -> tensor<256x128xf16, #blocked>
      %xs = ttg.local_alloc %x : (tensor<128x128xf16, #blocked>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
      %ys = ttg.local_alloc %y : (tensor<256x128xf16, #blocked>) -> !ttg.memdesc<256x128xf16, #shared, #smem>
      %yt = ttg.memdesc_trans %ys {order = array<i32: 1, 0>} : !ttg.memdesc<256x128xf16, #shared, #smem> -> !ttg.memdesc<128x256xf16, #shared1, #smem>
      %d = ttng.warp_group_dot %xs, %yt, %acc : !ttg.memdesc<128x128xf16, #shared, #smem> * !ttg.memdesc<128x256xf16, #shared1, #smem> -> tensor<128x256xf32, #mma>
      %h = arith.truncf %d : tensor<128x256xf32, #mma> to tensor<128x256xf16, #mma>
      %hb = ttg.convert_layout %h : tensor<128x256xf16, #mma> -> tensor<128x256xf16, #blocked>
      tt.store %out, %hb : tensor<128x256x!tt.ptr<f16>, #blocked>
      scf.yield %d : tensor<128x256xf32, #mma>
    } {tt.num_stages = 4 : i32}
    tt.return %r : tensor<128x256xf32, #mma>
  }
}

// -----

// Blocks read into registers from their slots (a block-scaled dot's
// operands, upcast before the product) had no buffer before pipelining, so
// every slot of their rings counts: beside the 128 KiB the loop's body
// keeps, 2 stages of both 32 KiB loads (256 KiB in all) would not fit; one
// load streams with the 3 stages asked for (224 KiB in all), the other
// stays synchronous.
// CHECK-LABEL: tt.func @registers_slots_count
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<3x128x256xi8, #shared, #smem, mutable>
// CHECK-NOT: ttg.local_alloc : () -> !ttg.memdesc<{{[0-9]}}x128x256xi8
// CHECK: scf.for
// CHECK: tt.descriptor_load
#blocked = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @registers_slots_count(%a: !tt.tensordesc<tensor<128x256xi8, #shared>>, %b: !tt.tensordesc<tensor<128x256xi8, #shared>>, %big: tensor<256x256xbf16, #blocked>, %n: i32) -> tensor<128x256xi8, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0> : tensor<128x256xi8, #blocked>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xi8, #blocked>) : i32 {
      %x = tt.descriptor_load %a[%c0, %k] : !tt.tensordesc<tensor<128x256xi8, #shared>> -> tensor<128x256xi8, #blocked>
      %y = tt.descriptor_load %b[%c0, %k] : !tt.tensordesc<tensor<128x256xi8, #shared>> -> tensor<128x256xi8, #blocked>
      %keep = ttg.local_alloc %big : (tensor<256x256xbf16, #blocked>) -> !ttg.memdesc<256x256xbf16, #shared2, #smem>
      %s = arith.addi %x, %y : tensor<128x256xi8, #blocked>
      %t = arith.addi %acc, %s : tensor<128x256xi8, #blocked>
      scf.yield %t : tensor<128x256xi8, #blocked>
    } {tt.num_stages = 3 : i32}
    tt.return %r : tensor<128x256xi8, #blocked>
  }
}
