"""Reads that span the apps: the database rows of a tournament as the pure domain objects of
:mod:`risiko.tournament`, and what is computed from them (standings, stages). Each app's own
reads are in its ``selectors`` module (``results.selectors.current_result``, ...).

Everything is recomputed from the recorded facts: rows marked ``superseded`` or ``voided`` are
kept in the database for the audit trail but are not facts any more.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast

from risiko.faults import Fault
from risiko.sheet import Sheet, SheetError, parse_sheet
from risiko.tournament import model as dm
from risiko.tournament.dates import evening_date_fault, parse_clock
from risiko.tournament.format import TournamentFormat, get_format
from risiko.tournament.schedule import Schedule
from risiko.tournament.standings import Standings, compute_standings

from .evenings.models import Arrival, Evening
from .evenings.selectors import schedule_of
from .results.models import Appeal, Discipline, GameTable, Penalty, Seat, TableResult
from .results.selectors import current_appeal, current_result
from .tournaments.models import CarryOver, Draw, Tournament

__all__ = [
    "clear_sheet_cache",
    "current_appeal",
    "current_result",
    "faults_of",
    "load_tournament",
    "schedule_of",
    "season_report_of",
    "standings",
    "unreadable_facts",
]

log = logging.getLogger("risiko.web")


class UnreadableFacts(list[str]):
    """The stored facts :func:`load_tournament` could not read (one line each, naming the
    fact): left out of the tournament, shown to referees (console) instead of a 500."""


_unreadable: dict[int, UnreadableFacts] = {}
_unreadable_lock = threading.Lock()


def unreadable_facts(t: Tournament) -> list[str]:
    """What the last :func:`load_tournament` of ``t`` in this process could not read."""
    load_tournament(t)
    return last_unreadable(t)


def last_unreadable(t: Tournament) -> list[str]:
    """What the last :func:`load_tournament` of ``t`` in this process could not read,
    without loading it again (the public pages' snapshot keeps it beside the facts)."""
    with _unreadable_lock:
        return list(_unreadable.get(t.pk, ()))


def load_tournament(t: Tournament, *, facts_of: int | None = None) -> dm.Tournament:
    """The domain :class:`risiko.tournament.model.Tournament` of a database tournament: the
    current facts (not superseded or voided: ``current()``), in 11 queries whatever the size
    of the tournament (tests/web/oracle_loader.py is the row-by-row reading it is checked
    against).

    ``facts_of`` (an evening's id): the tables, results, seats, arrivals and penalties of
    that evening only; every evening is there with its date, stage, schedule and
    disciplinary records (R10 reaches later evenings), the players, carry-over and draws
    too - what a write needs to check the evening it changed (a qualifying evening's checks
    read nothing else), without reading the whole season inside the write.

    A stored fact that cannot be read (a time that is not a time, a sheet that no longer
    parses, a score that is not a number) does not stop the others: it is left out, logged,
    and listed by :func:`unreadable_facts` for the referees (from a whole load only)."""
    bad = UnreadableFacts()
    try:
        return _load(t, bad, facts_of)
    finally:
        if bad:
            log.warning("tournament %s: unreadable stored facts: %s", t.name, "; ".join(bad))
        if facts_of is None:
            with _unreadable_lock:
                if bad:
                    _unreadable[t.pk] = bad
                else:
                    _unreadable.pop(t.pk, None)


def _read(bad: list[str], what: str, make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)``, or None (and a line naming ``what`` in ``bad``) when the fact is
    bad."""
    try:
        return make(*args)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as err:
        bad.append(f"{what}: {str(err)[:200]}")
        return None


def _load(t: Tournament, bad: list[str], facts_of: int | None = None) -> dm.Tournament:
    players = tuple(
        dm.Player(name, accepted or None, accepted_on)
        for name, accepted, accepted_on in t.entries.order_by("order", "id").values_list(
            "player__name", "player__accepted_ruleset", "player__accepted_on"
        )
    )
    fmt = (_read(bad, f"tournament {t.name}: format", TournamentFormat.from_dict, t.format)
           if t.format else None) or get_format(None)
    head = dm.Tournament(name=t.name, players=players, ruleset_name=t.ruleset_name,
                         ruleset_version=t.ruleset_version, format=fmt)
    ruleset = head.ruleset
    evening_rows = []
    for row in Evening.objects.filter(tournament=t).order_by("date"):
        out_of_range = evening_date_fault(row.date)
        if out_of_range is None:
            evening_rows.append(row)
        else:  # stored before dates were checked: left out, named, never a 500
            bad.append(f"evening {row.date}: {out_of_range.message('en')}")
    every_id = [e.pk for e in evening_rows]
    ev_ids = every_id if facts_of is None else [i for i in every_id if i == facts_of]
    dates = {e.pk: e.date for e in evening_rows}

    appeals: dict[int, dm.Appeal] = {}
    for a in Appeal.objects.current().filter(
        penalty__evening_id__in=ev_ids, penalty__voided=False
    ).order_by("id"):
        appeal = _read(bad, f"appeal {a.pk} (penalty {a.penalty_id})", _appeal, a)
        if appeal is not None:
            appeals[a.penalty_id] = appeal
    by_table: dict[int, list[dm.Penalty]] = defaultdict(list)
    by_evening: dict[int, list[dm.Penalty]] = defaultdict(list)
    for pid, ev_id, table_id, unit, name, points, reason, referee, at in (
        Penalty.objects.current().filter(evening_id__in=ev_ids).order_by("id").values_list(
            "id", "evening_id", "table_id", "unit", "player__name", "points", "reason",
            "referee", "at")
    ):
        pen = _read(bad, f"evening {dates[ev_id]}: penalty {pid} of {name} (at {at!r})",
                    _penalty, name, points, reason, referee, at, appeals.get(pid))
        if pen is None:
            continue
        if unit == "table" and table_id is not None:
            by_table[table_id].append(pen)
        else:
            by_evening[ev_id].append(pen)

    arrivals: dict[int, list[dm.Arrival]] = defaultdict(list)
    for aid, ev_id, name, at, phoned, phoned_at in (
        Arrival.objects.current().filter(evening_id__in=ev_ids).order_by("id")
        .values_list("id", "evening_id", "player__name", "at", "phoned", "phoned_at")
    ):
        arrival = _read(bad, f"evening {dates[ev_id]}: arrival {aid} of {name} ({at!r})",
                        _arrival, name, at, phoned, phoned_at)
        if arrival is not None:
            arrivals[ev_id].append(arrival)

    seats: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        Seat.objects.current().filter(evening_id__in=ev_ids).order_by("table_id", "position")
        .values_list("table_id", "player__name")
    ):
        seats[table_id].append(name)
    results: dict[int, tuple[Any, ...]] = {}
    for table_id, *result in TableResult.objects.current().filter(
        table__evening_id__in=ev_ids
    ).order_by("id").annotate(sheet_text=Cast("sheet", TextField())).values_list(
        "table_id", "sheet_text", "scores", "risiko", "abandoned", "winners", "eliminated"
    ):
        results[table_id] = tuple(result)  # one current result
    tables: dict[int, list[dm.Table]] = defaultdict(list)
    for table_id, ev_id, number, date in (
        GameTable.objects.filter(evening_id__in=ev_ids).order_by("evening_id", "number")
        .values_list("id", "evening_id", "number", "evening__date")
    ):
        table = _read(bad, f"evening {date}: table {number}: result", _table, table_id,
                      seats[table_id], results.get(table_id), by_table[table_id],
                      f"{date} table {number}")
        if table is None:  # its seats and penalties, without the result that cannot be read
            table = dm.Table(seats=tuple(seats[table_id]),
                             penalties=tuple(by_table[table_id]))
        tables[ev_id].append(table)

    discipline: dict[int, list[dm.Discipline]] = defaultdict(list)
    for d in Discipline.objects.current().filter(evening_id__in=every_id).order_by(
        "id"
    ).select_related("player"):
        record = _read(bad, f"evening {dates[d.evening_id]}: disciplinary record {d.pk} of "
                       f"{d.player.name}", _discipline, d)
        if record is not None:
            discipline[d.evening_id].append(record)

    def evening(e: Evening) -> dm.Evening:
        schedule = _read(bad, f"evening {e.date}: schedule", schedule_of, e, ruleset)
        return dm.Evening(
            date=e.date,
            stage=e.stage,  # type: ignore[arg-type]
            schedule=schedule or Schedule.from_ruleset(
                ruleset, e.stage),  # type: ignore[arg-type]
            arrivals=tuple(arrivals[e.pk]),
            tables=tuple(tables[e.pk]),
            penalties=tuple(by_evening[e.pk]),
            discipline=tuple(discipline[e.pk]),
        )

    evenings = tuple(evening(e) for e in evening_rows)
    carry = tuple(
        dm.CarryOver(name, points, referee, note)
        for name, points, referee, note in CarryOver.objects.current().filter(
            tournament=t
        ).order_by("id").values_list("player__name", "points", "referee", "note")
    )
    draws = tuple(
        dm.Draw(stage, tuple(order), referee, note)  # type: ignore[arg-type]
        for stage, order, referee, note in Draw.objects.current().filter(
            tournament=t
        ).order_by("id").values_list("stage", "order", "referee", "note")
        if isinstance(order, list)
    )
    return replace(head, carry_over=carry, evenings=evenings, draws=draws)


def _appeal(a: Appeal) -> dm.Appeal:
    if a.outcome not in dm.APPEAL_OUTCOMES:
        raise ValueError(f"unknown outcome {a.outcome!r}")
    return dm.Appeal(a.outcome, a.points, a.referee, a.reason)


def _penalty(name: str, points: int, reason: str, referee: str, at: str,
             appeal: dm.Appeal | None) -> dm.Penalty:
    return dm.Penalty(player=name, points=points, reason=reason, referee=referee,
                      at=_clock(at) if at else None, appeal=appeal)


def _arrival(name: str, at: str, phoned: bool, phoned_at: str) -> dm.Arrival:
    return dm.Arrival(name, _clock(at), phoned, _clock(phoned_at) if phoned_at else None)


def _discipline(d: Discipline) -> dm.Discipline:
    if d.level not in dm.DISCIPLINE_LEVELS:
        raise ValueError(f"unknown level {d.level!r}")
    return dm.Discipline(d.player.name, d.level, d.reason, d.referee, d.table_number)


@lru_cache(maxsize=2048)
def _clock(text: str) -> int:
    return parse_clock(text, evening=False)  # stored HH:MM, as it was entered


def _table(table_id: int, seats: list[str], res: tuple[Any, ...] | None,
           penalties: list[dm.Penalty], where: str) -> dm.Table:
    sheet = None
    scores = None
    risiko: frozenset[str] = frozenset()
    abandoned: frozenset[str] = frozenset()
    winners: frozenset[str] = frozenset()
    eliminated: tuple[str, ...] = ()
    if res is not None:
        sheet_text, res_scores, res_risiko, res_abandoned, res_winners, res_out = res
        if sheet_text is not None and sheet_text != "null":
            sheet = _parse_sheet(sheet_text, where)
        elif res_scores is not None:
            scores = dm.scores_in_seat_order(
                seats, ((str(k), int(v)) for k, v in res_scores.items())
            )
            risiko = frozenset(res_risiko or ())
        abandoned = frozenset(res_abandoned or ())
        winners = frozenset(str(p) for p in res_winners or ())  # named winners
        eliminated = tuple(str(p) for p in res_out or ())  # and the order of elimination
    return dm.Table(seats=tuple(seats), sheet=sheet, scores=scores, risiko=risiko,
                    abandoned=abandoned, penalties=tuple(penalties), winners=winners,
                    eliminated=eliminated)


_SHEETS: OrderedDict[str, Sheet] = OrderedDict()
_SHEETS_SIZE = 8192
_sheets_lock = threading.Lock()


def _parse_sheet(text: str, where: str) -> Sheet:
    """``parse_sheet`` of a stored sheet (its JSON text as the database gives it),
    remembered by that text: a stored sheet never changes (a correction is a new result)
    and the same text always gives the same sheet."""
    with _sheets_lock:
        found = _SHEETS.get(text)
        if found is not None:
            _SHEETS.move_to_end(text)
            return found
    try:
        sheet = parse_sheet(json.loads(text))
    except SheetError as err:
        raise ValueError(f"{where}: stored sheet is invalid: {err}") from err
    with _sheets_lock:
        _SHEETS[text] = sheet
        while len(_SHEETS) > _SHEETS_SIZE:
            _SHEETS.popitem(last=False)
    return sheet


def clear_sheet_cache() -> None:
    """Forget the parsed stored sheets (tests)."""
    with _sheets_lock:
        _SHEETS.clear()


def standings(t: Tournament) -> Standings:
    """The general ranking of a database tournament (recomputed from the facts)."""
    return compute_standings(load_tournament(t))


def season_report_of(t: Tournament) -> dict[str, Any]:
    """The computed season of a database tournament: the same dict as ``risiko season
    --json`` gives for its exported season file (standings, semifinal tables, after the
    semifinal, finalists, final winner and standings, pending, evenings)."""
    from risiko.tournament.season import season_report

    return season_report(load_tournament(t))


def faults_of(t: Tournament) -> list[Fault]:
    """What in the recorded facts contradicts the regulation (fault values)."""
    from risiko.tournament.checks import tournament_faults

    return tournament_faults(load_tournament(t))
