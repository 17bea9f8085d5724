# The metadata lives in pyproject.toml. This file adds two things a wheel
# cannot say declaratively with setuptools: the .pth file that makes
# KILN_TRITON=1 work for code that never imports kiln, placed at the root of
# site-packages, and the checkout the package was built from, so that an
# installed copy still finds that checkout's build/bin/kiln.
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPy(build_py):
    def run(self):
        super().run()
        self.copy_file(os.path.join(HERE, "kiln-triton.pth"),
                       os.path.join(self.build_lib, "kiln-triton.pth"))
        with open(os.path.join(self.build_lib, "kiln", "_checkout.py"), "w") as f:
            f.write("# Written by setup.py when the package was built.\n")
            # scripts/setup builds from a copy of python/ and names the checkout.
            root = os.environ.get("KILN_CHECKOUT_ROOT") or os.path.dirname(HERE)
            f.write(f"ROOT = {root!r}\n")


setup(cmdclass={"build_py": BuildPy})
