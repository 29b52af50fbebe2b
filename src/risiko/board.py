"""The official Italian RisiKo! board: 42 territories, 6 continents, 82 borders.

Territories are plain ``int`` (0..41, in the order of the official list, Alaska = 0); sets of
territories are ``int`` bit masks (bit ``t`` set = territory ``t`` in the set), as squares are
in python-chess. A :class:`Board` is an immutable adjacency structure; the club's rule R6
(Medio Oriente and Egitto do not border) is a board variant built with ``removed_borders``.

Parsing is loose (Italian or English name, any case, accents and underscores optional);
an unknown name raises :class:`UnknownTerritoryError` listing the closest names.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from .faults import InvalidInputError, define

Territory: TypeAlias = int
Continent: TypeAlias = int
Mask: TypeAlias = int

#: (Italian name, English name, continent index, card symbol) in official order.
_TERRITORIES: tuple[tuple[str, str, int, str], ...] = (
    ("Alaska", "Alaska", 0, "fante"),
    ("Territori del Nord Ovest", "Northwest Territory", 0, "cannone"),
    ("Groenlandia", "Greenland", 0, "cavaliere"),
    ("Alberta", "Alberta", 0, "fante"),
    ("Ontario", "Ontario", 0, "cavaliere"),
    ("Quebec", "Quebec", 0, "cannone"),
    ("Stati Uniti Occidentali", "Western United States", 0, "fante"),
    ("Stati Uniti Orientali", "Eastern United States", 0, "cannone"),
    ("America Centrale", "Central America", 0, "cavaliere"),
    ("Venezuela", "Venezuela", 1, "cannone"),
    ("Perù", "Peru", 1, "cavaliere"),
    ("Brasile", "Brazil", 1, "cannone"),
    ("Argentina", "Argentina", 1, "fante"),
    ("Islanda", "Iceland", 2, "fante"),
    ("Gran Bretagna", "Great Britain", 2, "cavaliere"),
    ("Scandinavia", "Scandinavia", 2, "cannone"),
    ("Europa Settentrionale", "Northern Europe", 2, "cavaliere"),
    ("Europa Occidentale", "Western Europe", 2, "fante"),
    ("Europa Meridionale", "Southern Europe", 2, "cavaliere"),
    ("Ucraina", "Ukraine", 2, "cannone"),
    ("Africa del Nord", "North Africa", 3, "fante"),
    ("Egitto", "Egypt", 3, "fante"),
    ("Africa Orientale", "East Africa", 3, "cannone"),
    ("Congo", "Congo", 3, "cavaliere"),
    ("Africa del Sud", "South Africa", 3, "cannone"),
    ("Madagascar", "Madagascar", 3, "fante"),
    ("Urali", "Ural", 4, "cavaliere"),
    ("Siberia", "Siberia", 4, "cannone"),
    ("Jacuzia", "Yakutsk", 4, "cavaliere"),
    ("Cita", "Irkutsk", 4, "fante"),
    ("Kamchatka", "Kamchatka", 4, "cavaliere"),
    ("Giappone", "Japan", 4, "fante"),
    ("Mongolia", "Mongolia", 4, "cannone"),
    ("Cina", "China", 4, "cavaliere"),
    ("Afghanistan", "Afghanistan", 4, "fante"),
    ("Medio Oriente", "Middle East", 4, "cannone"),
    ("India", "India", 4, "fante"),
    ("Siam", "Siam", 4, "cannone"),
    ("Indonesia", "Indonesia", 5, "cavaliere"),
    ("Nuova Guinea", "New Guinea", 5, "cavaliere"),
    ("Australia Occidentale", "Western Australia", 5, "cannone"),
    ("Australia Orientale", "Eastern Australia", 5, "fante"),
)

#: (Italian name, English name, reinforcement bonus in armies)
_CONTINENTS: tuple[tuple[str, str, int], ...] = (
    ("Nord America", "North America", 5),
    ("Sud America", "South America", 2),
    ("Europa", "Europe", 5),
    ("Africa", "Africa", 3),
    ("Asia", "Asia", 7),
    ("Oceania", "Oceania", 2),
)

#: The 82 borders of the official Italian board (DOMAIN.md), undirected, Italian names.
_BORDER_TEXT = (
    "Afghanistan - Cina; Afghanistan - Medio Oriente; Afghanistan - Ucraina; "
    "Afghanistan - Urali; Africa del Nord - Africa Orientale; Africa del Nord - Brasile; "
    "Africa del Nord - Congo; Africa del Nord - Egitto; Africa del Nord - Europa Meridionale; "
    "Africa del Nord - Europa Occidentale; Africa del Sud - Africa Orientale; "
    "Africa del Sud - Congo; Africa del Sud - Madagascar; Africa Orientale - Congo; "
    "Africa Orientale - Egitto; Africa Orientale - Madagascar; Alaska - Alberta; "
    "Alaska - Kamchatka; Alaska - Territori del Nord Ovest; Alberta - Ontario; "
    "Alberta - Stati Uniti Occidentali; Alberta - Territori del Nord Ovest; "
    "America Centrale - Stati Uniti Occidentali; America Centrale - Stati Uniti Orientali; "
    "America Centrale - Venezuela; Argentina - Brasile; Argentina - Perù; "
    "Australia Occidentale - Australia Orientale; Australia Occidentale - Indonesia; "
    "Australia Occidentale - Nuova Guinea; Australia Orientale - Nuova Guinea; "
    "Brasile - Perù; Brasile - Venezuela; Cina - India; Cina - Medio Oriente; "
    "Cina - Mongolia; Cina - Siam; Cina - Siberia; Cina - Urali; Cita - Jacuzia; "
    "Cita - Kamchatka; Cita - Mongolia; Cita - Siberia; Egitto - Europa Meridionale; "
    "Egitto - Medio Oriente; Europa Meridionale - Europa Occidentale; "
    "Europa Meridionale - Europa Settentrionale; Europa Meridionale - Medio Oriente; "
    "Europa Meridionale - Ucraina; Europa Occidentale - Europa Settentrionale; "
    "Europa Occidentale - Gran Bretagna; Europa Settentrionale - Gran Bretagna; "
    "Europa Settentrionale - Scandinavia; Europa Settentrionale - Ucraina; "
    "Giappone - Kamchatka; Giappone - Mongolia; Gran Bretagna - Islanda; "
    "Gran Bretagna - Scandinavia; Groenlandia - Islanda; Groenlandia - Ontario; "
    "Groenlandia - Quebec; Groenlandia - Territori del Nord Ovest; India - Medio Oriente; "
    "India - Siam; Indonesia - Nuova Guinea; Indonesia - Siam; Islanda - Scandinavia; "
    "Jacuzia - Kamchatka; Jacuzia - Siberia; Kamchatka - Mongolia; Medio Oriente - Ucraina; "
    "Mongolia - Siberia; Ontario - Quebec; Ontario - Stati Uniti Occidentali; "
    "Ontario - Stati Uniti Orientali; Ontario - Territori del Nord Ovest; Perù - Venezuela; "
    "Quebec - Stati Uniti Orientali; Scandinavia - Ucraina; Siberia - Urali; "
    "Stati Uniti Occidentali - Stati Uniti Orientali; Ucraina - Urali"
)
OFFICIAL_BORDERS: tuple[tuple[str, str], ...] = tuple(
    (a, b) for a, _, b in (pair.partition(" - ") for pair in _BORDER_TEXT.split("; "))
)

# Final: the compiled build (mypyc) reads them as constants, not from the module's dict
NUM_TERRITORIES: Final = len(_TERRITORIES)
NUM_CONTINENTS: Final = len(_CONTINENTS)
ALL_TERRITORIES: Mask = (1 << NUM_TERRITORIES) - 1

TERRITORY_NAMES: tuple[str, ...] = tuple(t[0] for t in _TERRITORIES)
TERRITORY_NAMES_EN: tuple[str, ...] = tuple(t[1] for t in _TERRITORIES)
TERRITORY_CONTINENT: tuple[Continent, ...] = tuple(t[2] for t in _TERRITORIES)
TERRITORY_SYMBOL: tuple[str, ...] = tuple(t[3] for t in _TERRITORIES)
CONTINENT_NAMES: tuple[str, ...] = tuple(c[0] for c in _CONTINENTS)
CONTINENT_NAMES_EN: tuple[str, ...] = tuple(c[1] for c in _CONTINENTS)
CONTINENT_BONUS: tuple[int, ...] = tuple(c[2] for c in _CONTINENTS)
CONTINENT_MASKS: tuple[Mask, ...] = tuple(
    sum(1 << t for t in range(NUM_TERRITORIES) if TERRITORY_CONTINENT[t] == c)
    for c in range(NUM_CONTINENTS)
)
CONTINENT_SIZES: tuple[int, ...] = tuple(m.bit_count() for m in CONTINENT_MASKS)


UNKNOWN_TERRITORY = define("board.unknown_territory", "", "unknown territory {name!r}")
UNKNOWN_TERRITORY_CLOSE = define("board.unknown_territory_close", "",
                                 "unknown territory {name!r}; closest: {closest}")
TERRITORY_NUMBER = define("board.territory_number", "",
                          "no territory number {number} (0..{last})")
UNKNOWN_CONTINENT = define("board.unknown_continent", "", "unknown continent {name!r}")
UNKNOWN_CONTINENT_CLOSE = define("board.unknown_continent_close", "",
                                 "unknown continent {name!r}; closest: {closest}")
CONTINENT_NUMBER = define("board.continent_number", "", "no continent number {number}")


class UnknownTerritoryError(InvalidInputError):
    """A territory or continent name (or number) that matches nothing: one fault
    (``board.unknown_territory`` / ``board.unknown_continent``, with ``closest`` the nearest
    names when some are close; ``board.territory_number`` / ``board.continent_number``)."""


def _fold(name: str) -> str:
    """Normalise a name for lookup: no accents, lower case, single spaces, '_'/'-' as space."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("_", " ").replace("-", " ").replace("'", " ")
    return " ".join(plain.lower().split())


_TERRITORY_INDEX: dict[str, Territory] = {}
for _t, (_it, _en, _c, _s) in enumerate(_TERRITORIES):
    _TERRITORY_INDEX[_fold(_it)] = _t
    _TERRITORY_INDEX[_fold(_en)] = _t
_CONTINENT_INDEX: dict[str, Continent] = {}
for _c, (_it, _en, _b) in enumerate(_CONTINENTS):
    _CONTINENT_INDEX[_fold(_it)] = _c
    _CONTINENT_INDEX[_fold(_en)] = _c


def _closest(key: str, names: Iterable[str]) -> list[str]:
    folded: dict[str, str] = {}
    for n in names:
        folded.setdefault(_fold(n), n)  # the first spelling wins: Italian before English
    hits = difflib.get_close_matches(key, list(folded), n=3, cutoff=0.5)
    return [folded[h] for h in hits]


def parse_territory(name: str | int) -> Territory:
    """Return the territory for an Italian or English name (any case, accents optional).

    ``int`` values 0..41 are accepted as they are. Raises :class:`UnknownTerritoryError`
    (a ``ValueError``) naming the closest territories when nothing matches.
    """
    if isinstance(name, int):
        if 0 <= name < NUM_TERRITORIES:
            return name
        raise UnknownTerritoryError(TERRITORY_NUMBER(number=name, last=NUM_TERRITORIES - 1))
    key = _fold(name)
    found = _TERRITORY_INDEX.get(key)
    if found is not None:
        return found
    close = _closest(key, TERRITORY_NAMES + TERRITORY_NAMES_EN)
    if close:
        raise UnknownTerritoryError(UNKNOWN_TERRITORY_CLOSE(name=name, closest=close))
    raise UnknownTerritoryError(UNKNOWN_TERRITORY(name=name))


def parse_continent(name: str | int) -> Continent:
    """Return the continent for an Italian or English name; raises UnknownTerritoryError."""
    if isinstance(name, int):
        if 0 <= name < NUM_CONTINENTS:
            return name
        raise UnknownTerritoryError(CONTINENT_NUMBER(number=name))
    key = _fold(name)
    found = _CONTINENT_INDEX.get(key)
    if found is not None:
        return found
    close = _closest(key, CONTINENT_NAMES + CONTINENT_NAMES_EN)
    if close:
        raise UnknownTerritoryError(UNKNOWN_CONTINENT_CLOSE(name=name, closest=close))
    raise UnknownTerritoryError(UNKNOWN_CONTINENT(name=name))


def territory_name(t: Territory, lang: str = "it") -> str:
    """The official name of territory ``t`` (``lang`` "it" or "en")."""
    return TERRITORY_NAMES_EN[t] if lang == "en" else TERRITORY_NAMES[t]


def territory_code(t: Territory) -> str:
    """The name of ``t`` with spaces as underscores: one token, used in game records."""
    return TERRITORY_NAMES[t].replace(" ", "_")


def continent_name(c: Continent, lang: str = "it") -> str:
    """The name of continent ``c`` (``lang`` "it" or "en")."""
    return CONTINENT_NAMES_EN[c] if lang == "en" else CONTINENT_NAMES[c]


def mask_of(territories: Iterable[Territory]) -> Mask:
    """The bit mask of a collection of territories."""
    m = 0
    for t in territories:
        m |= 1 << t
    return m


def mask_list(mask: Mask) -> list[Territory]:
    """The territories of ``mask`` in increasing order, as a list (faster than iter_mask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_TERRITORIES_OF: Final[dict[Mask, tuple[Territory, ...]]] = {}
#: the territories of each 7-bit piece of a mask: _PIECES[i][m] for bits 7i..7i+6
_PIECES: Final[tuple[tuple[tuple[Territory, ...], ...], ...]] = tuple(
    tuple(tuple(7 * i + b for b in range(7) if m >> b & 1) for m in range(128))
    for i in range(6)
)


def territories_of(mask: Mask) -> tuple[Territory, ...]:
    """The territories of ``mask`` (42 bits) in increasing order, as a tuple (remembered: a
    game asks for the same seat's territories many times between two conquests).

    >>> territories_of(0b101100), territories_of(1 << 41 | 1)
    ((2, 3, 5), (0, 41))
    """
    found = _TERRITORIES_OF.get(mask)
    if found is None:
        if len(_TERRITORIES_OF) >= 4096:
            _TERRITORIES_OF.clear()
        p0, p1, p2, p3, p4, p5 = _PIECES
        found = _TERRITORIES_OF[mask] = (
            p0[mask & 127] + p1[mask >> 7 & 127] + p2[mask >> 14 & 127]
            + p3[mask >> 21 & 127] + p4[mask >> 28 & 127] + p5[mask >> 35 & 127]
        )
    return found


def iter_mask(mask: Mask) -> Iterator[Territory]:
    """The territories of ``mask`` in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class Board:
    """An adjacency structure over the 42 territories.

    ``neighbours[t]`` is the mask of the territories bordering ``t``; ``borders`` the set of
    undirected borders as ``(a, b)`` pairs with ``a < b``. Use :func:`official_board` for the
    box board and :func:`club_milano_board` for the board of rule R6.
    """

    name: str
    neighbours: tuple[Mask, ...]
    borders: frozenset[tuple[Territory, Territory]]
    #: neighbours of each territory as a tuple of territories in board order (fast loops)
    adjacency: tuple[tuple[Territory, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.adjacency:
            object.__setattr__(
                self, "adjacency", tuple(tuple(iter_mask(m)) for m in self.neighbours)
            )

    @classmethod
    def from_borders(
        cls, name: str, borders: Iterable[tuple[str | int, str | int]]
    ) -> Board:
        """Build a board from border pairs (names or numbers); raises ValueError on a bad pair."""
        pairs: set[tuple[int, int]] = set()
        for a_name, b_name in borders:
            a, b = parse_territory(a_name), parse_territory(b_name)
            if a == b:
                raise ValueError(f"a territory cannot border itself: {territory_name(a)}")
            pairs.add((min(a, b), max(a, b)))
        neigh = [0] * NUM_TERRITORIES
        for a, b in pairs:
            neigh[a] |= 1 << b
            neigh[b] |= 1 << a
        return cls(name, tuple(neigh), frozenset(pairs))

    def without(self, name: str, removed: Iterable[tuple[str | int, str | int]]) -> Board:
        """A copy of this board with the given borders removed (ValueError if one is absent)."""
        drop: set[tuple[int, int]] = set()
        for a_name, b_name in removed:
            a, b = parse_territory(a_name), parse_territory(b_name)
            pair = (min(a, b), max(a, b))
            if pair not in self.borders:
                raise ValueError(
                    f"{territory_name(a)} and {territory_name(b)} do not border on {self.name}"
                )
            drop.add(pair)
        return Board.from_borders(name, sorted(self.borders - drop))

    def borders_of(self, t: Territory) -> Mask:
        """The mask of the territories bordering ``t``."""
        return self.neighbours[t]

    def adjacent(self, a: Territory, b: Territory) -> bool:
        """True when ``a`` and ``b`` share a border on this board."""
        return bool(self.neighbours[a] >> b & 1)

    def degree(self, t: Territory) -> int:
        """Number of borders of ``t``."""
        return self.neighbours[t].bit_count()

    def border_points(self, mask: Mask) -> int:
        """Sum of the borders of the territories in ``mask`` (RTU table score)."""
        return sum(self.neighbours[t].bit_count() for t in iter_mask(mask))

    def frontier(self, mask: Mask) -> Mask:
        """Territories outside ``mask`` that border a territory of ``mask``."""
        out = 0
        for t in iter_mask(mask):
            out |= self.neighbours[t]
        return out & ~mask


_BOARDS: dict[str, Board] = {}


def official_board() -> Board:
    """The official Italian board: 82 borders (DOMAIN.md)."""
    if "official" not in _BOARDS:
        _BOARDS["official"] = Board.from_borders("official", OFFICIAL_BORDERS)
    return _BOARDS["official"]


def club_milano_board() -> Board:
    """The official board without Egitto - Medio Oriente (rule R6): 81 borders."""
    if "club-milano" not in _BOARDS:
        _BOARDS["club-milano"] = official_board().without(
            "club-milano", [("Egitto", "Medio Oriente")]
        )
    return _BOARDS["club-milano"]


def board_by_name(name: str) -> Board:
    """``official`` or ``club-milano``; raises ValueError for any other name."""
    if name == "official":
        return official_board()
    if name == "club-milano":
        return club_milano_board()
    raise ValueError(f"unknown board {name!r} (known: official, club-milano)")
