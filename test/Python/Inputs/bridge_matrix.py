"""Compiles every kernel of the bridge's test set with the kiln bridge on,
for cuda:90 without a GPU, behind whichever Triton release this Python has:
the tutorial-style kernels, the dot kernels (matmul f16/bf16/fp8, host TMA
descriptors, attention) and the release kernels (cache hints, barriers, grid
dependency control, code-generation options, and 3.9's new ops).

    bridge_matrix.py [--table]

Prints one line per kernel (`<release> <kernel> kiln` or `... FAILED: why`)
and a count; exits 1 if any kernel failed. Each kernel is checked as
compile_check.py checks one (kiln's cubin, metadata, PTX), and a release
kernel's PTX for what its options or ops must produce.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import triton  # noqa: E402

import kiln  # noqa: E402
import kiln.triton  # noqa: E402
from compile_check import TARGET, check  # noqa: E402


def cases():
    from dot_kernels import KERNELS as DOT
    from release_kernels import KERNELS as RELEASE
    from tutorial_kernels import KERNELS as TUTORIAL
    for name, spec in TUTORIAL.items():
        yield name, spec, {"num_warps": spec.num_warps}, (), ()
    for name, spec in DOT.items():
        if 90 in spec.capabilities:
            yield name, spec, spec.options(), (), ()
    for name, spec in RELEASE.items():
        yield name, spec, spec.options, spec.ptx_has, spec.ptx_lacks


def main():
    kiln.triton.enable()
    release = triton.__version__
    passed, failed = 0, []
    for name, spec, options, has, lacks in cases():
        # A cache of its own per kernel: every compile runs kiln.
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="kiln-matrix-")
        try:
            kernel = triton.compile(spec.source(), target=TARGET, options=options)
            with open(os.devnull, "w") as quiet:
                stdout, sys.stdout = sys.stdout, quiet
                try:
                    check(kernel, options["num_warps"], launch_warps=getattr(spec, "launch_warps", None))
                finally:
                    sys.stdout = stdout
            ptx = kernel.asm["ptx"]
            missing = [text for text in has if text not in ptx]
            present = [text for text in lacks if text in ptx]
            assert not missing and not present, f"PTX lacks {missing}, has {present}"
            print(f"{release} {name} kiln")
            passed += 1
        except Exception as e:  # noqa: BLE001 (every failure is reported, then counted)
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            print(f"{release} {name} FAILED: {type(e).__name__}: {first}")
            failed.append(name)
    print(f"Triton {release}: {passed} kernels compiled by kiln, {len(failed)} did not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
