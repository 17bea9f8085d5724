// RUN: kiln-opt %s -split-input-file --llir-allocate-shared-memory --llir-convert-to-llvm -verify-diagnostics

// Another CTA's shared memory (ttng.map_to_remote_buffer) is only arrived
// on: any other access through it is a located error, not an LLVM crash.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_remote(%rank: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128xi32, #bar, #smem, mutable>
    %remote = ttng.map_to_remote_buffer %buf, %rank : !ttg.memdesc<128xi32, #bar, #smem, mutable> -> !ttg.memdesc<128xi32, #bar, #ttng.shared_cluster_memory, mutable>
    // expected-error @+1 {{op 'ttg.local_load' cannot take a buffer of another CTA (#ttng.shared_cluster_memory); only ttng.arrive_barrier does}}
    %v = ttg.local_load %remote : !ttg.memdesc<128xi32, #bar, #ttng.shared_cluster_memory, mutable> -> tensor<128xi32, #blocked>
    tt.return
  }
}
