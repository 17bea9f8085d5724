// RUN: kiln-opt -split-input-file --ttgir-optimize-descriptor-encoding --ttgir-tma-lowering %s | FileCheck %s
// RUN: kiln-opt -split-input-file --ttgir-optimize-descriptor-encoding --ttgir-tma-lowering=num-stages=4 %s | FileCheck %s --check-prefix=FOUR

// A descriptor made on every pass of a loop: its tensor map goes into a
// ring of num_stages + 1 maps allocated before the loop, at the slot a
// loop-carried counter names; the counter wraps after the last slot.
// CHECK-LABEL: tt.func public @in_loop
// CHECK: %[[RING:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 512 : i32} : !tt.ptr<i8>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for {{.*}} iter_args(%[[C:.*]] = %[[ZERO]]) -> (i32)
// CHECK: %[[OFF:.*]] = arith.muli %[[C]], %{{.*}} : i32
// CHECK: %[[MAP:.*]] = tt.addptr %[[RING]], %[[OFF]] : !tt.ptr<i8>, i32
// CHECK: ttng.tensormap_create %[[MAP]],
// CHECK: %[[NEXT:.*]] = arith.addi %[[C]], %{{.*}} : i32
// CHECK: %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %[[SLOTS:.*]] : i32
// CHECK: %[[STEP:.*]] = arith.select %[[WRAP]], %{{.*}}, %[[NEXT]] : i32
// CHECK: scf.yield %[[STEP]] : i32
// FOUR-LABEL: tt.func public @in_loop
// FOUR: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 640 : i32}
// FOUR: arith.constant 5 : i32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @in_loop(%base: !tt.ptr<f16>, %out: !tt.ptr<f16>, %m: i32, %s: i64, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %base, %i : !tt.ptr<f16>, i32
      %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
      %v = tt.descriptor_load %d[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %o = tt.make_tensor_descriptor %out, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
      tt.descriptor_store %o[%i, %c0], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// Made only when a condition holds (a persistent loop's next tile): the
// conditional gains a result, the counter stepped where the map was made
// and passed on unchanged where it was not. A loop's own tt.num_stages
// sizes the ring when it asks more.
// CHECK-LABEL: tt.func public @conditional
// CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 768 : i32}
// CHECK: scf.for {{.*}} iter_args(%[[D:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (!tt.tensordesc<{{.*}}>, i32)
// CHECK: %[[IF:.*]]:2 = scf.if %{{.*}} -> (!tt.tensordesc<{{.*}}>, i32) {
// CHECK: ttng.tensormap_create
// CHECK: %[[NEXT:.*]] = arith.select
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : !tt.tensordesc<{{.*}}>, i32
// CHECK: } else {
// CHECK: scf.yield %[[D]], %[[C]] : !tt.tensordesc<{{.*}}>, i32
// CHECK: scf.yield %[[IF]]#0, %[[IF]]#1 : !tt.tensordesc<{{.*}}>, i32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @conditional(%base: !tt.ptr<f16>, %d0: !tt.tensordesc<tensor<64x64xf16>>, %m: i32, %s: i64, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %one = arith.constant 1 : i64
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%d = %d0) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %k = arith.remsi %i, %c4 : i32
      %first = arith.cmpi eq, %k, %c0 : i32
      %next = scf.if %first -> (!tt.tensordesc<tensor<64x64xf16>>) {
        %p = tt.addptr %base, %i : !tt.ptr<f16>, i32
        %e = tt.make_tensor_descriptor %p, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
        scf.yield %e : !tt.tensordesc<tensor<64x64xf16>>
      } else {
        scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
      }
      %v = tt.descriptor_load %next[%k, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      tt.descriptor_store %next[%k, %c0], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
      scf.yield %next : !tt.tensordesc<tensor<64x64xf16>>
    } {tt.num_stages = 5 : i32}
    tt.return
  }
}

// -----

// In the inner of two loops, under an scf.if with no else: the outer loop
// carries the counter into the inner one's and takes back its result, so
// the ring keeps turning across outer passes; the if gets an else that
// passes the counter on. A descriptor made before every loop keeps one map.
// CHECK-LABEL: tt.func public @nested
// CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32}
// CHECK: %[[RING:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 512 : i32}
// CHECK: %[[OUTER:.*]] = scf.for {{.*}} iter_args(%[[CO:.*]] = %{{.*}}) -> (i32)
// CHECK: %[[INNER:.*]] = scf.for {{.*}} iter_args(%[[CI:.*]] = %[[CO]]) -> (i32)
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: tt.addptr %[[RING]]
// CHECK: ttng.tensormap_create
// CHECK: scf.yield %{{.*}} : i32
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[CI]] : i32
// CHECK: scf.yield %[[IF]] : i32
// CHECK: scf.yield %[[INNER]] : i32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @nested(%base: !tt.ptr<f16>, %m: i32, %s: i64, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    %d0 = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
    %v0 = tt.descriptor_load %d0[%c0, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %odd = arith.cmpi sgt, %j, %i : i32
        scf.if %odd {
          %p = tt.addptr %base, %j : !tt.ptr<f16>, i32
          %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
          tt.descriptor_store %d[%i, %c0], %v0 : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
        }
      }
    }
    tt.return
  }
}

// -----

// Two makes in one loop, one under an scf.if before the other: each block
// steps its own counter where its map is made (the unconditional one in
// the loop's body, not in the if's new else branch), after the first
// group's rewrite has replaced the loop.
// CHECK-LABEL: tt.func public @two_groups
// CHECK: scf.for {{.*}} iter_args(%[[CI:.*]] = %{{.*}}, %[[CB:.*]] = %{{.*}}) -> (i32, i32)
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: ttng.tensormap_create
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[CI]] : i32
// CHECK-NEXT: }
// CHECK: ttng.tensormap_create
// CHECK: %[[NEXT:.*]] = arith.addi %[[CB]], %{{.*}} : i32
// CHECK: %[[STEP:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NEXT]] : i32
// CHECK-NEXT: scf.yield %[[IF]], %[[STEP]] : i32, i32
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @two_groups(%base: !tt.ptr<f16>, %m: i32, %s: i64, %n: i32, %v: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %odd = arith.cmpi sgt, %i, %m : i32
      scf.if %odd {
        %d = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
        tt.descriptor_store %d[%i, %c0], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
      }
      %e = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
      tt.descriptor_store %e[%c0, %i], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// The pipeliner's clones of one make (one mark): the prologue's, before
// the loop, and the loop's write one ring of num_stages maps, with one
// counter carried from the prologue's conditional into the loop.
// CHECK-LABEL: tt.func public @clones
// CHECK: %[[RING:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 384 : i32}
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[PRO:.*]]:2 = scf.if %{{.*}} -> (!tt.tensordesc<{{.*}}>, i32) {
// CHECK: %[[OFF0:.*]] = arith.muli %[[ZERO]], %{{.*}} : i32
// CHECK: %[[MAP0:.*]] = tt.addptr %[[RING]], %[[OFF0]]
// CHECK: ttng.tensormap_create %[[MAP0]],
// CHECK: } else {
// CHECK: scf.yield %{{.*}}, %[[ZERO]] : !tt.tensordesc<{{.*}}>, i32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[PRO]]#0, %[[C:.*]] = %[[PRO]]#1) -> (!tt.tensordesc<{{.*}}>, i32)
// CHECK: %[[OFF:.*]] = arith.muli %[[C]], %{{.*}} : i32
// CHECK: %[[MAP:.*]] = tt.addptr %[[RING]], %[[OFF]]
// CHECK: ttng.tensormap_create %[[MAP]],
// CHECK-NOT: ttg.global_scratch_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @clones(%base: !tt.ptr<f16>, %d0: !tt.tensordesc<tensor<64x64xf16>>, %m: i32, %s: i64, %n: i32, %first: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %one = arith.constant 1 : i64
    %pro = scf.if %first -> (!tt.tensordesc<tensor<64x64xf16>>) {
      %d = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] {kiln.tensormap_ring = 0 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
      scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
    } else {
      scf.yield %d0 : !tt.tensordesc<tensor<64x64xf16>>
    }
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %pro) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %q = arith.remsi %i, %c4 : i32
      %new = arith.cmpi eq, %q, %c0 : i32
      %next = scf.if %new -> (!tt.tensordesc<tensor<64x64xf16>>) {
        %p = tt.addptr %base, %i : !tt.ptr<f16>, i32
        %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %one] {kiln.tensormap_ring = 0 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
        scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
      } else {
        scf.yield %cur : !tt.tensordesc<tensor<64x64xf16>>
      }
      %v = tt.descriptor_load %next[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      scf.yield %next : !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
}

// -----

// A descriptor only carried around (a clone the pipeliner left, whose
// loads were replaced): its iter_arg, the conditional's result and its
// make are erased, so it makes no map. The read one keeps its ring.
// CHECK-LABEL: tt.func public @carried_only
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (!tt.tensordesc<{{.*}}>, i32)
// CHECK: ttng.tensormap_create
// CHECK-NOT: ttng.tensormap_create
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @carried_only(%base: !tt.ptr<f16>, %d0: !tt.tensordesc<tensor<64x64xf16>>, %m: i32, %s: i64, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %one = arith.constant 1 : i64
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %d0, %dead = %d0) -> (!tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>) : i32 {
      %q = arith.remsi %i, %c4 : i32
      %new = arith.cmpi eq, %q, %c0 : i32
      %next:2 = scf.if %new -> (!tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>) {
        %p = tt.addptr %base, %i : !tt.ptr<f16>, i32
        %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
        %e = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
        scf.yield %d, %e : !tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>
      } else {
        scf.yield %cur, %dead : !tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>
      }
      %v = tt.descriptor_load %next#0[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      scf.yield %next#0, %next#1 : !tt.tensordesc<tensor<64x64xf16>>, !tt.tensordesc<tensor<64x64xf16>>
    }
    tt.return
  }
}

// -----

// Two clones of one make in one loop: each counter would step the other's
// slots, so each keeps a ring of num_stages + 1 of its own.
// CHECK-LABEL: tt.func public @clones_in_one_loop
// CHECK-COUNT-2: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 512 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @clones_in_one_loop(%base: !tt.ptr<f16>, %m: i32, %s: i64, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    scf.for %i = %c0 to %n step %c1 : i32 {
      %d = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] {kiln.tensormap_ring = 3 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
      %v = tt.descriptor_load %d[%i, %c0] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
      %e = tt.make_tensor_descriptor %base, [%m, %m], [%s, %one] {kiln.tensormap_ring = 3 : i32} : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
      %w = tt.descriptor_load %e[%c0, %i] : !tt.tensordesc<tensor<64x64xf16>> -> tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}

// -----

// A map made in an inner loop and handed out of it to a TMA store of the
// loop around it: that store is waited for only in the outer loop's next
// pass, after the inner loop has made new maps, so the inner loop starts
// only once every TMA store has completed. The counter starts before the
// outer loop.
// CHECK-LABEL: tt.func public @handed_out
// CHECK: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 512 : i32}
// CHECK: scf.for
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: scf.for
// CHECK: ttng.tensormap_create
// CHECK: ttng.async_tma_copy_local_to_global
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @handed_out(%base: !tt.ptr<f16>, %d0: !tt.tensordesc<tensor<64x64xf16>>, %v: tensor<64x64xf16, #blocked>, %m: i32, %s: i64, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant 1 : i64
    scf.for %t = %c0 to %n step %c1 : i32 {
      %last = scf.for %k = %c0 to %n step %c1 iter_args(%cur = %d0) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
        %p = tt.addptr %base, %k : !tt.ptr<f16>, i32
        %d = tt.make_tensor_descriptor %p, [%m, %m], [%s, %one] : !tt.ptr<f16>, !tt.tensordesc<tensor<64x64xf16>>
        scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
      }
      tt.descriptor_store %last[%t, %c0], %v : !tt.tensordesc<tensor<64x64xf16>>, tensor<64x64xf16, #blocked>
    }
    tt.return
  }
}
