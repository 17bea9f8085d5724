// RUN: kiln-opt -split-input-file --llir-allocate-warp-groups --llir-allocate-shared-memory --llir-convert-to-llvm --llir-lower-warp-specialize -verify-diagnostics %s

// A kernel's own named barrier may not use an id warp specialisation takes
// (0, 1, and 2 + i for partition i).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @taken_id() {
    ttg.warp_specialize()
    default {
      %c2 = arith.constant 2 : i32
      %c128 = arith.constant 128 : i32
      // expected-error @+1 {{a named barrier of the kernel's own must use a constant id from 3 to 15: warp specialisation takes barriers 0 to 2}}
      ttng.named_barrier_wait %c2, %c128 : i32, i32
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A tensor has no registers in the partitions' warps.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tensor_capture() {
    %t = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    // expected-error @+1 {{ttg.warp_specialize cannot pass the tensor}}
    ttg.warp_specialize(%t)
    default {
      ttg.warp_yield
    }
    partition0(%u: tensor<128xi32, #blocked>) num_warps(1) {
      ttg.warp_return
    } : (tensor<128xi32, #blocked>) -> ()
    tt.return
  }
}

// -----

// Requests the register file cannot hold: two worker groups at 256 leave
// the 4 default warps of a 12-warp kernel nothing.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @too_many_registers() {
    // expected-error @+1 {{ttg.warp_specialize's partitions ask for more registers than the register file holds: at 168 per thread for 12 warps, the default warps would keep 0 (setmaxnreg needs at least 24)}}
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 256, 256>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    }
    partition1() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
