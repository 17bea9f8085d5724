// RUN: kiln-opt --llir-allocate-shared-memory --llir-insert-barriers %s | FileCheck %s

// A tensor map is built in its op's shared scratch, which may reuse the
// bytes a layout conversion just read through: a barrier between them.
// CHECK-LABEL: tt.func public @convert_then_map
// CHECK: ttg.convert_layout {{.*}}allocation.offset = 0
// CHECK-NEXT: ttg.global_scratch_alloc
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttng.tensormap_create {{.*}}allocation.offset = 0
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @convert_then_map(%x: tensor<32x32xf32, #row>, %a: !tt.ptr<f16>, %m: i32, %n: i32, %s: i64) -> tensor<32x32xf32, #col> {
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %y = ttg.convert_layout %x : tensor<32x32xf32, #row> -> tensor<32x32xf32, #col>
    %map = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %map, %a, [%c64_i32, %c64_i32], [%n, %m], [%s], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %map : !tt.ptr<i8>
    tt.return %y : tensor<32x32xf32, #col>
  }
}
