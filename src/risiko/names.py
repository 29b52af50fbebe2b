"""People's and tournaments' names as people type them.

A name is stored in Unicode NFC with single spaces (:func:`clean_name`) and compared by its
key, NFC + case folding (:func:`name_key`): ``"Luè"``, ``"Lue\\u0300"`` (a combining grave
accent) and ``"LUÈ"`` are one player. Every door (web forms, CLI arguments, season files,
sheets) reads names through these two functions.

>>> clean_name("  Lue\\u0300   Rossi ") == "Luè Rossi"
True
>>> name_key("LUÈ") == name_key("Lue\\u0300") == "luè"
True
"""

from __future__ import annotations

import unicodedata

__all__ = ["clean_name", "name_key", "same_name"]


def clean_name(name: str) -> str:
    """``name`` in NFC, without leading/trailing spaces, inner runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """The comparison key of ``name``: :func:`clean_name`, case-folded, NFC again."""
    return unicodedata.normalize("NFC", clean_name(name).casefold())


def same_name(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same name however typed."""
    return name_key(a) == name_key(b)
