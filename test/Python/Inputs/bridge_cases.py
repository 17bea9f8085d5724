"""Behaviours of the kiln bridge behind Triton, one mode per lit test:

    bridge_cases.py cache-key PLUGIN.so   which compiler's kernel Triton's cache serves
    bridge_cases.py errors FAILING.so     kiln errors as Python exceptions
    bridge_cases.py override              an ir_override'd PTX is what kiln assembles
    bridge_cases.py probe                 never imports kiln: prints who compiled
    bridge_cases.py hook                  the stages hook's protocol, chained after another hook
    bridge_cases.py options               Triton options become kiln flags, or are refused
    bridge_cases.py plugin-paths          kiln and Triton plugins share TRITON_PLUGIN_PATHS

Every check is an assert; each mode prints lines for FileCheck.
"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


def vector_add():
    from tutorial_kernels import KERNELS
    return KERNELS["vector_add"].source()


def who(kernel):
    return getattr(kernel.metadata, "compiler", "triton")


def cache_key(plugin):
    import kiln._driver
    import kiln.triton

    calls = []
    real = kiln._driver.compile

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    kiln._driver.compile = counting

    stock = triton.compile(vector_add(), target=TARGET)
    assert who(stock) == "triton"
    kiln.triton.enable()
    mine = triton.compile(vector_add(), target=TARGET)
    assert who(mine) == "kiln" and mine.hash != stock.hash and len(calls) == 1
    print("stock and kiln keys differ")
    # The same compile again: Triton's cache serves kiln's kernel, no kiln process.
    again = triton.compile(vector_add(), target=TARGET)
    assert again.hash == mine.hash and who(again) == "kiln" and len(calls) == 1
    print("cache hit serves kiln's kernel without running kiln")
    # ttir="kiln" is another pipeline, so another key.
    kiln.triton.enable(ttir="kiln")
    own_ttir = triton.compile(vector_add(), target=TARGET)
    assert own_ttir.hash not in (mine.hash, stock.hash) and who(own_ttir) == "kiln" and len(calls) == 2
    kiln.triton.enable(ttir="triton")
    print("ttir=kiln has a key of its own")
    # A plugin named by TRITON_PLUGIN_PATHS changes the key; a rebuilt one
    # (same name and version, other bytes) changes it again.
    folder = os.path.join(os.environ["TRITON_CACHE_DIR"], "..", os.path.basename(os.environ["TRITON_CACHE_DIR"]) + ".plugins")
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, os.path.basename(plugin))
    shutil.copyfile(plugin, copy)
    os.environ["TRITON_PLUGIN_PATHS"] = folder
    with_plugin = triton.compile(vector_add(), target=TARGET)
    assert with_plugin.hash != mine.hash and who(with_plugin) == "kiln" and len(calls) == 3
    with open(copy, "ab") as f:
        f.write(b"\0")
    rebuilt = triton.compile(vector_add(), target=TARGET)
    assert rebuilt.hash not in (mine.hash, with_plugin.hash) and len(calls) == 4
    print("a plugin, and a rebuilt plugin, each change the key")
    del os.environ["TRITON_PLUGIN_PATHS"]
    # disable() brings stock Triton back, and Triton's own cached kernel.
    kiln.triton.disable()
    back = triton.compile(vector_add(), target=TARGET)
    assert back.hash == stock.hash and who(back) == "triton" and len(calls) == 4
    print("disable serves stock Triton's kernel again")


def errors(failing_plugin):
    import kiln
    import kiln.triton
    kiln.triton.enable()
    from tutorial_kernels import add_kernel

    # A plugin pass that fails: the exception names the kernel and carries
    # kiln's located diagnostic (the module's location: the def line).
    os.environ["TRITON_PLUGIN_PATHS"] = failing_plugin
    try:
        triton.compile(vector_add(), target=TARGET)
        raise AssertionError("the failing plugin did not fail the compile")
    except kiln.CompileError as e:
        assert e.kernel == "add_kernel", e.kernel
        line = add_kernel.fn.__code__.co_firstlineno + 1  # the def, under @triton.jit
        # Column 0 up to Triton 3.8, 1 from 3.9.
        assert e.location and re.search(rf"tutorial_kernels\.py:{line}:[01]$", e.location), e.location
        print(str(e).splitlines()[0])
        print(e.diagnostic.splitlines()[0])
    del os.environ["TRITON_PLUGIN_PATHS"]

    # A Triton option kiln does not implement is refused, not ignored.
    try:
        triton.compile(vector_add(), target=TARGET, options={"ptx_version": 80})
        raise AssertionError("ptx_version was accepted")
    except kiln.CompileError as e:
        assert e.kernel == "add_kernel" and e.stage == "options"
        print(e.diagnostic)

    # A kernel that needs more shared memory than the target has (a
    # warp-specialised ring of 128x256x256 f16 blocks: 192 KB a stage, at
    # least 2 stages) is also Triton's
    # OutOfResources, which Triton's autotuner skips as it does for stock.
    from triton.runtime.errors import OutOfResources
    import dot_kernels
    big = dot_kernels.KERNELS["matmul_tma_persistent_ws"]
    constexprs = dict(big.constexprs, BLOCK_SIZE_N=256, BLOCK_SIZE_K=256)
    signature = dict(big.signature, a_desc="tensordesc<fp16[128, 256]>", b_desc="tensordesc<fp16[256, 256]>",
                     c_desc="tensordesc<fp16[128, 256]>")
    source = triton.compiler.ASTSource(fn=big.fn, signature=signature, constexprs=constexprs)
    try:
        triton.compile(source, target=TARGET, options={"num_warps": 8, "num_stages": 4})
        raise AssertionError("a kernel over the shared-memory limit compiled")
    except kiln.CompileError as e:
        assert isinstance(e, OutOfResources), type(e)
        assert e.name == "shared memory" and e.required > e.limit == 232448, (e.required, e.limit)
        print(f"OutOfResources: {e.name}, {e.limit} bytes at most")

    # No kiln where KILN_EXECUTABLE points.
    os.environ["KILN_EXECUTABLE"] = "/nonexistent/kiln"
    try:
        triton.compile(vector_add(), target=TARGET)
        raise AssertionError("a missing kiln was not reported")
    except kiln.KilnNotFoundError as e:
        print(e)


def override():
    import kiln.triton
    kiln.triton.enable()
    first = triton.compile(vector_add(), target=TARGET)
    ptx = first.asm["ptx"]
    assert "add.f32" in ptx
    edited = ptx.replace("add.f32", "sub.f32")
    path = os.path.join(os.environ["TRITON_CACHE_DIR"], "..", "edited.ptx")
    with open(path, "w") as f:
        f.write(edited)
    # Triton swaps its ptx stage's result for the file; kiln's cubin stage
    # must assemble that text, not the PTX of its own compile.
    second = triton.compile(vector_add(), target=TARGET, options={"ir_override": os.path.abspath(path)})
    assert second.asm["ptx"] == edited and who(second) == "kiln"
    assert second.asm["cubin"] != first.asm["cubin"]
    assert second.metadata.name == first.metadata.name
    print("the overridden PTX was assembled")


def probe():
    # Run with KILN_TRITON=1 and without kiln on PYTHONPATH: only the .pth
    # file the installed package put into site-packages can enable kiln here.
    kernel = triton.compile(vector_add(), target=TARGET)
    print(f"compiled by {who(kernel)}; kiln imported from {getattr(sys.modules.get('kiln'), '__file__', None)}")


def hook():
    from triton import knobs
    import kiln.triton

    # Another tool's hook, installed first: kiln calls it and combines keys.
    seen = []

    def other(*args):
        if not args:
            return "-other", "otherhash"
        seen.append(args[3])  # the language

    knobs.runtime.add_stages_inspection_hook = other
    kiln.triton.enable()
    assert knobs.runtime.add_stages_inspection_hook is not other
    kernel = triton.compile(vector_add(), target=TARGET)
    assert who(kernel) == "kiln" and len(seen) == 1
    print("the earlier hook ran, then kiln's")
    if kiln.triton.TRITON_VERSION >= (3, 7):
        # Since 3.7 the no-argument call keys the cache: each compile and
        # every launch of a @triton.jit kernel makes it.
        key, digest = knobs.runtime.add_stages_inspection_hook()
        assert key.startswith("-other-kiln-bridge") and len(digest) == 64, (key, digest)
        kiln.triton.enable(ttir="kiln")
        other_key = knobs.runtime.add_stages_inspection_hook()
        kiln.triton.enable(ttir="triton")
        assert other_key[1] != digest and "ttir=kiln" in other_key[0]
        assert knobs.runtime.add_stages_inspection_hook() == (key, digest)
        print("no-argument call: the earlier hook's key, then kiln's")
    else:
        print("no-argument call: the earlier hook's key, then kiln's (not made before Triton 3.7)")
    kiln.triton.disable()
    assert knobs.runtime.add_stages_inspection_hook is other
    assert who(triton.compile(vector_add(), target=TARGET)) == "triton"
    print("disable restores the earlier hook")


def options():
    import kiln
    import kiln.triton
    kiln.triton.enable()
    # Options kiln implements reach its flags (the release kernels check the
    # PTX); ones it cannot honour are refused with a reason.
    for refused in ({"ptx_version": 80},):
        try:
            triton.compile(vector_add(), target=TARGET, options=refused)
            raise AssertionError(f"{refused} was accepted")
        except kiln.CompileError as e:
            assert e.kernel == "add_kernel" and e.stage == "options"
            print(e.diagnostic)
    # A program of two CTAs: a cluster, its index the cluster's, and the
    # metadata Triton's launcher reads to launch it as one.
    clustered = triton.compile(vector_add(), target=TARGET, options={"num_ctas": 2})
    ptx = clustered.asm["ptx"]
    assert who(clustered) == "kiln" and clustered.metadata.num_ctas == 2
    assert ".reqnctapercluster 2, 1, 1" in ptx and "%clusterid.x" in ptx, ptx
    print("num_ctas=2 compiles with kiln to a cluster of 2 CTAs")
    kernel = triton.compile(vector_add(), target=TARGET,
                            options={"enable_fp_fusion": False, "maxnreg": 40, "enable_reflect_ftz": False})
    assert who(kernel) == "kiln" and ".maxnreg 40" in kernel.asm["ptx"]
    print("enable_fp_fusion, maxnreg and enable_reflect_ftz compile with kiln")
    # Triton's `arch`: code for that GPU, PTX and cubin for the one compiled for.
    older = triton.compile(vector_add(), target=TARGET, options={"arch": "sm80"})
    assert who(older) == "kiln" and 'ttg.target = "cuda:80"' in older.asm["ttgir"]
    assert ".target sm_90a" in older.asm["ptx"] and older.metadata.target.arch == 90
    print("arch=sm80 compiles with kiln for cuda:80 and assembles for sm_90a")


def plugin_paths():
    # Run with TRITON_PLUGIN_PATHS naming kiln plugins and a Triton plugin:
    # Triton 3.7 and 3.8 loaded all of them at `import triton` above.
    import kiln.triton
    listed = [os.path.basename(p) for p in os.environ["TRITON_PLUGIN_PATHS"].split(":")]
    print(f"import triton with TRITON_PLUGIN_PATHS={':'.join(listed)}")
    assert who(triton.compile(vector_add(), target=TARGET)) == "triton"
    print("stock Triton compiles")
    kiln.triton.enable()
    kernel = triton.compile(vector_add(), target=TARGET)
    assert who(kernel) == "kiln", who(kernel)
    print("kiln compiles with the kiln plugins")


def plugin_options():
    # Run with KILN_PLUGIN_PATHS naming the hwclock plugin.
    import kiln
    import kiln.triton
    kiln.triton.enable()
    plain = triton.compile(vector_add(), target=TARGET)
    kiln.triton.enable(plugin_options={"hwclock.unoptimized": "true"})
    unoptimized = triton.compile(vector_add(), target=TARGET)
    assert who(plain) == who(unoptimized) == "kiln"
    # In Triton's cache key, and the plugin's ptxas flag reached ptxas.
    assert plain.hash != unoptimized.hash
    assert plain.asm["cubin"] != unoptimized.asm["cubin"]
    print("enable(plugin_options=...) reaches the plugin and Triton's cache key")
    os.environ["KILN_PLUGIN_OPTIONS"] = "hwclock.unoptimized=true"
    kiln.triton.enable()
    assert triton.compile(vector_add(), target=TARGET).hash == unoptimized.hash
    print("KILN_PLUGIN_OPTIONS sets them too")
    kiln.triton.enable(plugin_options={"hwclock.nope": "1"})
    try:
        triton.compile(vector_add(), target=TARGET)
        raise AssertionError("an unknown plugin option was accepted")
    except kiln.CompileError as e:
        print(e.diagnostic.strip())


if __name__ == "__main__":
    mode = sys.argv[1]
    {"cache-key": cache_key, "errors": errors, "override": override, "probe": probe, "hook": hook,
     "options": options, "plugin-paths": plugin_paths,
     "plugin-options": plugin_options}[mode](*sys.argv[2:])
