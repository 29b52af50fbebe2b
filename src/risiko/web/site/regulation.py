"""The club regulation as shipped text: the Italian original (verbatim) and an English
rendering, split into paragraphs with an anchor ``r<N>`` on each numbered clause so other
pages can link to ``/regulation/#r8``.

Format of both files: an optional ``# `` title line (else the first line is the title), then
one paragraph per line; a line ``N. text`` is clause N. The Italian text is authoritative.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LANGUAGES = ("it", "en")
_DIR = Path(__file__).resolve().parent / "templates" / "site" / "regulation"
FILES = {
    "it": _DIR / "regolamento-club-milano.it.txt",
    "en": _DIR / "regolamento-club-milano.en.md",
}
_CLAUSE = re.compile(r"^(\d+)\.\s+(.*)$")


@dataclass(frozen=True)
class Paragraph:
    """A paragraph; ``clause`` is its number when it is a numbered clause."""

    text: str
    clause: int | None = None

    @property
    def anchor(self) -> str:
        """``r<N>`` for clause N, else empty."""
        return f"r{self.clause}" if self.clause is not None else ""


@dataclass(frozen=True)
class Regulation:
    """Title and paragraphs of the regulation in one language."""

    language: str
    title: str
    paragraphs: tuple[Paragraph, ...]


def parse(text: str, language: str) -> Regulation:
    """Split ``text`` (format above) into title and paragraphs."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return Regulation(language, "", ())
    title = lines[0].lstrip("#").strip()
    paragraphs = []
    for line in lines[1:]:
        match = _CLAUSE.match(line)
        if match:
            paragraphs.append(Paragraph(match.group(2), int(match.group(1))))
        else:
            paragraphs.append(Paragraph(line))
    return Regulation(language, title, tuple(paragraphs))


@cache
def load(language: str) -> Regulation:
    """The regulation in ``language`` (``it`` or ``en``); KeyError for another language."""
    return parse(FILES[language].read_text(encoding="utf-8"), language)
