"""A persistent, warp-specialised TMA + wgmma matmul written with hwx: a
producer task of one warp fills a ring of STAGES slots by TMA, the
kernel's own warps (the default task) multiply out of it with one wgmma
in flight and free each slot for the producer once its product retired
(a `full` and an `empty` mbarrier per slot, phases tracked across tiles).
Programs walk the output tiles in grouped order; the epilogue stores
each tile by TMA.

    python3 hwx_ws_gemm.py            # compile for cuda:90 (no GPU), check the PTX
    python3 hwx_ws_gemm.py --run [N ...]   # on a GPU: check against torch (N³), time it
"""
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
def hwx_ws_matmul_kernel(a_desc, b_desc, c_desc, M, N, K, num_programs, BM: tl.constexpr,
                         BN: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr,
                         GROUP_M: tl.constexpr, CONSUMER_GROUPS: tl.constexpr,
                         B_KMAJOR: tl.constexpr = False):
    # B_KMAJOR: b_desc describes B's transpose ([N, K]), read transposed by
    # the product (fp8 products take B only K-major).
    dtype = a_desc.dtype
    a_bufs = hwx.alloc([BM, BK], dtype, STAGES)
    if B_KMAJOR:
        b_bufs = hwx.alloc([BN, BK], dtype, STAGES)
    else:
        b_bufs = hwx.alloc([BK, BN], dtype, STAGES)
    full = hwx.alloc_barriers(STAGES)     # the producer's copies landed
    # The consumers' products retired: one arrival per warp group, each
    # after its own wait (a warp group knows only its own products retired).
    empty = hwx.alloc_barriers(STAGES, count=CONSUMER_GROUPS)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    num_tiles = num_pid_m * num_pid_n
    with hwx.async_tasks():
        with hwx.async_task(num_warps=1, registers=40):
            it = 0
            for tile in range(tl.program_id(0), num_tiles, num_programs):
                pid_m, pid_n = _tile(tile, num_pid_m, num_pid_n, GROUP_M)
                for k in range(k_tiles):
                    s = it % STAGES
                    # The first round passes on the fresh barrier.
                    hwx.barrier_wait(empty[s], ((it // STAGES) & 1) ^ 1)
                    hwx.barrier_expect(full[s], (BM * BK + BK * BN) * dtype.primitive_bitwidth // 8)
                    hwx.async_load(a_desc, [pid_m * BM, k * BK], a_bufs[s], full[s])
                    if B_KMAJOR:
                        hwx.async_load(b_desc, [pid_n * BN, k * BK], b_bufs[s], full[s])
                    else:
                        hwx.async_load(b_desc, [k * BK, pid_n * BN], b_bufs[s], full[s])
                    it += 1
        with hwx.async_task("default"):
            it = 0
            for tile in range(tl.program_id(0), num_tiles, num_programs):
                pid_m, pid_n = _tile(tile, num_pid_m, num_pid_n, GROUP_M)
                acc = tl.zeros([BM, BN], tl.float32)
                for k in range(k_tiles):
                    s = it % STAGES
                    hwx.barrier_wait(full[s], (it // STAGES) & 1)
                    b = hwx.trans(b_bufs[s]) if B_KMAJOR else b_bufs[s]
                    acc = hwx.async_dot(a_bufs[s], b, acc)
                    # The product before this one has retired: its slot is free.
                    acc = hwx.async_dot_wait(acc, 1)
                    if k > 0:
                        hwx.barrier_arrive(empty[(it + STAGES - 1) % STAGES], per_warp_group=True)
                    it += 1
                acc = hwx.async_dot_wait(acc, 0)
                hwx.barrier_arrive(empty[(it + STAGES - 1) % STAGES], per_warp_group=True)
                c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


CONFIGS = [
    dict(BM=128, BN=256, BK=64, STAGES=4, GROUP_M=8, num_warps=8),
    dict(BM=128, BN=128, BK=64, STAGES=5, GROUP_M=8, num_warps=8),
    dict(BM=128, BN=128, BK=64, STAGES=4, GROUP_M=8, num_warps=4),
]


def constexprs(config):
    # The default task (the consumers) runs on the kernel's num_warps warps.
    # Every constexpr named (Triton 3.9's ASTSource takes no defaults).
    return dict({k: v for k, v in config.items() if k != "num_warps"},
                CONSUMER_GROUPS=config["num_warps"] // 4, B_KMAJOR=False)


def signature(BM, BN, BK, dtype="fp16", out="", b_kmajor=False, **_):
    b_block = f"[{BN}, {BK}]" if b_kmajor else f"[{BK}, {BN}]"
    return {"a_desc": f"tensordesc<{dtype}[{BM}, {BK}]>", "b_desc": f"tensordesc<{dtype}{b_block}>",
            "c_desc": f"tensordesc<{out or dtype}[{BM}, {BN}]>", "M": "i32", "N": "i32", "K": "i32",
            "num_programs": "i32"}


def launcher(a, b, c, config, num_sms):
    """A function launching the kernel on torch tensors (c = a @ b) on at
    most num_sms programs and returning the compiled kernel."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    M, K = a.shape
    N = b.shape[1]
    BM, BN, BK = config["BM"], config["BN"], config["BK"]
    descs = (TensorDescriptor.from_tensor(a, [BM, BK]), TensorDescriptor.from_tensor(b, [BK, BN]),
             TensorDescriptor.from_tensor(c, [BM, BN]))
    programs = min(num_sms, triton.cdiv(M, BM) * triton.cdiv(N, BN))
    return lambda: hwx_ws_matmul_kernel[(programs,)](*descs, M, N, K, programs, **constexprs(config),
                                                     num_warps=config["num_warps"])


def launch(a, b, c, config, num_sms):
    return launcher(a, b, c, config, num_sms)()


def compile_only():
    kiln.triton.enable()
    for dtype in ("fp16", "bf16"):
        for config in CONFIGS:
            src = ASTSource(hwx_ws_matmul_kernel, signature(**config, dtype=dtype),
                            constexprs=constexprs(config))
            kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                                    options={"num_warps": config["num_warps"]})
            assert kernel.metadata.compiler == "kiln"
            ttgir, ptx = kernel.asm["ttgir"], kernel.asm["ptx"]
            assert "ttg.warp_specialize" in ttgir and "num_warps(1)" in ttgir, ttgir
            assert "wgmma.mma_async" in ptx and "cp.async.bulk.tensor.2d" in ptx
            # With 12 warps the register file is short: the producer gives back
            # what the consumers take. With 8, every warp has 255 already.
            if config["num_warps"] == 8:
                assert "setmaxnreg.dec.sync.aligned.u32 40" in ptx, "the producer gives registers back"
            grow = [l.split()[-1].rstrip(";") for l in ptx.splitlines()
                    if "setmaxnreg.inc.sync" in l]
            print(f"hwx WS matmul {dtype} {config['BM']}x{config['BN']}x{config['BK']} "
                  f"w{config['num_warps']} s{config['STAGES']}: {kernel.metadata.shared} bytes of "
                  f"shared memory, {kernel.metadata.num_warps} warps, consumers grow to "
                  f"{grow[0] if grow else '-'} registers")
    # fp8 (e4m3) in, bf16 out, B K-major.
    config = dict(BM=128, BN=256, BK=128, STAGES=4, GROUP_M=8, num_warps=8)
    src = ASTSource(hwx_ws_matmul_kernel,
                    signature(**config, dtype="fp8e4nv", out="bf16", b_kmajor=True),
                    constexprs=dict(constexprs(config), B_KMAJOR=True))
    kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 8})
    wgmma = [l.split()[0] for l in kernel.asm["ptx"].splitlines() if "wgmma.mma_async" in l]
    assert "ttg.memdesc_trans" in kernel.asm["ttgir"]
    print(f"hwx WS matmul fp8e4nv 128x256x128 w8 s4, B K-major: {wgmma[0]}, "
          f"{kernel.metadata.shared} bytes of shared memory")


def run(sizes):
    import torch
    kiln.triton.enable()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for M, N, K in [(n, n, n) for n in sizes or (512, 4096, 8192)]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16)
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        cublas = triton.testing.do_bench(lambda: a @ b, warmup=25, rep=100)
        for config in CONFIGS:
            go = launcher(a, b, c, config, sms)
            c.zero_()
            go()
            err = (c.float() - ref).abs().max().item()
            ok = torch.allclose(c.float(), ref, atol=0.5, rtol=0.02)
            ms = triton.testing.do_bench(go, warmup=25, rep=100)
            tflops = 2 * M * N * K / ms * 1e-9
            print(f"{M}x{N}x{K} {config['BM']}x{config['BN']}x{config['BK']} w{config['num_warps']} "
                  f"s{config['STAGES']}: {'PASS' if ok else 'FAIL'} max err {err:.3f}; hwx {ms:.4f} ms "
                  f"({tflops:.0f} TFLOP/s), cuBLAS {cublas:.4f} ms, hwx/cuBLAS time {ms / cublas:.3f}",
                  flush=True)


if __name__ == "__main__":
    # --run [N ...]: square sizes to check and time (512, 4096, 8192 by default).
    sizes = [int(a) for a in sys.argv[1:] if a.isdigit()]
    sys.exit(run(sizes) if "--run" in sys.argv else compile_only())
