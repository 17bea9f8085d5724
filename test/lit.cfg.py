# lit configuration for kiln's FileCheck tests.
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".ttir", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs", "corpus", "Unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")

config.substitutions.append(("%kiln_src", config.kiln_src_root))
config.substitutions.append(("%kiln_lib", config.kiln_lib_dir))
# First-party plugins, and the test plugins under <that>/test.
config.substitutions.append(("%kiln_plugins", os.path.join(config.kiln_obj_root, "plugins")))
# The build tree itself, and CMake as it was configured (generator, make
# program, compiler), for the SDK test that installs and builds against it.
config.substitutions.append(("%kiln_build", config.kiln_obj_root))
config.substitutions.append(("%cmake", '"%s"' % config.kiln_cmake))
config.substitutions.append(
    (
        "%kiln_cmake_args",
        '-G "%s" -DCMAKE_MAKE_PROGRAM="%s" -DCMAKE_CXX_COMPILER="%s"'
        % (config.kiln_cmake_generator, config.kiln_make_program, config.kiln_cxx_compiler),
    )
)

llvm_config.with_system_environment(["HOME", "TMPDIR"])
# Tests must not see the developer's plugins or cache.
for name in ("TRITON_PLUGIN_PATHS", "KILN_PLUGIN_PATHS", "TRITON_PLUGIN_VERSION_CHECK"):
    config.environment.pop(name, None)
# Tests name the plugins they load; default-plugins.test checks kiln's own.
config.environment["KILN_NO_DEFAULT_PLUGINS"] = "1"
config.environment["KILN_CACHE_DIR"] = os.path.join(config.test_exec_root, "kiln-cache")
llvm_config.use_default_substitutions()
# `not`, `count` and friends live beside FileCheck.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.kiln_tools_dir, config.llvm_tools_dir]
tools = ["kiln-opt", "kiln", "kiln-run-cuda"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# ptxas for the nvidia code-generation tests: TRITON_PTXAS_PATH, then a CUDA
# install, then PATH, as kiln looks for it, and last the one stock Triton's
# wheel ships in the build's venv (scripts/setup makes it), so that a
# machine without CUDA still assembles. Tests that assemble PTX say
# `REQUIRES: ptxas`; they see the ptxas found here through TRITON_PTXAS_PATH.
import glob
import shutil


def find_ptxas():
    candidates = [os.environ.get("TRITON_PTXAS_PATH", "")]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            candidates.append(os.path.join(os.environ[var], "bin", "ptxas"))
    candidates += ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas") or ""]
    candidates += sorted(
        glob.glob(
            os.path.join(
                config.kiln_obj_root, "venv", "lib", "python*", "site-packages", "triton",
                "backends", "nvidia", "bin", "ptxas",
            )
        )
    )
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.realpath(path)
    return None


# Memory errors that do not always crash (scripts/setup installs it).
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.environment["TRITON_PTXAS_PATH"] = ptxas
    # A CUDA install keeps it in nvvm/libdevice, Triton's wheel in lib.
    root = os.path.dirname(os.path.dirname(ptxas))
    libdevice = next(
        (
            path
            for path in (
                os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc"),
                os.path.join(root, "lib", "libdevice.10.bc"),
            )
            if os.path.isfile(path)
        ),
        "",
    )
    if libdevice:
        config.available_features.add("libdevice")
        config.environment["TRITON_LIBDEVICE_PATH"] = libdevice
else:
    lit_config.note("no ptxas found: the tests that assemble PTX are unsupported")

# The Python bridge behind stock Triton (test/Python): its tests run in the
# virtual environment that scripts/setup makes in the build folder (Triton
# 3.6, numpy and the kiln package; the stamp is written last, once all of it
# installed). They import kiln from the source tree, so they test the
# checkout and not the copy installed there, except the test of the
# installed .pth hook, which clears PYTHONPATH.
#
# The bridge's tests run once per Triton release the CI installs: with
# Triton 3.6.0 (build/venv) as part of this suite, and with Triton 3.9.0
# (build/triton-3.9/venv) as a suite of test/Python alone, whose site
# configuration (<build>/test/triton-3.9) sets kiln_triton_release.
release = getattr(config, "kiln_triton_release", None)
if release:
    config.name = "kiln-triton-" + release
    config.test_source_root = os.path.join(os.path.dirname(__file__), "Python")
    config.test_exec_root = os.path.join(config.kiln_obj_root, "test", "triton-" + release)
    venv = os.path.join(config.kiln_obj_root, "triton-" + release, "venv")
else:
    venv = os.path.join(config.kiln_obj_root, "venv")
venv_python = os.path.join(venv, "bin", "python")


def python_sources_hash():
    # As scripts/setup computes it: sha256sum over python/'s files, hashed.
    import hashlib

    root = config.kiln_src_root
    files = []
    for folder, dirs, names in os.walk(os.path.join(root, "python")):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if not (rel == "python" and d == "build") and not d.endswith(".egg-info")]
        files += [os.path.join(rel, n) for n in names if not n.endswith(".pyc")]
    listing = ""
    for rel in sorted(files, key=lambda f: f.encode()):
        with open(os.path.join(root, rel), "rb") as f:
            listing += "%s  %s\n" % (hashlib.sha256(f.read()).hexdigest(), rel)
    return hashlib.sha256(listing.encode()).hexdigest()


stamp = os.path.join(venv, "kiln-setup.stamp")
if os.path.isfile(stamp) and os.access(venv_python, os.X_OK):
    config.available_features.add("triton")
    config.substitutions.append(("%venv_python", venv_python))
    with open(stamp) as f:
        if not f.read().strip().endswith(python_sources_hash()):
            lit_config.warning("the kiln package in %s is older than python/: run scripts/setup "
                               "(the tests of the installed copy use it)" % venv)
    # Triton 3.7.1 too (build/triton-3.7/venv), in the main suite only: the
    # release that reads TRITON_PLUGIN_PATHS itself, for the plugin tests.
    triton37 = os.path.join(config.kiln_obj_root, "triton-3.7", "venv")
    if not release and os.path.isfile(os.path.join(triton37, "kiln-setup.stamp")):
        config.available_features.add("triton-3.7")
        config.substitutions.append(("%triton37_python", os.path.join(triton37, "bin", "python")))
    elif not release and os.environ.get("KILN_REQUIRE_TRITON") == "1":
        lit_config.fatal("KILN_REQUIRE_TRITON=1 but %s is not set up (run scripts/setup)" % triton37)
elif os.environ.get("KILN_REQUIRE_TRITON") == "1":
    lit_config.fatal("KILN_REQUIRE_TRITON=1 but %s is not set up (run scripts/setup)" % venv)
else:
    lit_config.note("no %s (scripts/setup makes it): the Triton bridge tests are unsupported" % venv)
config.environment["PYTHONPATH"] = os.path.join(config.kiln_src_root, "python")
config.environment["KILN_EXECUTABLE"] = os.path.join(config.kiln_tools_dir, "kiln")
# No __pycache__ folders in the source tree.
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
# Triton's own files (caches, dumps) stay in the build tree; each test
# points TRITON_CACHE_DIR at a fresh folder of its own.
config.environment["TRITON_HOME"] = os.path.join(config.test_exec_root, "triton-home")
for name in ("KILN_TRITON", "KILN_TRITON_TTIR", "KILN_BUILD_DIR", "TRITON_CACHE_DIR",
             "TRITON_KERNEL_DUMP", "TRITON_KERNEL_OVERRIDE", "TRITON_ALWAYS_COMPILE",
             "TRITON_OVERRIDE_ARCH", "PTXAS_OPTIONS", "TRITON_DEFAULT_FP_FUSION",
             "TRITON_FORCE_DISABLE_FP_FUSION"):
    config.environment.pop(name, None)
# Triton 3.9 warns on every compile unless fp fusion's default is named:
# name the default 3.6 to 3.9 share (on).
config.environment["TRITON_DEFAULT_FP_FUSION"] = "1"
