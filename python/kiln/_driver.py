"""Running the `kiln` executable: finding it, compiling, reading its identity.

kiln and Triton both embed an LLVM/MLIR; loading both into one process would
mix two copies of LLVM's global state. So Python never loads kiln: every
compile is one `kiln compile` process that writes every stage's artifact
(--dump-stages), and the caller picks the stages it needs from that.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Suffix kiln's --from accepts for each stage's artifact, and the order of
# the NVIDIA stages.
STAGES = ("ttir", "ttgir", "llir", "ptx", "cubin")
_SUFFIX = {"ttir": ".ttir", "ttgir": ".ttgir", "llir": ".llir", "ptx": ".ptx"}
_BINARY = {"cubin"}


class KilnNotFoundError(RuntimeError):
    """No kiln executable where the search order says to look."""


class CompileError(RuntimeError):
    """kiln rejected a kernel. Carries kiln's located diagnostic.

    Attributes: kernel (the kernel's name), target, stage (the stage kiln
    names, when it does), location ("file:line:col" of the first error, when
    located), diagnostic (kiln's whole standard error), command, returncode.
    """

    def __init__(self, kernel, target, diagnostic, command=None, returncode=None, stage=None):
        self.kernel = kernel
        self.target = target
        self.diagnostic = diagnostic.rstrip()
        self.command = command
        self.returncode = returncode
        found = re.search(r"^(.+?:\d+:\d+): error:", self.diagnostic, re.MULTILINE)
        self.location = found.group(1) if found else None
        if stage is None:
            named = re.search(r"stage '(\w+)'", self.diagnostic)
            stage = named.group(1) if named else None
        self.stage = stage
        lines = self.diagnostic.splitlines()
        # The first lines carry the error and its location; MLIR's "see
        # current operation" dumps can run long, the attribute keeps them.
        shown = "\n".join(lines[:12]) + ("\n..." if len(lines) > 12 else "")
        where = f" at {self.location}" if self.location else ""
        super().__init__(f"kiln could not compile kernel '{kernel}' for {target}{where}:\n{shown}")


def _executable_file(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def _checkout_root():
    """The source checkout this package belongs to, if known."""
    here = Path(__file__).resolve().parent
    # Running from the checkout itself: <root>/python/kiln.
    if (here.parent.parent / "CMakeLists.txt").is_file() and here.parent.name == "python":
        return here.parent.parent
    try:
        from . import _checkout  # written by setup.py into installed copies
    except ImportError:
        return None
    return Path(_checkout.ROOT)


def find_executable():
    """The kiln executable, searched in this order (first found wins):

    1. KILN_EXECUTABLE (an error if it names no executable file);
    2. kiln/bin/kiln inside this package (a binary bundled into the wheel);
    3. bin/kiln of the build folder: KILN_BUILD_DIR, else <checkout>/build of
       the checkout the package runs from or was installed from;
    4. `kiln` on PATH.
    """
    named = os.environ.get("KILN_EXECUTABLE")
    if named:
        if not _executable_file(named):
            raise KilnNotFoundError(f"KILN_EXECUTABLE names '{named}', which is not an executable file")
        return os.path.abspath(named)
    candidates = [Path(__file__).resolve().parent / "bin" / "kiln"]
    if os.environ.get("KILN_BUILD_DIR"):
        candidates.append(Path(os.environ["KILN_BUILD_DIR"]) / "bin" / "kiln")
    root = _checkout_root()
    if root is not None:
        candidates.append(root / "build" / "bin" / "kiln")
    for candidate in candidates:
        if _executable_file(candidate):
            return str(candidate)
    on_path = shutil.which("kiln")
    if on_path:
        return on_path
    raise KilnNotFoundError(
        "no kiln executable: set KILN_EXECUTABLE, or build kiln (scripts/setup), or put kiln on PATH; "
        "looked at " + ", ".join(str(c) for c in candidates) + " and PATH")


class Result:
    """One kiln compile: every stage's artifact it produced and the metadata.

    stages maps a stage name to its artifact (str, or bytes for the cubin);
    metadata is the JSON kiln writes beside the cubin (Triton's keys).
    """

    def __init__(self, kernel, stages, metadata, seconds):
        self.kernel = kernel
        self.stages = stages
        self.metadata = metadata
        self.seconds = seconds

    def __repr__(self):
        return f"kiln.Result({self.kernel!r}, stages={list(self.stages)}, {self.seconds * 1e3:.1f} ms)"


def _kernel_name(text):
    found = re.search(r"tt\.func\s+public\s+@([\w$.]+)", text)
    if found:
        return found.group(1)
    found = re.search(r"\.visible\s+\.entry\s+([\w$]+)", text)
    return found.group(1) if found else None


def compile(source, *, target="cuda:90", num_warps=4, num_stages=3, start="ttir", shared=None,
            env=None, executable=None, kernel=None, timeout=None, flags=()):
    """Compiles `source` (an artifact of stage `start`) to a cubin in one kiln process.

    Returns a Result with every stage after `start` (and `start` itself only
    when kiln reran it, i.e. ttir). Raises CompileError on any kiln error.
    `env` is the environment of the kiln process (default: this one's);
    `flags` are more `kiln compile` flags (e.g. "--enable-fp-fusion=false").
    """
    if start not in _SUFFIX:
        raise ValueError(f"start must be one of {', '.join(_SUFFIX)}, not {start!r}")
    exe = executable or find_executable()
    if isinstance(source, bytes):
        source = source.decode()
    kernel = kernel or _kernel_name(source) or "kernel"
    work = tempfile.mkdtemp(prefix="kiln-")
    try:
        # The input's name is what kiln's diagnostics show for locations the
        # IR does not carry itself.
        safe = re.sub(r"[^\w.-]", "_", kernel)[:100] or "kernel"
        path = os.path.join(work, safe + _SUFFIX[start])
        with open(path, "w") as f:
            f.write(source)
        dump = os.path.join(work, "stages")
        command = [exe, "compile", path, "--from", start, "--target", target,
                   "--num-warps", str(num_warps), "--num-stages", str(num_stages),
                   "--dump-stages", dump, "-o", os.path.join(work, "out.cubin")]
        if start == "ptx" and shared is not None:
            command += ["--shared", str(shared)]
        command += list(flags)
        began = time.perf_counter()
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CompileError(kernel, target, f"kiln: error: no result after {timeout} s", command)
        seconds = time.perf_counter() - began
        if done.returncode != 0:
            raise CompileError(kernel, target, done.stderr.decode(errors="replace"), command, done.returncode)
        if done.stderr:
            # Warnings of a compile that worked (a Triton plugin skipped, ...).
            sys.stderr.write(done.stderr.decode(errors="replace"))
        stages = {}
        metadata = None
        for name in sorted(os.listdir(dump)):
            stem, dot, ext = name.rpartition(".")
            if ext == "json":
                with open(os.path.join(dump, name)) as f:
                    metadata = json.load(f)
            elif ext in STAGES:
                mode = "rb" if ext in _BINARY else "r"
                with open(os.path.join(dump, name), mode) as f:
                    stages[ext] = f.read()
        if "cubin" not in stages or metadata is None:
            raise CompileError(kernel, target,
                               f"kiln: error: the compile wrote no cubin and metadata (stages: {sorted(stages)})",
                               command, done.returncode)
        return Result(metadata.get("name") or kernel, stages, metadata, seconds)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def plugin_option_flags(options):
    """`kiln` flags setting plugin options: `options` maps "<plugin>.<key>"
    to a value (str() of it)."""
    flags = []
    for key, value in sorted((options or {}).items()):
        if "." not in key or "=" in key:
            raise ValueError(f"plugin option {key!r}: expected '<plugin>.<key>'")
        flags += ["--plugin-option", f"{key}={value}"]
    return flags


def parse_plugin_options(text):
    """KILN_PLUGIN_OPTIONS: "<plugin>.<key>=<value>" entries separated by
    whitespace, as a dict."""
    options = {}
    for entry in (text or "").split():
        key, eq, value = entry.partition("=")
        if not eq or "." not in key:
            raise ValueError(f"KILN_PLUGIN_OPTIONS: {entry!r} is not <plugin>.<key>=<value>")
        options[key] = value
    return options


def identity(target="cuda:90", env=None, executable=None, flags=()):
    """(version, key): kiln's version and the kernel-independent part of its
    cache key (this build, the effective pipeline, every loaded plugin's
    name, version and file hash), from `kiln pipeline --identity`.

    A kiln older than --identity gets an equivalent key computed here from
    `kiln --version`, `kiln pipeline` (which names every plugin edit), the
    plugin files' contents and the executable's path, size and time."""
    exe = executable or find_executable()
    command = [exe, "pipeline", "--target", target, "--identity"] + list(flags)
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    words = done.stdout.decode().split()
    if done.returncode == 0 and len(words) == 3 and words[0] == "kiln":
        return words[1], words[2]
    if b"--identity" not in done.stderr:
        raise CompileError("(none)", target,
                           "kiln: error: cannot read kiln's identity: " +
                           (done.stderr.decode(errors="replace") or done.stdout.decode(errors="replace")),
                           command, done.returncode)
    version = subprocess.run([exe, "--version"], stdout=subprocess.PIPE, env=env).stdout.decode()
    pipeline = subprocess.run([exe, "pipeline", "--target", target], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env)
    if pipeline.returncode != 0:
        raise CompileError("(none)", target, pipeline.stderr.decode(errors="replace"),
                           [exe, "pipeline", "--target", target], pipeline.returncode)
    digest = hashlib.sha256()
    st = os.stat(exe)
    for part in [version, pipeline.stdout.decode(), f"{os.path.realpath(exe)} {st.st_size} {st.st_mtime_ns}"]:
        digest.update(f"{len(part)}:{part}".encode())
    for path in plugin_files(env):
        try:
            with open(path, "rb") as f:
                digest.update(hashlib.sha256(f.read()).digest())
        except OSError:
            digest.update(b"missing:" + path.encode())
    words = version.split()
    return (words[1] if len(words) > 1 else "unknown"), digest.hexdigest()


PLUGIN_VARIABLES = ("TRITON_PLUGIN_PATHS", "KILN_PLUGIN_PATHS")


def plugin_paths(env=None):
    """The plugin search lists kiln reads, as one string (for memo keys)."""
    env = os.environ if env is None else env
    return "\0".join(env.get(name, "") for name in PLUGIN_VARIABLES)


def plugin_files(env=None):
    """The files TRITON_PLUGIN_PATHS and KILN_PLUGIN_PATHS name (a folder
    stands for its *.so), in kiln's loading order."""
    env = os.environ if env is None else env
    files = []
    for name in PLUGIN_VARIABLES:
        for entry in env.get(name, "").split(":"):
            if not entry:
                continue
            if os.path.isdir(entry):
                files += sorted(os.path.join(entry, n) for n in os.listdir(entry) if n.endswith(".so"))
            else:
                files.append(entry)
    return files
