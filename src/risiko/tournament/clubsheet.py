"""A club's results spreadsheet in: one row per player and evening.

Most clubs keep their results in a spreadsheet: a row for each player at each evening, with
the evening's date, the table, the table score and sometimes a mark for the table's winner.
:func:`read_rows` turns the cells of such a sheet (the rows of a CSV file, or of an xlsx
worksheet read by the command line with openpyxl) into :class:`SheetRow` values, and
:func:`apply_rows` adds them to a tournament as qualifying evenings. Nothing is partial: every
fault of every row is collected and raised together
(:class:`~risiko.faults.InvalidInputError`, each fault naming its ``row`` as the spreadsheet
numbers it), and the tournament given is unchanged.

Columns (:data:`COLUMNS`): ``player``, ``date`` (the evening), ``table`` (its number at that
evening, from 1), ``score`` (table points, a whole number: R1, R5), and optionally ``winner``
(a mark for the table's winner, where the club breaks a tie at the table otherwise than by
table score; :mod:`.ranking`) and ``risiko`` (a mark for a completed objective, R1). They are
found by their headers, Italian or English (:data:`HEADERS`: ``Giocatore``, ``Data``,
``Tavolo``, ``Punti``, ``Vincitore`` ...), or named by the caller (``{"score": "Punti
tavolo"}``). Readings:

- dates are ``YYYY-MM-DD`` or day first, as Italians write them (``2/3/2027``, ``02.03.27``);
- numbers may have a decimal comma (``44,0``); a table score must be whole (``52,5`` is
  refused: ranking points with decimals come from the format's formula, not the sheet);
- marks: ``x``, ``1``, ``sì``, ``si``, ``yes``, ``v``, ``*``, ``✓`` ... mean yes; an empty
  cell, ``0``, ``no`` mean no; anything else is refused;
- a cell our own CSV export protected with an apostrophe (:mod:`risiko.csvcells`) is read
  without it (``'-Anna`` is ``-Anna``);
- with no arrival times, everyone arrived on time (R3): the evenings get no arrivals;
- the players are seated at each table in the order of the rows (seat order = turn order).

Every evening of the sheet is a new qualifying evening (an evening already in the tournament
is refused); new players are registered in the order they first appear.

>>> cells = [["Giocatore", "Data", "Tavolo", "Punti", "Vincitore"],
...          ["Anna", "2/3/2027", "1", "44", "x"], ["Bruno", "2/3/2027", "1", "44", ""],
...          ["Carla", "2/3/2027", "1", "12", ""], ["'-Dario", "2/3/2027", "1", "0", ""]]
>>> rows = read_rows(cells)
>>> r = rows[0]
>>> r.row, r.player, r.date.isoformat(), r.table, r.score, r.winner, r.risiko
(2, 'Anna', '2027-03-02', 1, 44, True, False)
>>> rows[3].player
'-Dario'
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from ..csvcells import restore_cell
from ..faults import Fault, InvalidInputError, RisikoError, define, define_words
from ..names import clean_name, name_key
from . import commands
from .dates import evening_date_fault
from .model import Evening, Table, Tournament, scores_in_seat_order
from .schedule import Schedule

__all__ = [
    "COLUMNS",
    "HEADERS",
    "SheetRow",
    "apply_rows",
    "find_columns",
    "read_csv_text",
    "read_rows",
]

#: The columns a sheet gives, required first.
COLUMNS = ("player", "date", "table", "score", "winner", "risiko")
REQUIRED = ("player", "date", "table", "score")

#: Headers recognised for each column (compared without case, accents, spaces and dots).
HEADERS: dict[str, tuple[str, ...]] = {
    "player": ("giocatore", "giocatrice", "nome", "nominativo", "cognome e nome",
               "nome e cognome", "player", "name"),
    "date": ("data", "serata", "data serata", "giorno", "date", "evening", "day"),
    "table": ("tavolo", "tav", "n tavolo", "tavolo n", "numero tavolo", "table", "table no",
              "table number"),
    "score": ("punti", "punteggio", "punti tavolo", "punteggio tavolo", "pt", "pti",
              "score", "points", "table points", "table score"),
    "winner": ("vincitore", "vinto", "vittoria", "vince", "v", "winner", "won", "win"),
    "risiko": ("risiko", "obiettivo", "obiettivo completato", "objective", "objective done"),
}

define_words("club_column", COLUMNS)  # the column names said in the message's language

YES = frozenset({"x", "1", "si", "s", "yes", "y", "true", "vero", "v", "*", "✓", "✔", "ok"})
NO = frozenset({"", "0", "no", "n", "false", "falso", "-"})

UNKNOWN_COLUMN = define(
    "import.unknown_column", "",
    "--column {flag}: the columns are {known}")
NO_HEADER = define(
    "import.no_header", "",
    "--column {flag}={header}: the sheet has no column {header} (its headers: {headers})")
MISSING_COLUMN = define(
    "import.missing_column", "",
    "no column for the {club_column} (headers: {headers}); name it with --column "
    "{flag}=HEADER")
TWO_COLUMNS = define(
    "import.two_columns", "",
    "the columns {headers} could both be the {club_column}: name one with --column "
    "{flag}=HEADER")
EMPTY_SHEET = define("import.empty_sheet", "", "the sheet has no rows")
EMPTY_CELL = define("import.empty_cell", "", "no {club_column}", located=True)
BAD_DATE = define(
    "import.bad_date", "",
    "{value!r} is not a date (DD/MM/YYYY or YYYY-MM-DD)", located=True)
BAD_TABLE = define(
    "import.bad_table", "", "{value!r} is not a table number (1, 2, ...)", located=True)
BAD_SCORE = define(
    "import.bad_score", "R1",
    "{value!r} is not a table score: table points are whole numbers", located=True)
BAD_MARK = define(
    "import.bad_mark", "",
    "{value!r} is not a mark for the {club_column} (x, sì, 1 or an empty cell)", located=True)
PLAYED_TWICE = define(
    "import.played_twice", "",
    "{player} is at the evening of {date} twice (rows {rows})", located=True)
TABLE_NUMBERS = define(
    "import.table_numbers", "",
    "the evening of {date} has tables {numbers}: number them 1 to {count}", located=True)


@dataclass(frozen=True)
class SheetRow:
    """One row of a club's sheet: ``row`` (its number in the sheet, the header being row 1
    when it is the first), ``player``, ``date`` (the evening), ``table`` (number, from 1),
    ``score`` (table points), ``winner`` and ``risiko`` marks."""

    row: int
    player: str
    date: _dt.date
    table: int
    score: int
    winner: bool = False
    risiko: bool = False


# ---------------------------------------------------------------------------- cells


def read_csv_text(text: str) -> list[list[str]]:
    """The cells of a CSV text: ``;`` separated when the header line has more ``;`` than
    ``,`` (Italian spreadsheets: the comma is the decimal separator), else ``,``; a byte
    order mark is ignored.

    >>> read_csv_text("Giocatore;Punti\\nAnna;598,5\\n")
    [['Giocatore', 'Punti'], ['Anna', '598,5']]
    """
    text = text.lstrip("\ufeff")
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    return [list(r) for r in csv.reader(io.StringIO(text), delimiter=delimiter)]


def _key(header: Any) -> str:
    text = unicodedata.normalize("NFKD", str(header or "")).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^0-9a-z!]+", " ", text).replace("!", "").split())


_SYNONYMS = {column: {_key(h) for h in names} for column, names in HEADERS.items()}


def find_columns(header: Sequence[Any], given: Mapping[str, str] | None = None
                 ) -> dict[str, int]:
    """Column index of each field (:data:`COLUMNS`) in ``header``: those ``given`` (field ->
    header text), the others guessed from :data:`HEADERS`; optional fields may be missing.
    Raises InvalidInputError naming every field it cannot place.

    >>> find_columns(["Nome", "Data serata", "Tav.", "Punti", "Vincitore"])
    {'player': 0, 'date': 1, 'table': 2, 'score': 3, 'winner': 4}
    """
    keys = [_key(h) for h in header]
    shown = [str(h) for h in header if str(h or "").strip()] or ["-"]
    faults: list[Fault] = []
    out: dict[str, int] = {}
    for column, text in (given or {}).items():
        if column not in COLUMNS:
            faults.append(UNKNOWN_COLUMN(flag=column, known=list(COLUMNS)))
            continue
        matches = [i for i, k in enumerate(keys) if k == _key(text)]
        if not matches:
            faults.append(NO_HEADER(flag=column, header=text, headers=shown))
        else:
            out[column] = matches[0]
    for column in COLUMNS:
        if column in out or column in (given or {}):
            continue
        matches = [i for i, k in enumerate(keys) if k in _SYNONYMS[column]
                   and i not in out.values()]
        if len(matches) > 1:
            faults.append(TWO_COLUMNS(club_column=column, flag=column,
                                      headers=[str(header[i]) for i in matches]))
        elif matches:
            out[column] = matches[0]
        elif column in REQUIRED:
            faults.append(MISSING_COLUMN(club_column=column, flag=column, headers=shown))
    if faults:
        raise InvalidInputError(faults)
    return {c: out[c] for c in COLUMNS if c in out}


def _text(value: Any) -> str:
    return restore_cell(str(value).strip()) if value is not None else ""


def _date(value: Any) -> _dt.date | None:
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    text = _text(value)
    try:
        return _dt.date.fromisoformat(text[:10]) if re.fullmatch(
            r"\d{4}-\d{2}-\d{2}([ T].*)?", text) else None if not text else _day_first(text)
    except ValueError:
        return None


def _day_first(text: str) -> _dt.date | None:
    m = re.fullmatch(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})", text)
    if m is None:
        return None
    day, month, year = (int(g) for g in m.groups())
    return _dt.date(year + 2000 if year < 100 else year, month, day)


def _whole(value: Any) -> int | None:
    """A whole number from a cell (``44``, ``44.0``, ``"44,0"``); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float | Decimal):
        number = Decimal(str(value))
    else:
        text = _text(value).replace("\u2212", "-").replace(" ", "")
        if "," in text:
            text = text.replace(".", "").replace(",", ".")
        try:
            number = Decimal(text)
        except InvalidOperation:
            return None
    if not number.is_finite() or number != number.to_integral_value():
        return None
    return int(number)


def _table_number(value: Any) -> int | None:
    number = _whole(value)
    return number if number is not None and number >= 1 else None


def _mark(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    text = _key(value) if _text(value) not in ("*", "✓", "✔", "-") else _text(value)
    if text in YES:
        return True
    if text in NO:
        return False
    return None


def read_rows(cells: Iterable[Sequence[Any]], columns: Mapping[str, str] | None = None
              ) -> list[SheetRow]:
    """The :class:`SheetRow` values of a sheet's ``cells`` (rows of cell values: text,
    numbers, dates; the first row that is not empty is the header). Empty rows are skipped.
    ``columns`` names the header of a field where the guess would not find it. Raises
    InvalidInputError with every fault of every row (each with its ``row`` and the
    column's header as ``field``)."""
    rows = [list(r) for r in cells]
    numbered = [(i, r) for i, r in enumerate(rows, start=1)
                if any(_text(c) for c in r)]
    if not numbered:
        raise InvalidInputError(EMPTY_SHEET())
    (_first, header), body = numbered[0], numbered[1:]
    at = find_columns(header, columns)
    faults: list[Fault] = []
    out: list[SheetRow] = []
    for number, r in body:
        def cell(column: str, r: list[Any] = r) -> Any:
            index = at.get(column)
            return r[index] if index is not None and index < len(r) else None

        def fault(kind: Any, column: str, number: int = number, **params: Any) -> None:
            faults.append(kind({"row": number, "field": str(header[at[column]])},
                               club_column=column, **params))

        player = clean_name(_text(cell("player")))
        if not player:
            fault(EMPTY_CELL, "player")

        def value(column: str, parse: Any, bad: Any) -> Any:
            found = parse(cell(column))
            if found is None:
                text = _text(cell(column))
                if text:
                    fault(bad, column, value=text)
                else:
                    fault(EMPTY_CELL, column)
            return found

        day = value("date", _date, BAD_DATE)
        far = None if day is None else evening_date_fault(
            day, row=number, field=str(header[at["date"]]))
        if far is not None:  # 31/12/9999: an evening outside the club's years
            faults.append(far)
            day = None
        table = value("table", _table_number, BAD_TABLE)
        score = value("score", _whole, BAD_SCORE)
        marks = {}
        for column in ("winner", "risiko"):
            marks[column] = _mark(cell(column)) if column in at else False
            if marks[column] is None:
                fault(BAD_MARK, column, value=_text(cell(column)))
        if player and None not in (day, table, score, *marks.values()):
            out.append(SheetRow(number, player, day, table, score, bool(marks["winner"]),
                                bool(marks["risiko"])))
    if faults:
        raise InvalidInputError(faults)
    return out


# ---------------------------------------------------------------------------- tournament


def apply_rows(t: Tournament, rows: Sequence[SheetRow]) -> Tournament:
    """``t`` with the sheet's evenings added: new players registered (in the order they
    first appear, a name however typed being the registered player), one qualifying evening
    per date with its tables (seats in row order) and their scores, RisiKo! and named
    winners (the marked ones, checked against the scores). Every fault of the result
    (:func:`~risiko.tournament.checks.tournament_faults`, the stages) is raised with the
    row it concerns. Raises InvalidInputError / IllegalActionError; ``t`` is unchanged.
    """
    faults: list[Fault] = []
    by_date: dict[_dt.date, list[SheetRow]] = {}
    for r in rows:
        by_date.setdefault(r.date, []).append(r)
    known = {e.date for e in t.evenings}
    for day, group in sorted(by_date.items()):
        where = {"row": group[0].row}
        if day in known:
            faults.append(commands.EVENING_EXISTS(where, date=day.isoformat()))
        seen: dict[str, list[int]] = {}
        for r in group:
            seen.setdefault(name_key(r.player), []).append(r.row)
        for key, numbers_ in seen.items():
            if len(numbers_) > 1:
                name = next(r.player for r in group if name_key(r.player) == key)
                faults.append(PLAYED_TWICE({"row": numbers_[1], "player": name},
                                           date=day.isoformat(), rows=numbers_))
        numbers = sorted({r.table for r in group})
        if numbers != list(range(1, len(numbers) + 1)):
            faults.append(TABLE_NUMBERS(where, date=day.isoformat(), numbers=numbers,
                                        count=len(numbers)))
    if faults:
        raise InvalidInputError(faults)
    changed = commands.apply(t, commands.AddPlayers(tuple(r.player for r in rows)))
    spelling = {name_key(p.name): p.name for p in changed.players}
    schedule = Schedule.from_ruleset(changed.ruleset, "qualifying")
    new: list[Evening] = []
    for day, group in sorted(by_date.items()):
        tables = []
        for number in sorted({r.table for r in group}):
            at = [r for r in group if r.table == number]
            seats = tuple(spelling[name_key(r.player)] for r in at)
            scores = [(spelling[name_key(r.player)], r.score) for r in at]
            tables.append(Table(
                seats=seats, scores=scores_in_seat_order(seats, scores),
                risiko=frozenset(spelling[name_key(r.player)] for r in at if r.risiko),
                winners=frozenset(spelling[name_key(r.player)] for r in at if r.winner)))
        new.append(Evening(day, "qualifying", schedule, tables=tuple(tables)))
    changed = replace(changed, evenings=(*changed.evenings, *new)).sorted()  # all at once
    try:
        return commands.checked(changed)
    except RisikoError as e:
        raise type(e)([_located(f, rows, spelling) for f in e.faults]) from None


def _located(fault: Fault, rows: Sequence[SheetRow], spelling: Mapping[str, str]) -> Fault:
    """``fault`` with the ``row`` of the sheet it concerns (its evening, table, player)."""
    s = fault.subjects
    if "row" in s or "evening" not in s:
        return fault
    candidates = [r for r in rows if r.date.isoformat() == s["evening"]]
    if "table" in s:
        candidates = [r for r in candidates if r.table == s["table"]] or candidates
    if s.get("player"):
        key = name_key(str(s["player"]))
        candidates = [r for r in candidates if name_key(r.player) == key] or candidates
    return replace(fault, subjects={**s, "row": candidates[0].row}) if candidates else fault
