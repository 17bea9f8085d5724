"""Plugin kernel-language ops in `@triton.jit` kernels.

    from kiln.language import mathx, hwx

    @triton.jit
    def kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        buf = hwx.alloc([BLOCK], tl.float32, 2)       # two shared-memory buffers
        hwx.store(buf[1], mathx.softplus(tl.load(x_ptr + offs)))
        tl.store(y_ptr + offs, hwx.load(buf[1]))

`kiln.language.<plugin>` is made from what the loaded plugins (kiln's own,
hwx, unless KILN_NO_DEFAULT_PLUGINS=1; TRITON_PLUGIN_PATHS,
KILN_PLUGIN_PATHS) declare, as `kiln plugins
--ops-json` lists it: one Triton builtin per op with the op's operand
names, signature and summary as its docstring, and one class per kind of
non-tensor value the plugin's ops make (`hwx.buffer`). Nothing is written
per op in Python.

Stock Triton's frontend cannot create a plugin's ops, so a call is encoded
as what it can create and kiln recognises:
- an elementwise op: `tt.extern_elementwise` of library "kiln" whose symbol
  is the op's name. Operands broadcast as they do for Triton's own
  elementwise functions (Python numbers take the other operands' element
  type; tensors must share one); the result has their shape and the op's
  declared element type (its operands' by default).
- any other op: `tt.call` of a bodiless declaration marked `kiln.kernel_op`,
  its constexpr operands as JSON in the call's `kiln.constants`. Results
  take the types the op declares as Python expressions over its operands
  (`buf.shape[1:]`). A non-tensor value is carried as a `!tt.ptr<i8>`
  placeholder: in Python it is a Triton value like a tensor (passed to
  @triton.jit functions, carried through loops and branches, indexed when
  its kind names an index op), whose real type kiln gives it.
- a scope (`with hwx.async_tasks():`): a call marked `kiln.scope` "begin"
  where the block starts and one marked "end" where it ends.
kiln's ttir stage (`ttir.expand-kernel-ops`) replaces each call with what
the op's builder emits, at the call's source location. Such a kernel needs
kiln's bridge (`kiln.triton.enable()` or KILN_TRITON=1): with stock Triton
the call is an error at its source line. Triton's cache key covers the
loaded plugins (kiln.triton folds their file hashes into it).
"""
import json
import os
import subprocess
import types

from .. import _driver

_DECLARED = {}   # memo: (executable, plugin files and stamps) -> list of op dicts


def _declared_ops():
    """The ops the loaded plugins declare, memoised on the executable and the
    plugin files (a rebuilt plugin is asked again)."""
    from .. import triton as bridge
    exe = bridge._State.executable or _driver.find_executable()
    stamps = []
    for path in [exe] + _driver.plugin_files():
        try:
            st = os.stat(path)
            stamps.append((path, st.st_size, st.st_mtime_ns))
        except OSError:
            stamps.append((path, None))
    memo = (tuple(stamps), _driver.plugin_paths(), os.environ.get("KILN_NO_DEFAULT_PLUGINS"))
    if memo not in _DECLARED:
        command = [exe, "plugins", "--ops-json"]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode != 0:
            raise _driver.CompileError("(none)", "(any)", done.stderr.decode(errors="replace"), command,
                                       done.returncode)
        _DECLARED[memo] = json.loads(done.stdout.decode())
    return _DECLARED[memo]


def _check_bridge(name, plugin):
    from .. import triton as bridge
    if not bridge.is_enabled():
        raise RuntimeError(f"{name} is an op of the kiln plugin '{plugin}': compile this "
                           "kernel with kiln's bridge (kiln.triton.enable() or KILN_TRITON=1); "
                           "stock Triton cannot")


def _builtin(op):
    """A Triton builtin calling elementwise plugin op `op` (a dict of
    `kiln plugins --ops-json`)."""
    import triton.language as tl

    name = op["name"]
    operands = [o["name"] for o in op["operands"]]
    result = op["result_element"]

    def call(*args, _semantic=None, **kwargs):
        if kwargs:
            raise TypeError(f"{name}() takes its operands by position ({', '.join(operands)}), "
                            f"not by keyword ({', '.join(kwargs)})")
        if len(args) != len(operands):
            raise TypeError(f"{name}() takes {len(operands)} operand(s) ({', '.join(operands)}) but "
                            f"{len(args)} were given; signature: {op['signature']}")
        _check_bridge(name, op["plugin"])
        # Python numbers take the element type of the other operands, as
        # they do in Triton's own arithmetic.
        number = lambda a: isinstance(tl.core._unwrap_if_constexpr(a), (bool, int, float))
        typed = [_semantic.to_tensor(a) for a in args if not number(a)]
        tensors = [_semantic.to_tensor(a) for a in args]
        if typed:
            tensors = [_semantic.cast(t, typed[0].dtype) if number(a) else t
                       for a, t in zip(args, tensors)]
        dtypes = tuple(t.dtype for t in tensors)
        if len(set(dtypes)) > 1:
            raise TypeError(f"{name}() takes operands of one element type, got "
                            f"{', '.join(str(d) for d in dtypes)}")
        ret = tl.dtype(result) if result else dtypes[0]
        return tl.core.extern_elementwise("kiln", "", tensors, {dtypes: (name, ret)}, True,
                                          _semantic=_semantic)

    short = name.split(".", 1)[1]
    call.__name__ = call.__qualname__ = short
    call.__doc__ = f"{name}{op['signature']}\n\n{op['summary']}"
    return tl.core.builtin(call)


def __getattr__(plugin):
    if plugin.startswith("_"):  # plugin names start with a letter
        raise AttributeError(plugin)
    declared = _declared_ops()
    ops = [op for op in declared["ops"] if op["plugin"] == plugin]
    if not ops:
        loaded = sorted({op["plugin"] for op in declared["ops"]})
        # ImportError, not AttributeError: `from kiln.language import x`
        # would replace the message with a generic one.
        raise ImportError(
            f"no loaded kiln plugin named '{plugin}' declares kernel ops (plugins with ops: "
            f"{', '.join(loaded) or 'none'}; load plugins with TRITON_PLUGIN_PATHS or "
            "KILN_PLUGIN_PATHS)")
    module = types.ModuleType(f"{__name__}.{plugin}",
                              f"Kernel-language ops of the kiln plugin '{plugin}'.")
    kinds = [k for k in declared["value_kinds"] if k["plugin"] == plugin]
    module._kinds = {}
    for kind in kinds:
        cls = _values.value_class(module, kind)
        module._kinds[cls.kind] = cls
        setattr(module, cls.kind, cls)
    for op in ops:
        short = op["name"].split(".", 1)[1]
        if op["elementwise"]:
            setattr(module, short, _builtin(op))
        elif op.get("scope"):
            setattr(module, short, _values.scope_builtin(module, op))
        elif op["python_call"]:
            setattr(module, short, _values.call_builtin(module, op))
    for cls in module._kinds.values():
        _values.bind_index(module, cls)
    return module


from . import _values  # noqa: E402  (it uses _check_bridge)
