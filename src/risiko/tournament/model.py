"""The recorded facts of a club tournament, as plain frozen dataclasses (no Django).

Vocabulary (DOMAIN.md glossary): a *tournament* has *players*, a *ruleset* (name and version)
and a *format*; it is played over *evenings* (serate), each with a *stage*
(``qualifying`` | ``semifinal`` | ``final``) and a *schedule* (R2/R3 times); an evening
records *arrivals* (R3), *tables* (seat order = turn order) with their result, table
*penalties* (table points: R5 and referees) and ranking penalties (ranking points: R13 and
referees), *appeals* on penalties (preamble), *disciplinary records* (R10). The tournament
also records *carry-over* points (R17) and *draws of lots* for shared positions straddling a
cut (R18 reading).

Everything here is a fact as entered; nothing is derived except in small properties. The
rankings are computed from these facts by :mod:`.standings` and :mod:`.finals`, so a
correction is a new set of facts and the ranking is simply recomputed.

Units: times are minutes after midnight, local time of the club (Europe/Rome, summer time
included), built with :func:`parse_clock` and shown with :func:`clock_name`; table scores and
table penalties are *table points*; carry-over, ranking penalties and the R13 abandonment
penalty are *ranking points*. Penalty points are negative numbers (``-7``).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, Literal, get_args

from ..faults import Fault, InvalidInputError, define, define_words
from ..ruleset import Ruleset, get_ruleset
from ..sheet import Sheet, score_sheet
from .ranking import RankingPoints, ranking_points_faults

__all__ = [
    "APPEAL_OUTCOMES",
    "ARRIVAL_CLASSES",
    "DAY_BREAK",
    "DISCIPLINE_LEVELS",
    "ENTRANT_FIELDS",
    "EVENING_YEARS",
    "FORMATS",
    "MINUTES_PER_DAY",
    "STAGES",
    "Appeal",
    "AppealOutcome",
    "Arrival",
    "ArrivalClass",
    "CarryOver",
    "Discipline",
    "DisciplineLevel",
    "Draw",
    "EntrantsOverride",
    "Evening",
    "FinalistsRule",
    "Penalty",
    "Player",
    "Schedule",
    "SeatResult",
    "Stage",
    "Table",
    "Tournament",
    "TournamentFormat",
    "check_evening_date",
    "clock_name",
    "evening_date_fault",
    "get_format",
    "parse_clock",
]

Stage = Literal["qualifying", "semifinal", "final"]
STAGES: tuple[Stage, ...] = get_args(Stage)

ArrivalClass = Literal["on_time", "late", "excluded"]
ARRIVAL_CLASSES: tuple[ArrivalClass, ...] = get_args(ArrivalClass)

AppealOutcome = Literal["upheld", "reduced", "annulled"]
APPEAL_OUTCOMES: tuple[AppealOutcome, ...] = get_args(AppealOutcome)

#: R10 scopes: a warning, expulsion from the table, from the tournament, from the club
DisciplineLevel = Literal["warning", "table", "tournament", "club"]
DISCIPLINE_LEVELS: tuple[DisciplineLevel, ...] = get_args(DisciplineLevel)

FinalistsRule = Literal["top", "table_winners"]

#: Clock times earlier than this (minutes, 06:00) belong to the night after the evening:
#: an arrival at "00:05" is 24:05 of the evening, not 5 minutes after midnight before it.
DAY_BREAK = 6 * 60

MINUTES_PER_DAY = 24 * 60


# --------------------------------------------------------------------------------------------
# evening dates

#: the years an evening may fall in, first and last (a club's seasons): a date outside them
#: is a slip of the keyboard (9999-12-31), refused at every door so that the standings'
#: date arithmetic never leaves the calendar
EVENING_YEARS = (2000, 2099)

EVENING_DATE_RANGE = define("time.evening_date_range", "",
                            "an evening falls in the years {low} to {high}, not on {date}",
                            located=True)


def evening_date_fault(day: _dt.date, **subjects: Any) -> Fault | None:
    """The fault of an evening ``day`` outside :data:`EVENING_YEARS` (None inside), naming
    ``subjects`` (e.g. ``evening=2``).

    >>> evening_date_fault(_dt.date(2027, 3, 2)) is None
    True
    >>> evening_date_fault(_dt.date(9999, 12, 31)).message("en")
    'an evening falls in the years 2000 to 2099, not on 9999-12-31'
    """
    low, high = EVENING_YEARS
    if low <= day.year <= high:
        return None
    return EVENING_DATE_RANGE(subjects, date=day.isoformat(), low=low, high=high)


def check_evening_date(day: _dt.date, **subjects: Any) -> _dt.date:
    """``day`` when it is inside :data:`EVENING_YEARS`; else ``InvalidInputError``
    (``time.evening_date_range``) naming ``subjects``.

    >>> check_evening_date(_dt.date(1999, 12, 31))
    Traceback (most recent call last):
    ...
    risiko.faults.InvalidInputError: an evening falls in the years 2000 to 2099, not on 1999-12-31
    """
    fault = evening_date_fault(day, **subjects)
    if fault is not None:
        raise InvalidInputError(fault)
    return day


# --------------------------------------------------------------------------------------------
# clock


NOT_A_TIME = define("time.not_a_time", "R3",
                    "a time is 'HH:MM' (e.g. '21:10'), not {value!r}", located=True)
NOT_A_TIME_OF_DAY = define("time.out_of_range", "R3", "{value!r} is not a time of day",
                           located=True)
MORNING = define("time.morning", "R3",
                 "{value!r} would be a morning time: did you mean {suggestion}?", located=True)

_CLOCK = re.compile(
    r"""(?P<h>\d{1,2})(?:\s*[:.hH]\s*(?P<m>\d{2})(?:\s*[:.]\s*(?P<s>\d{2}))?)?
        \s*(?P<ampm>[aApP]\.?\s*[mM]\.?)?""", re.VERBOSE)
_COMPACT = re.compile(r"(?P<h>\d{1,2})(?P<m>\d{2})")


def parse_clock(text: str, *, evening: bool = True) -> int:
    """Minutes after midnight of the evening for a time as referees write it.

    ``"21:15"``, ``"21.15"``, ``"21h15"``, ``"9:15 pm"``, ``"2115"`` are all 21:15;
    seconds are dropped (R3: ``"21:10:59"`` is 21:10); ``"12 am"`` is midnight. Times before
    :data:`DAY_BREAK` (06:00) are after midnight and count as 24:00 + time. In an evening
    field (``evening``, the default: arrivals, phone notices, penalties, schedules) a morning
    time without ``am`` (``"9:15"``, ``"09:15"`` as a browser's time field sends it,
    ``"915"``) is refused with "did you mean 21:15?"; ``"9:15 am"`` is a morning time on
    purpose. ``evening=False`` reads a stored ``HH:MM`` as it is. Raises
    :class:`~risiko.faults.InvalidInputError` (a ValueError) naming the text for anything
    else.

    >>> [clock_name(parse_clock(t)) for t in ("21:15", "21.15", "21h15", "9:15 pm", "2115")]
    ['21:15', '21:15', '21:15', '21:15', '21:15']
    >>> parse_clock("00:05") == 24 * 60 + 5
    True
    >>> parse_clock("9:15")
    Traceback (most recent call last):
    ...
    risiko.faults.InvalidInputError: '9:15' would be a morning time: did you mean 21:15?
    """
    if not isinstance(text, str):
        raise InvalidInputError(NOT_A_TIME(value=text if _jsonable(text) else repr(text)))
    raw = text.strip()
    match = _CLOCK.fullmatch(raw)
    compact = None if match else _COMPACT.fullmatch(raw)
    if match is None and compact is None:
        raise InvalidInputError(NOT_A_TIME(value=text))
    found = match or compact
    assert found is not None
    hours = int(found["h"])
    minutes = int(found["m"] or 0)
    seconds = int(match["s"] or 0) if match else 0
    ampm = (match["ampm"] or "").lower()[:1] if match else ""
    if match and match["m"] is None and not ampm:  # "21" alone: not a time
        raise InvalidInputError(NOT_A_TIME(value=text))
    if minutes > 59 or seconds > 59 or hours > (12 if ampm else 23) or (ampm and hours == 0):
        raise InvalidInputError(NOT_A_TIME_OF_DAY(value=text))
    if ampm:
        hours = hours % 12 + (12 if ampm == "p" else 0)
    elif evening and DAY_BREAK // 60 <= hours < 12:
        suggestion = clock_name((hours + 12) * 60 + minutes)
        raise InvalidInputError(MORNING(value=text, suggestion=suggestion))
    value = hours * 60 + minutes
    return value + MINUTES_PER_DAY if value < DAY_BREAK else value


def _jsonable(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def clock_name(minutes: int) -> str:
    """``"HH:MM"`` for minutes after midnight (24:05 is shown ``"00:05"``)."""
    minutes %= MINUTES_PER_DAY
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# --------------------------------------------------------------------------------------------
# schedule

UNKNOWN_SCHEDULE_FIELD = define("time.unknown_schedule_field", "R2",
                                "unknown schedule field {key!r} (known: {known})", located=True)


@dataclass(frozen=True)
class Schedule:
    """The R2/R3 times of one evening, in minutes after midnight (see :func:`parse_clock`).

    R3: on time up to ``on_time_until`` (21:10); late, with ``late_penalty_turns`` (3) turns
    without reinforcements, moves or attacks, up to ``late_until`` (21:20); later arrivals
    are excluded, except that a phone notice made by ``phone_notice_by`` (21:10) admits them,
    with the same penalty, up to ``phoned_until`` (21:30). ``phone_notice_waives_penalty_until``
    (None under the reading chosen) lets a phone notice waive the penalty up to that time.
    R2: tables formed at ``tables_formed_at`` (21:20), the last 2 rounds called at
    ``last_rounds_call_at`` (23:30).
    """

    on_time_until: int = 21 * 60 + 10
    late_until: int = 21 * 60 + 20
    phoned_until: int = 21 * 60 + 30
    phone_notice_by: int = 21 * 60 + 10
    phone_notice_waives_penalty_until: int | None = None
    tables_formed_at: int = 21 * 60 + 20
    last_rounds_call_at: int = 23 * 60 + 30
    late_penalty_turns: int = 3

    @classmethod
    def from_ruleset(cls, ruleset: Ruleset, stage: Stage = "qualifying") -> Schedule:
        """The schedule of an evening of ``stage`` under ``ruleset`` (R2, R3).

        R18: the final starts at ``ruleset.final_starts_at`` (20:30) instead of
        ``tables_formed_at`` (21:20), and its arrival times move by the same amount (-50
        minutes: on time until 20:20, late until 20:30, phoned until 20:40, notice by 20:20).
        The call of the last 2 rounds (R2) is ``ruleset.final_last_rounds_call_at`` when set
        (club-milano@2: 23:30, as R2 says); else it moves too (club-milano@1: 22:40).

        >>> from risiko.ruleset import get_ruleset
        >>> clock_name(Schedule.from_ruleset(get_ruleset("club-milano@2"), "final")
        ...            .last_rounds_call_at)
        '23:30'
        >>> clock_name(Schedule.from_ruleset(get_ruleset("club-milano@1"), "final")
        ...            .last_rounds_call_at)
        '22:40'
        """
        waive = ruleset.phone_notice_waives_penalty_until
        base = cls(
            on_time_until=parse_clock(ruleset.on_time_until),
            late_until=parse_clock(ruleset.late_until),
            phoned_until=parse_clock(ruleset.phoned_until),
            phone_notice_by=parse_clock(ruleset.phone_notice_by),
            phone_notice_waives_penalty_until=None if waive is None else parse_clock(waive),
            tables_formed_at=parse_clock(ruleset.tables_formed_at),
            last_rounds_call_at=parse_clock(ruleset.last_rounds_call_at),
            late_penalty_turns=ruleset.late_penalty_turns,
        )
        if stage == "final":
            final = base.shifted(parse_clock(ruleset.final_starts_at) - base.tables_formed_at)
            call = ruleset.final_last_rounds_call_at
            return final if call is None else replace(final,
                                                      last_rounds_call_at=parse_clock(call))
        return base

    def shifted(self, minutes: int) -> Schedule:
        """Every time moved by ``minutes`` (negative = earlier)."""
        waive = self.phone_notice_waives_penalty_until
        return replace(
            self,
            on_time_until=self.on_time_until + minutes,
            late_until=self.late_until + minutes,
            phoned_until=self.phoned_until + minutes,
            phone_notice_by=self.phone_notice_by + minutes,
            phone_notice_waives_penalty_until=None if waive is None else waive + minutes,
            tables_formed_at=self.tables_formed_at + minutes,
            last_rounds_call_at=self.last_rounds_call_at + minutes,
        )

    def with_times(self, times: Mapping[str, str | int | None]) -> Schedule:
        """A copy with some fields replaced; times as referees write them (see
        :func:`parse_clock`). Raises :class:`~risiko.faults.InvalidInputError` for an unknown
        field or a bad time, naming the field."""
        known = [f.name for f in fields(self)]
        changes: dict[str, Any] = {}
        faults = []
        for key, value in times.items():
            if key not in known:
                faults.append(UNKNOWN_SCHEDULE_FIELD({"field": "schedule"}, key=key,
                                                     known=known))
            elif key == "late_penalty_turns" or value is None or isinstance(value, int):
                changes[key] = value
            else:
                try:
                    changes[key] = parse_clock(value)
                except InvalidInputError as err:
                    faults += [f.at(field=f"schedule {key}") for f in err.faults]
        if faults:
            raise InvalidInputError(faults)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: times as ``"HH:MM"``, ``late_penalty_turns`` as an int."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "late_penalty_turns" or value is None:
                out[f.name] = value
            else:
                out[f.name] = clock_name(value)
        return out


# --------------------------------------------------------------------------------------------
# people and facts


@dataclass(frozen=True)
class Player:
    """A player (a person), identified by ``name`` within a tournament.

    Closing line of the regulation: ``accepted_ruleset`` (``name@version``) and
    ``accepted_on`` record which regulation the member accepted and when.
    """

    name: str
    accepted_ruleset: str | None = None
    accepted_on: _dt.date | None = None


@dataclass(frozen=True)
class Arrival:
    """A player's arrival at an evening (R3), to the minute (see :func:`parse_clock`).

    ``phoned`` is True when the player phoned the organiser about his lateness; ``phoned_at``
    (optional, minutes) is when: a notice later than the schedule's ``phone_notice_by`` does
    not count.
    """

    player: str
    at: int
    phoned: bool = False
    phoned_at: int | None = None


@dataclass(frozen=True)
class Appeal:
    """The outcome of an appeal on a penalty (preamble), decided by the evening's chief
    referee: ``upheld`` (points unchanged), ``reduced`` (to ``points``, same unit, closer to
    zero) or ``annulled`` (0)."""

    outcome: AppealOutcome
    points: int | None = None
    referee: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Penalty:
    """A penalty given by a referee (preamble, R5, R13): ``points`` < 0 in table points (on a
    table) or ranking points (on an evening), with reason, referee, time (minutes or None)
    and an optional appeal."""

    player: str
    points: int
    reason: str = ""
    referee: str = ""
    at: int | None = None
    appeal: Appeal | None = None

    @property
    def effective(self) -> int:
        """The points that count after the appeal: original, reduced, or 0 if annulled."""
        if self.appeal is None or self.appeal.outcome == "upheld":
            return self.points
        if self.appeal.outcome == "annulled":
            return 0
        return self.points if self.appeal.points is None else self.appeal.points


@dataclass(frozen=True)
class Discipline:
    """A disciplinary record (R10): ``level`` warning | table (expelled from the table) |
    tournament | club, with reason, referee and the table number (1-based) if any.

    A player expelled from the tournament or the club is never seated at a later evening
    of the tournament (R10 reading)."""

    player: str
    level: DisciplineLevel
    reason: str = ""
    referee: str = ""
    table: int | None = None


@dataclass(frozen=True)
class CarryOver:
    """R17: ranking points a new member (1 or 2 games played) keeps from the previous
    tournament, confirmed per player by a referee."""

    player: str
    points: int
    referee: str = ""
    note: str = ""


@dataclass(frozen=True)
class Draw:
    """A draw of lots (R18 reading) ordering players who share a position that straddles a
    cut: ``stage`` is the stage it seats (``semifinal``: the qualifying ranking;
    ``final``: the order after the semifinal), ``order`` the players as drawn, best first."""

    stage: Stage
    order: tuple[str, ...]
    referee: str = ""
    note: str = ""


# --------------------------------------------------------------------------------------------
# tables


@dataclass(frozen=True)
class SeatResult:
    """One seat's result at a table.

    ``base`` is the table score from the sheet (R1, R5, R15, R16) or as entered; ``penalty``
    the sum of the seat's table penalties after appeals (<= 0); ``score`` = ``base`` +
    ``penalty`` (``base`` is 0 for a seat that left the game, R13); ``risiko`` True for a
    completed objective; ``abandoned`` True when the player left without being eliminated
    (R13: also ``ruleset.abandon_ranking_penalty`` ranking points lost).
    """

    player: str
    base: int
    penalty: int
    score: int
    risiko: bool
    abandoned: bool


@dataclass(frozen=True)
class Table:
    """A table of an evening: ``seats`` are the players in turn order (seat 1 plays first).

    The result is either ``sheet`` (an end-of-game sheet, scored by :func:`score_sheet`) or
    ``scores`` (table scores entered directly, ``((player, score), ...)``, with ``risiko``
    the players who completed their objective); neither = not yet played. ``abandoned``
    lists players who left the game (R13; a sheet seat marked ``abandoned`` counts too);
    ``penalties`` are table penalties in table points. ``winners`` names the table's
    winners where the club breaks a tie at the table otherwise than by table score (else
    the highest table score wins, see :func:`risiko.tournament.ranking.table_winners`);
    ``eliminated`` is the order of elimination, first out first, for the ranking-point
    formulas that need it.
    """

    seats: tuple[str, ...]
    sheet: Sheet | None = None
    scores: tuple[tuple[str, int], ...] | None = None
    risiko: frozenset[str] = frozenset()
    abandoned: frozenset[str] = frozenset()
    penalties: tuple[Penalty, ...] = ()
    winners: frozenset[str] = frozenset()
    eliminated: tuple[str, ...] = ()

    @property
    def played(self) -> bool:
        """True when a result (sheet or scores) is recorded."""
        return self.sheet is not None or self.scores is not None

    def left_the_game(self) -> frozenset[str]:
        """Players who left the game (R13): ``abandoned`` plus sheet seats marked so."""
        marked = {s.player for s in self.sheet.seats if s.abandoned} if self.sheet else set()
        return self.abandoned | marked

    def results(self, ruleset: Ruleset) -> tuple[SeatResult, ...]:
        """Every seat's :class:`SeatResult`, in seat order; () if not played.

        Players missing from ``scores`` count 0. Raises :class:`risiko.sheet.SheetError`
        only for a sheet whose ruleset cannot be loaded. Remembered by value (the table and
        the ruleset are frozen): the standings of every evening, and of the tournament
        loaded again after a change elsewhere, score each table once.
        """
        if not self.played:
            return ()
        return _table_results(self, ruleset)

    def _results(self, ruleset: Ruleset) -> tuple[SeatResult, ...]:
        gone = self.left_the_game()
        base: dict[str, int] = {}
        risiko: set[str] = set()
        if self.sheet is not None:
            sheet = self.sheet
            if any(s.player in gone and not s.abandoned for s in sheet.seats):
                sheet = replace(sheet, seats=tuple(
                    replace(s, abandoned=True) if s.player in gone else s for s in sheet.seats))
            for seat in score_sheet(sheet, ruleset).seats:
                base[seat.player] = seat.score
                if seat.risiko:
                    risiko.add(seat.player)
        else:
            base = dict(self.scores or ())
            risiko = set(self.risiko)
        out: list[SeatResult] = []
        for player in self.seats:
            pen = sum(p.effective for p in self.penalties if p.player == player)
            b = 0 if player in gone else base.get(player, 0)
            out.append(SeatResult(player, b, pen, b + pen, player in risiko and player not in
                                  gone, player in gone))
        return tuple(out)


@lru_cache(maxsize=16384)
def _table_results(table: Table, ruleset: Ruleset) -> tuple[SeatResult, ...]:
    return table._results(ruleset)


@dataclass(frozen=True)
class Evening:
    """An evening (serata) of the tournament: ``date``, ``stage``, ``schedule`` (R2/R3),
    ``arrivals`` (R3), ``tables`` (numbered from 1 in this order), ``penalties`` (ranking
    points, referees), ``discipline`` (R10), ``absent`` (players known not to have come:
    a semifinalist or finalist listed here is not expected at the stage's table)."""

    date: _dt.date
    stage: Stage = "qualifying"
    schedule: Schedule = field(default_factory=Schedule)
    arrivals: tuple[Arrival, ...] = ()
    tables: tuple[Table, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    discipline: tuple[Discipline, ...] = ()
    absent: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        """``"2027-03-02 (qualifying)"``: how faults name the evening."""
        return f"{self.date.isoformat()} ({self.stage})"

    @property
    def subjects(self) -> dict[str, str]:
        """``{"evening": "2027-03-02", "stage": "qualifying"}``: the subjects of a fault of
        this evening (its message starts ``evening 2027-03-02 (qualifying)``)."""
        return {"evening": self.date.isoformat(), "stage": self.stage}

    def seated(self) -> list[str]:
        """Every player seated this evening, in table and seat order."""
        return [p for t in self.tables for p in t.seats]

    def table_of(self, player: str) -> int | None:
        """The 1-based number of the player's table, or None if not seated."""
        for i, t in enumerate(self.tables, start=1):
            if player in t.seats:
                return i
        return None

    def arrival_of(self, player: str) -> Arrival | None:
        """The player's recorded arrival (the last one if recorded twice), or None."""
        found = None
        for a in self.arrivals:
            if a.player == player:
                found = a
        return found


# --------------------------------------------------------------------------------------------
# format

FORMAT_UNKNOWN = define("format.unknown", "",
                        "unknown tournament format {name!r} (known: {known})", located=True)
FORMAT_UNKNOWN_FIELDS = define("format.unknown_fields", "",
                               "unknown format fields: {fields} (known: {known})", located=True)
FORMAT_BAD_VALUE = define("format.bad_value", "",
                          "format {parameter} must be {expected}, not {value!r}", located=True)
FORMAT_UNKNOWN_TIE_BREAK = define("format.unknown_tie_break", "R18", "format {format}: "
                                  "unknown tie-break {metric!r} (known: {known})", located=True)
FORMAT_NEGATIVE = define("format.negative", "",
                         "format {format}: {parameter} must not be negative", located=True)
FORMAT_ENTRANT_NUMBERS = define("format.entrant_numbers", "R18", "format {format}: "
                                "semifinal_tables must number the entrants 1..{count} once "
                                "each", located=True)
FORMAT_PROBLEMS = {
    "no_tie_break": define("format.no_tie_break", "R18", "format {format}: "
                  "tie_breaks needs at least one metric", located=True),
    "best_of_low": define("format.best_of_low", "R18", "format {format}: "
                  "best_of must be at least 1", located=True),
    "best_of_and_discard": define("format.best_of_and_discard", "R18", "format {format}: "
                  "use best_of or discard_worst, not both", located=True),
    "semifinal_size": define("format.semifinal_size", "R18", "format {format}: "
                  "a semifinal table has 3 to 6 seats", located=True),
    "ripescati_over": define("format.ripescati_over", "R18", "format {format}: "
                  "more ripescati than semifinal seats", located=True),
    "ripescati_no_semifinal": define("format.ripescati_no_semifinal", "R18", "format {format}: "
                  "ripescati need a semifinal", located=True),
    "final_size": define("format.final_size", "R18", "format {format}: "
                  "the final table has 3 to 6 seats", located=True),
    "direct_over": define("format.direct_over", "R18", "format {format}: "
                  "more players straight to the final than seats", located=True),
    "winners_no_semifinal": define("format.winners_no_semifinal", "R18", "format {format}: "
                  "table_winners needs a semifinal", located=True),
    "winners_over": define("format.winners_over", "R18", "format {format}: "
                  "more table winners than final seats", located=True),
    "entrants_short": define("format.entrants_short", "R18", "format {format}: "
                  "fewer semifinal entrants than final seats to fill", located=True),
    "discard_from_alone": define("format.discard_from_alone", "", "format {format}: "
                  "discard_from_evening needs discard_worst", located=True),
    "entrants_max_players": define("format.entrants_max_players", "", "format {format}: "
                  "max_players must be at least 1", located=True),
    "entrants_semifinal": define("format.entrants_semifinal", "", "format {format}: "
                  "by_entrants may not add or remove the semifinal", located=True),
    "entrants_order": define("format.entrants_order", "", "format {format}: "
                  "by_entrants items go by increasing max_players, each once", located=True),
    "entrants_fields": define("format.entrants_fields", "", "by_entrants may change "
                  "{known}, not {fields}", located=True),
}
define_words("expected", ("a list of metric names", "lists of entrant numbers", "text",
                          "one of top, table_winners", "an integer or null", "an integer"))


#: the format fields a ``by_entrants`` override may change (the stages after qualifying)
ENTRANT_FIELDS = ("direct_to_final", "semifinal_tables", "ripescati", "ripescati_min_evenings",
                  "finalists", "finalists_rule")


@dataclass(frozen=True)
class EntrantsOverride:
    """One item of ``by_entrants``: with at most ``max_players`` eligible players at the end
    of the qualifying stage, the format fields of ``changes`` (a subset of
    :data:`ENTRANT_FIELDS`, JSON values as pairs) replace the format's."""

    max_players: int
    changes: tuple[tuple[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"max_players": N, field: value ...}``."""
        out: dict[str, Any] = {"max_players": self.max_players}
        for key, value in self.changes:
            out[key] = [list(t) for t in value] if key == "semifinal_tables" else value
        return out


@dataclass(frozen=True)
class TournamentFormat:
    """How a club turns evenings into a ranking, a semifinal and a final (data, not code).

    Qualifying ranking (R18 reading): ``ranking_points`` says how a table's scores become
    ranking points (:class:`risiko.tournament.ranking.RankingPoints`; default ``table``:
    ranking points = table points, Club Milano); ``tie_breaks`` names the metrics of
    :data:`risiko.tournament.standings.METRICS`, compared in order; ``best_of`` N counts only
    the N best qualifying tables (an absence counts as the worst, i.e. 0 and dropped
    first); ``discard_worst`` drops that many worst evenings (only once more evenings than
    that have been held, and ``discard_from_evening`` evenings or more); ``min_evenings``
    is the number of qualifying evenings played to be eligible for the next stages.

    Next stages: the first ``direct_to_final`` eligible players go straight to the final; the
    next ones, then ``ripescati`` players picked by best single table score among the others
    ("ripescato", who must have played ``ripescati_min_evenings`` qualifying evenings), are
    the semifinal *entrants*, numbered 1..E in that order; ``semifinal_tables`` lists the
    entrant numbers of each semifinal table (R18: 1, 2, 8, 9, 10 and 3..7); an empty tuple
    means no semifinal. ``finalists`` players play the final: with ``finalists_rule``
    ``top`` the first ones after the semifinal; with ``table_winners`` each semifinal
    table's winner, then the best others. ``by_entrants`` changes these stage fields by the
    number of eligible players at the end of the qualifying stage (:meth:`for_entrants`).
    """

    name: str = "club-milano"
    tie_breaks: tuple[str, ...] = ("points", "risiko", "best", "penalties")
    best_of: int | None = None
    discard_worst: int = 0
    min_evenings: int = 0
    direct_to_final: int = 0
    semifinal_tables: tuple[tuple[int, ...], ...] = ((1, 2, 8, 9, 10), (3, 4, 5, 6, 7))
    ripescati: int = 0
    finalists: int = 5
    finalists_rule: FinalistsRule = "top"
    ranking_points: RankingPoints = field(default_factory=RankingPoints)
    discard_from_evening: int = 0
    ripescati_min_evenings: int = 0
    by_entrants: tuple[EntrantsOverride, ...] = ()

    @property
    def entrants(self) -> int:
        """Number of semifinal entrants (E, the seats of all semifinal tables)."""
        return sum(len(t) for t in self.semifinal_tables)

    @property
    def qualified_by_rank(self) -> int:
        """Semifinal entrants taken by qualifying rank (E minus the ripescati)."""
        return self.entrants - self.ripescati

    def for_entrants(self, players: int) -> TournamentFormat:
        """The format that applies with ``players`` eligible players at the end of the
        qualifying stage: the first ``by_entrants`` item with ``max_players`` >= players
        changes the stage fields; none fits: this format.

        >>> f = TournamentFormat.from_dict({"by_entrants": [
        ...     {"max_players": 18, "direct_to_final": 1,
        ...      "semifinal_tables": [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11]]}]})
        >>> f.for_entrants(18).direct_to_final, f.for_entrants(18).entrants
        (1, 12)
        >>> f.for_entrants(19).direct_to_final, f.for_entrants(19).entrants
        (0, 10)
        """
        for item in self.by_entrants:
            if players <= item.max_players:
                return self._apply(item)
        return self

    def _apply(self, item: EntrantsOverride) -> TournamentFormat:
        changes: dict[str, Any] = {}
        for key, value in item.changes:
            changes[key] = (tuple(tuple(t) for t in value) if key == "semifinal_tables"
                            else value)
        return replace(self, **changes)

    def problems(self) -> list[Fault]:
        """Inconsistencies of the parameters ([] when usable), each naming the format."""
        out: list[Fault] = []
        from .standings import METRICS  # late import: standings imports this module

        f = {"format": self.name}
        for name in self.tie_breaks:
            if name not in METRICS:
                out.append(FORMAT_UNKNOWN_TIE_BREAK(f, metric=name, known=list(METRICS)))
        if not self.tie_breaks:
            out.append(FORMAT_PROBLEMS["no_tie_break"](f))
        out += ranking_points_faults(self.ranking_points.to_dict(), self.name)
        if self.best_of is not None and self.best_of < 1:
            out.append(FORMAT_PROBLEMS["best_of_low"](f))
        if self.best_of is not None and self.discard_worst:
            out.append(FORMAT_PROBLEMS["best_of_and_discard"](f))
        for label, value in (("discard_worst", self.discard_worst),
                             ("min_evenings", self.min_evenings),
                             ("direct_to_final", self.direct_to_final),
                             ("ripescati", self.ripescati),
                             ("discard_from_evening", self.discard_from_evening),
                             ("ripescati_min_evenings", self.ripescati_min_evenings)):
            if value < 0:
                out.append(FORMAT_NEGATIVE(f, parameter=label))
        if self.discard_from_evening and not self.discard_worst:
            out.append(FORMAT_PROBLEMS["discard_from_alone"](f))
        out += self._stage_problems()
        sizes = [item.max_players for item in self.by_entrants]
        for item in self.by_entrants:
            at = {"format": f"{self.name} (by_entrants, max_players {item.max_players})"}
            if item.max_players < 1:
                out.append(FORMAT_PROBLEMS["entrants_max_players"](at))
            other = replace(self._apply(item), name=at["format"])
            if bool(other.semifinal_tables) != bool(self.semifinal_tables):
                out.append(FORMAT_PROBLEMS["entrants_semifinal"](at))
            out += other._stage_problems()
        if sizes != sorted(set(sizes)):
            out.append(FORMAT_PROBLEMS["entrants_order"](f))
        return out

    def _stage_problems(self) -> list[Fault]:
        out: list[Fault] = []
        f = {"format": self.name}
        numbers = sorted(n for t in self.semifinal_tables for n in t)
        if numbers != list(range(1, len(numbers) + 1)):
            out.append(FORMAT_ENTRANT_NUMBERS(f, count=len(numbers)))
        if any(not 3 <= len(t) <= 6 for t in self.semifinal_tables):
            out.append(FORMAT_PROBLEMS["semifinal_size"](f))
        if self.semifinal_tables and self.ripescati > self.entrants:
            out.append(FORMAT_PROBLEMS["ripescati_over"](f))
        if not self.semifinal_tables and self.ripescati:
            out.append(FORMAT_PROBLEMS["ripescati_no_semifinal"](f))
        if not 3 <= self.finalists <= 6:
            out.append(FORMAT_PROBLEMS["final_size"](f))
        if self.direct_to_final > self.finalists:
            out.append(FORMAT_PROBLEMS["direct_over"](f))
        if self.finalists_rule == "table_winners":
            if not self.semifinal_tables:
                out.append(FORMAT_PROBLEMS["winners_no_semifinal"](f))
            elif self.direct_to_final + len(self.semifinal_tables) > self.finalists:
                out.append(FORMAT_PROBLEMS["winners_over"](f))
        if self.semifinal_tables and (self.finalists - self.direct_to_final) > self.entrants:
            out.append(FORMAT_PROBLEMS["entrants_short"](f))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON form (tuples as lists)."""
        return {
            "name": self.name,
            "tie_breaks": list(self.tie_breaks),
            "best_of": self.best_of,
            "discard_worst": self.discard_worst,
            "min_evenings": self.min_evenings,
            "direct_to_final": self.direct_to_final,
            "semifinal_tables": [list(t) for t in self.semifinal_tables],
            "ripescati": self.ripescati,
            "finalists": self.finalists,
            "finalists_rule": self.finalists_rule,
            "ranking_points": self.ranking_points.to_dict(),
            "discard_from_evening": self.discard_from_evening,
            "ripescati_min_evenings": self.ripescati_min_evenings,
            "by_entrants": [item.to_dict() for item in self.by_entrants],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: TournamentFormat | None = None
                  ) -> TournamentFormat:
        """``base`` (default: club-milano) with the fields of ``data`` replaced.

        Raises :class:`~risiko.faults.InvalidInputError` (a ValueError) for an unknown field,
        a value of the wrong type or parameters that do not fit together (see
        :meth:`problems`).
        """
        start = base or CLUB_MILANO_FORMAT
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInputError(FORMAT_UNKNOWN_FIELDS({"field": "format"}, fields=unknown,
                                                          known=sorted(known)))
        changes: dict[str, Any] = {}
        faults: list[Fault] = []
        for key, value in data.items():
            if key == "ranking_points":
                try:
                    changes[key] = RankingPoints.from_dict(
                        value, str(data.get("name", start.name)))
                except InvalidInputError as e:
                    faults.extend(e.faults)
            elif key == "by_entrants":
                entrants = _entrants(value, faults)
                if entrants is not None:
                    changes[key] = entrants
            else:
                ok, checked = _field_value(key, value, faults)
                if ok:
                    changes[key] = checked
        if faults:
            raise InvalidInputError(faults)
        fmt = replace(start, **changes)
        problems = fmt.problems()
        if problems:
            raise InvalidInputError(problems)
        return fmt


def _bad(faults: list[Fault], key: str, expected: str, value: Any) -> None:
    faults.append(FORMAT_BAD_VALUE({"field": "format"}, parameter=key, expected=expected,
                                   value=value if _jsonable(value) else repr(value)))


def _field_value(key: str, value: Any, faults: list[Fault]) -> tuple[bool, Any]:
    """A format field's value from JSON: ``(True, value)``, or ``(False, None)`` with a
    fault added when it has the wrong type."""
    if key == "tie_breaks":
        if not _str_list(value):
            _bad(faults, key, "a list of metric names", value)
            return False, None
        return True, tuple(value)
    if key == "semifinal_tables":
        if not isinstance(value, list) or not all(
                isinstance(t, list) and all(_is_int(n) for n in t) for t in value):
            _bad(faults, key, "lists of entrant numbers", value)
            return False, None
        return True, tuple(tuple(t) for t in value)
    if key == "name":
        if not isinstance(value, str) or not value:
            _bad(faults, key, "text", value)
            return False, None
        return True, value
    if key == "finalists_rule":
        if value not in get_args(FinalistsRule):
            _bad(faults, key, "one of top, table_winners", value)
            return False, None
        return True, value
    if key == "best_of":
        if value is not None and not _is_int(value):
            _bad(faults, key, "an integer or null", value)
            return False, None
        return True, value
    if not _is_int(value):
        _bad(faults, key, "an integer", value)
        return False, None
    return True, value


def _entrants(value: Any, faults: list[Fault]) -> tuple[EntrantsOverride, ...] | None:
    """``by_entrants`` from JSON, or None with the faults added."""
    if not isinstance(value, list) or not all(
            isinstance(item, Mapping) and _is_int(item.get("max_players")) for item in value):
        _bad(faults, "by_entrants", 'a list of {"max_players": N, ...}', value)
        return None
    out: list[EntrantsOverride] = []
    before = len(faults)
    for item in value:
        unknown = sorted(k for k in item if k != "max_players" and k not in ENTRANT_FIELDS)
        if unknown:
            faults.append(FORMAT_PROBLEMS["entrants_fields"](
                {"field": "format"}, fields=unknown, known=list(ENTRANT_FIELDS)))
            continue
        changes = []
        for key in sorted(k for k in item if k != "max_players"):
            ok, checked = _field_value(key, item[key], faults)
            if ok:
                changes.append((key, checked))
        out.append(EntrantsOverride(item["max_players"], tuple(changes)))
    return tuple(out) if len(faults) == before else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


CLUB_MILANO_FORMAT = TournamentFormat()


def _preset(name: str, ranking: dict[str, Any], tie_breaks: tuple[str, ...]
            ) -> TournamentFormat:
    return replace(CLUB_MILANO_FORMAT, name=name, tie_breaks=tie_breaks,
                   ranking_points=RankingPoints.from_dict(ranking, name))


#: Shipped formats by name: ``club-milano`` (the default) and presets of other Italian
#: clubs' ranking points (the stages stay Club Milano's until changed): ``win-bonus``
#: (+50 to the winner shared by tied winners, x1.25 at 5-player tables; points, wins,
#: best), and GestioneTorneo's types ``raduno`` (Raduno / Open / Nazionale: +50 to a sole
#: winner, +25 to each of two, x1.25 at 5), ``master`` (Master / Victory: thousandths),
#: ``torneo-gufo``, ``campionato-gufo`` (Campionato Gufo / Spartac) and ``placement``.
#: Other formats are objects in the season file (see docs/tournament.md).
FORMATS: dict[str, TournamentFormat] = {f.name: f for f in (
    CLUB_MILANO_FORMAT,
    _preset("win-bonus", {"formula": "win_bonus", "win_bonus": 50, "five_seat_factor": 1.25},
            ("points", "wins", "best")),
    _preset("raduno", {"formula": "win_bonus", "win_bonus": 50, "five_seat_factor": 1.25,
                       "max_sharing": 2}, ("points", "best_ranking")),
    _preset("master", {"formula": "thousandths"},
            ("points", "best_ranking", "second_best_ranking", "third_best_ranking",
             "previous_position")),
    _preset("torneo-gufo", {"formula": "placement_bonus"}, ("points", "wins", "best_ranking")),
    _preset("campionato-gufo", {"formula": "winner_gap"}, ("points", "wins", "table_points")),
    _preset("placement", {"formula": "placement"}, ("points", "wins", "best")),
)}


def get_format(name: str | None = None) -> TournamentFormat:
    """A shipped format by name (``club-milano`` when None); InvalidInputError (a
    ValueError) naming the known ones."""
    if name is None:
        return CLUB_MILANO_FORMAT
    fmt = FORMATS.get(name.strip().lower())
    if fmt is None:
        raise InvalidInputError(FORMAT_UNKNOWN({"field": "format"}, name=name,
                                               known=list(FORMATS)))
    return fmt


# --------------------------------------------------------------------------------------------
# tournament


@dataclass(frozen=True)
class Tournament:
    """A tournament: its facts, from which every ranking is computed.

    ``ruleset_name`` and ``ruleset_version`` name the ruleset it is played under (a preset of
    :mod:`risiko.ruleset`); ``evenings`` are kept in date order by :meth:`sorted`.
    """

    name: str
    players: tuple[Player, ...]
    ruleset_name: str = "club-milano"
    ruleset_version: int = 1
    format: TournamentFormat = CLUB_MILANO_FORMAT
    carry_over: tuple[CarryOver, ...] = ()
    evenings: tuple[Evening, ...] = ()
    draws: tuple[Draw, ...] = ()

    @property
    def ruleset(self) -> Ruleset:
        """The ruleset (:class:`~risiko.faults.InvalidInputError` if that name and version is
        not shipped)."""
        return get_ruleset(f"{self.ruleset_name}@{self.ruleset_version}")

    @property
    def player_names(self) -> tuple[str, ...]:
        """The players' names in registration order."""
        return tuple(p.name for p in self.players)

    def stage_evenings(self, stage: Stage) -> list[Evening]:
        """The evenings of ``stage`` in date order."""
        return sorted((e for e in self.evenings if e.stage == stage), key=lambda e: e.date)

    def evening(self, date: _dt.date) -> Evening:
        """The evening on ``date`` (KeyError if none)."""
        for e in self.evenings:
            if e.date == date:
                return e
        raise KeyError(date)

    def with_evening(self, evening: Evening) -> Tournament:
        """A copy with ``evening`` added, or replacing the evening of the same date."""
        others = tuple(e for e in self.evenings if e.date != evening.date)
        return replace(self, evenings=tuple(sorted((*others, evening), key=lambda e: e.date)))

    def sorted(self) -> Tournament:
        """A copy with evenings in date order."""
        return replace(self, evenings=tuple(sorted(self.evenings, key=lambda e: e.date)))


def scores_in_seat_order(
    seats: Iterable[str], scores: Iterable[tuple[str, int]]
) -> tuple[tuple[str, int], ...]:
    """Direct table scores in the canonical order: seat order, then any other name (a fault
    the checks report) by name. Where the scores come from (a file, a JSON column whose key
    order the database may change) does not change the facts."""
    order = {p: i for i, p in enumerate(seats)}
    return tuple(sorted(scores, key=lambda ps: (order.get(ps[0], len(order)), ps[0])))
