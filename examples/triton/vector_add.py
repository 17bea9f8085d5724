"""Triton's vector add, unchanged, compiled by kiln behind stock Triton.

    python examples/triton/vector_add.py

With PyTorch and a GPU it launches the kernel and checks the sum; without
(e.g. build/venv, made by scripts/setup) it compiles the same kernel for an
H100/H200 (cuda:90) and shows what Triton got back.
"""
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

import kiln.triton

kiln.triton.enable()  # or leave this out and run with KILN_TRITON=1


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def on_gpu(torch):
    x = torch.rand(98432, device="cuda")
    y = torch.rand(98432, device="cuda")
    out = torch.empty_like(x)
    compiled = add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK_SIZE=1024)
    assert torch.equal(out, x + y), "kiln's kernel computed a wrong sum"
    return compiled


def without_gpu():
    source = triton.compiler.ASTSource(
        fn=add_kernel, signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n_elements": "i32",
                                  "BLOCK_SIZE": "constexpr"}, constexprs={"BLOCK_SIZE": 1024})
    return triton.compile(source, target=GPUTarget("cuda", 90, 32))


if __name__ == "__main__":
    try:
        import torch
        gpu = torch.cuda.is_available()
    except ImportError:
        gpu = False
    compiled = on_gpu(torch) if gpu else without_gpu()
    md = compiled.metadata
    print(f"{md.name}: compiled by {getattr(md, 'compiler', 'triton')} {getattr(md, 'kiln_version', '')}, "
          f"{md.num_warps} warps, {len(compiled.asm['cubin'])} bytes of cubin"
          + (", ran on the GPU and matched x + y" if gpu else " for cuda:90 (no GPU here)"))
