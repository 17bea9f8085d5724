// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm -split-input-file %s | FileCheck %s --implicit-check-not=unrealized_conversion_cast

// Every rmw kind, spelled as Triton 3.6 spells it in inline PTX: space,
// scope, semantics, op, type. 128 elements over 128 threads: no copies and
// no mask, so no predicate. Floats travel in integer registers.
// CHECK-LABEL: llvm.func @kinds(
// CHECK-NOT: nvvm.barrier0
// CHECK: "atom.global.cta.relaxed.and.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acquire.or.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.sys.release.xor.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acq_rel.max.s32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acq_rel.min.s32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acq_rel.max.u32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acq_rel.min.u32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
// CHECK: "atom.global.gpu.relaxed.add.u64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: "atom.global.cta.acquire.max.s64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: "atom.global.sys.relaxed.min.u64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: %[[F:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "atom.global.gpu.acq_rel.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r" %{{.*}}, %[[F]]
// CHECK: llvm.bitcast %[[OLD]] : i32 to f32
// CHECK: "atom.global.gpu.release.add.f64 $0, [ $1 + 0 ], $2;", "=l,l,l"
// CHECK: "atom.global.gpu.acq_rel.exch.b32 $0, [ $1 + 0 ], $2;", "=r,l,r"
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kinds(%p: tensor<128x!tt.ptr<i32>, #b1>, %q: tensor<128x!tt.ptr<i64>, #b1>, %f: tensor<128x!tt.ptr<f32>, #b1>, %d: tensor<128x!tt.ptr<f64>, #b1>, %v: tensor<128xi32, #b1>, %w: tensor<128xi64, #b1>, %x: tensor<128xf32, #b1>, %y: tensor<128xf64, #b1>) {
    %0 = tt.atomic_rmw and, relaxed, cta, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %1 = tt.atomic_rmw or, acquire, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %2 = tt.atomic_rmw xor, release, sys, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %3 = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %4 = tt.atomic_rmw max, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %5 = tt.atomic_rmw min, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %6 = tt.atomic_rmw umax, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %7 = tt.atomic_rmw umin, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %8 = tt.atomic_rmw exch, acq_rel, gpu, %p, %v : (tensor<128x!tt.ptr<i32>, #b1>, tensor<128xi32, #b1>) -> tensor<128xi32, #b1>
    %9 = tt.atomic_rmw add, relaxed, gpu, %q, %w : (tensor<128x!tt.ptr<i64>, #b1>, tensor<128xi64, #b1>) -> tensor<128xi64, #b1>
    %10 = tt.atomic_rmw max, acquire, cta, %q, %w : (tensor<128x!tt.ptr<i64>, #b1>, tensor<128xi64, #b1>) -> tensor<128xi64, #b1>
    %11 = tt.atomic_rmw umin, relaxed, sys, %q, %w : (tensor<128x!tt.ptr<i64>, #b1>, tensor<128xi64, #b1>) -> tensor<128xi64, #b1>
    %12 = tt.atomic_rmw fadd, acq_rel, gpu, %f, %x : (tensor<128x!tt.ptr<f32>, #b1>, tensor<128xf32, #b1>) -> tensor<128xf32, #b1>
    %13 = tt.atomic_rmw fadd, release, gpu, %d, %y : (tensor<128x!tt.ptr<f64>, #b1>, tensor<128xf64, #b1>) -> tensor<128xf64, #b1>
    %14 = tt.atomic_rmw exch, acq_rel, gpu, %f, %x : (tensor<128x!tt.ptr<f32>, #b1>, tensor<128xf32, #b1>) -> tensor<128xf32, #b1>
    tt.return
  }
}

// -----

// sm_90's vector atom (fadd of f32, f16, bf16; at most 16 bytes) where the
// axis info proves 4 (8) consecutive, aligned elements per thread, as
// Triton vectorises it; other kinds stay scalar.
// CHECK-LABEL: llvm.func @vector90(
// CHECK-COUNT-1: "atom.global.gpu.relaxed.add.v4.f32 { $0, $1, $2, $3 }, [ $4 + 0 ], { $5, $6, $7, $8 };", "=r,=r,=r,=r,l,r,r,r,r"
// CHECK-COUNT-1: "atom.global.gpu.acq_rel.add.noftz.v8.f16 { $0, $1, $2, $3, $4, $5, $6, $7 }, [ $8 + 0 ], { $9, $10, $11, $12, $13, $14, $15, $16 };", "=h,=h,=h,=h,=h,=h,=h,=h,l,h,h,h,h,h,h,h,h"
// CHECK-COUNT-1: "atom.global.gpu.acq_rel.add.noftz.v8.bf16 {
// CHECK-COUNT-4: "atom.global.gpu.relaxed.exch.b32 $0, [ $1 + 0 ], $2;"
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @vector90(%f: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %h: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bf: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %x: tensor<512xf32, #b4>, %y: tensor<1024xf16, #b8>, %z: tensor<1024xbf16, #b8>) {
    %r4 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b4>
    %fs = tt.splat %f : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b4>
    %fp = tt.addptr %fs, %r4 : tensor<512x!tt.ptr<f32>, #b4>, tensor<512xi32, #b4>
    %0 = tt.atomic_rmw fadd, relaxed, gpu, %fp, %x : (tensor<512x!tt.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> tensor<512xf32, #b4>
    %r8 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b8>
    %hs = tt.splat %h : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b8>
    %hp = tt.addptr %hs, %r8 : tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xi32, #b8>
    %1 = tt.atomic_rmw fadd, acq_rel, gpu, %hp, %y : (tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xf16, #b8>) -> tensor<1024xf16, #b8>
    %bs = tt.splat %bf : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #b8>
    %bp = tt.addptr %bs, %r8 : tensor<1024x!tt.ptr<bf16>, #b8>, tensor<1024xi32, #b8>
    %2 = tt.atomic_rmw fadd, acq_rel, gpu, %bp, %z : (tensor<1024x!tt.ptr<bf16>, #b8>, tensor<1024xbf16, #b8>) -> tensor<1024xbf16, #b8>
    %3 = tt.atomic_rmw exch, relaxed, gpu, %fp, %x : (tensor<512x!tt.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> tensor<512xf32, #b4>
    tt.return
  }
}

// -----

// Below sm_90 an f16 pair goes as one f16x2 (packed into an i32), as Triton
// packs it; f32 stays scalar.
// CHECK-LABEL: llvm.func @packed80(
// CHECK-COUNT-4: "atom.global.gpu.relaxed.add.f32 $0, [ $1 + 0 ], $2;"
// CHECK: llvm.insertelement %{{.*}} : vector<2xf16>
// CHECK: %[[PAIR:.*]] = llvm.insertelement %{{.*}} : vector<2xf16>
// CHECK-NEXT: %[[BITS:.*]] = llvm.bitcast %[[PAIR]] : vector<2xf16> to i32
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "atom.global.gpu.acq_rel.add.noftz.f16x2 $0, [ $1 + 0 ], $2;", "=r,l,r" %{{.*}}, %[[BITS]]
// CHECK: llvm.bitcast %[[OLD]] : i32 to vector<2xf16>
// CHECK-COUNT-3: atom.global.gpu.acq_rel.add.noftz.f16x2
// CHECK-NOT: atom.global
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b8 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @packed80(%f: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %h: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %x: tensor<512xf32, #b4>, %y: tensor<1024xf16, #b8>) {
    %r4 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b4>
    %fs = tt.splat %f : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #b4>
    %fp = tt.addptr %fs, %r4 : tensor<512x!tt.ptr<f32>, #b4>, tensor<512xi32, #b4>
    %0 = tt.atomic_rmw fadd, relaxed, gpu, %fp, %x : (tensor<512x!tt.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> tensor<512xf32, #b4>
    %r8 = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b8>
    %hs = tt.splat %h : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b8>
    %hp = tt.addptr %hs, %r8 : tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xi32, #b8>
    %1 = tt.atomic_rmw fadd, acq_rel, gpu, %hp, %y : (tensor<1024x!tt.ptr<f16>, #b8>, tensor<1024xf16, #b8>) -> tensor<1024xf16, #b8>
    tt.return
  }
}

// -----

// A masked atomic: each element's mask predicates its instruction; the
// result starts at 0 so a masked-off element reads 0 (as in Triton).
// CHECK-LABEL: llvm.func @masked(
// CHECK: %[[M:.*]] = llvm.extractvalue %arg2[0] : !llvm.struct<(i1, i1)>
// CHECK: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[M]]
// CHECK: "mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
// CHECK-NOT: atom.global
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @masked(%p: tensor<256x!tt.ptr<i32>, #b2>, %v: tensor<256xi32, #b2>, %m: tensor<256xi1, #b2>) {
    %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (tensor<256x!tt.ptr<i32>, #b2>, tensor<256xi32, #b2>, tensor<256xi1, #b2>) -> tensor<256xi32, #b2>
    tt.return
  }
}

// -----

// 64 elements over 128 threads: the layout's warp basis 1 is 0 (its free
// variable mask), so warps 2 and 3 hold copies of warps 0 and 1. Without a
// predicate every element would be added twice (a histogram would count
// double): the atomic runs only where warp & 2 == 0 (and the mask holds).
// The result is used, so the doers write it to scratch shared memory (one
// slot per element, 256 bytes at the op's offset), a barrier, and every
// holder reads its element back.
// CHECK: ttg.shared = 256
// CHECK-LABEL: llvm.func @warp_copies(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[WARP:.*]] = llvm.udiv %[[TID]], %{{.*}}
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: %[[BITS:.*]] = llvm.and %[[WARP]], %[[TWO]]
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[BITS]], %{{.*}}
// CHECK: %[[PRED:.*]] = llvm.and %[[FIRST]], %{{.*}} : i1
// CHECK: %[[OLD:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.acq_rel.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[PRED]]
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK: llvm.cond_br %[[FIRST]], ^[[WRITE:.*]], ^[[JOIN:.*]]
// CHECK: ^[[WRITE]]:
// CHECK-NEXT: llvm.store %[[OLD]], %[[SLOT]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
// CHECK: ^[[JOIN]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[BACK:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK: llvm.insertvalue %[[BACK]]
// CHECK: st.global.b32
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @warp_copies(%p: tensor<64x!tt.ptr<i32>, #b1>, %v: tensor<64xi32, #b1>, %m: tensor<64xi1, #b1>, %out: tensor<64x!tt.ptr<i32>, #b1>) {
    %0 = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (tensor<64x!tt.ptr<i32>, #b1>, tensor<64xi32, #b1>, tensor<64xi1, #b1>) -> tensor<64xi32, #b1>
    tt.store %out, %0 : tensor<64x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// Copies within a thread: registers 1 of a layout whose register basis 0 is
// 0 hold the same element as register 0, so only register 0 does the
// atomic and register 1 takes its old value. The lane basis 4 is 0 too:
// lanes 16..31 copy lanes 0..15, so those are predicated off, and with the
// result unused nothing is exchanged (no scratch, no barrier).
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @register_copies(
// CHECK: %[[LANE:.*]] = llvm.urem
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i32)
// CHECK: %[[BITS:.*]] = llvm.and %[[LANE]], %[[SIXTEEN]]
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[BITS]], %{{.*}}
// CHECK: %[[OLD:.*]] = llvm.inline_asm {{.*}}@$3 atom.global.gpu.relaxed.xor.b32 {{.*}} %[[FIRST]]
// CHECK-NOT: llvm.inline_asm
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue %[[OLD]], %{{.*}}[0]
// CHECK: llvm.insertvalue %[[OLD]], %{{.*}}[1]
#copies = #ttg.linear<{register = [[0]], lane = [[1], [2], [4], [8], [0]], warp = [[16], [32]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @register_copies(%p: tensor<64x!tt.ptr<i32>, #copies>, %v: tensor<64xi32, #copies>, %out: tensor<64x!tt.ptr<i32>, #copies>) {
    %0 = tt.atomic_rmw xor, relaxed, gpu, %p, %v : (tensor<64x!tt.ptr<i32>, #copies>, tensor<64xi32, #copies>) -> tensor<64xi32, #copies>
    tt.return
  }
}

// -----

// Copies only in lanes whose bases are 0 (lane bit 4): the old value of a
// used result comes from lane & ~16 by one shfl.idx per register, no
// shared memory. Compare-and-swap: semantics before scope (Triton's order).
// CHECK: ttg.shared = 0
// CHECK-LABEL: llvm.func @lane_copies(
// CHECK: %[[LANE:.*]] = llvm.urem
// CHECK: llvm.and %[[LANE]], %{{.*}}
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq"
// CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects "mov.u32 $0, 0x0;\0A\09@$4 atom.global.acq_rel.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]]
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(-17 : i32)
// CHECK: %[[SRC:.*]] = llvm.and %{{.*}}, %[[MASK]]
// CHECK: %[[GOT:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[OLD]], %[[SRC]], %{{.*}} : i32 -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.insertvalue %[[GOT]]
// CHECK: st.global.b32
#lanes = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [0]], warp = [[16], [32]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @lane_copies(%p: tensor<64x!tt.ptr<i32>, #lanes>, %c: tensor<64xi32, #lanes>, %v: tensor<64xi32, #lanes>, %out: tensor<64x!tt.ptr<i32>, #lanes>) {
    %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (tensor<64x!tt.ptr<i32>, #lanes>, tensor<64xi32, #lanes>, tensor<64xi32, #lanes>) -> tensor<64xi32, #lanes>
    tt.store %out, %0 : tensor<64x!tt.ptr<i32>, #lanes>
    tt.return
  }
}

// -----

// Scalar atomics: thread 0 does them (with the mask). A used result goes
// through 4 bytes of scratch: thread 0 stores, a barrier, all threads
// load; an unused one takes no scratch and no barrier.
// CHECK: ttg.shared = 4
// CHECK-LABEL: llvm.func @scalar(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[T0:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}}
// CHECK: %[[PRED:.*]] = llvm.and %[[T0]], %arg2 : i1
// CHECK: %[[OLD:.*]] = llvm.inline_asm {{.*}}"mov.u32 $0, 0x0;\0A\09@$3 atom.global.gpu.relaxed.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %arg0, %{{.*}}, %[[PRED]]
// CHECK: %[[F:.*]] = llvm.bitcast %[[OLD]] : i32 to f32
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem
// CHECK: llvm.cond_br %[[T0]], ^[[WRITE:.*]], ^[[JOIN:.*]]
// CHECK: ^[[WRITE]]:
// CHECK-NEXT: llvm.store %[[F]], %[[SMEM]] {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: ^[[JOIN]]:
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[BACK:.*]] = llvm.load %[[SMEM]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: %[[BITS:.*]] = llvm.bitcast %[[BACK]] : f32 to i32
// CHECK: "{\0A\09@$2 st.global.b32 [$0], {$1};\0A\09}", "l,r,b" %arg3, %[[BITS]]
// CHECK: "mov.u64 $0, 0x0;\0A\09@$4 atom.global.acquire.cta.cas.b64 $0, [ $1 + 0 ], $2, $3;", "=l,l,l,l,b"
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @scalar(%p: !tt.ptr<f32>, %v: f32, %m: i1, %out: !tt.ptr<f32>, %q: !tt.ptr<i64>, %w: i64) {
    %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %v, %m : (!tt.ptr<f32>, f32, i1) -> f32
    tt.store %out, %0 : !tt.ptr<f32>
    %1 = tt.atomic_cas acquire, cta, %q, %w, %w : (!tt.ptr<i64>, i64, i64) -> i64
    tt.return
  }
}
