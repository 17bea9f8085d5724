"""Plugin ops of any operand and result kind, and the plugin's non-tensor
values, as Triton frontend values (see the package's docstring for the
encoding)."""
import json
import keyword
import sys

import triton.language as tl
from triton._C.libtriton import ir

from . import _check_bridge

# Builtins a result rule may use besides the op's operands.
_RULE_NAMES = {"len": len, "list": list, "tuple": tuple, "int": int, "min": min, "max": max}


def _placeholder(builder):
    """The IR type carrying a non-tensor plugin value through Triton's
    frontend; kiln gives the value its real type."""
    return tl.pointer_type(tl.int8).to_ir(builder)


class plugin_type(tl.core.base_type):
    """The frontend type of a plugin value: its plugin, kind, shape and
    element type (None for values without one)."""

    def __init__(self, module, kind, shape, dtype):
        self.module = module
        self.kind = kind
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype

    def _key(self):
        return (self.module.__name__, self.kind, self.shape, str(self.dtype))

    def __eq__(self, other):
        return isinstance(other, plugin_type) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        plugin = self.module.__name__.rsplit(".", 1)[1]
        params = ["x".join(str(d) for d in self.shape)] if self.shape else []
        params += [str(self.dtype)] if self.dtype else []
        return f"{plugin}.{self.kind}" + (f"<{', '.join(params)}>" if params else "")

    __repr__ = __str__

    def mangle(self):
        # Part of @triton.jit function names: identifier characters only.
        plugin = self.module.__name__.rsplit(".", 1)[1]
        shape = "x".join(str(d) for d in self.shape)
        return f"K{plugin}_{self.kind}_{shape}_{self.dtype or 'none'}"

    def _flatten_ir_types(self, builder, out):
        out.append(_placeholder(builder))

    def _unflatten_ir(self, handles, cursor):
        return self.module._kinds[self.kind](handles[cursor], self), cursor + 1


class plugin_value(tl.core.base_value):
    """A non-tensor value a plugin's ops make (a buffer, a barrier)."""

    def __init__(self, handle, type):
        self.handle = handle
        self.type = type

    @property
    def kind(self):
        return self.type.kind

    @property
    def shape(self):
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    def _flatten_ir(self, handles):
        handles.append(self.handle)

    def _set_name(self, builder, name):
        # Triton 3.9 names values after the variables holding them.
        self.handle.set_loc(builder.create_name_loc(name, self.handle.get_loc()))

    def __repr__(self):
        return f"<{self.type}>"


def value_class(module, kind):
    """The class of plugin values of `kind` (a dict of `--ops-json`)."""
    short = kind["name"].split(".", 1)[1]
    cls = type(short, (plugin_value, ), {"__doc__": kind["summary"], "__module__": module.__name__})
    cls.kind_name = kind["name"]
    cls.index_op = kind.get("index_op") or None
    cls.kind = short
    return cls


def bind_index(module, cls):
    """`value[i]` calls the op the kind names for indexing."""
    if not cls.index_op:
        return
    op = getattr(module, cls.index_op.split(".", 1)[1], None)
    if op is None:
        return

    @tl.core.builtin
    def __getitem__(self, index, _semantic=None, _generator=None):
        return op.__wrapped__(self, index, _semantic=_semantic, _generator=_generator)

    cls.__getitem__ = __getitem__


def _dtype(value, where):
    if value is None or isinstance(value, tl.dtype):
        return value
    if isinstance(value, str):
        try:
            return tl.dtype(value)
        except Exception:
            pass
    raise TypeError(f"{where} gave {value!r}, not a Triton dtype")


def _constant(value, name, operand):
    """A constexpr operand as JSON for kiln: dtypes as their names."""
    value = tl.core._unwrap_if_constexpr(value)
    if isinstance(value, tl.dtype):
        return value.name
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple, tl.tuple)):
        return [_constant(v, name, operand) for v in value]
    raise TypeError(f"{name}(): '{operand}' must be a constant (bool, int, float, str, dtype or a "
                    f"list of them), got {type(value).__name__}")


def _rule(text, env, name, what):
    try:
        return eval(text, {"__builtins__": {}, **_RULE_NAMES}, env)  # plugin-declared, trusted
    except Exception as error:
        raise TypeError(f"{name}(): the plugin's rule for the result {what} ('{text}') failed on "
                        f"these operands: {error}") from None


def _bind(op, args, kwargs):
    """Operand name -> argument, defaults of constexprs filled in."""
    name, operands = op["name"], op["operands"]
    names = [o["name"] for o in operands]
    if len(args) > len(operands):
        raise TypeError(f"{name}() takes {len(operands)} operand(s) ({', '.join(names)}) but "
                        f"{len(args)} were given; signature: {op['signature']}")
    bound = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{name}() has no operand '{key}'; signature: {op['signature']}")
        if key in bound:
            raise TypeError(f"{name}() got operand '{key}' twice")
        bound[key] = value
    for operand in operands:
        if operand["name"] not in bound:
            if operand["default"] is None:
                raise TypeError(f"{name}() needs operand '{operand['name']}'; signature: "
                                f"{op['signature']}")
            bound[operand["name"]] = json.loads(operand["default"])
    return bound


def _declare(_semantic, _generator, name, handles, ir_types):
    """A bodiless declaration marked as kernel op `name`, one per call: the
    same op takes operands of many types."""
    builder = _semantic.builder
    ir_module = _generator.module
    index = 0
    while ir_module.has_function(f"{name}.kiln_op.{index}"):
        index += 1
    fn_type = builder.get_function_ty([h.get_type() for h in handles], ir_types)
    # A builder without an insertion point makes the declaration outside
    # the kernel; the module takes it, as Triton's code generator does.
    detached = ir.builder(_generator.context)
    fn = detached.get_or_insert_function(ir_module, f"{name}.kiln_op.{index}", fn_type,
                                         "private", False)
    ir_module.push_back(fn)
    fn.set_attr("kiln.kernel_op", builder.get_string_attr(name))
    return fn


def _code_generator():
    """The Triton code generator running a `with` statement: it hands
    context managers `_semantic` only, and the declarations need its module."""
    frame = sys._getframe(1)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if type(candidate).__name__ == "CodeGenerator" and hasattr(candidate, "module"):
            return candidate
        frame = frame.f_back
    raise RuntimeError("kiln scopes are used inside @triton.jit kernels, as `with` blocks")


class _Scope:
    """What `with <plugin>.<op>(...):` enters: a call marked "begin" when
    made, one marked "end" on leaving."""

    def __init__(self, name, semantic, generator):
        self.name, self.semantic, self.generator = name, semantic, generator

    def mark(self, which, constants=None):
        builder = self.semantic.builder
        fn = _declare(self.semantic, self.generator, self.name, [], [])
        call = builder.call(fn, [])
        call.set_attr("kiln.scope", builder.get_string_attr(which))
        if constants:
            call.set_attr("kiln.constants", builder.get_string_attr(json.dumps(constants)))

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        self.mark("end")
        return False


def scope_builtin(module, op):
    """What `with <plugin>.<op>(...):` calls for scope op `op`."""
    name = op["name"]

    def scope(*args, _semantic=None, _generator=None, **kwargs):
        _check_bridge(name, op["plugin"])
        bound = _bind(op, args, kwargs)
        constants = {key: _constant(value, name, key) for key, value in bound.items()}
        entered = _Scope(name, _semantic, _generator or _code_generator())
        entered.mark("begin", constants)
        return entered

    short = name.split(".", 1)[1]
    scope.__name__ = scope.__qualname__ = short
    scope.__doc__ = f"with {name}{op['signature']}:\n\n{op['summary']}"
    return tl.core.builtin(scope)


def call_builtin(module, op):
    """A Triton builtin calling plugin op `op` (a dict of `--ops-json`)."""
    name = op["name"]

    def call(*args, _semantic=None, _generator=None, **kwargs):
        _check_bridge(name, op["plugin"])
        builder = _semantic.builder
        bound = _bind(op, args, kwargs)
        handles, constants, env = [], {}, {}
        for operand in op["operands"]:
            key, kind, arg = operand["name"], operand["kind"], bound[operand["name"]]
            if kind == "constexpr":
                constants[key] = _constant(arg, name, key)
                env[key] = tl.core._unwrap_if_constexpr(arg)
            elif kind == "tensor":
                env[key] = _semantic.to_tensor(arg)
                handles.append(env[key].handle)
            elif kind == "tensors":
                items = tl.core._unwrap_if_constexpr(arg)
                if isinstance(items, tl.tuple):
                    items = list(items.values)
                if not isinstance(items, (list, tuple)):
                    raise TypeError(f"{name}(): '{key}' must be a list or tuple of tensors or "
                                    f"numbers, got {type(items).__name__}")
                env[key] = [_semantic.to_tensor(item) for item in items]
                handles.extend(t.handle for t in env[key])
            elif kind == "descriptor":
                if not isinstance(arg, tl.core.tensor_descriptor_base):
                    raise TypeError(f"{name}(): '{key}' must be a tensor descriptor, got "
                                    f"{getattr(arg, 'type', type(arg).__name__)}")
                env[key] = arg
                handles.append(arg.handle)
            elif "tensor" in kind.split("|") and not isinstance(arg, plugin_value):
                env[key] = _semantic.to_tensor(arg)
                handles.append(env[key].handle)
            else:
                allowed = kind.split("|")
                if not isinstance(arg, plugin_value) or arg.type.module is not module or \
                        arg.kind not in allowed:
                    what = arg.type if isinstance(arg, tl.core.base_value) else type(arg).__name__
                    raise TypeError(f"{name}(): '{key}' must be a {' or '.join(allowed)} of "
                                    f"{module.__name__}, got {what}")
                env[key] = arg
                handles.append(arg.handle)
        result_types = []
        for i, result in enumerate(op["results"]):
            kind = result["kind"]
            if not kind.isidentifier() or keyword.iskeyword(kind):
                kind = _rule(kind, env, name, f"#{i} kind")
            shape = _rule(result["shape"], env, name, f"#{i} shape")
            dtype = _dtype(_rule(result["dtype"], env, name, f"#{i} dtype"), f"{name}() result #{i}")
            try:
                shape = [int(tl.core._unwrap_if_constexpr(d)) for d in shape]
            except (TypeError, ValueError):
                raise TypeError(f"{name}(): result #{i} has shape {shape!r}, not a list of ints") \
                    from None
            if kind == "tensor":
                if dtype is None:
                    raise TypeError(f"{name}(): tensor result #{i} has no dtype")
                result_types.append(tl.block_type(dtype, shape) if shape else dtype)
            elif kind in module._kinds:
                result_types.append(plugin_type(module, kind, shape, dtype))
            else:
                raise TypeError(f"{name}(): result #{i} has kind '{kind}', which "
                                f"{module.__name__} does not declare")
        ir_types = [_placeholder(builder) if isinstance(t, plugin_type) else t.to_ir(builder)
                    for t in result_types]
        call = builder.call(_declare(_semantic, _generator, name, handles, ir_types), handles)
        if constants:
            call.set_attr("kiln.constants", builder.get_string_attr(json.dumps(constants)))
        values = []
        for i, ty in enumerate(result_types):
            handle = call.get_result(i)
            values.append(ty._unflatten_ir([handle], 0)[0] if isinstance(ty, plugin_type) else
                          tl.tensor(handle, ty))
        if not values:
            return None
        return values[0] if len(values) == 1 else tuple(values)

    short = name.split(".", 1)[1]
    call.__name__ = call.__qualname__ = short
    call.__doc__ = f"{name}{op['signature']}\n\n{op['summary']}"
    built = tl.core.builtin(call)
    built.__wrapped__ = call
    return built
