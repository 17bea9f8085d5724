#!/usr/bin/env python3
"""Runs one of Triton's own tutorials, unmodified, behind kiln. For the
device machine, with a checkout of Triton's python/tutorials (kiln does not
ship them):

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/triton_tutorials.py \\
        TUTORIAL.py [--pytest EXPR] [-- ARG ...]

The tutorial runs as `__main__` with ARG ... as its command line, or, with
--pytest, its tests selected by the pytest -k expression EXPR. A fresh
TRITON_CACHE_DIR makes every compile real; at the end the kernels in it are
counted by compiler (the metadata kiln writes says `"compiler": "kiln"`),
so a kernel Triton compiled instead shows. Exit status: the tutorial's, or
1 when any kernel was not kiln's.
"""
import argparse
import glob
import json
import os
import runpy
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def count_compilers(cache):
    counts = {}
    for path in glob.glob(os.path.join(cache, "*", "*.json")):
        if os.path.basename(path).startswith("__grp__"):
            continue
        with open(path) as f:
            meta = json.load(f)
        if "name" not in meta:
            continue
        key = meta.get("compiler", "triton")
        counts.setdefault(key, []).append(meta["name"])
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tutorial")
    parser.add_argument("--pytest", metavar="EXPR", help="run the tutorial's tests selected by -k EXPR")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    cache = tempfile.mkdtemp(prefix="kiln-tutorial-")
    os.environ["TRITON_CACHE_DIR"] = cache
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import kiln.triton
    kiln.triton.enable()
    sys.path.insert(0, os.path.dirname(os.path.abspath(opts.tutorial)))
    status = 0
    try:
        if opts.pytest is not None:
            import pytest
            status = int(pytest.main([opts.tutorial, "-q", "-k", opts.pytest, *args]))
        else:
            sys.argv = [opts.tutorial, *args]
            runpy.run_path(opts.tutorial, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    counts = count_compilers(cache)
    for compiler, names in sorted(counts.items()):
        print(f"{compiler}: {len(names)} kernels ({', '.join(sorted(set(names)))})")
    if set(counts) - {"kiln"}:
        status = status or 1
    sys.exit(status)


if __name__ == "__main__":
    main()
