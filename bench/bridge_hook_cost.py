"""What the kiln bridge adds to every `@triton.jit` launch: from Triton 3.7
the JIT calls the stages hook with no arguments on each launch (for the
in-memory cache key), and the compile path once per compile. Runs on the
CPU (no GPU needed):

    python bench/bridge_hook_cost.py

Prints the median time of one no-argument call over batches, for kiln's
hook alone, kiln's chained after another hook, and that other hook alone;
with Triton 3.6 (which never makes the call) it says so.
"""
import os
import statistics
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import triton  # noqa: E402
from triton import knobs  # noqa: E402

import kiln.triton  # noqa: E402


def per_call_ns(fn, number=200000, repeat=9):
    times = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(times) / number * 1e9


def main():
    print(f"Triton {triton.__version__}, Python {sys.version.split()[0]}")
    if kiln.triton.TRITON_VERSION < (3, 7):
        print("this Triton never calls the hook per launch: the bridge adds nothing to a launch")
        return

    def other(*args):
        if not args:
            return "-other", "otherhash"

    knobs.runtime.add_stages_inspection_hook = other
    print(f"other hook alone:          {per_call_ns(knobs.runtime.add_stages_inspection_hook):7.1f} ns per launch")
    kiln.triton.enable()
    print(f"kiln chained after it:     {per_call_ns(knobs.runtime.add_stages_inspection_hook):7.1f} ns per launch")
    kiln.triton.disable()
    knobs.runtime.add_stages_inspection_hook = None
    kiln.triton.enable()
    print(f"kiln's hook alone:         {per_call_ns(knobs.runtime.add_stages_inspection_hook):7.1f} ns per launch")
    print(f"bridge off (no hook):          0.0 ns per launch (Triton skips the call)")


if __name__ == "__main__":
    main()
