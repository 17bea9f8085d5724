# lit configuration for a kiln plugin's tests, shared by every suite that
# kiln_add_plugin_tests() sets up (its generated lit.site.cfg.py sets the
# paths below, then loads this file).
#
#   kiln, kiln-opt             the tools of the kiln the plugin is built against
#   FileCheck, not, count      LLVM's, from the LLVM kiln was built with
#   %plugin                    the suite's first plugin library
#   %plugin_<target>           the library of each plugin target
#
# Tests see neither TRITON_PLUGIN_PATHS nor the user's compile cache.
import os
import re

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".ttir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

for name, path in config.kiln_plugins:
    config.substitutions.append(("%plugin_" + re.escape(name), '"%s"' % path))
config.substitutions.append(("%plugin", '"%s"' % config.kiln_plugins[0][1]))

llvm_config.with_system_environment(["HOME", "TMPDIR"])
config.environment.pop("TRITON_PLUGIN_PATHS", None)
config.environment["KILN_CACHE_DIR"] = os.path.join(config.test_exec_root, "kiln-cache")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    [ToolSubst("kiln-opt", command=config.kiln_opt), ToolSubst("kiln", command=config.kiln)]
)
