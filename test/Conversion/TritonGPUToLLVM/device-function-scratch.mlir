// RUN: kiln-opt -split-input-file %s --llir-allocate-global-scratch | FileCheck %s --check-prefix=ALLOC
// RUN: kiln-opt -split-input-file %s --llir-allocate-shared-memory --llir-allocate-global-scratch --llir-insert-barriers --llir-convert-to-llvm | FileCheck %s

// A noinline function that makes a tensor map in global scratch, called
// twice: each call holds the callee's 128 bytes at its own offset of the
// program's slice (so the two maps, returned to the kernel, stay apart),
// after the kernel's own buffer; the module needs 384 bytes per program.
// ALLOC: module attributes {ttg.global_scratch_memory_alignment = 128 : i32, ttg.global_scratch_memory_size = 384 : i32
// ALLOC: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 64 : i32, ttg.global_scratch_memory_offset = 0 : i32}
// ALLOC: tt.call @make_map{{.*}}ttg.global_scratch_memory_offset = 128 : i32
// ALLOC: tt.call @make_map{{.*}}ttg.global_scratch_memory_offset = 256 : i32
// ALLOC: tt.call @no_scratch
// ALLOC-NOT: ttg.global_scratch_memory_offset
// ALLOC: tt.func private @make_map
// ALLOC: ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32, ttg.global_scratch_memory_offset = 0 : i32}

// The kernel passes its program's slice (linear program id times 384) plus
// each call's offset; the callee's map is its pointer plus its own offset,
// with no program id of its own.
// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: %[[SCRATCH:arg[0-9]+]]: !llvm.ptr<1>, %[[PROFILE:arg[0-9]+]]: !llvm.ptr<1>)
// CHECK: llvm.mlir.constant(384 : i64)
// CHECK: llvm.getelementptr %[[SCRATCH]]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(384 : i64)
// CHECK: %[[SLICE:.*]] = llvm.mul %{{.*}}, %[[SIZE]]
// CHECK: %[[AT:.*]] = llvm.add %[[SLICE]], %{{.*}}
// CHECK: %[[PART:.*]] = llvm.getelementptr %[[SCRATCH]][%[[AT]]]
// CHECK: llvm.call @make_map(%{{.*}}, %{{.*}}, %[[PART]], %[[PROFILE]])
// CHECK: llvm.mlir.constant(256 : i64)
// CHECK: llvm.call @make_map(
// CHECK: llvm.call @no_scratch(%{{.*}}, %[[SCRATCH]], %[[PROFILE]])
// CHECK-LABEL: llvm.func internal @make_map
// CHECK-SAME: !llvm.ptr<3>, %[[OWN:arg[0-9]+]]: !llvm.ptr<1>, %{{[^:]*}}: !llvm.ptr<1>)
// CHECK-NOT: nvvm.read.ptx.sreg.ctaid
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
// CHECK: llvm.getelementptr %[[OWN]][%[[ZERO]]]
// CHECK: tensormap.replace
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%a: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64, %out: !tt.ptr<i64>) {
    %own = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 64 : i32} : !tt.ptr<i8>
    %d0 = tt.call @make_map(%a, %m, %n, %s) : (!tt.ptr<f16>, i32, i32, i64) -> !tt.tensordesc<tensor<64x64xf16, #shared>>
    %d1 = tt.call @make_map(%a, %n, %m, %s) : (!tt.ptr<f16>, i32, i32, i64) -> !tt.tensordesc<tensor<64x64xf16, #shared>>
    tt.call @no_scratch(%out) : (!tt.ptr<i64>) -> ()
    tt.return
  }
  tt.func private @make_map(%a: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) -> !tt.tensordesc<tensor<64x64xf16, #shared>> attributes {noinline = true} {
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %map = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %map, %a, [%c64_i32, %c64_i32], [%n, %m], [%s], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %map : !tt.ptr<i8>
    %d = ttng.reinterpret_tensor_descriptor %map : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    tt.return %d : !tt.tensordesc<tensor<64x64xf16, #shared>>
  }
  tt.func private @no_scratch(%out: !tt.ptr<i64>) attributes {noinline = true} {
    tt.return
  }
}
