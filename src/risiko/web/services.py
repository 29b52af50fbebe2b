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
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import models

from risiko.faults import RisikoError
from risiko.names import name_key
from risiko.tournament import commands as cmds
from risiko.tournament import model as dm
from risiko.tournament.dates import clock_name, evening_date_fault
from risiko.tournament.schedule import Schedule
from risiko.web.auditlog.models import AuditEntry
from risiko.web.auditlog.services import audit
from risiko.web.core.faults import ServiceError, error_faults
from risiko.web.core.limits import check_json, check_row, check_text
from risiko.web.core.repair import draw_players_key
from risiko.web.core.writes import lock_tournament, write
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.evenings.services import (
    get_evening,
    open_evening,
    record_arrival,
)
from risiko.web.players.models import Player
from risiko.web.players.services import get_player, merge_players
from risiko.web.results.models import (
    Appeal,
    Discipline,
    GameTable,
    Penalty,
    Seat,
    TableResult,
)
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
)
from risiko.web.selectors import load_tournament
from risiko.web.tournaments.models import Draw, Tournament
from risiko.web.tournaments.services import (
    add_players,
    create_tournament,
    entry_player,
    get_tournament,
    parse_date,
    players_by_key,
    record_draw,
    register_players,
    set_carry_over,
    set_current,
    set_format,
)

_M = TypeVar("_M", bound=models.Model)

__all__ = [
    "ServiceError",
    "add_discipline",
    "add_penalty",
    "add_players",
    "audit",
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
    "import_sheet",
    "mark_abandoned",
    "merge_players",
    "open_evening",
    "parse_date",
    "record_arrival",
    "record_draw",
    "register_players",
    "seat_evening",
    "seat_stage",
    "set_carry_over",
    "set_current",
    "set_format",
    "set_tables",
    "swap_seats",
    "void_penalty",
]


# ------------------------------------------------------------------------------ stages
@write
def seat_stage(
    t: Tournament, date: str | _dt.date, stage: str, *, chief_referee: str = "", who: str
) -> Evening:
    """Open the semifinal or final evening on ``date`` and seat it from the ranking (R18:
    semifinal tables 1, 2, 8, 9, 10 and 3..7; final = the finalists in seat-choice order).
    ServiceError with the reasons when the stage cannot be seated yet (results missing, a
    tie straddling a cut without a draw of lots): the command's
    (:func:`risiko.tournament.commands.stage_tables`)."""
    lock_tournament(t.pk)
    try:
        tables = cmds.stage_tables(load_tournament(t), stage)
    except RisikoError as err:
        raise ServiceError(*err.faults) from None
    evening = open_evening(t, date, stage=stage, chief_referee=chief_referee, who=who)
    set_tables(evening, tables, who=who)
    return evening


# ------------------------------------------------------------------------------ season files
def export_season(t: Tournament) -> dict[str, Any]:
    """The season file of a database tournament (``risiko season`` reads it)."""
    from risiko.tournament.season import dump_season

    return dump_season(load_tournament(t))


@write
def import_season(data: Any, *, who: str, name: str | None = None) -> Tournament:
    """Create a tournament with every fact of a season file (validated first: its faults
    become one ServiceError, nothing is written).

    The players are registered through :func:`add_players` (one audit entry each), then
    each player is looked up once and every evening's facts are written with bulk inserts,
    each row checked against its columns first (a season of 200 players and 30 evenings in
    a few seconds); the audit log gets one entry per evening (what it brought: arrivals,
    tables, results, penalties) and one for the import."""
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
    known = players_by_key(t)

    def player(player_name: str) -> Player:
        found = known.get(name_key(player_name))
        return found if found is not None else entry_player(t, player_name)  # the refusal

    row = _row
    accepted = []
    for member in domain.players:
        if member.accepted_ruleset or member.accepted_on:
            p = player(member.name)
            p.accepted_ruleset = member.accepted_ruleset or ""
            p.accepted_on = member.accepted_on
            accepted.append(p)
    Player.objects.bulk_update(accepted, ["accepted_ruleset", "accepted_on"])
    for c in domain.carry_over:
        set_carry_over(t, c.player, c.points, referee=c.referee, note=c.note, who=who)
    _write_evenings(t, domain, domain.evenings, player, who=who, source="a season file")
    Draw.objects.bulk_create([
        row(Draw, tournament=t, stage=lots.stage, order=list(lots.order),
            players_key=draw_players_key(lots.order), referee=lots.referee, note=lots.note)
        for lots in domain.draws
    ])
    audit(who, "import season", t, t, f"{len(domain.evenings)} evenings")
    return t


def _row(model: type[_M], **values: Any) -> _M:
    """An unsaved ``model`` row, each value checked against its column first."""
    return model(**check_row(model, values))


def insert_rows(model: Any, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Insert ``rows`` (values of ``columns``: integers, ids, short text and JSON, checked
    already) into ``model``'s table with one ``executemany``; the columns not named take
    their default (``created``: now). The path of the biggest imports (100,000 seats of a
    club sheet): Django's ``bulk_create`` prepares every value of every row through its
    field and costs ten times as much."""
    from django.db import connection
    from django.utils import timezone

    named = [model._meta.get_field(c) for c in columns]
    as_json = [i for i, f in enumerate(named) if isinstance(f, models.JSONField)]
    rest = [f for f in model._meta.concrete_fields
            if f not in named and not f.primary_key]
    fixed = []
    for f in rest:
        value = timezone.now() if getattr(f, "auto_now_add", False) else f.get_default()
        fixed.append(f.get_db_prep_save(value, connection))
    qn = connection.ops.quote_name
    names = ", ".join(qn(f.column) for f in (*named, *rest))
    marks = ", ".join(["%s"] * (len(named) + len(rest)))
    sql = f"INSERT INTO {qn(model._meta.db_table)} ({names}) VALUES ({marks})"
    def values(r: Sequence[Any]) -> tuple[Any, ...]:
        if not as_json:
            return (*r, *fixed)
        out = list(r)
        for i in as_json:  # JSON as the database takes it (text, or jsonb)
            out[i] = named[i].get_db_prep_save(out[i], connection)
        return (*out, *fixed)

    with connection.cursor() as cursor:
        cursor.executemany(sql, [values(r) for r in rows])


def _write_evenings(t: Tournament, domain: dm.Tournament, evenings: Sequence[dm.Evening],
                    player: Callable[[str], Player], *, who: str, source: str,
                    audit_each: bool = True) -> list[dict[str, Any]]:
    """Write ``evenings`` of ``domain`` (checked already) into ``t`` with bulk inserts:
    the evenings, their arrivals, tables, seats, results, penalties, appeals and
    discipline. Returns what each evening brought (``date``, ``stage``, ``arrivals``,
    ``tables``, ``results``, ``penalties``); ``audit_each``: also one audit entry per
    evening saying it (from ``source``)."""
    row = _row
    rs = domain.ruleset
    new_rows = []
    for e in evenings:
        out_of_range = evening_date_fault(e.date)
        if out_of_range is not None:  # the season reader refuses it first; never stored
            raise ServiceError(out_of_range)
        default = Schedule.from_ruleset(rs, e.stage).to_dict()
        own = {k: v for k, v in e.schedule.to_dict().items() if default.get(k) != v}
        new_rows.append(row(Evening, tournament=t, date=e.date, stage=e.stage, schedule=own))
    Evening.objects.bulk_create(new_rows)
    evening_of = dict(Evening.objects.filter(tournament=t, date__in=[e.date for e in evenings])
                      .values_list("date", "pk"))
    Arrival.objects.bulk_create([
        row(Arrival, evening_id=evening_of[e.date], player=player(a.player),
            at=clock_name(a.at), phoned=a.phoned,
            phoned_at=clock_name(a.phoned_at) if a.phoned_at is not None else "",
            recorded_by=who)
        for e in evenings for a in e.arrivals
    ])
    insert_rows(GameTable, ["evening", "number"], [
        (evening_of[e.date], number)  # 1..the evening's tables
        for e in evenings for number in range(1, len(e.tables) + 1)
    ])
    table_of = {(ev, number): pk for pk, ev, number in GameTable.objects.filter(
        evening_id__in=evening_of.values()).values_list("pk", "evening_id", "number")}
    seats: list[tuple[int, int, int, int]] = []
    results: list[tuple[Any, ...]] = []
    by = check_text("entered_by", who or "", 150)
    penalties: list[tuple[int, dm.Penalty, str, int | None]] = []
    for e in evenings:
        ev = evening_of[e.date]
        for number, tb in enumerate(e.tables, start=1):
            table_id = table_of[(ev, number)]
            seats += [(ev, table_id, player(seated).pk, pos)  # ids and 1..6 (checked)
                      for pos, seated in enumerate(tb.seats, start=1)]
            # the checked tournament's values: names of the table, whole scores, a sheet
            # the library scored (its JSON as the library writes it)
            named = (sorted(tb.winners), list(tb.eliminated), by)
            if tb.sheet is not None:
                results.append((table_id, tb.sheet.to_dict(), None, [],
                                sorted(tb.abandoned), *named))
            elif tb.scores is not None:
                results.append((table_id, None, dict(tb.scores), sorted(tb.risiko),
                                sorted(tb.abandoned), *named))
            penalties += [(ev, pen, "table", table_id) for pen in tb.penalties]
        penalties += [(ev, pen, "ranking", None) for pen in e.penalties]
    insert_rows(Seat, ["evening", "table", "player", "position"], seats)
    insert_rows(TableResult, ["table", "sheet", "scores", "risiko", "abandoned", "winners",
                              "eliminated", "entered_by"], results)
    penalty_rows = [
        row(Penalty, evening_id=ev, table_id=table_id, player=player(p.player), unit=unit,
            points=p.points, reason=p.reason, referee=p.referee,
            at=clock_name(p.at) if p.at is not None else "")
        for ev, p, unit, table_id in penalties
    ]
    _bulk_create_with_ids(Penalty, penalty_rows)
    Appeal.objects.bulk_create([
        row(Appeal, penalty=penalty_row, outcome=p.appeal.outcome, points=p.appeal.points,
            referee=p.appeal.referee, reason=p.appeal.reason)
        for penalty_row, (_ev, p, _unit, _table) in zip(penalty_rows, penalties, strict=True)
        if p.appeal is not None
    ])
    Discipline.objects.bulk_create([
        row(Discipline, evening_id=evening_of[e.date], player=player(d.player),
            level=d.level, reason=d.reason, referee=d.referee, table_number=d.table)
        for e in evenings for d in e.discipline
    ])
    brought = [{"date": e.date.isoformat(), "stage": e.stage, "arrivals": len(e.arrivals),
                "tables": len(e.tables),
                "results": sum(1 for tb in e.tables if tb.played),
                "penalties": len(e.penalties) + sum(len(tb.penalties) for tb in e.tables)}
               for e in evenings]
    if audit_each:
        AuditEntry.objects.bulk_create([AuditEntry(
            who=(who or "?")[:150], action="open evening", tournament=t.name[:120],
            target=f"{Evening._meta.label}:{evening_of[e.date]}",
            summary=(f"{e.date} ({e.stage}) from {source}: {b['arrivals']} arrivals, "
                     f"{b['tables']} tables, {b['results']} results, {b['penalties']} "
                     "penalties")[:300],
            data={}, params={**b, "source": source})
            for e, b in zip(evenings, brought, strict=True)])  # one insert
    return brought


@write
def import_sheet(t: Tournament, rows: Sequence[Any], *, who: str) -> list[Evening]:
    """Add a club's spreadsheet of results to ``t``: ``rows`` are
    :class:`risiko.tournament.clubsheet.SheetRow` values, one per player and evening; each
    date becomes a new qualifying evening, seated and scored as the sheet says (no
    arrivals: everyone on time), new players are registered. Checked first as a whole
    (:func:`risiko.tournament.clubsheet.apply_rows`: every fault names its row), so nothing
    is written when one row is bad. One audit entry for the import (action ``import
    sheet``) naming the players it registered and what each evening brought; bulk inserts
    (100,000 rows in seconds, ``bench/bench_import_sheet.py``)."""
    from risiko.tournament.clubsheet import apply_rows
    from risiko.web.selectors import load_tournament

    lock_tournament(t.pk)
    domain = load_tournament(t)
    try:
        changed = apply_rows(domain, rows)
    except (ValueError, TypeError) as err:
        raise ServiceError(*error_faults(err)) from None
    dates = {r.date for r in rows}
    added = [e for e in changed.evenings if e.date in dates]
    before = set(players_by_key(t))
    add_players(t, changed.player_names, who=who, audit_each=False)
    known = players_by_key(t)

    def player(player_name: str) -> Player:
        found = known.get(name_key(player_name))
        return found if found is not None else entry_player(t, player_name)  # the refusal

    brought = _write_evenings(t, changed, added, player, who=who, source="a club sheet",
                              audit_each=False)
    new_players = [p.name for key, p in known.items() if key not in before]
    audit(who, "import sheet", t, t,
          f"{len(rows)} rows, {len(added)} evenings, {len(new_players)} new players",
          {"evenings": brought, "rows": len(rows), "players": sorted(new_players)})
    return list(Evening.objects.filter(tournament=t, date__in=dates).order_by("date"))


def _bulk_create_with_ids(model: Any, rows: list[Any]) -> None:
    """``bulk_create`` that leaves every row with its id (one insert per row on a database
    that cannot return them from a bulk insert)."""
    from django.db import connection

    if connection.features.can_return_rows_from_bulk_insert:
        model.objects.bulk_create(rows)
    else:
        for r in rows:
            r.save(force_insert=True)

