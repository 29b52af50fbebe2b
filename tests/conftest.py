"""Every test starts in English, whatever the machine's LANG (faults are said in the
language of ``risiko --lang`` / ``LANG``; a test that wants Italian asks for it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from risiko.faults import set_language


@pytest.fixture(autouse=True)
def _english_faults(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    set_language(None)
    yield
    set_language(None)
