"""kiln behind stock Triton's frontend, launcher, autotuner and cache
(Triton 3.6, 3.7, 3.8 and 3.9).

    import kiln.triton
    kiln.triton.enable()          # or KILN_TRITON=1 in the environment

Triton builds a table of stage functions for every compile and then calls
`knobs.runtime.add_stages_inspection_hook(backend, stages, options,
language, capability)`, which may replace entries. enable() installs such a
hook: `ttgir`, `llir`, `ptx` and `cubin` become kiln's (and `ttir` too with
ttir="kiln"); for Gluon kernels (`@gluon.jit`), whose TTGIR Gluon's own
frontend stage writes, `llir`, `ptx` and `cubin`. The first of them that runs compiles the whole kernel in one
kiln process, from the artifact it is handed to the cubin; the later ones
return that compile's artifacts, unless Triton hands them something else
(TRITON_KERNEL_OVERRIDE or an `ir_override`), which is then compiled from
its own stage. Each stage fills Triton's metadata as Triton's own stage
does, so Triton's cache, dumps and launcher work unchanged.

From Triton 3.7 the hook is also called with no arguments, by every compile
and by every launch of a `@triton.jit` kernel, and returns `(key, hash)`
for Triton's cache keys: kiln's answer is memoised, so a launch costs a
dictionary look-up (docs/triton-bridge.md has the figures).

Triton's disk-cache key is `triton_key-source-backend.hash()-options-env`
(plus the hook's key from 3.7); enable() extends the CUDA backend's hash()
with kiln's identity (build, effective pipeline, loaded plugins and their
file hashes, the bridge's version and ttir mode), so that a kernel cached
by stock Triton, by another kiln, or with another plugin is never served
for this one.
"""
import dataclasses
import gc
import hashlib
import os
import re
import warnings

import triton
from triton import knobs
from triton.backends.compiler import Language
from triton.backends.nvidia import compiler as _nvidia

from triton.runtime.errors import OutOfResources

from . import _driver
from ._driver import CompileError

BRIDGE_VERSION = "2"


class OutOfSharedMemory(CompileError, OutOfResources):
    """kiln's kernel needs more shared memory than the target has. Also
    Triton's OutOfResources, as stock Triton raises for such a kernel at
    launch, so that Triton's autotuner skips the config as it would."""

    def __init__(self, error, required, limit):
        CompileError.__init__(self, error.kernel, error.target, error.diagnostic, error.command,
                              error.returncode, error.stage)
        self.required, self.limit, self.name = required, limit, "shared memory"

    def __str__(self):
        return CompileError.__str__(self)

    def __reduce__(self):
        return (CompileError, (self.kernel, self.target, self.diagnostic, self.command,
                               self.returncode, self.stage))


_SHARED_LIMIT = re.compile(r"needs (\d+) bytes of shared memory; \S+ allows (\d+)")


def _release(text):
    found = re.match(r"(\d+)\.(\d+)", text)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


# The Triton this process runs, and the releases the bridge is tested with.
TRITON_VERSION = _release(triton.__version__)
TESTED_RELEASES = ((3, 6), (3, 7), (3, 8), (3, 9))

_TRUE = ("1", "true", "yes", "on")


class _State:
    enabled = False
    ttir = "triton"         # whose ttir stage runs: "triton" or "kiln"
    executable = None       # enable(executable=...) overrides the search
    previous_hook = None    # the hook that was installed before ours
    original_hash = None    # CUDABackend.hash as Triton defines it
    identities = {}         # memo of kiln's identity, see _identity()
    pipeline_key = None     # the no-argument hook's answer, see _pipeline_key()
    plugin_flags = []       # --plugin-option flags of enable(plugin_options=...)
    chained_keys = {}       # memo of it after another hook's answers
    warned_release = False


def _env_wants_kiln():
    return os.environ.get("KILN_TRITON", "").strip().lower() in _TRUE


def is_enabled():
    return _State.enabled


def enable(ttir=None, executable=None, plugin_options=None):
    """Makes kiln compile every CUDA kernel Triton compiles from now on.

    ttir: "triton" (default; Triton's ttir stage runs, kiln compiles from its
    output) or "kiln" (kiln's ttir stage too; default from KILN_TRITON_TTIR).
    executable: the kiln binary (default: kiln.find_executable()'s search).
    plugin_options: {"<plugin>.<key>": value} for the loaded plugins, as
    `kiln compile --plugin-option` sets them (default: KILN_PLUGIN_OPTIONS,
    whitespace-separated <plugin>.<key>=<value> entries); part of the key of
    Triton's cache.
    Kernels Triton already holds in memory are forgotten, so that the next
    launch recompiles (or finds kiln's build in Triton's cache).
    """
    ttir = ttir or os.environ.get("KILN_TRITON_TTIR", "triton")
    if ttir not in ("triton", "kiln"):
        raise ValueError(f"ttir must be 'triton' or 'kiln', not {ttir!r}")
    if plugin_options is None:
        plugin_options = _driver.parse_plugin_options(os.environ.get("KILN_PLUGIN_OPTIONS"))
    _State.plugin_flags = _driver.plugin_option_flags(plugin_options)
    _State.ttir = ttir
    _State.executable = executable
    ours = (f"-kiln-bridge{BRIDGE_VERSION}-ttir={ttir}-exe={executable or ''}"
            f"-options={' '.join(_State.plugin_flags[1::2])}")
    _State.pipeline_key = (ours, hashlib.sha256(ours.encode()).hexdigest())
    _State.chained_keys.clear()
    if TRITON_VERSION not in TESTED_RELEASES and not _State.warned_release:
        _State.warned_release = True
        warnings.warn(f"kiln's Triton bridge is tested with Triton 3.6 to 3.9, not {triton.__version__}: "
                      "kernels compile through kiln, but a change in Triton's stages may break them")
    if not _State.enabled:
        hook = knobs.runtime.add_stages_inspection_hook
        _State.previous_hook = hook if hook is not _stages_hook else None
        knobs.runtime.add_stages_inspection_hook = _stages_hook
        if _State.original_hash is None:
            _State.original_hash = _nvidia.CUDABackend.__dict__["hash"]
            _nvidia.CUDABackend.hash = _hash_with_kiln
        _State.enabled = True
    _forget_compiled_kernels()


def disable():
    """Restores stock Triton: its own stages, its own cache key."""
    if not _State.enabled:
        return
    if knobs.runtime.add_stages_inspection_hook is _stages_hook:
        knobs.runtime.add_stages_inspection_hook = _State.previous_hook
    _State.previous_hook = None
    _State.enabled = False
    _forget_compiled_kernels()


def max_active_clusters(kernel):
    """How many programs of `kernel` (a compiled kernel, as a launch or
    `warmup` returns it) the current GPU runs at once: the grid of a
    persistent kernel. With clusters (num_ctas > 1) a program's CTAs must
    share one GPC, so this can be less than SMs / num_ctas (30 clusters of
    4 on a 132-SM H100, not 33), and a persistent grid larger than it runs
    its last clusters after others finish. CUDA's occupancy query answers,
    for the kernel's own block size and shared memory; RuntimeError if it
    fails."""
    import ctypes
    kernel._init_handles()
    meta = kernel.metadata
    cuda = ctypes.CDLL("libcuda.so.1")
    # CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value union
    # whose clusterDim is three unsigned ints.
    class Attribute(ctypes.Structure):
        _fields_ = [("id", ctypes.c_uint), ("pad", ctypes.c_ubyte * 4), ("dims", ctypes.c_uint * 3),
                    ("rest", ctypes.c_ubyte * 52)]

    class Config(ctypes.Structure):
        _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                    ("shared", ctypes.c_uint), ("stream", ctypes.c_void_p),
                    ("attrs", ctypes.POINTER(Attribute)), ("num_attrs", ctypes.c_uint)]

    cluster_dimension = 4   # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    if meta.num_ctas > 8:
        # A cluster of 16 is not portable: asked for, as the launch does.
        non_portable = 14   # CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
        cuda.cuFuncSetAttribute(ctypes.c_void_p(kernel.function), non_portable, 1)
    attribute = Attribute(id=cluster_dimension, dims=(meta.num_ctas, 1, 1))
    config = Config(grid=(meta.num_ctas, 1, 1), block=(meta.num_warps * 32, 1, 1), shared=meta.shared,
                    stream=None, attrs=ctypes.pointer(attribute), num_attrs=1)
    count = ctypes.c_int(0)
    status = cuda.cuOccupancyMaxActiveClusters(ctypes.byref(count), ctypes.c_void_p(kernel.function),
                                               ctypes.byref(config))
    if status != 0:
        name = ctypes.c_char_p()
        cuda.cuGetErrorName(status, ctypes.byref(name))
        raise RuntimeError(f"cuOccupancyMaxActiveClusters failed for {kernel.name}: "
                           f"{(name.value or b'?').decode()} ({status})")
    return count.value


def _forget_compiled_kernels():
    # A JITFunction keeps the kernels it launched in memory, keyed by
    # arguments and options only: without this, toggling the bridge would
    # keep serving the other compiler's kernels in this process.
    jit = triton.runtime.jit.JITFunction
    # isinstance() on every live object touches deprecated module attributes
    # (torch.distributed.reduce_op warns): those warnings are not the user's.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for obj in gc.get_objects():
            if isinstance(obj, jit):
                obj.device_caches.clear()


def _kiln_env(options, arch):
    """kiln's environment: Triton's ptxas and libdevice, so that both
    compilers use the same tools (and Triton's key, which hashes the ptxas
    version, describes kiln's build too)."""
    env = dict(os.environ)
    env["TRITON_PTXAS_PATH"] = _nvidia.get_ptxas(arch).path
    for name, path in options.extern_libs or ():
        if name == "libdevice":
            env["TRITON_LIBDEVICE_PATH"] = path
    return env


def _identity(arch):
    """kiln's identity for `cuda:<arch>`, memoised on what can change it: the
    executable and every plugin file TRITON_PLUGIN_PATHS and KILN_PLUGIN_PATHS
    name (path, size, modification time), so a rebuilt kiln or plugin is
    asked again."""
    exe = _State.executable or _driver.find_executable()
    stamps = []
    for path in [exe] + _driver.plugin_files():
        try:
            st = os.stat(path)
            stamps.append((path, st.st_size, st.st_mtime_ns, st.st_ino))
        except OSError:
            stamps.append((path, None))   # kiln itself reports the missing file
    memo = (arch, tuple(stamps), _driver.plugin_paths(), tuple(_State.plugin_flags))
    if memo not in _State.identities:
        _State.identities[memo] = _driver.identity(f"cuda:{arch}", executable=exe,
                                                   flags=_State.plugin_flags)
    return _State.identities[memo]


def _hash_with_kiln(self):
    base = _State.original_hash(self)
    if not _State.enabled:
        return base
    version, key = _identity(self.target.arch)
    return f"{base}-kiln-{version}-{key}-bridge{BRIDGE_VERSION}-ttir={_State.ttir}"


# Triton options that only Triton's frontend, launcher or driver reads, or
# that reach kiln another way (num_warps, num_stages, arch as the target,
# extern_libs as TRITON_LIBDEVICE_PATH, ir_override through the stages).
_PASSED_OVER = frozenset((
    "num_warps", "num_stages", "warp_size", "ir_override", "launch_cooperative_grid", "launch_pdl",
    "supported_fp8_dtypes", "deprecated_fp8_dot_operand_dtypes", "default_dot_input_precision",
    "allowed_dot_input_precisions", "max_num_imprecise_acc_default", "backend_name",
    "sanitize_overflow", "arch", "extern_libs", "fpsan_homomorphic_casts"))


def _ptxas_flags(options):
    """The ptxas flags Triton's make_cubin adds to kiln's own (-lineinfo, -v,
    --fmad=false without fp fusion, the GPU name), as this Triton release
    passes them."""
    flags = []
    if knobs.compilation.disable_line_info:
        flags.append("-suppress-debug-info")
    if getattr(knobs.nvidia, "disable_ptxas_opt", False):
        flags += ["--opt-level", "0"]
    if TRITON_VERSION >= (3, 7):
        flags.append("--regAllocOptLevel=2")
    if options.ptx_options:
        flags += [word for word in options.ptx_options.split(" ") if word]
    return flags


def _codegen_flags(options):
    """(kiln compile flags, refusals) for Triton's options: each option kiln
    implements becomes its flag; one kiln cannot honour is refused with a
    reason rather than compiled differently from what was asked, and so is
    any option this bridge does not know (a newer Triton's) when it is not
    at its default."""
    flags, wrong = [], []
    # Triton itself refuses num_ctas > 1 below sm_90; kiln makes each
    # program a cluster of that many CTAs, as Triton's launcher expects.
    if options.num_ctas != 1:
        flags.append(f"--num-ctas={options.num_ctas}")
    if options.warp_size != 32:
        wrong.append(f"warp_size={options.warp_size}")
    if options.ptx_version is not None:
        wrong.append(f"ptx_version={options.ptx_version} (kiln takes the version of its ptxas)")
    if options.instrumentation_mode:
        wrong.append(f"instrumentation_mode={options.instrumentation_mode!r}")
    others = [name for name, _ in (options.extern_libs or ()) if name != "libdevice"]
    if others:
        wrong.append(f"extern_libs {others}")
    if getattr(options, "clc", False):
        wrong.append("clc=True (cluster launch control is Blackwell's; kiln has no sm_100 back end)")
    if not options.enable_fp_fusion:
        flags.append("--enable-fp-fusion=false")
    if not options.enable_reflect_ftz:
        flags.append("--enable-reflect-ftz=false")
    if options.maxnreg is not None:
        flags.append(f"--maxnreg={options.maxnreg}")
    if getattr(options, "sched4reg", False):
        flags.append("--sched4reg")
    # Triton's debug mode (TRITON_DEBUG=1, debug=True): kiln's mbarrier
    # waits then stop a kernel that would hang, with a message.
    if getattr(options, "debug", False):
        flags.append("--debug")
    if getattr(options, "min_shared_mem", None) is not None:
        flags.append(f"--min-shared-mem={options.min_shared_mem}")
    flags += [f"--ptxas-option={flag}" for flag in _ptxas_flags(options)]
    flags += _State.plugin_flags
    handled = {"num_ctas", "ptx_version", "instrumentation_mode", "clc", "enable_fp_fusion",
               "enable_reflect_ftz", "maxnreg", "sched4reg", "min_shared_mem", "ptx_options", "debug"}
    for field in getattr(type(options), "__dataclass_fields__", {}).values():
        if field.name in handled or field.name in _PASSED_OVER:
            continue
        value = getattr(options, field.name, None)
        if not isinstance(field.default, type(dataclasses.MISSING)) and value != field.default:
            wrong.append(f"{field.name}={value!r} (an option of Triton {triton.__version__} "
                         "this kiln bridge does not know)")
    return flags, wrong


# The stage whose artifact each stage reads.
_INPUT_OF = {"ttir": "ttir", "ttgir": "ttir", "llir": "ttgir", "ptx": "llir", "cubin": "ptx"}


class _Compile:
    """One Triton compile of one kernel: the stages kiln runs share this."""

    def __init__(self, options, capability, arch):
        self.options = options
        self.target = f"cuda:{capability}"
        self.arch = arch
        self.result = None
        self.returned = {}   # stage -> the object we handed Triton

    def _compile_from(self, stage, src, metadata):
        text = src if isinstance(src, (str, bytes)) else str(src)
        if isinstance(text, bytes):
            text = text.decode()
        kernel = _driver._kernel_name(text) or "kernel"
        flags, wrong = _codegen_flags(self.options)
        if self.target != f"cuda:{self.arch}":
            # Triton's `arch` option: code for that GPU, PTX and cubin for this one.
            flags = flags + [f"--ptx-target=cuda:{self.arch}"]
        if wrong:
            raise CompileError(kernel, self.target,
                               "kiln: error: Triton options kiln does not implement: " + "; ".join(wrong),
                               stage="options")
        try:
            self.result = _driver.compile(text, target=self.target, num_warps=self.options.num_warps,
                                          num_stages=self.options.num_stages, start=_INPUT_OF[stage],
                                          shared=metadata.get("shared"), kernel=kernel,
                                          env=_kiln_env(self.options, self.arch),
                                          executable=_State.executable, flags=flags)
        except CompileError as e:
            over = _SHARED_LIMIT.search(e.diagnostic)
            if over:
                raise OutOfSharedMemory(e, int(over.group(1)), int(over.group(2))) from None
            raise

    def stage(self, name):
        def run(src, metadata):
            previous = _INPUT_OF[name] if name != "ttir" else None
            ours = previous is not None and previous in self.returned and src is self.returned[previous]
            if not ours or self.result is None or name not in self.result.stages:
                self._compile_from(name, src, metadata)
            artifact = self.result.stages.get(name)
            if artifact is None:
                raise CompileError(self.result.kernel, self.target,
                                   f"kiln: error: the compile produced no '{name}' artifact", stage=name)
            _fill_metadata(name, self.result.metadata, metadata)
            self.returned[name] = artifact
            return artifact

        run.__name__ = f"kiln_{name}"
        return run


def _fill_metadata(stage, kiln, metadata):
    # The keys each of Triton's own stages writes, from kiln's JSON.
    if stage == "ttgir":
        # Per TMA descriptor argument (cuda:90+): swizzle, elem_size,
        # elem_type, block_size, fp4_padded, from which Triton's launcher
        # encodes the CUtensorMap it passes by value.
        metadata["tensordesc_meta"] = kiln.get("tensordesc_meta", [])
    elif stage == "llir":
        # A Gluon kernel's ttgir stage is Triton's; Triton writes it there.
        metadata.setdefault("tensordesc_meta", kiln.get("tensordesc_meta", []))
        for key, default in (("num_warps", None), ("num_ctas", None), ("shared", 0), ("tmem_size", 0),
                             ("global_scratch_size", 0), ("global_scratch_align", 1),
                             ("profile_scratch_size", 0), ("profile_scratch_align", 1)):
            value = kiln.get(key, default)
            if value is not None:
                metadata[key] = value
    elif stage == "ptx":
        metadata["name"] = kiln["name"]
    # Which compiler built the kernel: in Triton's JSON and its
    # CompiledKernel.metadata.
    metadata["compiler"] = "kiln"
    metadata["kiln_version"] = _driver_version()


def _driver_version():
    from . import __version__
    return __version__


def _pipeline_key():
    """The no-argument call (Triton 3.7+): `(key, hash)` naming the bridge's
    part of the pipeline, after the answer of a hook installed before kiln's.
    Every launch makes this call, so it reads no file and no environment:
    kiln's identity (its build, pipeline and plugin files) enters the
    disk-cache key through backend.hash() on every compile, and what changes
    this answer (enable(), disable(), the ttir mode) also empties the JIT's
    in-memory kernels."""
    if _State.previous_hook is None:
        return _State.pipeline_key
    previous = _State.previous_hook()
    answer = _State.chained_keys.get(previous)
    if answer is None:
        key, digest = previous
        ours = _State.pipeline_key[0]
        answer = (f"{key}{ours}", hashlib.sha256(f"{digest}{ours}".encode()).hexdigest())
        _State.chained_keys[previous] = answer
    return answer


def _stages_hook(*args):
    if not args:
        return _pipeline_key()
    backend, stages, options, language, capability = args
    if _State.previous_hook is not None:
        _State.previous_hook(backend, stages, options, language, capability)
    # CUDA kernels only (the AMD backend stays Triton's). A Triton kernel is
    # kiln's from its TTIR (or its source, in the ttir mode); a Gluon kernel
    # is already TTGIR with explicit layouts once Gluon's own frontend
    # stage has run, so kiln takes over from there.
    if not isinstance(backend, _nvidia.CUDABackend):
        return
    if language == Language.TRITON:
        names = ["ttgir", "llir", "ptx", "cubin"]
        if _State.ttir == "kiln":
            names.insert(0, "ttir")
    elif language == getattr(Language, "GLUON", None):
        names = ["llir", "ptx", "cubin"]
    else:
        return
    one = _Compile(options, capability, backend.target.arch)
    for name in names:
        if name in stages:
            stages[name] = one.stage(name)


if _env_wants_kiln():
    enable()
