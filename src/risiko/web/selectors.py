"""Reads: the database rows of a tournament as the pure domain objects of
:mod:`risiko.tournament`, and what is computed from them (standings, stages).

Everything is recomputed from the recorded facts: rows marked ``superseded`` or ``voided`` are
kept in the database for the audit trail but are not facts any more.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, defaultdict
from dataclasses import replace
from functools import lru_cache
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast

from risiko.faults import Fault
from risiko.sheet import Sheet, SheetError, parse_sheet
from risiko.tournament import model as dm
from risiko.tournament.standings import Standings, compute_standings

from .evenings.models import Arrival, Evening
from .results.models import Appeal, Discipline, GameTable, Penalty, Seat, TableResult
from .tournaments.models import CarryOver, Draw, Tournament


def current_result(table: GameTable) -> TableResult | None:
    """The result that counts for ``table`` (the latest not superseded), or None."""
    return table.results.filter(superseded=False).order_by("-id").first()


def current_appeal(penalty: Penalty) -> Appeal | None:
    """The appeal decision that counts for ``penalty``, or None."""
    return penalty.appeals.filter(superseded=False).order_by("-id").first()


def schedule_of(evening: Evening, ruleset: Any) -> dm.Schedule:
    """The evening's schedule: the ruleset's for its stage, with the evening's own times."""
    base = dm.Schedule.from_ruleset(ruleset, evening.stage)  # type: ignore[arg-type]
    return base.with_times(evening.schedule) if evening.schedule else base


def load_tournament(t: Tournament) -> dm.Tournament:
    """The domain :class:`risiko.tournament.model.Tournament` of a database tournament: the
    facts not superseded or voided, the latest result and appeal decision, in 11 queries
    whatever the size of the tournament (tests/web/oracle_loader.py is the row-by-row
    reading it is checked against).

    Raises ValueError if a stored sheet no longer parses."""
    players = tuple(
        dm.Player(name, accepted or None, accepted_on)
        for name, accepted, accepted_on in t.entries.order_by("order", "id").values_list(
            "player__name", "player__accepted_ruleset", "player__accepted_on"
        )
    )
    fmt = dm.TournamentFormat.from_dict(t.format) if t.format else dm.get_format(None)
    head = dm.Tournament(name=t.name, players=players, ruleset_name=t.ruleset_name,
                         ruleset_version=t.ruleset_version, format=fmt)
    ruleset = head.ruleset
    evening_rows = list(Evening.objects.filter(tournament=t).order_by("date"))
    ev_ids = [e.pk for e in evening_rows]

    appeals: dict[int, dm.Appeal] = {}
    for a in Appeal.objects.filter(
        penalty__evening_id__in=ev_ids, penalty__voided=False, superseded=False
    ).order_by("id"):
        appeals[a.penalty_id] = dm.Appeal(
            a.outcome, a.points, a.referee, a.reason  # type: ignore[arg-type]
        )
    by_table: dict[int, list[dm.Penalty]] = defaultdict(list)
    by_evening: dict[int, list[dm.Penalty]] = defaultdict(list)
    for pid, ev_id, table_id, unit, name, points, reason, referee, at in (
        Penalty.objects.filter(evening_id__in=ev_ids, voided=False).order_by("id").values_list(
            "id", "evening_id", "table_id", "unit", "player__name", "points", "reason",
            "referee", "at")
    ):
        pen = dm.Penalty(player=name, points=points, reason=reason, referee=referee,
                         at=_clock(at) if at else None, appeal=appeals.get(pid))
        if unit == "table" and table_id is not None:
            by_table[table_id].append(pen)
        else:
            by_evening[ev_id].append(pen)

    arrivals: dict[int, list[dm.Arrival]] = defaultdict(list)
    for ev_id, name, at, phoned, phoned_at in (
        Arrival.objects.filter(evening_id__in=ev_ids, superseded=False).order_by("id")
        .values_list("evening_id", "player__name", "at", "phoned", "phoned_at")
    ):
        arrivals[ev_id].append(dm.Arrival(
            name, _clock(at), phoned, _clock(phoned_at) if phoned_at else None))

    seats: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        Seat.objects.filter(table__evening_id__in=ev_ids).order_by("table_id", "position")
        .values_list("table_id", "player__name")
    ):
        seats[table_id].append(name)
    results: dict[int, tuple[Any, Any, Any, Any]] = {}
    for table_id, sheet_text, scores, risiko, abandoned in TableResult.objects.filter(
        table__evening_id__in=ev_ids, superseded=False
    ).order_by("id").annotate(sheet_text=Cast("sheet", TextField())).values_list(
        "table_id", "sheet_text", "scores", "risiko", "abandoned"
    ):
        results[table_id] = (sheet_text, scores, risiko, abandoned)  # the latest counts
    tables: dict[int, list[dm.Table]] = defaultdict(list)
    for table_id, ev_id, number, date in (
        GameTable.objects.filter(evening_id__in=ev_ids).order_by("evening_id", "number")
        .values_list("id", "evening_id", "number", "evening__date")
    ):
        tables[ev_id].append(_table(table_id, seats[table_id], results.get(table_id),
                                    by_table[table_id], f"{date} table {number}"))

    discipline: dict[int, list[dm.Discipline]] = defaultdict(list)
    for d in Discipline.objects.filter(evening_id__in=ev_ids, voided=False).order_by(
        "id"
    ).select_related("player"):
        discipline[d.evening_id].append(dm.Discipline(
            d.player.name, d.level, d.reason, d.referee, d.table_number  # type: ignore[arg-type]
        ))

    evenings = tuple(
        dm.Evening(
            date=e.date,
            stage=e.stage,  # type: ignore[arg-type]
            schedule=schedule_of(e, ruleset),
            arrivals=tuple(arrivals[e.pk]),
            tables=tuple(tables[e.pk]),
            penalties=tuple(by_evening[e.pk]),
            discipline=tuple(discipline[e.pk]),
        )
        for e in evening_rows
    )
    carry = tuple(
        dm.CarryOver(name, points, referee, note)
        for name, points, referee, note in CarryOver.objects.filter(
            tournament=t, superseded=False
        ).order_by("id").values_list("player__name", "points", "referee", "note")
    )
    draws = tuple(
        dm.Draw(stage, tuple(order), referee, note)  # type: ignore[arg-type]
        for stage, order, referee, note in Draw.objects.filter(
            tournament=t, superseded=False
        ).order_by("id").values_list("stage", "order", "referee", "note")
    )
    return replace(head, carry_over=carry, evenings=evenings, draws=draws)


@lru_cache(maxsize=2048)
def _clock(text: str) -> int:
    return dm.parse_clock(text, evening=False)  # stored HH:MM, as it was entered


def _table(table_id: int, seats: list[str], res: tuple[Any, Any, Any, Any] | None,
           penalties: list[dm.Penalty], where: str) -> dm.Table:
    sheet = None
    scores = None
    risiko: frozenset[str] = frozenset()
    abandoned: frozenset[str] = frozenset()
    if res is not None:
        sheet_text, res_scores, res_risiko, res_abandoned = res
        if sheet_text is not None and sheet_text != "null":
            sheet = _parse_sheet(sheet_text, where)
        elif res_scores is not None:
            scores = dm.scores_in_seat_order(
                seats, ((str(k), int(v)) for k, v in res_scores.items())
            )
            risiko = frozenset(res_risiko or ())
        abandoned = frozenset(res_abandoned or ())
    return dm.Table(seats=tuple(seats), sheet=sheet, scores=scores, risiko=risiko,
                    abandoned=abandoned, penalties=tuple(penalties))


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
