#!/usr/bin/env python3
"""Mutation campaign over kernel dumps, through the `kiln` driver.

    fuzz/mutate_kernels.py --kiln build/bin/kiln [--plugin build/plugins/libhwx.so]
        [--seconds 600] [--seed N] [--out DIR] SEED_DIR_OR_FILE ...

Seeds are TTIR and TTGIR files (`*.ttir`, `*.ttgir`): a Triton cache
directory (each kernel's `.json` beside them gives num_warps and num_ctas),
test/corpus, or single files. Each run takes one seed, changes one to three
of its lines (an integer replaced by an edge value, a line deleted,
duplicated or swapped with another, a type or attribute swapped for a
neighbour) and, for TTIR, perhaps the options (warps, CTAs, stages,
target), then compiles it to PTX with `kiln compile`, which isolates the
compile in a child process. A finding is a compile that crashed, was
killed, ran past 60 s, or failed without an error message; each is written
to --out (the input, and the command with its last output) for reduction.

No sanitizer build is needed, so it runs anywhere kiln does; the libFuzzer
targets (docs/fuzzing.md) go deeper. Exit status 1 when something was found.
"""
import argparse
import glob
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

EDGE_INTS = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 96, 128, 255, 256, 1024, 4096, 65536,
             -1, -8, 2**31 - 1]
SWAPS = [("swizzlingByteWidth = 128", "swizzlingByteWidth = 32"), ("i32", "i64"), ("bf16", "f16"),
         ("f32", "f16"), ("128x", "64x"), ("x64x", "x32x"), ("true", "false"), ("mutable", ""),
         ("[0]", "[1]"), ("CTAsPerCGA = [1, 1]", "CTAsPerCGA = [2, 1]"),
         ('"ttg.num-ctas" = 1', '"ttg.num-ctas" = 2')]
NUMBER = re.compile(r"(?<![\w#%.])-?\d+(?![\w.])")


def seeds_from(paths):
    seeds = []
    for path in paths:
        files = [path] if os.path.isfile(path) else (
            glob.glob(os.path.join(path, "**", "*.ttir"), recursive=True) +
            glob.glob(os.path.join(path, "**", "*.ttgir"), recursive=True))
        for f in files:
            stem = os.path.splitext(f)[0]
            meta = {}
            if os.path.exists(stem + ".json"):
                try:
                    meta = json.load(open(stem + ".json"))
                except (OSError, ValueError):
                    pass
            seeds.append((f, os.path.splitext(f)[1][1:], meta))
    return seeds


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#loc")]
        if not body:
            break
        kind = rng.random()
        i = rng.choice(body)
        if kind < 0.55:
            numbers = list(NUMBER.finditer(lines[i]))
            if numbers:
                m = rng.choice(numbers)
                lines[i] = lines[i][:m.start()] + str(rng.choice(EDGE_INTS)) + lines[i][m.end():]
        elif kind < 0.7:
            del lines[i]
        elif kind < 0.8:
            lines.insert(i, lines[rng.choice(body)])
        elif kind < 0.9:
            for old, new in rng.sample(SWAPS, len(SWAPS)):
                if old in lines[i]:
                    lines[i] = lines[i].replace(old, new, 1)
                    break
        else:
            j = rng.choice(body)
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def options(kind, meta, rng):
    if kind == "ttgir":  # its module names target, warps and CTAs
        return []
    warps, ctas = meta.get("num_warps", 4), meta.get("num_ctas", 1)
    if warps not in (1, 2, 4, 8, 16) or rng.random() < 0.2:
        warps = rng.choice([1, 2, 4, 8, 16])
    if rng.random() < 0.3:
        ctas = rng.choice([1, 2, 4, 8])
    target = "cuda:90" if rng.random() < 0.85 else rng.choice(["cuda:80", "cuda:89", "cuda:100"])
    return ["--target", target, "--num-warps", str(warps), "--num-ctas", str(ctas),
            "--num-stages", str(rng.choice([2, 3, 4]))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seeds", nargs="+", help="TTIR/TTGIR files or folders holding them")
    parser.add_argument("--kiln", required=True, help="the kiln driver to run")
    parser.add_argument("--plugin", action="append", default=[], help="plugin to load (repeatable)")
    parser.add_argument("--seconds", type=float, default=600, help="how long to run (default 600)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--out", default="fuzz-findings", help="folder for findings")
    args = parser.parse_args()

    seeds = seeds_from(args.seeds)
    if not seeds:
        sys.exit("mutate_kernels: no .ttir or .ttgir file among the seeds")
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="kiln-mutate-")
    deadline = time.time() + args.seconds
    runs = findings = 0
    while time.time() < deadline:
        path, kind, meta = rng.choice(seeds)
        text = mutate(open(path).read(), rng)
        source = os.path.join(work, "input." + kind)
        open(source, "w").write(text)
        cmd = [args.kiln, "compile", "--from", kind, "--stage", "ptx", "--no-cache", "-o", os.devnull]
        cmd += [f"--plugin={p}" for p in args.plugin] + options(kind, meta, rng) + [source]
        runs += 1
        try:
            result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            report = result.stderr
            found = (result.returncode < 0 or " crashed (" in report or " was killed (" in report or
                     (result.returncode != 0 and "error" not in report))
        except subprocess.TimeoutExpired:
            found, report = True, "ran past 60 s"
        if found:
            findings += 1
            name = hashlib.sha1(text.encode()).hexdigest()[:12]
            open(os.path.join(args.out, f"{name}.{kind}"), "w").write(text)
            open(os.path.join(args.out, f"{name}.txt"), "w").write(
                " ".join(cmd[:-1] + [f"{name}.{kind}"]) + "\n" + report[-4000:])
    print(f"mutate_kernels: {runs} compiles of {len(seeds)} seeds, {findings} findings"
          + (f" (in {args.out})" if findings else ""))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
