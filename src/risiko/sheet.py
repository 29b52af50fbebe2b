"""End-of-game sheets: the end board of one table, entered by hand, checked and scored.

A sheet lists the seats of one table (2 to 6), each with its player, its objective (1..16)
and the armies on every territory it holds at the end of the game; together the seats must
hold each of the 42 territories exactly once. Scoring applies R1 (RisiKo! = 100, cap 100),
R4/R5 (more than 120 armies: -7), R13 (a seat that left the game scores 0), R15 and R16
(territory and continent points); RisiKo! is decided from the board (the seat holds every
territory of its objective).

JSON form::

    {"ruleset": "club-milano",
     "seats": [{"player": "Anna", "objective": 7, "armies": {"Alaska": 3, "Perù": 2}},
               {"player": "Bruno", "objective": "Guerra Fredda", "armies": {...},
                "abandoned": true}]}

``objective`` is a number 1..16 (int or string) or a name; territory names parse loosely
(Italian or English, any case, accents and underscores optional); ``ruleset`` is optional
(default ``club-milano``); per seat ``abandoned`` (R13: left the game) and ``eliminated``
are optional booleans (a seat that holds no territory is eliminated anyway).

CSV form: a header row with the columns ``player, objective, territory, armies`` (any order
and case; Italian ``giocatore, obiettivo, territorio, armate`` also accepted; comma, semicolon
or tab separated), then one row per territory. A row with an empty territory declares a seat
that holds nothing. The objective must be the same on all rows of a player. Optional columns:
``ruleset`` (same value on every row that fills it), ``abandoned``, ``eliminated``
(yes/no, true/false, 1/0, x; a seat is flagged when any of its rows says yes).
A cell the project wrote with the apostrophe that keeps spreadsheets from running it
(``'=Anna``, see :mod:`risiko.csvcells`) is read without that apostrophe.

Every check runs before anything is scored: all faults are collected and raised together as
one :class:`SheetError` whose ``faults`` are one-line messages naming the player and the
territory concerned (and the line, for CSV).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from . import csvcells
from .board import (
    NUM_TERRITORIES,
    Mask,
    Territory,
    UnknownTerritoryError,
    parse_territory,
    territory_name,
)
from .objectives import Objective, UnknownObjectiveError, get_objective
from .ruleset import Ruleset, get_ruleset
from .scoring import SeatScore, ranking, score_seat

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "SeatEntry",
    "Sheet",
    "SheetError",
    "TableScore",
    "load_sheet",
    "parse_sheet",
    "parse_sheet_csv",
    "parse_sheet_text",
    "score_sheet",
]

#: fewest and most seats a sheet may list (a table seats 3 to 6; 2 allows a reduced table)
MIN_SEATS = 2
MAX_SEATS = 6

DEFAULT_RULESET = "club-milano"

_SEAT_KEYS = ("player", "objective", "armies", "abandoned", "eliminated")
_TOP_KEYS = ("ruleset", "seats")

#: CSV header aliases (folded to lower case) -> column
_CSV_COLUMNS: dict[str, str] = {
    "player": "player",
    "giocatore": "player",
    "objective": "objective",
    "obiettivo": "objective",
    "obbiettivo": "objective",
    "territory": "territory",
    "territorio": "territory",
    "armies": "armies",
    "armate": "armies",
    "carri": "armies",
    "ruleset": "ruleset",
    "regolamento": "ruleset",
    "abandoned": "abandoned",
    "abbandono": "abandoned",
    "eliminated": "eliminated",
    "eliminato": "eliminated",
}
_CSV_REQUIRED = ("player", "objective", "territory", "armies")
_CSV_ORDER = ("player", "objective", "territory", "armies", "abandoned", "eliminated")
_TRUE = frozenset({"yes", "y", "true", "t", "1", "x", "si", "sì", "s"})
_FALSE = frozenset({"", "no", "n", "false", "f", "0"})


class SheetError(ValueError):
    """A sheet that cannot be scored.

    ``faults`` is the list of every problem found, one line each, naming the player and the
    territory concerned; ``str(error)`` is those lines joined by newlines.
    """

    def __init__(self, faults: Sequence[str]) -> None:
        self.faults: list[str] = list(faults)
        super().__init__("\n".join(self.faults))


@dataclass(frozen=True)
class SeatEntry:
    """One seat of a sheet.

    ``armies`` is ``((territory, armies), ...)`` in board order, every count >= 1;
    ``abandoned`` marks a seat whose player left the game (R13); ``eliminated`` a seat
    knocked out (also implied when it holds no territory, see :attr:`is_eliminated`).
    """

    player: str
    objective: Objective
    armies: tuple[tuple[Territory, int], ...] = ()
    abandoned: bool = False
    eliminated: bool = False

    @property
    def owned(self) -> Mask:
        """Bit mask of the territories the seat holds."""
        m = 0
        for t, _ in self.armies:
            m |= 1 << t
        return m

    @property
    def total_armies(self) -> int:
        """Armies of the seat on the board (compared with the R4 limit)."""
        return sum(n for _, n in self.armies)

    @property
    def is_eliminated(self) -> bool:
        """True when flagged eliminated or holding no territory."""
        return self.eliminated or not self.armies

    def to_dict(self) -> dict[str, Any]:
        """JSON form: player, objective number, armies by Italian territory name, and the
        ``abandoned`` / ``eliminated`` flags only when set."""
        out: dict[str, Any] = {
            "player": self.player,
            "objective": self.objective.number,
            "armies": {territory_name(t): n for t, n in self.armies},
        }
        if self.abandoned:
            out["abandoned"] = True
        if self.eliminated:
            out["eliminated"] = True
        return out


@dataclass(frozen=True)
class Sheet:
    """A checked end-of-game sheet: the ruleset name and 2..6 seats in seat order.

    Built only by :func:`parse_sheet`, :func:`parse_sheet_csv` or :func:`load_sheet`, so the
    seats always hold the 42 territories exactly once, with distinct players and objectives.
    """

    ruleset: str
    seats: tuple[SeatEntry, ...]

    def owner(self, territory: Territory) -> str:
        """The player holding ``territory`` (KeyError if none: impossible on a checked sheet)."""
        for seat in self.seats:
            if seat.owned >> territory & 1:
                return seat.player
        raise KeyError(territory)

    def to_dict(self) -> dict[str, Any]:
        """JSON form; ``parse_sheet(sheet.to_dict()) == sheet``."""
        return {"ruleset": self.ruleset, "seats": [s.to_dict() for s in self.seats]}

    def to_csv(self) -> str:
        """CSV form (header ``ruleset,player,objective,territory,armies,abandoned,eliminated``,
        one row per territory, one row with an empty territory for a seat holding nothing);
        ``parse_sheet_csv(sheet.to_csv()) == sheet``."""
        buf = io.StringIO()
        writer = csvcells.writer(buf, lineterminator="\n")  # names never run as formulas
        writer.writerow(("ruleset", *_CSV_ORDER))
        for seat in self.seats:
            flags = ("yes" if seat.abandoned else "", "yes" if seat.eliminated else "")
            rows = [(territory_name(t), str(n)) for t, n in seat.armies] or [("", "")]
            for terr, n in rows:
                writer.writerow((self.ruleset, seat.player, seat.objective.number, terr, n,
                                 *flags))
        return buf.getvalue()


@dataclass(frozen=True)
class TableScore:
    """The scores of one table: ``seats`` in seat order (:class:`SeatScore`), ``ranking``
    the players by score, highest first (equal scores keep seat order), and the ruleset."""

    ruleset: Ruleset
    seats: list[SeatScore]
    ranking: list[str]

    def seat(self, player: str) -> SeatScore:
        """The score of ``player``; KeyError if not at this table."""
        for s in self.seats:
            if s.player == player:
                return s
        raise KeyError(player)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``ruleset`` (name), ``ruleset_version``, ``seats`` (each
        :meth:`SeatScore.to_dict`) and ``ranking`` (player names)."""
        return {
            "ruleset": self.ruleset.name,
            "ruleset_version": self.ruleset.version,
            "seats": [s.to_dict() for s in self.seats],
            "ranking": list(self.ranking),
        }


# --------------------------------------------------------------------------------------------
# checking


@dataclass
class _RawSeat:
    """A seat as read, before checking; ``loc`` fields are "" (JSON) or "line N" (CSV)."""

    index: int  # 1-based seat number
    player: Any
    objective: Any
    entries: list[tuple[Any, Any, str]] = field(default_factory=list)  # (name, armies, loc)
    abandoned: bool = False
    eliminated: bool = False
    loc: str = ""
    objective_loc: str = ""


def _prefix(loc: str) -> str:
    return f"{loc}: " if loc else ""


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _parse_armies(raw: Any) -> int | None:
    """An army count from an int or an integer string; None when it is not an integer."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        text = raw.strip()
        if re.fullmatch(r"[+-]?[0-9]+", text):
            return int(text)
    return None


def _check_ruleset(raw: Any, faults: list[str]) -> str:
    """The canonical ruleset label for ``raw`` (None = default); appends a fault if unknown."""
    if raw is None:
        return DEFAULT_RULESET
    if not isinstance(raw, str) or not raw.strip():
        faults.append(f"ruleset must be a name such as {DEFAULT_RULESET!r}, not {raw!r}")
        return DEFAULT_RULESET
    try:
        rs = get_ruleset(raw.strip())
    except ValueError as e:
        faults.append(str(e))
        return raw.strip()
    return rs.label if "@" in raw else rs.name


def _check(ruleset_raw: Any, raw_seats: Sequence[_RawSeat], faults: list[str]) -> Sheet:
    """Check everything, append every fault; return the sheet or raise :class:`SheetError`."""
    ruleset = _check_ruleset(ruleset_raw, faults)
    n = len(raw_seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        faults.append(f"{n} seat{'' if n == 1 else 's'}: a table has {MIN_SEATS} to "
                      f"{MAX_SEATS} seats")

    # players
    names: list[str] = []
    first_seat: dict[str, int] = {}
    for rs in raw_seats:
        at = _prefix(rs.loc)
        if not isinstance(rs.player, str):
            if rs.player is None:
                faults.append(f"{at}seat {rs.index}: no player name")
            else:
                faults.append(f"{at}seat {rs.index}: player name must be text, not "
                              f"{rs.player!r}")
            names.append(f"seat {rs.index}")
            continue
        name = rs.player.strip()
        if not name:
            faults.append(f"{at}seat {rs.index}: empty player name")
            names.append(f"seat {rs.index}")
            continue
        key = name.casefold()
        if key in first_seat:
            faults.append(f"{at}player {name!r} is listed twice (seats {first_seat[key]} and "
                          f"{rs.index})")
        else:
            first_seat[key] = rs.index
        names.append(name)

    # objectives
    objectives: list[Objective | None] = []
    holders_of_objective: dict[int, list[str]] = {}
    for rs, who in zip(raw_seats, names, strict=True):
        at = _prefix(rs.objective_loc or rs.loc)
        obj: Objective | None = None
        if rs.objective is None or (isinstance(rs.objective, str) and not rs.objective.strip()):
            faults.append(f"{at}{who}: no objective (a number 1-16 or a name)")
        elif isinstance(rs.objective, bool) or not isinstance(rs.objective, int | str):
            faults.append(f"{at}{who}: objective must be a number 1-16 or a name, not "
                          f"{rs.objective!r}")
        else:
            try:
                obj = get_objective(rs.objective)
            except UnknownObjectiveError as e:
                faults.append(f"{at}{who}: {e}")
        if obj is not None:
            holders_of_objective.setdefault(obj.number, []).append(who)
        objectives.append(obj)
    for number, who_list in sorted(holders_of_objective.items()):
        if len(who_list) > 1:
            o = get_objective(number)
            faults.append(f"objective {number} ({o.name}) is given to {len(who_list)} seats: "
                          f"{_join(who_list)}")

    # territories and armies
    holders: dict[Territory, list[str]] = {}
    armies_of: list[dict[Territory, int]] = []
    for rs, who in zip(raw_seats, names, strict=True):
        mine: dict[Territory, int] = {}
        for raw_name, raw_armies, loc in rs.entries:
            at = _prefix(loc)
            if not isinstance(raw_name, str):
                faults.append(f"{at}{who}: territory must be a name, not {raw_name!r}")
                continue
            try:
                t = parse_territory(raw_name)
            except UnknownTerritoryError as e:
                faults.append(f"{at}{who}: {e}")
                continue
            tname = territory_name(t)
            holders.setdefault(t, []).append(f"{who} ({loc})" if loc else who)
            count = _parse_armies(raw_armies)
            if count is None:
                faults.append(f"{at}{who}: {tname}: armies {raw_armies!r} is not an integer")
            elif count < 1:
                faults.append(f"{at}{who}: {tname} has {count} armies (a territory held has at "
                              "least 1)")
            elif t not in mine:
                mine[t] = count
        armies_of.append(mine)
        if rs.eliminated and mine:
            held = [territory_name(t) for t in sorted(mine)]
            faults.append(f"{_prefix(rs.loc)}{who} is marked eliminated but holds "
                          f"{len(held)} territories: {_join(held)}")
    missing = [territory_name(t) for t in range(NUM_TERRITORIES) if t not in holders]
    if missing:
        what = "1 territory is missing (no seat holds it)" if len(missing) == 1 else (
            f"{len(missing)} territories are missing (no seat holds them)")
        faults.append(f"{what}: {', '.join(missing)}")
    for t in range(NUM_TERRITORIES):
        who_list = holders.get(t, [])
        if len(who_list) > 1:
            if len(set(who_list)) == 1:
                faults.append(f"{territory_name(t)} is listed {_times(len(who_list))} by "
                              f"{who_list[0]}")
            else:
                faults.append(f"{territory_name(t)} is listed {_times(len(who_list))}: by "
                              f"{_join(who_list)}")

    if faults:
        raise SheetError(faults)
    seats: list[SeatEntry] = []
    for rs, who, obj, mine in zip(raw_seats, names, objectives, armies_of, strict=True):
        assert obj is not None
        seats.append(SeatEntry(who, obj, tuple(sorted(mine.items())), rs.abandoned,
                               rs.eliminated))
    return Sheet(ruleset, tuple(seats))


# --------------------------------------------------------------------------------------------
# JSON


class _JsonObject(dict[str, Any]):
    """A JSON object that remembers every (key, value) pair, duplicates included."""

    pairs: list[tuple[str, Any]]

    def duplicate_keys(self) -> list[str]:
        seen: set[str] = set()
        dups: list[str] = []
        for k, _ in self.pairs:
            if k in seen and k not in dups:
                dups.append(k)
            seen.add(k)
        return dups


def _object_pairs(pairs: list[tuple[str, Any]]) -> _JsonObject:
    obj = _JsonObject(pairs)
    obj.pairs = pairs
    return obj


def _flag(raw: Any, who: str, key: str, faults: list[str]) -> bool:
    if raw is None or isinstance(raw, bool):
        return bool(raw)
    faults.append(f"{who}: {key} must be true or false, not {raw!r}")
    return False


def parse_sheet(data: Mapping[str, Any], *, ruleset: str | None = None) -> Sheet:
    """Check a sheet in JSON form (a dict as from ``json.load``) and return it.

    ``data`` is ``{"ruleset": str (optional), "seats": [{"player": str, "objective": int |
    str, "armies": {territory name: int >= 1}, "abandoned": bool, "eliminated": bool}]}``.
    ``ruleset`` (a preset name, e.g. from ``--ruleset``) replaces the sheet's own.

    Raises :class:`SheetError` (a ValueError) listing every fault: unknown territory (with
    the closest names), territory listed twice (naming both players) or missing, armies not
    an integer >= 1, unknown or duplicate objective, empty or duplicate player name, unknown
    ruleset, fewer than 2 or more than 6 seats, unknown keys, a seat marked eliminated that
    still holds territories.
    """
    faults: list[str] = []
    if not isinstance(data, Mapping):
        raise SheetError([f"a sheet is a JSON object with 'seats', not {type(data).__name__}"])
    if isinstance(data, _JsonObject):
        faults.extend(f"key {k!r} is given twice" for k in data.duplicate_keys())
    for key in data:
        if key not in _TOP_KEYS:
            faults.append(f"unknown key {key!r} (known: {', '.join(_TOP_KEYS)})")
    raw_seats: list[_RawSeat] = []
    seats = data.get("seats")
    if not isinstance(seats, list):
        faults.append("'seats' must be a list of seats" if "seats" in data
                      else "no 'seats': a sheet lists the seats of the table")
        seats = []
    for i, seat in enumerate(seats, start=1):
        if not isinstance(seat, Mapping):
            faults.append(f"seat {i}: a seat is an object with player, objective, armies, not "
                          f"{seat!r}")
            continue
        player = seat.get("player")
        who = player.strip() if isinstance(player, str) and player.strip() else f"seat {i}"
        if isinstance(seat, _JsonObject):
            faults.extend(f"{who}: key {k!r} is given twice" for k in seat.duplicate_keys())
        for key in seat:
            if key not in _SEAT_KEYS:
                faults.append(f"{who}: unknown key {key!r} (known: {', '.join(_SEAT_KEYS)})")
        raw = _RawSeat(i, player, seat.get("objective"))
        armies = seat.get("armies", {})
        if armies is None:
            armies = {}
        if isinstance(armies, _JsonObject):
            raw.entries = [(k, v, "") for k, v in armies.pairs]
        elif isinstance(armies, Mapping):
            raw.entries = [(k, v, "") for k, v in armies.items()]
        else:
            faults.append(f"{who}: 'armies' must map territory names to armies, not {armies!r}")
        raw.abandoned = _flag(seat.get("abandoned"), who, "abandoned", faults)
        raw.eliminated = _flag(seat.get("eliminated"), who, "eliminated", faults)
        raw_seats.append(raw)
    return _check(ruleset if ruleset is not None else data.get("ruleset"), raw_seats, faults)


# --------------------------------------------------------------------------------------------
# CSV


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _csv_flag(raw: str, who: str, column: str, loc: str, faults: list[str]) -> bool:
    value = raw.strip().casefold()
    if value in _TRUE:
        return True
    if value not in _FALSE:
        faults.append(f"{loc}: {who}: {column} must be yes or no, not {raw!r}")
    return False


def parse_sheet_csv(text: str, *, ruleset: str | None = None) -> Sheet:
    """Check a sheet in CSV form (see the module docstring) and return it.

    ``text`` is the whole file; blank rows and rows starting with ``#`` are skipped.
    ``ruleset`` replaces the sheet's ``ruleset`` column (default ``club-milano``).
    Seats are in the order of the players' first rows. Fault messages start with the line
    number. Raises :class:`SheetError` listing every fault (those of :func:`parse_sheet`,
    plus a missing or unknown column, a row with the wrong number of cells, an objective
    that differs between the rows of one player).
    """
    faults: list[str] = []
    lines = text.splitlines()
    start = 0
    while start < len(lines) and (not lines[start].strip() or lines[start].lstrip()
                                  .startswith("#")):
        start += 1
    if start == len(lines):
        raise SheetError(["empty sheet: no header row (player, objective, territory, armies)"])
    reader = csv.reader(io.StringIO("\n".join(lines[start:])), delimiter=_delimiter(lines[start]))
    header = next(reader)
    columns: dict[str, int] = {}
    for i, cell in enumerate(header):
        key = cell.strip().casefold()
        col = _CSV_COLUMNS.get(key)
        if col is None:
            faults.append(f"line {start + 1}: unknown column {cell.strip()!r} (known: "
                          f"{', '.join((*_CSV_REQUIRED, 'ruleset', 'abandoned', 'eliminated'))})")
        elif col in columns:
            faults.append(f"line {start + 1}: column {col!r} appears twice")
        else:
            columns[col] = i
    missing = [c for c in _CSV_REQUIRED if c not in columns]
    if missing:
        faults.append(f"line {start + 1}: the header lacks the column(s) {', '.join(missing)} "
                      f"(it must name player, objective, territory, armies)")
        raise SheetError(faults)

    seats: dict[str, _RawSeat] = {}
    rulesets: list[tuple[str, str]] = []  # (value, loc)
    for row in reader:
        loc = f"line {start + reader.line_num}"
        if not any(cell.strip() for cell in row) or row[0].lstrip().startswith("#"):
            continue
        if len(row) > len(header) and any(cell.strip() for cell in row[len(header):]):
            faults.append(f"{loc}: {len(row)} cells but the header has {len(header)}")
            continue
        cells = {c: (csvcells.restore_cell(row[i]) if i < len(row) else "")
                 for c, i in columns.items()}
        player = cells["player"].strip()
        if not player:
            faults.append(f"{loc}: no player on this row")
            continue
        seat = seats.get(player)
        objective = cells["objective"].strip()
        if seat is None:
            seat = _RawSeat(len(seats) + 1, player, objective or None, loc=loc,
                            objective_loc=loc)
            seats[player] = seat
        elif objective and objective != seat.objective:
            if seat.objective is None:
                seat.objective, seat.objective_loc = objective, loc
            elif not _same_objective(objective, seat.objective):
                faults.append(f"{loc}: {player}: objective {objective!r} differs from "
                              f"{seat.objective!r} on {seat.objective_loc}")
        territory = cells["territory"].strip()
        armies = cells["armies"].strip()
        if territory:
            seat.entries.append((territory, armies, loc))
        elif armies and armies != "0":
            faults.append(f"{loc}: {player}: {armies} armies on no territory (an empty "
                          "territory only declares a seat that holds nothing)")
        if "ruleset" in cells and cells["ruleset"].strip():
            rulesets.append((cells["ruleset"].strip(), loc))
        if "abandoned" in cells:
            seat.abandoned |= _csv_flag(cells["abandoned"], player, "abandoned", loc, faults)
        if "eliminated" in cells:
            seat.eliminated |= _csv_flag(cells["eliminated"], player, "eliminated", loc, faults)
    sheet_ruleset: str | None = ruleset
    if ruleset is None and rulesets:
        sheet_ruleset = rulesets[0][0]
        for value, loc in rulesets[1:]:
            if value.casefold() != sheet_ruleset.casefold():
                faults.append(f"{loc}: ruleset {value!r} differs from {sheet_ruleset!r} on "
                              f"{rulesets[0][1]}")
                break
    return _check(sheet_ruleset, list(seats.values()), faults)


def _same_objective(a: str, b: str) -> bool:
    """True when two objective cells name the same objective (``7`` and ``AAA``)."""
    try:
        return get_objective(a) == get_objective(b)
    except UnknownObjectiveError:
        return a.casefold() == b.casefold()


# --------------------------------------------------------------------------------------------
# files


def parse_sheet_text(text: str, *, fmt: str | None = None, ruleset: str | None = None) -> Sheet:
    """Check a sheet given as text: ``fmt`` ``"json"`` or ``"csv"``, or None to tell by the
    content (a first non-blank character ``{`` or ``[`` means JSON).

    Raises :class:`SheetError` for an empty text, text that is not valid JSON (with the line
    and column), and every fault of :func:`parse_sheet` / :func:`parse_sheet_csv`.
    """
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise SheetError(["empty sheet"])
    if fmt is None:
        fmt = "json" if stripped[0] in "{[" else "csv"
    if fmt == "csv":
        return parse_sheet_csv(text.lstrip("\ufeff"), ruleset=ruleset)
    if fmt != "json":
        raise ValueError(f"unknown sheet format {fmt!r} (json or csv)")
    try:
        data = json.loads(stripped, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as e:
        raise SheetError([f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}"]) from e
    return parse_sheet(data, ruleset=ruleset)


def _decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        if b"\x00" in raw:
            raise SheetError([f"{name}: not a text file"]) from e
        return raw.decode("cp1252", errors="replace")  # spreadsheets saved on Windows


def load_sheet(
    source: str | os.PathLike[str] | TextIO, *, ruleset: str | None = None
) -> Sheet:
    """Read and check a sheet from a path or an open text handle.

    The format follows the extension (``.json``, ``.csv``), else the content. Text is read as
    UTF-8 (a BOM is allowed), falling back to Windows-1252 for spreadsheet exports.
    ``ruleset`` replaces the sheet's own. Raises :class:`SheetError` for an unreadable file,
    a binary or garbled file and every fault of :func:`parse_sheet_text`.
    """
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise SheetError([f"cannot read {path}: {e.strerror or e}"]) from e
        text = _decode(raw, str(path))
        suffix = path.suffix.casefold()
        fmt = {".json": "json", ".csv": "csv"}.get(suffix)
        return parse_sheet_text(text, fmt=fmt, ruleset=ruleset)
    return parse_sheet_text(source.read(), ruleset=ruleset)


# --------------------------------------------------------------------------------------------
# scoring


def score_sheet(sheet: Sheet, ruleset: Ruleset | str | None = None) -> TableScore:
    """Score every seat of ``sheet`` (R1, R4/R5, R13, R15, R16; RisiKo! from the board).

    ``ruleset`` (a :class:`Ruleset` or a preset name) replaces the sheet's own. Each seat is
    scored by :func:`risiko.scoring.score_seat` with its territory mask and its total armies;
    a seat that left the game (R13) or was eliminated scores 0. Raises :class:`SheetError`
    for an unknown ruleset name.
    """
    if isinstance(ruleset, Ruleset):
        rs = ruleset
    else:
        try:
            rs = get_ruleset(ruleset if ruleset is not None else sheet.ruleset)
        except ValueError as e:
            raise SheetError([str(e)]) from e
    seats = [
        score_seat(
            rs,
            s.player,
            s.objective,
            s.owned,
            s.total_armies,
            eliminated=s.is_eliminated,
            abandoned=s.abandoned,
        )
        for s in sheet.seats
    ]
    return TableScore(rs, seats, ranking(seats))
