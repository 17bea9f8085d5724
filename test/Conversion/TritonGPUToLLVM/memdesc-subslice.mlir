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
// own shape would be (its second panel is 128 rows on, not 64): refused.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @rows() {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared, #smem, mutable>
    // expected-error @+1 {{op 'ttg.memdesc_subslice' cannot be lowered to LLVM: the box is not laid out in the buffer as a buffer of its shape would be}}
    %top = ttg.memdesc_subslice %buf[64, 0] : !ttg.memdesc<128x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable, 128x128>
    tt.return
  }
}
