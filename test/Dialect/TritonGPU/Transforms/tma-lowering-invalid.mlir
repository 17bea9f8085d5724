// RUN: kiln-opt --ttgir-tma-lowering -split-input-file -verify-diagnostics %s

// Without its nvmma_shared encoding a block has no TMA buffer layout.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_encoding(%a: !tt.tensordesc<tensor<128x64xf16>>, %i: i32) {
    // expected-error @+1 {{a TMA copy through '!tt.tensordesc<tensor<128x64xf16>>' needs a #ttg.nvmma_shared block encoding (run ttgir.optimize-descriptor-encoding first)}}
    %v = tt.descriptor_load %a[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
    tt.return
  }
}

// -----

// TMA reads rows: the innermost stride of a descriptor made in the kernel
// must be the constant 1.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @strided_rows(%base: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %t: i64) {
    // expected-error @+1 {{the innermost stride of a tensor descriptor must be the constant 1}}
    %d = tt.make_tensor_descriptor %base, [%m, %n], [%s, %t] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16, #shared>>
    tt.return
  }
}
