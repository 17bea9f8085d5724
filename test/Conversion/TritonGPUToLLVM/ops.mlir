// RUN: kiln-opt --llir-convert-to-llvm -split-input-file %s | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// saxpy: masked 8-byte vectors (2 registers of consecutive f32 per thread),
// each one predicated instruction, no branch; the masked-off lanes of the
// first load read `other` (its two words moved into the result registers
// before the predicated load), of the second zero.
// CHECK-LABEL: llvm.func @saxpy(
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: f32, %{{.*}}: i32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME: nvvm.reqntid = array<i32: 128>
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.inline_asm has_side_effects "{\0A\09mov.b32 $0, $4;\0A\09mov.b32 $1, $5;\0A\09@$3 ld.global.v2.b32 {$0, $1}, [$2];\0A\09}", "=r,=r,l,b,r,r"
// CHECK: llvm.inline_asm has_side_effects "{\0A\09mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09@$3 ld.global.v2.b32 {$0, $1}, [$2];\0A\09}", "=r,=r,l,b"
// CHECK: llvm.fmul
// CHECK: llvm.fmul
// CHECK: llvm.fadd
// CHECK: llvm.fadd
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.inline_asm has_side_effects "{\0A\09@$3 st.global.v2.b32 [$0], {$1, $2};\0A\09}", "l,r,r,b"
#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @saxpy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %a: f32, %n: i32 {tt.divisibility = 16 : i32}) {
    %c256 = arith.constant 256 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c256 : i32
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %base = tt.splat %start : i32 -> tensor<256xi32, #blocked>
    %offs = arith.addi %base, %range : tensor<256xi32, #blocked>
    %bound = tt.splat %n : i32 -> tensor<256xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %bound : tensor<256xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %xv = tt.load %xp, %mask, %zero : tensor<256x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %offs : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
    %yv = tt.load %yp, %mask : tensor<256x!tt.ptr<f32>, #blocked>
    %as = tt.splat %a : f32 -> tensor<256xf32, #blocked>
    %ax = arith.mulf %as, %xv : tensor<256xf32, #blocked>
    %r = arith.addf %ax, %yv : tensor<256xf32, #blocked>
    tt.store %yp, %r, %mask : tensor<256x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// Without tt.divisibility the pointers may be unaligned: one f32 at a time.
// Each thread holds elements lane + 32 * warp and that plus 64: lane bits
// 0..4 select 1..16, the warp bit 32, register 1 adds 64.
// CHECK-LABEL: llvm.func @unaligned(
// CHECK-SAME: nvvm.reqntid = array<i32: 64>
// CHECK:   %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:   %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK:   %[[LANE:.*]] = llvm.urem %[[TID]], %[[C32]] : i32
// CHECK:   %[[WARP:.*]] = llvm.udiv %[[TID]], %[[C32]] : i32
// CHECK:   llvm.and %[[LANE]], %{{.*}} : i32
// CHECK:   llvm.mlir.constant(16 : i32) : i32
// CHECK:   llvm.and %[[WARP]], %{{.*}} : i32
// CHECK:   %[[C:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK:   %[[THREAD:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
// CHECK:   %[[R0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:   llvm.xor %[[THREAD]], %[[R0]] : i32
// CHECK:   %[[R1:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK:   llvm.xor %[[THREAD]], %[[R1]] : i32
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NOT: llvm.load
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 2 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @unaligned(%x: !tt.ptr<f32>) {
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %range : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %v = tt.load %xp : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %xp, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A 2-D tile through expand_dims and broadcast: each thread's 4 registers
// are 4 consecutive columns of one row, one 16-byte access.
// CHECK-LABEL: llvm.func @tile(
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.load
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT: llvm.store
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @tile(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c16 = arith.constant dense<16> : tensor<32x1xi32, #blocked>
    %rows = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %rs = arith.muli %r2, %c16 : tensor<32x1xi32, #blocked>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x16xi32, #blocked>
    %rb = tt.broadcast %rs : tensor<32x1xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %cb = tt.broadcast %c2 : tensor<1x16xi32, #blocked> -> tensor<32x16xi32, #blocked>
    %offs = arith.addi %rb, %cb : tensor<32x16xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x16x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %offs : tensor<32x16x!tt.ptr<f32>, #blocked>, tensor<32x16xi32, #blocked>
    %v = tt.load %pp : tensor<32x16x!tt.ptr<f32>, #blocked>
    %w = arith.addf %v, %v : tensor<32x16xf32, #blocked>
    tt.store %pp, %w : tensor<32x16x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// scf.for carries the struct of registers; i1 lives in memory as i8.
// CHECK-LABEL: llvm.func @loop(
// CHECK:   nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK:   llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32)>)
// CHECK: ^[[HEAD]](%{{.*}}: i32, %{{.*}}: !llvm.struct<(f32)>):
// CHECK:   llvm.cond_br %{{.*}}, ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK: ^[[BODY]]:
// CHECK:   llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:   llvm.fadd
// CHECK:   llvm.br ^[[HEAD]]
// CHECK: ^[[EXIT]]:
// CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK:   llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
// CHECK:   %[[B:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK:   llvm.trunc %[[B]] : i8 to i1
// CHECK:   llvm.xor %{{.*}}, %{{.*}} : i1
// CHECK:   %[[W:.*]] = llvm.zext %{{.*}} : i1 to i8
// CHECK:   llvm.store %[[W]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @loop(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %q: !tt.ptr<i1>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<32xf32, #blocked>
    %np = tt.get_num_programs y : i32
    %range = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked>
    %pp = tt.addptr %ps, %range : tensor<32x!tt.ptr<f32>, #blocked>, tensor<32xi32, #blocked>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32xf32, #blocked>) : i32 {
      %v = tt.load %pp : tensor<32x!tt.ptr<f32>, #blocked>
      %a = arith.addf %acc, %v : tensor<32xf32, #blocked>
      scf.yield %a : tensor<32xf32, #blocked>
    }
    tt.store %pp, %sum : tensor<32x!tt.ptr<f32>, #blocked>
    %qs = tt.splat %q : !tt.ptr<i1> -> tensor<32x!tt.ptr<i1>, #blocked>
    %qp = tt.addptr %qs, %range : tensor<32x!tt.ptr<i1>, #blocked>, tensor<32xi32, #blocked>
    %b = tt.load %qp : tensor<32x!tt.ptr<i1>, #blocked>
    %true = arith.constant dense<true> : tensor<32xi1, #blocked>
    %nb = arith.xori %b, %true : tensor<32xi1, #blocked>
    tt.store %qp, %nb : tensor<32x!tt.ptr<i1>, #blocked>
    tt.return
  }
}

// -----

// arith.select of tensors on a scalar condition (Triton's `other` chosen by
// a kernel argument): the one i1 picks in every register.
// CHECK-LABEL: llvm.func @select_on_scalar(
// CHECK-SAME: %[[C:[^:]*]]: i1
// CHECK-COUNT-2: llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, f16
// CHECK-NOT: llvm.select
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @select_on_scalar(%c: i1, %a: tensor<256xf16, #blocked>, %b: tensor<256xf16, #blocked>, %p: tensor<256x!tt.ptr<f16>, #blocked>) {
    %s = arith.select %c, %a, %b : tensor<256xf16, #blocked>
    tt.store %p, %s : tensor<256x!tt.ptr<f16>, #blocked>
    tt.return
  }
}

// -----

// tt.map_elementwise: the scalar region inlined once per `pack` consecutive
// registers (4 registers a thread, pack 2: twice), its arguments each
// operand's pair in order, its results the result's pair.
// CHECK-LABEL: llvm.func @map_elementwise(
// CHECK: %[[X0:.*]] = llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK: %[[Y0:.*]] = llvm.fsub %{{.*}}, %{{.*}} : f32
// CHECK: %[[X1:.*]] = llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK: %[[Y1:.*]] = llvm.fsub %{{.*}}, %{{.*}} : f32
// CHECK: llvm.insertvalue %[[X0]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[Y0]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[X1]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[Y1]], %{{.*}}[3]
// CHECK-NOT: tt.map_elementwise
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @map_elementwise(%a: tensor<128xf32, #blocked>, %b: tensor<128xf32, #blocked>, %p: tensor<128x!tt.ptr<f32>, #blocked>) {
    %r = "tt.map_elementwise"(%a, %b) <{pack = 2 : i32}> ({
    ^bb0(%a0: f32, %a1: f32, %b0: f32, %b1: f32):
      %x = arith.mulf %a0, %b1 : f32
      %y = arith.subf %a1, %b0 : f32
      tt.map_elementwise.return %x, %y : f32, f32
    }) : (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.store %p, %r : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// ub.poison (a value no path defines, e.g. what a function returns on a
// path without a return value): LLVM's poison, in every register of a
// tensor, as Triton lowers it. What a store of it leaves in memory is
// undefined too: LLVM may drop the store.
// CHECK-LABEL: llvm.func @poison(
// CHECK-DAG: %[[S:.*]] = llvm.mlir.poison : i32
// CHECK-DAG: %[[T:.*]] = llvm.mlir.poison : f32
// CHECK: llvm.insertvalue %[[T]]
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 1 : i32, ttg.target = "cuda:90"} {
  tt.func public @poison(%p: !tt.ptr<i32>, %q: !tt.ptr<f32>) {
    %s = ub.poison : i32
    tt.store %p, %s : !tt.ptr<i32>
    %t = ub.poison : tensor<256xf32, #b>
    %offs = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %base = tt.splat %q : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #b>
    %ptrs = tt.addptr %base, %offs : tensor<256x!tt.ptr<f32>, #b>, tensor<256xi32, #b>
    tt.store %ptrs, %t : tensor<256x!tt.ptr<f32>, #b>
    tt.return
  }
}
