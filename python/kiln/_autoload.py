"""KILN_TRITON=1 for code that never imports kiln.

The package installs kiln-triton.pth into site-packages; Python runs its one
line at start-up, and only when KILN_TRITON is set does it import this
module. Importing Triton here would slow every start-up and could run before
the program has set up its paths, so this waits instead: the first time
`triton` is imported, right after its package has finished initialising,
kiln.triton is imported, which enables the bridge.
"""
import importlib.abc
import importlib.util
import sys


class _AfterTritonImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "triton":
            return None
        # Leave the search to the other finders, then wrap the loader they found.
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run_package = spec.loader.exec_module

        def exec_module(module):
            run_package(module)
            import kiln.triton  # noqa: F401  (enables the bridge on import)

        spec.loader.exec_module = exec_module
        return spec


if "triton" in sys.modules:
    import kiln.triton  # noqa: F401
elif not any(isinstance(f, _AfterTritonImport) for f in sys.meta_path):
    sys.meta_path.insert(0, _AfterTritonImport())
