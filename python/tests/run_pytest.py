"""Runs pytest on the gravlab module's tests for ctest (python/CMakeLists.txt).

Design note: ctest calls this file instead of `python3 -m pytest` so that an interpreter without pytest or numpy
fails with the Debian package to install; `-m pytest` would only say "No module named pytest", and a test that
cannot run must not look like one that passed. Arguments go to pytest unchanged.
"""
import importlib.util
import sys

REQUIRED_MODULES = {"pytest": "python3-pytest", "numpy": "python3-numpy"}

missing = [package for module, package in REQUIRED_MODULES.items() if importlib.util.find_spec(module) is None]
if missing:
    sys.exit(
        f"python.pytest: {sys.executable} lacks {', '.join(missing)}: install the Debian package(s) with "
        f"'sudo apt-get install {' '.join(missing)}' or run scripts/setup.sh"
    )

import pytest  # noqa: E402 (only once it is known to be there)

sys.exit(pytest.main(sys.argv[1:]))
