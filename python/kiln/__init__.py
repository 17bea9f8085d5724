"""kiln's Python package.

- kiln.compile(text, target=..., start="ttir"): one kiln process from any
  stage's artifact to a cubin, every stage's artifact returned.
- kiln.triton: kiln behind stock Triton 3.6 (kiln.triton.enable(), or
  KILN_TRITON=1 in the environment).

Importing kiln is cheap and loads neither Triton nor kiln: kiln runs as a
subprocess (see kiln._driver for why and for how the executable is found).
"""
from ._driver import CompileError, KilnNotFoundError, Result, compile, find_executable, identity

__version__ = "0.1.0"

__all__ = ["CompileError", "KilnNotFoundError", "Result", "compile", "find_executable", "identity",
           "__version__"]
