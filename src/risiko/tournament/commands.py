"""The changes to a tournament as command values: one check and one apply for every door.

A command (:class:`OpenEvening`, :class:`RecordArrival`, :class:`SeatTables`,
:class:`EnterScores`, :class:`Penalty`, ...) is a frozen value naming what a referee asks for,
as typed (names however spelt, times as referees write them, dates ``YYYY-MM-DD``).
:func:`check` says what is wrong with it on a tournament (``[]`` when nothing is) and
:func:`apply` gives the changed tournament; :func:`run` gives both the tournament and the
command's answer (the seating made, the arrival's R3 ruling, the penalty's number). The facts
are frozen values: nothing is changed in place, a refused command changes nothing.

The season file's writes are :func:`apply` then a dump (``risiko tournament --file``); the
database's (:mod:`risiko.web.services`) lock the tournament, load it, refuse what
:func:`check` refuses and write the rows the command names. The checks are the input's (an
unknown player, a table that does not exist, a penalty that is not negative, ...) and then
the regulation's on the changed tournament (:func:`~risiko.tournament.checks.
tournament_faults`: R3 arrivals, R10 expulsions, R1 scores, ...; and
:func:`~risiko.tournament.finals.compute_stages`, R18). A fault is raised as
:class:`~risiko.faults.InvalidInputError` (bad input) or
:class:`~risiko.faults.IllegalActionError` (the rules refuse it now), with every fault.

Penalties are numbered as the command line shows them: evenings by date, each evening's table
penalties (by table), then its ranking penalties, from 1 (:func:`penalties`).

>>> t = new_tournament("Coppa", ruleset="club-milano")
>>> t = apply(t, AddPlayers(("Alba", "Bice", "Ciro")))
>>> t = apply(t, OpenEvening("2027-03-02"))
>>> [f.code for f in check(t, RecordArrival("2027-03-02", "Zeno", "21:00"))]
['tournament.unknown_player']
>>> run(t, RecordArrival("2027-03-02", "alba", "21:10")).answer[1].arrival_class
'on_time'
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..faults import (
    Fault,
    FaultKind,
    IllegalActionError,
    InvalidInputError,
    RisikoError,
    alias,
    define,
)
from ..names import clean_name, name_key
from ..ruleset import new_ruleset, sheet_ruleset
from ..sheet import parse_sheet
from . import checks as C
from . import model as m
from .checks import unknown_player
from .dates import check_evening_date, parse_clock
from .finals import compute_stages
from .format import TournamentFormat, get_format
from .schedule import ArrivalRuling, Schedule, classify
from .seating import MAX_TABLE, MIN_TABLE, Seating, SeatingCost, seat_evening
from .seating import swap_seats as swap_in_seating

__all__ = [
    "AddPlayers",
    "Appeal",
    "Applied",
    "CarryOver",
    "Command",
    "Discipline",
    "Draw",
    "EnterScores",
    "EnterSheet",
    "OpenEvening",
    "Penalty",
    "RecordArrival",
    "SeatStage",
    "SeatTables",
    "SetFormat",
    "SetTables",
    "SwapSeats",
    "apply",
    "check",
    "checked",
    "evening_of",
    "new_tournament",
    "penalties",
    "player_of",
    "run",
]

A = TypeVar("A")
Day = str | _dt.date


# --------------------------------------------------------------------------------------------
# the faults of a command (the regulation's faults of the result are those of .checks)


def _k(code: str, clause: str, template: str, *old: str) -> FaultKind:
    kind = define(f"tournament.{code}", clause, template, located=True)
    for code_before in old:
        alias(code_before, kind)
    return kind


EMPTY_NAME = _k("empty_name", "", "a player needs a name", "edit.empty_name",
                "service.player_name_missing")
BAD_DATE = _k("bad_date", "", "a date is YYYY-MM-DD, not {value!r}", "edit.bad_date",
              "service.bad_date")
NO_EVENING = _k("no_evening", "", "no evening on {date} (evenings: {dates})", "edit.no_evening",
                "service.no_evening")
EVENING_EXISTS = _k("evening_exists", "", "there is already an evening on {date}",
                    "edit.evening_exists", "service.evening_exists", "import.evening_exists")
BAD_STAGE = _k("bad_stage", "", "the stage is one of {known}, not {value!r}", "edit.bad_stage",
               "service.bad_stage")
NO_TABLE = _k("no_table", "", "no table {number} (tables: {count})", "edit.no_table",
              "service.no_table")
PLAYED = _k("table_has_result", "", "table {number} has a result; seats cannot change",
            "edit.played", "service.table_has_result")
SEATED_ALREADY = _k("already_seated", "", "the evening is already seated: swap players or "
                    "seat it by hand", "edit.seated_already", "service.already_seated")
NOT_SEATED = _k("not_seated", "", "{player} is not seated at a table", "edit.not_seated",
                "service.not_seated", "service.penalty_no_table")
SWAP_SAME = _k("swap_same", "", "choose two different players", "service.swap_same")
STAGE_NOT_READY = _k("stage_not_ready", "R18", "the {stage} cannot be seated yet: {reasons}",
                     "edit.stage_not_ready", "service.semifinal_not_ready",
                     "service.final_not_ready", "service.not_enough_results")
NOT_A_STAGE = _k("not_a_stage", "R18", "a stage seated from the ranking is the semifinal or "
                 "the final, not {value!r}", "edit.not_a_stage", "service.stage_kind")
BAD_UNIT = _k("bad_unit", "", "a penalty is in 'table' or 'ranking' points, not {value!r}",
              "edit.bad_unit", "service.penalty_unit")
NO_REASON = _k("no_reason", "", "a penalty needs a reason", "edit.no_reason",
               "service.penalty_reason")
NO_PENALTY = _k("no_penalty", "", "no penalty {number} (penalties: {count})", "edit.no_penalty",
                "cli.no_penalty")
BAD_OUTCOME = _k("bad_outcome", "", "an appeal is {known}, not {value!r}", "edit.bad_outcome",
                 "service.appeal_outcome")
BAD_LEVEL = _k("bad_level", "R10", "a disciplinary record is {known}, not {value!r}",
               "edit.bad_level", "service.discipline_level")
RISIKO_SCORE = _k("risiko_score", "R1", "{player} completed the objective: the score is {max}",
                  "edit.risiko_score", "service.risiko_score")
SCORE_NEGATIVE = _k("score_negative", "R1", "{player} scores {score}: a table score entered "
                    "is 0 or more (penalties are entered as penalties)",
                    "service.score_negative")
SCORE_NOT_WHOLE = _k("score_not_whole", "", "{player}'s score must be a whole number, not "
                     "{value}", "service.score_not_whole")
# the input's faults that the regulation's checks of the result name too: one kind each
for _old, _kind in (
    ("edit.table_size", C.TABLE_SIZE), ("service.table_size", C.TABLE_SIZE),
    ("edit.seated_twice", C.SEATED_TWICE), ("service.seated_twice", C.SEATED_TWICE),
    ("edit.not_negative", C.PENALTY_NOT_NEGATIVE),
    ("service.penalty_not_negative", C.PENALTY_NOT_NEGATIVE),
    ("edit.bad_reduction", C.APPEAL_RANGE), ("service.appeal_reduced_to", C.APPEAL_RANGE),
    ("service.appeal_reduced", C.APPEAL_NO_POINTS),
    ("edit.draw_short", C.DRAW_SHORT), ("service.draw_players", C.DRAW_SHORT),
    ("edit.score_not_seated", C.SCORE_NOT_SEATED),
    ("service.score_not_seated", C.SCORE_NOT_SEATED),
    ("edit.no_score", C.NO_SCORE), ("service.no_score", C.NO_SCORE),
    ("service.score_above_max", C.SCORE_ABOVE),
    ("service.left_but_scores", C.ABANDONED_SCORES),
    ("edit.not_at_table", C.ABANDONED_NOT_SEATED),
    ("service.left_not_seated", C.ABANDONED_NOT_SEATED),
    ("service.not_seated_here", C.ABANDONED_NOT_SEATED),
    ("service.risiko_not_seated", C.RISIKO_NOT_SEATED),
    ("edit.sheet_not_seated", C.SHEET_NOT_SEATED),
    ("service.sheet_not_seated", C.SHEET_NOT_SEATED),
    ("edit.sheet_missing", C.SHEET_NO_SEAT), ("service.sheet_missing_seat", C.SHEET_NO_SEAT),
):
    alias(_old, _kind)


# --------------------------------------------------------------------------------------------
# the commands


@dataclass(frozen=True)
class AddPlayers:
    """Register players in order (a name registered already, however typed, is left as it
    is). Answer: the names registered now (as written)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class CarryOver:
    """R17: the points a new member keeps (replaces an earlier confirmation)."""

    player: str
    points: int
    referee: str = ""
    note: str = ""


@dataclass(frozen=True)
class Draw:
    """A draw of lots ordering players tied at a cut of ``stage`` (R18 reading), best
    first; a new draw of the same players for the same stage replaces the earlier one."""

    stage: str
    order: tuple[str, ...]
    referee: str = ""
    note: str = ""


@dataclass(frozen=True)
class OpenEvening:
    """A new evening of ``stage`` on ``date`` (``schedule`` overrides R2/R3 times)."""

    date: Day
    stage: str = "qualifying"
    schedule: Mapping[str, str] | None = None
    chief_referee: str = ""


@dataclass(frozen=True)
class RecordArrival:
    """Record (or correct) an arrival (R3); refused when the correction would exclude a
    player already seated. Answer: ``(player as registered, ArrivalRuling)``."""

    date: Day
    player: str
    at: str
    phoned: bool = False
    phoned_at: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class SeatTables:
    """Seat a qualifying evening from its admitted arrivals with the optimiser (tables of 5
    and 4, fewest repeat opponents, rotating first seats). Refused once seated. Answer: the
    :class:`~risiko.tournament.seating.Seating`."""

    date: Day
    seed: int | str | None = None


@dataclass(frozen=True)
class SetTables:
    """Seat an evening by hand (seat order = turn order), or change its seating: every
    player once, 3 to 6 per table; refused once a table has a result."""

    date: Day
    tables: tuple[tuple[str, ...], ...]
    reason: str = ""


@dataclass(frozen=True)
class SwapSeats:
    """Two seated players exchange seats (same or different tables), by hand."""

    date: Day
    a: str
    b: str
    reason: str = ""


@dataclass(frozen=True)
class SeatStage:
    """Open the semifinal or final evening on ``date`` and seat it from the ranking (R18);
    refused, with the reasons, while it cannot be seated yet."""

    stage: str
    date: Day


@dataclass(frozen=True)
class EnterSheet:
    """Enter (or correct) a table's result as an end-of-game sheet (names however typed are
    the table's players); ``winners`` / ``eliminated`` None keep those of the result it
    corrects."""

    date: Day
    table: int
    sheet: Mapping[str, Any]
    abandoned: tuple[str, ...] = ()
    winners: tuple[str, ...] | None = None
    eliminated: tuple[str, ...] | None = None
    reason: str = ""


@dataclass(frozen=True)
class EnterScores:
    """Enter (or correct) a table's scores directly, ``{player: table points}`` for every
    seated player (names however typed); ``risiko`` the players who completed their
    objective (the maximum score, R1), ``abandoned`` those who left (R13: 0)."""

    date: Day
    table: int
    scores: Mapping[str, Any]
    risiko: tuple[str, ...] = ()
    abandoned: tuple[str, ...] = ()
    winners: tuple[str, ...] | None = None
    eliminated: tuple[str, ...] | None = None
    reason: str = ""


@dataclass(frozen=True)
class Penalty:
    """A referee penalty (preamble): ``unit`` "table" (table points, on the player's table,
    or ``table`` when given) or "ranking" (ranking points); ``points`` < 0; ``at`` a time
    of day or None. Answer: ``(number, player as registered)`` (see :func:`penalties`)."""

    date: Day
    player: str
    points: int
    unit: str
    reason: str
    referee: str = ""
    at: str | None = None
    table: int | None = None


@dataclass(frozen=True)
class Appeal:
    """The chief referee's decision on the appeal of penalty ``number``
    (:func:`penalties`): upheld, reduced (to ``points``, closer to zero) or annulled; a new
    decision replaces the previous."""

    number: int
    outcome: str
    points: int | None = None
    referee: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Discipline:
    """A disciplinary record (R10): warning, table, tournament or club expulsion."""

    date: Day
    player: str
    level: str
    reason: str = ""
    referee: str = ""
    table: int | None = None


@dataclass(frozen=True)
class SetFormat:
    """The tournament's format becomes ``format`` (the JSON of
    :class:`~risiko.tournament.format.TournamentFormat`): refused when it is not one (each
    parameter named with its range) or when the recorded facts disagree with it (a
    semifinal already seated otherwise, ...)."""

    format: Mapping[str, Any]


Command = (AddPlayers | CarryOver | Draw | OpenEvening | RecordArrival | SeatTables
           | SetTables | SwapSeats | SeatStage | EnterSheet | EnterScores | Penalty | Appeal
           | Discipline | SetFormat)


@dataclass(frozen=True)
class Applied(Generic[A]):
    """A command applied: the changed ``tournament`` and the command's ``answer``."""

    tournament: m.Tournament
    answer: A


# --------------------------------------------------------------------------------------------
# check, apply, run


def run(t: m.Tournament, cmd: Command, *, partial: bool = False) -> Applied[Any]:
    """``cmd`` applied to ``t``, checked: the changed tournament and the answer; raises
    :class:`~risiko.faults.InvalidInputError` or :class:`~risiko.faults.IllegalActionError`
    with every fault (``t`` is unchanged).

    ``partial``: ``t`` holds the facts of the evening the command names only (a database
    write loads that evening alone, see ``risiko.web.selectors.load_tournament``): the
    faults that block are those of that evening, and a qualifying evening's skip the stages
    (theirs all name a semifinal or final evening, R18)."""
    return _HANDLERS[type(cmd)](t, cmd, _Checker(partial))


def check(t: m.Tournament, cmd: Command, *, partial: bool = False) -> list[Fault]:
    """Every fault of ``cmd`` on ``t`` (``[]``: :func:`apply` will take it)."""
    try:
        run(t, cmd, partial=partial)
    except RisikoError as err:
        return list(err.faults)
    return []


def apply(t: m.Tournament, cmd: Command) -> m.Tournament:
    """``t`` changed by ``cmd``; the faults of :func:`check` raised."""
    return run(t, cmd).tournament


def checked(t: m.Tournament) -> m.Tournament:
    """``t`` when its facts agree with the regulation
    (:func:`~risiko.tournament.checks.tournament_faults`, then the stages); else raises
    :class:`~risiko.faults.IllegalActionError` with every fault."""
    return _Checker(False)(t)


class _Checker:
    """The regulation's checks of a changed tournament (see :func:`run`'s ``partial``)."""

    def __init__(self, partial: bool) -> None:
        self.partial = partial

    def whole(self, t: m.Tournament) -> m.Tournament:
        """``t`` when every check of the whole tournament finds nothing (a change that
        concerns no one evening: the format)."""
        return _Checker(False)(t)

    def __call__(self, t: m.Tournament, date: _dt.date | None = None, *, stages: bool = True
                 ) -> m.Tournament:
        """``t`` when the checks find nothing (``stages`` False: not the stages', for an
        evening just opened that has no tables yet); else IllegalActionError."""
        if not self.partial:
            faults = C.tournament_faults(t)
            if not faults and stages:
                faults = list(compute_stages(t).faults)
        else:
            faults = _evening_faults(t, date, stages)
        if faults:
            raise IllegalActionError(faults)
        return t


def _evening_faults(t: m.Tournament, date: _dt.date | None, stages: bool) -> list[Fault]:
    """The faults of a partly loaded ``t`` concerning the evening on ``date`` (None: the
    tournament's own)."""
    day = date or _dt.date.min
    stage = next((e.stage for e in t.evenings if e.date == day), "qualifying")
    found = C.tournament_faults(t, only=day)
    if stage != "qualifying" and stages and not found:
        found = list(compute_stages(t).faults)
    if date is None:
        return [f for f in found if "evening" not in f.subjects]
    return [f for f in found if str(f.subjects.get("evening", "")).startswith(day.isoformat())]


# --------------------------------------------------------------------------------------------
# reading the input


def _date(value: Day) -> _dt.date:
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(str(value).strip())
    except ValueError:
        raise InvalidInputError(BAD_DATE(value=str(value)[:40])) from None


def player_of(t: m.Tournament, name: str, **where: Any) -> str:
    """The registered spelling of ``name`` however typed (NFC, capitals); an unknown player
    is refused with the closest names."""
    key = name_key(name)
    for p in t.players:
        if name_key(p.name) == key:
            return p.name
    raise InvalidInputError(unknown_player(clean_name(name)[:80], t.player_names, **where))


def evening_of(t: m.Tournament, date: Day) -> m.Evening:
    """The evening on ``date``; refused naming the evenings there are."""
    day = _date(date)
    for e in t.evenings:
        if e.date == day:
            return e
    raise InvalidInputError(NO_EVENING(date=day.isoformat(),
                                       dates=[e.date.isoformat() for e in t.evenings] or "-"))


def _table(e: m.Evening, number: int) -> m.Table:
    if isinstance(number, bool) or not isinstance(number, int) or not (
            1 <= number <= len(e.tables)):
        raise InvalidInputError(NO_TABLE(e.subjects, number=str(number)[:20],
                                         count=len(e.tables)))
    return e.tables[number - 1]


def _with_table(e: m.Evening, number: int, table: m.Table) -> m.Evening:
    tables = list(e.tables)
    tables[number - 1] = table
    return replace(e, tables=tuple(tables))


def _not_played(e: m.Evening) -> None:
    for number, table in enumerate(e.tables, start=1):
        if table.played:
            raise IllegalActionError(PLAYED(e.subjects, number=number))


def _at_table(table: m.Table, names: Iterable[str]) -> list[str]:
    """Names matched to the table's seats however typed (a name not seated stays as typed:
    the checks of the result name it)."""
    seated = {name_key(p): p for p in table.seats}
    return [seated.get(name_key(raw), clean_name(raw)) for raw in names]


# --------------------------------------------------------------------------------------------
# the tournament and its players


def new_tournament(name: str, *, ruleset: str, format: Mapping[str, Any] | None = None
                   ) -> m.Tournament:
    """A new, empty tournament (no players, no evenings) under ``ruleset`` (a preset,
    ``name@version``) and a format (club-milano by default, or the JSON of
    :class:`~risiko.tournament.format.TournamentFormat`)."""
    rs = new_ruleset(ruleset)  # a bare name typed for a new tournament: the newest version
    fmt = TournamentFormat.from_dict(dict(format)) if format else get_format(None)
    if not clean_name(name):
        raise InvalidInputError(EMPTY_NAME())
    return m.Tournament(clean_name(name), (), rs.name, rs.version, fmt)


def _add_players(t: m.Tournament, cmd: AddPlayers, checked: _Checker
                 ) -> Applied[list[str]]:
    players = list(t.players)
    keys = {name_key(p.name) for p in players}
    added = []
    for raw in cmd.names:
        name = clean_name(raw)
        if not name:
            raise InvalidInputError(EMPTY_NAME())
        if name_key(name) not in keys:
            players.append(m.Player(name))
            keys.add(name_key(name))
            added.append(name)
    return Applied(replace(t, players=tuple(players)), added)


def _carry_over(t: m.Tournament, cmd: CarryOver, checked: _Checker) -> Applied[str]:
    name = player_of(t, cmd.player, field="carry_over")
    others = tuple(c for c in t.carry_over if c.player != name)
    row = m.CarryOver(name, cmd.points, cmd.referee, cmd.note)
    return Applied(checked(replace(t, carry_over=(*others, row))), name)


def _draw(t: m.Tournament, cmd: Draw, checked: _Checker) -> Applied[list[str]]:
    if cmd.stage not in ("semifinal", "final"):
        raise InvalidInputError(NOT_A_STAGE(value=str(cmd.stage)[:40]))
    names = [player_of(t, n, field="draws") for n in cmd.order]
    if len(set(names)) != len(names) or len(names) < 2:
        raise InvalidInputError(C.DRAW_SHORT({"field": "draws", "stage": cmd.stage}))
    same = {name_key(n) for n in names}
    kept = tuple(d for d in t.draws
                 if d.stage != cmd.stage or {name_key(n) for n in d.order} != same)
    lots = m.Draw("semifinal" if cmd.stage == "semifinal" else "final", tuple(names),
                  cmd.referee, cmd.note)
    return Applied(checked(replace(t, draws=(*kept, lots))), names)


# --------------------------------------------------------------------------------------------
# evenings, arrivals, tables


def _open_evening(t: m.Tournament, cmd: OpenEvening, checked: _Checker) -> Applied[m.Evening]:
    day = check_evening_date(_date(cmd.date))
    if cmd.stage not in m.STAGES:
        raise InvalidInputError(BAD_STAGE(value=str(cmd.stage)[:40], known=list(m.STAGES)))
    if any(e.date == day for e in t.evenings):
        raise InvalidInputError(EVENING_EXISTS(date=day.isoformat()))
    stage: m.Stage = cmd.stage
    times = Schedule.from_ruleset(t.ruleset, stage)
    if cmd.schedule:
        times = times.with_times(cmd.schedule)
    evening = m.Evening(day, stage, times)
    # a semifinal or final opened has no tables yet: its stage checks come with its seating
    return Applied(checked(t.with_evening(evening), day, stages=False), evening)


def _record_arrival(t: m.Tournament, cmd: RecordArrival, checked: _Checker
                    ) -> Applied[tuple[str, ArrivalRuling]]:
    e = evening_of(t, cmd.date)
    name = player_of(t, cmd.player, **e.subjects, field="arrivals")
    where = {**e.subjects, "field": "arrivals", "player": name}
    try:
        minute = parse_clock(cmd.at)
        notice = parse_clock(cmd.phoned_at) if cmd.phoned_at else None
    except InvalidInputError as err:
        raise InvalidInputError([f.at(**where) for f in err.faults]) from None
    arrival = m.Arrival(name, minute, cmd.phoned or notice is not None, notice)
    arrivals = (*(a for a in e.arrivals if a.player != name), arrival)
    changed = checked(t.with_evening(replace(e, arrivals=arrivals)), e.date)
    return Applied(changed, (name, classify(e.schedule, arrival)))


def _seat_tables(t: m.Tournament, cmd: SeatTables, checked: _Checker) -> Applied[Seating]:
    e = evening_of(t, cmd.date)
    _not_played(e)
    if e.tables:
        raise IllegalActionError(SEATED_ALREADY(e.subjects))
    seating = seat_evening(t, e, seed=cmd.seed)
    tables = tuple(m.Table(seats=s) for s in seating.tables)
    return Applied(checked(t.with_evening(replace(e, tables=tables)), e.date), seating)


def _set_tables(t: m.Tournament, cmd: SetTables, checked: _Checker) -> Applied[None]:
    e = evening_of(t, cmd.date)
    _not_played(e)
    faults: list[Fault] = []
    where_of: dict[str, list[int]] = {}
    plan: list[tuple[str, ...]] = []
    for number, seats in enumerate(cmd.tables, start=1):
        if not MIN_TABLE <= len(seats) <= MAX_TABLE:
            faults.append(C.TABLE_SIZE({**e.subjects, "table": number}, count=len(seats),
                                       min=MIN_TABLE, max=MAX_TABLE))
        names = []
        for raw in seats:
            try:
                name = player_of(t, raw, **e.subjects, table=number)
            except InvalidInputError as err:
                faults += err.faults
                continue
            where_of.setdefault(name, []).append(number)
            names.append(name)
        plan.append(tuple(names))
    for name, numbers in where_of.items():
        if len(numbers) > 1:
            faults.append(C.SEATED_TWICE({**e.subjects, "player": name}, tables=numbers))
    if faults:
        raise InvalidInputError(faults)
    old = {i: tb for i, tb in enumerate(e.tables)}
    new = tuple(replace(old[i], seats=s) if i in old else m.Table(seats=s)
                for i, s in enumerate(plan))
    return Applied(checked(t.with_evening(replace(e, tables=new)), e.date), None)


def _swap_seats(t: m.Tournament, cmd: SwapSeats, checked: _Checker) -> Applied[None]:
    e = evening_of(t, cmd.date)
    _not_played(e)
    names = [player_of(t, n, **e.subjects) for n in (cmd.a, cmd.b)]
    if names[0] == names[1]:
        raise InvalidInputError(SWAP_SAME({**e.subjects, "player": names[0]}))
    seated = e.seated()
    for n in names:
        if n not in seated:
            raise InvalidInputError(NOT_SEATED({**e.subjects, "player": n}))
    current = Seating(tuple(tb.seats for tb in e.tables), SeatingCost(0, 0, 0, 0))
    swapped = swap_in_seating(current, names[0], names[1])
    new = tuple(replace(tb, seats=s) for tb, s in zip(e.tables, swapped.tables, strict=True))
    return Applied(checked(t.with_evening(replace(e, tables=new)), e.date), None)


def stage_tables(t: m.Tournament, stage: str) -> list[list[str]]:
    """The tables of the semifinal or the final as the ranking seats them (R18); refused,
    with the reasons, while that stage cannot be seated yet."""
    if stage not in ("semifinal", "final"):
        raise InvalidInputError(NOT_A_STAGE(value=str(stage)[:40]))
    stages = compute_stages(t)
    tables = stages.semifinal_tables if stage == "semifinal" else (
        (stages.finalists,) if stages.finalists else None)
    if not tables:
        why = [p for p in stages.pending if p.subjects.get("stage") == stage] or list(
            stages.pending)
        raise IllegalActionError(STAGE_NOT_READY(
            {"stage": stage}, reasons=[{"code": p.code, "subjects": dict(p.subjects),
                                        "params": dict(p.params)} for p in why] or "-"))
    return [list(x) for x in tables]


def _seat_stage(t: m.Tournament, cmd: SeatStage, checked: _Checker) -> Applied[None]:
    tables = stage_tables(t, cmd.stage)
    opened = _open_evening(t, OpenEvening(cmd.date, stage=cmd.stage), checked).tournament
    seats = tuple(tuple(x) for x in tables)
    return _set_tables(opened, SetTables(cmd.date, seats), checked)


# --------------------------------------------------------------------------------------------
# results


def _named(table: m.Table, winners: Sequence[str] | None, eliminated: Sequence[str] | None
           ) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if winners is not None:
        out["winners"] = frozenset(_at_table(table, winners))
    if eliminated is not None:
        out["eliminated"] = tuple(_at_table(table, eliminated))
    return out


def _enter_sheet(t: m.Tournament, cmd: EnterSheet, checked: _Checker) -> Applied[None]:
    e = evening_of(t, cmd.date)
    table = _table(e, cmd.table)
    where = {**e.subjects, "table": cmd.table}
    try:
        parsed = parse_sheet(cmd.sheet, ruleset=sheet_ruleset(t.ruleset_name, t.ruleset_version))
    except RisikoError as err:
        raise InvalidInputError([f.at(**where) for f in err.faults]) from None
    seated = {name_key(p): p for p in table.seats}
    seats = tuple(replace(s, player=seated.get(name_key(s.player), s.player))
                  for s in parsed.seats)
    result = replace(table, sheet=replace(parsed, seats=seats), scores=None,
                     risiko=frozenset(), abandoned=frozenset(_at_table(table, cmd.abandoned)),
                     **_named(table, cmd.winners, cmd.eliminated))
    return Applied(checked(t.with_evening(_with_table(e, cmd.table, result)), e.date), None)


def _enter_scores(t: m.Tournament, cmd: EnterScores, checked: _Checker) -> Applied[None]:
    e = evening_of(t, cmd.date)
    table = _table(e, cmd.table)
    where = {**e.subjects, "table": cmd.table}
    faults: list[Fault] = []
    values: dict[str, int] = {}
    for name, value in zip(_at_table(table, cmd.scores), cmd.scores.values(), strict=True):
        if isinstance(value, bool) or not isinstance(value, int):
            faults.append(SCORE_NOT_WHOLE({**where, "player": name}, value=repr(value)[:40]))
        elif value < 0:
            faults.append(SCORE_NEGATIVE({**where, "player": name}, score=value))
        else:
            values[name] = value
    top = t.ruleset.objective_score
    made = _at_table(table, cmd.risiko)
    for p in made:
        if p in table.seats and values.get(p, top) != top:
            faults.append(RISIKO_SCORE({**where, "player": p}, max=top))
    if faults:
        raise InvalidInputError(faults)
    scores = m.scores_in_seat_order(table.seats, values.items())
    result = replace(table, sheet=None, scores=scores, risiko=frozenset(made),
                     abandoned=frozenset(_at_table(table, cmd.abandoned)),
                     **_named(table, cmd.winners, cmd.eliminated))
    return Applied(checked(t.with_evening(_with_table(e, cmd.table, result)), e.date), None)


# --------------------------------------------------------------------------------------------
# penalties, appeals, discipline


def penalties(t: m.Tournament) -> list[tuple[int, m.Evening, int | None, m.Penalty]]:
    """Every penalty numbered from 1: ``(number, evening, table or None, penalty)``, evenings
    by date, each evening's table penalties (by table) then its ranking penalties."""
    out: list[tuple[int, m.Evening, int | None, m.Penalty]] = []
    for e in sorted(t.evenings, key=lambda e: e.date):
        for number, table in enumerate(e.tables, start=1):
            out += [(0, e, number, p) for p in table.penalties]
        out += [(0, e, None, p) for p in e.penalties]
    return [(i, e, n, p) for i, (_, e, n, p) in enumerate(out, start=1)]


def _penalty(t: m.Tournament, cmd: Penalty, checked: _Checker) -> Applied[tuple[int, str]]:
    e = evening_of(t, cmd.date)
    name = player_of(t, cmd.player, **e.subjects, field="penalties")
    where = {**e.subjects, "player": name}
    if cmd.unit not in ("table", "ranking"):
        raise InvalidInputError(BAD_UNIT(where, value=str(cmd.unit)[:20]))
    if cmd.points >= 0:
        raise InvalidInputError(C.PENALTY_NOT_NEGATIVE(where, points=cmd.points,
                                                       unit=cmd.unit))
    if not cmd.reason.strip():
        raise InvalidInputError(NO_REASON(where))
    try:
        minute = None if not cmd.at or not cmd.at.strip() else parse_clock(cmd.at)
    except InvalidInputError as err:
        raise InvalidInputError([f.at(**where, field="at") for f in err.faults]) from None
    pen = m.Penalty(name, cmd.points, cmd.reason.strip(), cmd.referee, minute)
    if cmd.unit == "table":
        number = cmd.table if cmd.table is not None else e.table_of(name)
        if number is None or not 1 <= number <= len(e.tables) or (
                name not in e.tables[number - 1].seats):
            raise InvalidInputError(NOT_SEATED(where))
        table = e.tables[number - 1]
        changed = _with_table(e, number, replace(table, penalties=(*table.penalties, pen)))
    else:
        changed = replace(e, penalties=(*e.penalties, pen))
    new = checked(t.with_evening(changed), e.date)
    mine = [i for i, ev, _n, p in penalties(new) if ev.date == e.date and p is pen]
    return Applied(new, (mine[-1], name))


def _appeal(t: m.Tournament, cmd: Appeal, checked: _Checker) -> Applied[None]:
    found = [x for x in penalties(t) if x[0] == cmd.number]
    if not found:
        raise InvalidInputError(NO_PENALTY(number=cmd.number, count=len(penalties(t))))
    _, e, table_no, pen = found[0]
    if cmd.outcome not in m.APPEAL_OUTCOMES:
        raise InvalidInputError(BAD_OUTCOME(value=str(cmd.outcome)[:20],
                                            known=list(m.APPEAL_OUTCOMES)))
    at = {**e.subjects, "player": pen.player}
    if cmd.outcome == "reduced" and cmd.points is None:
        raise InvalidInputError(C.APPEAL_NO_POINTS(at, low=pen.points + 1))
    if cmd.outcome == "reduced" and (
            isinstance(cmd.points, bool) or not isinstance(cmd.points, int)
            or not pen.points < cmd.points <= 0):
        raise InvalidInputError(C.APPEAL_RANGE(at, points=pen.points,
                                               reduced=repr(cmd.points)[:40]))
    decided = replace(pen, appeal=m.Appeal(
        cmd.outcome, cmd.points if cmd.outcome == "reduced" else None,
        cmd.referee, cmd.reason))

    def swap(items: tuple[m.Penalty, ...]) -> tuple[m.Penalty, ...]:
        return tuple(decided if p is pen else p for p in items)

    if table_no is None:
        changed = replace(e, penalties=swap(e.penalties))
    else:
        table = e.tables[table_no - 1]
        changed = _with_table(e, table_no, replace(table, penalties=swap(table.penalties)))
    return Applied(checked(t.with_evening(changed), e.date), None)


def _discipline(t: m.Tournament, cmd: Discipline, checked: _Checker) -> Applied[str]:
    e = evening_of(t, cmd.date)
    name = player_of(t, cmd.player, **e.subjects, field="discipline")
    if cmd.level not in m.DISCIPLINE_LEVELS:
        raise InvalidInputError(BAD_LEVEL({**e.subjects, "player": name},
                                          value=str(cmd.level)[:20],
                                          known=list(m.DISCIPLINE_LEVELS)))
    record = m.Discipline(name, cmd.level, cmd.reason, cmd.referee, cmd.table)
    changed = replace(e, discipline=(*e.discipline, record))
    return Applied(checked(t.with_evening(changed), e.date), name)


def _set_format(t: m.Tournament, cmd: SetFormat, checked: _Checker) -> Applied[None]:
    fmt = TournamentFormat.from_dict(dict(cmd.format))
    return Applied(checked.whole(replace(t, format=fmt)), None)


_Handler = Callable[[m.Tournament, Any, _Checker], Applied[Any]]
_HANDLERS: dict[type, _Handler] = {
    AddPlayers: _add_players, CarryOver: _carry_over, Draw: _draw,
    OpenEvening: _open_evening, RecordArrival: _record_arrival, SeatTables: _seat_tables,
    SetTables: _set_tables, SwapSeats: _swap_seats, SeatStage: _seat_stage,
    EnterSheet: _enter_sheet, EnterScores: _enter_scores, Penalty: _penalty,
    Appeal: _appeal, Discipline: _discipline, SetFormat: _set_format,
}
