"""Writes: every change to a tournament goes through these functions.

Each app owns its write services (the HackSoft Django styleguide's layout):
:mod:`risiko.web.tournaments.services` (tournaments, players, carry-over, draws),
:mod:`risiko.web.evenings.services` (evenings, arrivals), :mod:`risiko.web.results.services`
(seating, results, penalties, appeals, discipline), :mod:`risiko.web.players.services`
(merging players), :mod:`risiko.web.tools.services` (closing dice, turn clock); this module
gathers them (``services.enter_scores``, ...) and holds the writes that span apps (a stage
seated from the ranking, a season file imported). Nothing else writes.

Every write:

- runs in one transaction that first takes its tournament's write lock
  (:mod:`risiko.web.core.writes`): two referees saving at once are served one after the
  other, each seeing what the other wrote; the database's constraints (one current row per
  key) are the last line, and a write they refuse is a :class:`ServiceError`, never a 500;
- checks every field it stores (:mod:`risiko.web.core.limits`: text length and NUL, number
  ranges, JSON depth, times of day), so what is stored can always be read;
- adds one :class:`~risiko.web.auditlog.models.AuditEntry` saying who did what (and why, for
  a correction).

Nothing is deleted: a correction adds a row and marks the old one ``superseded``, a fact
entered by mistake is ``voided``. Faults raise :class:`ServiceError`, a
:class:`risiko.faults.RisikoError` whose :class:`~risiko.faults.Fault` values (codes
``service.*``) name the player, table and evening concerned.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from risiko.faults import Fault
from risiko.tournament import model as dm
from risiko.web.auditlog.services import audit
from risiko.web.core import faults as F
from risiko.web.core.faults import ServiceError, as_faults, error_faults
from risiko.web.core.limits import check_json, create
from risiko.web.core.repair import draw_players_key
from risiko.web.core.writes import lock_tournament, write
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.evenings.services import (
    check_evening,
    get_evening,
    open_evening,
    record_arrival,
)
from risiko.web.players.models import Player
from risiko.web.players.services import get_player, merge_players
from risiko.web.results.models import Appeal, Discipline, GameTable, Penalty, TableResult
from risiko.web.results.services import (
    add_discipline,
    add_penalty,
    decide_appeal,
    enter_scores,
    enter_sheet,
    get_table,
    mark_abandoned,
    seat_evening,
    set_tables,
    swap_seats,
    void_penalty,
    write_tables,
)
from risiko.web.selectors import load_tournament
from risiko.web.tournaments.models import Draw, Tournament
from risiko.web.tournaments.services import (
    add_players,
    create_tournament,
    entry_player,
    get_tournament,
    parse_date,
    record_draw,
    set_carry_over,
    set_current,
)

__all__ = [
    "ServiceError",
    "add_discipline",
    "add_penalty",
    "add_players",
    "audit",
    "check_evening",
    "create_tournament",
    "decide_appeal",
    "enter_scores",
    "enter_sheet",
    "entry_player",
    "export_season",
    "get_evening",
    "get_player",
    "get_table",
    "get_tournament",
    "import_season",
    "mark_abandoned",
    "merge_players",
    "open_evening",
    "parse_date",
    "record_arrival",
    "record_draw",
    "seat_evening",
    "seat_stage",
    "set_carry_over",
    "set_current",
    "set_tables",
    "swap_seats",
    "void_penalty",
]


# ------------------------------------------------------------------------------ stages
def _stage_of(reason: Any) -> str:
    if isinstance(reason, Fault):
        return str(reason.subjects.get("stage", ""))
    return str(reason).split(":", 1)[0]


@write
def seat_stage(
    t: Tournament, date: str | _dt.date, stage: str, *, chief_referee: str = "", who: str
) -> Evening:
    """Open the semifinal or final evening on ``date`` and seat it from the ranking (R18:
    semifinal tables 1, 2, 8, 9, 10 and 3..7; final = the finalists in seat-choice order).
    ServiceError with the reasons when the stage cannot be seated yet (results missing, a
    tie straddling a cut without a draw of lots)."""
    from risiko.tournament.finals import compute_stages

    lock_tournament(t.pk)
    if stage not in ("semifinal", "final"):
        raise ServiceError(F.STAGE_KIND(stage=str(stage)[:40]))
    stages = compute_stages(load_tournament(t))
    if stage == "semifinal":
        tables = stages.semifinal_tables
    else:
        tables = (stages.finalists,) if stages.finalists else None
    if not tables:  # why: the pending reasons of that stage (all of them if none is)
        pending = list(stages.pending)
        why = [p for p in pending if _stage_of(p) == stage] or pending
        kind = F.SEMIFINAL_NOT_READY if stage == "semifinal" else F.FINAL_NOT_READY
        raise ServiceError(kind(tournament=t.name),
                           *(as_faults(why) if why else [F.NOT_ENOUGH_RESULTS()]))
    evening = open_evening(t, date, stage=stage, chief_referee=chief_referee, who=who)
    set_tables(evening, [list(x) for x in tables], who=who)
    return evening


# ------------------------------------------------------------------------------ season files
def export_season(t: Tournament) -> dict[str, Any]:
    """The season file of a database tournament (``risiko season`` reads it)."""
    from risiko.tournament.season import dump_season

    return dump_season(load_tournament(t))


@write
def import_season(data: Any, *, who: str, name: str | None = None) -> Tournament:
    """Create a tournament with every fact of a season file (validated first: its faults
    become one ServiceError, nothing is written)."""
    from risiko.tournament.season import SeasonError, parse_season

    check_json("season", data)
    try:
        domain = parse_season(data)
    except SeasonError as err:
        raise ServiceError(*error_faults(err)) from None
    except (ValueError, TypeError) as err:
        raise ServiceError(*error_faults(err)) from None
    t = create_tournament(
        name or domain.name,
        ruleset=f"{domain.ruleset_name}@{domain.ruleset_version}",
        format=domain.format.to_dict(),
        who=who,
    )
    add_players(t, domain.player_names, who=who)
    for member in domain.players:
        if member.accepted_ruleset or member.accepted_on:
            Player.objects.filter(entries__tournament=t, name=member.name).update(
                accepted_ruleset=member.accepted_ruleset or "", accepted_on=member.accepted_on
            )
    for c in domain.carry_over:
        set_carry_over(t, c.player, c.points, referee=c.referee, note=c.note, who=who)
    rs = domain.ruleset
    for e in domain.evenings:
        default = dm.Schedule.from_ruleset(rs, e.stage).to_dict()
        own = {k: v for k, v in e.schedule.to_dict().items() if default.get(k) != v}
        ev = create(Evening, tournament=t, date=e.date, stage=e.stage, schedule=own)
        audit(who, "open evening", t, ev, f"{e.date} ({e.stage}) from a season file")
        for a in e.arrivals:
            create(Arrival, evening=ev, player=entry_player(t, a.player),
                   at=dm.clock_name(a.at), phoned=a.phoned,
                   phoned_at=dm.clock_name(a.phoned_at) if a.phoned_at is not None else "",
                   recorded_by=who)
        tables = write_tables(ev, [list(tb.seats) for tb in e.tables])
        for table, tb in zip(tables, e.tables, strict=True):
            if tb.sheet is not None:
                create(TableResult, table=table, sheet=tb.sheet.to_dict(),
                       abandoned=sorted(tb.abandoned), entered_by=who)
            elif tb.scores is not None:
                create(TableResult, table=table, scores=dict(tb.scores),
                       risiko=sorted(tb.risiko), abandoned=sorted(tb.abandoned),
                       entered_by=who)
            for pen in tb.penalties:
                _import_penalty(ev, pen, "table", table)
        for pen in e.penalties:
            _import_penalty(ev, pen, "ranking", None)
        for d in e.discipline:
            create(Discipline, evening=ev, player=entry_player(t, d.player), level=d.level,
                   reason=d.reason, referee=d.referee, table_number=d.table)
    for lots in domain.draws:
        create(Draw, tournament=t, stage=lots.stage, order=list(lots.order),
               players_key=draw_players_key(lots.order), referee=lots.referee, note=lots.note)
    audit(who, "import season", t, t, f"{len(domain.evenings)} evenings")
    return t


def _import_penalty(ev: Evening, p: dm.Penalty, unit: str, table: GameTable | None) -> None:
    row = create(
        Penalty, evening=ev, table=table, player=entry_player(ev.tournament, p.player),
        unit=unit, points=p.points, reason=p.reason, referee=p.referee,
        at=dm.clock_name(p.at) if p.at is not None else "",
    )
    if p.appeal is not None:
        create(Appeal, penalty=row, outcome=p.appeal.outcome, points=p.appeal.points,
               referee=p.appeal.referee, reason=p.appeal.reason)

