// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Rejected forms of ttg.warp_specialize, each naming the check it hits.

tt.func @partition_numbering() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  // expected-error @+1 {{expected 'partition0', got 'partition1'}}
  partition1() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @warps_power_of_two() {
  // expected-error @+1 {{partition 0 must have a power of two of warps, got 3}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(3) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @registers() {
  // expected-error @+1 {{partition 0 asks for 20 registers per thread; expected a multiple of 8 in [24, 256]}}
  ttg.warp_specialize() attributes {requestedRegisters = array<i32: 20>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @register_count() {
  // expected-error @+1 {{requestedRegisters has 2 entries for 1 partitions}}
  ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24, 24>}
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

tt.func @capture_types(%a: i32) {
  // expected-error @+1 {{partition 0's block arguments must have the captures' types}}
  ttg.warp_specialize(%a)
  default {
    ttg.warp_yield
  }
  partition0(%b: i64) num_warps(1) {
    ttg.warp_return
  } : (i32) -> ()
  tt.return
}

// -----

tt.func @yield_types() -> i32 {
  %r = ttg.warp_specialize()
  default {
    %c = arith.constant 0 : i64
    // expected-error @+1 {{must yield values of the ttg.warp_specialize's result types}}
    ttg.warp_yield %c : i64
  } : () -> i32
  tt.return %r : i32
}

// -----

tt.func @isolated(%a: i32) {
  // expected-note @+1 {{required by region isolation constraints}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    // expected-error @+1 {{using value defined outside the region}}
    %b = arith.addi %a, %a : i32
    ttg.warp_return
  } : () -> ()
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
tt.func @partition_layout() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    // expected-error @+1 {{spans 4 warps but "ttg.num-warps" is 1}}
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    ttg.warp_return
  } : () -> ()
  tt.return
}
}

