# GoogleTest binaries under <build>/unittests run as lit tests, so one lit
# run reports every test of the project.
import os

import lit.formats

config.name = "kiln-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.kiln_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
