// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Rejected forms of the cp.async, memdesc_trans and ttng ops.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @copy_shape(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{source shape [64, 64] does not match the memdesc shape [64, 32]}}
    %t = ttg.async_copy_global_to_local %p, %buf : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @trans_shape(%b: !ttg.memdesc<128x64xf16, #shared, #smem>) {
    // expected-error @+1 {{result shape must be [64, 128], got [128, 64]}}
    %t = ttg.memdesc_trans %b {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<128x64xf16, #shared, #smem>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dot_k(%a: !ttg.memdesc<64x32xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>, %c: tensor<64x128xf32, #mma>) {
    // expected-error @+1 {{K of a (32) and of b (64) differ}}
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<64x128xf32, #mma>
    tt.return
  }
}

// -----

#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @barrier_type(%bar: !ttg.memdesc<2xi32, #shared1, #smem, mutable>) {
    // expected-error @+1 {{barrier must be a memdesc of one i64}}
    ttng.init_barrier %bar, 1 : !ttg.memdesc<2xi32, #shared1, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tma_coords(%desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %x: i32, %pred: i1, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %buf: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>) {
    // expected-error @+1 {{needs 2 coordinates for the descriptor's block, got 1}}
    ttng.async_tma_copy_global_to_local %desc[%x] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tensormap_strides(%map: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32, %s: i64) {
    // expected-error @+1 {{needs 1 global_stride values (every dimension but the innermost), got 2}}
    ttng.tensormap_create %map, %base, [%d, %d], [%d, %d], [%s, %s], [%d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i64, i32, i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tensormap_rank(%map: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32, %s: i64) {
    // expected-error @+1 {{a tensor map has 1 to 5 dimensions, got 6}}
    ttng.tensormap_create %map, %base, [%d, %d, %d, %d, %d, %d], [%d, %d, %d, %d, %d, %d], [%s, %s, %s, %s, %s], [%d, %d, %d, %d, %d, %d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i64, i64, i64, i64, i64, i32, i32, i32, i32, i32, i32) -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tensormap_swizzle(%map: !tt.ptr<i8>, %base: !tt.ptr<f16>, %d: i32) {
    // expected-error @+1 {{attribute 'swizzle_mode' failed to satisfy constraint}}
    ttng.tensormap_create %map, %base, [%d], [%d], [], [%d] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 4 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32) -> ()
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @arrive_count(%bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    // expected-error @+1 {{count must be at least 1, got 0}}
    ttng.arrive_barrier %bar, 0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @arrive_every(%bar: !ttg.memdesc<1xi64, #bar, #smem, mutable>) {
    // expected-error @+1 {{'kiln.warps_per_arrival' must be a power of two from 1 to 32 (warps per arriving thread), got 3 : i32}}
    ttng.arrive_barrier %bar, 1 {kiln.warps_per_arrival = 3 : i32} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scratch_space() {
    // expected-error @+1 {{must return a pointer to global memory (address space 1), got '!tt.ptr<i8, 3>'}}
    %p = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8, 3>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scratch_align() {
    // expected-error @+1 {{alignment must be a power of two, got 96}}
    %p = ttg.global_scratch_alloc {alignment = 96 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    tt.return
  }
}

// -----

#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reinterpret_larger(%buf: !ttg.memdesc<64xf16, #flat, #smem, mutable>) {
    // expected-error @+1 {{view of 256 bytes is larger than the 128 bytes of its buffer}}
    %v = ttg.memdesc_reinterpret %buf : !ttg.memdesc<64xf16, #flat, #smem, mutable> -> !ttg.memdesc<64xi32, #flat, #smem, mutable>
    tt.return
  }
}

// -----

// From buffer 2 of 4, a view may span buffers 2 and 3, not more.
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#ring = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reinterpret_past_the_ring(%ring: !ttg.memdesc<4x8x64xf16, #ring, #smem, mutable>) {
    %c2 = arith.constant 2 : i32
    %buf = ttg.memdesc_index %ring[%c2] : !ttg.memdesc<4x8x64xf16, #ring, #smem, mutable> -> !ttg.memdesc<8x64xf16, #ring, #smem, mutable>
    %two = ttg.memdesc_reinterpret %buf : !ttg.memdesc<8x64xf16, #ring, #smem, mutable> -> !ttg.memdesc<512xi32, #flat, #smem, mutable>
    // expected-error @+1 {{view of 4096 bytes is larger than the 2048 bytes of its buffer and the buffers after it}}
    %three = ttg.memdesc_reinterpret %buf : !ttg.memdesc<8x64xf16, #ring, #smem, mutable> -> !ttg.memdesc<1024xi32, #flat, #smem, mutable>
    tt.return
  }
}

// -----

// From a buffer chosen at run time, a view may span that buffer alone: the
// buffers after it are not known to exist.
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#ring = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @reinterpret_from_a_dynamic_index(%ring: !ttg.memdesc<2x8x64xf16, #ring, #smem, mutable>, %i: i32) {
    %buf = ttg.memdesc_index %ring[%i] : !ttg.memdesc<2x8x64xf16, #ring, #smem, mutable> -> !ttg.memdesc<8x64xf16, #ring, #smem, mutable>
    %one = ttg.memdesc_reinterpret %buf : !ttg.memdesc<8x64xf16, #ring, #smem, mutable> -> !ttg.memdesc<256xi32, #flat, #smem, mutable>
    // expected-error @+1 {{view of 2048 bytes is larger than the 1024 bytes of its buffer}}
    %two = ttg.memdesc_reinterpret %buf : !ttg.memdesc<8x64xf16, #ring, #smem, mutable> -> !ttg.memdesc<512xi32, #flat, #smem, mutable>
    tt.return
  }
}

// -----

tt.func @named_barrier_id() {
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  // expected-error @+1 {{names barrier 16; the hardware has barriers 0 to 15}}
  ttng.named_barrier_wait %c16, %c64 : i32, i32
  tt.return
}

// -----

tt.func @named_barrier_threads() {
  %c3 = arith.constant 3 : i32
  %c48 = arith.constant 48 : i32
  // expected-error @+1 {{counts 48 threads; expected a positive multiple of 32 (whole warps)}}
  ttng.named_barrier_arrive %c3, %c48 : i32, i32
  tt.return
}

// -----

// A copy moves the descriptor's block or whole messages of it along the
// innermost dimension (64 f16 a message with a 128-byte swizzle): 32
// columns of a 128x256 block are neither.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @copy_part_of_message(%desc: !tt.tensordesc<tensor<128x256xf16, #shared>>, %x: i32,
                                %whole: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>,
                                %part: !ttg.memdesc<128x32xf16, #shared, #smem, mutable>) {
    ttng.async_tma_copy_local_to_global %desc[%x, %x] %whole : !tt.tensordesc<tensor<128x256xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    // expected-error @+1 {{buffer shape [128, 32] does not match the descriptor's block shape [128, 256] (nor whole TMA messages of it along the innermost dimension)}}
    ttng.async_tma_copy_local_to_global %desc[%x, %x] %part : !tt.tensordesc<tensor<128x256xf16, #shared>>, !ttg.memdesc<128x32xf16, #shared, #smem, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cluster_wait_one_cta() {
    // expected-error @+1 {{'ttng.cluster_wait' op needs a thread-block cluster (compile with num_ctas > 1)}}
    ttng.cluster_wait
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remote_wait(%bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %rank: i32, %phase: i32) {
    %remote = ttng.map_to_remote_buffer %bar, %rank : !ttg.memdesc<1xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #ttng.shared_cluster_memory, mutable>
    // expected-error @+1 {{'ttng.wait_barrier' op barrier must be in the CTA's own shared memory}}
    ttng.wait_barrier %remote, %phase : !ttg.memdesc<1xi64, #shared, #ttng.shared_cluster_memory, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @remote_of_other_shape(%bar: !ttg.memdesc<2xi64, #shared, #smem, mutable>, %rank: i32) {
    // expected-error @+1 {{'ttng.map_to_remote_buffer' op result}}
    %remote = ttng.map_to_remote_buffer %bar, %rank : !ttg.memdesc<2xi64, #shared, #smem, mutable> -> !ttg.memdesc<1xi64, #shared, #ttng.shared_cluster_memory, mutable>
    tt.return
  }
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @prefetch_coordinates(%d: !tt.tensordesc<tensor<64x64xf16, #shared>>, %i: i32, %p: i1) {
  // expected-error @+1 {{'ttng.async_tma_prefetch' op needs 2 coordinates for the descriptor's block, got 1}}
  ttng.async_tma_prefetch %d[%i], %p : !tt.tensordesc<tensor<64x64xf16, #shared>>
  tt.return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @multicast_mask_one_cta(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %mask: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %true = arith.constant true
    // expected-error @+1 {{'ttng.async_tma_copy_global_to_local' op needs a thread-block cluster (compile with num_ctas > 1)}}
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %bar, %true multicast_mask %mask : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @multicast_twice(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %mask: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %true = arith.constant true
    // expected-error @+1 {{takes either multicast (the layout's CTAs share the copy) or a multicast_mask, not both}}
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %bar, %true multicast_mask %mask {multicast} : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.cluster-ctas" = 2 : i32, "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @multicast_beyond(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %true = arith.constant true
    %mask = arith.constant 4 : i32
    // expected-error @+1 {{multicast_mask 4 names no CTA, or one beyond the cluster's 2}}
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %bar, %true multicast_mask %mask : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0]]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @multicast_mask_split(%d: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %mask: i32) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %true = arith.constant true
    // expected-error @+1 {{takes a multicast_mask only where each CTA runs the program alone (ttg.cluster-ctas), not over layouts split by ttg.num-ctas}}
    ttng.async_tma_copy_global_to_local %d[%x, %x] %buf, %bar, %true multicast_mask %mask : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}
