#!/usr/bin/env python3
"""Programs of several CTAs (num_ctas 2 and 4: thread-block clusters) on the
GPU: kernels without dots, launched from PyTorch through Triton's launcher
with the bridge off (stock Triton) and on (kiln), outputs checked against
PyTorch's, both timed. For the device machine:

    KILN_EXECUTABLE=/path/to/static/kiln python3 bench/cluster_check.py [CASE ...] [ctas=N ...]

(`ctas=N` picks the cluster sizes, 2 and 4 by default; 8 and 16 are the
largest portable and non-portable ones. `--kiln-b=PATH` adds a second kiln
binary, checked and timed as a column of its own: an A/B of a compiler
change in one run, against the same Triton figures.)

Each kernel splits its block over the CTAs of a cluster as Triton's default
layouts do; what they check: tensor coordinates per CTA (program id is the
cluster's), reductions and scans along an axis kept in one CTA, stores of
elements several CTAs hold done once, atomics done once per element, and
matmuls whose accumulator is split over the CTAs (each CTA loads the rows
of A and the columns of B of its part), with pointer loads and through TMA
descriptors (host and in-kernel; a TMA copy per CTA tile, a tile every CTA
holds multicast to them in the pipelined loop, and stored and reduced
once).
"""
import os
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="kiln-cluster-check-"))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import kiln.triton  # noqa: E402
from triton_side_by_side import close, median_ms, use_compiler  # noqa: E402


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.load(x + i, mask=m) + tl.load(y + i, mask=m), mask=m)


@triton.jit
def row_stats_kernel(x, sums, maxes, cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    v = tl.load(x + r[:, None] * cols + tl.arange(0, COLS)[None, :])
    tl.store(sums + r, tl.sum(v, axis=1))
    tl.store(maxes + r, tl.max(v, axis=1))


@triton.jit
def col_sum_kernel(x, out, rows, ROWS: tl.constexpr, COLS: tl.constexpr):
    c = tl.program_id(0) * COLS + tl.arange(0, COLS)
    n = tl.num_programs(0) * COLS
    v = tl.load(x + tl.arange(0, ROWS)[:, None] * n + c[None, :])
    tl.store(out + c, tl.sum(v, axis=0))


@triton.jit
def softmax_kernel(x, out, cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    offs = r[:, None] * cols + tl.arange(0, COLS)[None, :]
    v = tl.load(x + offs)
    e = tl.exp(v - tl.max(v, axis=1)[:, None])
    tl.store(out + offs, e / tl.sum(e, axis=1)[:, None])


@triton.jit
def cumsum_kernel(x, out, cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    offs = r[:, None] * cols + tl.arange(0, COLS)[None, :]
    tl.store(out + offs, tl.cumsum(tl.load(x + offs), axis=1))


@triton.jit
def histogram_add_kernel(x, counts, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    tl.atomic_add(counts + tl.load(x + i, mask=m, other=0), 1, mask=m)


@triton.jit
def program_ids_kernel(out):
    # A scalar store: one store per program, whichever CTA makes it.
    p = tl.program_id(0)
    tl.store(out + p, p * 1000 + tl.num_programs(0))


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Triton's test_simple_matmul shape of kernel: pointer loads, tl.dot.
    pm = tl.program_id(0) // tl.cdiv(N, BN)
    pn = tl.program_id(0) % tl.cdiv(N, BN)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def _tma_product(a, b, c, pm, pn, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        acc = tl.dot(a.load([pm * BM, k]), b.load([k, pn * BN]), acc)
    c.store([pm * BM, pn * BN], acc.to(tl.float16))


@triton.jit
def tma_matmul_kernel(a, b, c, a_copy, a_sum, K, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, COPY_A: tl.constexpr):
    # Operands through TMA descriptors; each CTA of the cluster copies its
    # tile of B and C and the whole of A. With COPY_A, A's first block also
    # goes out to a_copy and is added into a_sum (the programs of the first
    # column; stock Triton 3.6 fails to compile that part in a cluster).
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    _tma_product(a, b, c, pm, pn, K, BM, BN, BK)
    if COPY_A and pn == 0:
        first = a.load([pm * BM, 0])
        a_copy.store([pm * BM, 0], first)
        a_sum.atomic_add([pm * BM, 0], first)


@triton.jit
def tma_matmul_in_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    # The same product with descriptors made in the kernel.
    a = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    c = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    _tma_product(a, b, c, tl.program_id(0), tl.program_id(1), K, BM, BN, BK)


def make_tma_matmul(bm, bn, bk, in_kernel=False, copy_a=False):
    from triton.tools.tensor_descriptor import TensorDescriptor

    def case(num_ctas):
        m, n, k = 4096, 4096, 2048
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        grid = (m // bm, n // bn)
        if in_kernel:
            triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                          device="cuda"))
            launch = lambda: tma_matmul_in_kernel[grid](a, b, c, m, n, k, BM=bm, BN=bn, BK=bk,
                                                        num_ctas=num_ctas, num_warps=4)
            return launch, [c], lambda: [(a.float() @ b.float()).half()], (1e-2, 1e-1), 2 * m * n * k
        a_copy = torch.empty(m, bk, device="cuda", dtype=torch.float16)
        a_sum = torch.empty(m, bk, device="cuda", dtype=torch.float16)
        descs = [TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bk, bn]),
                 TensorDescriptor.from_tensor(c, [bm, bn]), TensorDescriptor.from_tensor(a_copy, [bm, bk]),
                 TensorDescriptor.from_tensor(a_sum, [bm, bk])]

        def launch():
            a_sum.fill_(1.0)
            tma_matmul_kernel[grid](*descs, k, BM=bm, BN=bn, BK=bk, COPY_A=copy_a, num_ctas=num_ctas,
                                    num_warps=4)
        if not copy_a:
            return launch, [c], lambda: [(a.float() @ b.float()).half()], (1e-2, 1e-1), 2 * m * n * k
        reference = lambda: [(a.float() @ b.float()).half(), a[:, :bk], a[:, :bk] + 1]
        return launch, [c, a_copy, a_sum], reference, (1e-2, 1e-1), 2 * m * n * k
    return case


def make_matmul(bm, bn, bk):
    def case(num_ctas):
        m, n, k = 2048, 2048, 1024
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
        launch = lambda: matmul_kernel[grid](a, b, c, m, n, k, BM=bm, BN=bn, BK=bk,
                                             num_ctas=num_ctas, num_warps=4)
        return launch, [c], lambda: [a.float() @ b.float()], (1e-2, 1e-2), 2 * m * n * k
    return case


def case_add(num_ctas):
    n = 1 << 24
    x, y = (torch.randn(n, device="cuda") for _ in range(2))
    out = torch.empty_like(x)
    launch = lambda: add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, num_ctas=num_ctas)
    return launch, [out], lambda: [x + y], (1e-6, 1e-6), 3 * n * 4


def case_row_stats(num_ctas):
    rows, cols = 1 << 16, 128
    x = torch.randn(rows, cols, device="cuda")
    sums, maxes = torch.empty(rows, device="cuda"), torch.empty(rows, device="cuda")
    launch = lambda: row_stats_kernel[(rows // 64,)](x, sums, maxes, cols, ROWS=64, COLS=cols,
                                                     num_ctas=num_ctas)
    return launch, [sums, maxes], lambda: [x.sum(1), x.amax(1)], (1e-4, 1e-4), x.numel() * 4


def case_col_sum(num_ctas):
    rows, cols = 64, 1 << 16
    x = torch.randn(rows, cols, device="cuda")
    out = torch.empty(cols, device="cuda")
    launch = lambda: col_sum_kernel[(cols // 128,)](x, out, rows, ROWS=rows, COLS=128,
                                                    num_ctas=num_ctas)
    return launch, [out], lambda: [x.sum(0)], (1e-4, 1e-4), x.numel() * 4


def case_softmax(num_ctas):
    rows, cols = 1 << 15, 256
    x = torch.randn(rows, cols, device="cuda")
    out = torch.empty_like(x)
    launch = lambda: softmax_kernel[(rows // 16,)](x, out, cols, ROWS=16, COLS=cols,
                                                   num_ctas=num_ctas)
    return launch, [out], lambda: [torch.softmax(x, 1)], (1e-5, 1e-6), 2 * x.numel() * 4


def case_cumsum(num_ctas):
    rows, cols = 1 << 14, 128
    x = torch.randn(rows, cols, device="cuda")
    out = torch.empty_like(x)
    launch = lambda: cumsum_kernel[(rows // 32,)](x, out, cols, ROWS=32, COLS=cols,
                                                  num_ctas=num_ctas)
    return launch, [out], lambda: [x.cumsum(1)], (1e-4, 1e-4), 2 * x.numel() * 4


def case_histogram(num_ctas):
    n, bins = 1 << 20, 256
    x = torch.randint(0, bins, (n,), device="cuda", dtype=torch.int32)
    counts = torch.zeros(bins, device="cuda", dtype=torch.int32)

    def launch():
        counts.zero_()
        histogram_add_kernel[(triton.cdiv(n, 1024),)](x, counts, n, BLOCK=1024, num_ctas=num_ctas)
    return launch, [counts], lambda: [torch.bincount(x, minlength=bins).int()], (0, 0), n * 4


def case_program_ids(num_ctas):
    programs = 96
    out = torch.empty(programs, device="cuda", dtype=torch.int32)
    launch = lambda: program_ids_kernel[(programs,)](out, num_ctas=num_ctas)
    want = torch.arange(programs, device="cuda", dtype=torch.int32) * 1000 + programs
    return launch, [out], lambda: [want], (0, 0), programs * 4


CASES = [("add", case_add), ("row_stats", case_row_stats), ("col_sum", case_col_sum),
         ("softmax", case_softmax), ("cumsum", case_cumsum), ("histogram_atomics", case_histogram),
         ("program_ids", case_program_ids), ("matmul_128x128x64", make_matmul(128, 128, 64)),
         ("matmul_128x256x64", make_matmul(128, 256, 64)), ("matmul_64x128x32", make_matmul(64, 128, 32)),
         ("tma_matmul_128x256x64", make_tma_matmul(128, 256, 64)),
         ("tma_matmul_128x128x64", make_tma_matmul(128, 128, 64)),
         ("tma_matmul_256x128x64", make_tma_matmul(256, 128, 64)),
         ("tma_matmul_in_kernel_128x256x64", make_tma_matmul(128, 256, 64, in_kernel=True)),
         ("tma_matmul_copy_a", make_tma_matmul(128, 256, 64, copy_a=True))]


kiln_b = None   # --kiln-b: the second kiln binary, or None


def run(name, make, num_ctas):
    launch, outs, reference, (rtol, atol), moved = make(num_ctas)
    results, times, problems = {}, {}, []
    for compiler in ("triton", "kiln") + (("kiln_b",) if kiln_b else ()):
        use_compiler(compiler, kiln_b)
        try:
            for t in outs:
                t.fill_(float("nan") if t.is_floating_point() else -1)
            launch()
            torch.cuda.synchronize()
            results[compiler] = [t.clone() for t in outs]
            times[compiler] = median_ms([launch])
        except Exception as e:
            if compiler != "triton":
                raise
            # Stock Triton failing is reported; kiln still runs.
            problems.append(f"Triton: {type(e).__name__}: {str(e).splitlines()[-1] if str(e) else ''}")
            times["triton"] = float("nan")
        finally:
            kiln.triton.disable()
    for compiler, got in results.items():
        for i, (g, w) in enumerate(zip(got, reference())):
            ok, worst = close(g, w, rtol, atol)
            if not ok:
                problems.append(f"{compiler} output {i} differs from PyTorch's (worst {worst})")
    status = "FAIL" if any(p.startswith("kiln") for p in problems) else "PASS"
    b = (f" {times['kiln_b']:.4f} | {times['kiln_b'] / times['triton']:.3f} |" if kiln_b else "")
    print(f"| {name} | {num_ctas} | {times['triton']:.4f} | {times['kiln']:.4f} | "
          f"{times['kiln'] / times['triton']:.3f} | {moved / times['kiln'] * 1e-6:.0f} |{b} {status} |",
          flush=True)
    for p in problems:
        print(f"    {p}", flush=True)
    return status == "PASS"


def main():
    global kiln_b
    args = sys.argv[1:]
    for a in [a for a in args if a.startswith("--kiln-b=")]:
        kiln_b = a.split("=", 1)[1]
        if not os.access(kiln_b, os.X_OK):
            sys.exit(f"cluster_check.py: --kiln-b: {kiln_b} is not an executable")
    args = [a for a in args if not a.startswith("--kiln-b=")]
    b = (" kiln B ms | kiln B/Triton |", " ---: | ---: |") if kiln_b else ("", "")
    print(f"| kernel | num_ctas | Triton ms | kiln ms | kiln/Triton | kiln GB/s (matmuls: GFLOP/s) |{b[0]} result |")
    print(f"| --- | ---: | ---: | ---: | ---: | ---: |{b[1]} --- |")
    sizes = [int(t[5:]) for t in args if t.startswith("ctas=")] or [2, 4]
    only = [t for t in args if not t.startswith("ctas=")]  # case names (all when none)
    passed = total = 0
    for num_ctas in sizes:
        for name, make in CASES:
            if only and name not in only:
                continue
            total += 1
            try:
                passed += run(name, make, num_ctas)
            except Exception as e:  # one case's failure is a row, not the end of the run
                print(f"| {name} | {num_ctas} | | | | | FAIL |\n    {type(e).__name__}: "
                      f"{str(e).splitlines()[0] if str(e) else ''}", flush=True)
                traceback.print_exc(limit=2)
    print(f"{passed}/{total} PASS")


if __name__ == "__main__":
    main()
