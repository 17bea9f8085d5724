"""Kernels in the style of Triton's tutorials, as a Triton user writes them.

Shared by the lit tests (compiled for cuda:90 without a GPU) and by
bench/triton_side_by_side.py (launched from PyTorch on the H200). Each entry
of KERNELS says how to compile it without a GPU (signature, constexprs) and,
for the benchmark, how to make inputs, launch it and compute a reference.
"""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    # A grid-stride loop over rows; one row fits one block.
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row in tl.range(row_start, n_rows, row_step):
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        tl.store(out_ptr + row * out_row_stride + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def layer_norm_fwd_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.)
        acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def seeded_dropout_kernel(x_ptr, out_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    # The mask is regenerated from (seed, offset), never stored.
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    keep = tl.rand(seed, offsets) > p
    tl.store(out_ptr + offsets, tl.where(keep, x / (1 - p), 0.0), mask=mask)


@triton.jit
def row_max_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(out_ptr + row, tl.max(x, axis=0))


@triton.jit
def row_sum_loop_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # Rows longer than a block: each thread's partial sums stay in registers
    # across the loop (the ttgir stage splits the reduction), one reduction
    # across threads at the end.
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=cols[None, :] < n_cols, other=0.0)
        acc += tl.sum(x, axis=1)
    tl.store(out_ptr + rows, acc)


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0)
    tl.store(out_ptr + row * n_cols + cols, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, n_elements, NUM_BINS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    bins = tl.load(x_ptr + offsets, mask=mask, other=0) % NUM_BINS
    tl.atomic_add(hist_ptr + bins, 1, mask=mask)


class Kernel:
    """One tutorial kernel: what triton.compile needs without a GPU, and, for
    the benchmark, inputs(torch, n_bytes) -> args, launch(args), reference(args)
    -> the expected outputs, outputs(args) -> the tensors to compare, and the
    bytes one launch moves."""

    def __init__(self, name, fn, signature, constexprs, num_warps=4, divisible=(), **bench):
        self.name = name
        self.fn = fn
        self.signature = signature
        self.constexprs = constexprs
        self.num_warps = num_warps
        self.divisible = divisible
        self.bench = bench

    def source(self):
        # Pointers 16-byte aligned, as the launcher specializes torch tensors,
        # and the integers in `divisible` multiples of 16, as it specializes
        # the values the benchmark passes.
        attrs = {(i,): [["tt.divisibility", 16]]
                 for i, (name, ty) in enumerate(self.signature.items())
                 if ty.startswith("*") or name in self.divisible}
        return triton.compiler.ASTSource(fn=self.fn, signature=self.signature,
                                         constexprs=self.constexprs, attrs=attrs)


def _cdiv(a, b):
    return (a + b - 1) // b


# --- benchmark helpers (torch is imported by the caller) -----------------

def _add_inputs(torch, n_bytes):
    n = n_bytes // 4
    return dict(x=torch.randn(n, device="cuda"), y=torch.randn(n, device="cuda"),
                out=torch.empty(n, device="cuda"), n=n)


def _add_launch(a):
    add_kernel[(_cdiv(a["n"], 1024),)](a["x"], a["y"], a["out"], a["n"], BLOCK_SIZE=1024)


def _softmax_inputs(torch, n_bytes):
    cols = 1024
    rows = n_bytes // (4 * cols)
    return dict(x=torch.randn(rows, cols, device="cuda"), out=torch.empty(rows, cols, device="cuda"))


def _softmax_launch(a):
    x, out = a["x"], a["out"]
    softmax_kernel[(min(x.shape[0], 132 * 8),)](out, x, x.stride(0), out.stride(0), x.shape[0], x.shape[1],
                                               BLOCK_SIZE=triton.next_power_of_2(x.shape[1]), num_warps=4)


def _layernorm_inputs(torch, n_bytes):
    cols = 8192
    rows = n_bytes // (2 * cols)
    return dict(x=torch.randn(rows, cols, device="cuda", dtype=torch.float16),
                w=torch.rand(cols, device="cuda", dtype=torch.float16),
                b=torch.rand(cols, device="cuda", dtype=torch.float16),
                y=torch.empty(rows, cols, device="cuda", dtype=torch.float16),
                mean=torch.empty(rows, device="cuda"), rstd=torch.empty(rows, device="cuda"))


def _layernorm_launch(a):
    x = a["x"]
    layer_norm_fwd_kernel[(x.shape[0],)](x, a["y"], a["w"], a["b"], a["mean"], a["rstd"], x.stride(0),
                                         x.shape[1], 1e-5, BLOCK_SIZE=1024, num_warps=8)


def _layernorm_reference(torch, a):
    x = a["x"].float()
    y = torch.nn.functional.layer_norm(x, (x.shape[1],), a["w"].float(), a["b"].float(), 1e-5)
    return [y.half()]


def _dropout_inputs(torch, n_bytes):
    n = n_bytes // 4
    return dict(x=torch.randn(n, device="cuda"), out=torch.empty(n, device="cuda"), n=n, p=0.25, seed=1234)


def _dropout_launch(a):
    seeded_dropout_kernel[(_cdiv(a["n"], 1024),)](a["x"], a["out"], a["n"], a["p"], a["seed"], BLOCK_SIZE=1024)


def _dropout_reference(torch, a):
    # Not a bit-exact reference (the random stream is Philox's): kept values
    # are x / (1 - p), dropped ones 0, and about p of them are dropped.
    return None


def _rows_inputs(torch, n_bytes, cols):
    rows = n_bytes // (4 * cols)
    return dict(x=torch.randn(rows, cols, device="cuda"), out=torch.empty(rows, device="cuda"))


def _rowmax_launch(a):
    x = a["x"]
    row_max_kernel[(x.shape[0],)](x, a["out"], x.stride(0), x.shape[1], BLOCK_SIZE=2048, num_warps=8)


def _rowsum_launch(a):
    x = a["x"]
    row_sum_loop_kernel[(_cdiv(x.shape[0], 32),)](x, a["out"], x.stride(0), x.shape[1], BLOCK_M=32,
                                                   BLOCK_N=128)


def _cumsum_inputs(torch, n_bytes):
    cols = 1024
    rows = n_bytes // (4 * cols)
    return dict(x=torch.randint(-100, 100, (rows, cols), device="cuda", dtype=torch.int32),
                out=torch.empty(rows, cols, device="cuda", dtype=torch.int32))


def _cumsum_launch(a):
    x = a["x"]
    cumsum_kernel[(x.shape[0],)](x, a["out"], x.shape[1], BLOCK_SIZE=1024)


def _hist_inputs(torch, n_bytes):
    n = n_bytes // 4
    return dict(x=torch.randint(0, 1 << 20, (n,), device="cuda", dtype=torch.int32),
                hist=torch.zeros(64, device="cuda", dtype=torch.int32), n=n)


def _hist_launch(a):
    a["hist"].zero_()
    histogram_kernel[(_cdiv(a["n"], 1024),)](a["x"], a["hist"], a["n"], NUM_BINS=64, BLOCK_SIZE=1024)


KERNELS = {
    k.name: k for k in [
        Kernel("vector_add", add_kernel,
               {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32",
                "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 1024},
               inputs=_add_inputs, launch=_add_launch, outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [a["x"] + a["y"]], bytes=lambda a: 12 * a["n"], tol=(1e-6, 1e-6)),
        Kernel("fused_softmax", softmax_kernel,
               {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_row_stride": "i32", "out_row_stride": "i32",
                "n_rows": "i32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 1024},
               inputs=_softmax_inputs, launch=_softmax_launch, outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [torch.softmax(a["x"], dim=1)], bytes=lambda a: 8 * a["x"].numel(),
               tol=(1e-5, 1e-6)),
        Kernel("layer_norm_fwd", layer_norm_fwd_kernel,
               {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32", "Rstd": "*fp32",
                "stride": "i32", "N": "i32", "eps": "fp32", "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 1024},
               num_warps=8,
               inputs=_layernorm_inputs, launch=_layernorm_launch, outputs=lambda a: [a["y"]],
               reference=_layernorm_reference, bytes=lambda a: 4 * a["x"].numel(), tol=(1e-2, 1e-2)),
        Kernel("low_mem_dropout", seeded_dropout_kernel,
               {"x_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32", "p": "fp32", "seed": "i32",
                "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 1024},
               inputs=_dropout_inputs, launch=_dropout_launch, outputs=lambda a: [a["out"]],
               reference=_dropout_reference, bytes=lambda a: 8 * a["n"], tol=(1e-6, 1e-6)),
        Kernel("row_max", row_max_kernel,
               {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32", "n_cols": "i32",
                "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 2048}, num_warps=8,
               inputs=lambda torch, n: _rows_inputs(torch, n, 2048), launch=_rowmax_launch,
               outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [a["x"].amax(dim=1)], bytes=lambda a: 4 * a["x"].numel(),
               tol=(0, 0)),
        Kernel("row_sum_loop", row_sum_loop_kernel,
               {"x_ptr": "*fp32", "out_ptr": "*fp32", "stride": "i32", "n_cols": "i32",
                "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}, {"BLOCK_M": 32, "BLOCK_N": 128},
               divisible=("stride", "n_cols"),
               inputs=lambda torch, n: _rows_inputs(torch, n, 8192), launch=_rowsum_launch,
               outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [a["x"].sum(dim=1)], bytes=lambda a: 4 * a["x"].numel(),
               tol=(1e-4, 1e-3)),
        Kernel("cumsum", cumsum_kernel,
               {"x_ptr": "*i32", "out_ptr": "*i32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"},
               {"BLOCK_SIZE": 1024},
               inputs=_cumsum_inputs, launch=_cumsum_launch, outputs=lambda a: [a["out"]],
               reference=lambda torch, a: [torch.cumsum(a["x"], dim=1, dtype=torch.int32)],
               bytes=lambda a: 8 * a["x"].numel(), tol=(0, 0)),
        Kernel("atomic_histogram", histogram_kernel,
               {"x_ptr": "*i32", "hist_ptr": "*i32", "n_elements": "i32", "NUM_BINS": "constexpr",
                "BLOCK_SIZE": "constexpr"}, {"NUM_BINS": 64, "BLOCK_SIZE": 1024},
               inputs=_hist_inputs, launch=_hist_launch, outputs=lambda a: [a["hist"]],
               reference=lambda torch, a: [torch.bincount(a["x"].long() % 64, minlength=64).int()],
               bytes=lambda a: 4 * a["n"], tol=(0, 0)),
    ]
}
