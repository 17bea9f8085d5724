// RUN: kiln-opt %s -split-input-file --ttgir-fuse-nested-loops | FileCheck %s
// RUN: kiln-opt %s -split-input-file --ttgir-fuse-nested-loops | kiln-opt -split-input-file > /dev/null

// A persistent loop over tiles: one loop of T * T2 iterations. The first
// tile's prolog runs before it, the next ones' at the first iteration of
// their tile (not at iteration 0), the accumulator restarts from its init
// there, and the epilogue runs at the last iteration of each tile. When
// either loop would not iterate, the nest runs with the nested loop
// replaced by its init.
// CHECK-LABEL: tt.func @persistent
// CHECK-SAME: (%[[OUT:.*]]: !tt.ptr<f32>, %[[TILES:.*]]: i32, %[[KT:.*]]: i32)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.0{{.*}}> : tensor<32x32xf32
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: %[[T:.*]] = arith.select %{{.*}} : i64
// CHECK: %[[KT64:.*]] = arith.extsi %[[KT]] : i32 to i64
// CHECK: %[[T2:.*]] = arith.select %{{.*}}, %[[KT64]], %{{.*}} : i64
// CHECK: %[[TOTAL:.*]] = arith.muli %[[T]], %[[T2]] : i64
// CHECK: %[[ANY:.*]] = arith.cmpi ne, %[[TOTAL]], %[[C0:.*]] : i64
// CHECK: scf.if %[[ANY]] {
// CHECK-NEXT: %[[ROW0:.*]] = arith.muli %[[PID]], %[[C132:.*]] : i32
// CHECK-NEXT: scf.for unsigned %[[ITER:.*]] = %[[C0]] to %[[TOTAL]] step %[[C1:.*]] iter_args(%[[ACC:.*]] = %[[ZERO]], %[[TILE:.*]] = %[[PID]], %[[K:.*]] = %[[C0]], %[[ROW:.*]] = %[[ROW0]]) -> (tensor<32x32xf32, #blocked>, i32, i64, i32) : i64 {
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[C0]] : i64
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ne, %[[ITER]], %[[C0]] : i64
// CHECK-NEXT: %[[AGAIN:.*]] = arith.andi %[[FIRST]], %[[LATER]] : i1
// CHECK-NEXT: %[[NEWROW:.*]] = scf.if %[[AGAIN]] -> (i32) {
// CHECK-NEXT: %[[R:.*]] = arith.muli %[[TILE]], %[[C132]] : i32
// CHECK-NEXT: scf.yield %[[R]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ROW]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: %[[IN:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[ACC]] : tensor<32x32xf32, #blocked>
// CHECK-NEXT: %[[NEXTACC:.*]] = arith.addf %[[IN]], %{{.*}} : tensor<32x32xf32, #blocked>
// CHECK-NEXT: %[[LASTK:.*]] = arith.subi %[[T2]], %[[C1]] : i64
// CHECK-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[K]], %[[LASTK]] : i64
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK-NEXT: %[[P:.*]] = tt.addptr %[[OUT]], %[[NEWROW]]
// CHECK-NEXT: %[[PS:.*]] = tt.splat %[[P]]
// CHECK-NEXT: tt.store %[[PS]], %[[NEXTACC]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[STEPPED:.*]] = arith.addi %[[TILE]], %[[C132]] : i32
// CHECK-NEXT: %[[NEXTTILE:.*]] = arith.select %[[LAST]], %[[STEPPED]], %[[TILE]] : i32
// CHECK-NEXT: %[[KP1:.*]] = arith.addi %[[K]], %[[C1]] : i64
// CHECK-NEXT: %[[NEXTK:.*]] = arith.select %[[LAST]], %[[C0]], %[[KP1]] : i64
// CHECK-NEXT: scf.yield %[[NEXTACC]], %[[NEXTTILE]], %[[NEXTK]], %[[NEWROW]]
// CHECK: } else {
// CHECK-NEXT: scf.for %[[I:.*]] = %[[PID]] to %[[TILES]] step %[[C132]] : i32 {
// CHECK-NEXT: %[[R2:.*]] = arith.muli %[[I]], %[[C132]] : i32
// CHECK-NEXT: %[[P2:.*]] = tt.addptr %[[OUT]], %[[R2]]
// CHECK-NEXT: %[[PS2:.*]] = tt.splat %[[P2]]
// CHECK-NEXT: tt.store %[[PS2]], %[[ZERO]]
// CHECK-NOT: tt.flatten
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @persistent(%out: !tt.ptr<f32>, %tiles: i32, %k_tiles: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #blocked>
    %one = arith.constant dense<1.0> : tensor<32x32xf32, #blocked>
    %pid = tt.get_program_id x : i32
    scf.for %tile = %pid to %tiles step %c132 : i32 {
      %row = arith.muli %tile, %c132 : i32
      %acc = scf.for %k = %c0 to %k_tiles step %c1 iter_args(%a = %zero) -> (tensor<32x32xf32, #blocked>) : i32 {
        %next = arith.addf %a, %one : tensor<32x32xf32, #blocked>
        scf.yield %next : tensor<32x32xf32, #blocked>
      }
      %p = tt.addptr %out, %row : !tt.ptr<f32>, i32
      %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #blocked>
      tt.store %ps, %acc : tensor<32x32x!tt.ptr<f32>, #blocked>
    } {tt.flatten}
    tt.return
  }
}

// -----

// The outer loop's own values pass through the epilogue's scf.if. A nested
// loop that always iterates (4 times) needs no second version: when the
// outer loop does not iterate, its inits are the results.
// CHECK-LABEL: tt.func @carried
// CHECK: %[[C0:.*]] = arith.constant 0 : i32
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK: %[[F:.*]]:5 = scf.for unsigned {{.*}} iter_args(%[[COUNT:.*]] = %[[C0]], %[[S:.*]] = %[[BASE0:.*]], %[[I:.*]] = %[[C0]], %[[K:.*]] = %{{.*}}, %[[BASE:.*]] = %[[BASE0]]) -> (i32, i32, i32, i64, i32)
// CHECK: %[[NB:.*]] = scf.if
// CHECK: %[[SIN:.*]] = arith.select %{{.*}}, %[[NB]], %[[S]] : i32
// CHECK: %[[KN:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK: %[[T:.*]] = arith.addi %[[SIN]], %[[KN]] : i32
// CHECK: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[K]], %[[C3]] : i64
// CHECK: %[[NEXT:.*]] = scf.if %[[LAST]] -> (i32) {
// CHECK: tt.store
// CHECK: %[[SUM:.*]] = arith.addi %[[COUNT]], %[[T]] : i32
// CHECK: scf.yield %[[SUM]] : i32
// CHECK: } else {
// CHECK: scf.yield %[[COUNT]] : i32
// CHECK: scf.yield %[[NEXT]], %[[T]], %{{.*}}, %{{.*}}, %[[NB]]
// CHECK: scf.yield %[[F]]#0 : i32
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[C0]] : i32
// CHECK: tt.return %[[R]] : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried(%out: !tt.ptr<f32>, %n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%count = %c0) -> (i32) : i32 {
      %base = arith.muli %i, %c4 : i32
      %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %base) -> (i32) : i32 {
        %t = arith.addi %s, %k : i32
        scf.yield %t : i32
      }
      %p = tt.addptr %out, %i : !tt.ptr<f32>, i32
      %f = arith.sitofp %sum : i32 to f32
      tt.store %p, %f : !tt.ptr<f32>
      %next = arith.addi %count, %sum : i32
      scf.yield %next : i32
    } {tt.flatten}
    tt.return %r : i32
  }
}

// -----

// Left alone: a prolog with memory effects, nested bounds that change with
// the outer loop, two nested loops, 64-bit induction variables, and a nest
// without tt.flatten.
// CHECK-LABEL: tt.func @not_fused
// CHECK-NOT: scf.if
// CHECK-NOT: unsigned
// CHECK: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_fused(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>, %n: i32, %m: i64) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c0_64 = arith.constant 0 : i64
    %c1_64 = arith.constant 1 : i64
    // A load before the nested loop.
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %in : !tt.ptr<i32>
      scf.for %k = %c0 to %v step %c1 : i32 {
        tt.store %out, %k : !tt.ptr<i32>
      }
    } {tt.flatten}
    // Nested bounds that change with the outer loop.
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %k = %c0 to %i step %c1 : i32 {
        tt.store %out, %k : !tt.ptr<i32>
      }
    } {tt.flatten}
    // Two nested loops.
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        tt.store %out, %k : !tt.ptr<i32>
      }
      scf.for %k = %c0 to %n step %c1 : i32 {
        tt.store %out, %k : !tt.ptr<i32>
      }
    } {tt.flatten}
    // 64-bit induction variables.
    scf.for %i = %c0_64 to %m step %c1_64 : i64 {
      scf.for %k = %c0_64 to %m step %c1_64 : i64 {
        %t = arith.trunci %k : i64 to i32
        tt.store %out, %t : !tt.ptr<i32>
      }
    } {tt.flatten}
    // Not asked for.
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        tt.store %out, %k : !tt.ptr<i32>
      }
    }
    tt.return
  }
}

// -----

// Index induction variables are left alone; a nest whose results nothing
// reads is fused like any other (and nothing it leaves is erased twice).
// CHECK-LABEL: tt.func @index_and_unused
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: } {tt.flatten}
// CHECK: scf.if
// CHECK: scf.for unsigned
// CHECK: tt.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @index_and_unused(%n: index, %m: i32, %out: !tt.ptr<i32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.for %k = %c0 to %n step %c1 {
        %t = arith.index_cast %k : index to i32
        tt.store %out, %t : !tt.ptr<i32>
      }
    } {tt.flatten}
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %r = scf.for %i = %z to %m step %one iter_args(%s = %z) -> (i32) : i32 {
      %inner = scf.for %k = %z to %m step %one iter_args(%t = %s) -> (i32) : i32 {
        %u = arith.addi %t, %k : i32
        scf.yield %u : i32
      }
      scf.yield %inner : i32
    } {tt.flatten}
    tt.return
  }
}
