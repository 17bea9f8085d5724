"""A plugin op whose builder creates the plugin's own dialect op
(hwclock.read, lowered by the plugin at llir), called from a @triton.jit
kernel, compiled for cuda:90 without a GPU. KILN_PLUGIN_PATHS must load
the hwclock plugin. Prints lines for FileCheck.
"""
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import kiln.triton
from kiln.language import hwclock


@triton.jit
def timed_kernel(x_ptr, t_ptr, BLOCK: tl.constexpr):
    start = hwclock.read()
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
    tl.store(t_ptr, hwclock.read() - start)


kiln.triton.enable()
print("doc:", hwclock.read.__doc__.splitlines()[0])
kernel = triton.compile(ASTSource(timed_kernel, {"x_ptr": "*fp32", "t_ptr": "*i64"},
                                  constexprs={"BLOCK": 256}), target=GPUTarget("cuda", 90, 32))
assert kernel.asm["ttgir"].count("hwclock.read") == 2, kernel.asm["ttgir"]
ptx = kernel.asm["ptx"]
print("ptx reads %%clock64 %d times" % ptx.count("%clock64"))
