"""A straightforward, row-by-row reading of a database tournament into the domain (a few
queries per table): the oracle the fast loader of :mod:`risiko.web.selectors` is checked
against. Kept in the tests only."""

from __future__ import annotations

from collections import defaultdict

from risiko.sheet import SheetError, parse_sheet
from risiko.tournament import model as dm
from risiko.tournament.dates import parse_clock
from risiko.tournament.format import TournamentFormat, get_format
from risiko.web.results.models import Appeal, Discipline, Penalty
from risiko.web.selectors import current_result, schedule_of
from risiko.web.tournaments.models import CarryOver, Draw, Tournament


def _appeal(row: Appeal | None) -> dm.Appeal | None:
    if row is None:
        return None
    outcome: dm.AppealOutcome = row.outcome  # type: ignore[assignment]
    return dm.Appeal(outcome, row.points, row.referee, row.reason)


def _penalty(row: Penalty, appeals: dict[int, Appeal]) -> dm.Penalty:
    return dm.Penalty(
        player=row.player.name,
        points=row.points,
        reason=row.reason,
        referee=row.referee,
        at=parse_clock(row.at) if row.at else None,
        appeal=_appeal(appeals.get(row.pk)),
    )


def load_tournament_row_by_row(t: Tournament) -> dm.Tournament:
    """The domain :class:`risiko.tournament.model.Tournament` of a database tournament.

    Raises ValueError if a stored sheet no longer parses (it was validated when entered).
    """
    players = tuple(
        dm.Player(
            e.player.name,
            e.player.accepted_ruleset or None,
            e.player.accepted_on,
        )
        for e in t.entries.select_related("player").order_by("order", "id")
    )
    fmt = TournamentFormat.from_dict(t.format) if t.format else get_format(None)
    domain = dm.Tournament(
        name=t.name,
        players=players,
        ruleset_name=t.ruleset_name,
        ruleset_version=t.ruleset_version,
        format=fmt,
    )
    ruleset = domain.ruleset
    evenings_rows = list(t.evenings.order_by("date"))
    ev_ids = [e.pk for e in evenings_rows]
    penalties = list(
        Penalty.objects.filter(evening_id__in=ev_ids, voided=False)
        .select_related("player", "table")
        .order_by("id")
    )
    appeals: dict[int, Appeal] = {}
    for a in Appeal.objects.filter(penalty__in=penalties, superseded=False).order_by("id"):
        appeals[a.penalty_id] = a
    pens_by_table: dict[int, list[dm.Penalty]] = defaultdict(list)
    pens_by_evening: dict[int, list[dm.Penalty]] = defaultdict(list)
    for p in penalties:
        if p.unit == "table" and p.table_id is not None:
            pens_by_table[p.table_id].append(_penalty(p, appeals))
        else:
            pens_by_evening[p.evening_id].append(_penalty(p, appeals))
    evenings: list[dm.Evening] = []
    for e in evenings_rows:
        arrivals = tuple(
            dm.Arrival(
                a.player.name,
                parse_clock(a.at),
                a.phoned,
                parse_clock(a.phoned_at) if a.phoned_at else None,
            )
            for a in e.arrivals.filter(superseded=False).select_related("player").order_by("id")
        )
        tables: list[dm.Table] = []
        for table in e.tables.order_by("number").prefetch_related("seats__player"):
            seats = tuple(s.player.name for s in table.seats.current().order_by("position"))
            res = current_result(table)
            sheet = None
            scores = None
            risiko: frozenset[str] = frozenset()
            abandoned: frozenset[str] = frozenset()
            if res is not None:
                if res.sheet is not None:
                    try:
                        sheet = parse_sheet(res.sheet)
                    except SheetError as err:
                        raise ValueError(
                            f"{e.date} table {table.number}: stored sheet is invalid: {err}"
                        ) from err
                elif res.scores is not None:
                    scores = dm.scores_in_seat_order(
                        seats, ((str(k), int(v)) for k, v in res.scores.items())
                    )
                    risiko = frozenset(res.risiko or ())
                abandoned = frozenset(res.abandoned or ())
            tables.append(
                dm.Table(
                    seats=seats,
                    sheet=sheet,
                    scores=scores,
                    risiko=risiko,
                    abandoned=abandoned,
                    penalties=tuple(pens_by_table.get(table.pk, ())),
                )
            )
        discipline = tuple(
            dm.Discipline(
                d.player.name,
                d.level,  # type: ignore[arg-type]
                d.reason,
                d.referee,
                d.table_number,
            )
            for d in Discipline.objects.filter(evening=e, voided=False)
            .select_related("player")
            .order_by("id")
        )
        evenings.append(
            dm.Evening(
                date=e.date,
                stage=e.stage,  # type: ignore[arg-type]
                schedule=schedule_of(e, ruleset),
                arrivals=arrivals,
                tables=tuple(tables),
                penalties=tuple(pens_by_evening.get(e.pk, ())),
                discipline=discipline,
            )
        )
    carry = tuple(
        dm.CarryOver(c.player.name, c.points, c.referee, c.note)
        for c in CarryOver.objects.filter(tournament=t, superseded=False)
        .select_related("player")
        .order_by("id")
    )
    draws = tuple(
        dm.Draw(d.stage, tuple(d.order), d.referee, d.note)  # type: ignore[arg-type]
        for d in Draw.objects.filter(tournament=t, superseded=False).order_by("id")
    )
    return dm.Tournament(
        name=domain.name,
        players=domain.players,
        ruleset_name=domain.ruleset_name,
        ruleset_version=domain.ruleset_version,
        format=domain.format,
        carry_over=carry,
        evenings=tuple(evenings),
        draws=draws,
    )
