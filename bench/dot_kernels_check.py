#!/usr/bin/env python3
"""The tutorial-style dot kernels of test/Python/Inputs/dot_kernels.py on the
GPU, launched from PyTorch with the bridge off (stock Triton) and on (kiln):
kiln's outputs checked against PyTorch's reference and Triton's within each
kernel's tolerance, and both timed (CUDA events, warm-up, median). For the
device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/dot_kernels_check.py [NAME ...]
    ... bench/dot_kernels_check.py --module gluon_kernels [NAME ...]   (the Gluon kernels)
"""
import os
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python", "Inputs"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="kiln-dot-check-"))

import torch  # noqa: E402

import importlib  # noqa: E402
import kiln.triton  # noqa: E402
from triton_side_by_side import close, median_ms  # noqa: E402


def run(kernel):
    b = kernel.bench
    args = b["inputs"](torch)
    outputs = {}
    times = {}
    for compiler in ("triton", "kiln"):
        (kiln.triton.enable if compiler == "kiln" else kiln.triton.disable)()
        try:
            for t in b["outputs"](args):
                t.fill_(float("nan") if t.is_floating_point() else 0)
            b["launch"](args)
            torch.cuda.synchronize()
            outputs[compiler] = [t.clone() for t in b["outputs"](args)]
            times[compiler] = median_ms([lambda: b["launch"](args)])
        finally:
            kiln.triton.disable()
    rtol, atol = b["tol"]
    problems = []
    expected = b["reference"](torch, args)
    for name, got in outputs.items():
        for i, (g, w) in enumerate(zip(got, expected)):
            ok, worst = close(g, w, rtol, atol)
            if not ok:
                problems.append(f"{name} output {i} differs from PyTorch's (worst {worst})")
    for i, (k, t) in enumerate(zip(outputs["kiln"], outputs["triton"])):
        ok, worst = close(k, t, rtol, atol)
        if not ok:
            problems.append(f"kiln output {i} differs from Triton's (worst {worst})")
    flops = b["flops"](args)
    status = "FAIL" if any(p.startswith("kiln") for p in problems) else "PASS"
    print(f"| {kernel.name} | {times['triton']:.4f} | {times['kiln']:.4f} | "
          f"{times['kiln'] / times['triton']:.3f} | {flops / times['triton'] * 1e-9:.0f} | "
          f"{flops / times['kiln'] * 1e-9:.0f} | {status} | {'; '.join(problems)} |", flush=True)


def main():
    args = sys.argv[1:]
    module = "dot_kernels"
    if args[:1] == ["--module"]:
        module, args = args[1], args[2:]
    kernels = importlib.import_module(module).KERNELS
    names = args or list(kernels)
    print("| kernel | Triton ms | kiln ms | kiln/Triton | Triton TFLOP/s | kiln TFLOP/s | kiln | notes |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for name in names:
        try:
            run(kernels[name])
        except Exception as e:  # one failing kernel must not end the run
            last = traceback.format_exception_only(type(e), e)[-1].strip()
            print(f"| {name} | – | – | – | – | – | FAIL | {last[:300]} |", flush=True)


if __name__ == "__main__":
    main()
