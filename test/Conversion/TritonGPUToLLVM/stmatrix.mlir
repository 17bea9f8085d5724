// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-convert-to-llvm %s | FileCheck %s

// A wgmma accumulator converted to f16 and stored into the 128-byte-
// swizzled buffer of a TMA store (the epilogue): each group of 8 registers
// is one stmatrix of four 8x8 matrices (64x64 over 4 warps: 32 registers a
// thread, 4 stores); a lane's address XORs in its row and matrix bits and
// its warp's rows.
// CHECK-LABEL: llvm.func @epilogue
// CHECK-COUNT-4: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK-NOT: llvm.store {{.*}}!llvm.ptr<3>
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @epilogue(%acc: tensor<64x64xf16, #mma>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %acc, %buf : tensor<64x64xf16, #mma> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

// Before sm_90 there is no stmatrix: the same store is st.shared of pairs.
// CHECK-LABEL: llvm.func @epilogue_sm80
// CHECK-NOT: nvvm.stmatrix
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @epilogue_sm80(%acc: tensor<64x64xf16, #mma>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %acc, %buf : tensor<64x64xf16, #mma> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return
  }
}
