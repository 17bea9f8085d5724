// RUN: kiln-opt %s -split-input-file --ttgir-remove-layout-conversions | FileCheck %s

// A split epilogue of a wgmma accumulator, as ttgir-convert-from-ttir and
// accelerate-matmul leave it: the accumulator converted to a blocked
// layout, reshaped, transposed, converted again so that each thread holds
// both halves, split. The layout engine says where reshape, trans and
// split put the accumulator's registers, so the accumulator's layout flows
// through them as #ttg.linear layouts and no conversion is left, as in
// Triton 3.6's TTGIR for the same kernel.
// CHECK-DAG: #[[L3:.*]] = {{\#ttg\.linear<\{register = \[\[0, 1, 0\], \[8, 0, 0\], \[0, 8, 0\], \[0, 16, 0\], \[0, 32, 0\], \[0, 0, 1\], \[64, 0, 0\]\], lane = \[\[0, 2, 0\], \[0, 4, 0\], \[1, 0, 0\], \[2, 0, 0\], \[4, 0, 0\]\], warp = \[\[16, 0, 0\], \[32, 0, 0\]\], block = \[\]\}>}}
// CHECK-DAG: #[[L2:.*]] = {{\#ttg\.linear<\{register = \[\[0, 1\], \[8, 0\], \[0, 8\], \[0, 16\], \[0, 32\], \[64, 0\]\], lane = \[\[0, 2\], \[0, 4\], \[1, 0\], \[2, 0\], \[4, 0\]\], warp = \[\[16, 0\], \[32, 0\]\], block = \[\]\}>}}
// CHECK-LABEL: tt.func @split_epilogue
// CHECK: ttng.warp_group_dot
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.reshape %{{.*}} : tensor<128x128xf32, #mma> -> tensor<128x2x64xf32, #linear
// CHECK: tt.trans %{{.*}} {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #linear{{[0-9]*}}> -> tensor<128x64x2xf32, #[[L3]]>
// CHECK: tt.split %{{.*}} : tensor<128x64x2xf32, #[[L3]]> -> tensor<128x64xf32, #[[L2]]>
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<128x64xf32, #[[L2]]> to tensor<128x64xf16, #[[L2]]>
// CHECK-NEXT: ttg.local_alloc %[[H]] : (tensor<128x64xf16, #[[L2]]>)
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [1, 2, 2], order = [1, 2, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_epilogue(%a: !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #ttg.shared_memory>, %c: tensor<128x128xf32, #mma>) -> !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory> {
    %acc = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory> * !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>, #ttg.shared_memory> -> tensor<128x128xf32, #mma>
    %0 = ttg.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
    %1 = tt.reshape %0 : tensor<128x128xf32, #blocked> -> tensor<128x2x64xf32, #blocked1>
    %2 = tt.trans %1 {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #blocked1> -> tensor<128x64x2xf32, #blocked2>
    %3 = ttg.convert_layout %2 : tensor<128x64x2xf32, #blocked2> -> tensor<128x64x2xf32, #blocked3>
    %lhs, %rhs = tt.split %3 : tensor<128x64x2xf32, #blocked3> -> tensor<128x64xf32, #blocked4>
    %4 = arith.truncf %lhs : tensor<128x64xf32, #blocked4> to tensor<128x64xf16, #blocked4>
    %5 = ttg.local_alloc %4 : (tensor<128x64xf16, #blocked4>) -> !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
    tt.return %5 : !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory>
  }
}

// -----

// A split whose pair is spread over lanes in the layout that reaches it
// cannot be done in registers: the conversion in front of it stays.
// CHECK-LABEL: tt.func @split_across_lanes
// CHECK: ttg.convert_layout %{{.*}} : tensor<64x2xf32, #blocked> -> tensor<64x2xf32, #blocked{{[0-9]+}}>
// CHECK-NEXT: tt.split
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_across_lanes(%p: tensor<64x2x!tt.ptr<f32>, #blocked>) -> tensor<64xf32, #blocked2> {
    %v = tt.load %p : tensor<64x2x!tt.ptr<f32>, #blocked>
    %c = ttg.convert_layout %v : tensor<64x2xf32, #blocked> -> tensor<64x2xf32, #blocked1>
    %lhs, %rhs = tt.split %c : tensor<64x2xf32, #blocked1> -> tensor<64xf32, #blocked2>
    tt.return %lhs : tensor<64xf32, #blocked2>
  }
}

// -----

// A block scale repeated over K (expand_dims, broadcast, reshape, as
// ttgir-decompose-scaled-dot writes it) in another layout than the operand
// it multiplies: the repetition is recomputed in the operand's layout (the
// reshape's source as a #ttg.linear layout) and only the loaded exponents,
// 128x4 instead of 128x128, are converted.
// CHECK-LABEL: tt.func @scale_broadcast
// CHECK:      %[[S:.*]] = tt.load %{{.*}} : tensor<128x4x!tt.ptr<bf16>, #[[SRC:blocked[0-9]*]]>
// CHECK:      %[[C:.*]] = ttg.convert_layout %[[S]] : tensor<128x4xbf16, #[[SRC]]> -> tensor<128x4xbf16, #ttg.slice<{dim = 2, parent = #[[LIN:linear[0-9]*]]}>>
// CHECK:      %[[X:.*]] = tt.expand_dims %[[C]] {axis = 2 : i32} : {{.*}} -> tensor<128x4x1xbf16, #[[LIN]]>
// CHECK:      %[[B:.*]] = tt.broadcast %[[X]] : tensor<128x4x1xbf16, #[[LIN]]> -> tensor<128x4x32xbf16, #[[LIN]]>
// CHECK:      %[[R:.*]] = tt.reshape %[[B]] : tensor<128x4x32xbf16, #[[LIN]]> -> tensor<128x128xbf16, #[[OP:blocked[0-9]*]]>
// CHECK:      arith.mulf %{{.*}}, %[[R]] : tensor<128x128xbf16, #[[OP]]>
// CHECK-NOT:  ttg.convert_layout {{.*}}128x128
#op = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#sc = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [8, 1, 1], order = [2, 1, 0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scale_broadcast(%v: tensor<128x128xbf16, #op>, %p: tensor<128x4x!tt.ptr<bf16>, #sc>) -> tensor<128x128xbf16, #op> {
    %s = tt.load %p : tensor<128x4x!tt.ptr<bf16>, #sc>
    %c = ttg.convert_layout %s : tensor<128x4xbf16, #sc> -> tensor<128x4xbf16, #ttg.slice<{dim = 2, parent = #b3}>>
    %x = tt.expand_dims %c {axis = 2 : i32} : tensor<128x4xbf16, #ttg.slice<{dim = 2, parent = #b3}>> -> tensor<128x4x1xbf16, #b3>
    %b = tt.broadcast %x : tensor<128x4x1xbf16, #b3> -> tensor<128x4x32xbf16, #b3>
    %r = tt.reshape %b : tensor<128x4x32xbf16, #b3> -> tensor<128x128xbf16, #b2>
    %rc = ttg.convert_layout %r : tensor<128x128xbf16, #b2> -> tensor<128x128xbf16, #op>
    %m = arith.mulf %v, %rc : tensor<128x128xbf16, #op>
    tt.return %m : tensor<128x128xbf16, #op>
  }
}

// -----

// An fp8 operand upcast and scaled on its way to a dot: the conversion to
// the operand layout moves to the load (half the bytes of the bf16 it
// would convert), and the upcast and the scale run in the operand layout,
// as Triton's TTGIR has them; the pipeliner then reads the load's slot
// straight into that layout.
// CHECK-LABEL: tt.func @upcast_operand
// CHECK:      %[[L:.*]] = tt.load %{{.*}} : tensor<128x64x!tt.ptr<f8E4M3FN>, #[[B:blocked[0-9]*]]>
// CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[L]] : tensor<128x64xf8E4M3FN, #[[B]]> -> tensor<128x64xf8E4M3FN, #[[OP:ttg.dot_op<.*>]]>
// CHECK:      tt.fp_to_fp %[[C]] : tensor<128x64xf8E4M3FN, #[[OP]]> -> tensor<128x64xbf16, #[[OP]]>
// CHECK:      arith.mulf {{.*}} : tensor<128x64xbf16, #[[OP]]>
// CHECK-NOT:  ttg.convert_layout {{.*}}bf16
#b = #ttg.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @upcast_operand(%p: tensor<128x64x!tt.ptr<f8E4M3FN>, #b>, %x: bf16) -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %l = tt.load %p : tensor<128x64x!tt.ptr<f8E4M3FN>, #b>
    %s = tt.splat %x : bf16 -> tensor<128x64xbf16, #b>
    %u = tt.fp_to_fp %l : tensor<128x64xf8E4M3FN, #b> -> tensor<128x64xbf16, #b>
    %m = arith.mulf %u, %s : tensor<128x64xbf16, #b>
    %c = ttg.convert_layout %m : tensor<128x64xbf16, #b> -> tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %c : tensor<128x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// The same half of a split accumulator written into an existing buffer (a
// staging buffer of a subtiled TMA epilogue): ttg.local_store takes the
// tensor in any distributed layout, so the conversion to the blocked
// layout the store was given goes, and with it its shared-memory scratch.
// CHECK-LABEL: tt.func @split_into_buffer
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<128x64xf32, #[[L:linear[0-9]*]]> to tensor<128x64xf16, #[[L]]>
// CHECK-NEXT: ttg.local_store %[[H]], %arg3 : tensor<128x64xf16, #[[L]]> ->
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @split_into_buffer(%a: !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory>, %b: !ttg.memdesc<64x128xf16, #shared1, #ttg.shared_memory>, %c: tensor<128x128xf32, #mma>, %buf: !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory, mutable>) {
    %acc = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory> * !ttg.memdesc<64x128xf16, #shared1, #ttg.shared_memory> -> tensor<128x128xf32, #mma>
    %0 = tt.reshape %acc : tensor<128x128xf32, #mma> -> tensor<128x2x64xf32, #blocked>
    %1 = tt.trans %0 {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #blocked> -> tensor<128x64x2xf32, #blocked>
    %lhs, %rhs = tt.split %1 : tensor<128x64x2xf32, #blocked> -> tensor<128x64xf32, #blocked1>
    %2 = arith.truncf %lhs : tensor<128x64xf32, #blocked1> to tensor<128x64xf16, #blocked1>
    %3 = ttg.convert_layout %2 : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #blocked2>
    ttg.local_store %3, %buf : tensor<128x64xf16, #blocked2> -> !ttg.memdesc<128x64xf16, #shared, #ttg.shared_memory, mutable>
    tt.return
  }
}
