"""Kernels in Gluon (`triton.experimental.gluon`), Triton's explicit-control
language, for Hopper: explicit layouts, shared memory, mbarriers, TMA and
warpgroup MMA, as a kernel author writes them. Gluon's frontend writes their
TTGIR; behind the bridge kiln compiles it from there.

Shared by the lit tests (compile_check.py's `gluon` kind, no GPU) and by
bench/dot_kernels_check.py --module gluon_kernels (launched from PyTorch on
the H200, against PyTorch and stock Triton).
"""
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon._runtime import GluonASTSource
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma,
                                                              warpgroup_mma, warpgroup_mma_wait)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

from dot_kernels import Kernel

# Triton 3.9 renamed the CTA barrier (gl.barrier) and the TMA copies (the
# old names now raise).
thread_barrier = getattr(gl, "thread_barrier", None) or gl.barrier
tma_load = getattr(tma, "async_load", None) or tma.async_copy_global_to_shared
tma_store = getattr(tma, "async_store", None) or tma.async_copy_shared_to_global
cp_async_load = getattr(async_copy, "async_load", None) or async_copy.async_copy_global_to_shared


@gluon.jit
def tma_scale_kernel(in_desc, out_desc, alpha):
    # One block of rows through shared memory: a TMA load tracked by an
    # mbarrier, scaled in registers, written back and stored with TMA.
    BM: gl.constexpr = in_desc.block_type.shape[0]
    BN: gl.constexpr = in_desc.block_type.shape[1]
    layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    buf = gl.allocate_shared_memory(in_desc.dtype, [BM, BN], in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    row = gl.program_id(0) * BM
    mbarrier.expect(bar, in_desc.block_type.nbytes)
    tma_load(in_desc, [row, 0], bar, buf)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    x = buf.load(layout)
    buf.store((x * alpha).to(in_desc.dtype))
    fence_async_shared()
    tma_store(out_desc, [row, 0], buf)
    tma.store_wait(0)


@gluon.jit
def wgmma_loop_kernel(a_desc, b_desc, c_desc, K):
    # C = A @ B one tile per program: each K step loads both operands with
    # TMA on one mbarrier (its phase flipping every step) and accumulates
    # with warpgroup MMA; the first step ignores the accumulator (use_acc
    # known only at run time).
    BM: gl.constexpr = a_desc.block_type.shape[0]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    BN: gl.constexpr = b_desc.block_type.shape[1]
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                         instr_shape=[16, BN, 16])
    a_s = gl.allocate_shared_memory(a_desc.dtype, [BM, BK], a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, [BK, BN], b_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    row = gl.program_id(0) * BM
    col = gl.program_id(1) * BN
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    phase = 0
    for k in range(0, K, BK):
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma_load(a_desc, [row, k], bar, a_s)
        tma_load(b_desc, [k, col], bar, b_s)
        mbarrier.wait(bar, phase=phase)
        phase ^= 1
        acc = warpgroup_mma(a_s, b_s, acc, use_acc=k > 0)
    mbarrier.invalidate(bar)
    c_s = gl.allocate_shared_memory(c_desc.dtype, [BM, BN], c_desc.layout)
    c_s.store(acc.to(c_desc.dtype))
    fence_async_shared()
    tma_store(c_desc, [row, col], c_s)
    tma.store_wait(0)


@gluon.jit
def arrive_wait_kernel(out, BLOCK: gl.constexpr):
    # An mbarrier expecting two arrivals completes its phase from one
    # arrive with count 2; then every thread writes its elements.
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=2)
    mbarrier.arrive(bar, count=2)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout)
    gl.store(out + offs, offs * 3)


@gluon.jit
def cp_async_arrive_kernel(src, out, BLOCK: gl.constexpr):
    # cp.async copies tracked by an mbarrier: each of the 128 threads
    # arrives once its own copies have landed (no increment, so the barrier
    # counts them), then every thread reads the block back, copied by all.
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    smem_layout: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [0])
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout)
    buf = gl.allocate_shared_memory(gl.float32, [BLOCK], smem_layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=128)
    cp_async_load(buf, src + offs)
    async_copy.mbarrier_arrive(bar, increment_count=False)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    # Read back one element a thread at a time: what other threads copied.
    spread: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    vals = buf.load(spread)
    gl.store(out + gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, spread), vals * 2)


@gluon.jit
def _ws_load_partition(a_desc, b_desc, a_s, b_s, ready, empty, K, STAGES: gl.constexpr):
    # The producer warp: waits for a slot to be free, then fills it with
    # TMA and lets the hardware complete the slot's `ready` barrier.
    BM: gl.constexpr = a_desc.block_type.shape[0]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    BN: gl.constexpr = b_desc.block_type.shape[1]
    row = gl.program_id(0) * BM
    col = gl.program_id(1) * BN
    for i in range(0, gl.cdiv(K, BK)):
        s = i % STAGES
        phase = (i // STAGES) & 1
        mbarrier.wait(empty.index(s), phase ^ 1)
        mbarrier.expect(ready.index(s), a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma_load(a_desc, [row, i * BK], ready.index(s), a_s.index(s))
        tma_load(b_desc, [i * BK, col], ready.index(s), b_s.index(s))


@gluon.jit
def _ws_mma_partition(a_desc, c_desc, a_s, b_s, ready, empty, K, STAGES: gl.constexpr,
                      NUM_WARPS: gl.constexpr):
    # The consumers (the default warps): wgmma on each slot once it is
    # ready, then free it for the producer; the epilogue stores with TMA.
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[NUM_WARPS, 1],
                                                         instr_shape=[16, BN, 16])
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    for i in range(0, gl.cdiv(K, BK)):
        s = i % STAGES
        mbarrier.wait(ready.index(s), (i // STAGES) & 1)
        acc = warpgroup_mma(a_s.index(s), b_s.index(s), acc)
        # Each warp group waited for its own MMA; one thread frees the slot
        # once all of them have.
        thread_barrier()
        mbarrier.arrive(empty.index(s), count=1)
    c_s = gl.allocate_shared_memory(c_desc.dtype, [BM, BN], c_desc.layout)
    c_s.store(acc.to(c_desc.dtype))
    fence_async_shared()
    tma_store(c_desc, [gl.program_id(0) * BM, gl.program_id(1) * BN], c_s)
    tma.store_wait(0)


@gluon.jit
def ws_matmul_kernel(a_desc, b_desc, c_desc, K, STAGES: gl.constexpr, NUM_WARPS: gl.constexpr):
    # Warp-specialised C = A @ B: one producer warp streams both operands
    # through a ring of STAGES slots, each guarded by a `ready` and an
    # `empty` mbarrier; the default warps consume. The producer asks for 24
    # registers per thread, freeing the rest of its warp group for the
    # consumers.
    a_s = gl.allocate_shared_memory(a_desc.dtype, [STAGES] + a_desc.block_type.shape, a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, [STAGES] + b_desc.block_type.shape, b_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)
        mbarrier.init(empty.index(s), count=1)
    gl.warp_specialize([(_ws_mma_partition, (a_desc, c_desc, a_s, b_s, ready, empty, K, STAGES, NUM_WARPS)),
                        (_ws_load_partition, (a_desc, b_desc, a_s, b_s, ready, empty, K, STAGES))],
                       [1], [24])


@gluon.jit
def _ws_fill(out, base, value, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [gl.num_warps()], [0])
    offs = base + gl.arange(0, BLOCK, layout)
    gl.store(out + offs, offs * value)


@gluon.jit
def _ws_fill_default(out, BLOCK: gl.constexpr):
    _ws_fill(out, gl.program_id(0) * 3 * BLOCK, 1, BLOCK)


@gluon.jit
def _ws_fill_worker(out, scale, BLOCK: gl.constexpr, PART: gl.constexpr):
    _ws_fill(out, (gl.program_id(0) * 3 + PART) * BLOCK, scale, BLOCK)


@gluon.jit
def ws_fill_kernel(out, scale, BLOCK: gl.constexpr):
    # Three regions at once on warps of different counts (4, 2 and 1):
    # each writes its own block, so a partition that ran on the wrong warps,
    # read a wrong capture or saw a wrong thread id leaves a wrong value.
    gl.warp_specialize([(_ws_fill_default, (out, BLOCK)),
                        (_ws_fill_worker, (out, scale, BLOCK, 1)),
                        (_ws_fill_worker, (out, scale + 1, BLOCK, 2))],
                       [2, 1], [48, 24])


@gluon.jit
def _tile_origin(tile, num_n, BM: gl.constexpr, BN: gl.constexpr):
    return (tile // num_n) * BM, (tile % num_n) * BN


@gluon.jit
def _issue_load(a_desc, b_desc, a_s, b_s, ready, tile, k, num_n, BN: gl.constexpr, count,
                STAGES: gl.constexpr):
    BM: gl.constexpr = a_desc.block_type.shape[0]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    row, col = _tile_origin(tile, num_n, BM, BN)
    s = count % STAGES
    mbarrier.expect(ready.index(s), a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma_load(a_desc, [row, k * BK], ready.index(s), a_s.index(s))
    tma_load(b_desc, [k * BK, col], ready.index(s), b_s.index(s))


@gluon.jit
def persistent_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, STAGES: gl.constexpr):
    # C = A @ B with one program per SM walking the tiles. The TMA loads run
    # STAGES - 1 steps ahead of the wgmma through one ring whose phases go on
    # across tiles (the next tile's first blocks load during this tile's
    # last steps); one wgmma stays in flight (use_acc false at each tile's
    # first step); the epilogue stores the tile as two column halves,
    # TMA copies from subslices of one buffer, waiting for the previous
    # tile's copies only before rewriting it.
    BM: gl.constexpr = a_desc.block_type.shape[0]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    BN: gl.constexpr = b_desc.block_type.shape[1]
    HALF: gl.constexpr = c_desc.block_type.shape[1]
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                         instr_shape=[16, BN, 16])
    a_s = gl.allocate_shared_memory(a_desc.dtype, [STAGES] + a_desc.block_type.shape, a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, [STAGES] + b_desc.block_type.shape, b_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)
    c_s = gl.allocate_shared_memory(c_desc.dtype, [BM, BN], b_desc.layout)
    num_n = gl.cdiv(N, BN)
    k_steps = gl.cdiv(K, BK)
    my_tiles = gl.cdiv(gl.cdiv(M, BM) * num_n - gl.program_id(0), gl.num_programs(0))
    total = my_tiles * k_steps
    # The first STAGES - 1 steps' loads.
    for i in gl.static_range(STAGES - 1):
        if i < total:
            _issue_load(a_desc, b_desc, a_s, b_s, ready, gl.program_id(0) + (i // k_steps) * gl.num_programs(0),
                        i % k_steps, num_n, BN, i, STAGES)
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    for i in range(0, total):
        slot = i % STAGES
        k = i % k_steps
        mbarrier.wait(ready.index(slot), (i // STAGES) & 1)
        acc = warpgroup_mma(a_s.index(slot), b_s.index(slot), acc, use_acc=k > 0, is_async=True)
        # The wgmma of step i - 1 is done: its slot takes step i + STAGES - 1.
        acc = warpgroup_mma_wait(1, deps=[acc])
        ahead = i + STAGES - 1
        if ahead < total:
            _issue_load(a_desc, b_desc, a_s, b_s, ready,
                        gl.program_id(0) + (ahead // k_steps) * gl.num_programs(0), ahead % k_steps,
                        num_n, BN, ahead, STAGES)
        if k == k_steps - 1:
            acc = warpgroup_mma_wait(0, deps=[acc])
            row, col = _tile_origin(gl.program_id(0) + (i // k_steps) * gl.num_programs(0), num_n, BM, BN)
            tma.store_wait(0)
            thread_barrier()
            c_s.store(acc.to(c_desc.dtype))
            fence_async_shared()
            tma_store(c_desc, [row, col], c_s.slice(0, HALF, dim=1))
            tma_store(c_desc, [row, col + HALF], c_s.slice(HALF, HALF, dim=1))
    tma.store_wait(0)
    for s in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(s))


@gluon.jit
def shared_linear_mma_kernel(a, b, c, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr,
                             A_LAYOUT: gl.constexpr, B_LAYOUT: gl.constexpr):
    # C = A @ B, one BM-row block per program, with the operands in shared
    # layouts given by their bases (SharedLinearLayout): wgmma's unswizzled
    # core-matrix layouts, or a swizzle written out by hand.
    load_a: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    load_b: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                         instr_shape=[16, BN, 16])
    row = gl.program_id(0) * BM
    am = row + gl.arange(0, BM, gl.SliceLayout(1, load_a))
    ak = gl.arange(0, BK, gl.SliceLayout(0, load_a))
    bk = gl.arange(0, BK, gl.SliceLayout(1, load_b))
    bn = gl.arange(0, BN, gl.SliceLayout(0, load_b))
    a_tile = gl.load(a + am[:, None] * BK + ak[None, :])
    b_tile = gl.load(b + bk[:, None] * BN + bn[None, :])
    a_s = gl.allocate_shared_memory(a.dtype.element_ty, [BM, BK], A_LAYOUT, a_tile)
    b_s = gl.allocate_shared_memory(b.dtype.element_ty, [BK, BN], B_LAYOUT, b_tile)
    fence_async_shared()
    acc = warpgroup_mma(a_s, b_s, gl.zeros([BM, BN], gl.float32, acc_layout))
    cm = row + gl.arange(0, BM, gl.SliceLayout(1, acc_layout))
    cn = gl.arange(0, BN, gl.SliceLayout(0, acc_layout))
    gl.store(c + cm[:, None] * BN + cn[None, :], acc)


@gluon.jit
def padded_box_kernel(src, out, M: gl.constexpr, N: gl.constexpr, R0: gl.constexpr,
                      C0: gl.constexpr, BR: gl.constexpr, BC: gl.constexpr,
                      SMEM: gl.constexpr):
    # An M x N block through a padded shared buffer, then a BR x BC box of
    # it read back through two subslices (rows, then columns of those).
    layout: gl.constexpr = gl.BlockedLayout([1, 1], [32, 1], [1, 4], [1, 0])
    rows = gl.arange(0, M, gl.SliceLayout(1, layout))
    cols = gl.arange(0, N, gl.SliceLayout(0, layout))
    block = gl.program_id(0) * M * N
    x = gl.load(src + block + rows[:, None] * N + cols[None, :])
    buf = gl.allocate_shared_memory(gl.int32, [M, N], SMEM)
    box = buf.slice(R0, BR, dim=0).slice(C0, BC, dim=1)
    buf.store(x)
    y = box.load(layout)
    br = gl.arange(0, BR, gl.SliceLayout(1, layout))
    bc = gl.arange(0, BC, gl.SliceLayout(0, layout))
    gl.store(out + gl.program_id(0) * BR * BC + br[:, None] * BC + bc[None, :], y)


class GluonKernel(Kernel):
    def source(self):
        return GluonASTSource(fn=self.fn, signature=self.signature, constexprs=self.constexprs)


def _layout(shape):
    return gl.NVMMASharedLayout.get_default_for(shape, gl.float16)


def _desc(shape):
    return f"tensordesc<fp16[{shape[0]}, {shape[1]}],{_layout(shape)!r}>"


def _scale_inputs(torch):
    x = torch.randn(4096, 64, device="cuda", dtype=torch.float16)
    return dict(x=x, out=torch.empty_like(x), alpha=1.5)


def _scale_launch(a):
    i = TensorDescriptor.from_tensor(a["x"], [64, 64], _layout([64, 64]))
    o = TensorDescriptor.from_tensor(a["out"], [64, 64], _layout([64, 64]))
    tma_scale_kernel[(a["x"].shape[0] // 64,)](i, o, a["alpha"], num_warps=4)


def _mm_inputs(torch):
    M, N, K = 2048, 2048, 1024
    return dict(a=torch.randn(M, K, device="cuda", dtype=torch.float16),
                b=torch.randn(K, N, device="cuda", dtype=torch.float16),
                c=torch.empty(M, N, device="cuda", dtype=torch.float16))


# Inputs and checks of the C = A @ B kernels (f16, f32 accumulation).
_MM_CHECK = dict(inputs=_mm_inputs, outputs=lambda a: [a["c"]],
                 reference=lambda torch, a: [(a["a"].float() @ a["b"].float()).half()],
                 flops=lambda a: 2 * a["a"].shape[0] * a["a"].shape[1] * a["b"].shape[1],
                 tol=(1e-2, 1e-2 * 32))


def _mm_descs(a, a_block, b_block, c_block):
    """Host descriptors of A, B and C with the given blocks."""
    return [TensorDescriptor.from_tensor(a[name], block, _layout(block))
            for name, block in (("a", a_block), ("b", b_block), ("c", c_block))]


def _mm_launch(a):
    M, K = a["a"].shape
    N = a["b"].shape[1]
    ad, bd, cd = _mm_descs(a, [64, 64], [64, 128], [64, 128])
    wgmma_loop_kernel[(M // 64, N // 128)](ad, bd, cd, K, num_warps=4)


def _arrive_inputs(torch):
    return dict(out=torch.empty(128 * 64, device="cuda", dtype=torch.int32))


def _arrive_launch(a):
    arrive_wait_kernel[(a["out"].numel() // 128,)](a["out"], BLOCK=128, num_warps=4)


def _cp_arrive_inputs(torch):
    return dict(src=torch.randn(512 * 64, device="cuda"), out=torch.empty(512 * 64, device="cuda"))


def _cp_arrive_launch(a):
    cp_async_arrive_kernel[(a["out"].numel() // 512,)](a["src"], a["out"], BLOCK=512, num_warps=4)


def _ws_mm_launch(num_warps):
    def launch(a):
        M, K = a["a"].shape
        N = a["b"].shape[1]
        ad, bd, cd = _mm_descs(a, [128, 64], [64, 128], [128, 128])
        ws_matmul_kernel[(M // 128, N // 128)](ad, bd, cd, K, STAGES=3, NUM_WARPS=num_warps,
                                               num_warps=num_warps)
    return launch


def _ws_fill_inputs(torch):
    return dict(out=torch.empty(3 * 128 * 64, device="cuda", dtype=torch.int32), scale=5)


def _ws_fill_reference(torch, a):
    out = torch.arange(a["out"].numel(), device="cuda", dtype=torch.int32)
    part = (out // 128) % 3
    return [torch.where(part == 0, out, torch.where(part == 1, out * a["scale"], out * (a["scale"] + 1)))]


def _ws_mm_kernel(name, num_warps):
    return GluonKernel(name, ws_matmul_kernel,
                       {"a_desc": _desc([128, 64]), "b_desc": _desc([64, 128]), "c_desc": _desc([128, 128]),
                        "K": "i32", "STAGES": "constexpr", "NUM_WARPS": "constexpr"},
                       {"STAGES": 3, "NUM_WARPS": num_warps}, num_warps=num_warps,
                       launch_warps=num_warps + 4, launch=_ws_mm_launch(num_warps), **_MM_CHECK)


def _persistent_launch(a):
    import torch
    M, K = a["a"].shape
    N = a["b"].shape[1]
    ad, bd, cd = _mm_descs(a, [128, 64], [64, 128], [128, 64])
    sms = torch.cuda.get_device_properties(a["a"].device).multi_processor_count
    programs = min(sms, (M // 128) * (N // 128))
    persistent_matmul_kernel[(programs,)](ad, bd, cd, M, N, K, STAGES=3, num_warps=4)


def _bits(n):
    return n.bit_length() - 1


def _interleaved(rows, cols, contiguous):
    """Bases of wgmma's unswizzled layout for a rows x cols f16 buffer: core
    matrices of 8 elements along `contiguous` (16 bytes) by 8 along the
    other dimension, then the rest of the other dimension, then the rest of
    `contiguous`."""
    other = 1 - contiguous
    extent = (rows, cols)
    unit = lambda d, v: [v, 0] if d == 0 else [0, v]
    bases = [unit(contiguous, 1 << i) for i in range(3)]
    bases += [unit(other, 1 << i) for i in range(_bits(extent[other]))]
    bases += [unit(contiguous, 1 << i) for i in range(3, _bits(extent[contiguous]))]
    return gl.SharedLinearLayout(bases)


def _swizzled_128(rows, cols):
    """The 128-byte swizzle of an f16 buffer 64 columns wide, written as
    bases: 16-byte groups of row r XORed with r % 8."""
    bases = [[0, 1 << i] for i in range(6)]
    bases += [[1 << i, 8 << i] for i in range(3)]
    bases += [[1 << i, 0] for i in range(3, _bits(rows))]
    return gl.SharedLinearLayout(bases, alignment=1024)


def _linear_mm_inputs(torch):
    return dict(a=torch.randn(4096, 64, device="cuda", dtype=torch.float16),
                b=torch.randn(64, 64, device="cuda", dtype=torch.float16),
                c=torch.empty(4096, 64, device="cuda", dtype=torch.float32))


def _linear_mm_kernel(name, a_layout, b_layout):
    constexprs = {"BM": 64, "BN": 64, "BK": 64, "A_LAYOUT": a_layout, "B_LAYOUT": b_layout}
    return GluonKernel(name, shared_linear_mma_kernel,
                       {"a": "*fp16", "b": "*fp16", "c": "*fp32", **{k: "constexpr" for k in constexprs}},
                       constexprs, num_warps=4, inputs=_linear_mm_inputs,
                       launch=lambda a: shared_linear_mma_kernel[(a["a"].shape[0] // 64,)](
                           a["a"], a["b"], a["c"], num_warps=4, **constexprs),
                       outputs=lambda a: [a["c"]],
                       reference=lambda torch, a: [a["a"].float() @ a["b"].float()],
                       flops=lambda a: 2 * a["a"].numel() * 64, tol=(1e-2, 1e-2 * 8))


def _padded_inputs(torch):
    return dict(src=torch.randint(-2**30, 2**30, (64, 64 * 64), device="cuda", dtype=torch.int32),
                out=torch.zeros(64 * 16 * 32, device="cuda", dtype=torch.int32))


def _padded_kernel(name, smem, r0, c0, br, bc):
    constexprs = {"M": 64, "N": 64, "R0": r0, "C0": c0, "BR": br, "BC": bc, "SMEM": smem}

    def launch(a):
        out = a["out"][:64 * br * bc]
        padded_box_kernel[(64,)](a["src"], out, num_warps=4, **constexprs)

    def reference(torch, a):
        blocks = a["src"].reshape(64, 64, 64)[:, r0:r0 + br, c0:c0 + bc]
        full = torch.zeros_like(a["out"])
        full[:blocks.numel()] = blocks.reshape(-1)
        return [full]

    return GluonKernel(name, padded_box_kernel,
                       {"src": "*i32", "out": "*i32", **{k: "constexpr" for k in constexprs}},
                       constexprs, num_warps=4, inputs=_padded_inputs, launch=launch,
                       outputs=lambda a: [a["out"]], reference=reference,
                       flops=lambda a: a["src"].numel(), tol=(0, 0))


KERNELS = {
    k.name: k for k in [
        GluonKernel("gluon_tma_scale", tma_scale_kernel,
                    {"in_desc": _desc([64, 64]), "out_desc": _desc([64, 64]), "alpha": "fp32"}, {},
                    num_warps=4, inputs=_scale_inputs, launch=_scale_launch, outputs=lambda a: [a["out"]],
                    reference=lambda torch, a: [(a["x"].float() * a["alpha"]).half()],
                    flops=lambda a: a["x"].numel(), tol=(1e-3, 1e-3)),
        GluonKernel("gluon_wgmma_loop", wgmma_loop_kernel,
                    {"a_desc": _desc([64, 64]), "b_desc": _desc([64, 128]), "c_desc": _desc([64, 128]),
                     "K": "i32"}, {},
                    num_warps=4, launch=_mm_launch, **_MM_CHECK),
        GluonKernel("gluon_arrive_wait", arrive_wait_kernel, {"out": "*i32", "BLOCK": "constexpr"},
                    {"BLOCK": 128}, num_warps=4, inputs=_arrive_inputs, launch=_arrive_launch,
                    outputs=lambda a: [a["out"]],
                    reference=lambda torch, a: [torch.arange(a["out"].numel(), device="cuda",
                                                             dtype=torch.int32) * 3],
                    flops=lambda a: a["out"].numel(), tol=(0, 0)),
        GluonKernel("gluon_cp_async_arrive", cp_async_arrive_kernel,
                    {"src": "*fp32", "out": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 512}, num_warps=4,
                    inputs=_cp_arrive_inputs, launch=_cp_arrive_launch, outputs=lambda a: [a["out"]],
                    reference=lambda torch, a: [a["src"] * 2],
                    flops=lambda a: a["out"].numel(), tol=(0, 0)),
        _ws_mm_kernel("gluon_ws_matmul", 4),
        _ws_mm_kernel("gluon_ws_matmul_wide", 8),
        GluonKernel("gluon_persistent_matmul", persistent_matmul_kernel,
                    {"a_desc": _desc([128, 64]), "b_desc": _desc([64, 128]), "c_desc": _desc([128, 64]),
                     "M": "i32", "N": "i32", "K": "i32", "STAGES": "constexpr"}, {"STAGES": 3},
                    num_warps=4, launch=_persistent_launch, **_MM_CHECK),
        GluonKernel("gluon_ws_fill", ws_fill_kernel, {"out": "*i32", "scale": "i32", "BLOCK": "constexpr"},
                    {"BLOCK": 128}, num_warps=4, launch_warps=8, inputs=_ws_fill_inputs,
                    launch=lambda a: ws_fill_kernel[(a["out"].numel() // (3 * 128),)](
                        a["out"], a["scale"], BLOCK=128, num_warps=4),
                    outputs=lambda a: [a["out"]], reference=_ws_fill_reference,
                    flops=lambda a: a["out"].numel(), tol=(0, 0)),
        # A M-major, B K-major, both unswizzled; then A swizzled by hand.
        _linear_mm_kernel("gluon_shared_linear_mma", _interleaved(64, 64, 0), _interleaved(64, 64, 0)),
        _linear_mm_kernel("gluon_shared_linear_swizzled", _swizzled_128(64, 64), _interleaved(64, 64, 0)),
        # Padded buffers, column-major with two intervals, then rows permuted
        # by hand; boxes that are no buffer of their own shape.
        _padded_kernel("gluon_padded_box",
                       gl.PaddedSharedLayout.with_identity_for([[16, 4], [64, 8]], [64, 64], [0, 1]),
                       48, 16, 16, 16),
        _padded_kernel("gluon_padded_box_bases",
                       gl.PaddedSharedLayout([[32, 4]], [[0, 1], [0, 2], [0, 8], [0, 4], [0, 16], [0, 32],
                                                         [2, 0], [1, 0], [4, 0], [8, 0], [16, 0], [32, 0]],
                                             [], [64, 64]),
                       32, 48, 32, 16),
    ]
}
