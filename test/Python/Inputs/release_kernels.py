"""Kernels for what differs between Triton releases 3.6 to 3.9: cache hints
and barriers (printed differently by 3.9 and 3.7), grid dependency control
(inline asm up to 3.8, ops of their own in 3.9), code-generation options the
bridge hands to kiln, and the ops only 3.9's frontend has (atomic loads,
stores and polls, approximate division).

KERNELS maps a name to a Kernel (tutorial_kernels.Kernel, plus compile
options and, for the newer ops, the first release that has them).
"""
import triton
import triton.language as tl
from triton.language.extra.cuda import gdc_launch_dependents, gdc_wait

from tutorial_kernels import Kernel


def _release():
    major, minor = triton.__version__.split(".")[:2]
    return int(major), int(minor)


RELEASE = _release()


@triton.jit
def cache_hints_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, cache_modifier=".cg")
    y = tl.load(y_ptr + offs, mask=mask, eviction_policy="evict_last")
    tl.debug_barrier()
    tl.store(out_ptr + offs, x * y, mask=mask, cache_modifier=".cs")


@triton.jit
def gdc_copy_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # Programmatic dependent launch: wait for the grid before this one, and
    # let the next start once the loads are issued.
    gdc_wait()
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    gdc_launch_dependents()
    tl.store(out_ptr + offs, x + 1)


@triton.jit
def axpy_kernel(a, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * x + y, mask=mask)


@triton.jit
def atomic_rmw_kernel(x_ptr, max_ptr, sum_ptr, flag_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_max(max_ptr, tl.max(x, axis=0))
    tl.atomic_add(sum_ptr + (offs % 16), x, mask=mask, sem="relaxed")
    tl.atomic_cas(flag_ptr, 0, 1, sem="acq_rel", scope="gpu")


if RELEASE >= (3, 9):

    @triton.jit
    def atomic_load_store_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        v = tl.atomic_load(src_ptr + offs, mask=mask, sem="acquire", scope="gpu")
        tl.atomic_store(dst_ptr + offs, v + 1, mask=mask, sem="release", scope="gpu")
        w = tl.atomic_load(src_ptr + offs, mask=mask, sem="relaxed", scope="cta")
        tl.atomic_store(dst_ptr + n + offs, w, mask=mask, sem="relaxed", scope="sys")

    @triton.jit
    def atomic_poll_kernel(flags_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        seen = tl.atomic_poll(flags_ptr + offs, 1, sem="acquire", scope="gpu", timeout_ns=1000000)
        ready = tl.atomic_poll(flags_ptr, 7)
        tl.store(out_ptr + offs, seen.to(tl.int32) + ready.to(tl.int32))

    @triton.jit
    def approx_div_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, tl.math.fdiv(x, y, approx=True), mask=mask)


class ReleaseKernel(Kernel):
    """A Kernel with Triton compile options and a check of kiln's PTX."""

    def __init__(self, name, fn, signature, constexprs, options=None, ptx_has=(), ptx_lacks=(), **kw):
        super().__init__(name, fn, signature, constexprs, **kw)
        self.options = dict(options or {}, num_warps=self.num_warps)
        self.ptx_has = ptx_has
        self.ptx_lacks = ptx_lacks


_VEC = {"BLOCK": "constexpr"}

KERNELS = {
    k.name: k for k in [
        ReleaseKernel("cache_hints", cache_hints_kernel,
                      {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", **_VEC},
                      {"BLOCK": 1024}, ptx_has=("ld.global.cg", "evict_last", "st.global.cs", "bar.sync")),
        ReleaseKernel("gdc_copy", gdc_copy_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", **_VEC},
                      {"BLOCK": 1024}, options={"launch_pdl": True},
                      ptx_has=("griddepcontrol.wait", "griddepcontrol.launch_dependents")),
        ReleaseKernel("axpy_no_fp_fusion", axpy_kernel,
                      {"a": "fp32", "x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", **_VEC},
                      {"BLOCK": 1024}, options={"enable_fp_fusion": False},
                      ptx_has=("mul.rn.f32", "add.rn.f32"), ptx_lacks=("fma.rn.f32",)),
        ReleaseKernel("axpy_maxnreg", axpy_kernel,
                      {"a": "fp32", "x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", **_VEC},
                      {"BLOCK": 1024}, options={"maxnreg": 64}, ptx_has=(".maxnreg 64", "fma.rn.f32")),
        ReleaseKernel("atomic_rmw", atomic_rmw_kernel,
                      {"x_ptr": "*i32", "max_ptr": "*i32", "sum_ptr": "*i32", "flag_ptr": "*i32", "n": "i32",
                       **_VEC}, {"BLOCK": 1024}, ptx_has=("atom.global.gpu.acq_rel.max", "atom.global.acq_rel.gpu.cas")),
    ] + ([
        ReleaseKernel("atomic_load_store", atomic_load_store_kernel,
                      {"src_ptr": "*i32", "dst_ptr": "*i32", "n": "i32", **_VEC}, {"BLOCK": 1024},
                      ptx_has=("fence.acquire.gpu", "fence.release.gpu")),
        ReleaseKernel("atomic_poll", atomic_poll_kernel, {"flags_ptr": "*i32", "out_ptr": "*i32", **_VEC},
                      {"BLOCK": 128}, ptx_has=("globaltimer",)),
        ReleaseKernel("approx_div", approx_div_kernel,
                      {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", **_VEC},
                      {"BLOCK": 1024}, ptx_has=("div.approx.f32",)),
    ] if RELEASE >= (3, 9) else [])
}
