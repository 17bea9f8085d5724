#!/usr/bin/env python3
"""Stock Triton and kiln on the same kernels, through Triton's own launcher,
in one run on one GPU (issue 9, deliverable 4). For the device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/triton_side_by_side.py

Part 1: every corpus case whose arguments are buffers and scalars. The same kernel.ttir is compiled
twice with triton.compile (bridge off, then on; fresh caches, so the compile
times are real), both kernels are launched through Triton's launcher on the
same fresh random inputs at large sizes (>= 256 MiB per big buffer), kiln's
outputs are compared with Triton's within the manifest's tolerance, and both
are timed with CUDA events (warm-up, median of many launches, two input sets
used in turn, each far beyond L2).
Part 2: the tutorial-style kernels of test/Python/Inputs/tutorial_kernels.py,
launched as a user launches them (@triton.jit from PyTorch) with the bridge
off and on, outputs compared with each other and with PyTorch's.

Prints the device-to-device copy rate and one table (kernel, Triton ms, kiln
ms, kiln/Triton, % of copy bandwidth, PASS/FAIL), then the compile times.
Every case runs in its own try/except: an error is a FAIL row with its
reason, never the end of the run. --budget bounds the whole run (default
420 s); cases left when it runs out are reported as skipped.
"""
import argparse
import json
import math
import os
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
from triton.backends.compiler import GPUTarget  # noqa: E402

import kiln  # noqa: E402
import kiln.triton  # noqa: E402

MiB = 1 << 20
BIG = 256 * MiB          # bytes of each large buffer
TARGET = GPUTarget("cuda", 90, 32)
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "i32": torch.int32,
          "i64": torch.int64, "i8": torch.int8, "i1": torch.bool}


def cdiv(a, b):
    return (a + b - 1) // b


# --- timing ---------------------------------------------------------------

def median_ms(launches, warmup=5, batch=10, min_batches=10, max_batches=100, max_seconds=1.5):
    """Median time of one launch, in ms. `launches` is a list of callables
    (one per input set), used in turn so that no launch finds its inputs in
    L2 from the launch before. Events bracket batches of launches, so the
    host's launch overhead overlaps the kernels before it instead of being
    counted as idle GPU time."""
    for i in range(warmup):
        launches[i % len(launches)]()
    torch.cuda.synchronize()
    events = []
    began = time.perf_counter()
    for b in range(max_batches):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(batch):
            launches[i % len(launches)]()
        end.record()
        events.append((start, end))
        if b + 1 >= min_batches and time.perf_counter() - began > max_seconds:
            break
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) / batch for s, e in events)


def copy_rate():
    """Device-to-device copy rate in bytes/s (read + write), 1 GiB buffers."""
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    dst = [torch.empty_like(src), torch.empty_like(src)]
    ms = median_ms([lambda: dst[0].copy_(src), lambda: dst[1].copy_(src)], min_batches=2,
                   max_seconds=2)
    return 2 * (1 << 30) / (ms * 1e-3)


# --- corpus cases -----------------------------------------------------------

# How each case grows to benchmark size: a function of the manifest giving
# (shapes of the buffer arguments, scalar values, grid). The block sizes are
# those in each kernel.ttir (its tt.make_range ends); sizes keep every
# tt.divisibility = 16 the TTIR assumes. memory_bound says whether the copy
# rate is the yardstick.
def _1d(n_arg, block, names, elems=BIG // 4):
    def scale(m):
        n = elems
        shapes = {a["name"]: [n] for a in m["args"] if a["kind"] == "buffer" and a["name"] in names}
        return shapes, {n_arg: n}, (cdiv(n, block), 1, 1)
    return scale


def _rows(row_len_arg, extra_scalars, per_row_bytes):
    def scale(m):
        cols = next(a["value"] for a in m["args"] if a["name"] == row_len_arg)
        rows = cdiv(BIG, cols * per_row_bytes)
        shapes = {}
        for a in m["args"]:
            if a["kind"] == "buffer":
                shapes[a["name"]] = [rows, cols] if len(a["shape"]) == 2 else [rows]
        scalars = {name: cols for name in extra_scalars}
        return shapes, scalars, (rows, 1, 1)
    return scale


def _layernorm(m):
    cols = 8192
    rows = BIG // (2 * cols)
    shapes = {"x": [rows, cols], "y": [rows, cols], "w": [cols], "b": [cols], "mean_out": [rows],
              "rstd_out": [rows]}
    return shapes, {"stride": cols, "N": cols}, (rows, 1, 1)


def _transpose(m):
    side = 8192  # 256 MiB of f32 each way
    return {"x": [side, side], "y": [side, side]}, {"M": side, "N": side}, (cdiv(side, 64), cdiv(side, 32), 1)


def _as_is(m):
    shapes = {a["name"]: a["shape"] for a in m["args"] if a["kind"] == "buffer"}
    scalars = {a["name"]: a["value"] for a in m["args"] if a["kind"] == "scalar"}
    return shapes, scalars, tuple(m["grid"])


SCALING = {
    "add_f32": (_1d("n", 1024, {"x", "y", "z"}), True),
    "saxpy_math": (_1d("n", 512, {"x", "y", "out"}), True),
    "int_ops_cast": (_1d("n", 256, {"x", "y", "f"}), True),
    "dropout_rand": (_1d("n", 1024, {"x", "y"}), True),
    "histogram_atomic": (_1d("n", 1024, {"x"}), False),   # bound by atomics on 64 bins
    "softmax_f32": (_rows("n_cols", ("in_stride", "out_stride", "n_cols"), 4), True),
    "cumsum_i32": (_rows("N", ("N",), 4), True),
    "row_sum_argmax": (_rows("N", ("stride", "N"), 4), True),
    "layernorm_f16": (_layernorm, True),
    "transpose_2d": (_transpose, True),
    "gather_rows": (_as_is, False),                       # one program; its TTIR fixes the size
    "matmul_f16": (_as_is, False),                        # 500x608x372: a check, not a benchmark
}


def random_buffer(arg, shape, case):
    dtype = DTYPES[arg["dtype"]]
    if case == "histogram_atomic" and arg["name"] == "x":
        return torch.randint(0, 1 << 20, shape, device="cuda", dtype=dtype)
    if case == "gather_rows" and arg["name"] == "idx":
        return torch.randint(0, shape[0], shape, device="cuda", dtype=dtype)
    if dtype.is_floating_point:
        return torch.randn(shape, device="cuda", dtype=torch.float32).to(dtype)
    if dtype == torch.bool:
        return torch.rand(shape, device="cuda") < 0.5
    return torch.randint(-1000, 1000, shape, device="cuda", dtype=dtype)


def poison(t):
    # An element the kernel forgets to write stays obviously wrong.
    if t.dtype.is_floating_point:
        t.fill_(float("nan"))
    elif t.dtype == torch.bool:
        t.fill_(True)
    else:
        t.fill_(-123456789 if t.dtype in (torch.int32, torch.int64) else 0x5A)


def close(got, want, rtol, atol):
    """Elements within atol + rtol*|want| (NaN only where both are NaN): (ok, worst)."""
    if got.dtype.is_floating_point:
        g, w = got.double(), want.double()
        both_nan = torch.isnan(g) & torch.isnan(w)
        err = torch.nan_to_num((g - w).abs(), nan=float("inf"))
        bad = ~((err <= atol + rtol * w.abs()) | both_nan)
        compared = err[~both_nan]
        return (not bool(bad.any())), (float(compared.max()) if compared.numel() else 0.0)
    bad = got != want
    return (not bool(bad.any())), int(bad.sum())


def use_compiler(compiler, kiln_b=None):
    """Routes Triton's compiles to kiln ("kiln", or "hwx": kiln's plugin), to
    the second kiln binary kiln_b ("kiln_b", an A/B), or to stock Triton."""
    if compiler in ("kiln", "hwx"):
        kiln.triton.enable()
    elif compiler == "kiln_b":
        kiln.triton.enable(executable=kiln_b)
    else:
        kiln.triton.disable()


def compile_case(path, options, cache_root, tag):
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix=tag, dir=cache_root)
    began = time.perf_counter()
    kernel = triton.compile(path, target=TARGET, options=options)
    kernel._init_handles()  # load the module now, not inside the timed launches
    return kernel, (time.perf_counter() - began) * 1e3


def run_case(name, case_dir, cache_root, rate):
    manifest = json.load(open(os.path.join(case_dir, "manifest.json")))
    scale, memory_bound = SCALING[name]
    shapes, scalars, grid = scale(manifest)
    options = {"num_warps": manifest.get("num_warps", 4), "num_stages": manifest.get("num_stages", 3)}
    path = os.path.join(case_dir, "kernel.ttir")
    row = {"kernel": name, "memory_bound": memory_bound}

    kiln.triton.disable()
    stock, row["triton_compile_ms"] = compile_case(path, options, cache_root, "triton-")
    kiln.triton.enable()
    try:
        mine, row["kiln_compile_ms"] = compile_case(path, options, cache_root, "kiln-")
    except kiln.CompileError as e:
        mine = None
        row["error"] = "kiln: " + e.diagnostic.splitlines()[0]
    finally:
        kiln.triton.disable()

    # Two input sets, used in turn by the timing; the first is also checked.
    def make_set():
        tensors = {}
        for a in manifest["args"]:
            if a["kind"] == "buffer":
                tensors[a["name"]] = random_buffer(a, shapes.get(a["name"], a["shape"]), name)
        return tensors

    sets = [make_set(), make_set()]

    def arguments(tensors):
        out = []
        for a in manifest["args"]:
            if a["kind"] == "buffer":
                out.append(tensors[a["name"]])
            else:
                out.append(scalars.get(a["name"], a["value"]))
        return out

    outputs = [a for a in manifest["args"] if a["kind"] == "buffer" and a.get("role") in ("output", "inout")]
    moved = sum(t.numel() * t.element_size() for t in sets[0].values())

    def fresh(tensors):
        # inout buffers start from the same contents for both compilers.
        copy = {k: v.clone() for k, v in tensors.items()}
        for a in outputs:
            if a["role"] == "output":
                poison(copy[a["name"]])
            elif name == "histogram_atomic":
                copy[a["name"]].zero_()
        return copy

    base = fresh(sets[0])
    triton_run = {k: v.clone() for k, v in base.items()}
    stock[grid](*arguments(triton_run))
    torch.cuda.synchronize()
    row["triton_ms"] = median_ms([lambda s=s: stock[grid](*arguments(s)) for s in sets])
    row["triton_pct"] = 100 * moved / (row["triton_ms"] * 1e-3) / rate
    if mine is None:
        row["status"] = "FAIL"
        return row
    kiln_run = {k: v.clone() for k, v in base.items()}
    mine[grid](*arguments(kiln_run))
    torch.cuda.synchronize()
    verdicts = []
    for a in outputs:
        tol = a.get("tolerance", {"rtol": 0, "atol": 0})
        ok, worst = close(kiln_run[a["name"]], triton_run[a["name"]], tol["rtol"], tol["atol"])
        verdicts.append(ok)
        if not ok:
            row["error"] = f"output {a['name']} differs from Triton's (worst {worst})"
    row["kiln_ms"] = median_ms([lambda s=s: mine[grid](*arguments(s)) for s in sets])
    row["kiln_pct"] = 100 * moved / (row["kiln_ms"] * 1e-3) / rate
    row["status"] = "PASS" if all(verdicts) else "FAIL"
    return row


# --- tutorial kernels through @triton.jit -----------------------------------

def run_tutorial(name, spec, rate):
    row = {"kernel": "jit " + name, "memory_bound": name != "atomic_histogram"}
    b = spec.bench
    sets = [b["inputs"](torch, BIG), b["inputs"](torch, BIG)]
    moved = b["bytes"](sets[0])

    def launch_and_copy(a):
        b["launch"](a)
        torch.cuda.synchronize()
        return [t.clone() for t in b["outputs"](a)]

    kiln.triton.disable()
    began = time.perf_counter()
    triton_out = launch_and_copy(sets[0])
    row["triton_compile_ms"] = (time.perf_counter() - began) * 1e3  # first launch: compile + run
    row["triton_ms"] = median_ms([lambda s=s: b["launch"](s) for s in sets])
    row["triton_pct"] = 100 * moved / (row["triton_ms"] * 1e-3) / rate
    kiln.triton.enable()
    try:
        began = time.perf_counter()
        kiln_out = launch_and_copy(sets[0])
        row["kiln_compile_ms"] = (time.perf_counter() - began) * 1e3
        row["kiln_ms"] = median_ms([lambda s=s: b["launch"](s) for s in sets])
        row["kiln_pct"] = 100 * moved / (row["kiln_ms"] * 1e-3) / rate
    except kiln.CompileError as e:
        row["status"] = "FAIL"
        row["error"] = "kiln: " + e.diagnostic.splitlines()[0]
        return row
    finally:
        kiln.triton.disable()
    rtol, atol = b["tol"]
    problems = []
    for i, (k, t) in enumerate(zip(kiln_out, triton_out)):
        ok, worst = close(k, t, rtol, atol)
        if not ok:
            problems.append(f"output {i} differs from Triton's (worst {worst})")
    expected = b["reference"](torch, sets[0])
    if expected is not None:
        for i, (k, w) in enumerate(zip(kiln_out, expected)):
            ok, worst = close(k, w, max(rtol, 1e-5), max(atol, 1e-5))
            if not ok:
                problems.append(f"output {i} differs from PyTorch's (worst {worst})")
    if name == "low_mem_dropout":
        x, out, p = sets[0]["x"], kiln_out[0], sets[0]["p"]
        kept = out != 0
        dropped = 1 - float(kept.float().mean())
        if abs(dropped - p) > 0.01 or not torch.allclose(out[kept], x[kept] / (1 - p), rtol=1e-5, atol=1e-6):
            problems.append(f"dropout: dropped fraction {dropped:.3f} for p={p}")
    row["status"] = "FAIL" if problems else "PASS"
    if problems:
        row["error"] = "; ".join(problems)
    return row


# --- report -----------------------------------------------------------------

def fmt(value, spec):
    return format(value, spec) if value is not None else "-"


def report(rows, rate, header):
    print(header)
    print(f"copy rate (device to device, read + write): {rate / 1e9:.0f} GB/s")
    print()
    print("| kernel | Triton ms | kiln ms | kiln/Triton | % of copy BW (Triton) | % of copy BW (kiln) | PASS/FAIL | note |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    ratios = []
    for r in rows:
        ratio = r["kiln_ms"] / r["triton_ms"] if r.get("kiln_ms") and r.get("triton_ms") else None
        if ratio and r.get("memory_bound") and r.get("status") == "PASS":
            ratios.append(ratio)
        pct = (lambda k: fmt(r.get(k), ".0f") if r.get("memory_bound") else "n/a")
        note = r.get("error", "")
        if not r.get("memory_bound"):
            note = ("not memory-bound; " + note).rstrip("; ")
        print(f"| {r['kernel']} | {fmt(r.get('triton_ms'), '.4f')} | {fmt(r.get('kiln_ms'), '.4f')} | "
              f"{fmt(ratio, '.2f')} | {pct('triton_pct')} | {pct('kiln_pct')} | {r.get('status', 'FAIL')} | "
              f"{note[:160]} |")
    print()
    passed = sum(r.get("status") == "PASS" for r in rows)
    print(f"{passed} of {len(rows)} PASS")
    if ratios:
        geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        print(f"geomean kiln/Triton over {len(ratios)} passing memory-bound kernels: {geomean:.3f}; "
              f"worst {max(ratios):.3f}")
    print()
    print("Compile time (fresh caches; for jit rows, the first launch: compile + load + one run)")
    print("| kernel | Triton ms | kiln bridge ms | bridge/Triton |")
    print("| --- | ---: | ---: | ---: |")
    compile_ratios = []
    for r in rows:
        t, k = r.get("triton_compile_ms"), r.get("kiln_compile_ms")
        ratio = k / t if t and k else None
        if ratio and not r["kernel"].startswith("jit "):
            compile_ratios.append(ratio)
        print(f"| {r['kernel']} | {fmt(t, '.1f')} | {fmt(k, '.1f')} | {fmt(ratio, '.2f')} |")
    if compile_ratios:
        print(f"median bridge/Triton compile time over {len(compile_ratios)} corpus kernels: "
              f"{statistics.median(compile_ratios):.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=420, help="seconds for the whole run")
    parser.add_argument("--only", nargs="*", help="run only these cases / tutorial kernels")
    args = parser.parse_args()
    deadline = time.perf_counter() + args.budget

    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    cache_root = tempfile.mkdtemp(prefix="side-by-side-")
    rate = copy_rate()
    try:
        kiln_exe = kiln.find_executable()
        version = kiln.identity("cuda:90")[0]
        who = f"kiln {version} ({kiln_exe})"
    except Exception as e:  # the run goes on: every kiln row will say why it failed
        who = f"kiln unavailable: {e}"
    header = (f"# triton_side_by_side {time.strftime('%Y-%m-%d %H:%M')} on {torch.cuda.get_device_name()}; "
              f"Triton {triton.__version__}, torch {torch.__version__}, {who}")

    rows = []
    corpus = os.path.join(ROOT, "test", "corpus")
    for name in sorted(os.listdir(corpus)):
        case_dir = os.path.join(corpus, name)
        if not os.path.isfile(os.path.join(case_dir, "manifest.json")):
            continue
        # Host tensor descriptors are built by the TMA tutorial kernel of
        # bench/dot_kernels_check.py; this script passes buffers and scalars.
        if any(a["kind"] == "tensor_descriptor"
               for a in json.load(open(os.path.join(case_dir, "manifest.json")))["args"]):
            continue
        if args.only and name not in args.only:
            continue
        if time.perf_counter() > deadline:
            rows.append({"kernel": name, "status": "FAIL", "error": "skipped: out of time budget"})
            continue
        try:
            if name not in SCALING:
                raise RuntimeError("no size rule for this case in SCALING")
            rows.append(run_case(name, case_dir, cache_root, rate))
        except Exception as e:
            traceback.print_exc()
            rows.append({"kernel": name, "status": "FAIL", "error": f"{type(e).__name__}: {e}".splitlines()[0]})
        finally:
            kiln.triton.disable()
            torch.cuda.empty_cache()

    from tutorial_kernels import KERNELS
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="jit-", dir=cache_root)
    for name, spec in KERNELS.items():
        if args.only and name not in args.only:
            continue
        if time.perf_counter() > deadline:
            rows.append({"kernel": "jit " + name, "status": "FAIL", "error": "skipped: out of time budget"})
            continue
        try:
            rows.append(run_tutorial(name, spec, rate))
        except Exception as e:
            traceback.print_exc()
            rows.append({"kernel": "jit " + name, "status": "FAIL",
                         "error": f"{type(e).__name__}: {e}".splitlines()[0]})
        finally:
            kiln.triton.disable()
            torch.cuda.empty_cache()

    report(rows, rate, header)


if __name__ == "__main__":
    main()
