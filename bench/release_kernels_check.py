#!/usr/bin/env python3
"""The release kernels of test/Python/Inputs/release_kernels.py on the GPU
(those the running Triton has), launched from PyTorch with the bridge off
(stock Triton) and on (kiln), each with its Triton options: kiln's outputs
must equal Triton's bit for bit (no kernel here rounds differently between
the two compilers: fp fusion off leaves one rounding per operation in both,
on both fuse the same a*x+y), and match PyTorch's. For the device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/release_kernels_check.py
"""
import os
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python", "Inputs"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="kiln-release-check-"))

import torch  # noqa: E402
import triton  # noqa: E402

import kiln.triton  # noqa: E402
import release_kernels as rk  # noqa: E402

N = 1 << 24
BLOCK = 1024


def _grid(n=N):
    return (triton.cdiv(n, BLOCK),)


def cache_hints():
    x, y = torch.randn(N, device="cuda"), torch.randn(N, device="cuda")
    out = torch.empty_like(x)
    return (lambda: rk.cache_hints_kernel[_grid()](x, y, out, N, BLOCK=BLOCK)), [out], [x * y]


def gdc_copy():
    x = torch.randn(N, device="cuda")
    mid, out = torch.empty_like(x), torch.empty_like(x)

    def launch():
        # Two programmatically dependent launches: the second waits for the first.
        rk.gdc_copy_kernel[_grid()](x, mid, BLOCK=BLOCK, launch_pdl=True)
        rk.gdc_copy_kernel[_grid()](mid, out, BLOCK=BLOCK, launch_pdl=True)
    return launch, [out], [x + 2]


def axpy(options, fused):
    def make():
        x, y = torch.randn(N, device="cuda"), torch.randn(N, device="cuda")
        out = torch.empty_like(x)
        a = 1.7

        def launch():
            rk.axpy_kernel[_grid()](a, x, y, out, N, BLOCK=BLOCK, **options)
        # PyTorch's a * x + y rounds twice, as the unfused kernel; the fused
        # one is compared with Triton's alone.
        return launch, [out], [None if fused else a * x + y]
    return make


def atomic_rmw():
    x = torch.randint(-1000, 1000, (N,), device="cuda", dtype=torch.int32)
    mx = torch.full((1,), -2**31, device="cuda", dtype=torch.int32)
    sums = torch.zeros(16, device="cuda", dtype=torch.int32)
    flag = torch.zeros(1, device="cuda", dtype=torch.int32)

    def launch():
        mx.fill_(-2**31)
        sums.zero_()
        flag.zero_()
        rk.atomic_rmw_kernel[_grid()](x, mx, sums, flag, N, BLOCK=BLOCK)
    expected_sums = torch.zeros(16, device="cuda", dtype=torch.int64).index_add_(
        0, torch.arange(N, device="cuda") % 16, x.long()).int()
    return launch, [mx, sums, flag], [x.max().reshape(1), expected_sums, torch.ones(1, device="cuda",
                                                                                     dtype=torch.int32)]


CASES = {
    "cache_hints": cache_hints,
    "gdc_copy": gdc_copy,
    "axpy_no_fp_fusion": axpy({"enable_fp_fusion": False}, fused=False),
    "axpy_maxnreg": axpy({"maxnreg": 64}, fused=True),
    "atomic_rmw": atomic_rmw,
}


def run(name):
    launch, outputs, expected = CASES[name]()
    got = {}
    for compiler in ("triton", "kiln"):
        (kiln.triton.enable if compiler == "kiln" else kiln.triton.disable)()
        try:
            for t in outputs:
                t.fill_(float("nan") if t.is_floating_point() else 0)
            launch()
            torch.cuda.synchronize()
            got[compiler] = [t.clone() for t in outputs]
        finally:
            kiln.triton.disable()
    problems = []
    for i, (k, t) in enumerate(zip(got["kiln"], got["triton"])):
        if not torch.equal(k, t):
            problems.append(f"output {i} differs from Triton's in {int((k != t).sum())} elements")
    for i, (k, e) in enumerate(zip(got["kiln"], expected)):
        if e is not None and not torch.allclose(k.double(), e.double(), rtol=1e-6, atol=1e-6):
            problems.append(f"output {i} differs from PyTorch's")
    print(f"| {name} | {'FAIL' if problems else 'PASS'} | {'; '.join(problems)} |", flush=True)
    return not problems


def main():
    print(f"Triton {triton.__version__}, {torch.cuda.get_device_name()}")
    print("| kernel | kiln vs Triton (bit-exact) and PyTorch | notes |")
    print("|---|---|---|")
    ok = True
    for name in sys.argv[1:] or CASES:
        try:
            ok &= run(name)
        except Exception as e:  # one failing kernel must not end the run
            last = traceback.format_exception_only(type(e), e)[-1].strip()
            print(f"| {name} | FAIL | {last[:300]} |", flush=True)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
