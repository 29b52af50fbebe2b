"""Writes: every change to a tournament goes through these functions.

Each function validates its input against the regulation (through the pure domain of
:mod:`risiko.tournament` and :mod:`risiko.sheet`), writes inside one transaction (all or
nothing), and adds an :class:`~risiko.web.auditlog.models.AuditEntry` saying who did what.
Nothing is deleted: a correction adds a row and marks the old one ``superseded``, a penalty
entered by mistake is ``voided``. Faults raise :class:`ServiceError` (a ValueError) whose
message names the player, table and evening concerned.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from risiko.ruleset import get_ruleset
from risiko.sheet import SheetError, parse_sheet
from risiko.tournament import model as dm
from risiko.tournament.schedule import ArrivalRuling, classify
from risiko.tournament.seating import seat_evening as domain_seat_evening

from .auditlog.models import AuditEntry
from .evenings.models import Arrival, Evening
from .players.models import Player
from .results.models import Appeal, Discipline, GameTable, Penalty, Seat, TableResult
from .selectors import current_appeal, current_result, load_tournament, schedule_of
from .tournaments.models import CarryOver, Draw, Entry, Tournament


class ServiceError(ValueError):
    """A change refused: the message names the fault (player, table, evening)."""


def audit(
    who: str,
    action: str,
    tournament: Tournament | None,
    target: Any = None,
    summary: str = "",
    data: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """Record one change in the audit log."""
    label = ""
    if target is not None:
        label = f"{target._meta.label}:{target.pk}"
    return AuditEntry.objects.create(
        who=who or "?",
        action=action,
        tournament=tournament.name if tournament else "",
        target=label,
        summary=summary[:300],
        data=dict(data or {}),
    )


# ------------------------------------------------------------------------------ lookups
def get_tournament(key: str | int) -> Tournament:
    """A tournament by id, slug or name; ServiceError naming the known ones."""
    qs = Tournament.objects.all()
    found = None
    if isinstance(key, int) or str(key).isdigit():
        found = qs.filter(pk=int(key)).first()
    if found is None:
        found = qs.filter(slug=str(key)).first() or qs.filter(name=str(key)).first()
    if found is None:
        known = ", ".join(qs.values_list("slug", flat=True)[:20]) or "none yet"
        raise ServiceError(f"no tournament {key!r} (known: {known})")
    return found


def get_evening(t: Tournament, date: str | _dt.date) -> Evening:
    """The evening of ``t`` on ``date`` (``YYYY-MM-DD``); ServiceError listing the dates."""
    day = _date(date)
    found = t.evenings.filter(date=day).first()
    if found is None:
        dates = ", ".join(str(d) for d in t.evenings.values_list("date", flat=True)) or "none"
        raise ServiceError(f"{t.name}: no evening on {day} (evenings: {dates})")
    return found


def get_table(evening: Evening, number: int) -> GameTable:
    """Table ``number`` of ``evening``; ServiceError if there is none."""
    found = evening.tables.filter(number=number).first()
    if found is None:
        raise ServiceError(f"{_ev(evening)}: no table {number}")
    return found


def _entry_player(t: Tournament, name: str) -> Player:
    player = Player.objects.filter(name=name).first()
    if player is None or not t.entries.filter(player=player).exists():
        raise ServiceError(f"{t.name}: {name!r} is not a player of this tournament")
    return player


def _date(value: str | _dt.date) -> _dt.date:
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(value)
    except ValueError as err:
        if len(value) == 10 and value[4] == "-" and value[7] == "-":
            raise ServiceError(f"{value!r} is not a date: {err}") from None
        raise ServiceError(f"a date is YYYY-MM-DD, not {value!r}") from None


def _ev(evening: Evening) -> str:
    return f"evening {evening.date} ({evening.stage})"


def _unique_slug(name: str) -> str:
    base = slugify(name) or "torneo"
    slug = base
    n = 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


# ------------------------------------------------------------------------------ tournaments
@transaction.atomic
def create_tournament(
    name: str,
    *,
    ruleset: str = "club-milano",
    format: Mapping[str, Any] | None = None,
    previous: Tournament | None = None,
    who: str,
) -> Tournament:
    """A new tournament under a ruleset preset and a format (the club-milano format by
    default; ``format`` as the JSON of TournamentFormat). ServiceError for a taken name,
    an unknown ruleset or a bad format."""
    name = name.strip()
    if not name:
        raise ServiceError("a tournament needs a name")
    if Tournament.objects.filter(name=name).exists():
        raise ServiceError(f"a tournament named {name!r} exists already")
    try:
        rs = get_ruleset(ruleset)
        fmt = dm.TournamentFormat.from_dict(dict(format)) if format else dm.get_format(None)
    except ValueError as e:
        raise ServiceError(str(e)) from None
    try:
        with transaction.atomic():
            t = Tournament.objects.create(
                name=name,
                slug=_unique_slug(name),
                ruleset_name=rs.name,
                ruleset_version=rs.version,
                format=fmt.to_dict(),
                previous=previous,
                # the tournament players see stays the same until a referee changes it
                is_current=not Tournament.objects.filter(is_current=True).exists(),
            )
    except IntegrityError:
        raise ServiceError(f"a tournament named {name!r} exists already") from None
    audit(who, "create tournament", t, t, f"{name} ({rs.label}, format {fmt.name})")
    return t


@transaction.atomic
def set_current(t: Tournament, *, who: str) -> Tournament:
    """Make ``t`` the tournament the public pages show (the only current one)."""
    Tournament.objects.exclude(pk=t.pk).filter(is_current=True).update(is_current=False)
    if not t.is_current:
        t.is_current = True
        t.save(update_fields=["is_current"])
    audit(who, "set current tournament", t, t, t.name)
    return t


@transaction.atomic
def add_players(t: Tournament, names: Iterable[str], *, who: str) -> list[Player]:
    """Register players (created if new) in ``t``, in order; already registered ones are
    left as they are. ServiceError for an empty name."""
    out = []
    order = t.entries.count()
    for raw in names:
        name = " ".join(raw.split())
        if not name:
            raise ServiceError("a player needs a name")
        twin = (
            t.entries.filter(player__name__iexact=name)
            .exclude(player__name=name)
            .values_list("player__name", flat=True)
            .first()
        )
        if twin is not None:
            raise ServiceError(f"{t.name}: {name!r} differs from the player {twin!r} only in "
                               "capitals: use the same name")
        try:
            with transaction.atomic():
                player, _ = Player.objects.get_or_create(name=name)
        except IntegrityError:  # created at the same moment by another request
            player = Player.objects.get(name=name)
        if not t.entries.filter(player=player).exists():
            order += 1
            Entry.objects.create(tournament=t, player=player, order=order)
            audit(who, "add player", t, player, name)
        out.append(player)
    return out


@transaction.atomic
def set_carry_over(
    t: Tournament, player: str, points: int, *, referee: str, note: str = "", who: str
) -> CarryOver:
    """R17: confirm the points a new member keeps (replaces an earlier confirmation)."""
    p = _entry_player(t, player)
    old = list(CarryOver.objects.filter(tournament=t, player=p, superseded=False))
    CarryOver.objects.filter(pk__in=[c.pk for c in old]).update(superseded=True)
    row = CarryOver.objects.create(
        tournament=t, player=p, points=points, referee=referee, note=note
    )
    audit(who, "carry over", t, row, f"{player}: {points} (R17)",
          {"points": points, "replaced": [c.points for c in old]})
    return row


@transaction.atomic
def record_draw(
    t: Tournament, stage: str, order: Sequence[str], *, referee: str, note: str = "", who: str
) -> Draw:
    """Record a draw of lots ordering tied players at a cut (R18 reading)."""
    if stage not in dm.STAGES:
        raise ServiceError(f"stage is one of {', '.join(dm.STAGES)}, not {stage!r}")
    for name in order:
        _entry_player(t, name)
    if len(set(order)) != len(order) or len(order) < 2:
        raise ServiceError("a draw orders at least 2 different players")
    row = Draw.objects.create(
        tournament=t, stage=stage, order=list(order), referee=referee, note=note
    )
    audit(who, "draw of lots", t, row, f"{stage}: {', '.join(order)}")
    return row


# ------------------------------------------------------------------------------ evenings
@transaction.atomic
def open_evening(
    t: Tournament,
    date: str | _dt.date,
    *,
    stage: str = "qualifying",
    schedule: Mapping[str, str] | None = None,
    chief_referee: str = "",
    who: str,
) -> Evening:
    """Open an evening of ``stage`` on ``date``; ``schedule`` overrides R2/R3 times."""
    day = _date(date)
    if stage not in dm.STAGES:
        raise ServiceError(f"stage is one of {', '.join(dm.STAGES)}, not {stage!r}")
    if t.evenings.filter(date=day).exists():
        raise ServiceError(f"{t.name}: there is already an evening on {day}")
    if schedule:
        try:
            dm.Schedule().with_times(schedule)
        except ValueError as err:
            raise ServiceError(f"evening {day}: {err}") from None
    try:
        with transaction.atomic():
            evening = Evening.objects.create(
                tournament=t, date=day, stage=stage, schedule=dict(schedule or {}),
                chief_referee=chief_referee,
            )
    except IntegrityError:  # opened at the same moment by another request
        raise ServiceError(f"{t.name}: there is already an evening on {day}") from None
    audit(who, "open evening", t, evening, f"{day} ({stage})")
    return evening


@transaction.atomic
def record_arrival(
    evening: Evening,
    player: str,
    at: str,
    *,
    phoned: bool = False,
    phoned_at: str | None = None,
    who: str,
) -> tuple[Arrival, ArrivalRuling]:
    """Record (or correct) a player's arrival to the minute and classify it (R3)."""
    t = evening.tournament
    p = _entry_player(t, player)
    try:
        minute = dm.parse_clock(at)
        phoned_minute = dm.parse_clock(phoned_at) if phoned_at else None
    except ValueError as e:
        raise ServiceError(f"{_ev(evening)}, {player}: {e}") from None
    ruling = classify(
        schedule_of(evening, get_ruleset(f"{t.ruleset_name}@{t.ruleset_version}")),
        dm.Arrival(player, minute, phoned, phoned_minute),
    )
    old = list(evening.arrivals.filter(player=p, superseded=False))
    Arrival.objects.filter(pk__in=[a.pk for a in old]).update(superseded=True)
    row = Arrival.objects.create(
        evening=evening, player=p, at=dm.clock_name(minute), phoned=phoned,
        phoned_at=dm.clock_name(phoned_minute) if phoned_minute is not None else "",
        recorded_by=who,
    )
    _check_evening(evening)  # e.g. a correction that excludes a player already seated (R3)
    audit(who, "arrival", t, row, f"{player} {row.at}{' (phoned)' if phoned else ''}: "
          f"{ruling.arrival_class}", {"replaced": [a.at for a in old]})
    return row, ruling


def _write_tables(evening: Evening, tables: Sequence[Sequence[str]]) -> list[GameTable]:
    t = evening.tournament
    out = []
    for number, seats in enumerate(tables, start=1):
        table, _ = GameTable.objects.get_or_create(evening=evening, number=number)
        Seat.objects.filter(table=table).delete()  # a seating plan; the audit keeps it
        for pos, name in enumerate(seats, start=1):
            Seat.objects.create(table=table, player=_entry_player(t, name), position=pos)
        out.append(table)
    return out


def _check_evening(evening: Evening) -> None:
    """Refuse (ServiceError, the transaction rolls back) if the evening's recorded facts now
    contradict the regulation: an excluded arrival (R3) or an expelled player (R10) seated,
    a player seated twice, a score above the maximum (R1), stage tables that do not match
    the qualified players (R18), ... — the same checks as a season file's."""
    from risiko.tournament.checks import tournament_faults
    from risiko.tournament.finals import compute_stages

    domain = load_tournament(evening.tournament)
    faults = tournament_faults(domain)
    if not faults:
        faults = list(compute_stages(domain).faults)
    mine = [f for f in faults if f.subjects.get("evening") == evening.date.isoformat()]
    if mine:
        raise ServiceError("\n".join(f.message() for f in mine))


def _check_not_played(evening: Evening) -> None:
    for table in evening.tables.all():
        if current_result(table) is not None:
            raise ServiceError(
                f"{_ev(evening)}: table {table.number} has a result; seats cannot change"
            )


@transaction.atomic
def seat_evening(evening: Evening, *, seed: int | str | None = None, who: str) -> list[GameTable]:
    """Seat the admitted arrivals (R3) with the optimiser (tables of 5 and 4, fewest repeat
    opponents, rotating first seats). Refused once a table has a result."""
    _check_not_played(evening)
    if evening.tables.exists():
        raise ServiceError(f"{_ev(evening)} is already seated: swap players or seat it by hand")
    domain = load_tournament(evening.tournament)
    ev = next(e for e in domain.evenings if e.date == evening.date)
    try:
        seating = domain_seat_evening(domain, ev, seed=seed)
    except ValueError as err:
        raise ServiceError(f"{_ev(evening)}: {err}") from None
    tables = _write_tables(evening, [list(t) for t in seating.tables])
    audit(who, "seat evening", evening.tournament, evening,
          f"{len(tables)} tables", {"tables": [list(t) for t in seating.tables]})
    return tables


@transaction.atomic
def set_tables(evening: Evening, tables: Sequence[Sequence[str]], *, who: str) -> list[GameTable]:
    """Seat an evening by hand (seat order = turn order). Every player at most once, 3..6
    per table; refused once a table has a result."""
    _check_not_played(evening)
    seen: set[str] = set()
    for i, seats in enumerate(tables, start=1):
        if not 3 <= len(seats) <= 6:
            raise ServiceError(f"{_ev(evening)}: table {i} has {len(seats)} seats (3..6)")
        for name in seats:
            if name in seen:
                raise ServiceError(f"{_ev(evening)}: {name} is seated twice")
            seen.add(name)
    existing = evening.tables.count()
    if existing > len(tables):
        raise ServiceError(f"{_ev(evening)}: has {existing} tables; give at least as many")
    before = [[s.player.name for s in tb.seats.order_by("position")]
              for tb in evening.tables.order_by("number")]
    out = _write_tables(evening, tables)
    _check_evening(evening)
    audit(who, "set tables", evening.tournament, evening, f"{len(out)} tables",
          {"before": before, "after": [list(t) for t in tables]})
    return out


@transaction.atomic
def swap_seats(evening: Evening, a: str, b: str, *, who: str) -> None:
    """Swap two seated players (same or different tables), by hand."""
    _check_not_played(evening)
    seats = {s.player.name: s for s in Seat.objects.filter(table__evening=evening)
             .select_related("player", "table")}
    for name in (a, b):
        if name not in seats:
            raise ServiceError(f"{_ev(evening)}: {name} is not seated")
    sa, sb = seats[a], seats[b]
    pa, pb = sa.player, sb.player
    sa.player, sb.player = pb, pa
    sa.save(update_fields=["player"])
    sb.save(update_fields=["player"])
    _check_evening(evening)
    audit(who, "swap seats", evening.tournament, evening,
          f"{a} (table {sa.table.number} seat {sa.position}) <-> "
          f"{b} (table {sb.table.number} seat {sb.position})")


# ------------------------------------------------------------------------------ results
def _seated(table: GameTable) -> list[str]:
    return [s.player.name for s in table.seats.order_by("position").select_related("player")]


@transaction.atomic
def enter_sheet(
    table: GameTable, sheet: Mapping[str, Any], *, abandoned: Sequence[str] = (), who: str
) -> TableResult:
    """Enter (or correct) a table's result as an end-of-game sheet, scored by the game
    library. ServiceError with one line per fault: the sheet's own faults, and players who
    are not the table's."""
    evening = table.evening
    t = evening.tournament
    where = f"{_ev(evening)}, table {table.number}"
    try:
        parsed = parse_sheet(sheet, ruleset=t.ruleset_name)
    except SheetError as e:
        raise ServiceError("\n".join(f"{where}: {f}" for f in e.faults)) from None
    seated = _seated(table)
    faults = []
    for s in parsed.seats:
        if s.player not in seated:
            faults.append(f"{where}: {s.player} is in the sheet but not seated at this table")
    for name in seated:
        if name not in {s.player for s in parsed.seats}:
            faults.append(f"{where}: {name} is seated but missing from the sheet")
    for name in abandoned:
        if name not in seated:
            faults.append(f"{where}: {name} left the game but is not seated here")
    if faults:
        raise ServiceError("\n".join(faults))
    return _new_result(table, who, sheet=parsed.to_dict(), abandoned=list(abandoned))


@transaction.atomic
def enter_scores(
    table: GameTable,
    scores: Mapping[str, int],
    *,
    risiko: Sequence[str] = (),
    abandoned: Sequence[str] = (),
    who: str,
) -> TableResult:
    """Enter (or correct) a table's scores directly: ``{player: table points}`` for every
    seated player; ``risiko`` the players who completed their objective (100 each, R1).
    Refused, as in the season file: a score above the maximum (R1), a player who left the
    game (``abandoned``, R13) with a score other than 0."""
    evening = table.evening
    where = f"{_ev(evening)}, table {table.number}"
    seated = _seated(table)
    faults = []
    for name, value in scores.items():
        if name not in seated:
            faults.append(f"{where}: {name} has a score but is not seated at this table")
        if isinstance(value, bool) or not isinstance(value, int):
            faults.append(f"{where}: {name}'s score must be a whole number, not {value!r}")
    for name in seated:
        if name not in scores:
            faults.append(f"{where}: no score for {name}")
    max_base = get_ruleset(
        f"{evening.tournament.ruleset_name}@{evening.tournament.ruleset_version}"
    ).objective_score
    for name, value in scores.items():
        if isinstance(value, int) and not isinstance(value, bool):
            if value > max_base:  # as the season file's checks (R1)
                faults.append(f"{where}: {name} scores {value}, above the maximum table "
                              f"score of {max_base} (R1)")
            if name in abandoned and value != 0:
                faults.append(f"{where}: {name} left the game (R13) but scores {value}: a "
                              "seat that leaves scores 0")
    for name in risiko:
        if name not in seated:
            faults.append(f"{where}: {name} completed the objective but is not seated here")
        elif scores.get(name) != max_base:
            faults.append(f"{where}: {name} completed the objective: the score is {max_base}")
    for name in abandoned:
        if name not in seated:
            faults.append(f"{where}: {name} left the game but is not seated here")
    if faults:
        raise ServiceError("\n".join(faults))
    return _new_result(table, who, scores={k: int(v) for k, v in scores.items()},
                       risiko=list(risiko), abandoned=list(abandoned))


def _new_result(table: GameTable, who: str, **values: Any) -> TableResult:
    old = current_result(table)
    if old is not None:
        old.superseded = True
        old.save(update_fields=["superseded"])
    row = TableResult.objects.create(table=table, entered_by=who, **values)
    _check_evening(table.evening)
    kind = "sheet" if values.get("sheet") is not None else "scores"
    audit(who, "correct result" if old else "enter result", table.evening.tournament, row,
          f"{_ev(table.evening)} table {table.number}: {kind}",
          {"new": values, "replaced": None if old is None else
           {"sheet": old.sheet, "scores": old.scores, "risiko": old.risiko,
            "abandoned": old.abandoned}})
    return row


@transaction.atomic
def mark_abandoned(table: GameTable, player: str, *, who: str) -> TableResult:
    """R13: ``player`` left the game (table score 0, -25 in the ranking). The table must
    have a result already (the others' scores); direct scores get his set to 0."""
    res = current_result(table)
    where = f"{_ev(table.evening)}, table {table.number}"
    if res is None:
        raise ServiceError(f"{where}: enter the table's result before marking who left")
    if player not in _seated(table):
        raise ServiceError(f"{where}: {player} is not seated here")
    gone = sorted(set(res.abandoned or ()) | {player})
    scores = res.scores
    risiko = res.risiko
    if scores is not None:  # R13: a seat that leaves scores 0 (as the season file says)
        scores = {**scores, player: 0}
        risiko = [p for p in (risiko or ()) if p != player]
    return _new_result(table, who, sheet=res.sheet, scores=scores, risiko=risiko,
                       abandoned=gone)


@transaction.atomic
def add_penalty(
    evening: Evening,
    player: str,
    points: int,
    *,
    unit: str,
    reason: str,
    referee: str,
    table: GameTable | None = None,
    at: str = "",
    who: str,
) -> Penalty:
    """A referee penalty (preamble): ``unit`` "table" (table points, needs the player's
    table) or "ranking" (ranking points); ``points`` < 0."""
    t = evening.tournament
    p = _entry_player(t, player)
    if unit not in ("table", "ranking"):
        raise ServiceError("a penalty is in 'table' or 'ranking' points")
    if points >= 0:
        raise ServiceError(f"{_ev(evening)}, {player}: a penalty is negative points, "
                           f"not {points}")
    if not reason.strip():
        raise ServiceError(f"{_ev(evening)}, {player}: a penalty needs a reason")
    if unit == "table":
        if table is None:
            table = GameTable.objects.filter(evening=evening, seats__player=p).first()
        if table is None or player not in _seated(table):
            raise ServiceError(f"{_ev(evening)}: {player} is not seated at a table")
    row = Penalty.objects.create(
        evening=evening, table=table if unit == "table" else None, player=p, unit=unit,
        points=points, reason=reason, referee=referee, at=at,
    )
    audit(who, "penalty", t, row, f"{player} {points} {unit} points: {reason}")
    return row


@transaction.atomic
def void_penalty(penalty: Penalty, *, reason: str, who: str) -> Penalty:
    """Void a penalty entered by mistake (kept, not counted)."""
    if penalty.voided:
        raise ServiceError(f"penalty {penalty.pk} is already voided")
    penalty.voided = True
    penalty.save(update_fields=["voided"])
    audit(who, "void penalty", penalty.evening.tournament, penalty, reason)
    return penalty


@transaction.atomic
def decide_appeal(
    penalty: Penalty,
    outcome: str,
    *,
    points: int | None = None,
    referee: str,
    reason: str = "",
    who: str,
) -> Appeal:
    """The chief referee's decision on an appeal: upheld, reduced (to ``points``, closer to
    zero) or annulled. A new decision replaces the previous one."""
    if outcome not in dm.APPEAL_OUTCOMES:
        raise ServiceError(f"an appeal is {', '.join(dm.APPEAL_OUTCOMES)}, not {outcome!r}")
    if outcome == "reduced" and (points is None or not penalty.points < points <= 0):
        raise ServiceError(
            f"a reduced penalty is between {penalty.points + 1} and 0 points"
            + ("" if points is None else f", not {points}")
        )
    if penalty.voided:
        raise ServiceError(f"penalty {penalty.pk} was voided: there is nothing to appeal")
    old = current_appeal(penalty)
    if old is not None:
        old.superseded = True
        old.save(update_fields=["superseded"])
    row = Appeal.objects.create(
        penalty=penalty, outcome=outcome, points=points if outcome == "reduced" else None,
        referee=referee, reason=reason,
    )
    audit(who, "appeal", penalty.evening.tournament, row,
          f"penalty {penalty.pk} ({penalty.player.name} {penalty.points}): {outcome}")
    return row


@transaction.atomic
def add_discipline(
    evening: Evening,
    player: str,
    level: str,
    *,
    reason: str,
    referee: str,
    table_number: int | None = None,
    who: str,
) -> Discipline:
    """A disciplinary record (R10): warning, table, tournament or club expulsion."""
    t = evening.tournament
    p = _entry_player(t, player)
    if level not in dm.DISCIPLINE_LEVELS:
        raise ServiceError(f"a disciplinary record is {', '.join(dm.DISCIPLINE_LEVELS)}, "
                           f"not {level!r}")
    row = Discipline.objects.create(
        evening=evening, player=p, level=level, reason=reason, referee=referee,
        table_number=table_number,
    )
    audit(who, "discipline", t, row, f"{player}: {level} ({reason})")
    return row


# ------------------------------------------------------------------------------ stages
@transaction.atomic
def seat_stage(
    t: Tournament, date: str | _dt.date, stage: str, *, chief_referee: str = "", who: str
) -> Evening:
    """Open the semifinal or final evening on ``date`` and seat it from the ranking (R18:
    semifinal tables 1, 2, 8, 9, 10 and 3..7; final = the finalists in seat-choice order).
    ServiceError with the reasons when the stage cannot be seated yet (results missing, a
    tie straddling a cut without a draw of lots)."""
    from risiko.tournament.finals import compute_stages

    if stage not in ("semifinal", "final"):
        raise ServiceError(f"seat_stage seats the semifinal or the final, not {stage!r}")
    stages = compute_stages(load_tournament(t))
    if stage == "semifinal":
        tables = stages.semifinal_tables
    else:
        tables = (stages.finalists,) if stages.finalists else None
    if not tables:
        why = [p.message() for p in stages.pending if p.subjects.get("stage") == stage] or [
            p.message() for p in stages.pending]
        raise ServiceError(f"{t.name}: the {stage} cannot be seated yet: "
                           + ("; ".join(why) or "not enough results"))
    evening = open_evening(t, date, stage=stage, chief_referee=chief_referee, who=who)
    set_tables(evening, [list(x) for x in tables], who=who)
    return evening


# ------------------------------------------------------------------------------ season files
def export_season(t: Tournament) -> dict[str, Any]:
    """The season file of a database tournament (``risiko season`` reads it)."""
    from risiko.tournament.season import dump_season

    return dump_season(load_tournament(t))


@transaction.atomic
def import_season(data: Any, *, who: str, name: str | None = None) -> Tournament:
    """Create a tournament with every fact of a season file (validated first: SeasonError
    lines become one ServiceError, nothing is written)."""
    from risiko.tournament.season import SeasonError, parse_season

    try:
        domain = parse_season(data)
    except SeasonError as err:
        raise ServiceError(str(err)) from None
    t = create_tournament(
        name or domain.name,
        ruleset=f"{domain.ruleset_name}@{domain.ruleset_version}",
        format=domain.format.to_dict(),
        who=who,
    )
    add_players(t, domain.player_names, who=who)
    for member in domain.players:
        if member.accepted_ruleset or member.accepted_on:
            Player.objects.filter(name=member.name).update(
                accepted_ruleset=member.accepted_ruleset or "", accepted_on=member.accepted_on
            )
    for c in domain.carry_over:
        set_carry_over(t, c.player, c.points, referee=c.referee, note=c.note, who=who)
    rs = domain.ruleset
    for e in domain.evenings:
        default = dm.Schedule.from_ruleset(rs, e.stage).to_dict()
        own = {k: v for k, v in e.schedule.to_dict().items() if default.get(k) != v}
        ev = Evening.objects.create(tournament=t, date=e.date, stage=e.stage, schedule=own)
        audit(who, "open evening", t, ev, f"{e.date} ({e.stage}) from a season file")
        for a in e.arrivals:
            Arrival.objects.create(
                evening=ev, player=_entry_player(t, a.player), at=dm.clock_name(a.at),
                phoned=a.phoned,
                phoned_at=dm.clock_name(a.phoned_at) if a.phoned_at is not None else "",
                recorded_by=who,
            )
        tables = _write_tables(ev, [list(tb.seats) for tb in e.tables])
        for table, tb in zip(tables, e.tables, strict=True):
            if tb.sheet is not None:
                TableResult.objects.create(table=table, sheet=tb.sheet.to_dict(),
                                           abandoned=sorted(tb.abandoned), entered_by=who)
            elif tb.scores is not None:
                TableResult.objects.create(table=table, scores=dict(tb.scores),
                                           risiko=sorted(tb.risiko),
                                           abandoned=sorted(tb.abandoned), entered_by=who)
            for pen in tb.penalties:
                _import_penalty(ev, pen, "table", table)
        for pen in e.penalties:
            _import_penalty(ev, pen, "ranking", None)
        for d in e.discipline:
            Discipline.objects.create(evening=ev, player=_entry_player(t, d.player),
                                      level=d.level, reason=d.reason, referee=d.referee,
                                      table_number=d.table)
    for lots in domain.draws:
        Draw.objects.create(tournament=t, stage=lots.stage, order=list(lots.order),
                            referee=lots.referee, note=lots.note)
    audit(who, "import season", t, t, f"{len(domain.evenings)} evenings")
    return t


def _import_penalty(ev: Evening, p: dm.Penalty, unit: str, table: GameTable | None) -> None:
    row = Penalty.objects.create(
        evening=ev, table=table, player=_entry_player(ev.tournament, p.player), unit=unit,
        points=p.points, reason=p.reason, referee=p.referee,
        at=dm.clock_name(p.at) if p.at is not None else "",
    )
    if p.appeal is not None:
        Appeal.objects.create(penalty=row, outcome=p.appeal.outcome, points=p.appeal.points,
                              referee=p.appeal.referee, reason=p.appeal.reason)
