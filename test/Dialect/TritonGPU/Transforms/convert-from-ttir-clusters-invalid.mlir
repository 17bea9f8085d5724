// RUN: kiln-opt %s -split-input-file --ttgir-convert-from-ttir="num-ctas=2" -verify-diagnostics

// TMA in a cluster (a box per CTA, multicast) is not laid out yet: refused
// where the descriptor is used, before any layout is chosen.
tt.func public @tma(%d: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // expected-error @+1 {{tensor descriptors (TMA) in programs of several CTAs (num-ctas = 2) are not supported yet}}
  %t = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16>
  tt.return
}
