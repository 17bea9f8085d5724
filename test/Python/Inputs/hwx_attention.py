"""Flash-attention forward written with hwx, warp-specialised: a producer
task of one warp loads Q once and streams K and V blocks by TMA into a
ring each of STAGES slots (a `full` and an `empty` mbarrier per slot); the
kernel's own warps compute S = Q Kᵀ on the tensor cores (K read transposed
from its slot), the online softmax in registers, and O += P V with P from
registers.
One program per BLOCK_M query rows of one (batch, head); Q, K, V, O are
[Z*H*N_CTX, HEAD_DIM] row-major; N_CTX a multiple of BLOCK_M and BLOCK_N.

    python3 hwx_attention.py          # compile for cuda:90 (no GPU), check the PTX
    python3 hwx_attention.py --run [d128] [persistent ...]   # on a GPU: check against torch, time it beside cuDNN
"""
import functools
import statistics
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import kiln.triton
from kiln.language import hwx


@triton.jit
def _softmax_step(qk, m_i, l_i, j, offs_m, qk_scale, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # Online softmax of key block j: (P, the rescale of what came before,
    # the new row maxima and sums).
    if CAUSAL:
        cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
        qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
    m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
    p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
    alpha = tl.math.exp2(m_i - m_ij)
    return p, alpha, m_ij, l_i * alpha + tl.sum(p, 1)


@triton.jit
def _blocks_of(start_m, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               CAUSAL: tl.constexpr):
    # Key blocks of query block start_m: up to and including the diagonal
    # under a causal mask.
    return tl.cdiv((start_m + 1) * BLOCK_M if CAUSAL else N_CTX, BLOCK_N)


@triton.jit
def _unmasked_blocks(first_row, n_blocks, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # Key blocks (from 0) a causal mask leaves whole for query rows from
    # first_row on: every column at most first_row.
    return (first_row + 1) // BLOCK_N if CAUSAL else n_blocks


@triton.jit
def _load_q(q_desc, q_buf, first, q_bar, q_row, PARTS: tl.constexpr, HEAD_DIM: tl.constexpr):
    # PARTS boxes of q_desc's block from q_row into q_buf[first], q_buf[first
    # + 1], ..., completing on q_bar.
    rows: tl.constexpr = q_desc.block_shape[0]
    hwx.barrier_expect(q_bar, PARTS * rows * HEAD_DIM * q_desc.dtype.primitive_bitwidth // 8)
    for p in tl.static_range(PARTS):
        hwx.async_load(q_desc, [q_row + p * rows, 0], q_buf[first + p], q_bar)


@triton.jit
def _split_rings(dtype: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                 STAGES: tl.constexpr, CONSUMERS: tl.constexpr):
    # K and V in rings of their own, each slot with a `full` and an `empty`
    # mbarrier (one arrival per consumer warp group frees it): a block's K
    # is done with before its V (in ping-pong, a turn before), and its slot
    # refills that much sooner.
    return (hwx.alloc([BLOCK_N, HEAD_DIM], dtype, STAGES), hwx.alloc([BLOCK_N, HEAD_DIM], dtype, STAGES),
            hwx.alloc_barriers(STAGES), hwx.alloc_barriers(STAGES, count=CONSUMERS),
            hwx.alloc_barriers(STAGES), hwx.alloc_barriers(STAGES, count=CONSUMERS))


@triton.jit
def _ring_load(desc, row, bufs, full, empty, i, STAGES: tl.constexpr):
    # desc's block at row into ring position i, once the consumers freed
    # its slot (i // STAGES fills of it ago).
    s = i % STAGES
    hwx.barrier_wait(empty[s], ((i // STAGES) & 1) ^ 1)
    hwx.barrier_expect(full[s], desc.block_shape[0] * desc.block_shape[1] *
                       desc.dtype.primitive_bitwidth // 8)
    hwx.async_load(desc, [row, 0], bufs[s], full[s])


@triton.jit
def _split_producer(k_desc, v_desc, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, row0, it,
                    n_blocks, BLOCK_N: tl.constexpr, STAGES: tl.constexpr):
    # A tile's n_blocks key and value blocks at ring positions it, it + 1,
    # ...; K of block j + 1 before V of block j, the order the turns use them.
    _ring_load(k_desc, row0, k_bufs, k_full, k_empty, it, STAGES)
    for j in range(n_blocks):
        if j + 1 < n_blocks:
            _ring_load(k_desc, row0 + (j + 1) * BLOCK_N, k_bufs, k_full, k_empty, it + j + 1, STAGES)
        _ring_load(v_desc, row0 + j * BLOCK_N, v_bufs, v_full, v_empty, it + j, STAGES)


@triton.jit
def _attn_block(j, q, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, acc, m_i, l_i, offs_m,
                qk_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGES: tl.constexpr,
                MASK: tl.constexpr):
    # Key block j from its slots: S = Q Kᵀ, the online softmax (the causal
    # mask where MASK), O += P V; each slot goes back to the producer as
    # soon as its product has retired.
    s = j % STAGES
    phase = (j // STAGES) & 1
    hwx.barrier_wait(k_full[s], phase)
    qk = hwx.async_dot(q, hwx.trans(k_bufs[s]), tl.zeros([BLOCK_M, BLOCK_N], tl.float32))
    qk = hwx.async_dot_wait(qk, 0)
    hwx.barrier_arrive(k_empty[s], per_warp_group=True)
    p, alpha, m_i, l_i = _softmax_step(qk, m_i, l_i, j, offs_m, qk_scale, BLOCK_N, MASK)
    acc = acc * alpha[:, None]
    hwx.barrier_wait(v_full[s], phase)
    acc = hwx.async_dot(p.to(v_bufs.dtype), v_bufs[s], acc)
    acc = hwx.async_dot_wait(acc, 0)
    hwx.barrier_arrive(v_empty[s], per_warp_group=True)
    return acc, m_i, l_i


@triton.jit
def hwx_attn_fwd_kernel(q_desc, k_desc, v_desc, o_desc, sm_scale, N_CTX,
                        HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        STAGES: tl.constexpr, CAUSAL: tl.constexpr, CONSUMER_GROUPS: tl.constexpr,
                        OVERLAP: tl.constexpr):
    # OVERLAP: Q Kᵀ of block j + 1 is issued before P V of block j, and the
    # softmax of j + 1 runs while P V of j is still on the tensor cores.
    start_m = tl.program_id(0)
    row0 = tl.program_id(1) * N_CTX          # the (batch, head)'s first row
    dtype = q_desc.dtype
    q_buf = hwx.alloc([BLOCK_M, HEAD_DIM], dtype)
    q_bar = hwx.alloc_barriers(1)
    k_bufs, v_bufs, k_full, k_empty, v_full, v_empty = _split_rings(dtype, BLOCK_N, HEAD_DIM,
                                                                    STAGES, CONSUMER_GROUPS)
    n_blocks = _blocks_of(start_m, N_CTX, BLOCK_M, BLOCK_N, CAUSAL)
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1, registers=24):
            _load_q(q_desc, q_buf, 0, q_bar[0], row0 + start_m * BLOCK_M, 1, HEAD_DIM)
            _split_producer(k_desc, v_desc, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, row0,
                            0, n_blocks, BLOCK_N, STAGES)
        with hwx.async_task("default"):
            qk_scale = sm_scale * 1.44269504   # exp2 of scores times log2(e)
            offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
            m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
            l_i = tl.zeros([BLOCK_M], tl.float32)
            acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
            hwx.barrier_wait(q_bar[0], 0)
            if OVERLAP:
                hwx.barrier_wait(k_full[0], 0)
                qk = hwx.async_dot(q_buf[0], hwx.trans(k_bufs[0]),
                                   tl.zeros([BLOCK_M, BLOCK_N], tl.float32))
                qk = hwx.async_dot_wait(qk, 0)
                hwx.barrier_arrive(k_empty[0], per_warp_group=True)
                p, alpha, m_i, l_i = _softmax_step(qk, m_i, l_i, 0, offs_m, qk_scale, BLOCK_N, CAUSAL)
                for j in range(n_blocks - 1):
                    s = j % STAGES
                    nxt = (j + 1) % STAGES
                    acc = acc * alpha[:, None]
                    hwx.barrier_wait(k_full[nxt], ((j + 1) // STAGES) & 1)
                    hwx.barrier_wait(v_full[s], (j // STAGES) & 1)
                    qk = hwx.async_dot(q_buf[0], hwx.trans(k_bufs[nxt]),
                                       tl.zeros([BLOCK_M, BLOCK_N], tl.float32))
                    acc = hwx.async_dot(p.to(dtype), v_bufs[s], acc)
                    # Q Kᵀ of j + 1 has retired (P V of j may still run).
                    qk = hwx.async_dot_wait(qk, 1)
                    hwx.barrier_arrive(k_empty[nxt], per_warp_group=True)
                    p, alpha, m_i, l_i = _softmax_step(qk, m_i, l_i, j + 1, offs_m, qk_scale,
                                                       BLOCK_N, CAUSAL)
                    acc = hwx.async_dot_wait(acc, 0)
                    hwx.barrier_arrive(v_empty[s], per_warp_group=True)
                last = (n_blocks - 1) % STAGES
                acc = acc * alpha[:, None]
                hwx.barrier_wait(v_full[last], ((n_blocks - 1) // STAGES) & 1)
                acc = hwx.async_dot(p.to(dtype), v_bufs[last], acc)
                acc = hwx.async_dot_wait(acc, 0)
                hwx.barrier_arrive(v_empty[last], per_warp_group=True)
            else:
                diagonal = _unmasked_blocks(start_m * BLOCK_M, n_blocks, BLOCK_N, CAUSAL)
                for j in range(diagonal):
                    acc, m_i, l_i = _attn_block(j, q_buf[0], k_bufs, v_bufs, k_full, k_empty, v_full,
                                                v_empty, acc, m_i, l_i, offs_m, qk_scale, BLOCK_M,
                                                BLOCK_N, STAGES, False)
                if CAUSAL:
                    for j in range(diagonal, n_blocks):
                        acc, m_i, l_i = _attn_block(j, q_buf[0], k_bufs, v_bufs, k_full, k_empty,
                                                    v_full, v_empty, acc, m_i, l_i, offs_m,
                                                    qk_scale, BLOCK_M, BLOCK_N, STAGES, True)
            out = acc / l_i[:, None]
            o_desc.store([row0 + start_m * BLOCK_M, 0], out.to(dtype))


@triton.jit
def _pingpong_turn(r, q, k_buf, k_free, v_buf, p, alpha, acc, m_i, l_i, j, offs_m, qk_scale,
                   HALF: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # Consumer r's turn at the tensor cores: Q Kᵀ of key block j (k_buf)
    # and P V of block j - 1 (v_buf); then, while P V runs, the softmax of
    # block j. K's slot is freed (k_free) as soon as Q Kᵀ retires. Returns
    # with both products retired.
    hwx.named_barrier_wait(8 + r, 256)
    qk = hwx.async_dot(q, hwx.trans(k_buf), tl.zeros([HALF, BLOCK_N], tl.float32))
    acc = hwx.async_dot(p.to(v_buf.dtype), v_buf, acc * alpha[:, None])
    hwx.named_barrier_arrive(9 - r, 256)
    qk = hwx.async_dot_wait(qk, 1)
    hwx.barrier_arrive(k_free, per_warp_group=True)
    p, alpha, m_i, l_i = _softmax_step(qk, m_i, l_i, j, offs_m, qk_scale, BLOCK_N, CAUSAL)
    acc = hwx.async_dot_wait(acc, 0)
    return p, alpha, acc, m_i, l_i


@triton.jit
def _pingpong_turns(r, q, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, p, alpha, acc, m_i, l_i,
                    it, lo, hi, offs_m, qk_scale, HALF: tl.constexpr, BLOCK_N: tl.constexpr,
                    STAGES: tl.constexpr, MASK: tl.constexpr):
    # Turns for key blocks lo .. hi - 1 (ring positions it + j), masked
    # where MASK.
    for j in range(lo, hi):
        s = (it + j) % STAGES
        prev = (it + j - 1) % STAGES
        hwx.barrier_wait(k_full[s], ((it + j) // STAGES) & 1)
        hwx.barrier_wait(v_full[prev], ((it + j - 1) // STAGES) & 1)
        p, alpha, acc, m_i, l_i = _pingpong_turn(r, q, k_bufs[s], k_empty[s], v_bufs[prev], p, alpha,
                                                 acc, m_i, l_i, j, offs_m, qk_scale, HALF, BLOCK_N,
                                                 MASK)
        hwx.barrier_arrive(v_empty[prev], per_warp_group=True)
    return p, alpha, acc, m_i, l_i


@triton.jit
def _pingpong_tile(r, q, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, o_desc, sm_scale, row0,
                   first_row, it, n_blocks, more, HEAD_DIM: tl.constexpr, HALF: tl.constexpr,
                   BLOCK_N: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr):
    # Consumer r (a warp group) on its HALF query rows of one tile (from
    # first_row of the (batch, head) at row0; its Q in q), against n_blocks
    # key blocks at ring positions it, it + 1, ... The two groups take
    # turns at the tensor cores (named barriers 8 + r, both groups
    # counted): one issues its products while the other does its softmax.
    # A turn issues Q Kᵀ of block j and P V of block j - 1. more: another
    # tile follows in this program, whose first turn takes this one's
    # last arrival (every wait has its arrival).
    dtype = o_desc.dtype
    qk_scale = sm_scale * 1.44269504   # exp2 of scores times log2(e)
    offs_m = first_row + tl.arange(0, HALF)
    m_i = tl.full([HALF], float("-inf"), tl.float32)
    l_i = tl.zeros([HALF], tl.float32)
    acc = tl.zeros([HALF, HEAD_DIM], tl.float32)
    s = it % STAGES
    hwx.barrier_wait(k_full[s], (it // STAGES) & 1)
    hwx.named_barrier_wait(8 + r, 256)
    qk = hwx.async_dot(q, hwx.trans(k_bufs[s]), tl.zeros([HALF, BLOCK_N], tl.float32))
    hwx.named_barrier_arrive(9 - r, 256)
    qk = hwx.async_dot_wait(qk, 0)
    hwx.barrier_arrive(k_empty[s], per_warp_group=True)
    p, alpha, m_i, l_i = _softmax_step(qk, m_i, l_i, 0, offs_m, qk_scale, BLOCK_N, CAUSAL)
    diagonal = _unmasked_blocks(first_row, n_blocks, BLOCK_N, CAUSAL)
    p, alpha, acc, m_i, l_i = _pingpong_turns(r, q, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty,
                                              p, alpha, acc, m_i, l_i, it, 1, diagonal, offs_m,
                                              qk_scale, HALF, BLOCK_N, STAGES, False)
    if CAUSAL:
        p, alpha, acc, m_i, l_i = _pingpong_turns(r, q, k_bufs, v_bufs, k_full, k_empty, v_full,
                                                  v_empty, p, alpha, acc, m_i, l_i, it,
                                                  tl.maximum(diagonal, 1), n_blocks, offs_m,
                                                  qk_scale, HALF, BLOCK_N, STAGES, True)
    last = (it + n_blocks - 1) % STAGES
    hwx.barrier_wait(v_full[last], ((it + n_blocks - 1) // STAGES) & 1)
    hwx.named_barrier_wait(8 + r, 256)
    acc = hwx.async_dot(p.to(dtype), v_bufs[last], acc * alpha[:, None])
    if (r == 0) | more:
        hwx.named_barrier_arrive(9 - r, 256)
    acc = hwx.async_dot_wait(acc, 0)
    hwx.barrier_arrive(v_empty[last], per_warp_group=True)
    out = acc / l_i[:, None]
    o_desc.store([row0 + first_row, 0], out.to(dtype))


@triton.jit
def hwx_attn_pingpong_kernel(q_desc, k_desc, v_desc, o_desc, sm_scale, N_CTX,
                             HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             STAGES: tl.constexpr, CAUSAL: tl.constexpr):
    # BLOCK_M query rows a program, half for each of two consumer warp
    # groups (the kernel's 4 warps and a task of 4), FlashAttention-3's
    # ping-pong; a one-warp producer streams K and V.
    HALF: tl.constexpr = BLOCK_M // 2
    start_m = tl.program_id(0)
    row0 = tl.program_id(1) * N_CTX
    dtype = q_desc.dtype
    q_buf = hwx.alloc([HALF, HEAD_DIM], dtype, 2)
    q_bar = hwx.alloc_barriers(1)
    k_bufs, v_bufs, k_full, k_empty, v_full, v_empty = _split_rings(dtype, BLOCK_N, HEAD_DIM,
                                                                    STAGES, 2)
    n_blocks = _blocks_of(start_m, N_CTX, BLOCK_M, BLOCK_N, CAUSAL)
    with hwx.async_tasks():
        # The producer gives back what the consumers take: 24 + 240 + 240
        # registers a thread over the three warp groups.
        with hwx.async_task(num_warps=1, registers=24):
            _load_q(q_desc, q_buf, 0, q_bar[0], row0 + start_m * BLOCK_M, 2, HEAD_DIM)
            _split_producer(k_desc, v_desc, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, row0,
                            0, n_blocks, BLOCK_N, STAGES)
        with hwx.async_task("default"):
            hwx.barrier_wait(q_bar[0], 0)
            _pingpong_tile(0, q_buf[0], k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, o_desc,
                           sm_scale, row0, start_m * BLOCK_M, 0, n_blocks, False, HEAD_DIM, HALF,
                           BLOCK_N, STAGES, CAUSAL)
        with hwx.async_task(num_warps=4, registers=240):
            hwx.barrier_wait(q_bar[0], 0)
            hwx.named_barrier_arrive(8, 256)   # consumer 0 goes first
            _pingpong_tile(1, q_buf[1], k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, o_desc,
                           sm_scale, row0, start_m * BLOCK_M + HALF, 0, n_blocks, False, HEAD_DIM,
                           HALF, BLOCK_N, STAGES, CAUSAL)


@triton.jit
def _attn_tile(t, num_m):
    # Tile t of a persistent program: (batch, head) after (batch, head),
    # each's query blocks from the last (the longest under a causal mask)
    # to the first. Programs running side by side then share a few heads'
    # K and V in L2; walking query blocks over every head first (132
    # programs on 132 heads) ran 1.5 times slower (bench/NOTES.md).
    return num_m - 1 - t % num_m, t // num_m


@triton.jit
def hwx_attn_persistent_kernel(q_desc, k_desc, v_desc, o_desc, sm_scale, N_CTX, ZH,
                               HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                               BLOCK_N: tl.constexpr, STAGES: tl.constexpr, CAUSAL: tl.constexpr):
    # The ping-pong kernel made persistent: as many programs as SMs, each
    # walking (query block, batch x head) tiles. Two Q slots (free once
    # both consumers are done with the tile two before) let the next
    # tile's Q arrive while this one's runs; the K and V rings' positions
    # and the consumers' turns run on from one tile to the next, so one
    # consumer's epilogue and the next tile's first product overlap the
    # other's work.
    HALF: tl.constexpr = BLOCK_M // 2
    num_m = N_CTX // BLOCK_M
    tiles = num_m * ZH
    dtype = q_desc.dtype
    q_buf = hwx.alloc([HALF, HEAD_DIM], dtype, 4)   # [2 * Q slot + consumer]
    q_full = hwx.alloc_barriers(2)
    q_empty = hwx.alloc_barriers(2, count=2)
    k_bufs, v_bufs, k_full, k_empty, v_full, v_empty = _split_rings(dtype, BLOCK_N, HEAD_DIM,
                                                                    STAGES, 2)
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1, registers=24):
            i = 0
            it = 0
            for t in range(tl.program_id(0), tiles, tl.num_programs(0)):
                start_m, off_hz = _attn_tile(t, num_m)
                q = i % 2
                hwx.barrier_wait(q_empty[q], ((i // 2) & 1) ^ 1)
                _load_q(q_desc, q_buf, 2 * q, q_full[q], off_hz * N_CTX + start_m * BLOCK_M, 2,
                        HEAD_DIM)
                n_blocks = _blocks_of(start_m, N_CTX, BLOCK_M, BLOCK_N, CAUSAL)
                _split_producer(k_desc, v_desc, k_bufs, v_bufs, k_full, k_empty, v_full, v_empty,
                                off_hz * N_CTX, it, n_blocks, BLOCK_N, STAGES)
                it += n_blocks
                i += 1
        with hwx.async_task("default"):
            _persistent_consumer(0, q_buf, q_full, q_empty, k_bufs, v_bufs, k_full, k_empty, v_full,
                                 v_empty, o_desc, sm_scale, N_CTX, tiles, num_m, HEAD_DIM, BLOCK_M,
                                 BLOCK_N, STAGES, CAUSAL)
        with hwx.async_task(num_warps=4, registers=240):
            if tl.program_id(0) < tiles:   # a program without tiles leaves no arrival behind
                hwx.named_barrier_arrive(8, 256)   # consumer 0 goes first
            _persistent_consumer(1, q_buf, q_full, q_empty, k_bufs, v_bufs, k_full, k_empty, v_full,
                                 v_empty, o_desc, sm_scale, N_CTX, tiles, num_m, HEAD_DIM, BLOCK_M,
                                 BLOCK_N, STAGES, CAUSAL)


@triton.jit
def _persistent_consumer(r, q_buf, q_full, q_empty, k_bufs, v_bufs, k_full, k_empty, v_full,
                         v_empty, o_desc, sm_scale, N_CTX, tiles, num_m, HEAD_DIM: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGES: tl.constexpr,
                         CAUSAL: tl.constexpr):
    # Consumer r over the program's tiles.
    i = 0
    it = 0
    for t in range(tl.program_id(0), tiles, tl.num_programs(0)):
        start_m, off_hz = _attn_tile(t, num_m)
        n_blocks = _blocks_of(start_m, N_CTX, BLOCK_M, BLOCK_N, CAUSAL)
        q = i % 2
        hwx.barrier_wait(q_full[q], (i // 2) & 1)
        _pingpong_tile(r, q_buf[2 * q + r], k_bufs, v_bufs, k_full, k_empty, v_full, v_empty, o_desc,
                       sm_scale, off_hz * N_CTX, start_m * BLOCK_M + r * (BLOCK_M // 2), it,
                       n_blocks, t + tl.num_programs(0) < tiles, HEAD_DIM, BLOCK_M // 2, BLOCK_N,
                       STAGES, CAUSAL)
        # This consumer is done with the tile's Q.
        hwx.barrier_arrive(q_empty[q], per_warp_group=True)
        it += n_blocks
        i += 1


CONFIGS = [dict(BLOCK_M=128, BLOCK_N=128, STAGES=2, num_warps=8, OVERLAP=False),
           dict(BLOCK_M=128, BLOCK_N=64, STAGES=3, num_warps=8, OVERLAP=False),
           dict(BLOCK_M=128, BLOCK_N=128, STAGES=2, num_warps=8, OVERLAP=True),
           dict(BLOCK_M=128, BLOCK_N=64, STAGES=4, num_warps=8, OVERLAP=True),
           # Ping-pong: num_warps is one consumer's; the other brings 4 more.
           dict(BLOCK_M=128, BLOCK_N=128, STAGES=2, num_warps=4, schedule="pingpong"),
           dict(BLOCK_M=128, BLOCK_N=64, STAGES=3, num_warps=4, schedule="pingpong"),
           # Ping-pong, persistent: one program per SM.
           dict(BLOCK_M=128, BLOCK_N=128, STAGES=2, num_warps=4, schedule="persistent"),
           dict(BLOCK_M=128, BLOCK_N=64, STAGES=3, num_warps=4, schedule="persistent")]


def is_pingpong(config):
    """Whether two consumer warp groups own half of BLOCK_M each."""
    return config.get("schedule") in ("pingpong", "persistent")


def is_persistent(config):
    return config.get("schedule") == "persistent"


def config_name(config):
    return (f"{config['BLOCK_M']}x{config['BLOCK_N']} w{config['num_warps']} s{config['STAGES']}"
            + (" overlap" if config.get("OVERLAP") else "")
            + (f" {config['schedule']}" if is_pingpong(config) else ""))


def kernel_of(config):
    if is_persistent(config):
        return hwx_attn_persistent_kernel
    return hwx_attn_pingpong_kernel if is_pingpong(config) else hwx_attn_fwd_kernel


def constexprs(config, head_dim, causal):
    values = dict({k: v for k, v in config.items() if k not in ("num_warps", "schedule")},
                  HEAD_DIM=head_dim, CAUSAL=causal)
    return values if is_pingpong(config) else dict(values, CONSUMER_GROUPS=config["num_warps"] // 4)


def signature(config, head_dim, dtype="fp16"):
    rows = config["BLOCK_M"] // 2 if is_pingpong(config) else config["BLOCK_M"]
    qo = f"tensordesc<{dtype}[{rows}, {head_dim}]>"
    kv = f"tensordesc<{dtype}[{config['BLOCK_N']}, {head_dim}]>"
    return dict({"q_desc": qo, "k_desc": kv, "v_desc": kv, "o_desc": qo, "sm_scale": "fp32",
                 "N_CTX": "i32"}, **({"ZH": "i32"} if is_persistent(config) else {}))


def launch(config, descs, sm_scale, Z, H, N, head_dim, causal, sms):
    """Launches the config's kernel over (Z, H, N) attention."""
    kernel, bm = kernel_of(config), config["BLOCK_M"]
    options = dict(constexprs(config, head_dim, causal), num_warps=config["num_warps"])
    if is_persistent(config):
        return kernel[(min(sms, N // bm * Z * H),)](*descs, sm_scale, N, Z * H, **options)
    return kernel[(N // bm, Z * H)](*descs, sm_scale, N, **options)


def compile_only():
    kiln.triton.enable()
    for head_dim in (64, 128):
        for causal in (False, True):
            for config in CONFIGS[0::2]:   # plain, overlapped, ping-pong, persistent
                src = ASTSource(kernel_of(config), signature(config, head_dim),
                                constexprs=constexprs(config, head_dim, causal))
                kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                                        options={"num_warps": config["num_warps"]})
                assert kernel.metadata.compiler == "kiln"
                ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
                assert "ttg.warp_specialize" in ttgir and "ttg.memdesc_trans" in ttgir, ttgir
                assert ptx.count("wgmma.mma_async") >= 2 and "cp.async.bulk.tensor.2d" in ptx
                # Overlapped, Q Kᵀ of the next block retires while P V runs.
                waits = sorted({l.split()[-1].rstrip(";") for l in ptx.splitlines()
                                if "wgmma.wait_group" in l})
                moves = sorted({" ".join(l.split()[0].split(".")[1:2] + [l.split()[-1].rstrip(";")])
                                for l in ptx.splitlines() if l.strip().startswith("setmaxnreg.")})
                print(f"hwx attention d{head_dim}{' causal' if causal else ''} "
                      f"{config_name(config)}: {kernel.metadata.shared} bytes of shared memory, "
                      f"{ptx.count('mbarrier.init')} mbarriers, "
                      f"{kernel.metadata.num_warps} warps, wgmma waits {' '.join(waits)}, "
                      f"setmaxnreg {', '.join(moves) or '-'}")


ROUNDS = 3   # --run: timing rounds, cuDNN and every config in turn


def run(picks):
    """fp16, (Z, H, N_CTX) = (4, 32, 4096) and (1, 32, 16384), d64 and d128,
    causal and not; each config checked against torch, then timed beside
    cuDNN (scaled_dot_product_attention with the cuDNN backend). picks:
    head dims (d64, d128) and words of config names (plain, pingpong,
    persistent, ...) to keep to; none keeps all."""
    dims = [int(p[1:]) for p in picks if p in ("d64", "d128")] or [64, 128]
    words = [p for p in picks if p not in ("d64", "d128")]
    # A config's words: its name, and "plain" for the loop without overlap or ping-pong.
    described = {id(c): config_name(c) + ("" if is_pingpong(c) or c.get("OVERLAP") else " plain")
                 for c in CONFIGS}
    configs = [c for c in CONFIGS if not words or any(w in described[id(c)] for w in words)]
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from triton.tools.tensor_descriptor import TensorDescriptor
    kiln.triton.enable()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for Z, H, N in ((4, 32, 4096), (1, 32, 16384)):
        for head_dim in dims:
            for causal in (False, True):
                q, k, v = (torch.randn(Z * H * N, head_dim, device="cuda", dtype=torch.float16)
                           for _ in range(3))
                o = torch.empty_like(q)
                sm_scale = head_dim ** -0.5
                shape = lambda t: t.view(Z, H, N, head_dim)
                sdpa = torch.nn.functional.scaled_dot_product_attention
                ref = sdpa(shape(q), shape(k), shape(v), is_causal=causal,
                           scale=sm_scale).reshape(-1, head_dim)

                def cudnn():
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        sdpa(shape(q), shape(k), shape(v), is_causal=causal, scale=sm_scale)
                # Each config checked first; then cuDNN and the configs that
                # PASS timed in turn, ROUNDS times, each figure the median of
                # its rounds, so that clock drift weighs on all alike.
                runs, results = {"cuDNN": cudnn}, {}
                for config in configs:
                    bm, bn = config["BLOCK_M"], config["BLOCK_N"]
                    rows = bm // 2 if is_pingpong(config) else bm
                    descs = (TensorDescriptor.from_tensor(q, [rows, head_dim]),
                             TensorDescriptor.from_tensor(k, [bn, head_dim]),
                             TensorDescriptor.from_tensor(v, [bn, head_dim]),
                             TensorDescriptor.from_tensor(o, [rows, head_dim]))
                    go = functools.partial(launch, config, descs, sm_scale, Z, H, N, head_dim, causal, sms)
                    o.fill_(float("nan"))
                    go()
                    err = (o.float() - ref.float()).abs().max().item()
                    results[config_name(config)] = (err < 2e-2, err)    # NaN compares false
                    if err < 2e-2:
                        runs[config_name(config)] = go
                times = {name: [] for name in runs}
                for _ in range(ROUNDS):
                    for name, go in runs.items():
                        times[name].append(triton.testing.do_bench(go))
                ms = {name: statistics.median(t) for name, t in times.items()}
                flops = 4 * Z * H * N * N * head_dim * (0.5 if causal else 1.0)
                for name, (ok, err) in results.items():
                    case = f"N{N} d{head_dim}{' causal' if causal else ''} {name}"
                    if not ok:
                        print(f"{case}: FAIL max err {err:.4f}", flush=True)
                        continue
                    print(f"{case}: PASS max err {err:.4f}; hwx {flops / ms[name] * 1e-9:.0f} TFLOP/s, "
                          f"cuDNN {flops / ms['cuDNN'] * 1e-9:.0f}, "
                          f"hwx/cuDNN time {ms[name] / ms['cuDNN']:.3f}", flush=True)


if __name__ == "__main__":
    # --run [d64|d128] [words of config names]: check and time on a GPU.
    sys.exit(run([a for a in sys.argv[1:] if a != "--run"]) if "--run" in sys.argv else compile_only())
