// hwx.infer-buffer-layouts: a buffer whose swizzle hwx chose (marked
// hwx.inferred_layout) takes the one its TMA copies need, and its views
// follow it: indexed, sliced, carried by a loop, captured by a task. A
// buffer given its swizzle keeps it; copies that disagree are an error at
// the allocation.
// RUN: kiln-opt --plugin %kiln_plugins/libhwx.so --hwx-infer-buffer-layouts -split-input-file -verify-diagnostics %s | FileCheck %s

// CHECK-DAG: #[[S64:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[S128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @narrow_boxes
// CHECK: %[[BUFS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x128xf16, #[[S64]], #smem, mutable>
// CHECK-NOT: hwx.inferred_layout
// CHECK: %[[GIVEN:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #[[S128]], #smem, mutable>
// CHECK: ttg.memdesc_index %[[BUFS]]{{.*}} -> !ttg.memdesc<64x128xf16, #[[S64]], #smem, mutable>
// CHECK: scf.for {{.*}} -> (!ttg.memdesc<64x128xf16, #[[S64]], #smem, mutable>)
// CHECK: ttg.memdesc_subslice {{.*}} -> !ttg.memdesc<64x32xf16, #[[S64]], #smem, mutable, 64x128>
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: ttg.warp_specialize
// CHECK: partition0(%{{.*}}: !ttg.memdesc<64x128xf16, #[[S64]], #smem, mutable>) num_warps(1)
// CHECK: ttg.local_load %{{.*}} : !ttg.memdesc<64x128xf16, #[[S64]], #smem, mutable>
#s128 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module {
  tt.func public @narrow_boxes(%d: !tt.tensordesc<tensor<64x32xf16>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %bufs = ttg.local_alloc {hwx.inferred_layout} : () -> !ttg.memdesc<2x64x128xf16, #s128, #smem, mutable>
    %given = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %first = ttg.memdesc_index %bufs[%c0] : !ttg.memdesc<2x64x128xf16, #s128, #smem, mutable> -> !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %first) -> (!ttg.memdesc<64x128xf16, #s128, #smem, mutable>) : i32 {
      %part = ttg.memdesc_subslice %cur[0, 32] : !ttg.memdesc<64x128xf16, #s128, #smem, mutable> -> !ttg.memdesc<64x32xf16, #s128, #smem, mutable, 64x128>
      ttng.async_tma_copy_global_to_local %d[%c0, %c0] %part, %bar, %true : !tt.tensordesc<tensor<64x32xf16>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x32xf16, #s128, #smem, mutable, 64x128>
      scf.yield %cur : !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    }
    ttg.warp_specialize(%last)
    default {
      ttg.warp_yield
    }
    partition0(%b: !ttg.memdesc<64x128xf16, #s128, #smem, mutable>) num_warps(1) {
      %v = ttg.local_load %b : !ttg.memdesc<64x128xf16, #s128, #smem, mutable> -> tensor<64x128xf16>
      ttg.warp_return
    } : (!ttg.memdesc<64x128xf16, #s128, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

#s128 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module {
  tt.func public @disagree(%wide: !tt.tensordesc<tensor<64x64xf16>>, %narrow: !tt.tensordesc<tensor<64x32xf16>>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    // expected-error @+1 {{hwx.alloc: the buffer's TMA copies need different swizzles (128 and 64 bytes)}}
    %buf = ttg.local_alloc {hwx.inferred_layout} : () -> !ttg.memdesc<64x64xf16, #s128, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // expected-note @+1 {{this copy needs 128 bytes}}
    ttng.async_tma_copy_global_to_local %wide[%c0, %c0] %buf, %bar, %true : !tt.tensordesc<tensor<64x64xf16>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #s128, #smem, mutable>
    %part = ttg.memdesc_subslice %buf[0, 32] : !ttg.memdesc<64x64xf16, #s128, #smem, mutable> -> !ttg.memdesc<64x32xf16, #s128, #smem, mutable, 64x64>
    // expected-note @+1 {{this copy needs 64 bytes}}
    ttng.async_tma_copy_global_to_local %narrow[%c0, %c0] %part, %bar, %true : !tt.tensordesc<tensor<64x32xf16>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x32xf16, #s128, #smem, mutable, 64x64>
    tt.return
  }
}

// -----

// A buffer a branch joins with one given its swizzle keeps its type (the
// join must agree), though its own copy would want 64 bytes.
// CHECK: #[[J:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128
// CHECK-NOT: swizzlingByteWidth = 64
// CHECK-LABEL: tt.func public @joined
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #[[J]], #smem, mutable>
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #[[J]], #smem, mutable>
// CHECK: scf.if {{.*}} -> (!ttg.memdesc<64x128xf16, #[[J]], #smem, mutable>)
#s128 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module {
  tt.func public @joined(%d: !tt.tensordesc<tensor<64x32xf16>>, %c: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %mine = ttg.local_alloc {hwx.inferred_layout} : () -> !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    %given = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %part = ttg.memdesc_subslice %mine[0, 32] : !ttg.memdesc<64x128xf16, #s128, #smem, mutable> -> !ttg.memdesc<64x32xf16, #s128, #smem, mutable, 64x128>
    ttng.async_tma_copy_global_to_local %d[%c0, %c0] %part, %bar, %true : !tt.tensordesc<tensor<64x32xf16>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x32xf16, #s128, #smem, mutable, 64x128>
    %either = scf.if %c -> (!ttg.memdesc<64x128xf16, #s128, #smem, mutable>) {
      scf.yield %mine : !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    } else {
      scf.yield %given : !ttg.memdesc<64x128xf16, #s128, #smem, mutable>
    }
    %v = ttg.local_load %either : !ttg.memdesc<64x128xf16, #s128, #smem, mutable> -> tensor<64x128xf16>
    tt.return
  }
}
