// RUN: kiln-opt %s -split-input-file --ttgir-pipeline -verify-diagnostics

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
tt.func @not_an_integer(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{ttgir-pipeline: tt.num_stages must be an integer, got "three"}}
  scf.for %k = %c0 to %n step %c1 : i32 {
  } {tt.num_stages = "three"}
  tt.return
}
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {
tt.func @too_deep(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{ttgir-pipeline: 40 stages requested, at most 16 supported}}
  scf.for %k = %c0 to %n step %c1 : i32 {
  } {tt.num_stages = 40 : i32}
  tt.return
}
}
