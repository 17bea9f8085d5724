#!/usr/bin/env python3
"""Tensor-core kernels compiled by stock Triton and by kiln, beside cuBLAS
and cuDNN, in one run on one GPU. For the device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 -W ignore bench/gemm_side_by_side.py [--only ...] [--budget S]

GEMM: the @triton.jit blocked matmul of test/Python/Inputs/dot_kernels.py
(grouped program order, f32 accumulation), or with --kernel ws its
persistent TMA matmul with a warp-specialised tile loop (and attention over
TMA descriptors, warp-specialised under kiln), or with --kernel tma the same
persistent matmul without warp specialisation, bf16 and fp16, over the shapes in
SHAPES. For each shape and compiler the best of CONFIGS (the same set for
both) is reported; every config's output is first checked against an f32
torch.matmul (no TF32), so a fast wrong kernel never wins. torch.matmul
(cuBLAS) runs on the same inputs. Attention: the fused attention forward of
dot_kernels.py, causal and not, HEAD_DIM 64 and 128, beside
torch's scaled_dot_product_attention on cuDNN. Block-scaled GEMM: the
tl.dot_scaled matmul of dot_kernels.py (mxfp8 x mxfp8, mxfp4 x bf16) over
SCALED_SHAPES, Triton and kiln only. Clustered GEMM: the persistent TMA
matmul with num_ctas=2 (thread-block clusters of two CTAs) over
CLUSTER_SHAPES, beside cuBLAS. With --hwx, the GEMM cases gain a column
for hwx's persistent warp-specialised matmul
(test/Python/Inputs/hwx_ws_gemm.py, compiled by kiln; its own configs),
checked and timed the same way. With --kiln-b PATH, a second kiln binary
(another build, for an A/B of a compiler change within one run) compiles
the same kernels and configs as a column of its own, its kernels cached
apart.

The bridge is toggled with kiln.triton.enable()/disable(), which drop the
kernels Triton's JIT holds in memory; one fresh TRITON_CACHE_DIR for the
run makes every first compile real, and kiln's cache key differs from
Triton's, so neither compiler is ever served the other's kernel.

Timing: CUDA events around batches of about 1 ms of launches, after a
warm-up; the median over a bounded number of batches. Each compiler's
FINALISTS fastest configs of CONFIGS in a short tuning are timed again in
the final rounds, taken in turn (Triton's, kiln's, the vendor's, ROUNDS
times); each figure is the median of its rounds, so that clock and
temperature drift weigh on all alike, and a compiler's figure is its
fastest finalist's. A round lasts about 0.1 s; with --sustained, about 1 s
for kernels of a millisecond or more (at 16384^3 a 0.1 s round is 8
launches, still in the transient before the card settles at its power
limit; report both). Two
input sets are used in turn when the operands are smaller than ROTATE_BELOW
(larger ones exceed L2 anyway). With --graphs each batch is replayed from
a CUDA graph (for every kernel, cuBLAS's too), which measures the kernels
where the host's launch path is slower than they are (the small shapes).

Every case runs in its own try/except: an error is a FAIL row with its
reason, never the end of the run. --budget bounds the whole run (default
480 s); cases left when it runs out are reported as skipped. --only picks
cases: dtypes (fp16, bf16), shapes (4096x4096x4096), families (gemm, scaled,
cluster, attn), block-scaled formats (mxfp8, mxfp4-bf16), attention variants (d64, d128, causal, noncausal) or case names as printed.
Prints one markdown table for bench/NOTES.md.
"""
import argparse
import math
import os
import re
import statistics
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python", "Inputs"))

import torch  # noqa: E402
import triton  # noqa: E402

import kiln  # noqa: E402
import kiln.triton  # noqa: E402
from triton_side_by_side import use_compiler  # noqa: E402
from dot_kernels import (attention, attention_desc, block_scaled_inputs, block_scaled_reference,  # noqa: E402
                         matmul, matmul_block_scaled, matmul_tma_persistent, matmul_tma_ws)

MB = 1 << 20
ROTATE_BELOW = 100 * MB   # operand bytes under which two input sets are rotated

SHAPES = [
    (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
    (16384, 16384, 16384), (128, 8192, 8192), (512, 8192, 8192), (8192, 28672, 8192),
    (16384, 1024, 16384), (4096, 4096, 32768),
]
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}
# (rtol, atol per sqrt(K)): entries of A @ B for randn inputs have standard
# deviation sqrt(K); rtol covers the output's rounding (bf16 keeps 8 bits).
GEMM_TOL = {"fp16": (1e-2, 1e-3), "bf16": (2e-2, 1e-3)}


def _cfg(bm, bn, bk, warps, stages):
    return dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
                num_warps=warps, num_stages=stages)


# Small on purpose: the big shapes take a while per config. 64x128 keeps
# enough programs in flight for the skinny M=128 and M=512 shapes.
CONFIGS = [
    _cfg(128, 256, 64, 8, 3),
    _cfg(128, 256, 64, 8, 4),
    _cfg(128, 128, 64, 8, 4),
    _cfg(128, 128, 64, 4, 4),
    _cfg(64, 128, 64, 4, 4),
]

# Block-scaled GEMM (tl.dot_scaled, e8m0 scales per 32 of K): which
# operand formats, on these shapes, with this config set (BLOCK_SIZE_K a
# multiple of 32). No vendor column: cuBLAS has no block-scaled GEMM on
# Hopper (torch._scaled_mm's block scales need sm_100).
SCALED_FORMATS = {"mxfp8": ("e4m3", "e4m3"), "mxfp4-bf16": ("e2m1", "bf16")}
SCALED_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
SCALED_CONFIGS = [
    _cfg(128, 128, 128, 8, 3),
    _cfg(128, 256, 128, 8, 3),
    _cfg(128, 128, 128, 4, 4),
]
SCALED_TOL = (2e-2, 1e-3)   # bf16 output of exact products summed in f32; atol per sqrt(K)

# Clustered GEMM: the persistent TMA matmul (not warp-specialised) with
# num_ctas=2, a program a cluster of two CTAs on two SMs (so half as many
# programs as SMs), fp16, fixed configs the same for both compilers.
CLUSTER_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
CLUSTER_CONFIGS = [
    dict(_cfg(128, 256, 64, 8, 3), num_ctas=2),
    dict(_cfg(256, 128, 64, 8, 3), num_ctas=2),
    dict(_cfg(128, 256, 64, 4, 3), num_ctas=2),
    # Each CTA a 128x256 or 256x128 half of the program's tile.
    dict(_cfg(256, 256, 64, 8, 3), num_ctas=2),
]

ATTN_SHAPE = dict(Z=4, H=32, N_CTX=4096)
ATTN_CASES = [(64, False), (64, True), (128, False), (128, True)]
ATTN_CONFIGS = [
    dict(BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=3),
    dict(BLOCK_M=128, BLOCK_N=64, num_warps=4, num_stages=3),
    dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=2),
]
ATTN_TOL = (1e-2, 1e-2)

TUNE = dict(max_batches=10, max_seconds=0.1)     # per config while tuning
FINAL = dict(max_batches=20, max_seconds=0.1)    # one round of the final figures
# --sustained: a round of a kernel of a millisecond or more lasts about a
# second, long enough for the card to settle at its power limit (a 0.1 s
# round of a 12 ms GEMM is 8 launches, still in the clocks' transient).
SUSTAINED = dict(max_batches=200, max_seconds=1.0)
sustained = False
ROUNDS = 5   # final figures: Triton, kiln and the vendor library in turn, this many times
FINALISTS = 2   # each compiler's fastest configs in tuning, timed again in every round


# --- timing -------------------------------------------------------------------

def median_ms(launches, max_batches, max_seconds, warmup=2, min_batches=3):
    """Median time of one launch, in ms. `launches`: callables (one per input
    set) used in turn. Each event pair brackets a batch of about 1 ms of
    launches, so that the host's launch overhead overlaps the kernels rather
    than showing as idle GPU time. With --graphs the batch is captured in a
    CUDA graph and replayed, so that a launch path slower than the kernel
    (small shapes) does not count either."""
    for i in range(warmup):
        launches[i % len(launches)]()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    launches[0]()
    end.record()
    torch.cuda.synchronize()
    estimate = max(start.elapsed_time(end), 1e-3)
    batch = max(1, min(100, int(1.0 / estimate)))
    batches = max(min_batches, min(max_batches, int(max_seconds * 1e3 / (estimate * batch))))

    def one_batch():
        for i in range(batch):
            launches[i % len(launches)]()
    if use_graphs:
        # The batch replayed from a CUDA graph: no host work between kernels.
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            one_batch()
        one_batch = graph.replay
        one_batch()
    events = []
    for _ in range(batches):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        one_batch()
        e.record()
        events.append((s, e))
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) / batch for s, e in events)


def close(got, want, rtol, atol):
    """(ok, worst absolute error): every element within atol + rtol*|want|,
    NaN never. In float32, to keep the big shapes' temporaries small."""
    err = (got.float() - want).abs()
    ok = bool((err <= atol + rtol * want.abs()).all())   # NaN compares false
    return ok, float(torch.nan_to_num(err, nan=float("inf")).max())


def reason(e):
    """The first line that says what went wrong."""
    if isinstance(e, kiln.CompileError):
        lines = [ln for ln in e.diagnostic.splitlines() if "error:" in ln] or e.diagnostic.splitlines()
        return "kiln: " + (lines[0].strip() if lines else "compile failed")
    text = f"{type(e).__name__}: {e}".strip().splitlines()
    return text[0] if text else type(e).__name__


def cuda_alive():
    # A kernel that faults leaves the context unusable for the whole process.
    try:
        torch.cuda.synchronize()
        return True
    except Exception:
        return False


kiln_b = None   # --kiln-b: the second kiln binary, or None


def compilers():
    """The compilers of the Triton kernels, in the order they are tuned and timed."""
    return ("triton", "kiln") + (("kiln_b",) if kiln_b else ())


def cfg_name(c):
    blocks = "x".join(str(v) for k, v in c.items() if k.startswith("BLOCK"))
    return (f"{blocks} w{c['num_warps']} s{c['num_stages']}" + (" ws" if c.get("WARP_SPECIALIZE") else "")
            + (f" c{c['num_ctas']}" if c.get("num_ctas", 1) > 1 else ""))


def hwx_cfg_name(c):
    import hwx_ws_gemm
    return hwx_ws_gemm.config_name(c) if c else "-"


def tune(compiler, configs, run, output, want, tol, deadline):
    """Checks then times every config under one compiler. Returns (ranked,
    problems): ranked the correct configs as (ms, config), fastest first; a
    config with a compile or launch error or a wrong output is named in
    problems."""
    use_compiler(compiler, kiln_b)
    results, problems = [], []
    try:
        for config in configs:
            if time.perf_counter() > deadline:
                problems.append("tuning cut short by the time budget")
                break
            name = hwx_cfg_name(config) if compiler == "hwx" else cfg_name(config)
            try:
                output.fill_(float("nan"))  # an element left unwritten fails the check
                kernel = run(0, config)     # the first launch compiles
                torch.cuda.synchronize()
                built_by = getattr(kernel.metadata, "compiler", "triton")
                expected = "kiln" if compiler in ("hwx", "kiln_b") else compiler
                if built_by != expected:
                    raise RuntimeError(f"the kernel launched was compiled by {built_by}, not {expected}")
                ok, worst = close(output, want, *tol)
                if not ok:
                    problems.append(f"{name}: wrong output (worst abs error {worst:.3g})")
                    continue
                ms = median_ms([lambda i=i: run(i, config) for i in range(run.sets)], **TUNE)
                results.append((ms, config))
            except Exception as e:
                problems.append(f"{name}: {reason(e)}")
                if not cuda_alive():
                    raise RuntimeError(f"CUDA context lost at {name}: {reason(e)}")
        return sorted(results, key=lambda r: r[0]), problems
    finally:
        kiln.triton.disable()


def keep_ranked(row, compiler, ranked):
    """Row entries for a compiler's tuning: its best time and config, and
    the FINALISTS fastest configs, all timed again in the final rounds."""
    row[f"{compiler}_ms"] = ranked[0][0] if ranked else None
    row[f"{compiler}_config"] = ranked[0][1] if ranked else None
    row[f"{compiler}_finalists"] = [config for _, config in ranked[:FINALISTS]]


def window(row):
    """How long one final measurement lasts: FINAL, or with --sustained
    SUSTAINED for a case whose tuned kernels take a millisecond or more."""
    tuned = [row.get(f"{c}_ms") for c in compilers() + ("hwx",)]
    long_kernel = any(t is not None and t >= 1.0 for t in tuned)
    return SUSTAINED if sustained and long_kernel else FINAL


def final_times(row, run, vendor, hwx_run=None):
    """The final figures, each the median of ROUNDS medians taken in turn
    (Triton, kiln, [hwx,] vendor, Triton, ...), so that the GPU's clocks and
    temperature drift alike for all of them. A compiler's figure is that of
    its fastest finalist: which of two close configs the short tuning
    ranked first is a draw, and the finals settle it."""
    times = {"vendor": []}
    runs = {"triton": run, "kiln": run, "kiln_b": run, "hwx": hwx_run}
    for _ in range(ROUNDS):
        for compiler in compilers() + ("hwx",):
            if runs[compiler] is None:
                continue
            go = runs[compiler]
            for n, config in enumerate(row.get(f"{compiler}_finalists", [])):
                use_compiler(compiler, kiln_b)
                try:
                    launches = [lambda i=i: go(i, config) for i in range(go.sets)]
                    times.setdefault((compiler, n), []).append(median_ms(launches, **window(row)))
                finally:
                    kiln.triton.disable()
        if vendor is not None:
            times["vendor"].append(median_ms([vendor], **window(row)))
    if times["vendor"]:
        row["vendor_ms"] = statistics.median(times["vendor"])
    for compiler in compilers() + ("hwx",):
        finals = [(statistics.median(times[(compiler, n)]), config)
                  for n, config in enumerate(row.get(f"{compiler}_finalists", []))
                  if (compiler, n) in times]
        if finals:
            row[f"{compiler}_ms"], row[f"{compiler}_config"] = min(finals, key=lambda f: f[0])


def tune_both(row, configs, run, output, want, tol, deadline):
    """Tunes Triton then kiln (configs(compiler) gives each its set) into
    row; returns the problems, each named by its compiler."""
    notes = []
    for compiler in compilers():
        ranked, problems = tune(compiler, configs(compiler), run, output, want, tol, deadline)
        keep_ranked(row, compiler, ranked)
        notes += [f"{compiler} {p}" for p in problems]
        row[f"{compiler}_wrong"] = any("wrong output" in p for p in problems)
    return notes


def finish(row, notes):
    row["status"] = ("PASS" if row["kiln_ms"] is not None and not row["kiln_wrong"]
                     and not row.get("kiln_b_wrong") else "FAIL")
    row["note"] = "; ".join(notes)
    return row


class Runner:
    """run(i, config) launches the kernel on input set i and returns it;
    .sets says how many input sets there are."""

    def __init__(self, fn, sets):
        self.fn = fn
        self.sets = sets

    def __call__(self, i, config):
        return self.fn(i, config)


# --- cases --------------------------------------------------------------------

GEMM_KERNELS = {"blocked": matmul, "ws": matmul_tma_ws,
                "tma": lambda a, b, c, config: matmul_tma_ws(a, b, c, config, warp_specialize=False)}
gemm_kernel = matmul
use_graphs = False   # --graphs: batches timed as CUDA graph replays
with_hwx = False   # --hwx: a column for hwx's warp-specialised GEMM (GEMM cases)
# With --kernel ws, attention runs through descriptors: kiln with its key
# loops warp-specialised, Triton without (Triton 3.6 does not specialise
# them on Hopper, and fails to compile the causal kernel when asked).
attn_ws = False


def run_gemm(dtype_name, shape, deadline, kernel=None, configs=None, prefix=""):
    M, N, K = shape
    dtype = DTYPES[dtype_name]
    row = {"case": f"{prefix}{dtype_name}-{M}x{N}x{K}", "flops": 2 * M * N * K, "vendor": "cuBLAS"}
    operand_bytes = (M * K + K * N) * torch.finfo(dtype).bits // 8
    n_sets = 2 if operand_bytes < ROTATE_BELOW else 1
    sets = [(torch.randn(M, K, device="cuda", dtype=dtype), torch.randn(K, N, device="cuda", dtype=dtype),
             torch.empty(M, N, device="cuda", dtype=dtype)) for _ in range(n_sets)]
    want = sets[0][0].float() @ sets[0][1].float()
    rtol, atol = GEMM_TOL[dtype_name]
    tol = (rtol, atol * math.sqrt(K))

    kernel = kernel or gemm_kernel
    run = Runner(lambda i, config: kernel(sets[i][0], sets[i][1], sets[i][2], config), n_sets)
    notes = tune_both(row, lambda compiler: configs or CONFIGS, run, sets[0][2], want, tol, deadline)
    hwx_run = None
    if with_hwx and not prefix:
        # kiln compiling hwx's own warp-specialised kernel, its configs.
        import hwx_ws_gemm
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        hwx_run = Runner(lambda i, config: hwx_ws_gemm.launch(*sets[i], config, sms), n_sets)
        ranked, problems = tune("hwx", hwx_ws_gemm.CONFIGS, hwx_run, sets[0][2], want, tol, deadline)
        keep_ranked(row, "hwx", ranked)
        notes += [f"hwx {p}" for p in problems]
    s0 = sets[0]
    final_times(row, run, lambda: torch.matmul(s0[0], s0[1], out=s0[2]), hwx_run)
    return finish(row, notes)


def run_cluster_gemm(shape, deadline):
    # A program of num_ctas CTAs takes as many SMs.
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    kernel = lambda a, b, c, config: matmul_tma_persistent(a, b, c, config, sms // config["num_ctas"])
    return run_gemm("fp16", shape, deadline, kernel, CLUSTER_CONFIGS, prefix="cluster2-")


def run_block_scaled(fmt_name, shape, deadline):
    M, N, K = shape
    formats = SCALED_FORMATS[fmt_name]
    row = {"case": f"{fmt_name}-{M}x{N}x{K}", "flops": 2 * M * N * K, "vendor": "-"}
    sets = [block_scaled_inputs(torch, formats, M, N, K)]
    want = block_scaled_reference(torch, sets[0])[0].float()

    def launch(i, config):
        a = sets[i]
        return matmul_block_scaled(a["a"], a["a_scale"], a["b_t"], a["b_scale"], a["c"], formats, config)
    run = Runner(launch, len(sets))
    tol = (SCALED_TOL[0], SCALED_TOL[1] * math.sqrt(K))
    notes = tune_both(row, lambda compiler: SCALED_CONFIGS, run, sets[0]["c"], want, tol, deadline)
    final_times(row, run, None)
    return finish(row, notes)


def run_attention(head_dim, causal, deadline):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    Z, H, n_ctx = ATTN_SHAPE["Z"], ATTN_SHAPE["H"], ATTN_SHAPE["N_CTX"]
    name = f"attn-d{head_dim}" + ("-causal" if causal else "")
    flops = 4 * Z * H * n_ctx * n_ctx * head_dim // (2 if causal else 1)
    row = {"case": f"{name} Z{Z} H{H} N{n_ctx}", "flops": flops, "vendor": "cuDNN"}
    shape = (Z, H, n_ctx, head_dim)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty(shape, device="cuda", dtype=torch.float16)
    m = torch.empty((Z, H, n_ctx), device="cuda", dtype=torch.float32)
    sm_scale = head_dim ** -0.5
    sdpa = torch.nn.functional.scaled_dot_product_attention
    # The reference: whichever backend torch picks (flash attention for f16).
    want = sdpa(q, k, v, is_causal=causal, scale=sm_scale).float()
    notes = []

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            sdpa(q, k, v, is_causal=causal, scale=sm_scale)
    try:
        cudnn()
    except Exception as e:
        notes.append(f"cuDNN {reason(e)}")
        cudnn = None
    launch = attention_desc if attn_ws else attention
    run = Runner(lambda i, config: launch(q, k, v, o, m, sm_scale, causal, config), 1)
    notes += tune_both(row, lambda compiler: [dict(c, WARP_SPECIALIZE=compiler == "kiln") if attn_ws else c
                                              for c in ATTN_CONFIGS],
                       run, o, want, ATTN_TOL, deadline)
    final_times(row, run, cudnn)
    return finish(row, notes)


# --- selection ----------------------------------------------------------------

class Only:
    """--only's tokens: a case runs when its name is given, or when its family
    is on (named, or one of its filters given) and it passes every filter
    given for that family."""

    def __init__(self, tokens):
        self.any = bool(tokens)
        self.names, self.dtypes, self.shapes, self.dims, self.causal = set(), set(), set(), set(), set()
        self.gemm = self.attn = self.scaled = self.cluster = False
        for t in (tokens or []):
            t = t.lower()
            if t in ("gemm", "matmul"):
                self.gemm = True
            elif t in ("scaled", "block-scaled"):
                self.scaled = True
            elif t in ("cluster", "clusters"):
                self.cluster = True
            elif t in ("attn", "attention"):
                self.attn = True
            elif t in ("fp16", "f16", "bf16"):
                self.dtypes.add("bf16" if t == "bf16" else "fp16")
                self.gemm = True
            elif re.fullmatch(r"\d+x\d+x\d+", t):
                self.shapes.add(t)
                self.gemm = True
            elif re.fullmatch(r"d\d+", t):
                self.dims.add(int(t[1:]))
                self.attn = True
            elif t in ("causal", "noncausal"):
                self.causal.add(t == "causal")
                self.attn = True
            else:
                self.names.add(t)
        self.used = set()

    def gemm_case(self, dtype, shape):
        name = f"{dtype}-{'x'.join(map(str, shape))}"
        if not self.any or name in self.names:
            self.used.add(name)
            return True
        return (self.gemm and (not self.dtypes or dtype in self.dtypes)
                and (not self.shapes or "x".join(map(str, shape)) in self.shapes))

    def scaled_case(self, fmt_name, shape):
        name = f"{fmt_name}-{'x'.join(map(str, shape))}"
        if not self.any or name in self.names or fmt_name in self.names:
            self.used.add(name if name in self.names else fmt_name)
            return True
        return self.scaled and (not self.shapes or "x".join(map(str, shape)) in self.shapes)

    def cluster_case(self, shape):
        name = f"cluster2-fp16-{'x'.join(map(str, shape))}"
        if not self.any or name in self.names:
            self.used.add(name)
            return True
        return self.cluster and (not self.shapes or "x".join(map(str, shape)) in self.shapes)

    def attn_case(self, head_dim, causal):
        name = f"attn-d{head_dim}" + ("-causal" if causal else "")
        if not self.any or name in self.names:
            self.used.add(name)
            return True
        return self.attn and (not self.dims or head_dim in self.dims) and (not self.causal or causal in self.causal)


# --- report -------------------------------------------------------------------

def fmt(value, spec):
    return format(value, spec) if value is not None else "-"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def report(rows, header):
    print(header)
    print()
    print("Time ratios: above 1 means the first is slower. TFLOP/s of the best config of the set for "
          "each compiler; vendor: cuBLAS (torch.matmul) for GEMM, cuDNN (sdpa) for attention.")
    print()
    hwx = any(r.get("hwx_config") for r in rows)
    b = any(r.get("kiln_b_config") for r in rows)
    extra = (" hwx TFLOP/s | hwx/vendor | hwx config |" if hwx else "") + (
        " kiln B TFLOP/s | kiln B/Triton | kiln/kiln B |" if b else "")
    print("| case | vendor TFLOP/s | Triton TFLOP/s | kiln TFLOP/s | kiln/Triton | kiln/vendor | Triton/vendor "
          "| Triton config | kiln config |" + extra + " PASS/FAIL | note |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
          + (" ---: | ---: | --- |" if hwx else "") + (" ---: | ---: | ---: |" if b else "") + " --- | --- |")
    ratios = {f: {"kt": [], "kv": [], "tv": [], "hv": [], "kb": []}
              for f in ("gemm", "scaled", "cluster", "attn")}
    for r in rows:
        tflops = {w: (r["flops"] / (r[f"{w}_ms"] * 1e-3) / 1e12 if r.get(f"{w}_ms") else None)
                  for w in ("vendor", "triton", "kiln", "kiln_b", "hwx")}

        def ratio(a, b):
            return r[f"{a}_ms"] / r[f"{b}_ms"] if r.get(f"{a}_ms") and r.get(f"{b}_ms") else None

        kt, kv, tv = ratio("kiln", "triton"), ratio("kiln", "vendor"), ratio("triton", "vendor")
        hv = ratio("hwx", "vendor")
        kb = ratio("kiln", "kiln_b")
        family = ("attn" if r["case"].startswith("attn") else
                  "cluster" if r["case"].startswith("cluster") else
                  "scaled" if any(r["case"].startswith(f + "-") for f in SCALED_FORMATS) else "gemm")
        if r.get("status") == "PASS":
            for key, value in (("kt", kt), ("kv", kv), ("tv", tv), ("hv", hv), ("kb", kb)):
                if value:
                    ratios[family][key].append(value)
        vendor = r.get("vendor", "")
        print(f"| {r['case']} | {fmt(tflops['vendor'], '.1f')} {vendor} | {fmt(tflops['triton'], '.1f')} | "
              f"{fmt(tflops['kiln'], '.1f')} | {fmt(kt, '.3f')} | {fmt(kv, '.3f')} | {fmt(tv, '.3f')} | "
              f"{cfg_name(r['triton_config']) if r.get('triton_config') else '-'} | "
              f"{cfg_name(r['kiln_config']) if r.get('kiln_config') else '-'} | "
              + (f"{fmt(tflops['hwx'], '.1f')} | {fmt(hv, '.3f')} | {hwx_cfg_name(r.get('hwx_config'))} | "
                 if hwx else "") +
              (f"{fmt(tflops['kiln_b'], '.1f')} | {fmt(ratio('kiln_b', 'triton'), '.3f')} | {fmt(kb, '.3f')} | "
               if b else "") +
              f"{r.get('status', 'FAIL')} | "
              f"{r.get('note', '')[:300].replace('|', '/')} |")
    print()
    passed = sum(r.get("status") == "PASS" for r in rows)
    print(f"{passed} of {len(rows)} PASS")
    for family, label in (("gemm", "GEMM shapes"), ("scaled", "block-scaled GEMMs"),
                          ("cluster", "clustered GEMMs"),
                          ("attn", "attention cases")):
        f = ratios[family]
        if f["kt"]:
            print(f"geomean over {len(f['kt'])} passing {label}: kiln/Triton {geomean(f['kt']):.3f} "
                  f"(worst {max(f['kt']):.3f}); kiln/vendor {fmt(geomean(f['kv']), '.3f')}; "
                  f"Triton/vendor {fmt(geomean(f['tv']), '.3f')}"
                  + (f"; hwx/vendor {geomean(f['hv']):.3f} (worst {max(f['hv']):.3f}, over "
                     f"{len(f['hv'])})" if f["hv"] else "")
                  + (f"; kiln/kiln B {geomean(f['kb']):.3f} (worst {max(f['kb']):.3f})" if f["kb"] else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=480, help="seconds for the whole run")
    parser.add_argument("--only", nargs="*", help="dtypes, shapes (MxNxK), gemm, attn, d64, d128, causal, "
                                                  "noncausal or case names")
    parser.add_argument("--kernel", choices=sorted(GEMM_KERNELS), default="blocked",
                        help="the GEMM kernel: the blocked matmul, the persistent TMA matmul with "
                             "warp specialisation (tl.range(..., warp_specialize=True)), or without "
                             "it (tma: the tile and k loops fused)")
    parser.add_argument("--hwx", action="store_true",
                        help="also time hwx's persistent warp-specialised GEMM "
                             "(test/Python/Inputs/hwx_ws_gemm.py; needs the hwx plugin) on the GEMM cases")
    parser.add_argument("--graphs", action="store_true",
                        help="time batches of launches replayed from CUDA graphs (the kernels' "
                             "own time, without the host's launch path)")
    parser.add_argument("--sustained", action="store_true",
                        help="time the final rounds of kernels of 1 ms or more for about 1 s each "
                             "(the card at its power limit) rather than 0.1 s")
    parser.add_argument("--kiln-b", metavar="PATH",
                        help="a second kiln binary: its column compares a compiler change within the run")
    args = parser.parse_args()
    global gemm_kernel, attn_ws, with_hwx, use_graphs, sustained, kiln_b
    kiln_b = args.kiln_b
    sustained = args.sustained
    with_hwx = args.hwx
    use_graphs = args.graphs
    gemm_kernel = GEMM_KERNELS[args.kernel]
    attn_ws = args.kernel == "ws"
    deadline = time.perf_counter() + args.budget
    only = Only(args.only)
    torch.backends.cuda.matmul.allow_tf32 = False   # the f32 reference is true f32

    # One fresh cache for the run: the first launch of every config compiles.
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="gemm-side-by-side-")
    try:
        who = f"kiln {kiln.identity('cuda:90')[0]} ({kiln.find_executable()})"
    except Exception as e:  # the run goes on: every kiln column will say why
        who = f"kiln unavailable: {e}"
    if kiln_b:
        try:
            who += f"; kiln B {kiln.identity('cuda:90', executable=kiln_b)[0]} ({kiln_b})"
        except Exception as e:
            who += f"; kiln B unavailable: {e}"
    header = (f"# gemm_side_by_side {time.strftime('%Y-%m-%d %H:%M')} on {torch.cuda.get_device_name()}; "
              f"GEMM kernel {args.kernel}{' (CUDA graphs)' if use_graphs else ''}"
              f"{'; finals of long kernels sustained (1 s)' if sustained else ''}; Triton {triton.__version__}, torch {torch.__version__} (CUDA {torch.version.cuda}, "
              f"cuDNN {torch.backends.cudnn.version()}), {who}; cuBLAS reduced-precision reduction: fp16 "
              f"{torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction}, bf16 "
              f"{torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction}")

    cases = []
    for dtype in DTYPES:
        for shape in SHAPES:
            if only.gemm_case(dtype, shape):
                cases.append((f"{dtype}-{'x'.join(map(str, shape))}", run_gemm, (dtype, shape)))
    for fmt_name in SCALED_FORMATS:
        for shape in SCALED_SHAPES:
            if only.scaled_case(fmt_name, shape):
                cases.append((f"{fmt_name}-{'x'.join(map(str, shape))}", run_block_scaled, (fmt_name, shape)))
    for shape in CLUSTER_SHAPES:
        if only.cluster_case(shape):
            cases.append((f"cluster2-fp16-{'x'.join(map(str, shape))}", run_cluster_gemm, (shape,)))
    for head_dim, causal in ATTN_CASES:
        if only.attn_case(head_dim, causal):
            name = f"attn-d{head_dim}" + ("-causal" if causal else "")
            cases.append((name, run_attention, (head_dim, causal)))
    unknown = only.names - only.used
    if unknown:
        print(f"warning: --only names no case called {', '.join(sorted(unknown))}", file=sys.stderr)

    rows, lost = [], None
    for name, fn, fn_args in cases:
        if lost or time.perf_counter() > deadline:
            why = lost or "skipped: out of time budget"
            rows.append({"case": name, "flops": 1, "status": "SKIP", "note": why})
            continue
        try:
            rows.append(fn(*fn_args, deadline))
        except Exception as e:
            traceback.print_exc()
            rows.append({"case": name, "flops": 1, "status": "FAIL", "note": reason(e)})
            if not cuda_alive():
                lost = f"skipped: CUDA context lost in {name}"
        finally:
            kiln.triton.disable()
            torch.cuda.empty_cache()
        print(f"done {name} ({time.perf_counter() - deadline + args.budget:.0f} s)", file=sys.stderr, flush=True)

    report(rows, header)


if __name__ == "__main__":
    main()
