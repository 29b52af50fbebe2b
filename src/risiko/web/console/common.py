"""What the console's views share: who is acting, finding rows or 404, the R3 ruling of
every arrival, the tables of an evening in turn order, a table's computed result."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse

from risiko.sheet import SheetError, TableScore, parse_sheet, score_sheet
from risiko.tournament import model as dm
from risiko.tournament.dates import parse_clock
from risiko.tournament.schedule import ArrivalRuling, classify
from risiko.web.collation import display_key
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.evenings.selectors import schedule_of
from risiko.web.results.models import GameTable, Seat, TableResult
from risiko.web.results.selectors import seated
from risiko.web.tournaments.models import Tournament


def refused(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A posted form sent back with its errors: status 400 (nothing was written). A GET
    (the same page, first shown) stays 200."""
    if request.method == "POST":
        response.status_code = 400
    return response


def who(request: HttpRequest) -> str:
    """The username recorded in the audit log."""
    return str(request.user.get_username())


def referee_name(request: HttpRequest) -> str:
    """The default referee name of forms: the user's full name, else the username."""
    user: Any = request.user
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return str(full or user.get_username())


def next_free_date(t: Tournament, start: _dt.date, *, after_last: bool = False) -> _dt.date:
    """The first date from ``start`` on with no evening of ``t`` (the date a form proposes);
    ``after_last``: also after ``t``'s latest evening (a semifinal or final follows the
    qualifying evenings).

    >>> import datetime as dt
    >>> class T:  # a tournament with evenings on 2 and 9 March
    ...     class evenings:
    ...         @staticmethod
    ...         def values_list(*a, **k): return [dt.date(2027, 3, 2), dt.date(2027, 3, 9)]
    >>> next_free_date(T, dt.date(2027, 3, 2)), next_free_date(T, dt.date(2027, 3, 3))
    (datetime.date(2027, 3, 3), datetime.date(2027, 3, 3))
    >>> next_free_date(T, dt.date(2027, 3, 2), after_last=True)
    datetime.date(2027, 3, 10)
    """
    taken = set(t.evenings.values_list("date", flat=True))
    day = start
    try:
        if after_last and taken:
            day = max(day, max(taken) + _dt.timedelta(days=1))
        while day in taken:
            day += _dt.timedelta(days=1)
    except OverflowError:  # an evening stored on 9999-12-31: no day after it
        return start
    return day


def tournament_or_404(slug: str) -> Tournament:
    """The tournament with ``slug``."""
    t = Tournament.objects.by_slug(slug)
    if t is None:
        raise Http404
    return t


def evening_or_404(t: Tournament, date: str) -> Evening:
    """The evening of ``t`` on ``date`` (``YYYY-MM-DD``)."""
    try:
        day = _dt.date.fromisoformat(date)
    except ValueError:
        raise Http404 from None
    e = t.evenings.filter(date=day).first()
    if e is None:
        raise Http404
    return e


def table_or_404(evening: Evening, number: int) -> GameTable:
    """Table ``number`` of ``evening``."""
    table = evening.tables.filter(number=number).first()
    if table is None:
        raise Http404
    return table


def player_names(t: Tournament) -> list[str]:
    """The tournament's players, by name (Italian order: Èrica between Dario and Franco)."""
    return sorted(t.entries.values_list("player__name", flat=True), key=display_key)


@dataclass(frozen=True)
class ArrivalInfo:
    """A recorded arrival (the row that counts) and how R3 classifies it."""

    row: Arrival
    ruling: ArrivalRuling


def ruling_of(evening: Evening, row: Arrival) -> ArrivalRuling | None:
    """R3 on one recorded arrival (the evening's schedule); None when the stored time cannot
    be read (the tournament's page names it)."""
    schedule = schedule_of(evening, evening.tournament.ruleset)
    try:
        return classify(schedule, dm.Arrival(
            row.player.name, parse_clock(row.at, evening=False), row.phoned,
            parse_clock(row.phoned_at, evening=False) if row.phoned_at else None,
        ))
    except ValueError:
        return None


def arrivals_of(evening: Evening) -> dict[str, ArrivalInfo]:
    """Player name -> the arrival that counts (not superseded) and its R3 ruling (an
    arrival whose stored time cannot be read is left out: the tournament's page names it)."""
    out: dict[str, ArrivalInfo] = {}
    rows = evening.arrivals.current().select_related("player").order_by("id")
    for row in rows:
        ruling = ruling_of(evening, row)
        if ruling is not None:
            out[row.player.name] = ArrivalInfo(row, ruling)
    return out


@dataclass
class TableInfo:
    """A table with its seats in turn order and whether it has a result."""

    table: GameTable
    seats: list[str]
    result: TableResult | None

    @property
    def number(self) -> int:
        return int(self.table.number)


def tables_of(evening: Evening) -> list[TableInfo]:
    """The evening's tables in number order, seats in turn order."""
    out = []
    by_table: dict[int, list[str]] = {}
    for table_id, name in (Seat.objects.current().filter(evening=evening)
                           .order_by("table_id", "position")
                           .values_list("table_id", "player__name")):
        by_table.setdefault(table_id, []).append(name)
    results = {r.table_id: r for r in TableResult.objects.current()
               .filter(table__evening=evening)}
    for table in evening.tables.order_by("number"):
        out.append(TableInfo(table, by_table.get(table.pk, []), results.get(table.pk)))
    return out


def seated_names(evening: Evening) -> list[str]:
    """Every player seated at the evening, in table and turn order."""
    return [name for info in tables_of(evening) for name in info.seats]


@dataclass(frozen=True)
class ResultView:
    """A stored result made readable: per seat the base score, the table penalties, the
    table score, RisiKo! and left-the-game; for a sheet also the sheet's own breakdown."""

    row: TableResult
    kind: str  # "sheet" | "scores"
    seats: list[dm.SeatResult]
    sheet_score: TableScore | None
    problem: str = ""


def read_result(table: GameTable, row: TableResult, penalties: tuple[dm.Penalty, ...] = ()
                ) -> ResultView:
    """The computed scores of ``row`` (current or superseded) at ``table``."""
    t = table.evening.tournament
    rs = t.ruleset
    seats = tuple(seated(table))
    sheet = None
    sheet_score = None
    problem = ""
    if row.sheet is not None:
        try:
            sheet = parse_sheet(row.sheet)
            sheet_score = score_sheet(sheet, rs)
        except SheetError as e:  # stored sheets were checked when entered
            problem = str(e)
    domain = dm.Table(
        seats=seats,
        sheet=sheet,
        scores=(tuple((str(k), int(v)) for k, v in row.scores.items())
                if row.scores is not None else None),
        risiko=frozenset(row.risiko or ()) if row.scores is not None else frozenset(),
        abandoned=frozenset(row.abandoned or ()),
        penalties=penalties,
    )
    return ResultView(row, "sheet" if row.sheet is not None else "scores",
                      list(domain.results(rs)), sheet_score, problem)


def table_penalties(table: GameTable) -> tuple[dm.Penalty, ...]:
    """The table's penalties that count (not voided; appeals applied), as domain facts."""
    from risiko.web.results.selectors import current_appeal

    out = []
    for p in table.penalties.current().select_related("player").order_by("id"):
        appeal = current_appeal(p)
        out.append(dm.Penalty(
            player=p.player.name, points=p.points, reason=p.reason, referee=p.referee,
            appeal=(dm.Appeal(appeal.outcome, appeal.points, appeal.referee,  # type: ignore[arg-type]
                              appeal.reason) if appeal is not None else None),
        ))
    return tuple(out)
