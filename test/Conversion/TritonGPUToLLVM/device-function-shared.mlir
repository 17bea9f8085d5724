// RUN: kiln-opt %s --llir-allocate-shared-memory | FileCheck %s --check-prefix=ALLOC
// RUN: kiln-opt %s --llir-allocate-shared-memory --llir-insert-barriers --llir-convert-to-llvm | FileCheck %s

// A device function (noinline) whose layout conversion needs scratch: its
// buffers are sized first (allocation.function_bytes) and its call holds
// them in the caller's shared memory, beside the kernel's buffer that is
// live across the call; the call passes that part of shared memory, which
// the function's scratch is addressed from.

// ALLOC-LABEL: tt.func public @kernel
// ALLOC: ttg.local_alloc %{{.*}} {allocation.offset = 0 : i32}
// ALLOC: tt.call @convert_rows{{.*}}allocation.offset = 4096 : i32
// ALLOC: tt.func private @convert_rows({{.*}}) -> {{.*}} attributes {allocation.function_bytes = 4096 : i64
// ALLOC: ttg.convert_layout %{{.*}} {allocation.offset = 0 : i32}

// CHECK: llvm.func @kernel(
// CHECK: %[[PART:.*]] = llvm.getelementptr %{{.*}}[4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.call @convert_rows(%{{.*}}, %[[PART]], %{{.*}}, %{{.*}}) : (!llvm.struct<{{.*}}>, !llvm.ptr<3>, !llvm.ptr<1>, !llvm.ptr<1>) -> !llvm.struct
// CHECK: llvm.func internal @convert_rows(%{{.*}}: !llvm.struct<{{.*}}>, %[[OWN:.*]]: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>)
// CHECK-NOT: llvm.mlir.addressof @global_smem
// CHECK: llvm.getelementptr %[[OWN]][
// CHECK: llvm.return
#a = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%x: tensor<32x32xf32, #a>, %p: tensor<32x32x!tt.ptr<f32>, #b>, %q: tensor<32x32x!tt.ptr<f32>, #a>) {
    %buf = ttg.local_alloc %x : (tensor<32x32xf32, #a>) -> !ttg.memdesc<32x32xf32, #shared, #smem>
    %y = tt.call @convert_rows(%x) : (tensor<32x32xf32, #a>) -> tensor<32x32xf32, #b>
    tt.store %p, %y : tensor<32x32x!tt.ptr<f32>, #b>
    %z = ttg.local_load %buf : !ttg.memdesc<32x32xf32, #shared, #smem> -> tensor<32x32xf32, #a>
    tt.store %q, %z : tensor<32x32x!tt.ptr<f32>, #a>
    tt.return
  }
  tt.func private @convert_rows(%x: tensor<32x32xf32, #a>) -> tensor<32x32xf32, #b> attributes {noinline = true} {
    %y = ttg.convert_layout %x : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
    tt.return %y : tensor<32x32xf32, #b>
  }
}
