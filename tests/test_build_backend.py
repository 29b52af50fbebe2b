"""The build backend's choice between the compiled and the pure build (tools/build_backend.py,
issue 16). Building a wheel takes minutes (``make unit-compiled`` does it); these check the
choice itself, on the pure pass only (the backend is not part of the installed package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "build_backend", Path(__file__).resolve().parents[1] / "tools" / "build_backend.py")
assert _SPEC is not None and _SPEC.loader is not None
build_backend = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(build_backend)


def test_without_a_compiler_the_build_is_pure_and_says_why(monkeypatch, capsys) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.delenv("RISIKO_BUILD", raising=False)
    assert build_backend.why_not_compiled() == "no C compiler (/nonexistent/cc not found)"
    assert build_backend._wants_compiled() is False
    assert "pure-Python build: no C compiler" in capsys.readouterr().err


def test_without_python_headers_the_build_is_pure(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("CC", sys.executable)  # a program that exists
    monkeypatch.setattr(build_backend.sysconfig, "get_paths", lambda: {"include": str(tmp_path)})
    assert build_backend.why_not_compiled() == f"no Python headers (Python.h not in {tmp_path})"


def test_the_choice_follows_risiko_build(monkeypatch) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setenv("RISIKO_BUILD", "pure")
    assert build_backend._wants_compiled() is False
    # compiled: compile or fail, whatever the machine (no fallback to pure)
    monkeypatch.setenv("RISIKO_BUILD", "Compiled")
    assert build_backend._wants_compiled() is True
    monkeypatch.setenv("RISIKO_BUILD", "fast")
    with pytest.raises(ValueError, match="RISIKO_BUILD='fast': one of auto, pure, compiled"):
        build_backend.mode()


def test_the_build_env_is_restored(monkeypatch) -> None:
    monkeypatch.setenv("RISIKO_BUILD", "auto")
    with build_backend._build_env("compiled"):
        assert build_backend.os.environ["RISIKO_BUILD"] == "compiled"
    assert build_backend.os.environ["RISIKO_BUILD"] == "auto"
    monkeypatch.delenv("RISIKO_BUILD")
    with build_backend._build_env("pure"):
        pass
    assert "RISIKO_BUILD" not in build_backend.os.environ
