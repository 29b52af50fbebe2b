"""Changes to a tournament's facts, as pure functions: the season file's writes.

Each function takes a :class:`~risiko.tournament.model.Tournament` and returns the changed
one (the facts are frozen values: nothing is changed in place), after the same checks as the
web services: the input (names however typed, times as referees write them, dates), the
regulation (R3 arrivals, R10 expulsions, R18 stages, ...: every fault of
:func:`~risiko.tournament.checks.tournament_faults` and of
:func:`~risiko.tournament.finals.compute_stages`). A refused change raises
:class:`~risiko.faults.InvalidInputError` (bad input) or
:class:`~risiko.faults.IllegalActionError` (the rules refuse it now), with every fault; the
tournament given is unchanged. ``risiko tournament --file SEASON.json`` writes with these.

Penalties are numbered as the command line shows them: evenings by date, each evening's table
penalties (by table), then its ranking penalties, from 1 (:func:`penalties`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..faults import (
    Fault,
    FaultKind,
    IllegalActionError,
    InvalidInputError,
    define,
)
from ..names import clean_name, name_key
from ..ruleset import new_ruleset, sheet_ruleset
from ..sheet import parse_sheet
from .checks import unknown_player
from .finals import compute_stages
from .model import (
    APPEAL_OUTCOMES,
    DISCIPLINE_LEVELS,
    STAGES,
    Appeal,
    Arrival,
    CarryOver,
    Discipline,
    Draw,
    Evening,
    Penalty,
    Player,
    Schedule,
    Stage,
    Table,
    Tournament,
    TournamentFormat,
    check_evening_date,
    get_format,
    parse_clock,
    scores_in_seat_order,
)
from .schedule import ArrivalRuling, classify
from .seating import MAX_TABLE, MIN_TABLE, Seating, SeatingCost, seat_evening
from .seating import swap_seats as swap_in_seating

__all__ = [
    "add_discipline",
    "add_penalty",
    "add_players",
    "checked",
    "decide_appeal",
    "enter_scores",
    "enter_sheet",
    "new_tournament",
    "open_evening",
    "penalties",
    "record_arrival",
    "record_draw",
    "seat_stage",
    "seat_tables",
    "set_carry_over",
    "set_tables",
    "swap_seats",
]


def _k(code: str, clause: str, template: str) -> FaultKind:
    return define(f"edit.{code}", clause, template, located=True)


EMPTY_NAME = _k("empty_name", "", "a player needs a name")
BAD_DATE = _k("bad_date", "", "a date is YYYY-MM-DD, not {value!r}")
NO_EVENING = _k("no_evening", "", "no evening on {date} (evenings: {dates})")
EVENING_EXISTS = _k("evening_exists", "", "there is already an evening on {date}")
BAD_STAGE = _k("bad_stage", "", "the stage is one of {known}, not {value!r}")
NO_TABLE = _k("no_table", "", "no table {number} (tables: {count})")
PLAYED = _k("played", "", "table {number} has a result; seats cannot change")
SEATED_ALREADY = _k("seated_already", "",
                    "the evening is already seated: swap players or seat it by hand")
TABLE_SIZE = _k("table_size", "", "table {number} has {count} seats ({min} to {max})")
HAND_TWICE = _k("seated_twice", "", "{player} is seated twice")
NOT_SEATED = _k("not_seated", "", "{player} is not seated at a table")
STAGE_NOT_READY = _k("stage_not_ready", "R18", "the {stage} cannot be seated yet: {reasons}")
NOT_A_STAGE = _k("not_a_stage", "R18", "a stage seated from the ranking is the semifinal or "
                 "the final, not {value!r}")
BAD_UNIT = _k("bad_unit", "", "a penalty is in 'table' or 'ranking' points, not {value!r}")
NOT_NEGATIVE = _k("not_negative", "", "a penalty is negative points, not {points}")
NO_REASON = _k("no_reason", "", "a penalty needs a reason")
NO_PENALTY = _k("no_penalty", "", "no penalty {number} (penalties: {count})")
BAD_OUTCOME = _k("bad_outcome", "", "an appeal is {known}, not {value!r}")
BAD_REDUCTION = _k("bad_reduction", "", "a reduced penalty is between {low} and 0 points, not "
                   "{value}")
BAD_LEVEL = _k("bad_level", "R10", "a disciplinary record is {known}, not {value!r}")
DRAW_SHORT = _k("draw_short", "R18", "a draw orders at least 2 different players")
SCORE_NOT_SEATED = _k("score_not_seated", "", "{player} has a score but is not seated at this "
                      "table")
NO_SCORE = _k("no_score", "", "no score for {player}")
RISIKO_SCORE = _k("risiko_score", "R1", "{player} completed the objective: the score is {max}")
NOT_AT_TABLE = _k("not_at_table", "", "{player} is not seated at this table")
SHEET_NOT_SEATED = _k("sheet_not_seated", "", "{player} is in the sheet but not seated at this "
                      "table")
SHEET_MISSING = _k("sheet_missing", "", "{player} is seated but missing from the sheet")


# --------------------------------------------------------------------------------------------
# reading the input


def _date(value: str | _dt.date) -> _dt.date:
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInputError(BAD_DATE(value=value)) from None


def player_of(t: Tournament, name: str, **where: Any) -> str:
    """The registered spelling of ``name`` however typed (NFC, capitals); an unknown player
    is refused with the closest names."""
    key = name_key(name)
    for p in t.players:
        if name_key(p.name) == key:
            return p.name
    raise InvalidInputError(unknown_player(clean_name(name), t.player_names, **where))


def evening_of(t: Tournament, date: str | _dt.date) -> Evening:
    """The evening on ``date``; refused naming the evenings there are."""
    day = _date(date)
    for e in t.evenings:
        if e.date == day:
            return e
    raise InvalidInputError(NO_EVENING(date=day.isoformat(),
                                       dates=[e.date.isoformat() for e in t.evenings] or "-"))


def _table(e: Evening, number: int) -> Table:
    if not 1 <= number <= len(e.tables):
        raise InvalidInputError(NO_TABLE(e.subjects, number=number, count=len(e.tables)))
    return e.tables[number - 1]


def _with_table(e: Evening, number: int, table: Table) -> Evening:
    tables = list(e.tables)
    tables[number - 1] = table
    return replace(e, tables=tuple(tables))


def checked(t: Tournament) -> Tournament:
    """``t`` when its facts agree with the regulation
    (:func:`~risiko.tournament.checks.tournament_faults`, then the stages); else raises
    :class:`~risiko.faults.IllegalActionError` with every fault (the change that made them
    disagree is refused)."""
    return _checked(t)


def _checked(t: Tournament) -> Tournament:
    """See :func:`checked`."""
    from .checks import tournament_faults

    faults = tournament_faults(t)
    if not faults:
        faults = list(compute_stages(t).faults)
    if faults:
        raise IllegalActionError(faults)
    return t


def _not_played(e: Evening) -> None:
    for number, table in enumerate(e.tables, start=1):
        if table.played:
            raise IllegalActionError(PLAYED(e.subjects, number=number))


# --------------------------------------------------------------------------------------------
# the tournament and its players


def new_tournament(name: str, *, ruleset: str, format: Mapping[str, Any] | None = None
                   ) -> Tournament:
    """A new, empty tournament (no players, no evenings) under ``ruleset`` (a preset,
    ``name@version``) and a format (club-milano by default, or the JSON of
    :class:`TournamentFormat`)."""
    rs = new_ruleset(ruleset)  # a bare name typed for a new tournament: the newest version
    fmt = TournamentFormat.from_dict(dict(format)) if format else get_format(None)
    if not clean_name(name):
        raise InvalidInputError(EMPTY_NAME())
    return Tournament(clean_name(name), (), rs.name, rs.version, fmt)


def add_players(t: Tournament, names: Iterable[str]) -> tuple[Tournament, int]:
    """Register players in order (a name however typed that is registered already is left
    as it is); returns the tournament and how many were new."""
    players = list(t.players)
    keys = {name_key(p.name) for p in players}
    added = 0
    for raw in names:
        name = clean_name(raw)
        if not name:
            raise InvalidInputError(EMPTY_NAME())
        if name_key(name) not in keys:
            players.append(Player(name))
            keys.add(name_key(name))
            added += 1
    return replace(t, players=tuple(players)), added


def set_carry_over(t: Tournament, player: str, points: int, *, referee: str = "",
                   note: str = "") -> Tournament:
    """R17: the points a new member keeps (replaces an earlier confirmation)."""
    name = player_of(t, player, field="carry_over")
    others = tuple(c for c in t.carry_over if c.player != name)
    return _checked(replace(t, carry_over=(*others, CarryOver(name, points, referee, note))))


def record_draw(t: Tournament, stage: str, order: Sequence[str], *, referee: str = "",
                note: str = "") -> Tournament:
    """A draw of lots ordering players tied at a cut (R18 reading), best first."""
    if stage not in ("semifinal", "final"):
        raise InvalidInputError(NOT_A_STAGE(value=stage))
    names = [player_of(t, n, field="draws") for n in order]
    if len(set(names)) != len(names) or len(names) < 2:
        raise InvalidInputError(DRAW_SHORT())
    lots = Draw("semifinal" if stage == "semifinal" else "final", tuple(names), referee, note)
    return _checked(replace(t, draws=(*t.draws, lots)))


# --------------------------------------------------------------------------------------------
# evenings, arrivals, tables


def open_evening(t: Tournament, date: str | _dt.date, *, stage: str = "qualifying",
                 schedule: Mapping[str, str] | None = None) -> Tournament:
    """A new evening of ``stage`` on ``date`` (``schedule`` overrides R2/R3 times)."""
    day = check_evening_date(_date(date))
    if stage not in STAGES:
        raise InvalidInputError(BAD_STAGE(value=stage, known=list(STAGES)))
    if any(e.date == day for e in t.evenings):
        raise InvalidInputError(EVENING_EXISTS(date=day.isoformat()))
    stage_: Stage = stage
    times = Schedule.from_ruleset(t.ruleset, stage_)
    if schedule:
        times = times.with_times(schedule)
    return _checked(t.with_evening(Evening(day, stage_, times)))


def record_arrival(t: Tournament, date: str | _dt.date, player: str, at: str, *,
                   phoned: bool = False, phoned_at: str | None = None
                   ) -> tuple[Tournament, ArrivalRuling]:
    """Record (or correct) an arrival and classify it (R3); refused when the correction
    would exclude a player already seated."""
    e = evening_of(t, date)
    name = player_of(t, player, **e.subjects, field="arrivals")
    where = {**e.subjects, "field": "arrivals", "player": name}
    try:
        minute = parse_clock(at)
        notice = parse_clock(phoned_at) if phoned_at else None
    except InvalidInputError as err:
        raise InvalidInputError([f.at(**where) for f in err.faults]) from None
    arrival = Arrival(name, minute, phoned or notice is not None, notice)
    arrivals = (*(a for a in e.arrivals if a.player != name), arrival)
    changed = _checked(t.with_evening(replace(e, arrivals=arrivals)))
    return changed, classify(e.schedule, arrival)


def seat_tables(t: Tournament, date: str | _dt.date, *, seed: int | str | None = None
                ) -> tuple[Tournament, Seating]:
    """Seat a qualifying evening from its admitted arrivals with the optimiser (tables of 5
    and 4, fewest repeat opponents, rotating first seats). Refused once seated."""
    e = evening_of(t, date)
    if e.tables:
        raise IllegalActionError(SEATED_ALREADY(e.subjects))
    seating = seat_evening(t, e, seed=seed)
    tables = tuple(Table(seats=s) for s in seating.tables)
    return _checked(t.with_evening(replace(e, tables=tables))), seating


def set_tables(t: Tournament, date: str | _dt.date, tables: Sequence[Sequence[str]]
               ) -> Tournament:
    """Seat an evening by hand (seat order = turn order): every player once, 3 to 6 per
    table; refused once a table has a result."""
    e = evening_of(t, date)
    _not_played(e)
    faults: list[Fault] = []
    seen: set[str] = set()
    plan: list[tuple[str, ...]] = []
    for number, seats in enumerate(tables, start=1):
        if not MIN_TABLE <= len(seats) <= MAX_TABLE:
            faults.append(TABLE_SIZE(e.subjects, number=number, count=len(seats),
                                     min=MIN_TABLE, max=MAX_TABLE))
        names = []
        for raw in seats:
            try:
                name = player_of(t, raw, **e.subjects, table=number)
            except InvalidInputError as err:
                faults += err.faults
                continue
            if name in seen:
                faults.append(HAND_TWICE({**e.subjects, "player": name}))
            seen.add(name)
            names.append(name)
        plan.append(tuple(names))
    if faults:
        raise InvalidInputError(faults)
    new = tuple(Table(seats=s) for s in plan)
    return _checked(t.with_evening(replace(e, tables=new)))


def swap_seats(t: Tournament, date: str | _dt.date, a: str, b: str) -> Tournament:
    """Two seated players exchange seats (same or different tables), by hand."""
    e = evening_of(t, date)
    _not_played(e)
    names = [player_of(t, n, **e.subjects) for n in (a, b)]
    seated = e.seated()
    for n in names:
        if n not in seated:
            raise InvalidInputError(NOT_SEATED({**e.subjects, "player": n}))
    current = Seating(tuple(tb.seats for tb in e.tables), SeatingCost(0, 0, 0, 0))
    swapped = swap_in_seating(current, names[0], names[1])
    new = tuple(replace(tb, seats=s) for tb, s in zip(e.tables, swapped.tables, strict=True))
    return _checked(t.with_evening(replace(e, tables=new)))


def seat_stage(t: Tournament, stage: str, date: str | _dt.date) -> Tournament:
    """Open the semifinal or final evening on ``date`` and seat it from the ranking (R18);
    refused, with the reasons, while it cannot be seated yet."""
    if stage not in ("semifinal", "final"):
        raise InvalidInputError(NOT_A_STAGE(value=stage))
    stages = compute_stages(t)
    tables = stages.semifinal_tables if stage == "semifinal" else (
        (stages.finalists,) if stages.finalists else None)
    if not tables:
        why = [p for p in stages.pending if p.subjects.get("stage") == stage] or list(
            stages.pending)
        raise IllegalActionError(STAGE_NOT_READY(
            {"stage": stage}, reasons=[{"code": p.code, "subjects": dict(p.subjects),
                                        "params": dict(p.params)} for p in why] or "-"))
    opened = open_evening(t, date, stage=stage)
    return set_tables(opened, date, [list(x) for x in tables])


# --------------------------------------------------------------------------------------------
# results


def enter_sheet(t: Tournament, date: str | _dt.date, number: int, sheet: Mapping[str, Any],
                *, abandoned: Sequence[str] = ()) -> Tournament:
    """Enter (or correct) a table's result as an end-of-game sheet (names however typed are
    the table's players)."""
    e = evening_of(t, date)
    table = _table(e, number)
    where = {**e.subjects, "table": number}
    parsed = parse_sheet(sheet, ruleset=sheet_ruleset(t.ruleset_name, t.ruleset_version))
    seated = {name_key(p): p for p in table.seats}
    faults: list[Fault] = []
    seats = []
    for s in parsed.seats:
        if name_key(s.player) not in seated:
            faults.append(SHEET_NOT_SEATED({**where, "player": s.player}))
        else:
            seats.append(replace(s, player=seated[name_key(s.player)]))
    in_sheet = {name_key(s.player) for s in parsed.seats}
    for key, p in seated.items():
        if key not in in_sheet:
            faults.append(SHEET_MISSING({**where, "player": p}))
    gone = _seated_names(table, abandoned, where, faults)
    if faults:
        raise InvalidInputError(faults)
    result = replace(table, sheet=replace(parsed, seats=tuple(seats)), scores=None,
                     risiko=frozenset(), abandoned=frozenset(gone))
    return _checked(t.with_evening(_with_table(e, number, result)))


def _seated_names(table: Table, names: Iterable[str], where: Mapping[str, Any],
                  faults: list[Fault]) -> list[str]:
    seated = {name_key(p): p for p in table.seats}
    out = []
    for raw in names:
        found = seated.get(name_key(raw))
        if found is None:
            faults.append(NOT_AT_TABLE({**where, "player": clean_name(raw)}))
        else:
            out.append(found)
    return out


def enter_scores(t: Tournament, date: str | _dt.date, number: int,
                 scores: Mapping[str, int], *, risiko: Sequence[str] = (),
                 abandoned: Sequence[str] = ()) -> Tournament:
    """Enter (or correct) a table's scores directly, ``{player: table points}`` for every
    seated player (names however typed); ``risiko`` the players who completed their
    objective (the maximum score, R1), ``abandoned`` those who left (R13: 0)."""
    e = evening_of(t, date)
    table = _table(e, number)
    where = {**e.subjects, "table": number}
    seated = {name_key(p): p for p in table.seats}
    faults: list[Fault] = []
    values: dict[str, int] = {}
    for raw, value in scores.items():
        name = seated.get(name_key(raw))
        if name is None:
            faults.append(SCORE_NOT_SEATED({**where, "player": clean_name(raw)}))
        else:
            values[name] = value
    for p in table.seats:
        if p not in values:
            faults.append(NO_SCORE({**where, "player": p}))
    top = t.ruleset.objective_score
    made = _seated_names(table, risiko, where, faults)
    for p in made:
        if values.get(p) != top:
            faults.append(RISIKO_SCORE({**where, "player": p}, max=top))
    gone = _seated_names(table, abandoned, where, faults)
    if faults:
        raise InvalidInputError(faults)
    result = replace(table, sheet=None, scores=scores_in_seat_order(table.seats,
                                                                    values.items()),
                     risiko=frozenset(made), abandoned=frozenset(gone))
    return _checked(t.with_evening(_with_table(e, number, result)))


# --------------------------------------------------------------------------------------------
# penalties, appeals, discipline


def penalties(t: Tournament) -> list[tuple[int, Evening, int | None, Penalty]]:
    """Every penalty numbered from 1: ``(number, evening, table or None, penalty)``, evenings
    by date, each evening's table penalties (by table) then its ranking penalties."""
    out: list[tuple[int, Evening, int | None, Penalty]] = []
    for e in sorted(t.evenings, key=lambda e: e.date):
        for number, table in enumerate(e.tables, start=1):
            out += [(0, e, number, p) for p in table.penalties]
        out += [(0, e, None, p) for p in e.penalties]
    return [(i, e, n, p) for i, (_, e, n, p) in enumerate(out, start=1)]


def add_penalty(t: Tournament, date: str | _dt.date, player: str, points: int, *,
                unit: str, reason: str, referee: str = "", at: str | None = None
                ) -> tuple[Tournament, int]:
    """A referee penalty (preamble): ``unit`` "table" (table points, on the player's table)
    or "ranking" (ranking points); ``points`` < 0. Returns the tournament and the penalty's
    number (see :func:`penalties`)."""
    e = evening_of(t, date)
    name = player_of(t, player, **e.subjects, field="penalties")
    where = {**e.subjects, "player": name}
    if unit not in ("table", "ranking"):
        raise InvalidInputError(BAD_UNIT(where, value=unit))
    if points >= 0:
        raise InvalidInputError(NOT_NEGATIVE(where, points=points))
    if not reason.strip():
        raise InvalidInputError(NO_REASON(where))
    minute = None if not at else parse_clock(at)
    pen = Penalty(name, points, reason.strip(), referee, minute)
    if unit == "table":
        number = e.table_of(name)
        if number is None:
            raise InvalidInputError(NOT_SEATED(where))
        table = e.tables[number - 1]
        changed = _with_table(e, number, replace(table, penalties=(*table.penalties, pen)))
    else:
        changed = replace(e, penalties=(*e.penalties, pen))
    new = _checked(t.with_evening(changed))
    mine = [i for i, ev, _n, p in penalties(new) if ev.date == e.date and p is pen]
    return new, mine[-1]


def decide_appeal(t: Tournament, number: int, outcome: str, *, points: int | None = None,
                  referee: str = "", reason: str = "") -> Tournament:
    """The chief referee's decision on the appeal of penalty ``number``: upheld, reduced
    (to ``points``, closer to zero) or annulled; a new decision replaces the previous."""
    found = [x for x in penalties(t) if x[0] == number]
    if not found:
        raise InvalidInputError(NO_PENALTY(number=number, count=len(penalties(t))))
    _, e, table_no, pen = found[0]
    if outcome not in APPEAL_OUTCOMES:
        raise InvalidInputError(BAD_OUTCOME(value=outcome, known=list(APPEAL_OUTCOMES)))
    if outcome == "reduced" and (points is None or not pen.points < points <= 0):
        raise InvalidInputError(BAD_REDUCTION(low=pen.points + 1, value=points))
    decided = replace(pen, appeal=Appeal(
        outcome, points if outcome == "reduced" else None,
        referee, reason))

    def swap(items: tuple[Penalty, ...]) -> tuple[Penalty, ...]:
        return tuple(decided if p is pen else p for p in items)

    if table_no is None:
        changed = replace(e, penalties=swap(e.penalties))
    else:
        table = e.tables[table_no - 1]
        changed = _with_table(e, table_no, replace(table, penalties=swap(table.penalties)))
    return _checked(t.with_evening(changed))


def add_discipline(t: Tournament, date: str | _dt.date, player: str, level: str, *,
                   reason: str = "", referee: str = "", table: int | None = None
                   ) -> Tournament:
    """A disciplinary record (R10): warning, table, tournament or club expulsion."""
    e = evening_of(t, date)
    name = player_of(t, player, **e.subjects, field="discipline")
    if level not in DISCIPLINE_LEVELS:
        raise InvalidInputError(BAD_LEVEL({**e.subjects, "player": name}, value=level,
                                          known=list(DISCIPLINE_LEVELS)))
    record = Discipline(name, level, reason, referee, table)
    return _checked(t.with_evening(replace(e, discipline=(*e.discipline, record))))
