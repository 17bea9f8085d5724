#!/usr/bin/env python3
"""Where GEMMs stand against the tensor cores' peak at the clock the card
actually runs: for each shape, cuBLAS, hwx's warp-specialised matmul (its
fastest config) and the persistent TMA WS matmul of dot_kernels.py compiled
by stock Triton and by kiln, each replayed from a CUDA graph for two
seconds while nvidia-smi samples the SM clock and the board power; and, from
one traced launch of hwx's cooperative kernel (its `trace` argument), where
its consumers' cycles go. For the device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 -u bench/gemm_power.py [--dtype bf16] [MxNxK ...]

A Hopper SM's tensor cores do 4096 dense bf16/fp16 flops a clock (989
TFLOP/s over 132 SMs at 1830 MHz), so a kernel's share of the peak at its
own clock is TFLOP/s / (SMs x 4096 x MHz). A card held at its power limit
lowers the clock instead: two kernels at one share of that peak differ in
speed only by the clock their power allows, and a kernel that spends more
energy per flop (more instructions, more shared-memory or L2 traffic) is
slower there than its share at a fixed clock says.
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python", "Inputs"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="kiln-gemm-power-"))

import torch  # noqa: E402
import triton  # noqa: E402

import kiln.triton  # noqa: E402
import hwx_ws_gemm  # noqa: E402
from dot_kernels import matmul_tma_ws  # noqa: E402
from gemm_side_by_side import (DTYPES, GEMM_TOL, ROTATE_BELOW, SHAPES, Runner, _cfg,  # noqa: E402
                               tune)

FLOPS_PER_SM_CLOCK = 4096
WS_CONFIG = _cfg(128, 256, 64, 8, 3)   # the tutorial WS kernel's config, both compilers
SECONDS = 2.0


class Sampler:
    """nvidia-smi's SM clock (MHz) and board power (W, the instant reading:
    power.draw averages over a second) of this GPU every 20 ms."""

    def __init__(self, uuid):
        self.gpu = f"GPU-{uuid}"

    def __enter__(self):
        # Older drivers have no instant reading: then the averaged one.
        for power in ("power.draw.instant", "power.draw"):
            self.proc = subprocess.Popen(
                ["stdbuf", "-oL", "nvidia-smi", "-i", self.gpu, f"--query-gpu=clocks.sm,{power}",
                 "--format=csv,noheader,nounits", "-lms", "20"], stdout=subprocess.PIPE, text=True)
            # The first sample: sampling has begun (nvidia-smi takes a while to start).
            if self._parse(self.proc.stdout.readline()):
                break
            self.proc.kill()
            self.proc.wait()
        return self

    @staticmethod
    def _parse(line):
        try:
            mhz, watts = (float(v) for v in line.split(","))
            return mhz, watts
        except ValueError:
            return None

    def __exit__(self, *exc):
        self.proc.terminate()
        out, _ = self.proc.communicate()
        self.samples = [sample for sample in map(self._parse, out.splitlines()) if sample]
        # The first samples may predate the clock's settling under the load.
        self.samples = self.samples[len(self.samples) // 4:]


def replay(fn, sets, gpu):
    """Times fn(i) replayed from a graph for about SECONDS while sampling:
    (ms per call, median MHz, median W)."""
    for i in range(sets):
        fn(i)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn(0)
    end.record()
    end.synchronize()
    per_graph = max(4, min(400, int(2.0 / max(start.elapsed_time(end), 1e-3))))
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for j in range(per_graph):
            fn(j % sets)
    graph.replay()
    torch.cuda.synchronize()
    with Sampler(gpu) as sampler:
        deadline = time.time() + SECONDS
        times = []
        while time.time() < deadline:
            start.record()
            graph.replay()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / per_graph)
    mhz = statistics.median(s[0] for s in sampler.samples) if sampler.samples else float("nan")
    watts = statistics.median(s[1] for s in sampler.samples) if sampler.samples else float("nan")
    return statistics.median(times[len(times) // 4:]), mhz, watts


def phases(a, b, c, config, sms):
    """One traced launch of hwx's cooperative kernel: where its consumers'
    cycles go (medians over CTAs), against the tensor cores' 4096 flops a
    clock."""
    M, K = a.shape
    N = b.shape[1]
    trace = torch.zeros(sms * hwx_ws_gemm.TRACE_WORDS.value, dtype=torch.int64, device="cuda")
    hwx_ws_gemm.launcher(a, b, c, config, sms, trace=trace)()
    torch.cuda.synchronize()
    rows = [r for r in trace.view(sms, -1).tolist() if r[0]]
    # A program is a cluster of CLUSTER CTAs (a row each) sharing its tiles.
    cluster = config.get("CLUSTER", 1)
    tiles = triton.cdiv(M, config["BM"] * cluster) * triton.cdiv(N, config["BN"])
    programs = len(rows) // cluster
    per_program = [len(range(i // cluster, tiles, programs)) for i in range(len(rows))]
    ideal = triton.cdiv(K, config["BK"]) * config["BM"] * config["BN"] * config["BK"] * 2 / FLOPS_PER_SM_CLOCK
    start = statistics.median(r[1] - r[0] for r in rows)
    # Products from the first data to the last tile's end, less the stores
    # of the tiles before the last.
    loop = statistics.median((r[2] - r[1] - r[4]) / n for r, n in zip(rows, per_program))
    store = statistics.median(r[5] / n for r, n in zip(rows, per_program))
    total = max(r[3] - r[0] for r in rows)
    return (f"{programs} programs of {cluster} CTA(s), up to {max(per_program)} tiles a CTA; "
            f"first data after {start:.0f} cycles; "
            f"a tile's products {loop:.0f} cycles ({ideal / loop:.3f} of the tensor cores' rate), "
            f"its store {store:.0f}; the longest program {total:.0f} cycles, "
            f"{max(per_program) * ideal / total:.3f} of it the tensor cores' own time")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dtype", choices=("bf16", "fp16"), default="bf16")
    parser.add_argument("shapes", nargs="*", help="MxNxK (default: gemm_side_by_side's ten)")
    args = parser.parse_args()
    dtype = DTYPES[args.dtype]
    rtol, atol = GEMM_TOL[args.dtype]
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes] or SHAPES
    props = torch.cuda.get_device_properties(0)
    sms = props.multi_processor_count
    print(f"{props.name}, {sms} SMs, {args.dtype}; peak at clock f: {sms} x {FLOPS_PER_SM_CLOCK} x f")
    rows = []
    for M, N, K in shapes:
        sets = 2 if (M * K + K * N) * torch.finfo(dtype).bits // 8 < ROTATE_BELOW else 1
        data = [(torch.randn(M, K, device="cuda", dtype=dtype), torch.randn(K, N, device="cuda", dtype=dtype),
                 torch.empty(M, N, device="cuda", dtype=dtype)) for _ in range(sets)]
        want = data[0][0].float() @ data[0][1].float()
        # hwx's fastest config that is right on these inputs.
        hwx_run = Runner(lambda i, config: hwx_ws_gemm.launch(*data[i], config, sms), sets)
        ranked, problems = tune("hwx", hwx_ws_gemm.CONFIGS, hwx_run, data[0][2], want,
                                (rtol, atol * math.sqrt(K)), float("inf"))
        config = ranked[0][1] if ranked else None
        for problem in problems:
            print(f"  hwx {problem}")
        kiln.triton.enable()
        kernels = [("cuBLAS", lambda i: torch.matmul(data[i][0], data[i][1], out=data[i][2]), None)]
        if config:
            if config.get("schedule") != "pingpong":
                print(f"{M}x{N}x{K} hwx {hwx_ws_gemm.config_name(config)}: {phases(*data[0], config, sms)}",
                      flush=True)
            launchers = [hwx_ws_gemm.launcher(*d, config, sms) for d in data]
            kernels.append((f"hwx {hwx_ws_gemm.config_name(config)}", lambda i: launchers[i](), "kiln"))
        ws = lambda i: matmul_tma_ws(*data[i], WS_CONFIG)
        kernels += [("Triton WS", ws, "triton"), ("kiln WS", ws, "kiln")]
        for name, fn, compiler in kernels:
            if compiler:
                (kiln.triton.enable if compiler == "kiln" else kiln.triton.disable)()
            try:
                ms, mhz, watts = replay(fn, sets, props.uuid)
            except Exception as e:
                print(f"{M}x{N}x{K} {name}: {type(e).__name__}: {str(e)[:200]}")
                continue
            tflops = 2 * M * N * K / ms * 1e-9
            share = tflops * 1e12 / (sms * FLOPS_PER_SM_CLOCK * mhz * 1e6)
            rows.append((f"{M}x{N}x{K}", name, ms, tflops, mhz, watts, share))
            print(f"{M}x{N}x{K} {name}: {ms * 1e3:.1f} us, {tflops:.0f} TFLOP/s, {mhz:.0f} MHz, "
                  f"{watts:.0f} W, {share:.3f} of the peak at that clock", flush=True)
        del data, want
        torch.cuda.empty_cache()
    print("\n| shape | kernel | us | TFLOP/s | MHz | W | share of peak at clock |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for shape, name, ms, tflops, mhz, watts, share in rows:
        print(f"| {shape} | {name} | {ms * 1e3:.1f} | {tflops:.0f} | {mhz:.0f} | {watts:.0f} | {share:.3f} |")


if __name__ == "__main__":
    main()
