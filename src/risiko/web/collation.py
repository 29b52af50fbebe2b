"""Names in lists in Italian order: "Èrica" between "Dario" and "Franco", not after "Zeno".

For display only: the domain's own orderings (tied rows, seeded seating) stay as they are,
so every result stays reproducible. The order is the Unicode Collation Algorithm's root
order (right for Italian: accents and capitals are secondary differences), computed by the
pure-Python ``pyuca`` (nothing to compile at install). Equal keys keep the names apart by
their NFC text, so the order is total.

>>> display_sorted(["Zeno", "Franco", "Èrica", "Dario", "anna"])
['anna', 'Dario', 'Èrica', 'Franco', 'Zeno']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

__all__ = ["display_key", "display_sorted"]

T = TypeVar("T")


@cache
def _collator() -> object:
    from pyuca import Collator  # type: ignore[import-untyped]

    return Collator()


def display_key(name: str) -> tuple[tuple[int, ...], str]:
    """The sort key of ``name`` in lists (collation key, then the NFC text)."""
    nfc = unicodedata.normalize("NFC", name)
    key: tuple[int, ...] = tuple(_collator().sort_key(nfc))  # type: ignore[attr-defined]
    return key, nfc


def display_sorted(items: Iterable[T], key: Callable[[T], str] | None = None) -> list[T]:
    """``items`` in Italian order of their names (``key`` gives an item's name)."""
    get = key or (lambda x: str(x))
    return sorted(items, key=lambda x: display_key(get(x)))
