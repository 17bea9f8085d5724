"""Tensor-core kernels in the style of Triton's tutorials (matmul, TMA
persistent matmul, fused attention, fp8 matmul), as a Triton user writes them.

Shared by the lit tests (compiled without a GPU, through
compile_check.py's `dot` kind) and by bench/gemm_side_by_side.py (launched
from PyTorch on the H200). Each entry of KERNELS says how to compile it
without a GPU (signature, constexprs, num_warps, num_stages, and which
integer arguments the launcher would see as multiples of 16), for which
targets the tests compile it, and, for the benchmark, how to make inputs,
launch it, compute a reference and compare.

The (h) kernels multiply block-scaled operands (`tl.dot_scaled`, mxfp8
and mxfp4), which kiln decomposes on sm_90 as Triton does.

The (e) kernels make their descriptors in the kernel
(`tl.make_tensor_descriptor`): their tensor maps live in global scratch
memory, which the launcher takes from the allocator their launch helper
installs with `triton.set_allocator`.
"""
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


# --- (a) blocked matmul, grouped program order --------------------------------

@triton.jit
def grouped_tile(pid, num_pid_m, num_pid_n, GROUP_SIZE_M: tl.constexpr):
    # Programs are numbered down columns of GROUP_SIZE_M row-blocks, so that
    # programs running together share the tiles of A and B they read in L2.
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    first_pid_m = pid // num_pid_in_group * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr, ACC_DTYPE: tl.constexpr):
    # C[M, N] = A[M, K] @ B[K, N], tiles in grouped order, accumulated in
    # ACC_DTYPE (float32, or float16 for half the accumulator registers).
    pid_m, pid_n = grouped_tile(tl.program_id(axis=0), tl.cdiv(M, BLOCK_SIZE_M), tl.cdiv(N, BLOCK_SIZE_N),
                                GROUP_SIZE_M)

    # Rows and columns past the edge wrap around (their results are never
    # stored), so only the K tail needs a mask in the loop.
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=ACC_DTYPE)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - k * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        accumulator = tl.dot(a, b, accumulator, out_dtype=ACC_DTYPE)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(c_ptr.dtype.element_ty)

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def matmul_grid(M, N, config):
    return (triton.cdiv(M, config["BLOCK_SIZE_M"]) * triton.cdiv(N, config["BLOCK_SIZE_N"]),)


def matmul(a, b, c, config, kernel=matmul_kernel):
    """c = a @ b with one config: BLOCK_SIZE_M/N/K, GROUP_SIZE_M, num_warps,
    num_stages (and optionally ACTIVATION, ACC_DTYPE). Returns the launched kernel."""
    M, K = a.shape
    K2, N = b.shape
    assert K == K2 and tuple(c.shape) == (M, N), f"shapes {tuple(a.shape)} @ {tuple(b.shape)} -> {tuple(c.shape)}"
    meta = dict(config)
    meta.setdefault("ACTIVATION", "")
    meta.setdefault("ACC_DTYPE", tl.float32)
    return kernel[matmul_grid(M, N, meta)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                    c.stride(0), c.stride(1), **meta)


# --- (b) persistent matmul over host-side TMA descriptors --------------------

@triton.jit
def matmul_tma_persistent_kernel(a_desc, b_desc, c_desc, M, N, K,
                                 BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                 BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                 NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr = False):
    # NUM_SMS programs walk the output tiles in the same grouped order as
    # matmul_kernel; the descriptors zero-fill reads past the edges and clip
    # the stores, so there are no masks. WARP_SPECIALIZE asks for a producer
    # of the loads apart from the warps doing the dots and the stores.
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True,
                            warp_specialize=WARP_SPECIALIZE):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_am = pid_m * BLOCK_SIZE_M
        offs_bn = pid_n * BLOCK_SIZE_N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_SIZE_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_k, offs_bn])
            accumulator = tl.dot(a, b, accumulator)
        c_desc.store([offs_am, offs_bn], accumulator.to(c_desc.dtype))


def matmul_tma_persistent(a, b, c, config, num_sms, warp_specialize=False):
    M, K = a.shape
    N = b.shape[1]
    bm, bn, bk = config["BLOCK_SIZE_M"], config["BLOCK_SIZE_N"], config["BLOCK_SIZE_K"]
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bk, bn])
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn])
    programs = min(num_sms, triton.cdiv(M, bm) * triton.cdiv(N, bn))
    return matmul_tma_persistent_kernel[(programs,)](a_desc, b_desc, c_desc, M, N, K, NUM_SMS=programs,
                                                     WARP_SPECIALIZE=warp_specialize, **config)


def matmul_tma_ws(a, b, c, config, warp_specialize=True):
    """The persistent TMA matmul on every SM of the device, warp-specialised
    unless asked otherwise (its tile and k loops then fused)."""
    import torch
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    return matmul_tma_persistent(a, b, c, config, sms, warp_specialize=warp_specialize)


# --- (c) fused attention forward, online softmax -----------------------------

@triton.jit
def _online_softmax(qk, m_i, l_i, acc, qk_scale, offs_m, cols, STAGE: tl.constexpr):
    # One key block of the online softmax: the new row maxima, the block's
    # probabilities, and the sums and accumulator rescaled to the new maxima
    # (STAGE 2 masks the keys past the query row: the causal diagonal).
    if STAGE == 2:
        causal = offs_m[:, None] >= cols[None, :]
        qk = qk * qk_scale + tl.where(causal, 0, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk -= m_ij[:, None]
    else:
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
    # Base-2 exponentials: qk_scale carries the factor log2(e).
    p = tl.math.exp2(qk)
    alpha = tl.math.exp2(m_i - m_ij)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None]
    return p, m_ij, l_i, acc


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, start_m, qk_scale,
                    offs_m, offs_n, offs_d, N_CTX,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    # STAGE 1: the key blocks left of the diagonal (no mask); STAGE 2: the
    # blocks on it (causal mask); STAGE 3: every block (not causal).
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    for start_n in tl.range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # K is read transposed, [HEAD_DIM, BLOCK_N], for q @ k.
        k = tl.load(k_base + offs_d[:, None] + (start_n + offs_n)[None, :] * stride_kn)
        qk = tl.dot(q, k)
        p, m_ij, l_i, acc = _online_softmax(qk, m_i, l_i, acc, qk_scale, offs_m, start_n + offs_n, STAGE)
        v = tl.load(v_base + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attn_fwd_kernel(Q, K, V, sm_scale, M, Out,
                    stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn,
                    stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om,
                    H, N_CTX,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    CAUSAL: tl.constexpr):
    # One program per BLOCK_M query rows of one (batch, head); the last
    # dimension of Q, K, V, Out is contiguous and N_CTX a multiple of BLOCK_M
    # (a multiple of BLOCK_N).
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = (off_hz // H).to(tl.int64)
    off_h = (off_hz % H).to(tl.int64)
    q_base = Q + off_z * stride_qz + off_h * stride_qh
    k_base = K + off_z * stride_kz + off_h * stride_kh
    v_base = V + off_z * stride_vz + off_h * stride_vh
    o_base = Out + off_z * stride_oz + off_h * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1 / ln(2)
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :])
    if CAUSAL:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, start_m,
                                        qk_scale, offs_m, offs_n, offs_d, N_CTX, BLOCK_M, BLOCK_N, 1)
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, start_m,
                                        qk_scale, offs_m, offs_n, offs_d, N_CTX, BLOCK_M, BLOCK_N, 2)
    else:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base, stride_kn, stride_vn, start_m,
                                        qk_scale, offs_m, offs_n, offs_d, N_CTX, BLOCK_M, BLOCK_N, 3)
    # M keeps the row's log-sum-exp (base 2, scaled) for a backward pass.
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(Out.type.element_ty))


def attention(q, k, v, o, m, sm_scale, causal, config):
    """o = softmax(q @ k^T * sm_scale [causal]) @ v for [Z, H, N_CTX, HEAD_DIM]
    tensors; m is [Z, H, N_CTX] float32. config: BLOCK_M, BLOCK_N, num_warps,
    num_stages. Returns the launched kernel."""
    Z, H, n_ctx, head_dim = q.shape
    assert n_ctx % config["BLOCK_M"] == 0 and config["BLOCK_M"] % config["BLOCK_N"] == 0, \
        f"N_CTX {n_ctx} must be a multiple of BLOCK_M, itself a multiple of BLOCK_N"
    grid = (n_ctx // config["BLOCK_M"], Z * H)
    return attn_fwd_kernel[grid](q, k, v, sm_scale, m, o,
                          q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
                          v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2),
                          H, n_ctx, HEAD_DIM=head_dim, CAUSAL=causal, **config)


# --- (c') fused attention forward over TMA descriptors -----------------------

@triton.jit
def _attn_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, kv_row, start_m, qk_scale, offs_m, N_CTX,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                     WARP_SPECIALIZE: tl.constexpr):
    # The stages of _attn_fwd_inner; K and V blocks come through descriptors
    # over the [Z * H * N_CTX, HEAD_DIM] views, so a warp-specialised loop
    # has a producer stream them.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
    else:
        lo, hi = 0, N_CTX
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        k = desc_k.load([kv_row + start_n, 0])
        qk = tl.dot(q, k.T)
        p, m_ij, l_i, acc = _online_softmax(qk, m_i, l_i, acc, qk_scale, offs_m, start_n + offs_n, STAGE)
        v = desc_v.load([kv_row + start_n, 0])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attn_fwd_desc_kernel(desc_q, desc_k, desc_v, desc_o, sm_scale, M, H, N_CTX,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         CAUSAL: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    # attn_fwd_kernel with Q, K, V and Out as TMA descriptors; with
    # WARP_SPECIALIZE the key loops are warp-specialised (the causal kernel
    # has two of them).
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    row = off_hz * N_CTX + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([row, 0])
    kv_row = off_hz * N_CTX
    if CAUSAL:
        acc, l_i, m_i = _attn_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, kv_row, start_m, qk_scale,
                                         offs_m, N_CTX, BLOCK_M, BLOCK_N, 1, WARP_SPECIALIZE)
        acc, l_i, m_i = _attn_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, kv_row, start_m, qk_scale,
                                         offs_m, N_CTX, BLOCK_M, BLOCK_N, 2, WARP_SPECIALIZE)
    else:
        acc, l_i, m_i = _attn_desc_inner(acc, l_i, m_i, q, desc_k, desc_v, kv_row, start_m, qk_scale,
                                         offs_m, N_CTX, BLOCK_M, BLOCK_N, 3, WARP_SPECIALIZE)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    desc_o.store([row, 0], acc.to(desc_o.dtype))


def attention_desc(q, k, v, o, m, sm_scale, causal, config):
    """attention() through TMA descriptors; config may set WARP_SPECIALIZE."""
    Z, H, n_ctx, head_dim = q.shape
    bm, bn = config["BLOCK_M"], config["BLOCK_N"]
    assert n_ctx % bm == 0 and bm % bn == 0

    def desc(t, rows):
        return TensorDescriptor.from_tensor(t.reshape(Z * H * n_ctx, head_dim), [rows, head_dim])
    config = dict(config)
    config.setdefault("WARP_SPECIALIZE", False)
    grid = (n_ctx // bm, Z * H)
    return attn_fwd_desc_kernel[grid](desc(q, bm), desc(k, bn), desc(v, bn), desc(o, bm), sm_scale, m, H,
                                      n_ctx, HEAD_DIM=head_dim, CAUSAL=causal, **config)


# --- (d) fp8 matmul ----------------------------------------------------------

@triton.jit
def matmul_fp8_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                      GROUP_SIZE_M: tl.constexpr):
    # C[M, N] (f16) = A[M, K] @ B[N, K]^T in float8e4nv, f32 accumulation.
    # B is stored K-contiguous, as fp8 weights usually are: fp8 tensor-core
    # operands are read K-major. K is a multiple of BLOCK_SIZE_K.
    pid_m, pid_n = grouped_tile(tl.program_id(axis=0), tl.cdiv(M, BLOCK_SIZE_M), tl.cdiv(N, BLOCK_SIZE_N),
                                GROUP_SIZE_M)

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_bn[None, :] * stride_bn + offs_k[:, None]
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], accumulator.to(tl.float16), mask=c_mask)


def matmul_fp8(a, b_t, c, config):
    M, K = a.shape
    N = b_t.shape[0]
    assert K % config["BLOCK_SIZE_K"] == 0, f"K {K} must be a multiple of BLOCK_SIZE_K"
    return matmul_fp8_kernel[matmul_grid(M, N, config)](a, b_t, c, M, N, K, a.stride(0), b_t.stride(0), c.stride(0),
                                                 **config)


@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                             BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                             NUM_SMS: tl.constexpr):
    # The blocked matmul with pointers, NUM_SMS programs walking the tiles:
    # with 128x256x128 blocks and 4 stages its rings would not fit in
    # shared memory, so the pipeliner gives it fewer stages.
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    for tile in tl.range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS, flatten=True):
        pid_m, pid_n = grouped_tile(tile, num_pid_m, num_pid_n, GROUP_SIZE_M)
        offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
        offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            k_left = K - k * BLOCK_SIZE_K
            a = tl.load(a_ptr + offs_am[:, None] * stride_am + (k * BLOCK_SIZE_K + offs_k)[None, :],
                        mask=offs_k[None, :] < k_left, other=0.0)
            b = tl.load(b_ptr + (k * BLOCK_SIZE_K + offs_k)[:, None] * stride_bk + offs_bn[None, :],
                        mask=offs_k[:, None] < k_left, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], accumulator.to(tl.float16), mask=mask)


def matmul_persistent(a, b, c, config, num_sms):
    M, K = a.shape
    N = b.shape[1]
    tiles = triton.cdiv(M, config["BLOCK_SIZE_M"]) * triton.cdiv(N, config["BLOCK_SIZE_N"])
    programs = min(num_sms, tiles)
    return matmul_persistent_kernel[(programs,)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                                 NUM_SMS=programs, **config)


# --- (e) descriptors made in the kernel ---------------------------------------

def _use_torch_allocator():
    # Global scratch (the tensor maps) from PyTorch's caching allocator.
    import torch
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))


@triton.jit
def matmul_descriptor_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                                        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                                        BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                                        NUM_SMS: tl.constexpr, SPLIT_EPILOGUE: tl.constexpr):
    # C[M, N] = A[M, K] @ B[N, K]^T with row-major A, B and C. Each program
    # builds its own descriptors, then walks the tiles NUM_SMS apart; with
    # SPLIT_EPILOGUE the accumulator is stored as two halves of its columns.
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    if SPLIT_EPILOGUE:
        c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                           block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N // 2])
    else:
        c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                           block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    tiles = num_pid_m * num_pid_n
    for tile in tl.range(tl.program_id(0), tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = grouped_tile(tile, num_pid_m, num_pid_n, GROUP_SIZE_M)
        row = pid_m * BLOCK_SIZE_M
        col = pid_n * BLOCK_SIZE_N
        acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            a = a_desc.load([row, k * BLOCK_SIZE_K])
            b = b_desc.load([col, k * BLOCK_SIZE_K])
            acc = tl.dot(a, b.T, acc)
        if SPLIT_EPILOGUE:
            halves = tl.permute(tl.reshape(acc, (BLOCK_SIZE_M, 2, BLOCK_SIZE_N // 2)), (0, 2, 1))
            left, right = tl.split(halves)
            c_desc.store([row, col], left.to(c_desc.dtype))
            c_desc.store([row, col + BLOCK_SIZE_N // 2], right.to(c_desc.dtype))
        else:
            c_desc.store([row, col], acc.to(c_desc.dtype))


def matmul_descriptor_persistent(a, b_t, c, config, num_sms, split_epilogue):
    _use_torch_allocator()
    M, K = a.shape
    N = b_t.shape[0]
    tiles = triton.cdiv(M, config["BLOCK_SIZE_M"]) * triton.cdiv(N, config["BLOCK_SIZE_N"])
    programs = min(num_sms, tiles)
    return matmul_descriptor_persistent_kernel[(programs,)](a, b_t, c, M, N, K, NUM_SMS=programs,
                                                            SPLIT_EPILOGUE=split_epilogue, **config)


@triton.jit
def descriptor_axpy_kernel(x_ptr, y_ptr, out_ptr, sum_ptr, M, N, alpha,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # out = alpha * x + y over an M x N tensor whose edges are not multiples
    # of the block: the loads read zeros past them and the stores are
    # clipped. Every block's result is also added into sum[:BLOCK_M,
    # :BLOCK_N] by a TMA reduction.
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    sum_desc = tl.make_tensor_descriptor(sum_ptr, shape=[BLOCK_M, BLOCK_N], strides=[BLOCK_N, 1],
                                         block_shape=[BLOCK_M, BLOCK_N])
    row = tl.program_id(0) * BLOCK_M
    col = tl.program_id(1) * BLOCK_N
    value = alpha * x_desc.load([row, col]) + y_desc.load([row, col])
    out_desc.store([row, col], value)
    sum_desc.atomic_add([0, 0], value)


def descriptor_axpy(x, y, out, total, alpha, config):
    _use_torch_allocator()
    M, N = x.shape
    grid = (triton.cdiv(M, config["BLOCK_M"]), triton.cdiv(N, config["BLOCK_N"]))
    return descriptor_axpy_kernel[grid](x, y, out, total, M, N, alpha, **config)


DESC_MATMUL_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}
AXPY_CONFIG = {"BLOCK_M": 64, "BLOCK_N": 64}
PERSISTENT_FIT_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8}


def _desc_matmul_inputs(torch, dtype):
    M = N = K = 4096
    return dict(a=torch.randn(M, K, device="cuda", dtype=dtype), b_t=torch.randn(N, K, device="cuda", dtype=dtype),
                c=torch.empty(M, N, device="cuda", dtype=dtype),
                num_sms=torch.cuda.get_device_properties(0).multi_processor_count)


def _desc_matmul_entry(name, split):
    return Kernel(name, matmul_descriptor_persistent_kernel,
                  {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                   "BLOCK_SIZE_M": "constexpr", "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr",
                   "GROUP_SIZE_M": "constexpr", "NUM_SMS": "constexpr", "SPLIT_EPILOGUE": "constexpr"},
                  dict(DESC_MATMUL_CONFIG, NUM_SMS=TMA_NUM_SMS, SPLIT_EPILOGUE=split), num_warps=8, num_stages=3,
                  divisible=("M", "N", "K"),
                  inputs=lambda torch: _desc_matmul_inputs(torch, torch.float16),
                  launch=lambda a: matmul_descriptor_persistent(
                      a["a"], a["b_t"], a["c"], dict(DESC_MATMUL_CONFIG, num_warps=8, num_stages=3), a["num_sms"],
                      split),
                  outputs=lambda a: [a["c"]],
                  reference=lambda torch, a: [(a["a"].float() @ a["b_t"].float().T).half()],
                  flops=lambda a: 2 * a["a"].shape[0] * a["a"].shape[1] * a["b_t"].shape[0],
                  tol=(1e-2, 1e-2 * 64))


def _axpy_inputs(torch):
    M, N = 1000, 1000  # not multiples of the 64 x 64 block
    return dict(x=torch.randn(M, N, device="cuda"), y=torch.randn(M, N, device="cuda"),
                out=torch.empty(M, N, device="cuda"),
                total=torch.zeros(AXPY_CONFIG["BLOCK_M"], AXPY_CONFIG["BLOCK_N"], device="cuda"), alpha=0.5)


def _axpy_launch(a):
    a["total"].zero_()
    descriptor_axpy(a["x"], a["y"], a["out"], a["total"], a["alpha"], dict(AXPY_CONFIG, num_warps=4))


def _axpy_reference(torch, a):
    out = a["alpha"] * a["x"] + a["y"]
    bm, bn = AXPY_CONFIG["BLOCK_M"], AXPY_CONFIG["BLOCK_N"]
    M, N = out.shape
    padded = torch.zeros(triton.cdiv(M, bm) * bm, triton.cdiv(N, bn) * bn, device="cuda")
    padded[:M, :N] = out
    total = padded.reshape(padded.shape[0] // bm, bm, padded.shape[1] // bn, bn).sum(dim=(0, 2))
    return [out, total]


@triton.jit
def descriptor_batched_kernel(x_ptr, out_ptr, B, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # A batch of M x N matrices through 3-D descriptors whose blocks hold one
    # matrix's rows: the loads and stores drop the unit batch dimension
    # (rank-reducing TMA copies).
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[B, M, N], strides=[M * N, N, 1],
                                       block_shape=[1, BM, BN])
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[B, M, N], strides=[M * N, N, 1],
                                         block_shape=[1, BM, BN])
    b = tl.program_id(1)
    row = tl.program_id(0) * BM
    for col in range(0, N, BN):
        x = x_desc.load([b, row, col]).reshape(BM, BN)
        out_desc.store([b, row, col], (x * 2 + 1).reshape(1, BM, BN))


def descriptor_batched(x, out, config):
    _use_torch_allocator()
    B, M, N = x.shape
    grid = (triton.cdiv(M, config["BM"]), B)
    return descriptor_batched_kernel[grid](x, out, B, M, N, **config)


@triton.jit(noinline=True)
def _row_major_desc(ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    return tl.make_tensor_descriptor(ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])


@triton.jit
def descriptor_from_function_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Descriptors made by a noinline function, called twice: each call's map
    # lives in its own part of the program's global scratch, and stays
    # valid after the call returns.
    x_desc = _row_major_desc(x_ptr, M, N, BM, BN)
    out_desc = _row_major_desc(out_ptr, M, N, BM, BN)
    at = [tl.program_id(0) * BM, tl.program_id(1) * BN]
    out_desc.store(at, x_desc.load(at) * 3 - 1)


def descriptor_from_function(x, out, config):
    _use_torch_allocator()
    M, N = x.shape
    grid = (triton.cdiv(M, config["BM"]), triton.cdiv(N, config["BN"]))
    return descriptor_from_function_kernel[grid](x, out, M, N, **config)


# --- (h) block-scaled matmul (tl.dot_scaled) -----------------------------------

@triton.jit
def matmul_block_scaled_kernel(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, c_ptr, M, N, K,
                               stride_am, stride_bn, stride_cm,
                               A_FORMAT: tl.constexpr, B_FORMAT: tl.constexpr, B_SCALED: tl.constexpr,
                               BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                               BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    # C[M, N] (bf16) = (A * 2^(sa - 127)) @ (B * 2^(sb - 127))^T, one e8m0
    # exponent per 32 elements of K ([M, K / 32] and [N, K / 32], uint8).
    # B is stored [N, K], K-contiguous; e2m1 operands hold two values per
    # byte along K. K is a multiple of BLOCK_SIZE_K.
    A_PACK: tl.constexpr = 2 if A_FORMAT == "e2m1" else 1
    B_PACK: tl.constexpr = 2 if B_FORMAT == "e2m1" else 1
    pid_m, pid_n = grouped_tile(tl.program_id(axis=0), tl.cdiv(M, BLOCK_SIZE_M), tl.cdiv(N, BLOCK_SIZE_N),
                                GROUP_SIZE_M)
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_s = tl.arange(0, BLOCK_SIZE_K // 32)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + tl.arange(0, BLOCK_SIZE_K // A_PACK)[None, :]
    b_ptrs = b_ptr + offs_bn[None, :] * stride_bn + tl.arange(0, BLOCK_SIZE_K // B_PACK)[:, None]
    a_scale_ptrs = a_scale_ptr + offs_am[:, None] * (K // 32) + offs_s[None, :]
    b_scale_ptrs = b_scale_ptr + offs_bn[:, None] * (K // 32) + offs_s[None, :]
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_SIZE_K):
        b_scale = tl.load(b_scale_ptrs) if B_SCALED else None
        accumulator = tl.dot_scaled(tl.load(a_ptrs), tl.load(a_scale_ptrs), A_FORMAT, tl.load(b_ptrs), b_scale,
                                    B_FORMAT, accumulator)
        a_ptrs += BLOCK_SIZE_K // A_PACK
        b_ptrs += BLOCK_SIZE_K // B_PACK
        a_scale_ptrs += BLOCK_SIZE_K // 32
        b_scale_ptrs += BLOCK_SIZE_K // 32
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + offs_cm[:, None] * stride_cm + offs_cn[None, :], accumulator.to(tl.bfloat16), mask=c_mask)


def matmul_block_scaled(a, a_scale, b_t, b_scale, c, formats, config):
    M, N, K = c.shape[0], c.shape[1], b_t.shape[1] * (2 if formats[1] == "e2m1" else 1)
    assert K % config["BLOCK_SIZE_K"] == 0, f"K {K} must be a multiple of BLOCK_SIZE_K"
    return matmul_block_scaled_kernel[matmul_grid(M, N, config)](
        a, a_scale, b_t, b_scale if b_scale is not None else a_scale, c, M, N, K, a.stride(0), b_t.stride(0),
        c.stride(0), A_FORMAT=formats[0], B_FORMAT=formats[1], B_SCALED=b_scale is not None, **config)


# --- registry ------------------------------------------------------------------

class Kernel:
    """One kernel: what triton.compile needs without a GPU, the targets the
    tests compile it for, and, for the benchmark, inputs(torch) -> args,
    launch(args), reference(torch, args) -> expected outputs, outputs(args)
    -> the tensors to compare, flops(args) and tol (rtol, atol). A warp-
    specialised kernel launches with launch_warps: its partitions' warps too."""

    def __init__(self, name, fn, signature, constexprs, num_warps=4, num_stages=3, divisible=(),
                 capabilities=(90,), launch_warps=None, num_ctas=1, **bench):
        self.name = name
        self.fn = fn
        self.signature = signature
        self.constexprs = constexprs
        self.num_warps = num_warps
        self.launch_warps = launch_warps or num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.divisible = divisible
        self.capabilities = capabilities
        self.bench = bench

    def source(self):
        # As the launcher specializes: pointers 16-byte aligned, the integer
        # arguments in `divisible` multiples of 16, integers equal to 1
        # (unit strides) constexprs in `constexprs`.
        names = list(self.signature)
        attrs = {(i,): [["tt.divisibility", 16]]
                 for i, (n, ty) in enumerate(self.signature.items()) if ty.startswith("*") or n in self.divisible}
        for n in self.divisible:
            assert n in names, f"{n} is not an argument of {self.fn.__name__}"
        return triton.compiler.ASTSource(fn=self.fn, signature=self.signature,
                                         constexprs=self.constexprs, attrs=attrs)

    def options(self):
        return {"num_warps": self.num_warps, "num_stages": self.num_stages, "num_ctas": self.num_ctas}


def _matmul_signature(dtype):
    sig = {"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}", "c_ptr": f"*{dtype}", "M": "i32", "N": "i32", "K": "i32",
           "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
           "stride_cm": "i32", "stride_cn": "constexpr"}
    sig.update({n: "constexpr" for n in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M",
                                         "ACTIVATION", "ACC_DTYPE")})
    return sig


MATMUL_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}
MATMUL_CONSTEXPRS = dict(MATMUL_CONFIG, ACTIVATION="", ACC_DTYPE=tl.float32, stride_ak=1, stride_bn=1,
                         stride_cn=1)
MATMUL_DIVISIBLE = ("M", "N", "K", "stride_am", "stride_bk", "stride_cm")

TMA_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}
TMA_NUM_SMS = 132  # an H100 / H200; the launch helper takes the device's count

ATTN_CONFIG = {"BLOCK_M": 128, "BLOCK_N": 64}

FP8_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8}


def _desc(dtype, rows, cols):
    # A host descriptor's type as the launcher specializes it: element type
    # and block shape.
    return f"tensordesc<{dtype}[{TMA_CONFIG[rows]}, {TMA_CONFIG[cols]}]>"


def _attn_signature():
    sig = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "M": "*fp32", "Out": "*fp16"}
    for t in "qkvo":
        for d in ("z", "h", "m" if t in "qo" else "n"):
            sig[f"stride_{t}{d}"] = "i32"
    sig.update({"H": "i32", "N_CTX": "i32", "HEAD_DIM": "constexpr", "BLOCK_M": "constexpr",
                "BLOCK_N": "constexpr", "CAUSAL": "constexpr"})
    return sig


def _attn_divisible():
    return tuple(f"stride_{t}{d}" for t in "qkvo" for d in ("z", "h", "m" if t in "qo" else "n")) + ("N_CTX",)


# --- benchmark helpers (torch is imported by the caller) ---------------------

def _matmul_inputs(torch, dtype, M=4096, N=4096, K=4096):
    return dict(a=torch.randn(M, K, device="cuda", dtype=dtype), b=torch.randn(K, N, device="cuda", dtype=dtype),
                c=torch.empty(M, N, device="cuda", dtype=dtype))


def _matmul_reference(torch, a):
    return [(a["a"].float() @ a["b"].float()).to(a["c"].dtype)]


def _tma_inputs(torch):
    return dict(_matmul_inputs(torch, torch.float16),
                num_sms=torch.cuda.get_device_properties(0).multi_processor_count)


def _fp8_inputs(torch):
    M = N = K = 4096
    return dict(a=torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn),
                b_t=torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn),
                c=torch.empty(M, N, device="cuda", dtype=torch.float16))


def _attn_inputs(torch, head_dim, causal, Z=4, H=32, n_ctx=4096):
    shape = (Z, H, n_ctx, head_dim)
    return dict(q=torch.randn(shape, device="cuda", dtype=torch.float16),
                k=torch.randn(shape, device="cuda", dtype=torch.float16),
                v=torch.randn(shape, device="cuda", dtype=torch.float16),
                o=torch.empty(shape, device="cuda", dtype=torch.float16),
                m=torch.empty((Z, H, n_ctx), device="cuda", dtype=torch.float32),
                sm_scale=head_dim ** -0.5, causal=causal)


def _attn_launch(a, config=ATTN_CONFIG):
    attention(a["q"], a["k"], a["v"], a["o"], a["m"], a["sm_scale"], a["causal"], config)


def _attn_reference(torch, a):
    o = torch.nn.functional.scaled_dot_product_attention(a["q"], a["k"], a["v"], is_causal=a["causal"],
                                                         scale=a["sm_scale"])
    return [o]


def _attn_flops(a):
    Z, H, n_ctx, head_dim = a["q"].shape
    flops = 4 * Z * H * n_ctx * n_ctx * head_dim
    return flops / 2 if a["causal"] else flops


def _matmul_flops(a):
    M, K = a["a"].shape
    return 2 * M * K * a["c"].shape[1]


def _matmul_entry(name, dtype, torch_dtype, capabilities, acc_f16=False):
    if acc_f16:
        # f16 sums of K = 1024 products of inputs scaled by 1/8 stay near 1,
        # where f16 steps are 1e-3.
        acc = dict(ACC_DTYPE=tl.float16)
        inputs = lambda torch: {k: v / 8 if k != "c" else v  # noqa: E731
                                for k, v in _matmul_inputs(torch, torch.float16, K=1024).items()}
        tol = (2e-2, 2e-2)
    else:
        acc = {}
        inputs = lambda torch: _matmul_inputs(torch, getattr(torch, torch_dtype))  # noqa: E731
        tol = (1e-2, 1e-2 * 64) if dtype == "fp16" else (2e-2, 2e-2 * 64)
    return Kernel(name, matmul_kernel, _matmul_signature(dtype), dict(MATMUL_CONSTEXPRS, **acc), num_warps=8,
                  num_stages=3, divisible=MATMUL_DIVISIBLE, capabilities=capabilities, inputs=inputs,
                  launch=lambda a: matmul(a["a"], a["b"], a["c"], dict(MATMUL_CONFIG, num_warps=8, num_stages=3,
                                                                       **acc)),
                  outputs=lambda a: [a["c"]], reference=_matmul_reference, flops=_matmul_flops, tol=tol)


def _tma_entry(name, warp_specialize, num_ctas=1):
    # A program of num_ctas CTAs (a cluster) takes as many SMs.
    return Kernel(name, matmul_tma_persistent_kernel,
                  {"a_desc": _desc("fp16", "BLOCK_SIZE_M", "BLOCK_SIZE_K"),
                   "b_desc": _desc("fp16", "BLOCK_SIZE_K", "BLOCK_SIZE_N"),
                   "c_desc": _desc("fp16", "BLOCK_SIZE_M", "BLOCK_SIZE_N"), "M": "i32", "N": "i32", "K": "i32",
                   "BLOCK_SIZE_M": "constexpr", "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr",
                   "GROUP_SIZE_M": "constexpr", "NUM_SMS": "constexpr", "WARP_SPECIALIZE": "constexpr"},
                  dict(TMA_CONFIG, NUM_SMS=TMA_NUM_SMS // num_ctas, WARP_SPECIALIZE=warp_specialize),
                  num_warps=8,
                  num_stages=3, launch_warps=12 if warp_specialize else None, divisible=("M", "N", "K"),
                  num_ctas=num_ctas, inputs=_tma_inputs,
                  launch=lambda a: matmul_tma_persistent(a["a"], a["b"], a["c"],
                                                         dict(TMA_CONFIG, num_warps=8, num_stages=3,
                                                              num_ctas=num_ctas),
                                                         a["num_sms"] // num_ctas,
                                                         warp_specialize=warp_specialize),
                  outputs=lambda a: [a["c"]], reference=_matmul_reference, flops=_matmul_flops,
                  tol=(1e-2, 1e-2 * 64))


def _attn_desc_entry(head_dim, causal):
    name = f"attention_ws_d{head_dim}" + ("_causal" if causal else "")
    config = dict(ATTN_CONFIG, WARP_SPECIALIZE=True)
    bm, bn = config["BLOCK_M"], config["BLOCK_N"]
    return Kernel(name, attn_fwd_desc_kernel,
                  {"desc_q": f"tensordesc<fp16[{bm}, {head_dim}]>", "desc_k": f"tensordesc<fp16[{bn}, {head_dim}]>",
                   "desc_v": f"tensordesc<fp16[{bn}, {head_dim}]>", "desc_o": f"tensordesc<fp16[{bm}, {head_dim}]>",
                   "sm_scale": "fp32", "M": "*fp32", "H": "i32", "N_CTX": "i32", "HEAD_DIM": "constexpr",
                   "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "CAUSAL": "constexpr",
                   "WARP_SPECIALIZE": "constexpr"},
                  dict(config, HEAD_DIM=head_dim, CAUSAL=causal), num_warps=8, num_stages=3,
                  launch_warps=12, divisible=("N_CTX",),
                  inputs=lambda torch: _attn_inputs(torch, head_dim, causal),
                  launch=lambda a: attention_desc(a["q"], a["k"], a["v"], a["o"], a["m"], a["sm_scale"],
                                                  a["causal"], dict(config, num_warps=8, num_stages=3)),
                  outputs=lambda a: [a["o"]], reference=_attn_reference, flops=_attn_flops, tol=(1e-2, 1e-2))


def _attn_entry(head_dim, causal):
    name = f"attention_d{head_dim}" + ("_causal" if causal else "")
    return Kernel(name, attn_fwd_kernel, _attn_signature(),
                  dict(ATTN_CONFIG, HEAD_DIM=head_dim, CAUSAL=causal), num_warps=8, num_stages=3,
                  divisible=_attn_divisible(),
                  inputs=lambda torch: _attn_inputs(torch, head_dim, causal), launch=_attn_launch,
                  outputs=lambda a: [a["o"]], reference=_attn_reference, flops=_attn_flops, tol=(1e-2, 1e-2))


BLOCK_SCALED_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8}
E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)


def _decode_e2m1(torch, packed):
    """Two e2m1 values a byte, the low nibble first, as f32 along the last
    dimension."""
    table = torch.tensor(E2M1_VALUES, device=packed.device)
    lo, hi = table[(packed & 15).long()], table[(packed >> 4).long()]
    return torch.stack((lo, hi), dim=-1).reshape(*packed.shape[:-1], packed.shape[-1] * 2)


def _scaled(torch, values, scale):
    """values [R, K] times 2^(scale - 127), one exponent per 32 of K."""
    return values * torch.exp2(scale.float() - 127).repeat_interleave(32, dim=1)


def block_scaled_inputs(torch, formats, M=4096, N=4096, K=4096):
    """Operands of the (h) kernels: e4m3 from randn, e2m1 random bytes, bf16
    from randn; e8m0 scales 2^-3 .. 2^3, so that outputs stay within a few
    thousand and f32 sums in any order agree to well under 1e-2."""
    a_fmt, b_fmt = formats
    exps = lambda rows: torch.randint(124, 131, (rows, K // 32), device="cuda", dtype=torch.uint8)
    operand = {"e4m3": lambda rows: torch.randn(rows, K, device="cuda").to(torch.float8_e4m3fn),
               "e2m1": lambda rows: torch.randint(0, 256, (rows, K // 2), device="cuda", dtype=torch.uint8),
               "bf16": lambda rows: torch.randn(rows, K, device="cuda", dtype=torch.bfloat16)}
    return dict(a=operand[a_fmt](M), a_scale=exps(M), b_t=operand[b_fmt](N),
                b_scale=exps(N) if b_fmt != "bf16" else None,
                c=torch.empty(M, N, device="cuda", dtype=torch.bfloat16), formats=formats)


def block_scaled_reference(torch, a):
    def value(x, fmt):
        return _decode_e2m1(torch, x) if fmt == "e2m1" else x.float()
    lhs = _scaled(torch, value(a["a"], a["formats"][0]), a["a_scale"])
    rhs = value(a["b_t"], a["formats"][1])
    if a["b_scale"] is not None:
        rhs = _scaled(torch, rhs, a["b_scale"])
    return [(lhs @ rhs.T).to(torch.bfloat16)]


def _block_scaled_entry(name, formats, a_type, b_type, capabilities):
    return Kernel(name, matmul_block_scaled_kernel,
                  {"a_ptr": a_type, "a_scale_ptr": "*u8", "b_ptr": b_type, "b_scale_ptr": "*u8", "c_ptr": "*bf16",
                   "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32",
                   "A_FORMAT": "constexpr", "B_FORMAT": "constexpr", "B_SCALED": "constexpr",
                   "BLOCK_SIZE_M": "constexpr", "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr",
                   "GROUP_SIZE_M": "constexpr"},
                  dict(BLOCK_SCALED_CONFIG, A_FORMAT=formats[0], B_FORMAT=formats[1],
                       B_SCALED=formats[1] != "bf16"),
                  num_warps=8, num_stages=3, divisible=("M", "N", "K", "stride_am", "stride_bn", "stride_cm"),
                  capabilities=capabilities, inputs=lambda torch: block_scaled_inputs(torch, formats),
                  launch=lambda a: matmul_block_scaled(a["a"], a["a_scale"], a["b_t"], a["b_scale"], a["c"],
                                                       a["formats"], dict(BLOCK_SCALED_CONFIG, num_warps=8,
                                                                          num_stages=3)),
                  outputs=lambda a: [a["c"]], reference=block_scaled_reference,
                  flops=lambda a: 2 * a["c"].shape[0] * a["c"].shape[1] * a["a_scale"].shape[1] * 32,
                  # Operands and scales are exact in bf16; f32 sums of 4096
                  # products in another order, then bf16 rounding.
                  tol=(1e-2, 1e-2))


KERNELS = {
    k.name: k for k in [
        # (a) on sm_90 (wgmma) and sm_80 (mma.sync).
        _matmul_entry("matmul_f16", "fp16", "float16", (90, 80)),
        _matmul_entry("matmul_bf16", "bf16", "bfloat16", (90, 80)),
        # (b) host descriptors: Triton's launcher encodes each CUtensorMap
        # from the kernel's tensordesc_meta.
        _tma_entry("matmul_tma_persistent", False),
        # (b') the same with warp specialisation: a TMA producer warp and 8
        # consumer warps, whose registers grow as the producer's shrink.
        _tma_entry("matmul_tma_persistent_ws", True),
        # (b'') as (b), each program a cluster of two CTAs: each copies its
        # tile of the operands and the result through TMA.
        _tma_entry("matmul_tma_persistent_cluster2", False, num_ctas=2),
        # (c) HEAD_DIM 64 and 128, causal or not.
        _attn_entry(64, False),
        _attn_entry(64, True),
        _attn_entry(128, False),
        _attn_entry(128, True),
        # (c') the same over TMA descriptors, the key loops warp-specialised.
        _attn_desc_entry(64, False),
        _attn_desc_entry(64, True),
        _attn_desc_entry(128, False),
        _attn_desc_entry(128, True),
        # (d) float8e4nv (torch.float8_e4m3fn) operands; sm_89 and later.
        Kernel("matmul_fp8", matmul_fp8_kernel,
               {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                "stride_am": "i32", "stride_bn": "i32", "stride_cm": "i32",
                "BLOCK_SIZE_M": "constexpr", "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr",
                "GROUP_SIZE_M": "constexpr"},
               FP8_CONFIG, num_warps=8, num_stages=3, divisible=("M", "N", "K", "stride_am", "stride_bn",
                                                                 "stride_cm"),
               inputs=_fp8_inputs,
               launch=lambda a: matmul_fp8(a["a"], a["b_t"], a["c"], dict(FP8_CONFIG, num_warps=8, num_stages=3)),
               outputs=lambda a: [a["c"]],
               reference=lambda torch, a: [(a["a"].float() @ a["b_t"].float().T).half()],
               flops=lambda a: 2 * a["a"].shape[0] * a["a"].shape[1] * a["b_t"].shape[0],
               # Hopper's fp8 wgmma adds its products with fewer mantissa bits
               # than f32 (Triton's default max_num_imprecise_acc on sm_90), so
               # the f32 reference is off by up to a few percent of the output's
               # scale (64 for K = 4096); kiln is also compared with Triton.
               tol=(2e-2, 4.0)),
        # (d') f16 operands accumulated in f16 (wgmma's f16 accumulators on
        # sm_90, mma.sync's on sm_80); inputs scaled so that f16 sums hold.
        _matmul_entry("matmul_f16_acc", "fp16", "float16", (90, 80), acc_f16=True),
        # (e) descriptors made in the kernel, the persistent matmul with a
        # whole and a split epilogue, and an element-wise kernel with edges
        # and a TMA reduction.
        _desc_matmul_entry("matmul_descriptor_persistent", False),
        _desc_matmul_entry("matmul_descriptor_persistent_split", True),
        Kernel("descriptor_axpy", descriptor_axpy_kernel,
               {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "sum_ptr": "*fp32", "M": "i32", "N": "i32",
                "alpha": "fp32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
               AXPY_CONFIG, num_warps=4, num_stages=3,
               inputs=_axpy_inputs, launch=_axpy_launch, outputs=lambda a: [a["out"], a["total"]],
               reference=_axpy_reference, flops=lambda a: 2 * a["x"].numel(),
               # The reduction adds each block's values in an order of its own.
               tol=(1e-5, 1e-3)),
        # (f) a persistent matmul whose 4-stage rings would not fit.
        Kernel("matmul_persistent_fit", matmul_persistent_kernel,
               {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32",
                "BLOCK_SIZE_M": "constexpr", "BLOCK_SIZE_N": "constexpr", "BLOCK_SIZE_K": "constexpr",
                "GROUP_SIZE_M": "constexpr", "NUM_SMS": "constexpr"},
               dict(PERSISTENT_FIT_CONFIG, NUM_SMS=TMA_NUM_SMS), num_warps=8, num_stages=4,
               divisible=("M", "N", "K", "stride_am", "stride_bk", "stride_cm"),
               inputs=_tma_inputs,
               launch=lambda a: matmul_persistent(a["a"], a["b"], a["c"],
                                                  dict(PERSISTENT_FIT_CONFIG, num_warps=8, num_stages=4),
                                                  a["num_sms"]),
               outputs=lambda a: [a["c"]], reference=_matmul_reference, flops=_matmul_flops,
               tol=(1e-2, 1e-2 * 64)),
        # (g) 3-D descriptors with rank-reducing loads and stores.
        Kernel("descriptor_batched", descriptor_batched_kernel,
               {"x_ptr": "*fp16", "out_ptr": "*fp16", "B": "i32", "M": "i32", "N": "i32",
                "BM": "constexpr", "BN": "constexpr"},
               {"BM": 64, "BN": 64}, num_warps=4, num_stages=3, divisible=("N",),
               inputs=lambda torch: dict(x=torch.randn(16, 1000, 256, device="cuda", dtype=torch.float16),
                                         out=torch.empty(16, 1000, 256, device="cuda", dtype=torch.float16)),
               launch=lambda a: descriptor_batched(a["x"], a["out"], {"BM": 64, "BN": 64, "num_warps": 4}),
               outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [(a["x"].float() * 2 + 1).half()],
               flops=lambda a: 2 * a["x"].numel(), tol=(1e-3, 1e-3)),
        # (g) descriptors returned by a noinline function.
        Kernel("descriptor_from_function", descriptor_from_function_kernel,
               {"x_ptr": "*fp16", "out_ptr": "*fp16", "M": "i32", "N": "i32",
                "BM": "constexpr", "BN": "constexpr"},
               {"BM": 64, "BN": 64}, num_warps=4, num_stages=3, divisible=("N",),
               inputs=lambda torch: dict(x=torch.randn(1000, 512, device="cuda", dtype=torch.float16),
                                         out=torch.empty(1000, 512, device="cuda", dtype=torch.float16)),
               launch=lambda a: descriptor_from_function(a["x"], a["out"], {"BM": 64, "BN": 64, "num_warps": 4}),
               outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [(a["x"].float() * 3 - 1).half()],
               flops=lambda a: 2 * a["x"].numel(), tol=(1e-3, 1e-3)),
        # (h) block-scaled dots: mxfp8 x mxfp8 and mxfp4 x bf16 (e4m3 needs
        # sm_89; e2m1 is decoded with integer ops anywhere).
        _block_scaled_entry("matmul_mxfp8", ("e4m3", "e4m3"), "*fp8e4nv", "*fp8e4nv", (90,)),
        _block_scaled_entry("matmul_mxfp4_bf16", ("e2m1", "bf16"), "*u8", "*bf16", (90, 80)),
    ]
}
