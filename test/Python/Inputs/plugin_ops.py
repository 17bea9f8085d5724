"""A plugin's kernel-language ops called from @triton.jit kernels
(kiln.language), compiled for cuda:90 without a GPU. KILN_PLUGIN_PATHS must
load the mathx plugin. Every check is an assert; prints lines for FileCheck.
"""
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import kiln.triton
from kiln.language import mathx

TARGET = GPUTarget("cuda", 90, 32)


@triton.jit
def softplus_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, mathx.softplus(tl.load(x_ptr + offs)))


@triton.jit
def lerp_kernel(a_ptr, b_ptr, y_ptr, t, BLOCK: tl.constexpr):
    # A tensor, a row broadcast over it, and a scalar argument.
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    a = tl.load(a_ptr + rows * BLOCK + cols)
    b = tl.load(b_ptr + cols)
    tl.store(y_ptr + rows * BLOCK + cols, mathx.clamp(mathx.lerp(a, b, t), 0.0, 1.0))


@triton.jit
def wrong_arity_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, mathx.lerp(tl.load(x_ptr + offs), 1.0))


@triton.jit
def mixed_types_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, mathx.lerp(x, tl.load(y_ptr + offs), x))


def compile(fn, signature, constexprs):
    return triton.compile(ASTSource(fn, signature, constexprs=constexprs), target=TARGET)


def error_of(fn, signature, constexprs):
    try:
        compile(fn, signature, constexprs)
    except Exception as e:  # Triton wraps the builtin's error with the source line
        return str(e)
    raise AssertionError(f"{fn.__name__} compiled")


def main():
    print("ops:", ", ".join(sorted(n for n in dir(mathx) if not n.startswith("_"))))
    print("doc:", mathx.softplus.__doc__.splitlines()[0])

    # Stock Triton: a located error, not a library Triton cannot find.
    message = error_of(softplus_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BLOCK": 128})
    line = [l for l in message.splitlines() if "mathx.softplus(" in l]
    assert line, message
    print("stock Triton:", message.strip().splitlines()[-1])

    kiln.triton.enable()
    kernel = compile(softplus_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32"}, {"BLOCK": 128})
    assert kernel.metadata.compiler == "kiln"
    ttgir = kernel.asm["ttgir"]
    assert 'libname = "kiln"' not in ttgir, ttgir
    assert "math.log1p" in ttgir and "arith.maxnumf" in ttgir, ttgir
    assert "ex2.approx" in kernel.asm["ptx"] or "lg2.approx" in kernel.asm["ptx"]
    print("softplus: expanded by kiln")

    kernel = compile(lerp_kernel, {"a_ptr": "*fp16", "b_ptr": "*fp16", "y_ptr": "*fp16", "t": "fp16"},
                     {"BLOCK": 32})
    ttgir = kernel.asm["ttgir"]
    assert "math.fma" in ttgir and "arith.cmpf une" in ttgir, ttgir
    print("lerp and clamp: expanded by kiln, operands broadcast")

    message = error_of(wrong_arity_kernel, {"x_ptr": "*fp32"}, {"BLOCK": 128})
    assert "mathx.lerp(tl.load(x_ptr + offs), 1.0)" in message, message
    print("arity:", message.strip().splitlines()[-1])

    message = error_of(mixed_types_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp16"}, {"BLOCK": 128})
    print("types:", message.strip().splitlines()[-1])

    try:
        from kiln.language import nosuch  # noqa: F401
    except ImportError as e:
        print("unknown plugin:", e)


if __name__ == "__main__":
    sys.exit(main())
