"""What the browser tests share: Debian's Chromium (``apt-get install chromium``, never a
browser a test tool downloads), their marks, and how it is launched."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def browser_marks() -> list[pytest.MarkDecorator]:
    """A browser test's marks: ``browser``, on the database (``db``: again on PostgreSQL),
    with committed data the live server sees, skipped without Debian's Chromium."""
    return [
        pytest.mark.browser,
        pytest.mark.db,
        pytest.mark.django_db(transaction=True),
        pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    ]


def launch(p: Any) -> Any:
    """Debian's Chromium, headless, through Playwright ``p`` (``sync_playwright()``)."""
    return p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
