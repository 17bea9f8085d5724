"""What one compile through the kiln bridge costs against Triton's own, on
the CPU (no GPU needed): the same kernel, triton.compile for cuda:90, every
compile a cache miss (TRITON_ALWAYS_COMPILE semantics), stock and bridge
interleaved, medians.

    build/venv/bin/python bench/bridge_compile_cost.py [--repeat N]

Runs every non-dot corpus kernel.ttir and the tutorial kernels; a kernel
kiln cannot compile yet is listed as such (its time to the error is not a
compile). Also reports the one-off cost per process of asking kiln its
identity for the cache key. Uses KILN_EXECUTABLE or the checkout's build.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python", "Inputs"))

import triton  # noqa: E402
from triton import knobs  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

import kiln  # noqa: E402
import kiln._driver  # noqa: E402
import kiln.triton  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


def cases():
    from tutorial_kernels import KERNELS
    corpus = os.path.join(ROOT, "test", "corpus")
    for name in sorted(os.listdir(corpus)):
        manifest_path = os.path.join(corpus, name, "manifest.json")
        if not os.path.isfile(manifest_path):
            continue
        if "tt.dot" in open(os.path.join(corpus, name, "kernel.ttir")).read():
            continue
        manifest = json.load(open(manifest_path))
        path = os.path.join(corpus, name, "kernel.ttir")
        yield name, (lambda p=path: p), {"num_warps": manifest.get("num_warps", 4)}
    for name, spec in KERNELS.items():
        yield "tutorial " + name, spec.source, {"num_warps": spec.num_warps}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="bridge-cost-")
    knobs.compilation.always_compile = True

    began = time.perf_counter()
    kiln._driver.identity("cuda:90")
    identity_ms = (time.perf_counter() - began) * 1e3

    kiln_process = []
    real = kiln._driver.compile

    def timed(*a, **k):
        result = real(*a, **k)
        kiln_process.append(result.seconds)
        return result

    kiln._driver.compile = timed

    rows = []
    for name, source, options in cases():
        stock, bridge = [], []
        error = None
        for i in range(args.repeat + 1):  # the first round warms both up
            kiln.triton.disable()
            t = time.perf_counter()
            triton.compile(source(), target=TARGET, options=options)
            stock_s = time.perf_counter() - t
            kiln.triton.enable()
            t = time.perf_counter()
            try:
                triton.compile(source(), target=TARGET, options=options)
            except kiln.CompileError as e:
                error = e.diagnostic.splitlines()[0][:70]
                break
            bridge_s = time.perf_counter() - t
            if i:
                stock.append(stock_s)
                bridge.append(bridge_s)
        kiln.triton.disable()
        if error:
            rows.append((name, None, None, None, error))
            continue
        process = statistics.median(kiln_process[-args.repeat:])
        rows.append((name, statistics.median(stock) * 1e3, statistics.median(bridge) * 1e3, process * 1e3, ""))

    print(f"kiln identity (once per process and target): {identity_ms:.1f} ms")
    print(f"{'kernel':28} {'Triton ms':>10} {'bridge ms':>10} {'kiln proc':>10} {'bridge/Triton':>14}")
    ratios = []
    for name, t, b, p, error in rows:
        if error:
            print(f"{name:28} {'':>10} {'':>10} {'':>10} {'':>14}  kiln cannot yet: {error}")
            continue
        ratios.append(b / t)
        print(f"{name:28} {t:10.1f} {b:10.1f} {p:10.1f} {b / t:14.2f}")
    if ratios:
        print(f"median bridge/Triton over {len(ratios)} kernels: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
