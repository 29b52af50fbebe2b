"""The compiled build of the game library: mypyc, only when asked.

``tools/build_backend.py`` (the project's build backend: setuptools plus this choice) sets
``RISIKO_BUILD=compiled`` when a wheel is built where a C compiler and Python's headers are
present; then the library's modules (``src/risiko/*.py`` but ``__init__`` and ``_build``,
``src/risiko/agents/*.py``) are compiled to C extensions with mypyc (mypy's compiler, the
same typed source). Anything else (``RISIKO_BUILD`` unset or ``pure``, the editable install)
is the plain setuptools build: the pure-Python modules. The web app, the CLI, the
tournament and the online tables stay Python in both builds.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
#: the modules the compiled build leaves as Python: the package's ``__init__`` and the
#: module that says which build runs (and stands in for mypyc's marker at run time)
PURE_MODULES = ("__init__.py", "_build.py")


def compiled_modules() -> list[str]:
    """The library's modules to compile, as paths relative to this file (sorted)."""
    lib = HERE / "src" / "risiko"
    paths = [p for p in lib.glob("*.py") if p.name not in PURE_MODULES]
    paths += lib.glob("agents/*.py")
    return sorted(str(p.relative_to(HERE)) for p in paths)


if os.environ.get("RISIKO_BUILD") == "compiled":
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypyc names modules from relative paths (src/risiko/x.py: risiko.x)
    setup(ext_modules=mypycify(
        # no config file: pyproject's [tool.mypy] loads the Django plugin, which the build
        # does not need (the library is pure standard library; `make typecheck` runs strict)
        ["--config-file=", "--python-version", "3.11",
         "--cache-dir", str(Path("build") / "mypyc-cache"), *compiled_modules()],
        opt_level="3",
        group_name="risiko",
    ))
else:
    setup()
