// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-convert-to-llvm -verify-diagnostics %s | FileCheck %s

// A column panel of a 128x128 f16 nvmma_shared buffer (128-byte swizzle:
// each 64-column panel is laid out as a 128x64 buffer of its own) starts
// 128 * 64 elements in; the panel at column 0 is the buffer's first
// element. Each view is then accessed with its own type's layout.
// CHECK-LABEL: llvm.func @panels
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem
// CHECK: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.getelementptr %[[BASE]][%[[C0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK: llvm.getelementptr %[[BASE]][%[[C8192]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @panels(%x: tensor<128x64xf16, #blocked>, %p: !tt.ptr<f16>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    %left = ttg.memdesc_subslice %buf[0, 0] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 128x128>
    %right = ttg.memdesc_subslice %buf[0, 64] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 128x128>
    ttg.local_store %x, %left : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 128x128>
    %y = ttg.local_load %right : !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 128x128> -> tensor<128x64xf16, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    tt.store %ps, %y : tensor<128x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A block of rows of the same buffer is not laid out as a buffer of its
// own shape would be (its second panel is 128 rows on, not 64), but the
// buffer's layout places each of its elements: row 64 starts 64 * 64
// elements in, and loads read the view where the buffer has it.
// CHECK-LABEL: llvm.func @rows
// CHECK: %[[C4096:.*]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK: llvm.getelementptr %{{.*}}[%[[C4096]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @rows(%p: !tt.ptr<f16>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    %bottom = ttg.memdesc_subslice %buf[64, 0] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128>
    %y = ttg.local_load %bottom : !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128> -> tensor<64x128xf16, #blocked>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>, #blocked>
    tt.store %ps, %y : tensor<64x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// TMA copies each box of the view from where the buffer puts it (the view
// starts at row 64, 4096 elements in; its second 64-column box is in the
// buffer's second panel, 8192 more), each box laid out there as TMA
// writes one.
// CHECK-LABEL: llvm.func @rows_to_tma
// CHECK: %[[ROW64:.*]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK: %[[VIEW:.*]] = llvm.getelementptr %{{.*}}[%[[ROW64]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: %[[PANEL2:.*]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK: llvm.getelementptr %[[VIEW]][%[[PANEL2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @rows_to_tma(%desc: !tt.tensordesc<tensor<64x128xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    %bottom = ttg.memdesc_subslice %buf[64, 0] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128>
    ttng.async_tma_copy_local_to_global %desc[%c0, %c0] %bottom : !tt.tensordesc<tensor<64x128xf16, #shared>>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128>
    tt.return
  }
}

// -----

// A wgmma descriptor reads a buffer as one of its own shape: such a view
// of rows cannot be an operand.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @rows_to_wgmma(%c: tensor<64x64xf32, #mma>, %out: !tt.ptr<f32>) {
    %true = arith.constant true
    %b = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    %bottom = ttg.memdesc_subslice %buf[64, 0] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128>
    // expected-error @+2 {{operand A is a view of part of a buffer that is not laid out as a buffer of its shape would be, which a wgmma descriptor cannot read}}
    // expected-error @+1 {{failed to legalize operation 'ttng.warp_group_dot'}}
    %d = ttng.warp_group_dot %bottom, %b, %c, %true {inputPrecision = 0 : i32} : !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128> * !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<64x64xf32, #mma>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Rows 4..7 start where the swizzle XORs column bits (row 4's 16-byte
// groups move by 4): the start and the view's elements share offset bits.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @swizzled_start() {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    // expected-error @+1 {{the view's start and its elements share offset bits in the buffer's layout (a swizzle)}}
    %rows = ttg.memdesc_subslice %buf[4, 0] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<4x128xf16, #shared, #smem, mutable, 128x128>
    tt.return
  }
}
