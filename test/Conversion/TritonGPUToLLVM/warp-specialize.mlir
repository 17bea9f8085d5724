// RUN: kiln-opt -split-input-file --llir-allocate-warp-groups %s | FileCheck %s --check-prefix=WARPS
// RUN: kiln-opt -split-input-file --llir-allocate-warp-groups --llir-allocate-shared-memory %s | FileCheck %s --check-prefix=SMEM
// RUN: kiln-opt -split-input-file --llir-allocate-warp-groups --llir-allocate-shared-memory --llir-convert-to-llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: kiln-opt -split-input-file --llir-allocate-warp-groups --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm --llir-lower-warp-specialize %s | FileCheck %s --check-prefix=NV

// Partitions of 1, 2 and 4 warps after 4 default warps: largest first, each
// at a multiple of its size; the module launches with whole warp groups.
// WARPS: "ttg.total-num-warps" = 12 : i32
// WARPS: ttg.warp_specialize(%arg0, %arg1) attributes {warpGroupStartIds = array<i32: 10, 8, 4>}

// The captures' slots (8 bytes each) and the dispatch word: the partitions
// run at once with the default region, so a buffer of one region never
// shares bytes with another region's.
// SMEM: ttg.warp_specialize(%arg0, %arg1) attributes {allocation.offset = 1408 : i32, allocation.warp_state_offset = 1424 : i32
// SMEM: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
// SMEM: ttg.local_alloc %{{.*}} {allocation.offset = 1280 : i32}
// SMEM: ttg.local_alloc %{{.*}} {allocation.offset = 1024 : i32}
// SMEM: ttg.local_alloc %{{.*}} {allocation.offset = 512 : i32}

// The conversion keeps the op, with LLVM types across it.
// LLVM: ttg.warp_specialize(%{{.*}}, %{{.*}}) attributes
// LLVM: partition0(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32) num_warps(1)
// LLVM: } : (!llvm.ptr<1>, i32) -> ()

// NV-LABEL: llvm.func @kernel
// The dispatch: warps 0-3 run the body, the others wait for work.
// NV: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// NV: %[[WARP:.*]] = llvm.udiv %[[TID]]
// NV: %[[UNIFORM:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP]]
// NV: %[[DEFAULT:.*]] = llvm.icmp "ult" %[[UNIFORM]], %{{.*}}
// NV: llvm.cond_br %[[DEFAULT]], ^[[BODY:bb[0-9]+]], ^[[WORKER:bb[0-9]+]]
// Before the op: the captures into their slots, op 1 into the word, then
// the release at barrier 1 (all 12 warps).
// NV: ^[[BODY]]:
// NV: llvm.store %arg0, %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1>, !llvm.ptr<3>
// NV: llvm.store %arg1, %{{.*}} {alignment = 8 : i64} : i32, !llvm.ptr<3>
// NV: llvm.store %[[ONE:.*]], %{{.*}} : i32, !llvm.ptr<3>
// NV: "bar.sync 1, 384;"
// The default region's CTA barrier covers only its 4 warps.
// NV: "bar.sync 0, 128;"
// NV: "bar.sync 1, 384;"
// Returning: the exit word (0) and the last release.
// NV: "bar.sync 1, 384;"
// NV: llvm.return
// The workers: wait, read the word, 1 runs the op, anything else exits.
// NV: ^[[WORKER]]:
// NV: "bar.sync 1, 384;"
// NV: %[[STATE:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// NV: llvm.switch %[[STATE]] : i32, ^[[EXIT:bb[0-9]+]] [
// NV-NEXT: 1: ^[[ENTER:bb[0-9]+]]
// NV: ^[[EXIT]]:
// NV-NEXT: llvm.return
// Each warp to its partition; a partition reads its captures back, counts
// threads from its first warp and has its own named barrier.
// NV: llvm.switch %[[UNIFORM]] : i32, ^[[JOIN:bb[0-9]+]] [
// NV-NEXT: 10: ^[[P0:bb[0-9]+]],
// NV-NEXT: 8: ^[[P1:bb[0-9]+]],
// NV-NEXT: 9: ^[[P1]],
// NV-NEXT: 4: ^[[P2:bb[0-9]+]],
// NV: ^[[JOIN]]:
// NV-NEXT: "bar.sync 1, 384;"
// NV-NEXT: llvm.br ^[[WORKER]]
// NV: ^[[P0]]:
// NV: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> !llvm.ptr<1>
// NV: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> i32
// NV: nvvm.read.ptx.sreg.tid.x
// NV-NEXT: llvm.mlir.constant(320 : i32)
// NV-NEXT: llvm.sub
// NV: "bar.sync 2, 32;"
// NV: llvm.br ^[[JOIN]]
// NV: "bar.sync 3, 64;"
// NV: "bar.sync 4, 128;"
// NV-NOT: ttg.warp

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%p: !tt.ptr<i32>, %n: i32) {
    ttg.warp_specialize(%p, %n)
    default {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked4>
      %buf = ttg.local_alloc %r : (tensor<128xi32, #blocked4>) -> !ttg.memdesc<128xi32, #shared, #smem>
      %back = ttg.local_load %buf : !ttg.memdesc<128xi32, #shared, #smem> -> tensor<128xi32, #blocked4>
      %s = tt.splat %p : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #blocked4>
      %a = tt.addptr %s, %back : tensor<128x!tt.ptr<i32>, #blocked4>, tensor<128xi32, #blocked4>
      tt.store %a, %back : tensor<128x!tt.ptr<i32>, #blocked4>
      ttg.warp_yield
    }
    partition0(%x: !tt.ptr<i32>, %m: i32) num_warps(1) {
      %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked1>
      %buf = ttg.local_alloc %r : (tensor<32xi32, #blocked1>) -> !ttg.memdesc<32xi32, #shared, #smem>
      %back = ttg.local_load %buf : !ttg.memdesc<32xi32, #shared, #smem> -> tensor<32xi32, #blocked1>
      %s = tt.splat %x : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>, #blocked1>
      %a = tt.addptr %s, %back : tensor<32x!tt.ptr<i32>, #blocked1>, tensor<32xi32, #blocked1>
      tt.store %a, %back : tensor<32x!tt.ptr<i32>, #blocked1>
      ttg.warp_return
    }
    partition1(%x: !tt.ptr<i32>, %m: i32) num_warps(2) {
      %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
      %buf = ttg.local_alloc %r : (tensor<64xi32, #blocked2>) -> !ttg.memdesc<64xi32, #shared, #smem>
      %back = ttg.local_load %buf : !ttg.memdesc<64xi32, #shared, #smem> -> tensor<64xi32, #blocked2>
      ttg.warp_return
    }
    partition2(%x: !tt.ptr<i32>, %m: i32) num_warps(4) {
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked4>
      %buf = ttg.local_alloc %r : (tensor<128xi32, #blocked4>) -> !ttg.memdesc<128xi32, #shared, #smem>
      %back = ttg.local_load %buf : !ttg.memdesc<128xi32, #shared, #smem> -> tensor<128xi32, #blocked4>
      ttg.warp_return
    } : (!tt.ptr<i32>, i32) -> ()
    tt.return
  }
}

// -----

// Registers move between warp groups on sm_90: 8 default warps and a
// producer warp launch as 12 warps at 168 registers; the producer's warp
// group drops to 24 and the default warps rise to 240. With one op they
// stay there (nothing else runs on the workers). The plan for two CTAs per
// SM (80 at launch, 104 for the default warps) is left for the ptx stage.
// NV-LABEL: llvm.func @registers
// NV-SAME: nvvm.maxnreg = 168 : i32
// NV-SAME: nvvm.reqntid = array<i32: 384>
// NV: "// kiln.registers for two CTAs per SM: maxnreg 168 -> 80, setmaxnreg.inc 240 -> 104"
// NV: "bar.sync 1, 384;"
// NV-NEXT: "setmaxnreg.inc.sync.aligned.u32 240;"
// NV-NOT: "setmaxnreg.{{inc|dec}}.sync.aligned.u32 168;"
// NV: "setmaxnreg.dec.sync.aligned.u32 24;"
// NV-NOT: "setmaxnreg.{{inc|dec}}.sync.aligned.u32 168;"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @registers() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Two ops with the same plan, one after the other: the first moves the
// registers and the second finds them there.
// NV-LABEL: llvm.func @registers_twice
// NV: "// kiln.registers for two CTAs per SM: maxnreg 168 -> 80, setmaxnreg.inc 240 -> 104"
// NV-COUNT-1: "setmaxnreg.inc.sync.aligned.u32 240;"
// NV-NOT: "setmaxnreg.{{inc|dec}}.sync.aligned.u32 {{168|240}};"
// NV-COUNT-1: "setmaxnreg.dec.sync.aligned.u32 24;"
// NV-NOT: setmaxnreg
// NV-LABEL: llvm.func @registers_differ
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @registers_twice() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Two ops with different plans: after each the default warps give back to
// the launch count and the workers take it again, so that the next op
// starts from it; the two-CTA plan rewrites those as well. Everyone moves
// back after the join (an .inc there waits for the others' decs).
// NV: "// kiln.registers for two CTAs per SM: maxnreg 168 -> 80, setmaxnreg.inc 240 -> 104, setmaxnreg.inc 232 -> 96, setmaxnreg.inc 168 -> 80, setmaxnreg.dec 168 -> 80"
// NV: "setmaxnreg.inc.sync.aligned.u32 240;"
// NV: "bar.sync 1, 384;"
// NV-NEXT: "setmaxnreg.dec.sync.aligned.u32 168;"
// NV: "setmaxnreg.inc.sync.aligned.u32 232;"
// NV: "bar.sync 1, 384;"
// NV-NEXT: "setmaxnreg.dec.sync.aligned.u32 168;"
// NV-DAG: "setmaxnreg.dec.sync.aligned.u32 24;"
// NV-DAG: "setmaxnreg.dec.sync.aligned.u32 40;"
// NV-DAG: "setmaxnreg.inc.sync.aligned.u32 168;"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @registers_differ() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 40>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A worker task may take registers too (TLX-style consumers in tasks):
// 4 default warps, a producer warp asking for 24 and a consumer warp group
// asking for 240 launch as 12 warps at 168; the producer's group gives back
// to 24, the consumer's group grows to 240, the default warps get the
// 240 left. Each group moves before it picks among its own partitions
// only (ptxas keeps a count for the code a setmaxnreg reaches), and no
// two-CTA plan is made (its rewrite covers growing default warps only).
// NV-LABEL: llvm.func @workers_grow
// NV-SAME: nvvm.maxnreg = 168 : i32
// NV-NOT: kiln.registers for two CTAs
// NV: "setmaxnreg.inc.sync.aligned.u32 240;"
// NV: "bar.sync 1, 384;"
// NV: llvm.udiv
// NV-NEXT: llvm.switch %{{.*}} : i32, ^[[JOIN:bb[0-9]+]] [
// NV-NEXT: 0: ^[[G0:bb[0-9]+]],
// NV-NEXT: 1: ^[[G1:bb[0-9]+]]
// NV: ^[[G0]]:
// NV-NEXT: "setmaxnreg.inc.sync.aligned.u32 240;"
// NV-NEXT: llvm.switch %{{.*}} : i32, ^[[JOIN]] [
// NV-NEXT: 4: ^{{bb[0-9]+}},
// NV-NEXT: 5: ^{{bb[0-9]+}},
// NV-NEXT: 6: ^{{bb[0-9]+}},
// NV-NEXT: 7: ^{{bb[0-9]+}}
// NV-NEXT: ]
// NV: ^[[G1]]:
// NV-NEXT: "setmaxnreg.dec.sync.aligned.u32 24;"
// NV-NEXT: llvm.switch %{{.*}} : i32, ^[[JOIN]] [
// NV-NEXT: 8: ^{{bb[0-9]+}}
// NV-NEXT: ]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @workers_grow() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24, 240>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    }
    partition1() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Default warps that give registers to growing workers (two consumer
// groups at 240 leave the 4 default warps 24) and two plans: the default
// warps take theirs back only after the join, where the workers give
// theirs back too; before it, their .inc would wait for decs that cannot
// come (the workers are at the barrier).
// NV-LABEL: llvm.func @defaults_shrink
// NV: "setmaxnreg.dec.sync.aligned.u32 24;"
// NV: "bar.sync 1, 384;"
// NV-NEXT: "setmaxnreg.inc.sync.aligned.u32 168;"
// NV: "setmaxnreg.dec.sync.aligned.u32 40;"
// NV: "bar.sync 1, 384;"
// NV-NEXT: "setmaxnreg.inc.sync.aligned.u32 168;"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @defaults_shrink() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 240, 240>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(4) {
      ttg.warp_return
    }
    partition1() num_warps(4) {
      ttg.warp_return
    } : () -> ()
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 232, 232>}
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

// -----

// ttg.thread_id counts a partition's threads from its first: the
// partition's warp starts at warp 4, so its thread 0 is the CTA's 128.
// NV-LABEL: llvm.func @thread_ids
// NV: ^bb1:
// NV: %[[T:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// NV-NOT: llvm.sub %[[T]]
// NV: llvm.store
// NV: nvvm.read.ptx.sreg.tid.x
// NV-NEXT: llvm.mlir.constant(128 : i32)
// NV-NEXT: llvm.sub
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @thread_ids(%p: !tt.ptr<i32>) {
    ttg.warp_specialize(%p)
    default {
      %t = ttg.thread_id : i32
      tt.store %p, %t : !tt.ptr<i32>
      ttg.warp_yield
    }
    partition0(%x: !tt.ptr<i32>) num_warps(1) {
      %t = ttg.thread_id : i32
      %q = tt.addptr %x, %t : !tt.ptr<i32>, i32
      tt.store %q, %t : !tt.ptr<i32>
      ttg.warp_return
    } : (!tt.ptr<i32>) -> ()
    tt.return
  }
}

// -----

// Below sm_90 there is no setmaxnreg: the request is left unmet.
// NV-LABEL: llvm.func @no_setmaxnreg
// NV-NOT: maxnreg
// NV: llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @no_setmaxnreg() {
    ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24>}
    default {
      ttg.warp_yield
    }
    partition0() num_warps(1) {
      ttg.warp_return
    } : () -> ()
    tt.return
  }
}
