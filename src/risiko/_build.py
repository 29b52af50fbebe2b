"""Which build of the game library runs, and the one mypyc marker its modules use.

The game library (``risiko/*.py``, ``risiko/agents``) is one typed source with two builds:
``pure`` (the Python modules, what an editable install and any machine without a C compiler
run) and ``compiled`` (the same modules compiled to C extensions by mypyc, what ``pip install
.`` builds where a C compiler and Python's headers are present: ``setup.py``,
``tools/build_backend.py``). ``risiko --version`` says which one runs:

>>> build() in ("pure", "compiled")
True
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any, TypeVar

_T = TypeVar("_T")


def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[_T], _T]:
    """``mypy_extensions.mypyc_attr`` at run time: the class unchanged (mypyc reads the
    marker when it compiles; the library needs nothing beyond the standard library to run).
    The modules use the real one when ``mypy_extensions`` is installed."""

    def keep(cls: _T) -> _T:
        return cls

    return keep


def build() -> str:
    """``"compiled"`` when the game's modules are C extensions (mypyc), else ``"pure"``."""
    from . import game

    path: Any = getattr(game, "__file__", "") or ""
    return "compiled" if str(path).endswith(tuple(EXTENSION_SUFFIXES)) else "pure"
