// RUN: kiln-opt -split-input-file %s --llir-allocate-global-scratch -verify-diagnostics

// A function that needs global scratch and calls itself: its need has no
// bound, so the call is refused where it is made.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%n: i32) {
    tt.call @again(%n) : (i32) -> ()
    tt.return
  }
  tt.func private @again(%n: i32) attributes {noinline = true} {
    %map = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    // expected-error @+1 {{'again' needs global scratch memory and is called recursively}}
    tt.call @again(%n) : (i32) -> ()
    tt.return
  }
}

// -----

// More than 2^31 bytes a program, summed over two calls.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel() {
    tt.call @big() : () -> ()
    // expected-error @+1 {{function 'kernel' needs more than 2^31 bytes of global scratch memory per program}}
    tt.call @big() : () -> ()
    tt.return
  }
  tt.func private @big() attributes {noinline = true} {
    %map = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 1610612736 : i32} : !tt.ptr<i8>
    tt.return
  }
}
