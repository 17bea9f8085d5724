"""A pipelined TMA + wgmma matmul written with hwx: a ring of STAGES
shared-memory slots filled by TMA, one mbarrier per slot with its phase
tracked across the K loop, asynchronous warpgroup MMA with one product in
flight, the slot of the previous product refilled once it retired.

    python3 hwx_gemm.py            # compile for cuda:90 (no GPU), check the PTX
    python3 hwx_gemm.py --run      # on a GPU: check against torch, time it
"""
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import kiln.triton
from kiln.language import hwx


@triton.jit
def hwx_matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, STAGES: tl.constexpr):
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    a_bufs = hwx.alloc([BM, BK], tl.float16, STAGES)
    b_bufs = hwx.alloc([BK, BN], tl.float16, STAGES)
    bars = hwx.alloc_barriers(STAGES)
    k_tiles = tl.cdiv(K, BK)
    # Fill all slots but one.
    for i in tl.static_range(STAGES - 1):
        if i < k_tiles:
            hwx.barrier_expect(bars[i], (BM * BK + BK * BN) * 2)
            hwx.async_load(a_desc, [off_m, i * BK], a_bufs[i], bars[i])
            hwx.async_load(b_desc, [i * BK, off_n], b_bufs[i], bars[i])
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(k_tiles):
        s = k % STAGES
        hwx.barrier_wait(bars[s], (k // STAGES) & 1)
        acc = hwx.async_dot(a_bufs[s], b_bufs[s], acc)
        # One product stays in flight: the one before it has retired, so
        # its slot, the next one to fill, is free.
        acc = hwx.async_dot_wait(acc, 1)
        nk = k + STAGES - 1
        if nk < k_tiles:
            ns = nk % STAGES
            hwx.barrier_expect(bars[ns], (BM * BK + BK * BN) * 2)
            hwx.async_load(a_desc, [off_m, nk * BK], a_bufs[ns], bars[ns])
            hwx.async_load(b_desc, [nk * BK, off_n], b_bufs[ns], bars[ns])
    acc = hwx.async_dot_wait(acc, 0)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


CONFIG = dict(BM=128, BN=128, BK=64, STAGES=4)


def signature(BM, BN, BK, **_):
    return {"a_desc": f"tensordesc<fp16[{BM}, {BK}]>", "b_desc": f"tensordesc<fp16[{BK}, {BN}]>",
            "c_desc": f"tensordesc<fp16[{BM}, {BN}]>", "K": "i32"}


def compile_only():
    kiln.triton.enable()
    src = ASTSource(hwx_matmul_kernel, signature(**CONFIG), constexprs=CONFIG)
    kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    assert kernel.metadata.compiler == "kiln"
    ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
    assert "ttng.warp_group_dot" in ttgir and "ttng.async_tma_copy_global_to_local" in ttgir
    # The products read the ring directly: no operand is copied to another buffer.
    assert ttgir.count("ttg.local_alloc : ()") == 3, ttgir
    assert "wgmma.mma_async" in ptx and "cp.async.bulk.tensor.2d" in ptx
    assert "wgmma.wait_group.sync.aligned 1" in ptx, "one product stays in flight"
    print("hwx matmul: TMA ring of %d slots, wgmma from the ring, %d bytes of shared memory"
          % (CONFIG["STAGES"], kernel.metadata.shared))


def run():
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    kiln.triton.enable()
    BM, BN, BK = CONFIG["BM"], CONFIG["BN"], CONFIG["BK"]
    for M, N, K in [(512, 512, 512), (4096, 4096, 4096), (8192, 8192, 8192)]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        descs = (TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BK, BN]),
                 TensorDescriptor.from_tensor(c, [BM, BN]))
        grid = (M // BM, N // BN)
        launch = lambda: hwx_matmul_kernel[grid](*descs, K, **CONFIG, num_warps=4)
        launch()
        ref = (a.float() @ b.float())
        err = (c.float() - ref).abs().max().item()
        ok = torch.allclose(c.float(), ref, atol=0.5, rtol=0.02)
        ms = triton.testing.do_bench(launch, warmup=25, rep=100)
        cublas = triton.testing.do_bench(lambda: a @ b, warmup=25, rep=100)
        tflops = 2 * M * N * K / ms * 1e-9
        print(f"{M}x{N}x{K}: {'PASS' if ok else 'FAIL'} max err {err:.3f}; hwx {ms:.4f} ms "
              f"({tflops:.0f} TFLOP/s), cuBLAS {cublas:.4f} ms, hwx/cuBLAS time {ms / cublas:.3f}")


if __name__ == "__main__":
    sys.exit(run() if "--run" in sys.argv else compile_only())
