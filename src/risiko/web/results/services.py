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
from risiko.tournament import checks as C
from risiko.tournament import commands as cmds
from risiko.tournament.dates import clock_name
from risiko.web.auditlog.services import audit
from risiko.web.core import faults as F
from risiko.web.core.faults import ServiceError
from risiko.web.core.limits import check_json, check_number, check_text, create
from risiko.web.core.writes import lock_tournament, write
from risiko.web.evenings.models import Evening
from risiko.web.evenings.services import clock, require_reason, subjects
from risiko.web.players.models import Player
from risiko.web.tournaments.services import decide, entry_player, players_by_key

from .models import Appeal, Discipline, GameTable, Penalty, Seat, TableResult
from .selectors import current_appeal, current_result, seated


def get_table(evening: Evening, number: int) -> GameTable:
    """Table ``number`` of ``evening``; ServiceError if there is none."""
    found = None
    if isinstance(number, int) and not isinstance(number, bool) and 0 < number < 2**31:
        found = evening.tables.filter(number=number).first()
    if found is None:
        raise ServiceError(cmds.NO_TABLE(subjects(evening, table=str(number)[:20]),
                                         number=str(number)[:20],
                                         count=evening.tables.count()))
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


def _plan(evening: Evening) -> list[list[str]]:
    return [seated(tb) for tb in evening.tables.order_by("number")]


@write
def seat_evening(evening: Evening, *, seed: int | str | None = None, who: str
                 ) -> list[GameTable]:
    """Seat the admitted arrivals (R3) with the optimiser (tables of 5 and 4, a table of 6 or
    3 only when nothing else fits: 11 -> 6+5; fewest repeat opponents, rotating first
    seats). Refused once seated or once a table has a result."""
    lock_tournament(evening.tournament_id)
    if isinstance(seed, str):
        check_text("seed", seed, 40)
    seating = decide(evening.tournament, cmds.SeatTables(evening.date, seed),
                     evening=evening).answer
    tables = write_tables(evening, [list(t) for t in seating.tables])
    audit(who, "seat evening", evening.tournament, evening,
          f"{len(tables)} tables", {"tables": [list(t) for t in seating.tables]},
          params={"tables": len(tables)})
    return tables


@write
def set_tables(evening: Evening, tables: Sequence[Sequence[str]], *, reason: str = "",
               who: str) -> list[GameTable]:
    """Seat an evening by hand (seat order = turn order), or change its seating (saying why
    in ``reason``). Every player at most once, 3..6 per table; refused once a table has a
    result."""
    lock_tournament(evening.tournament_id)
    for seats in tables:
        for name in seats:
            check_text("player", name, None)
    decide(evening.tournament, cmds.SetTables(evening.date, tuple(tuple(s) for s in tables)),
           evening=evening)
    existing = evening.tables.count()
    if existing > len(tables):  # table rows stay: a seating names every one
        raise ServiceError(F.TOO_FEW_TABLES(subjects(evening), tables=existing))
    before = _plan(evening)
    out = write_tables(evening, tables, reason=reason)
    after = _plan(evening)
    audit(who, "set tables", evening.tournament, evening, f"{len(out)} tables"
          + (f" — {reason}" if reason else ""),
          {"before": before, "after": after, "reason": reason},
          params={"tables": len(out), "reason": reason})
    return out


@write
def swap_seats(evening: Evening, a: str, b: str, *, reason: str = "", who: str) -> None:
    """Swap two seated players (same or different tables), by hand: both seats are
    superseded by the swapped ones."""
    lock_tournament(evening.tournament_id)
    t = evening.tournament
    pa, pb = entry_player(t, a), entry_player(t, b)
    decide(t, cmds.SwapSeats(evening.date, pa.name, pb.name), evening=evening)
    seats = {s.player_id: s for s in Seat.objects.current().filter(evening=evening)
             .select_related("table")}
    sa, sb = seats[pa.pk], seats[pb.pk]
    Seat.objects.filter(pk__in=[sa.pk, sb.pk]).update(superseded=True)
    create(Seat, evening=evening, table=sa.table, player=pb, position=sa.position,
           reason=reason)
    create(Seat, evening=evening, table=sb.table, player=pa, position=sb.position,
           reason=reason)
    audit(who, "swap seats", t, evening,
          f"{pa.name} (table {sa.table.number} seat {sa.position}) <-> "
          f"{pb.name} (table {sb.table.number} seat {sb.position})"
          + (f" — {reason}" if reason else ""), {"reason": reason},
          params={"a": pa.name, "table_a": sa.table.number, "seat_a": sa.position,
                  "b": pb.name, "table_b": sb.table.number, "seat_b": sb.position,
                  "reason": reason})


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
    table's named winners and order of elimination (None keeps those of the
    result it corrects), checked against the scores. The current result sent again writes
    nothing (no row, no audit entry): the row returned is the current one,
    ``already_recorded`` True."""
    lock_tournament(table.evening.tournament_id)
    evening = table.evening
    check_json("sheet", sheet)
    gone = _names(table, abandoned, "abandoned")
    named = _named(table, winners, eliminated)
    done = decide(evening.tournament, cmds.EnterSheet(
        evening.date, table.number, sheet, tuple(gone), _given(winners, named["winners"]),
        _given(eliminated, named["eliminated"])), evening=evening)
    parsed = done.tournament.evening(evening.date).tables[table.number - 1].sheet
    assert parsed is not None  # the command's result
    return _new_result(table, who, reason, sheet=parsed.to_dict(), abandoned=gone, **named)


def _given(value: Sequence[str] | None, named: list[str]) -> tuple[str, ...] | None:
    return None if value is None else tuple(named)


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
    if not isinstance(scores, Mapping):
        raise ServiceError(F.NOT_JSON({"field": "scores"}, error=type(scores).__name__))
    named = dict(zip(_names(table, list(scores), "scores"), scores.values(), strict=True))
    gone = _names(table, abandoned, "abandoned")
    done = _names(table, risiko, "risiko")
    said = _named(table, winners, eliminated)
    decide(evening.tournament, cmds.EnterScores(
        evening.date, table.number, named, tuple(done), tuple(gone),
        _given(winners, said["winners"]), _given(eliminated, said["eliminated"])),
        evening=evening)
    return _new_result(table, who, reason, scores={k: int(v) for k, v in named.items()},
                       risiko=done, abandoned=gone, **said)


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
    row with ``already_recorded`` True; a different one is a correction and needs a reason
    (ServiceError ``service.correction_reason`` otherwise)."""
    old = current_result(table)
    if old is not None and same_result(old, values):
        old.already_recorded = True
        return old
    if old is not None:  # a correction says why (what is wrong with the result is said first)
        require_reason(reason, table.evening, table=table.number)
        TableResult.objects.filter(pk=old.pk).update(superseded=True)
    row = create(TableResult, table=table, entered_by=who, reason=reason, **values)
    kind = "sheet" if values.get("sheet") is not None else "scores"
    audit(who, "correct result" if old else "enter result", table.evening.tournament, row,
          f"{_ev(table.evening)} table {table.number}: {kind}"
          + (f" — {reason}" if reason else ""),
          {"new": values, "reason": reason, "replaced": None if old is None else
           {"sheet": old.sheet, "scores": old.scores, "risiko": old.risiko,
            "abandoned": old.abandoned, "winners": old.winners,
            "eliminated": old.eliminated}},
          params={"date": table.evening.date.isoformat(), "stage": table.evening.stage,
                  "table": table.number, "kind": kind, "reason": reason})
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
        raise ServiceError(C.ABANDONED_NOT_SEATED(_where(table, player=name)))
    gone = sorted(set(res.abandoned or ()) | {name})
    scores = res.scores
    risiko = res.risiko
    if scores is not None:  # R13: a seat that leaves scores 0 (as the season file says)
        scores = {**scores, name: 0}
        risiko = [p for p in (risiko or ()) if p != name]
    evening = table.evening
    winners = [p for p in (res.winners or ()) if p != name]
    order = tuple(res.eliminated or ())
    cmd: cmds.Command = (
        cmds.EnterScores(evening.date, table.number, scores, tuple(risiko or ()), tuple(gone),
                         tuple(winners), order) if scores is not None else
        cmds.EnterSheet(evening.date, table.number, res.sheet or {}, tuple(gone),
                        tuple(winners), order))
    decide(evening.tournament, cmd, evening=evening)
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
    spelling :func:`risiko.tournament.dates.parse_clock` reads) or empty."""
    t = evening.tournament
    lock_tournament(t.pk)
    p = entry_player(t, player)
    if isinstance(points, bool) or not isinstance(points, int):
        check_number("penalty points", points, "points")  # refused: not a whole number
    check_text("reason", reason, 300)
    at_text = clock_name(clock(evening, at, p.name, "at")) if at and at.strip() else ""
    decide(t, cmds.Penalty(
        evening.date, p.name, points, str(unit)[:20], reason, referee, at_text or None,
        table.number if table is not None else None), evening=evening)
    check_number("penalty points", points, "points")  # what the column stores
    if unit == "table" and table is None:
        table = GameTable.objects.get(
            evening=evening, seats__player=p, seats__superseded=False)
    row = create(
        Penalty, evening=evening, table=table if unit == "table" else None, player=p,
        unit=unit, points=points, reason=reason, referee=referee, at=at_text,
    )
    audit(who, "penalty", t, row, f"{p.name} {points} {unit} points: {reason}",
          params={"player": p.name, "points": points, "unit": unit, "reason": reason})
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


def _number(penalty: Penalty) -> int:
    """The number :func:`risiko.tournament.commands.penalties` gives ``penalty`` in its
    tournament as :func:`~risiko.web.tournaments.services.decide` loads it (a qualifying
    evening alone: its table penalties by table, then its ranking penalties, each by id)."""
    evening = penalty.evening
    scope = (Penalty.objects.current().filter(evening=evening)
             if evening.stage == "qualifying" else
             Penalty.objects.current().filter(evening__tournament=evening.tournament))
    big = 2**31
    rows = scope.filter(voided=False).values_list("pk", "evening__date", "unit",
                                                  "table__number")
    order = sorted(rows, key=lambda r: (r[1], 0 if r[2] == "table" and r[3] else 1,
                                        r[3] if r[2] == "table" and r[3] else big, r[0]))
    return [r[0] for r in order].index(penalty.pk) + 1


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
    if penalty.voided:
        raise ServiceError(F.APPEAL_VOIDED(penalty=penalty.pk))
    evening = penalty.evening
    decide(evening.tournament, cmds.Appeal(_number(penalty), outcome, points, referee, reason),
           evening=evening)
    old = current_appeal(penalty)
    if old is not None:
        Appeal.objects.filter(pk=old.pk).update(superseded=True)
    row = create(
        Appeal, penalty=penalty, outcome=outcome, points=points if outcome == "reduced" else None,
        referee=referee, reason=reason,
    )
    audit(who, "appeal", penalty.evening.tournament, row,
          f"penalty {penalty.pk} ({penalty.player.name} {penalty.points}): {outcome}",
          params={"player": penalty.player.name, "points": penalty.points,
                  "outcome": outcome})
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
    if table_number is not None:
        check_number("table number", table_number, "table_number")
    decide(t, cmds.Discipline(evening.date, p.name, str(level)[:20], reason, referee,
                              table_number), evening=evening)
    row = create(
        Discipline, evening=evening, player=p, level=level, reason=reason, referee=referee,
        table_number=table_number,
    )
    audit(who, "discipline", t, row, f"{p.name}: {level} ({reason})",
          params={"player": p.name, "level": level, "reason": reason})
    return row
