"""Persistent, warp-specialised TMA + wgmma matmuls written with hwx: a
producer task of one warp fills a ring of STAGES slots by TMA (a `full`
and an `empty` mbarrier per slot, phases tracked across tiles), and
consumers multiply out of it with one wgmma in flight, freeing each slot
for the producer once its product retired. Two schedules:
cooperative (hwx_ws_matmul_kernel: the kernel's warps share each tile, a
warp group 64 of its rows) and ping-pong (hwx_pingpong_matmul_kernel: two
consumer warp groups own alternate tiles whole, one storing its tile while
the other multiplies). Programs walk the output tiles in grouped order;
the epilogue stores each tile by TMA, whole or (SUBTILE) in column blocks
through a pair of staging buffers taken in turn.

    python3 hwx_ws_gemm.py            # compile for cuda:90 (no GPU), check the PTX
    python3 hwx_ws_gemm.py --run [N ...]   # on a GPU: check against torch (N³), time it
    python3 hwx_ws_gemm.py --run-fp8 [N ...]   # e4m3 in, bf16 out, against torch._scaled_mm
"""
import re
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import kiln.triton
from kiln.language import hwx


@triton.jit
def _tile(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    # Grouped order: GROUP_M rows of tiles share their B columns in L2.
    in_group = GROUP_M * num_pid_n
    first_m = (tile // in_group) * GROUP_M
    rows = min(num_pid_m - first_m, GROUP_M)
    return first_m + (tile % in_group) % rows, (tile % in_group) // rows


@triton.jit
def _producer(a_desc, b_desc, a_bufs, b_bufs, full, empty, num_tiles, num_programs, num_pid_m,
              num_pid_n, k_tiles, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
              STAGES: tl.constexpr, GROUP_M: tl.constexpr, B_KMAJOR: tl.constexpr,
              CLUSTER: tl.constexpr = 1):
    # Fills the ring with the program's tiles' A and B, k step by k step.
    # In a cluster, each CTA loads its own rows of A and its share of B's
    # columns, which the TMA unit multicasts to every CTA of the cluster.
    dtype = a_desc.dtype
    rank = hwx.cluster_cta_rank()
    it = 0
    for tile in range(tl.program_id(0), num_tiles, num_programs):
        pid_m, pid_n = _tile(tile, num_pid_m, num_pid_n, GROUP_M)
        for k in range(k_tiles):
            s = it % STAGES
            # The first round passes on the fresh barrier.
            hwx.barrier_wait(empty[s], ((it // STAGES) & 1) ^ 1)
            hwx.barrier_expect(full[s], (BM * BK + BK * BN) * dtype.primitive_bitwidth // 8)
            hwx.async_load(a_desc, [(pid_m * CLUSTER + rank) * BM, k * BK], a_bufs[s], full[s])
            if CLUSTER > 1:
                for r in tl.static_range(CLUSTER):
                    if rank == r:
                        hwx.async_load(b_desc, [k * BK, pid_n * BN + r * (BN // CLUSTER)],
                                       hwx.slice(b_bufs[s], [0, r * (BN // CLUSTER)],
                                                 [BK, BN // CLUSTER]),
                                       full[s], multicast=(1 << CLUSTER) - 1)
            elif B_KMAJOR:
                hwx.async_load(b_desc, [pid_n * BN, k * BK], b_bufs[s], full[s])
            else:
                hwx.async_load(b_desc, [k * BK, pid_n * BN], b_bufs[s], full[s])
            it += 1


# What a traced CTA records (SM cycles): its consumers' start, the
# first k step's data landed, the last tile's products done, the end, the
# cycles the stores of its tiles but the last took, and of all of them.
TRACE_WORDS = tl.constexpr(6)


@triton.jit
def _trace(trace, word: tl.constexpr, value, CLUSTER: tl.constexpr):
    # A row per CTA: a program is a cluster of CLUSTER CTAs.
    cta = tl.program_id(0) * CLUSTER + hwx.cluster_cta_rank()
    tl.store(trace + cta * TRACE_WORDS + word, value)


@triton.jit
def _store_block(c_desc, buf, row, col, block):
    # The store two blocks back read this buffer (the pair is taken in
    # turn, across tiles too): it must be done before the buffer is written.
    hwx.async_store_wait(1)
    hwx.store(buf, block.to(c_desc.dtype))
    hwx.fence_async_shared()
    hwx.async_store(c_desc, [row, col], buf)


@triton.jit
def _halves(x, BM: tl.constexpr, BN: tl.constexpr):
    # A tile's left and right column halves (in the accumulator's layout
    # the top column bit is a register's: no data moves).
    return x.reshape([BM, 2, BN // 2]).permute(0, 2, 1).split()


@triton.jit
def _store_tile(c_desc, c_bufs, first, row, col, acc, BM: tl.constexpr, BN: tl.constexpr,
                SUBTILE: tl.constexpr):
    # The epilogue: the tile narrowed to C's dtype and stored by TMA. With
    # SUBTILE > 1 it leaves in SUBTILE column blocks through the staging
    # buffers c_bufs[first] and c_bufs[first + 1], in turn, so that the TMA
    # unit reads one block out while the next is narrowed and written.
    # c_desc's block is [BM, BN // SUBTILE].
    if SUBTILE == 1:
        c_desc.store([row, col], acc.to(c_desc.dtype))
    else:
        W: tl.constexpr = BN // SUBTILE
        left, right = _halves(acc, BM, BN)
        if SUBTILE == 2:
            _store_block(c_desc, c_bufs[first], row, col, left)
            _store_block(c_desc, c_bufs[first + 1], row, col + W, right)
        else:
            tl.static_assert(SUBTILE == 4, "SUBTILE is 1, 2 or 4")
            b0, b1 = _halves(left, BM, BN // 2)
            b2, b3 = _halves(right, BM, BN // 2)
            _store_block(c_desc, c_bufs[first], row, col, b0)
            _store_block(c_desc, c_bufs[first + 1], row, col + W, b1)
            _store_block(c_desc, c_bufs[first], row, col + 2 * W, b2)
            _store_block(c_desc, c_bufs[first + 1], row, col + 3 * W, b3)


@triton.jit
def _release(empty, s, CLUSTER: tl.constexpr):
    # The slot is free in every CTA whose copies fill it: each CTA's, in a
    # cluster sharing B.
    if CLUSTER > 1:
        for r in tl.static_range(CLUSTER):
            hwx.barrier_arrive(hwx.remote(empty[s], r), per_warp_group=True)
    else:
        hwx.barrier_arrive(empty[s], per_warp_group=True)


@triton.jit
def _promoted_step(a_bufs, b_bufs, full, empty, acc, prev, it, release, zero,
                   STAGES: tl.constexpr, B_KMAJOR: tl.constexpr, CLUSTER: tl.constexpr):
    # Starts step it's product on zeros; once the step before's (prev) has
    # retired, frees its slot (where release) and adds it into acc.
    s = it % STAGES
    hwx.barrier_wait(full[s], (it // STAGES) & 1)
    cur = hwx.async_dot(a_bufs[s], hwx.trans(b_bufs[s]) if B_KMAJOR else b_bufs[s], zero)
    prev = hwx.async_dot_wait(prev, 1)
    if release:
        _release(empty, (it + STAGES - 1) % STAGES, CLUSTER)
    return cur, acc + prev


@triton.jit
def _promoted_k_loop(a_bufs, b_bufs, full, empty, acc, it, k_tiles, BM: tl.constexpr,
                     BN: tl.constexpr, STAGES: tl.constexpr, B_KMAJOR: tl.constexpr,
                     CLUSTER: tl.constexpr):
    # fp8 products moved into f32 every k step without draining the tensor
    # cores: alternate steps' products go to two partial sums (pa, pb: the
    # loop is unrolled by two so that each keeps its registers), and a
    # step's sum is added into acc while the next step's product runs.
    # Returns with every product retired and every slot but the last freed.
    zero = tl.zeros([BM, BN], tl.float32)
    pb = zero
    for k in range(0, k_tiles - 1, 2):
        pa, acc = _promoted_step(a_bufs, b_bufs, full, empty, acc, pb, it, k > 0, zero, STAGES,
                                 B_KMAJOR, CLUSTER)
        pb, acc = _promoted_step(a_bufs, b_bufs, full, empty, acc, pa, it + 1, True, zero, STAGES,
                                 B_KMAJOR, CLUSTER)
        it += 2
    if k_tiles % 2 == 1:
        pa, acc = _promoted_step(a_bufs, b_bufs, full, empty, acc, pb, it, k_tiles > 1, zero,
                                 STAGES, B_KMAJOR, CLUSTER)
        it += 1
        pb = hwx.async_dot_wait(pa, 0)
    else:
        pb = hwx.async_dot_wait(pb, 0)
    return acc + pb, it


@triton.jit
def hwx_ws_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, num_programs, BM: tl.constexpr,
                         BN: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr,
                         GROUP_M: tl.constexpr, CONSUMER_GROUPS: tl.constexpr,
                         B_KMAJOR: tl.constexpr = False, PROMOTE: tl.constexpr = 0,
                         CLUSTER: tl.constexpr = 1, SUBTILE: tl.constexpr = 1, trace=None):
    # trace: None, or TRACE_WORDS i64 a CTA of the consumers' SM clock
    # (which ones: above TRACE_WORDS; bench/gemm_power.py reads them).
    # B_KMAJOR: b_desc describes B's transpose ([N, K]), read transposed by
    # the product (fp8 products take B only K-major). PROMOTE: every
    # PROMOTE k steps the products' sum moves into an f32 accumulator of
    # the kernel's own (fp8 wgmma keeps fewer bits than f32 as it
    # accumulates; cuBLAS does the same unless told to accumulate fast);
    # PROMOTE -1: every k step, overlapped with the next step's product.
    # CLUSTER (num_ctas): a program is a cluster of CLUSTER CTAs owning
    # CLUSTER tiles on top of one another (BM rows each), whose B they share:
    # each loads 1/CLUSTER of B's columns for all (TMA multicast).
    # SUBTILE: the epilogue's column blocks (_store_tile).
    tl.static_assert(CLUSTER == 1 or not B_KMAJOR, "clusters share B [K, N] only")
    tl.static_assert(trace is None or PROMOTE != -1, "traces are without the overlapped promotion")
    dtype = a_desc.dtype
    rank = hwx.cluster_cta_rank()
    a_bufs = hwx.alloc([BM, BK], dtype, STAGES)
    if B_KMAJOR:
        b_bufs = hwx.alloc([BN, BK], dtype, STAGES)
    else:
        b_bufs = hwx.alloc([BK, BN], dtype, STAGES)
    full = hwx.alloc_barriers(STAGES)     # the producer's copies landed
    c_bufs = None
    if SUBTILE > 1:
        c_bufs = hwx.alloc([BM, BN // SUBTILE], c_desc.dtype, 2)
    # The consumers' products retired: one arrival per warp group, each
    # after its own wait (a warp group knows only its own products retired);
    # in a cluster, every CTA's warp groups, since each CTA's copies fill
    # every CTA's slot.
    empty = hwx.alloc_barriers(STAGES, count=CONSUMER_GROUPS * CLUSTER)
    if CLUSTER > 1:
        # Each CTA's barriers are ready before another's copies or
        # arrivals reach them.
        hwx.cluster_barrier()
    num_pid_m = tl.cdiv(M, BM * CLUSTER)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1, registers=40):
            _producer(a_desc, b_desc, a_bufs, b_bufs, full, empty, num_tiles, num_programs,
                      num_pid_m, num_pid_n, k_tiles, BM, BN, BK, STAGES, GROUP_M, B_KMAJOR,
                      CLUSTER)
        with hwx.async_task("default"):
            it = 0
            if trace is not None:
                stores = tl.zeros([], tl.int64)
                _trace(trace, 0, hwx.clock64(), CLUSTER)
            for tile in range(tl.program_id(0), num_tiles, num_programs):
                pid_m, pid_n = _tile(tile, num_pid_m, num_pid_n, GROUP_M)
                acc = tl.zeros([BM, BN], tl.float32)
                if PROMOTE == -1:
                    acc, it = _promoted_k_loop(a_bufs, b_bufs, full, empty, acc, it, k_tiles, BM, BN,
                                               STAGES, B_KMAJOR, CLUSTER)
                else:
                    part = tl.zeros([BM, BN], tl.float32)
                    for k in range(k_tiles):
                        s = it % STAGES
                        hwx.barrier_wait(full[s], (it // STAGES) & 1)
                        if trace is not None:
                            if it == 0:
                                _trace(trace, 1, hwx.clock64(), CLUSTER)
                        b = hwx.trans(b_bufs[s]) if B_KMAJOR else b_bufs[s]
                        part = hwx.async_dot(a_bufs[s], b, part)
                        # The product before this one has retired: its slot is free.
                        part = hwx.async_dot_wait(part, 1)
                        if k > 0:
                            _release(empty, (it + STAGES - 1) % STAGES, CLUSTER)
                        it += 1
                        if PROMOTE:
                            if ((k + 1) % PROMOTE == 0) | (k == k_tiles - 1):
                                part = hwx.async_dot_wait(part, 0)
                                acc += part
                                part = tl.zeros([BM, BN], tl.float32)
                    if PROMOTE == 0:
                        acc = hwx.async_dot_wait(part, 0)
                _release(empty, (it + STAGES - 1) % STAGES, CLUSTER)
                if trace is not None:
                    before = hwx.clock64()
                _store_tile(c_desc, c_bufs, 0, (pid_m * CLUSTER + rank) * BM, pid_n * BN, acc, BM, BN,
                            SUBTILE)
                if trace is not None:
                    _trace(trace, 2, before, CLUSTER)
                    _trace(trace, 4, stores, CLUSTER)
                    stores += hwx.clock64() - before
            if SUBTILE > 1:
                hwx.async_store_wait(0)    # the last blocks read out before the CTA ends
            if trace is not None:
                _trace(trace, 3, hwx.clock64(), CLUSTER)
                _trace(trace, 5, stores, CLUSTER)
    if CLUSTER > 1:
        # No CTA leaves while another may still arrive on its barriers.
        hwx.cluster_barrier()


@triton.jit
def _pingpong_consumer(a_bufs, b_bufs, full, empty, c_desc, c_bufs, r, num_tiles, num_programs,
                       num_pid_m, num_pid_n, k_tiles, BM: tl.constexpr, BN: tl.constexpr,
                       STAGES: tl.constexpr, GROUP_M: tl.constexpr, B_KMAJOR: tl.constexpr,
                       SUBTILE: tl.constexpr):
    # Consumer r takes the program's tiles r, r + 2, ...: its i-th tile's
    # slots are ring positions i * k_tiles on, filled in tile order. The
    # consumers take turns at the ring (named barriers 8 + r, both warp
    # groups counted): a parity wait tells only two phases of a slot
    # apart, so a consumer must not wait on a slot a whole round before
    # the other has finished with the round in between.
    my_tiles = tl.cdiv(num_tiles - tl.program_id(0), num_programs)
    i = r
    for tile in range(tl.program_id(0) + r * num_programs, num_tiles, 2 * num_programs):
        pid_m, pid_n = _tile(tile, num_pid_m, num_pid_n, GROUP_M)
        if i > 0:
            hwx.named_barrier_wait(8 + r, 256)
        acc = tl.zeros([BM, BN], tl.float32)
        it = i * k_tiles
        for k in range(k_tiles):
            s = it % STAGES
            hwx.barrier_wait(full[s], (it // STAGES) & 1)
            acc = hwx.async_dot(a_bufs[s], hwx.trans(b_bufs[s]) if B_KMAJOR else b_bufs[s], acc)
            acc = hwx.async_dot_wait(acc, 1)
            if k > 0:
                hwx.barrier_arrive(empty[(it + STAGES - 1) % STAGES], per_warp_group=True)
            it += 1
        acc = hwx.async_dot_wait(acc, 0)
        hwx.barrier_arrive(empty[(it + STAGES - 1) % STAGES], per_warp_group=True)
        if i + 1 < my_tiles:
            hwx.named_barrier_arrive(9 - r, 256)   # the other's turn
        # The other consumer multiplies while this one stores (through
        # its own staging buffers: a store wait counts this thread's stores).
        _store_tile(c_desc, c_bufs, 2 * r, pid_m * BM, pid_n * BN, acc, BM, BN, SUBTILE)
        i += 2
    if SUBTILE > 1:
        hwx.async_store_wait(0)


@triton.jit
def hwx_pingpong_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, num_programs, BM: tl.constexpr,
                               BN: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr,
                               GROUP_M: tl.constexpr, B_KMAJOR: tl.constexpr,
                               SUBTILE: tl.constexpr = 1):
    # Ping-pong: two consumer warp groups (the kernel's 4 warps and a task
    # of 4) own alternate tiles whole, so one's epilogue overlaps the
    # other's products; the ring hands them their slots in tile order.
    dtype = a_desc.dtype
    a_bufs = hwx.alloc([BM, BK], dtype, STAGES)
    if B_KMAJOR:
        b_bufs = hwx.alloc([BN, BK], dtype, STAGES)
    else:
        b_bufs = hwx.alloc([BK, BN], dtype, STAGES)
    full = hwx.alloc_barriers(STAGES)
    empty = hwx.alloc_barriers(STAGES)    # one consumer warp group frees a slot
    c_bufs = None
    if SUBTILE > 1:
        c_bufs = hwx.alloc([BM, BN // SUBTILE], c_desc.dtype, 4)   # a pair per consumer
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1):
            _producer(a_desc, b_desc, a_bufs, b_bufs, full, empty, num_tiles, num_programs,
                      num_pid_m, num_pid_n, k_tiles, BM, BN, BK, STAGES, GROUP_M, B_KMAJOR)
        with hwx.async_task("default"):
            _pingpong_consumer(a_bufs, b_bufs, full, empty, c_desc, c_bufs, 0, num_tiles,
                               num_programs, num_pid_m, num_pid_n, k_tiles, BM, BN, STAGES, GROUP_M,
                               B_KMAJOR, SUBTILE)
        with hwx.async_task(num_warps=4):
            _pingpong_consumer(a_bufs, b_bufs, full, empty, c_desc, c_bufs, 1, num_tiles,
                               num_programs, num_pid_m, num_pid_n, k_tiles, BM, BN, STAGES, GROUP_M,
                               B_KMAJOR, SUBTILE)


CONFIGS = [
    dict(BM=128, BN=256, BK=64, STAGES=4, GROUP_M=8, num_warps=8),
    dict(BM=128, BN=128, BK=64, STAGES=5, GROUP_M=8, num_warps=8),
    dict(BM=128, BN=128, BK=64, STAGES=4, GROUP_M=8, num_warps=4),
    # Twice the tiles of 128-row ones, for shapes that leave SMs idle.
    dict(BM=64, BN=128, BK=64, STAGES=6, GROUP_M=8, num_warps=4),
    dict(BM=64, BN=256, BK=64, STAGES=4, GROUP_M=8, num_warps=4),
    # Ping-pong: num_warps is one consumer's; the other brings 4 more.
    dict(BM=128, BN=128, BK=64, STAGES=4, GROUP_M=8, num_warps=4, schedule="pingpong"),
    dict(BM=128, BN=128, BK=64, STAGES=5, GROUP_M=8, num_warps=4, schedule="pingpong"),
    # Subtiled epilogues: the tile leaves in 64-column blocks through two
    # staging buffers (a pair per ping-pong consumer), each block's TMA
    # store overlapping the next block's narrowing.
    dict(BM=128, BN=256, BK=64, STAGES=4, GROUP_M=8, num_warps=8, SUBTILE=4),
    dict(BM=128, BN=128, BK=64, STAGES=4, GROUP_M=8, num_warps=4, schedule="pingpong", SUBTILE=2),
    # Clusters of two and four CTAs (num_ctas) sharing B by TMA multicast.
    dict(BM=128, BN=256, BK=64, STAGES=4, GROUP_M=8, num_warps=8, CLUSTER=2),
    dict(BM=128, BN=128, BK=64, STAGES=5, GROUP_M=8, num_warps=8, CLUSTER=2),
    dict(BM=128, BN=256, BK=64, STAGES=4, GROUP_M=8, num_warps=8, CLUSTER=4),
    # Small tiles in pairs, for shapes of a tile or two per SM (1024³,
    # 2048³), where reading B from L2 once per 64 or 128 rows of A bounds
    # the time: a pair shares B's copies, halving that traffic.
    dict(BM=64, BN=128, BK=64, STAGES=6, GROUP_M=8, num_warps=4, CLUSTER=2),
    dict(BM=128, BN=128, BK=64, STAGES=4, GROUP_M=8, num_warps=4, CLUSTER=2),
]


def config_name(config):
    return (f"{config['BM']}x{config['BN']}x{config['BK']} w{config['num_warps']} s{config['STAGES']}"
            + (" pingpong" if config.get("schedule") == "pingpong" else "")
            + (f" promote{config['PROMOTE']}" if config.get("PROMOTE", 0) > 0 else "")
            + (" promote1 overlapped" if config.get("PROMOTE") == -1 else "")
            + (f" c{config['CLUSTER']}" if config.get("CLUSTER", 1) > 1 else "")
            + (f" sub{config['SUBTILE']}" if config.get("SUBTILE", 1) > 1 else ""))


def kernel_of(config):
    return hwx_pingpong_matmul_kernel if config.get("schedule") == "pingpong" else hwx_ws_matmul_kernel


def constexprs(config, b_kmajor=False):
    # The default task (the consumers) runs on the kernel's num_warps warps.
    # Every constexpr named (Triton 3.9's ASTSource takes no defaults).
    values = {k: v for k, v in config.items() if k not in ("num_warps", "schedule")}
    if config.get("schedule") == "pingpong":
        return dict(values, B_KMAJOR=b_kmajor, SUBTILE=config.get("SUBTILE", 1))
    return dict(values, CONSUMER_GROUPS=config["num_warps"] // 4, B_KMAJOR=b_kmajor,
                PROMOTE=config.get("PROMOTE", 0), CLUSTER=config.get("CLUSTER", 1),
                SUBTILE=config.get("SUBTILE", 1), trace=None)


def options(config):
    """The launch options: a cluster config's programs are clusters."""
    return {"num_warps": config["num_warps"], "num_ctas": config.get("CLUSTER", 1)}


def signature(BM, BN, BK, dtype="fp16", out="", b_kmajor=False, CLUSTER=1, SUBTILE=1, schedule=None,
              **_):
    # In a cluster each CTA loads 1/CLUSTER of B's columns.
    b_block = f"[{BN}, {BK}]" if b_kmajor else f"[{BK}, {BN // CLUSTER}]"
    return dict({"a_desc": f"tensordesc<{dtype}[{BM}, {BK}]>", "b_desc": f"tensordesc<{dtype}{b_block}>",
                 "c_desc": f"tensordesc<{out or dtype}[{BM}, {BN // SUBTILE}]>", "M": "i32", "N": "i32", "K": "i32",
                 "num_programs": "i32"}, **({} if schedule == "pingpong" else {"trace": "constexpr"}))


_FITTING_CLUSTERS = {}   # (config name, dtype) -> clusters the GPU holds at once


def launcher(a, b, c, config, num_sms, trace=None):
    """A function launching the kernel on torch tensors (c = a @ b) on at
    most num_sms programs and returning the compiled kernel; with trace (an
    int64 tensor of num_sms * TRACE_WORDS), the cooperative kernel records
    each CTA's clocks there."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    M, K = a.shape
    N = b.shape[1]
    BM, BN, BK = config["BM"], config["BN"], config["BK"]
    cluster = config.get("CLUSTER", 1)
    descs = (TensorDescriptor.from_tensor(a, [BM, BK]),
             TensorDescriptor.from_tensor(b, [BK, BN // cluster]),
             TensorDescriptor.from_tensor(c, [BM, BN // config.get("SUBTILE", 1)]))
    tiles = triton.cdiv(M, BM * cluster) * triton.cdiv(N, BN)
    programs = min(num_sms // cluster, tiles)
    kernel = kernel_of(config)
    if cluster > 1:
        # Fewer clusters than SMs / cluster may fit at once (docs/hwx.md).
        key = (config_name(config), a.dtype)
        if key not in _FITTING_CLUSTERS:
            compiled = kernel.warmup(*descs, M, N, K, programs, **constexprs(config),
                                     **options(config), grid=(programs,))
            try:
                _FITTING_CLUSTERS[key] = kiln.triton.max_active_clusters(compiled)
            except RuntimeError as e:
                print(f"warning: {e}; launching {programs} clusters", file=sys.stderr)
                _FITTING_CLUSTERS[key] = programs
        programs = min(tiles, _FITTING_CLUSTERS[key])
    values = constexprs(config)
    if trace is not None:
        values["trace"] = trace
    return lambda: kernel[(programs,)](*descs, M, N, K, programs, **values, **options(config))


def launch(a, b, c, config, num_sms):
    return launcher(a, b, c, config, num_sms)()


def compile_only():
    kiln.triton.enable()
    for dtype in ("fp16", "bf16"):
        for config in CONFIGS:
            src = ASTSource(kernel_of(config), signature(**config, dtype=dtype),
                            constexprs=constexprs(config))
            kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=options(config))
            assert kernel.metadata.compiler == "kiln"
            ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
            assert "ttg.warp_specialize" in ttgir and "num_warps(1" in ttgir, ttgir
            assert "wgmma.mma_async" in ptx and "cp.async.bulk.tensor.2d" in ptx
            if config.get("CLUSTER", 1) > 1:
                # Clusters of CTAs that each run the program: launched so,
                # B multicast, the slots freed in every CTA, ids of clusters.
                assert kernel.metadata.num_ctas == config["CLUSTER"]
                assert '"ttg.num-ctas" = 1' in ttgir and "ttg.cluster-ctas" in ttgir
                assert f".reqnctapercluster {config['CLUSTER']}" in ptx, ptx
                assert "multicast::cluster" in ptx
                assert "mapa.shared::cluster" in ptx and "barrier.cluster.wait" in ptx
                assert "%clusterid.x" in ptx
            if config.get("SUBTILE", 1) > 1:
                # The tile leaves in SUBTILE blocks, each store waiting only
                # for the one two blocks back (its buffer's last reader),
                # written straight from the accumulator's registers.
                stores = ptx.count("cp.async.bulk.tensor.2d.global.shared")
                assert stores == config["SUBTILE"] * (2 if config.get("schedule") else 1), stores
                assert re.search(r"cp\.async\.bulk\.wait_group\.read\s+1;", ptx)
                assert "ttg.convert_layout" not in ttgir and "stmatrix" in ptx
            # With 12 warps the register file is short: the producer gives back
            # what the consumers take. With 8, every warp has 255 already.
            if config["num_warps"] == 8:
                assert "setmaxnreg.dec.sync.aligned.u32 40" in ptx, "the producer gives registers back"
            grow = [l.split()[-1].rstrip(";") for l in ptx.splitlines()
                    if "setmaxnreg.inc.sync" in l]
            print(f"hwx WS matmul {dtype} {config_name(config)}: {kernel.metadata.shared} bytes of "
                  f"shared memory, {kernel.metadata.num_warps} warps, consumers grow to "
                  f"{grow[0] if grow else '-'} registers")
    # Traced (bench/gemm_power.py): the consumers' clock into a buffer.
    config = CONFIGS[0]
    values = constexprs(config)
    del values["trace"]
    src = ASTSource(hwx_ws_matmul_kernel, dict(signature(**config, dtype="bf16"), trace="*i64"),
                    constexprs=values)
    ptx = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=options(config)).asm["ptx"]
    print(f"hwx WS matmul bf16 {config_name(config)} traced: {ptx.count('%clock64')} clock reads")
    # fp8 (e4m3) in, bf16 out, B K-major; fast and promoted accumulation.
    for config in (FP8_CONFIGS[0], FP8_CONFIGS[2], FP8_CONFIGS[4], FP8_CONFIGS[5]):
        src = ASTSource(kernel_of(config),
                        signature(**config, dtype="fp8e4nv", out="bf16", b_kmajor=True),
                        constexprs=constexprs(config, b_kmajor=True))
        kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                                options={"num_warps": config["num_warps"]})
        ptx = kernel.asm["ptx"]
        wgmma = [l.split()[0] for l in ptx.splitlines() if "wgmma.mma_async" in l]
        assert "ttg.memdesc_trans" in kernel.asm["ttgir"]
        if config.get("PROMOTE") == -1:
            # Alternate steps' products in two accumulators, one in flight
            # while the other is added in.
            accumulators = {l.split("{")[1].split(",")[0] for l in ptx.splitlines() if "wgmma.mma_async" in l}
            assert len(accumulators) >= 2 and "wgmma.wait_group.sync.aligned 1" in ptx, accumulators
        print(f"hwx WS matmul fp8e4nv {config_name(config)}, B K-major: {wgmma[0]}, "
              f"{kernel.metadata.shared} bytes of shared memory")

def run(sizes, words=()):
    import torch
    kiln.triton.enable()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for M, N, K in [(n, n, n) for n in sizes or (512, 4096, 8192)]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        cublas = triton.testing.do_bench(lambda: a @ b, warmup=25, rep=100)
        for config in (c for c in CONFIGS if not words or any(w in config_name(c) for w in words)):
            go = launcher(a, b, c, config, sms)
            c.zero_()
            go()
            err = (c.float() - ref).abs().max().item()
            ok = torch.allclose(c.float(), ref, atol=0.5, rtol=0.02)
            ms = triton.testing.do_bench(go, warmup=25, rep=100)
            tflops = 2 * M * N * K / ms * 1e-9
            print(f"{M}x{N}x{K} {config_name(config)}: {'PASS' if ok else 'FAIL'} max err {err:.3f}; hwx {ms:.4f} ms "
                  f"({tflops:.0f} TFLOP/s), cuBLAS {cublas:.4f} ms, hwx/cuBLAS time {ms / cublas:.3f}",
                  flush=True)
    for (name, dtype), clusters in _FITTING_CLUSTERS.items():
        print(f"{name} {dtype}: {clusters} clusters fit at once on {sms} SMs")


# fp8: PROMOTE 0 accumulates as the tensor cores do (cuBLAS's fast
# accumulation); PROMOTE 1 moves the sum into f32 every k step (128 of K),
# as cuBLAS does by default.
FP8_CONFIGS = [dict(BM=128, BN=256, BK=128, STAGES=4, GROUP_M=8, num_warps=8),
               dict(BM=128, BN=128, BK=128, STAGES=5, GROUP_M=8, num_warps=8),
               dict(BM=128, BN=128, BK=128, STAGES=5, GROUP_M=8, num_warps=8, PROMOTE=1),
               dict(BM=128, BN=128, BK=128, STAGES=5, GROUP_M=8, num_warps=8, PROMOTE=2),
               dict(BM=128, BN=128, BK=128, STAGES=5, GROUP_M=8, num_warps=8, PROMOTE=-1),
               dict(BM=128, BN=128, BK=128, STAGES=4, GROUP_M=8, num_warps=4, schedule="pingpong")]


def run_fp8(sizes):
    """e4m3 A and B (B K-major), bf16 C, against torch._scaled_mm (cuBLAS)
    with unit scales, in the same accumulation mode: an hwx config PASSes
    when its worst error against an f64 product is at most 1.25 times
    cuBLAS's in that mode (the tensor cores' fp8 accumulation loses bits
    the same way for both)."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    kiln.triton.enable()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    one = torch.ones((), device="cuda")
    for n in sizes or (4096, 8192):
        a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
        bt = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)   # B's transpose, [N, K]
        c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
        ref = a.double() @ bt.double().t()
        cublas = {}
        for fast in (True, False):
            scaled = lambda: torch._scaled_mm(a, bt.t(), scale_a=one, scale_b=one,
                                              out_dtype=torch.bfloat16, use_fast_accum=fast)
            err = (scaled().double() - ref).abs().max().item()
            cublas[fast] = (triton.testing.do_bench(scaled, warmup=25, rep=100), err)
        for config in FP8_CONFIGS:
            BM, BN, BK = config["BM"], config["BN"], config["BK"]
            descs = (TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(bt, [BN, BK]),
                     TensorDescriptor.from_tensor(c, [BM, BN // config.get("SUBTILE", 1)]))
            programs = min(sms, triton.cdiv(n, BM) * triton.cdiv(n, BN))
            go = lambda: kernel_of(config)[(programs,)](*descs, n, n, n, programs,
                                                        **constexprs(config, b_kmajor=True),
                                                        num_warps=config["num_warps"])
            c.zero_()
            go()
            fast = not config.get("PROMOTE")
            vendor_ms, vendor_err = cublas[fast]
            err = (c.double() - ref).abs().max().item()
            ok = err <= 1.25 * vendor_err
            ms = triton.testing.do_bench(go, warmup=25, rep=100)
            print(f"fp8 {n}^3 {config_name(config)}: {'PASS' if ok else 'FAIL'} max err {err:.3f} "
                  f"(cuBLAS {vendor_err:.3f}); hwx {ms:.4f} ms ({2 * n ** 3 / ms * 1e-9:.0f} TFLOP/s), "
                  f"_scaled_mm(use_fast_accum={fast}) {vendor_ms:.4f} ms "
                  f"({2 * n ** 3 / vendor_ms * 1e-9:.0f}), hwx/cuBLAS time {ms / vendor_ms:.3f}",
                  flush=True)


if __name__ == "__main__":
    # --run [N ...] [words]: square sizes to check and time (512, 4096, 8192
    # by default), only the configs whose names hold one of the words.
    sizes = [int(a) for a in sys.argv[1:] if a.isdigit()]
    words = [a for a in sys.argv[1:] if not a.isdigit() and not a.startswith("--")]
    if "--run-fp8" in sys.argv:
        sys.exit(run_fp8(sizes))
    sys.exit(run(sizes, words) if "--run" in sys.argv else compile_only())
