"""The project's build backend: setuptools, plus the compiled build where it can be made.

``pip install .`` (a wheel) builds the game library compiled with mypyc (C extensions, see
``setup.py``) when a C compiler and Python's headers are present, and the pure-Python
modules otherwise. The compiled attempt falls back to the pure build on ANY failure (no
compiler, no headers, mypy not installable, a compile error): the install never fails for
want of the compiled build, it says so on standard error and goes on.

``RISIKO_BUILD`` (environment) chooses:

- ``auto`` (the default): compiled where possible, else pure, as above;
- ``pure``: never compile (``tools/install_check.py`` installs this way: fast);
- ``compiled``: compile or FAIL (no fallback): CI's compiled pass (``make unit-compiled``)
  uses it, so a build that silently fell back to pure cannot pass for the compiled one.

The editable install (``pip install -e``, the Makefile's ``.venv``) is always pure: no
``.so`` is ever written into ``src/``. ``risiko --version`` says which build runs.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: mypy (its compiler, mypyc) for the compiled build: the version the project is tested with
MYPY = "mypy==2.4.1"
MODES = ("auto", "pure", "compiled")


def _setuptools() -> Any:
    """setuptools' own backend (imported when a hook runs: :func:`why_not_compiled` serves
    ``tools/compiled_check.py`` without setuptools)."""
    from setuptools import build_meta

    return build_meta


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    """setuptools' source distribution (it ships ``setup.py`` and this backend)."""
    return str(_setuptools().build_sdist(sdist_directory, config_settings))


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements for a source distribution."""
    return list(_setuptools().get_requires_for_build_sdist(config_settings))


def prepare_metadata_for_build_wheel(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """setuptools' metadata (the same for both builds)."""
    with _build_env("pure"):
        return str(_setuptools().prepare_metadata_for_build_wheel(
            metadata_directory, config_settings))


def get_requires_for_build_editable(
    config_settings: dict[str, Any] | None = None,
) -> list[str]:
    """setuptools' requirements for the editable install (always pure: no mypy)."""
    with _build_env("pure"):
        return list(_setuptools().get_requires_for_build_editable(config_settings))


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    """setuptools' metadata for the editable install."""
    with _build_env("pure"):
        return str(_setuptools().prepare_metadata_for_build_editable(
            metadata_directory, config_settings))


def mode() -> str:
    """The build asked for by ``RISIKO_BUILD`` (``auto`` when unset); ValueError otherwise."""
    value = os.environ.get("RISIKO_BUILD", "").strip().lower() or "auto"
    if value not in MODES:
        raise ValueError(f"RISIKO_BUILD={value!r}: one of {', '.join(MODES)}")
    return value


def why_not_compiled() -> str | None:
    """Why this machine cannot make the compiled build (no C compiler, no Python headers),
    or None when it can try."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    compiler = os.environ.get("CC", "").split() or cc
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({compiler[0] if compiler else 'CC'} not found)"
    include = sysconfig.get_paths().get("include") or ""
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers (Python.h not in {include})"
    return None


def _wants_compiled() -> bool:
    chosen = mode()
    if chosen == "pure":
        return False
    if chosen == "compiled":
        return True
    reason = why_not_compiled()
    if reason is not None:
        _say(f"pure-Python build: {reason}")
    return reason is None


def _say(text: str) -> None:
    print(f"risiko-club: {text}", file=sys.stderr)


@contextmanager
def _build_env(value: str) -> Iterator[None]:
    """``RISIKO_BUILD`` for ``setup.py`` (``compiled`` or ``pure``) during one build."""
    before = os.environ.get("RISIKO_BUILD")
    os.environ["RISIKO_BUILD"] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("RISIKO_BUILD", None)
        else:
            os.environ["RISIKO_BUILD"] = before


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements, plus mypy when the wheel will be compiled."""
    with _build_env("pure"):
        needs = list(_setuptools().get_requires_for_build_wheel(config_settings))
    return [*needs, MYPY] if _wants_compiled() else needs


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """The wheel: compiled when possible (see the module), else pure."""
    if _wants_compiled():
        try:
            with _build_env("compiled"):
                return str(_setuptools().build_wheel(
                    wheel_directory, config_settings, metadata_directory))
        except (Exception, SystemExit) as error:
            if mode() == "compiled":
                raise
            said = " ".join(str(error).split())
            _say(f"the compiled build failed ({type(error).__name__}: "
                 f"{said if len(said) < 300 else said[:300] + '...'}); "
                 "installing the pure-Python build")
            shutil.rmtree("build", ignore_errors=True)  # nothing compiled may reach the wheel
    with _build_env("pure"):
        return str(_setuptools().build_wheel(
            wheel_directory, config_settings, metadata_directory))


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """The editable install (development): always the pure-Python modules of ``src/``."""
    with _build_env("pure"):
        return str(_setuptools().build_editable(
            wheel_directory, config_settings, metadata_directory))
