#!/usr/bin/env python3
"""kiln's debug mode on the GPU (Triton's debug=True, docs/nvidia-codegen.md
"Debug mode"). For the device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/debug_check.py cost [NAME ...]
    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/debug_check.py hang

cost: kiln's kernels of test/Python/Inputs/dot_kernels.py (default: the
TMA and warp-specialised ones, whose waits are guarded) timed with debug
off and on, and on without Triton's integer overflow checks (kiln's
guarded waits alone), beside stock Triton's own debug cost; same inputs,
CUDA events, medians; prints a markdown table.

hang: a Gluon kernel waiting on an mbarrier phase nothing completes (its
one arrival is predicated off at run time, beyond llir-check-mbarriers'
reach), compiled by kiln with debug on, in a child process: PASS when the launch
fails with CUDA's device-side assertion (after the 10 s deadline, the
child printing kiln's message) within 60 s; FAIL when the child is still
waiting then (it is killed) or fails another way.
"""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python", "Inputs"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="kiln-debug-check-"))

DEFAULT = ["matmul_tma_persistent", "matmul_tma_persistent_ws", "attention_ws_d64",
           "attention_ws_d128_causal"]


def _no_overflow_checks(on):
    """Triton's debug mode also checks every 32-bit integer add, sub and mul
    for overflow (its `sanitize_overflow`, with device asserts); turning
    that off leaves kiln's guarded waits as the only debug code."""
    from triton.backends.nvidia.compiler import CUDABackend
    original = getattr(CUDABackend, "_kiln_parse_options", CUDABackend.parse_options)
    CUDABackend._kiln_parse_options = original

    def parse_options(self, opts):
        return original(self, dict(opts, sanitize_overflow=False) if on else opts)
    CUDABackend.parse_options = parse_options


def cost(names):
    import torch
    import triton
    import kiln.triton
    from dot_kernels import KERNELS
    from triton_side_by_side import median_ms

    # debug: Triton's debug=True (kiln's guarded waits and Triton's integer
    # overflow checks); guard: debug=True without the overflow checks. The
    # same two for stock Triton show what its own debug mode costs.
    modes = [("plain", False, False), ("debug", True, False), ("guard", True, True)]
    print("| kernel | kiln ms | kiln debug/plain | kiln guard/plain | Triton ms | Triton debug/plain "
          "| Triton no-overflow-check debug/plain |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in names or DEFAULT:
        b = KERNELS[name].bench
        args = b["inputs"](torch)
        times = {}
        for compiler in ("kiln", "triton"):
            if compiler == "kiln":
                kiln.triton.enable()
            else:
                kiln.triton.disable()
            for mode, debug, guard_only in modes:
                triton.knobs.runtime.debug = debug
                _no_overflow_checks(guard_only)
                try:
                    b["launch"](args)
                    torch.cuda.synchronize()
                    times[compiler, mode] = median_ms([lambda: b["launch"](args)])
                except Exception as e:  # a compiler refusing the kernel: its cells say so
                    print(f"    {compiler} {mode}: {type(e).__name__}: {str(e)[:200]}", flush=True)
                    times[compiler, mode] = float("nan")
        triton.knobs.runtime.debug = False
        _no_overflow_checks(False)
        kp, tp = times["kiln", "plain"], times["triton", "plain"]
        print(f"| {name} | {kp:.4f} | {times['kiln', 'debug'] / kp:.3f} | {times['kiln', 'guard'] / kp:.3f} "
              f"| {tp:.4f} | {times['triton', 'debug'] / tp:.3f} | {times['triton', 'guard'] / tp:.3f} |",
              flush=True)


CHILD = r'''
import sys, torch, triton
import kiln.triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier

@gluon.jit
def never_arrives_kernel(out, arrive):
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    # Off at run time (arrive = 0), so kiln's static check cannot prove the
    # hang and the debug-mode deadline has to catch it.
    mbarrier.arrive(bar, pred=arrive != 0)
    mbarrier.wait(bar, phase=0)
    gl.store(out, 1)

kiln.triton.enable()
triton.knobs.runtime.debug = True
out = torch.zeros(1, dtype=torch.int32, device="cuda")
never_arrives_kernel[(1,)](out, 0, num_warps=4)
torch.cuda.synchronize()
print("kernel returned", out.item())
'''


def hang():
    # Triton reads a @jit function's source from its file.
    child = os.path.join(tempfile.mkdtemp(prefix="kiln-hang-"), "never_arrives.py")
    with open(child, "w") as f:
        f.write(CHILD)
    began = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, child], capture_output=True, text=True,
                              timeout=60, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    except subprocess.TimeoutExpired:
        print(f"FAIL: the kernel still waited after 60 s (killed)")
        return 1
    seconds = time.perf_counter() - began
    output = done.stdout + done.stderr
    for line in output.splitlines():
        if "kiln: mbarrier wait" in line or "assert" in line.lower():
            print("   ", line.strip()[:300])
    ok = done.returncode != 0 and "device-side assert" in output and "kiln: mbarrier wait" in output
    if not ok:
        print("    the child's output, last 25 lines:")
        for line in output.splitlines()[-25:]:
            print("    |", line[:300])
    print(f"{'PASS' if ok else 'FAIL'}: child exited {done.returncode} after {seconds:.1f} s")
    return 0 if ok else 1


def main():
    mode, names = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("cost", [])
    if mode == "cost":
        return cost(names)
    if mode == "hang":
        return hang()
    raise SystemExit(f"unknown mode {mode!r}: cost or hang")


if __name__ == "__main__":
    sys.exit(main())
