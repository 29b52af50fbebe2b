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

from . import csvcells, jsonread
from .board import (
    NUM_TERRITORIES,
    Mask,
    Territory,
    UnknownTerritoryError,
    parse_territory,
    territory_name,
)
from .faults import (
    Fault,
    FaultKind,
    InvalidInputError,
    RisikoError,
    Severity,
    define,
    faults_json,
)
from .names import clean_name, name_key
from .objectives import Objective, UnknownObjectiveError, get_objective
from .ruleset import Ruleset, get_ruleset
from .scoring import SeatScore, ranking, score_seat

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "SeatEntry",
    "Sheet",
    "SheetCheck",
    "SheetError",
    "TableScore",
    "check_sheet",
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


class SheetError(InvalidInputError):
    """A sheet that cannot be scored.

    ``faults`` holds every problem found (:class:`~risiko.faults.Fault` values naming the
    player, the territory and, for CSV, the line); ``str(error)`` is their English messages,
    one per line.
    """


def _k(code: str, template: str, clause: str = "") -> FaultKind:
    return define(f"sheet.{code}", clause, template, located=True)


RULESET_NOT_NAME = _k("ruleset_not_name", "ruleset must be a name such as {default!r}, "
                      "not {value}")
ONE_SEAT = _k("one_seat", "1 seat: a table has {min} to {max} seats")
SEAT_COUNT = _k("seat_count", "{count} seats: a table has {min} to {max} seats")
NO_PLAYER = _k("no_player", "no player name")
PLAYER_NOT_TEXT = _k("player_not_text", "player name must be text, not {value}")
EMPTY_PLAYER = _k("empty_player", "empty player name")
PLAYER_TWICE = _k("player_twice", "player {player!r} is listed twice (seats {first} and "
                  "{second})")
NO_OBJECTIVE = _k("no_objective", "no objective (a number 1-16 or a name)")
OBJECTIVE_TYPE = _k("objective_type", "objective must be a number 1-16 or a name, not {value}")
OBJECTIVE_UNKNOWN = _k("objective_unknown", "{reason}")
OBJECTIVE_TWICE = _k("objective_twice", "objective {number} ({name}) is given to {count} "
                     "seats: {players:and}")
TERRITORY_NOT_NAME = _k("territory_not_name", "territory must be a name, not {value}")
TERRITORY_UNKNOWN = _k("territory_unknown", "{reason}")
ARMIES_NOT_INTEGER = _k("armies_not_integer", "armies {value} is not an integer")
ARMIES_LOW = _k("armies_low", "{territory} has {count} armies (a territory held has at least "
                "1)")
ELIMINATED_HOLDS = _k("eliminated_holds", "{player} is marked eliminated but holds {count} "
                      "territories: {territories:and}")
MISSING_ONE = _k("missing_one", "1 territory is missing (no seat holds it): {territories}")
MISSING = _k("missing", "{count} territories are missing (no seat holds them): {territories}")
REPEATED_BY = _k("territory_repeated_by", "{territory} is listed {count:times} by {player}")
REPEATED = _k("territory_repeated", "{territory} is listed {count:times}: by {holders:and}")
HOLDER_AT_LINE = define("sheet.holder_at_line", "", "{player} (line {line})")
OVER_LIMIT = _k("over_limit", "{player} has {armies} armies on the board, more than {limit}: "
                "{penalty} points (R5)", "R5")
KEY_TWICE = _k("key_twice", "key {key!r} is given twice")
UNKNOWN_KEY = _k("unknown_key", "unknown key {key!r} (known: {known})")
SEATS_NOT_LIST = _k("seats_not_list", "'seats' must be a list of seats")
NO_SEATS = _k("no_seats", "no 'seats': a sheet lists the seats of the table")
SEAT_NOT_OBJECT = _k("seat_not_object", "a seat is an object with player, objective, armies, "
                     "not {value}")
ARMIES_NOT_MAP = _k("armies_not_map", "'armies' must map territory names to armies, not "
                    "{value}")
FLAG_NOT_BOOL = _k("flag_not_bool", "{key} must be true or false, not {value}")
NOT_AN_OBJECT = _k("not_an_object", "a sheet is a JSON object with 'seats', not {type}")
NO_HEADER = _k("no_header", "empty sheet: no header row (player, objective, territory, "
               "armies)")
UNKNOWN_COLUMN = _k("unknown_column", "unknown column {column!r} (known: {known})")
COLUMN_TWICE = _k("column_twice", "column {column!r} appears twice")
MISSING_COLUMNS = _k("missing_columns", "the header lacks the column(s) {columns} (it must "
                     "name player, objective, territory, armies)")
TOO_MANY_CELLS = _k("too_many_cells", "{count} cells but the header has {columns}")
NO_PLAYER_ON_ROW = _k("no_player_on_row", "no player on this row")
OBJECTIVE_DIFFERS = _k("objective_differs", "objective {value!r} differs from {first!r} on "
                       "line {first_line}")
ARMIES_NO_TERRITORY = _k("armies_no_territory", "{armies} armies on no territory (an empty "
                         "territory only declares a seat that holds nothing)")
YES_NO = _k("yes_no", "{column} must be yes or no, not {value!r}")
RULESET_DIFFERS = _k("ruleset_differs", "ruleset {value!r} differs from {first!r} on line "
                     "{first_line}")
EMPTY = _k("empty", "empty sheet")
NOT_JSON = _k("not_json", "not valid JSON: {reason} at line {line} column {column}")
NOT_TEXT_FILE = _k("not_text_file", "{path}: not a text file")
CANNOT_READ = _k("cannot_read", "cannot read {path}: {reason}")


def _shown(value: Any) -> str:
    """A value as a fault shows it (Python's repr, as typed)."""
    return repr(value)


def _relocate(error: ValueError, kind: FaultKind, where: Mapping[str, Any]) -> list[Fault]:
    """The faults of a name error of the board or the objectives as ``kind`` at ``where``
    (the line, the player): the error's own fault is the ``reason`` param, said in the
    message's language."""
    if isinstance(error, RisikoError):
        return [kind(where, reason={"code": f.code, "subjects": dict(f.subjects),
                                    "params": dict(f.params)}) for f in error.faults]
    return [kind(where, reason=str(error))]


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
    """A seat as read, before checking; ``line`` fields are None (JSON) or the CSV line."""

    index: int  # 1-based seat number
    player: Any
    objective: Any
    entries: list[tuple[Any, Any, int | None]] = field(default_factory=list)  # name, armies
    abandoned: bool = False
    eliminated: bool = False
    line: int | None = None
    objective_line: int | None = None


def _at(line: int | None, **subjects: Any) -> dict[str, Any]:
    """Subjects of a fault: ``line`` (CSV) when known, and the others given."""
    return {**subjects, **({"line": line} if line is not None else {})}


def _who(rs: _RawSeat, name: str | None) -> dict[str, Any]:
    """The seat's subject: its player, or its number when it has no name."""
    return {"player": name} if name else {"seat": rs.index}


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


def _check_ruleset(raw: Any, faults: list[Fault]) -> str:
    """The canonical ruleset label for ``raw`` (None = default); appends a fault if unknown."""
    if raw is None:
        return DEFAULT_RULESET
    if not isinstance(raw, str) or not raw.strip():
        faults.append(RULESET_NOT_NAME(default=DEFAULT_RULESET, value=_shown(raw)))
        return DEFAULT_RULESET
    try:
        rs = get_ruleset(raw.strip())
    except RisikoError as e:
        faults.extend(e.faults)
        return raw.strip()
    return rs.label if "@" in raw else rs.name


def _names(raw_seats: Sequence[_RawSeat], faults: list[Fault]) -> list[str | None]:
    """Each seat's player name (NFC, single spaces), None when it has none (a fault)."""
    names: list[str | None] = []
    first_seat: dict[str, int] = {}
    for rs in raw_seats:
        at = _at(rs.line, seat=rs.index)
        if not isinstance(rs.player, str):
            faults.append(NO_PLAYER(at) if rs.player is None else
                          PLAYER_NOT_TEXT(at, value=_shown(rs.player)))
            names.append(None)
            continue
        name = clean_name(rs.player)
        if not name:
            faults.append(EMPTY_PLAYER(at))
            names.append(None)
            continue
        key = name_key(name)
        if key in first_seat:
            faults.append(PLAYER_TWICE(_at(rs.line, player=name), first=first_seat[key],
                                       second=rs.index))
        else:
            first_seat[key] = rs.index
        names.append(name)
    return names


def _objectives(raw_seats: Sequence[_RawSeat], names: Sequence[str | None],
                faults: list[Fault]) -> list[Objective | None]:
    objectives: list[Objective | None] = []
    holders_of_objective: dict[int, list[str]] = {}
    for rs, name in zip(raw_seats, names, strict=True):
        at = _at(rs.objective_line or rs.line, **_who(rs, name))
        obj: Objective | None = None
        if rs.objective is None or (isinstance(rs.objective, str) and not rs.objective.strip()):
            faults.append(NO_OBJECTIVE(at))
        elif isinstance(rs.objective, bool) or not isinstance(rs.objective, int | str):
            faults.append(OBJECTIVE_TYPE(at, value=_shown(rs.objective)))
        else:
            try:
                obj = get_objective(rs.objective)
            except UnknownObjectiveError as e:
                faults += _relocate(e, OBJECTIVE_UNKNOWN, at)
        if obj is not None:
            holders_of_objective.setdefault(obj.number, []).append(name or f"#{rs.index}")
        objectives.append(obj)
    for number, who_list in sorted(holders_of_objective.items()):
        if len(who_list) > 1:
            faults.append(OBJECTIVE_TWICE(number=number, name=get_objective(number).name,
                                          count=len(who_list), players=who_list))
    return objectives


def _territories(raw_seats: Sequence[_RawSeat], names: Sequence[str | None],
                 faults: list[Fault], *, complete: bool = True,
                 ) -> tuple[list[dict[Territory, int]], dict[Territory, list[int]]]:
    """Each seat's armies by territory and the seats (indexes) holding each territory;
    faults for names, counts, territories missing (when ``complete``) or held twice."""
    holders: dict[Territory, list[tuple[int, int | None]]] = {}
    armies_of: list[dict[Territory, int]] = []
    for i, (rs, name) in enumerate(zip(raw_seats, names, strict=True)):
        who = _who(rs, name)
        mine: dict[Territory, int] = {}
        for raw_name, raw_armies, line in rs.entries:
            at = _at(line, **who)
            if not isinstance(raw_name, str | int) or isinstance(raw_name, bool):
                faults.append(TERRITORY_NOT_NAME(at, value=_shown(raw_name)))
                continue
            try:
                t = parse_territory(raw_name)
            except UnknownTerritoryError as e:
                faults += _relocate(e, TERRITORY_UNKNOWN, at)
                continue
            tname = territory_name(t)
            holders.setdefault(t, []).append((i, line))
            count = _parse_armies(raw_armies)
            if count is None:
                faults.append(ARMIES_NOT_INTEGER({**at, "territory": tname},
                                                 value=_shown(raw_armies)))
            elif count < 1:
                faults.append(ARMIES_LOW({**at, "territory": tname}, count=count))
            elif t not in mine:
                mine[t] = count
        armies_of.append(mine)
        if rs.eliminated and mine and name:
            held = [territory_name(t) for t in sorted(mine)]
            faults.append(ELIMINATED_HOLDS(_at(rs.line, player=name), count=len(held),
                                           territories=held))
    missing = [territory_name(t) for t in range(NUM_TERRITORIES) if t not in holders]
    if missing and complete:
        faults.append(MISSING_ONE(territories=missing) if len(missing) == 1 else
                      MISSING(count=len(missing), territories=missing))
    for t in range(NUM_TERRITORIES):
        held_by = holders.get(t, [])
        if len(held_by) > 1:
            seats = {i for i, _ in held_by}
            label = {i: names[i] or f"#{raw_seats[i].index}" for i in seats}
            if len(seats) == 1:
                faults.append(REPEATED_BY({"territory": territory_name(t),
                                           "player": label[held_by[0][0]]},
                                          count=len(held_by)))
            else:
                who_list: list[Any] = [
                    label[i] if line is None else
                    {"code": HOLDER_AT_LINE.code, "params": {"player": label[i], "line": line}}
                    for i, line in held_by]
                faults.append(REPEATED({"territory": territory_name(t)}, count=len(held_by),
                                       holders=who_list,
                                       players=sorted({label[i] for i in seats})))
    return armies_of, {t: [i for i, _ in h] for t, h in holders.items()}


def _check(ruleset_raw: Any, raw_seats: Sequence[_RawSeat], faults: list[Fault]) -> Sheet:
    """Check everything, collect every fault; return the sheet or raise :class:`SheetError`."""
    ruleset = _check_ruleset(ruleset_raw, faults)
    n = len(raw_seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        faults.append(ONE_SEAT(min=MIN_SEATS, max=MAX_SEATS) if n == 1 else
                      SEAT_COUNT(count=n, min=MIN_SEATS, max=MAX_SEATS))
    names = _names(raw_seats, faults)
    objectives = _objectives(raw_seats, names, faults)
    armies_of, _ = _territories(raw_seats, names, faults)
    if faults:
        raise SheetError(faults)
    seats: list[SeatEntry] = []
    for rs, who, obj, mine in zip(raw_seats, names, objectives, armies_of, strict=True):
        assert obj is not None and who is not None
        seats.append(SeatEntry(who, obj, tuple(sorted(mine.items())), rs.abandoned,
                               rs.eliminated))
    return Sheet(ruleset, tuple(seats))


# --------------------------------------------------------------------------------------------
# JSON


def _flag(raw: Any, who: Mapping[str, Any], key: str, faults: list[Fault]) -> bool:
    if raw is None or isinstance(raw, bool):
        return bool(raw)
    faults.append(FLAG_NOT_BOOL(who, key=key, value=_shown(raw)))
    return False


def _read_json_seats(data: Mapping[str, Any], faults: list[Fault]) -> list[_RawSeat]:
    """The seats of a sheet in JSON form, as read (structural faults appended)."""
    faults.extend(KEY_TWICE(key=k) for k in jsonread.duplicate_keys(data))
    for key in data:
        if key not in _TOP_KEYS:
            faults.append(UNKNOWN_KEY(key=key, known=list(_TOP_KEYS)))
    raw_seats: list[_RawSeat] = []
    seats = data.get("seats")
    if not isinstance(seats, list):
        faults.append(SEATS_NOT_LIST() if "seats" in data else NO_SEATS())
        seats = []
    for i, seat in enumerate(seats, start=1):
        if not isinstance(seat, Mapping):
            faults.append(SEAT_NOT_OBJECT({"seat": i}, value=_shown(seat)))
            continue
        player = seat.get("player")
        who: dict[str, Any] = ({"player": clean_name(player)}
                               if isinstance(player, str) and clean_name(player)
                               else {"seat": i})
        faults.extend(KEY_TWICE(who, key=k) for k in jsonread.duplicate_keys(seat))
        for key in seat:
            if key not in _SEAT_KEYS:
                faults.append(UNKNOWN_KEY(who, key=key, known=list(_SEAT_KEYS)))
        raw = _RawSeat(i, player, seat.get("objective"))
        armies = seat.get("armies", {})
        if armies is None:
            armies = {}
        if isinstance(armies, jsonread.JsonObject):
            raw.entries = [(k, v, None) for k, v in armies.pairs]
        elif isinstance(armies, Mapping):
            raw.entries = [(k, v, None) for k, v in armies.items()]
        else:
            faults.append(ARMIES_NOT_MAP(who, value=_shown(armies)))
        raw.abandoned = _flag(seat.get("abandoned"), who, "abandoned", faults)
        raw.eliminated = _flag(seat.get("eliminated"), who, "eliminated", faults)
        raw_seats.append(raw)
    return raw_seats


def parse_sheet(data: Mapping[str, Any], *, ruleset: str | None = None) -> Sheet:
    """Check a sheet in JSON form (a dict as from ``json.load``) and return it.

    ``data`` is ``{"ruleset": str (optional), "seats": [{"player": str, "objective": int |
    str, "armies": {territory name: int >= 1}, "abandoned": bool, "eliminated": bool}]}``.
    ``ruleset`` (a preset name, e.g. from ``--ruleset``) replaces the sheet's own. Players'
    names are read in NFC with single spaces; two seats whose names differ only in capitals
    or accents are one player twice.

    Raises :class:`SheetError` (an :class:`~risiko.faults.InvalidInputError`) with every
    fault: unknown territory (with the closest names), territory listed twice (naming both
    players) or missing, armies not an integer >= 1, unknown or duplicate objective, empty
    or duplicate player name, unknown ruleset, fewer than 2 or more than 6 seats, unknown
    keys, a seat marked eliminated that still holds territories.
    """
    faults: list[Fault] = []
    if not isinstance(data, Mapping):
        raise SheetError(NOT_AN_OBJECT(type=type(data).__name__))
    raw_seats = _read_json_seats(data, faults)
    return _check(ruleset if ruleset is not None else data.get("ruleset"), raw_seats, faults)


@dataclass(frozen=True)
class SheetCheck:
    """A sheet checked as far as it goes (:func:`check_sheet`): ``faults`` (errors block
    saving; ``warning`` ones, such as over the army limit, R5, do not), ``seats`` each
    seat's :class:`~risiko.scoring.SeatScore` so far (None without an objective), ``held``
    the territories held by some seat, ``sheet`` the checked sheet when nothing blocks."""

    faults: tuple[Fault, ...]
    seats: tuple[SeatScore | None, ...]
    held: int
    sheet: Sheet | None

    @property
    def complete(self) -> bool:
        """No blocking fault: the sheet can be saved and scored."""
        return self.sheet is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``complete``, ``held``, ``seats`` (score breakdowns or None),
        ``faults`` (English messages)."""
        return {"complete": self.complete, "held": self.held,
                "seats": [s.to_dict() if s else None for s in self.seats],
                "faults": faults_json(self.faults)}


#: the filler seat's name: never a player's (players' names are stripped of spaces)
_FILLER = " filler "


def _seat_alone(name: str, objective: Objective, armies: Mapping[Territory, int],
                abandoned: bool, ruleset: Ruleset) -> SeatScore:
    """A seat's score from its own territories, objective and armies (a table score depends
    on nothing else): scored on a sheet of that seat and a filler holding the rest."""
    filler = get_objective(1 if objective.number != 1 else 2)
    rest = tuple((t, 1) for t in range(NUM_TERRITORIES) if t not in armies)
    sheet = Sheet(ruleset.name, (
        SeatEntry(name, objective, tuple(sorted(armies.items())), abandoned),
        SeatEntry(_FILLER, filler, rest)))
    return score_sheet(sheet, ruleset).seats[0]


def check_sheet(data: Mapping[str, Any], ruleset: Ruleset | str | None = None) -> SheetCheck:
    """Check a sheet that may still be incomplete (the board entry, seat by seat) and score
    every seat as far as it goes.

    ``data`` is the JSON form of :func:`parse_sheet`. Unlike :func:`parse_sheet`, which
    refuses an incomplete sheet as a whole, this returns every fault with its subjects
    (``player``, ``seat``, ``territory``) and severity: territories nobody holds, a
    territory held by two seats, a seat without an objective, two seats with one objective,
    army counts that are not whole numbers >= 1 (errors); over the army limit (R4/R5: a
    ``warning``, the score carries the penalty). Each seat with an objective is scored on
    its own (exact: a seat's table score depends only on its territories, objective and
    armies; a count that is not a whole number counts 1 meanwhile).

    >>> check = check_sheet({"seats": [{"player": "Anna", "objective": 7,
    ...                                  "armies": {"Alaska": 3}}]})
    >>> [f.code for f in check.faults]
    ['sheet.one_seat', 'sheet.missing']
    >>> check.seats[0].score, check.held  # Alaska, outside objective 7: 1 point (R16)
    (1, 1)
    """
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(
        ruleset if ruleset is not None else data.get("ruleset"))
    faults: list[Fault] = []
    raw_seats = _read_json_seats(data, faults)
    n = len(raw_seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        faults.append(ONE_SEAT(min=MIN_SEATS, max=MAX_SEATS) if n == 1 else
                      SEAT_COUNT(count=n, min=MIN_SEATS, max=MAX_SEATS))
    names = _names(raw_seats, faults)
    objectives = _objectives(raw_seats, names, faults)
    armies_of, holders = _territories(raw_seats, names, faults)
    scores: list[SeatScore | None] = []
    for i, (rs_, name, obj) in enumerate(zip(raw_seats, names, objectives, strict=True)):
        counts = dict(armies_of[i])
        for raw_name, raw_armies, _ in rs_.entries:  # a bad count counts 1 meanwhile
            try:
                t = parse_territory(raw_name)
            except (UnknownTerritoryError, TypeError):
                continue
            count = _parse_armies(raw_armies)
            if count is None or count < 1:
                counts.setdefault(t, 1)
        total = sum(counts.values())
        who = name or f"#{rs_.index}"
        if rs.army_limit is not None and total > rs.army_limit and not rs_.abandoned:
            faults.append(OVER_LIMIT(_at(rs_.line, **_who(rs_, name)), Severity.WARNING,
                                     player=who, armies=total, limit=rs.army_limit,
                                     penalty=-rs.army_limit_penalty))
        scores.append(None if obj is None else
                      _seat_alone(who, obj, counts, rs_.abandoned, rs))
    sheet = None
    if not any(f.is_error for f in faults):
        try:
            sheet = _check(rs.label if "@" in str(data.get("ruleset", "")) else rs.name,
                           raw_seats, [])
        except SheetError as err:  # a fault the checks above do not know
            faults.extend(err.faults)
        else:
            scored = score_sheet(sheet, rs).seats
            scores = list(scored)
    return SheetCheck(tuple(faults), tuple(scores), len(holders), sheet)


# --------------------------------------------------------------------------------------------
# CSV


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _csv_flag(raw: str, who: str, column: str, line: int, faults: list[Fault]) -> bool:
    value = raw.strip().casefold()
    if value in _TRUE:
        return True
    if value not in _FALSE:
        faults.append(YES_NO({"line": line, "player": who}, column=column, value=raw))
    return False


def parse_sheet_csv(text: str, *, ruleset: str | None = None) -> Sheet:
    """Check a sheet in CSV form (see the module docstring) and return it.

    ``text`` is the whole file; blank rows and rows starting with ``#`` are skipped.
    ``ruleset`` replaces the sheet's ``ruleset`` column (default ``club-milano``).
    Seats are in the order of the players' first rows (a player's name however typed:
    NFC, capitals and accents). Fault messages start with the line number. Raises
    :class:`SheetError` listing every fault (those of :func:`parse_sheet`, plus a missing
    or unknown column, a row with the wrong number of cells, an objective that differs
    between the rows of one player).
    """
    faults: list[Fault] = []
    lines = text.splitlines()
    start = 0
    while start < len(lines) and (not lines[start].strip() or lines[start].lstrip()
                                  .startswith("#")):
        start += 1
    if start == len(lines):
        raise SheetError(NO_HEADER())
    reader = csv.reader(io.StringIO("\n".join(lines[start:])), delimiter=_delimiter(lines[start]))
    header = next(reader)
    columns: dict[str, int] = {}
    for i, cell in enumerate(header):
        key = cell.strip().casefold()
        col = _CSV_COLUMNS.get(key)
        if col is None:
            faults.append(UNKNOWN_COLUMN({"line": start + 1}, column=cell.strip(), known=[
                *_CSV_REQUIRED, "ruleset", "abandoned", "eliminated"]))
        elif col in columns:
            faults.append(COLUMN_TWICE({"line": start + 1}, column=col))
        else:
            columns[col] = i
    missing = [c for c in _CSV_REQUIRED if c not in columns]
    if missing:
        faults.append(MISSING_COLUMNS({"line": start + 1}, columns=missing))
        raise SheetError(faults)

    seats: dict[str, _RawSeat] = {}
    rulesets: list[tuple[str, int]] = []  # (value, line)
    for row in reader:
        line = start + reader.line_num
        if not any(cell.strip() for cell in row) or row[0].lstrip().startswith("#"):
            continue
        if len(row) > len(header) and any(cell.strip() for cell in row[len(header):]):
            faults.append(TOO_MANY_CELLS({"line": line}, count=len(row), columns=len(header)))
            continue
        cells = {c: (csvcells.restore_cell(row[i]) if i < len(row) else "")
                 for c, i in columns.items()}
        player = clean_name(cells["player"])
        if not player:
            faults.append(NO_PLAYER_ON_ROW({"line": line}))
            continue
        seat = seats.get(name_key(player))
        objective = cells["objective"].strip()
        if seat is None:
            seat = _RawSeat(len(seats) + 1, player, objective or None, line=line,
                            objective_line=line)
            seats[name_key(player)] = seat
        elif objective and objective != seat.objective:
            if seat.objective is None:
                seat.objective, seat.objective_line = objective, line
            elif not _same_objective(objective, seat.objective):
                faults.append(OBJECTIVE_DIFFERS({"line": line, "player": player},
                                                value=objective, first=seat.objective,
                                                first_line=seat.objective_line))
        territory = cells["territory"].strip()
        armies = cells["armies"].strip()
        if territory:
            seat.entries.append((territory, armies, line))
        elif armies and armies != "0":
            faults.append(ARMIES_NO_TERRITORY({"line": line, "player": player},
                                              armies=armies))
        if "ruleset" in cells and cells["ruleset"].strip():
            rulesets.append((cells["ruleset"].strip(), line))
        if "abandoned" in cells:
            seat.abandoned |= _csv_flag(cells["abandoned"], player, "abandoned", line, faults)
        if "eliminated" in cells:
            seat.eliminated |= _csv_flag(cells["eliminated"], player, "eliminated", line,
                                         faults)
    sheet_ruleset: str | None = ruleset
    if ruleset is None and rulesets:
        sheet_ruleset = rulesets[0][0]
        for value, line in rulesets[1:]:
            if value.casefold() != sheet_ruleset.casefold():
                faults.append(RULESET_DIFFERS({"line": line}, value=value, first=sheet_ruleset,
                                              first_line=rulesets[0][1]))
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
    and column), and every fault of :func:`parse_sheet` / :func:`parse_sheet_csv`; ValueError
    for an unknown ``fmt``.
    """
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise SheetError(EMPTY())
    if fmt is None:
        fmt = "json" if stripped[0] in "{[" else "csv"
    if fmt == "csv":
        return parse_sheet_csv(text.lstrip("\ufeff"), ruleset=ruleset)
    if fmt != "json":
        raise ValueError(f"unknown sheet format {fmt!r} (json or csv)")
    try:
        data = jsonread.loads_keeping_duplicates(stripped)
    except json.JSONDecodeError as e:
        raise SheetError(NOT_JSON(reason=e.msg, line=e.lineno, column=e.colno)) from e
    except InvalidInputError as e:  # too deep, a number too long (risiko.jsonread)
        raise SheetError(list(e.faults)) from None
    return parse_sheet(data, ruleset=ruleset)


def _decode(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        if b"\x00" in raw:
            raise SheetError(NOT_TEXT_FILE(path=name)) from e
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
            raise SheetError(CANNOT_READ(path=str(path), reason=str(e.strerror or e))) from e
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
        except RisikoError as e:
            raise SheetError(e.faults) from e
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
