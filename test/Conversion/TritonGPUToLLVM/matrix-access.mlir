// RUN: kiln-opt -split-input-file --llir-allocate-shared-memory --llir-convert-to-llvm %s | FileCheck %s

// 16-bit copies between registers and shared memory as 8x8 matrices
// (kiln/Layout/MatrixAccess.h): stmatrix from sm_90, ldmatrix from sm_75,
// transposed where the registers pair elements across rows.

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

// -----

// mma.sync's A operand read from its swizzled ring slot (K contiguous):
// one ldmatrix of four 8x8 matrices per 8 registers (64x32 f16 over 4
// warps: 16 registers a thread, 2 loads), the words split into pairs
// (the conversion after it goes through its scratch as before).
// CHECK-LABEL: llvm.func @operand_a
// CHECK-NOT: llvm.load {{.*}}!llvm.ptr<3>
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvvm.ldmatrix
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @operand_a(%p: !tt.ptr<f16>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %a = ttg.local_load %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #a>
    %x = ttg.convert_layout %a : tensor<64x32xf16, #a> -> tensor<64x32xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.store %ps, %x : tensor<64x32x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.return
  }
}

// -----

// Its B operand kept N-contiguous (row-major K x N): the transposing form
// (ldmatrix.trans, NVVM's column layout).
// CHECK-LABEL: llvm.func @operand_b
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#b = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @operand_b(%p: !tt.ptr<f16>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    %b = ttg.local_load %buf : !ttg.memdesc<32x64xf16, #shared, #smem, mutable> -> tensor<32x64xf16, #b>
    %x = ttg.convert_layout %b : tensor<32x64xf16, #b> -> tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.store %ps, %x : tensor<32x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    tt.return
  }
}


// -----

// convert_layout of a wgmma accumulator to the coalesced layout of its
// tt.store: stmatrix into the scratch, 16-byte loads back (128x128 over 8
// warps: 64 registers a thread, 8 stmatrix and 8 loads instead of 32 and 32
// 4-byte accesses).
// CHECK-LABEL: llvm.func @acc_to_blocked
// CHECK-COUNT-8: nvvm.stmatrix
// CHECK-NOT: nvvm.stmatrix
// CHECK: nvvm.barrier
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
// CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK: llvm.return
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @acc_to_blocked(%acc: tensor<128x128xf16, #mma>, %p: tensor<128x128x!tt.ptr<f16>, #blocked>) {
    %c = ttg.convert_layout %acc : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked>
    tt.store %p, %c : tensor<128x128x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// Before sm_90 the same conversion stores pairs (the shared vector of the
// two layouts is one f16 pair).
// CHECK-LABEL: llvm.func @acc_to_blocked_sm80
// CHECK-NOT: nvvm.stmatrix
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @acc_to_blocked_sm80(%acc: tensor<64x64xf16, #mma>, %p: tensor<64x64x!tt.ptr<f16>, #blocked>) {
    %c = ttg.convert_layout %acc : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #blocked>
    tt.store %p, %c : tensor<64x64x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// A K-contiguous tile converted to mma.sync's A operand on sm_80: 16-byte
// stores of the blocked rows, ldmatrix x4 loads of the operand (64x32 over
// 4 warps: 16 registers a thread, 2 loads).
// CHECK-LABEL: llvm.func @blocked_to_operand
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: nvvm.barrier
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-NOT: nvvm.ldmatrix
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @blocked_to_operand(%a: tensor<64x32xf16, #blocked>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>, %acc: tensor<64x64xf32, #mma>, %p: tensor<64x64x!tt.ptr<f32>, #mma>) {
    %x = ttg.convert_layout %a : tensor<64x32xf16, #blocked> -> tensor<64x32xf16, #dot>
    %d = tt.dot %x, %b, %acc : tensor<64x32xf16, #dot> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
    tt.store %p, %d : tensor<64x64x!tt.ptr<f32>, #mma>
    tt.return
  }
}
