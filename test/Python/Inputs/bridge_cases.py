"""Behaviours of the kiln bridge behind Triton, one mode per lit test:

    bridge_cases.py cache-key PLUGIN.so   which compiler's kernel Triton's cache serves
    bridge_cases.py errors FAILING.so     kiln errors as Python exceptions
    bridge_cases.py override              an ir_override'd PTX is what kiln assembles
    bridge_cases.py probe                 never imports kiln: prints who compiled

Every check is an assert; each mode prints lines for FileCheck.
"""
import os
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
        assert e.location and e.location.endswith(f"tutorial_kernels.py:{line}:0"), e.location
        print(str(e).splitlines()[0])
        print(e.diagnostic.splitlines()[0])
    del os.environ["TRITON_PLUGIN_PATHS"]

    # A Triton option kiln does not implement is refused, not ignored.
    try:
        triton.compile(vector_add(), target=TARGET, options={"maxnreg": 64})
        raise AssertionError("maxnreg was accepted")
    except kiln.CompileError as e:
        assert e.kernel == "add_kernel" and e.stage == "options"
        print(e.diagnostic)

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


if __name__ == "__main__":
    mode = sys.argv[1]
    {"cache-key": cache_key, "errors": errors, "override": override, "probe": probe}[mode](*sys.argv[2:])
