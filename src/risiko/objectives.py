"""The 16 RisiKo! tournament objectives (DOMAIN.md).

Each objective is whole continents plus a strip of extra territories. ``mask`` is the set of
all its territories; ``continents`` the whole continents "in the objective" (R15). On the
official board each objective is worth exactly 86 border points.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import (
    CONTINENT_MASKS,
    Mask,
    UnknownTerritoryError,
    _closest,
    _fold,
    iter_mask,
    parse_continent,
    parse_territory,
)
from .faults import InvalidInputError, define

_OBJECTIVES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Letto", ("Nord America", "Sud America"),
     ("Africa del Nord", "Egitto", "Africa Orientale", "Congo", "Medio Oriente", "India",
      "Siam", "Indonesia", "Nuova Guinea", "Australia Occidentale")),
    ("4 in Nord", ("Europa", "Africa"),
     ("Groenlandia", "Ontario", "Quebec", "Stati Uniti Orientali", "Urali", "Afghanistan",
      "Medio Oriente")),
    ("Ciclista", ("Europa", "Africa", "Oceania"),
     ("Urali", "Afghanistan", "Medio Oriente", "India", "Siam")),
    ("Buco", ("Nord America", "Africa"),
     ("Islanda", "Gran Bretagna", "Scandinavia", "Europa Settentrionale", "Europa Meridionale",
      "Ucraina")),
    ("Diagonale", ("Nord America", "Oceania"),
     ("Islanda", "Scandinavia", "Ucraina", "Urali", "Cina", "Afghanistan", "Medio Oriente",
      "India", "Siam")),
    ("Formula 1", ("Sud America", "Europa", "Oceania"),
     ("Africa del Nord", "Egitto", "Africa Orientale", "Afghanistan", "Medio Oriente", "India",
      "Siam")),
    ("AAA", ("Sud America", "Africa", "Asia"), ()),
    ("Kam-Jap", ("Nord America", "Sud America", "Europa"), ("Kamchatka", "Giappone")),
    ("Eurasia", ("Europa", "Asia"), ("Indonesia",)),
    ("Nord Mondo", ("Nord America", "Europa"),
     ("Urali", "Siberia", "Jacuzia", "Kamchatka", "Giappone")),
    ("Siberiana", ("Sud America", "Europa", "Africa"),
     ("Urali", "Siberia", "Afghanistan", "Medio Oriente")),
    ("Tappeto", ("Africa", "Asia"), ("Europa Meridionale", "Ucraina")),
    ("Guerra Fredda", ("Nord America", "Asia"), ()),
    ("Sud Mondo", ("Sud America", "Africa", "Oceania"),
     ("Europa Occidentale", "Europa Meridionale", "Cita", "Giappone", "Mongolia", "Cina",
      "Medio Oriente", "India", "Siam")),
    ("Alaska-Alberta", ("Asia", "Oceania"),
     ("Alaska", "Alberta", "Egitto", "Africa Orientale", "Congo", "Africa del Sud",
      "Madagascar")),
    ("Tre in Europa", ("Nord America", "Sud America", "Africa"),
     ("Europa Occidentale", "Europa Meridionale", "Ucraina")),
)


@dataclass(frozen=True)
class Objective:
    """A tournament objective: ``number`` 1..16, ``name``, whole ``continents`` (indices),
    ``extra`` territories mask, and ``mask`` = all its territories."""

    number: int
    name: str
    continents: tuple[int, ...]
    extra: Mask
    mask: Mask

    @property
    def continent_mask(self) -> Mask:
        """Territories of the whole continents in the objective."""
        m = 0
        for c in self.continents:
            m |= CONTINENT_MASKS[c]
        return m

    @property
    def size(self) -> int:
        """Number of territories of the objective."""
        return self.mask.bit_count()

    def territories(self) -> list[int]:
        """The objective's territories in board order."""
        return list(iter_mask(self.mask))


def _build() -> tuple[Objective, ...]:
    out = []
    for i, (name, conts, extra) in enumerate(_OBJECTIVES):
        cidx = tuple(parse_continent(c) for c in conts)
        emask = 0
        for t in extra:
            emask |= 1 << parse_territory(t)
        cmask = 0
        for c in cidx:
            cmask |= CONTINENT_MASKS[c]
        out.append(Objective(i + 1, name, cidx, emask, cmask | emask))
    return tuple(out)


OBJECTIVES: tuple[Objective, ...] = _build()


UNKNOWN_NUMBER = define("objective.unknown_number", "",
                        "unknown objective {key!r}: numbers go from 1 to 16")
UNKNOWN = define("objective.unknown", "", "unknown objective {key!r}")
UNKNOWN_CLOSE = define("objective.unknown_close", "",
                       "unknown objective {key!r}; closest: {closest}")


class UnknownObjectiveError(InvalidInputError):
    """An objective number outside 1..16 or a name that matches none: one fault
    (``objective.unknown_number``, ``objective.unknown`` or, with the nearest names in
    ``closest``, ``objective.unknown_close``)."""


def get_objective(key: int | str) -> Objective:
    """An objective by number (1..16, also as a string) or by name (any case).

    Raises :class:`UnknownObjectiveError` (a ValueError) naming the closest objectives.
    """
    if isinstance(key, int) or (isinstance(key, str) and key.strip().isdecimal()):
        n = int(key)
        if 1 <= n <= len(OBJECTIVES):
            return OBJECTIVES[n - 1]
        raise UnknownObjectiveError(UNKNOWN_NUMBER(key=key))
    folded = _fold(key)
    for o in OBJECTIVES:
        if _fold(o.name) == folded:
            return o
    close = _closest(folded, [o.name for o in OBJECTIVES])
    if close:
        raise UnknownObjectiveError(UNKNOWN_CLOSE(key=key, closest=close))
    raise UnknownObjectiveError(UNKNOWN(key=key))


__all__ = ["OBJECTIVES", "Objective", "UnknownObjectiveError", "UnknownTerritoryError",
           "get_objective"]
