// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir -verify-diagnostics
// RUN: not kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=3" 2>&1 | FileCheck %s --check-prefix=CTAS
// RUN: not kiln-opt %s -split-input-file --ttgir-convert-from-ttir="target=cuda" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-warps=3" 2>&1 | FileCheck %s --check-prefix=WARPS

// CTAS: error: ttgir-convert-from-ttir: num-ctas must be a power of two
// TARGET: error: ttgir-convert-from-ttir: invalid target 'cuda' (expected cuda:<capability> or hip:<arch>)
// WARPS: error: ttgir-convert-from-ttir: num-warps and threads-per-warp must be powers of two, num-ctas positive

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{ttgir-convert-from-ttir: the module already has layouts (is it TTGIR?)}}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @again() {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tt.return
  }
}
