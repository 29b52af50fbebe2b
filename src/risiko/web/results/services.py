"""Writes of the results app: seating (optimiser, by hand, swaps), results (scores or a
sheet, R13), penalties, voiding, appeals and disciplinary records (R10).

Seats and results are never deleted: a new seating or a swap supersedes the seats it
changes, a correction supersedes the result it replaces, each saying why (``reason``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from risiko.names import name_key
from risiko.ruleset import sheet_ruleset
from risiko.sheet import SheetError, parse_sheet
from risiko.tournament import model as dm
from risiko.tournament.seating import seat_evening as domain_seat_evening
from risiko.web.auditlog.services import audit
from risiko.web.core import faults as F
from risiko.web.core.faults import ServiceError, error_faults
from risiko.web.core.limits import check_json, check_number, check_text, create
from risiko.web.core.writes import lock_tournament, write
from risiko.web.evenings.models import Evening
from risiko.web.evenings.services import check_evening, clock, subjects
from risiko.web.players.models import Player
from risiko.web.tournaments.services import entry_player, players_by_key, ruleset_of

from .models import Appeal, Discipline, GameTable, Penalty, Seat, TableResult
from .selectors import current_appeal, current_result, seated


def get_table(evening: Evening, number: int) -> GameTable:
    """Table ``number`` of ``evening``; ServiceError if there is none."""
    found = None
    if isinstance(number, int) and not isinstance(number, bool) and 0 < number < 2**31:
        found = evening.tables.filter(number=number).first()
    if found is None:
        raise ServiceError(F.NO_TABLE(subjects(evening, table=str(number)[:20])))
    return found


# ------------------------------------------------------------------------------ seating
def write_tables(evening: Evening, tables: Sequence[Sequence[str]], *, reason: str = ""
                 ) -> list[GameTable]:
    """Make ``tables`` (names in turn order) the evening's seating: seats that change are
    superseded and new ones added, seats that stay are kept. Inside a write."""
    t = evening.tournament
    known = players_by_key(t)
    current = {(s.table_id, s.position): s
               for s in Seat.objects.current().filter(evening=evening)}
    desired: dict[tuple[int, int], tuple[GameTable, Player]] = {}
    out = []
    existing = {tb.number: tb for tb in evening.tables.all()}
    for number, names in enumerate(tables, start=1):
        table = existing.get(number) or create(GameTable, evening=evening, number=number)
        for pos, name in enumerate(names, start=1):
            player = known.get(name_key(check_text("player", name, None)))
            if player is None:
                player = entry_player(t, name)  # the refusal, naming the player
            desired[(table.pk, pos)] = (table, player)
        out.append(table)
    stale = [s.pk for key, s in current.items()
             if key not in desired or desired[key][1].pk != s.player_id]
    Seat.objects.filter(pk__in=stale).update(superseded=True)
    for (table_id, pos), (table, player) in desired.items():
        old = current.get((table_id, pos))
        if old is not None and old.player_id == player.pk:
            continue
        create(Seat, evening=evening, table=table, player=player, position=pos, reason=reason)
    return out


def _check_not_played(evening: Evening) -> None:
    for table in evening.tables.all():
        if current_result(table) is not None:
            raise ServiceError(F.TABLE_HAS_RESULT(subjects(evening, table=table.number)))


def _plan(evening: Evening) -> list[list[str]]:
    return [seated(tb) for tb in evening.tables.order_by("number")]


@write
def seat_evening(evening: Evening, *, seed: int | str | None = None, who: str
                 ) -> list[GameTable]:
    """Seat the admitted arrivals (R3) with the optimiser (tables of 5 and 4, fewest repeat
    opponents, rotating first seats). Refused once seated or once a table has a result."""
    from risiko.web.selectors import load_tournament

    lock_tournament(evening.tournament_id)
    _check_not_played(evening)
    if Seat.objects.current().filter(evening=evening).exists():
        raise ServiceError(F.ALREADY_SEATED(subjects(evening)))
    if isinstance(seed, str):
        check_text("seed", seed, 40)
    domain = load_tournament(evening.tournament)
    ev = next(e for e in domain.evenings if e.date == evening.date)
    try:
        seating = domain_seat_evening(domain, ev, seed=seed)
    except ValueError as err:
        raise ServiceError(*error_faults(err, evening=evening.date.isoformat())) from None
    tables = write_tables(evening, [list(t) for t in seating.tables])
    audit(who, "seat evening", evening.tournament, evening,
          f"{len(tables)} tables", {"tables": [list(t) for t in seating.tables]})
    return tables


@write
def set_tables(evening: Evening, tables: Sequence[Sequence[str]], *, reason: str = "",
               who: str) -> list[GameTable]:
    """Seat an evening by hand (seat order = turn order), or change its seating (saying why
    in ``reason``). Every player at most once, 3..6 per table; refused once a table has a
    result."""
    lock_tournament(evening.tournament_id)
    _check_not_played(evening)
    seen: set[str] = set()
    for i, seats in enumerate(tables, start=1):
        if not 3 <= len(seats) <= 6:
            raise ServiceError(F.TABLE_SIZE(subjects(evening, table=i), seats=len(seats)))
        for name in seats:
            key = name_key(check_text("player", name, None))
            if key in seen:
                raise ServiceError(F.SEATED_TWICE(subjects(evening, player=name[:80])))
            seen.add(key)
    existing = evening.tables.count()
    if existing > len(tables):
        raise ServiceError(F.TOO_FEW_TABLES(subjects(evening), tables=existing))
    before = _plan(evening)
    out = write_tables(evening, tables, reason=reason)
    check_evening(evening)
    after = _plan(evening)
    audit(who, "set tables", evening.tournament, evening, f"{len(out)} tables"
          + (f" — {reason}" if reason else ""),
          {"before": before, "after": after, "reason": reason})
    return out


@write
def swap_seats(evening: Evening, a: str, b: str, *, reason: str = "", who: str) -> None:
    """Swap two seated players (same or different tables), by hand: both seats are
    superseded by the swapped ones."""
    lock_tournament(evening.tournament_id)
    _check_not_played(evening)
    t = evening.tournament
    pa, pb = entry_player(t, a), entry_player(t, b)
    if pa.pk == pb.pk:
        raise ServiceError(F.SWAP_SAME(subjects(evening, player=pa.name)))
    seats = {s.player_id: s for s in Seat.objects.current().filter(evening=evening)
             .select_related("table")}
    for p in (pa, pb):
        if p.pk not in seats:
            raise ServiceError(F.NOT_SEATED(subjects(evening, player=p.name)))
    sa, sb = seats[pa.pk], seats[pb.pk]
    Seat.objects.filter(pk__in=[sa.pk, sb.pk]).update(superseded=True)
    create(Seat, evening=evening, table=sa.table, player=pb, position=sa.position,
           reason=reason)
    create(Seat, evening=evening, table=sb.table, player=pa, position=sb.position,
           reason=reason)
    check_evening(evening)
    audit(who, "swap seats", t, evening,
          f"{pa.name} (table {sa.table.number} seat {sa.position}) <-> "
          f"{pb.name} (table {sb.table.number} seat {sb.position})"
          + (f" — {reason}" if reason else ""), {"reason": reason})


# ------------------------------------------------------------------------------ results
def _where(table: GameTable, **more: Any) -> dict[str, Any]:
    return subjects(table.evening, table=table.number, **more)


def _names(table: GameTable, values: Sequence[Any], field: str) -> list[str]:
    """Names as given, checked as text, matched to the table's seats however typed."""
    by_key = {name_key(n): n for n in seated(table)}
    out = []
    for v in values:
        text = check_text(field, v, 200)
        out.append(by_key.get(name_key(text), text))
    return out


@write
def enter_sheet(
    table: GameTable, sheet: Mapping[str, Any], *, abandoned: Sequence[str] = (),
    winners: Sequence[str] | None = None, eliminated: Sequence[str] | None = None,
    reason: str = "", who: str
) -> TableResult:
    """Enter (or correct, saying why in ``reason``) a table's result as an end-of-game
    sheet, scored by the game library. ServiceError with one fault per problem: the sheet's
    own faults, and players who are not the table's. ``winners`` / ``eliminated``: the
    table's named winners and order of elimination (issue 10; None keeps those of the
    result it corrects), checked against the scores. The current result sent again writes
    nothing (no row, no audit entry): the row returned is the current one,
    ``already_recorded`` True."""
    lock_tournament(table.evening.tournament_id)
    evening = table.evening
    t = evening.tournament
    check_json("sheet", sheet)
    try:
        parsed = parse_sheet(sheet, ruleset=sheet_ruleset(t.ruleset_name, t.ruleset_version))
    except SheetError as e:
        raise ServiceError(*error_faults(e, **_where(table))) from None
    except (ValueError, TypeError) as e:
        raise ServiceError(*error_faults(e, **_where(table))) from None
    sitting = seated(table)
    gone = _names(table, abandoned, "abandoned")
    faults = []
    for s in parsed.seats:
        if s.player not in sitting:
            faults.append(F.SHEET_NOT_SEATED(_where(table, player=s.player)))
    for name in sitting:
        if name not in {s.player for s in parsed.seats}:
            faults.append(F.SHEET_MISSING_SEAT(_where(table, player=name)))
    for name in gone:
        if name not in sitting:
            faults.append(F.LEFT_NOT_SEATED(_where(table, player=name)))
    if faults:
        raise ServiceError(*faults)
    return _new_result(table, who, reason, sheet=parsed.to_dict(), abandoned=gone,
                       **_named(table, winners, eliminated))


@write
def enter_scores(
    table: GameTable,
    scores: Mapping[str, int],
    *,
    risiko: Sequence[str] = (),
    abandoned: Sequence[str] = (),
    winners: Sequence[str] | None = None,
    eliminated: Sequence[str] | None = None,
    reason: str = "",
    who: str,
) -> TableResult:
    """Enter (or correct, saying why in ``reason``) a table's scores directly: ``{player:
    table points}`` for every seated player; ``risiko`` the players who completed their
    objective (100 each, R1). Refused, as in the season file: a score above the maximum
    (R1) or below 0, a player who left the game (``abandoned``, R13) with a score other than
    0. ``winners`` / ``eliminated`` as for :func:`enter_sheet`. The current result sent
    again writes nothing (no row, no audit entry): the row returned is the current one,
    ``already_recorded`` True."""
    lock_tournament(table.evening.tournament_id)
    evening = table.evening
    sitting = seated(table)
    if not isinstance(scores, Mapping):
        raise ServiceError(F.NOT_JSON({"field": "scores"}, error=type(scores).__name__))
    named = dict(zip(_names(table, list(scores), "scores"), scores.values(), strict=True))
    gone = _names(table, abandoned, "abandoned")
    done = _names(table, risiko, "risiko")
    max_base = ruleset_of(evening.tournament).objective_score
    faults = []
    for name, value in named.items():
        if name not in sitting:
            faults.append(F.SCORE_NOT_SEATED(_where(table, player=name)))
        if isinstance(value, bool) or not isinstance(value, int):
            faults.append(F.SCORE_NOT_WHOLE(_where(table, player=name), value=repr(value)[:40]))
        elif value > max_base:  # as the season file's checks (R1)
            faults.append(F.SCORE_ABOVE_MAX(_where(table, player=name), score=value,
                                            maximum=max_base))
        elif value < 0:
            faults.append(F.SCORE_NEGATIVE(_where(table, player=name), score=value))
        elif name in gone and value != 0:
            faults.append(F.LEFT_BUT_SCORES(_where(table, player=name), score=value))
    for name in sitting:
        if name not in named:
            faults.append(F.NO_SCORE(_where(table, player=name)))
    for name in done:
        if name not in sitting:
            faults.append(F.RISIKO_NOT_SEATED(_where(table, player=name)))
        elif named.get(name) != max_base:
            faults.append(F.RISIKO_SCORE(_where(table, player=name), maximum=max_base))
    for name in gone:
        if name not in sitting:
            faults.append(F.LEFT_NOT_SEATED(_where(table, player=name)))
    if faults:
        raise ServiceError(*faults)
    return _new_result(table, who, reason, scores={k: int(v) for k, v in named.items()},
                       risiko=done, abandoned=gone, **_named(table, winners, eliminated))


def _named(table: GameTable, winners: Sequence[str] | None,
           eliminated: Sequence[str] | None) -> dict[str, list[str]]:
    """The named winners and order of elimination of a new result: those given (names
    matched to the table's seats however typed; the evening's checks refuse the wrong
    ones), else the ones of the result it corrects."""
    old = current_result(table)
    out = {}
    for field, given in (("winners", winners), ("eliminated", eliminated)):
        if given is None:
            out[field] = list(getattr(old, field, None) or []) if old is not None else []
        else:
            out[field] = _names(table, list(given), field)
    return out


#: what a result says (the columns compared to find a result sent again), and their value when
#: a result is entered without them
RESULT_FIELDS: dict[str, Any] = {"sheet": None, "scores": None, "risiko": [], "abandoned": [],
                                 "winners": [], "eliminated": []}


def _as_stored(value: Any) -> Any:
    return json.loads(json.dumps(value))  # tuples as lists, as a JSON column gives them back


def same_result(row: TableResult, values: Mapping[str, Any]) -> bool:
    """True when ``values`` (the columns of a new result, :data:`RESULT_FIELDS` missing ones
    at their defaults) say what ``row`` says: the same sheet or scores, objectives, players
    who left, winners and order of elimination (the reason and who entered it aside)."""
    def stored(name: str, default: Any) -> Any:
        value = getattr(row, name)
        return default if value is None else value

    return all(_as_stored(values.get(name, default)) == _as_stored(stored(name, default))
               for name, default in RESULT_FIELDS.items())


def _new_result(table: GameTable, who: str, reason: str, **values: Any) -> TableResult:
    """The new current result of ``table`` (the old one superseded, an audit entry); the
    same result sent again (:func:`same_result`) writes nothing and returns the current
    row with ``already_recorded`` True."""
    old = current_result(table)
    if old is not None and same_result(old, values):
        old.already_recorded = True
        return old
    if old is not None:
        TableResult.objects.filter(pk=old.pk).update(superseded=True)
    row = create(TableResult, table=table, entered_by=who, reason=reason, **values)
    check_evening(table.evening)
    kind = "sheet" if values.get("sheet") is not None else "scores"
    audit(who, "correct result" if old else "enter result", table.evening.tournament, row,
          f"{_ev(table.evening)} table {table.number}: {kind}"
          + (f" — {reason}" if reason else ""),
          {"new": values, "reason": reason, "replaced": None if old is None else
           {"sheet": old.sheet, "scores": old.scores, "risiko": old.risiko,
            "abandoned": old.abandoned, "winners": old.winners,
            "eliminated": old.eliminated}})
    return row


def _ev(evening: Evening) -> str:
    return f"evening {evening.date} ({evening.stage})"


@write
def mark_abandoned(table: GameTable, player: str, *, reason: str = "", who: str
                   ) -> TableResult:
    """R13: ``player`` left the game (table score 0, -25 in the ranking). The table must
    have a result already (the others' scores); direct scores get his set to 0."""
    lock_tournament(table.evening.tournament_id)
    res = current_result(table)
    if res is None:
        raise ServiceError(F.NO_RESULT_YET(_where(table)))
    (name,) = _names(table, [player], "player")
    if name not in seated(table):
        raise ServiceError(F.NOT_SEATED_HERE(_where(table, player=name)))
    gone = sorted(set(res.abandoned or ()) | {name})
    scores = res.scores
    risiko = res.risiko
    if scores is not None:  # R13: a seat that leaves scores 0 (as the season file says)
        scores = {**scores, name: 0}
        risiko = [p for p in (risiko or ()) if p != name]
    return _new_result(table, who, reason or f"{name} left the game (R13)", sheet=res.sheet,
                       scores=scores, risiko=risiko, abandoned=gone,
                       winners=[p for p in (res.winners or ()) if p != name],  # R13
                       eliminated=list(res.eliminated or ()))


# ------------------------------------------------------------------------------ penalties
@write
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
    table) or "ranking" (ranking points); ``points`` < 0; ``at`` the time of day (any
    spelling :func:`risiko.tournament.model.parse_clock` reads) or empty."""
    t = evening.tournament
    lock_tournament(t.pk)
    p = entry_player(t, player)
    if unit not in ("table", "ranking"):
        raise ServiceError(F.PENALTY_UNIT(unit=str(unit)[:20]))
    if isinstance(points, int) and not isinstance(points, bool) and points >= 0:
        raise ServiceError(F.PENALTY_NOT_NEGATIVE(subjects(evening, player=p.name),
                                                  points=points))
    check_number("penalty points", points, "points")
    if not check_text("reason", reason, 300).strip():
        raise ServiceError(F.PENALTY_REASON(subjects(evening, player=p.name)))
    at_text = dm.clock_name(clock(evening, at, p.name, "at")) if at and at.strip() else ""
    if unit == "table":
        if table is None:
            table = GameTable.objects.filter(
                evening=evening, seats__player=p, seats__superseded=False).first()
        if table is None or p.name not in seated(table):
            raise ServiceError(F.PENALTY_NO_TABLE(subjects(evening, player=p.name)))
    row = create(
        Penalty, evening=evening, table=table if unit == "table" else None, player=p,
        unit=unit, points=points, reason=reason, referee=referee, at=at_text,
    )
    audit(who, "penalty", t, row, f"{p.name} {points} {unit} points: {reason}")
    return row


@write
def void_penalty(penalty: Penalty, *, reason: str, who: str) -> Penalty:
    """Void a penalty entered by mistake (kept, not counted); once only."""
    lock_tournament(penalty.evening.tournament_id)
    check_text("reason", reason, 300)
    if not Penalty.objects.filter(pk=penalty.pk, voided=False).update(voided=True):
        raise ServiceError(F.ALREADY_VOIDED(penalty=penalty.pk))
    penalty.voided = True
    audit(who, "void penalty", penalty.evening.tournament, penalty, reason,
          {"reason": reason})
    return penalty


@write
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
    lock_tournament(penalty.evening.tournament_id)
    penalty = Penalty.objects.select_related("player", "evening__tournament").get(pk=penalty.pk)
    if outcome not in dm.APPEAL_OUTCOMES:
        raise ServiceError(F.APPEAL_OUTCOME(outcome=str(outcome)[:20],
                                            outcomes=", ".join(dm.APPEAL_OUTCOMES)))
    if outcome == "reduced":
        if points is None:
            raise ServiceError(F.APPEAL_REDUCED(low=penalty.points + 1))
        if isinstance(points, bool) or not isinstance(points, int) or not (
            penalty.points < points <= 0
        ):
            raise ServiceError(F.APPEAL_REDUCED_TO(low=penalty.points + 1,
                                                   points=repr(points)[:40]))
    if penalty.voided:
        raise ServiceError(F.APPEAL_VOIDED(penalty=penalty.pk))
    old = current_appeal(penalty)
    if old is not None:
        Appeal.objects.filter(pk=old.pk).update(superseded=True)
    row = create(
        Appeal, penalty=penalty, outcome=outcome, points=points if outcome == "reduced" else None,
        referee=referee, reason=reason,
    )
    audit(who, "appeal", penalty.evening.tournament, row,
          f"penalty {penalty.pk} ({penalty.player.name} {penalty.points}): {outcome}")
    return row


@write
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
    lock_tournament(t.pk)
    p = entry_player(t, player)
    if level not in dm.DISCIPLINE_LEVELS:
        raise ServiceError(F.DISCIPLINE_LEVEL(level=str(level)[:20],
                                              levels=", ".join(dm.DISCIPLINE_LEVELS)))
    if table_number is not None:
        check_number("table number", table_number, "table_number")
    row = create(
        Discipline, evening=evening, player=p, level=level, reason=reason, referee=referee,
        table_number=table_number,
    )
    audit(who, "discipline", t, row, f"{p.name}: {level} ({reason})")
    return row
