#!/usr/bin/env python3
"""Runs on a GPU, behind the bridge, kernels of the kinds Triton's own
language tests compile and kiln used to refuse (a compile-only run of part
of Triton 3.6's test_core.py found them), and checks their results against
torch:

- tl.cat(can_reorder=True) of 128-element tensors on 4 and 8 warps (on 8,
  the operands repeat over the threads): every element once;
- fp8 (e5m2, e4m3) matmuls whose B is N-contiguous, three stages,
  max_num_imprecise_acc 32 and BLOCK_K (B's load stays synchronous, A
  streams; wgmma's partial sums added to the accumulator in f32);
- TTGIR written without ttg.target, a layout conversion through shared
  memory, compiled from the file by triton.compile;
- in-kernel descriptor loads of small blocks (2x16, 8x32, 1x1024; int8 and
  bf16) by programs of two CTAs (the block's rows split over the CTAs);
- descriptors made in a noinline function that copies a block through two
  maps of its own (the kernel asks for both maps' bytes; descriptors
  returned by such a function are dot_kernels_check.py's
  descriptor_from_function);
- a persistent batched matmul that makes its three descriptors again at
  every tile inside the pipelined loop (one to four K steps a tile, so a
  map is remade while copies issued with the previous one are in flight),
  at 3 and 4 stages: each map made in the loop cycles through a ring of
  num_stages + 1 slots.

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/suite_gaps_check.py

Prints one PASS/FAIL line per case; exits 1 if any fails.
"""
import os
import sys
import tempfile

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
import kiln.triton  # noqa: E402


@triton.jit
def cat_kernel(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.load(Y + tl.arange(0, N))
    tl.store(Z + tl.arange(0, 2 * N), tl.cat(x, y, can_reorder=True))


@triton.jit
def fp8_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, IMPRECISE: tl.constexpr):
    # A row-major (K contiguous), B row-major (N contiguous): wgmma reads fp8
    # B K-major only, so B cannot be copied into its slot as it lies.
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    rm = (pid % num_m) * BM + tl.arange(0, BM)
    rn = (pid // num_m) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros([BM, BN], tl.float32)
    for _ in tl.range(0, tl.cdiv(K, BK), num_stages=3):
        acc = tl.dot(tl.load(a), tl.load(b), acc, max_num_imprecise_acc=IMPRECISE)
        a += BK
        b += BK * stride_bk
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc)


@triton.jit
def desc_load_kernel(out_ptr, a_ptr, M, N, M_BLOCK: tl.constexpr, N_BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[M_BLOCK, N_BLOCK])
    block = desc.load([M_BLOCK, 2 * N_BLOCK])
    idx = tl.arange(0, M_BLOCK)[:, None] * N_BLOCK + tl.arange(0, N_BLOCK)[None, :]
    tl.store(out_ptr + idx, block)


@triton.jit(noinline=True)
def negate_block(out_ptr, in_ptr, M, N, MB: tl.constexpr, NB: tl.constexpr):
    src = tl.make_tensor_descriptor(in_ptr, shape=[M, N], strides=[N, 1], block_shape=[MB, NB])
    dst = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[MB, NB])
    at = [tl.program_id(0) * MB, tl.program_id(1) * NB]
    dst.store(at, -src.load(at))


@triton.jit
def negate_in_function_kernel(out_ptr, in_ptr, M, N, MB: tl.constexpr, NB: tl.constexpr):
    negate_block(out_ptr, in_ptr, M, N, MB, NB)


@triton.jit
def batched_tiles_kernel(a_ptr, b_ptr, c_ptr, BATCH, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr, PROGRAMS: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    per_batch = tl.cdiv(M, BM) * tiles_n
    k_steps = tl.cdiv(K, BK)
    mine = (BATCH * per_batch - pid + PROGRAMS - 1) // PROGRAMS
    tile = pid - PROGRAMS
    k = -1
    row = 0
    col = 0
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(k_steps * mine):
        k = tl.where(k == k_steps - 1, 0, k + 1)
        if k == 0:
            tile += PROGRAMS
            batch = tile // per_batch
            row = (tile % per_batch) // tiles_n * BM
            col = tile % tiles_n * BN
            a_desc = tl.make_tensor_descriptor(a_ptr + batch * M * K, [M, K], [K, 1], [BM, BK])
            b_desc = tl.make_tensor_descriptor(b_ptr + batch * K * N, [K, N], [N, 1], [BK, BN])
            c_desc = tl.make_tensor_descriptor(c_ptr + batch * M * N, [M, N], [N, 1], [BM, BN])
        acc = tl.dot(a_desc.load([row, k * BK]), b_desc.load([k * BK, col]), acc)
        if k == k_steps - 1:
            c_desc.store([row, col], acc.to(tl.float16))
            acc = tl.zeros((BM, BN), dtype=tl.float32)


CONVERT_TTGIR = """
#src = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#dst = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @convert(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #src>
    %pin = tt.splat %in : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #src>
    %pa = tt.addptr %pin, %offs : tensor<512x!tt.ptr<f32>, #src>, tensor<512xi32, #src>
    %x = tt.load %pa : tensor<512x!tt.ptr<f32>, #src>
    %y = ttg.convert_layout %x : tensor<512xf32, #src> -> tensor<512xf32, #dst>
    %offs2 = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #dst>
    %pout = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #dst>
    %pb = tt.addptr %pout, %offs2 : tensor<512x!tt.ptr<f32>, #dst>, tensor<512xi32, #dst>
    tt.store %pb, %y : tensor<512x!tt.ptr<f32>, #dst>
    tt.return
  }
}
"""


def check_cat(num_warps):
    x = torch.arange(0, 128, device="cuda", dtype=torch.int32)
    y = torch.arange(-128, 0, device="cuda", dtype=torch.int32)
    z = torch.zeros(256, device="cuda", dtype=torch.int32)
    k = cat_kernel[(1,)](x, y, z, N=128, num_warps=num_warps)
    ok = torch.equal(torch.sort(z).values, torch.sort(torch.cat([x, y])).values)
    return ok, k, f"{z.unique().numel()} distinct of 256"


def check_fp8(dtype, bm, bn, bk, imprecise):
    M, N, K = 128, 256, 256
    a = torch.randn(M, K, device="cuda").to(dtype)
    b = torch.randn(K, N, device="cuda").to(dtype)
    c = torch.empty(M, N, device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    k = fp8_matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                BM=bm, BN=bn, BK=bk, IMPRECISE=imprecise, num_warps=8)
    want = a.to(torch.float32) @ b.to(torch.float32)
    err = (c - want).abs().max().item()
    return err < 1e-2 * K ** 0.5, k, f"max err {err:.3g}"


def check_desc_load(dtype, m_block, n_block):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    M, N = m_block * 3, n_block * 4
    a = torch.randint(-100, 100, (M, N), device="cuda").to(dtype)
    out = torch.zeros(m_block, n_block, device="cuda", dtype=dtype)
    k = desc_load_kernel[(1,)](out, a, M, N, M_BLOCK=m_block, N_BLOCK=n_block, num_ctas=2)
    want = a[m_block:2 * m_block, 2 * n_block:3 * n_block]
    return torch.equal(out, want), k, ""


def check_desc_in_function():
    sizes = []

    def alloc(size, align, stream):
        sizes.append(size)
        return torch.empty(size, dtype=torch.int8, device="cuda")

    triton.set_allocator(alloc)
    M, N, MB, NB = 64, 256, 16, 64
    a = torch.randn(M, N, device="cuda")
    out = torch.zeros_like(a)
    k = negate_in_function_kernel[(M // MB, N // NB)](out, a, M, N, MB=MB, NB=NB)
    # Two 128-byte maps a program.
    want_size = 2 * 128 * (M // MB) * (N // NB)
    return torch.equal(out, -a) and sizes == [want_size], k, f"scratch {sizes} (want [{want_size}])"


def check_batched_tiles(k_steps, stages):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    BATCH, M, N, BM, BN, BK, PROGRAMS = 32, 256, 256, 128, 128, 64, 8
    K = k_steps * BK
    a = torch.randn(BATCH, M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(BATCH, K, N, device="cuda", dtype=torch.float16)
    c = torch.zeros(BATCH, M, N, device="cuda", dtype=torch.float16)
    k = batched_tiles_kernel[(PROGRAMS,)](a, b, c, BATCH, M, N, K, BM=BM, BN=BN, BK=BK,
                                          PROGRAMS=PROGRAMS, num_warps=8, num_stages=stages)
    want = torch.bmm(a.float(), b.float())
    err = (c.float() - want).abs().max().item()
    return err < 2e-2 * K ** 0.5, k, f"max err {err:.3g}"


def check_convert():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "convert.ttgir")
        with open(path, "w") as f:
            f.write(CONVERT_TTGIR)
        k = triton.compile(path)
    x = torch.randn(512, device="cuda")
    y = torch.empty_like(x)
    k[(1, 1, 1)](x, y)
    return torch.equal(x, y), k, ""


def main():
    kiln.triton.enable()
    cases = [("cat 4 warps", lambda: check_cat(4)), ("cat 8 warps", lambda: check_cat(8))]
    for dtype in (torch.float8_e5m2, torch.float8_e4m3fn):
        for blocks in ((64, 64, 64), (128, 256, 128)):
            for imprecise in (32, blocks[2]):
                cases.append((f"fp8 {str(dtype).split('.')[-1]} B N-major {'x'.join(map(str, blocks))} "
                              f"imprecise {imprecise}",
                              lambda dtype=dtype, blocks=blocks, imprecise=imprecise:
                              check_fp8(dtype, *blocks, imprecise)))
    cases.append(("TTGIR without ttg.target", check_convert))
    for dtype in (torch.int8, torch.bfloat16):
        for blocks in ((2, 16), (8, 32), (1, 1024)):
            cases.append((f"descriptor load {str(dtype).split('.')[-1]} {blocks[0]}x{blocks[1]} on 2 CTAs",
                          lambda dtype=dtype, blocks=blocks: check_desc_load(dtype, *blocks)))
    cases.append(("descriptors made in a noinline function",
                  check_desc_in_function))
    for k_steps in (1, 2, 4):
        for stages in (3, 4):
            cases.append((f"descriptors remade per tile in a pipelined loop, {k_steps} K steps, "
                          f"{stages} stages",
                          lambda k_steps=k_steps, stages=stages: check_batched_tiles(k_steps, stages)))
    failed = 0
    for name, run in cases:
        try:
            ok, kernel, detail = run()
            torch.cuda.synchronize()
            by = getattr(kernel.metadata, "compiler", "triton")
            ok = ok and by == "kiln"
            print(f"{name}: {'PASS' if ok else 'FAIL'} (compiled by {by}) {detail}", flush=True)
        except Exception as e:
            ok = False
            print(f"{name}: FAIL {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
