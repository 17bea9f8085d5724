"""A Gluon kernel whose mbarrier wait can never complete, compiled for
cuda:90 behind the bridge: kiln rejects it at compile time, naming the
wait's and the init's Python lines. Prints kiln's diagnostic."""
import triton
from triton.backends.compiler import GPUTarget
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon._runtime import GluonASTSource
from triton.experimental.gluon.language.nvidia.hopper import mbarrier

import kiln
import kiln.triton


@gluon.jit
def forgotten_arrive_kernel(out):
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=2)
    mbarrier.arrive(bar, count=1)
    mbarrier.wait(bar, phase=0)
    gl.store(out, 1)


kiln.triton.enable()
try:
    triton.compile(GluonASTSource(forgotten_arrive_kernel, {"out": "*i32"}, {}),
                   target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    raise SystemExit("the kernel compiled")
except kiln.CompileError as e:
    print(e.diagnostic)
