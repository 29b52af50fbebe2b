"""GestioneTorneo's workbook (``ModuloTorneo.xls``) both ways: read one into a report, write
a report as one. Needs the ``national`` extra (``xlrd`` reads, ``xlwt`` writes; both .xls).

The layout is GestioneTorneo's (``batch/ExcelAccess.java``; its template
``resources/ModuloTorneo.xls``), 0-based rows and columns as xlrd counts them:

- ``TORNEO``: column D (3) of rows 1-6: venue, organiser (the club, "MILANO [Club
  Milano]"), tournament name, category (the label, "Torneo Open"), planned rounds, notes;
  rows 7-36: the date of round 1-30 in column D (a date cell, dd/mm/yyyy), the round's
  number in column B;
- ``Iscritti``: from row 3, columns ID (the workbook's own number), Nome, Cognome,
  Nickname, Club, Partecipa Torneo (SI), Regione, Data di Nascita, ID NAZIONALE; a row counts
  when it has an ID and a name (``getListaGiocatori``);
- ``N° Turno`` (``1° Turno``, ``2° Turno``, ...): a game is two rows, "Tavolo N°k" then up to
  five triples (ID, "Nome Cognome", table points); ID -1 is GestioneTorneo's ghost (left out),
  0 or empty no seat; the winners are the seats with the highest points
  (``Partita.isVincitore``);
- ``Classifica Ridotta``: a header row (Pos., Nome, Cognome, pt_tot, id), then one row per
  player: position (A), points (D), ID (E).

:func:`check_workbook` re-implements the checks of GestioneTorneo's own validator
(``batch/ExcelValidator.java``, which cannot run here) and names each fault by sheet and row;
:func:`read_workbook` refuses a workbook with any error and gives the report
(:func:`risiko.national.report.read_report` checks it again); :func:`write_workbook` writes a
report so that :func:`check_workbook` finds nothing and :func:`read_workbook` gives the same
report back (the round trip the tests prove).

Readings: the club id of a workbook's report is its organiser (RisiKoDataManager's
tournament id is "yyyyMMdd - organizzatore", ``ExcelGSheetsBridge.obtainIdTorneo``) unless
given; a player with neither national id nor birth date is anonymous (``ExcelValidator``'s
warning); one with a birth date but no national id would be given one by RisiKoDataManager's
register: we ask ``resolve`` (name, surname, birth date -> national id) and refuse the row
when it finds none. The Classifica Ridotta's ``pt_tot`` is the format's final points, which a
report does not carry: the writer puts the player's table points summed over his games.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import xlrd
import xlwt

from ..faults import Fault, InvalidInputError, Severity, define, define_words
from .categories import LABELS, Category, parse_category
from .report import Report, read_report

__all__ = ["TURN_SUFFIX", "WorkbookError", "check_workbook", "read_workbook", "write_workbook"]

#: the suffix of a round's sheet (``ExcelAccess.SCHEDA_TURNO_SUFFIX``)
TURN_SUFFIX = "° Turno"
TORNEO, ISCRITTI, RIDOTTA = "TORNEO", "Iscritti", "Classifica Ridotta"
GHOST = -1

NOT_XLS = define("national.workbook_not_xls", "", "not a GestioneTorneo workbook (.xls)")
NO_SHEET = define("national.workbook_no_sheet", "", "sheet {sheet} missing")
EMPTY_CELL = define("national.workbook_empty", "",
                    "sheet {sheet}, row {row}: {cell} not given")
BAD_CELL = define("national.workbook_bad_cell", "",
                  "sheet {sheet}, row {row}, column {column}: {value!r} is not {cell}")
NO_ENTRANTS = define("national.workbook_no_entrants", "", "sheet Iscritti: no player")
DUPLICATE_ID = define("national.workbook_duplicate_id", "",
                      "sheet Iscritti, row {row}: ID {id} again (row {first})")
SAME_PLAYER = define("national.workbook_same_player", "",
                     "sheet Iscritti, row {row}: {name} born {born} again (row {first})")
ANONYMOUS = define("national.workbook_anonymous", "",
                   "sheet Iscritti, row {row}: {name} has neither birth date nor national id: "
                   "anonymous")
UNREGISTERED = define("national.workbook_unregistered", "",
                      "sheet Iscritti, row {row}: {name} born {born} has no national id and "
                      "is not in the register: give his ID NAZIONALE")
DATES_ORDER = define("national.workbook_dates_order", "",
                     "sheet TORNEO: round {round} on {later} is before the previous round on "
                     "{earlier}")
NO_DATE = define("national.workbook_no_date", "",
                 "sheet TORNEO: no date for round {round}")
NO_ROUNDS = define("national.workbook_no_rounds", "",
                   "no round sheet: they are named \"N° Turno\" (N a number)")
ROUND_NAME = define("national.workbook_round_name", "",
                    "sheet {sheet}: the round's number cannot be read")
ROUND_BEYOND = define("national.workbook_round_beyond", "",
                      "sheet {sheet}: the tournament plans {rounds} rounds")
NO_GAMES = define("national.workbook_no_games", "", "sheet {sheet}: no game")
UNKNOWN_ID = define("national.workbook_unknown_id", "",
                    "sheet {sheet}, row {row}: no player with ID {id} in Iscritti")
NO_STANDINGS = define("national.workbook_no_standings", "",
                      "sheet Classifica Ridotta missing: required once the last round is "
                      "played")
EMPTY_STANDINGS = define("national.workbook_empty_standings", "",
                         "sheet Classifica Ridotta: no player")
POSITION_BEYOND = define("national.workbook_position_beyond", "",
                         "sheet Classifica Ridotta, row {row}: position {position}, but "
                         "{count} players")
STANDING_UNKNOWN = define("national.workbook_standing_unknown", "",
                          "sheet Classifica Ridotta, row {row}: ID {id} is not in Iscritti")
STANDING_NO_GAMES = define("national.workbook_standing_no_games", "",
                           "sheet Classifica Ridotta, row {row}: ID {id} played no game")
NOT_IN_STANDINGS = define("national.workbook_not_in_standings", "",
                          "ID {id} played but is not in the standings: disqualified?")
FINAL_ORDER = define("national.workbook_final_order", "",
                     "sheet Classifica Ridotta: ID {id} is {position} in the standings but "
                     "{place} at the final table")


#: what a cell should hold, said in the message's language
define_words("cell", ("organiser", "name", "surname", "a category", "the planned rounds",
                      "a date dd/mm/yyyy", "a number", "a national id", "an ID",
                      "a position", "the final points"))


class WorkbookError(InvalidInputError):
    """A workbook with errors: one fault per bad sheet, row or cell."""


Resolve = Callable[[str, str, date], int | None]


@dataclass
class _Entrant:
    row: int
    id: int
    name: str
    surname: str
    club: str
    born: date | None
    national_id: int | None


@dataclass
class _Book:
    """What :func:`_parse` read (every field None or empty where unreadable)."""

    organiser: str = ""
    name: str = ""
    category: Category | None = None
    rounds: int = 0
    dates: list[date | None] | None = None
    entrants: dict[int, _Entrant] | None = None
    games: dict[int, list[tuple[int, list[tuple[int, float]]]]] | None = None
    standings: list[tuple[int, int, float | None, int]] | None = None  # id, pos, points, row


def _cell(sheet: Any, row: int, col: int) -> tuple[int, Any]:
    if row >= sheet.nrows or col >= sheet.ncols:
        return xlrd.XL_CELL_EMPTY, ""
    cell = sheet.cell(row, col)
    return cell.ctype, cell.value


def _text(sheet: Any, row: int, col: int) -> str:
    kind, value = _cell(sheet, row, col)
    if kind == xlrd.XL_CELL_NUMBER:
        return str(int(value)) if float(value).is_integer() else str(value)
    return " ".join(str(value).split()) if kind == xlrd.XL_CELL_TEXT else ""


def _number(sheet: Any, row: int, col: int) -> float | str | None:
    """The cell's number; None when empty; the text when it is not a number."""
    kind, value = _cell(sheet, row, col)
    if kind in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
        return None
    if kind == xlrd.XL_CELL_NUMBER:
        return float(value)
    if kind == xlrd.XL_CELL_TEXT:
        text = value.strip().replace(",", ".")
        if not text:
            return None
        try:
            return float(text)
        except ValueError:
            return str(value)
    return str(value)


def _date(book: Any, sheet: Any, row: int, col: int) -> date | str | None:
    kind, value = _cell(sheet, row, col)
    if kind in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK) or value == "":
        return None
    if kind in (xlrd.XL_CELL_DATE, xlrd.XL_CELL_NUMBER):
        moment: datetime = xlrd.xldate.xldate_as_datetime(value, book.datemode)
        return moment.date()
    try:
        return datetime.strptime(str(value).strip(), "%d/%m/%Y").date()
    except ValueError:
        return str(value)


def _column(col: int) -> str:
    return chr(ord("A") + col)


def _parse(data: bytes, faults: list[Fault], resolve: Resolve | None) -> _Book:
    """Read every sheet, adding a fault for each bad sheet, row or cell."""
    try:
        book = xlrd.open_workbook(file_contents=data)
    except Exception:  # xlrd raises several kinds for a file that is not .xls
        faults.append(NOT_XLS())
        return _Book()
    out = _Book()
    names = book.sheet_names()
    if TORNEO not in names:
        faults.append(NO_SHEET(sheet=TORNEO))
    else:
        sheet = book.sheet_by_name(TORNEO)
        out.organiser, out.name = _text(sheet, 2, 3), _text(sheet, 3, 3)
        for row, what, value in ((2, "organiser", out.organiser), (3, "name", out.name)):
            if not value:
                faults.append(EMPTY_CELL(sheet=TORNEO, row=row + 1, cell=what))
        label = _text(sheet, 4, 3)
        try:
            out.category = parse_category(label)
        except InvalidInputError:
            faults.append(BAD_CELL(sheet=TORNEO, row=5, column="D", value=label,
                                   cell="a category"))
        rounds = _number(sheet, 5, 3)
        if not isinstance(rounds, float) or rounds < 1:
            faults.append(BAD_CELL(sheet=TORNEO, row=6, column="D", value=rounds,
                                   cell="the planned rounds"))
        else:
            out.rounds = int(rounds)
        out.dates = []
        for row in range(7, 37):
            day = _date(book, sheet, row, 3)
            if isinstance(day, str):
                faults.append(BAD_CELL(sheet=TORNEO, row=row + 1, column="D", value=day,
                                       cell="a date dd/mm/yyyy"))
                day = None
            out.dates.append(day)
        known = [(i + 1, d) for i, d in enumerate(out.dates) if d is not None]
        for (_, earlier), (n, later) in itertools.pairwise(known):
            if later < earlier:
                faults.append(DATES_ORDER(round=n, later=later.isoformat(),
                                          earlier=earlier.isoformat()))
    if ISCRITTI not in names:
        faults.append(NO_SHEET(sheet=ISCRITTI))
    else:
        out.entrants = _entrants(book, book.sheet_by_name(ISCRITTI), faults, resolve)
    out.games = {}
    for name in names:
        if not name.endswith(TURN_SUFFIX):
            continue
        head = name[: -len(TURN_SUFFIX)].strip()
        if not head.isdigit():
            faults.append(ROUND_NAME(sheet=name))
            continue
        number = int(head)
        if out.rounds and number > out.rounds:
            faults.append(ROUND_BEYOND(sheet=name, rounds=out.rounds))
        out.games[number] = _games(book.sheet_by_name(name), name, out.entrants or {},
                                   faults)
        if not out.games[number]:
            faults.append(NO_GAMES(sheet=name))
    if not out.games:
        faults.append(NO_ROUNDS())
    if RIDOTTA in names:
        out.standings = _standings(book.sheet_by_name(RIDOTTA), faults)
    return out


def _entrants(book: Any, sheet: Any, faults: list[Fault], resolve: Resolve | None
              ) -> dict[int, _Entrant]:
    entrants: dict[int, _Entrant] = {}
    seen: dict[tuple[str, str, date | None], int] = {}
    for row in range(3, sheet.nrows):
        raw_id = _number(sheet, row, 0)
        name, surname = _text(sheet, row, 1), _text(sheet, row, 2)
        if raw_id is None or not name:
            continue  # getListaGiocatori: a row needs an ID and a name
        if isinstance(raw_id, str):
            faults.append(BAD_CELL(sheet=ISCRITTI, row=row + 1, column="A", value=raw_id,
                                   cell="a number"))
            continue
        number = int(raw_id)
        if number in entrants:
            faults.append(DUPLICATE_ID(row=row + 1, id=number, first=entrants[number].row))
            continue
        if not surname:
            faults.append(EMPTY_CELL(sheet=ISCRITTI, row=row + 1, cell="surname"))
        born = _date(book, sheet, row, 7)
        if isinstance(born, str):
            faults.append(BAD_CELL(sheet=ISCRITTI, row=row + 1, column="H", value=born,
                                   cell="a date dd/mm/yyyy"))
            born = None
        national = _number(sheet, row, 8)
        if isinstance(national, str):
            faults.append(BAD_CELL(sheet=ISCRITTI, row=row + 1, column="I", value=national,
                                   cell="a national id"))
            national = None
        national_id = int(national) if national is not None and national > 0 else None
        full = f"{name} {surname}"
        if national_id is None and born is not None:
            national_id = resolve(name, surname, born) if resolve else None
            if national_id is None:
                faults.append(UNREGISTERED(row=row + 1, name=full, born=born.isoformat()))
        elif national_id is None:
            faults.append(ANONYMOUS({}, Severity.WARNING, row=row + 1, name=full))
        same = (name.casefold(), surname.casefold(), born)
        if national_id is not None and same in seen:  # ExcelValidator: GiocatoreDTO.uguale
            faults.append(SAME_PLAYER(row=row + 1, name=full, born=born or "-",
                                      first=seen[same]))
        seen.setdefault(same, row + 1)
        entrants[number] = _Entrant(row + 1, number, name, surname, _text(sheet, row, 4),
                                    born, national_id)
    if not entrants:
        faults.append(NO_ENTRANTS())
    return entrants


def _games(sheet: Any, name: str, entrants: dict[int, _Entrant], faults: list[Fault]
           ) -> list[tuple[int, list[tuple[int, float]]]]:
    games: list[tuple[int, list[tuple[int, float]]]] = []
    row = 0
    while row < sheet.nrows:
        head = _text(sheet, row, 0)
        if not head.lower().startswith("tavolo"):
            row += 1
            continue
        seats: list[tuple[int, float]] = []
        seat_row = row + 1
        for triple in range(5):
            raw_id = _number(sheet, seat_row, triple * 3)
            if raw_id is None or raw_id == 0:
                continue
            if isinstance(raw_id, str):
                faults.append(BAD_CELL(sheet=name, row=seat_row + 1,
                                       column=_column(triple * 3), value=raw_id, cell="an ID"))
                continue
            number = int(raw_id)
            if number == GHOST:
                continue
            if number not in entrants:
                faults.append(UNKNOWN_ID(sheet=name, row=seat_row + 1, id=number))
                continue
            points = _number(sheet, seat_row, triple * 3 + 2)
            if isinstance(points, str):
                faults.append(BAD_CELL(sheet=name, row=seat_row + 1,
                                       column=_column(triple * 3 + 2), value=points,
                                       cell="a number"))
                continue
            seats.append((number, points or 0.0))
        if seats:
            games.append((len(games) + 1, seats))
        row += 2
    return games


def _standings(sheet: Any, faults: list[Fault]) -> list[tuple[int, int, float | None, int]]:
    rows: list[tuple[int, int, float | None, int]] = []
    for row in range(1, sheet.nrows):
        position, points, raw_id = (_number(sheet, row, c) for c in (0, 3, 4))
        if position is None and points is None and raw_id is None:
            continue
        bad = False
        for value, col, what in ((position, 0, "a position"), (raw_id, 4, "an ID")):
            if not isinstance(value, float):
                faults.append(EMPTY_CELL(sheet=RIDOTTA, row=row + 1, cell=what)
                              if value is None else
                              BAD_CELL(sheet=RIDOTTA, row=row + 1, column=_column(col),
                                       value=value, cell=what))
                bad = True
        if points is None:
            faults.append(EMPTY_CELL(sheet=RIDOTTA, row=row + 1, cell="the final points"))
        if bad:
            continue
        assert isinstance(position, float) and isinstance(raw_id, float)
        rows.append((int(raw_id), int(position), points if isinstance(points, float) else None,
                     row + 1))
    if not rows:
        faults.append(EMPTY_STANDINGS())
    return rows


def _cross_checks(b: _Book, faults: list[Fault]) -> None:
    """``ExcelValidator.validazioniIncrociate`` and ``validaSchedaClassifica``."""
    games = b.games or {}
    for number in games:
        if number <= b.rounds and b.dates is not None and (
                number > len(b.dates) or b.dates[number - 1] is None):
            faults.append(NO_DATE(round=number))
    last_played = b.rounds > 0 and bool(games.get(b.rounds))
    ranked = b.category not in (Category.SQUADRE, Category.DUE_VS_DUE, Category.AMICHEVOLE)
    if b.standings is None:
        if last_played and ranked:
            faults.append(NO_STANDINGS())
        return
    played = {i for rnd in games.values() for _, seats in rnd for i, _ in seats}
    entrants = b.entrants or {}
    placed = {i for i, *_ in b.standings}
    for number, position, _points, row in b.standings:
        if position > len(b.standings):
            faults.append(POSITION_BEYOND(row=row, position=position, count=len(b.standings)))
        if number not in entrants:
            faults.append(STANDING_UNKNOWN(row=row, id=number))
        elif number not in played:
            faults.append(STANDING_NO_GAMES(row=row, id=number))
    for number in sorted(played - placed):
        faults.append(NOT_IN_STANDINGS({}, Severity.WARNING, id=number))
    final = games.get(b.rounds, [])
    if last_played and ranked and len(final) == 1:  # checkPossibileFinale
        seats = final[0][1]
        positions = {i: p for i, p, *_ in b.standings}
        for number, points in seats:
            place = 1 + sum(1 for _, other in seats if other > points)
            if number in positions and positions[number] != place:
                faults.append(FINAL_ORDER(id=number, position=positions[number], place=place))


def check_workbook(data: bytes, resolve: Resolve | None = None) -> list[Fault]:
    """Every error and warning of a workbook (``severity``), as GestioneTorneo's
    ``ExcelValidator`` finds them, each naming its sheet and row."""
    faults: list[Fault] = []
    book = _parse(data, faults, resolve)
    if book.entrants is not None or book.games:
        _cross_checks(book, faults)
    return faults


def read_workbook(data: bytes, *, source: str = "", club_id: str | None = None,
                  resolve: Resolve | None = None) -> Report:
    """The report of a GestioneTorneo workbook; raises :class:`WorkbookError` naming every
    bad sheet, row or cell (warnings do not refuse it), or
    :class:`~risiko.national.report.ReportError` for what the report's checks refuse."""
    faults: list[Fault] = []
    b = _parse(data, faults, resolve)
    _cross_checks(b, faults)
    errors = [f for f in faults if f.is_error]
    if errors:
        raise WorkbookError(errors)
    assert b.category is not None and b.dates is not None and b.entrants is not None
    games = b.games or {}
    played = {i for rnd in games.values() for _, seats in rnd for i, _ in seats}
    report: dict[str, Any] = {
        "format": "risiko-report/1",
        "club": {"id": club_id or b.organiser, "name": b.organiser},
        "tournament": {"name": b.name, "category": b.category.value, "rounds": b.rounds,
                       "dates": [d.isoformat() if d else None for d in b.dates[:b.rounds]],
                       "finished": bool(games.get(b.rounds))},
        "players": [
            {"key": str(e.id), "national_id": e.national_id, "name": e.name,
             "surname": e.surname, "birth_date": e.born.isoformat() if e.born else None,
             **({"club": e.club} if e.club else {})}
            for e in b.entrants.values() if e.id in played],
        "games": [],
        "standings": [{"player": str(i), "position": p} for i, p, *_ in b.standings or []],
    }
    for number in sorted(games):
        for table, seats in games[number]:
            top = max(p for _, p in seats)
            report["games"].append({
                "round": number, "table": table,
                "seats": [{"player": str(i), "points": int(p) if p.is_integer() else p}
                          for i, p in seats],
                "winners": [str(i) for i, p in seats if p == top]})
    return read_report(report)


def write_workbook(report: Report) -> bytes:
    """``report`` as a GestioneTorneo workbook (.xls bytes): the sheets TORNEO, Iscritti,
    Dati, one ``N° Turno`` per round played and Classifica Ridotta (when it has standings),
    with ModuloTorneo.xls's columns."""
    book = xlwt.Workbook(encoding="utf-8")
    day = xlwt.easyxf(num_format_str="dd/mm/yyyy")
    t = book.add_sheet(TORNEO)
    t.write(0, 2, "SCHEDA DATI TORNEO")
    for row, label, value in (
            (1, "Sede Torneo", report.club_name), (2, "Organizzatore", report.club_name),
            (3, "Nome Torneo", report.name), (4, "Tipologia di Torneo",
                                              LABELS[report.category]),
            (5, "Numero Turni Previsti", report.rounds), (6, "Note", "")):
        t.write(row, 2, label)
        t.write(row, 3, value)
    for i in range(30):
        t.write(7 + i, 1, i + 1)
        if i < len(report.dates):
            t.write(7 + i, 3, report.dates[i], day)
    ids = {p.key: n for n, p in enumerate(report.players, start=1)}
    s = book.add_sheet(ISCRITTI)
    s.write(0, 0, "Elenco Partecipanti")
    for col, head in enumerate(("ID", "Nome", "Cognome", "Nickname", "Club",
                                "Partecipa Torneo", "Regione", "Data di Nascita (gg/mm/aaaa)",
                                "ID NAZIONALE")):
        s.write(2, col, head)
    for p in report.players:
        row = 2 + ids[p.key]
        for col, value in ((0, ids[p.key]), (1, p.name), (2, p.surname),
                           (4, p.club or report.club_name), (5, "SI")):
            s.write(row, col, value)
        if p.birth_date:
            s.write(row, 7, p.birth_date, day)
        if p.national_id is not None:
            s.write(row, 8, p.national_id)
    d = book.add_sheet("Dati")
    d.write(0, 2, "TipoTorneo")
    for i, category in enumerate(Category, start=1):
        d.write(i, 2, LABELS[category])
    names = {p.key: p.full_name for p in report.players}
    for number in sorted({g.round for g in report.games}):
        sheet = book.add_sheet(f"{number}{TURN_SUFFIX}")
        for i, game in enumerate(sorted((g for g in report.games if g.round == number),
                                        key=lambda g: g.table)):
            sheet.write(2 * i, 0, f"Tavolo N°{i + 1}")
            for j, (key, points) in enumerate(game.seats):
                sheet.write(2 * i + 1, 3 * j, ids[key])
                sheet.write(2 * i + 1, 3 * j + 1, names[key])
                sheet.write(2 * i + 1, 3 * j + 2, points)
    if report.standings:
        totals: dict[str, float] = {}
        for game in report.games:
            for key, points in game.seats:
                totals[key] = totals.get(key, 0) + points
        c = book.add_sheet(RIDOTTA)
        for col, head in enumerate(("Pos.", "Nome", "Cognome", "pt_tot", "id")):
            c.write(0, col, head)
        by_key = {p.key: p for p in report.players}
        for row, (key, position) in enumerate(report.standings, start=1):
            cells: tuple[object, ...] = (position, by_key[key].name, by_key[key].surname,
                                         totals.get(key, 0), ids[key])
            for col, cell in enumerate(cells):
                c.write(row, col, cell)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
