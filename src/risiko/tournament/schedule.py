"""Arrivals and lateness (R3), and the schedule of each evening (R2, R18).

R3 under the club-milano ruleset (times are the club's local time, Europe/Rome; seconds are
dropped, so 21:10:59 is 21:10)::

    arrival          no phone notice          phone notice made by 21:10
    <= 21:10         on_time                  on_time
    21:11 .. 21:20   late, 3 turns            late, 3 turns (reading: "comunque")
    21:21 .. 21:30   excluded                 late, 3 turns
    > 21:30          excluded                 excluded

A late seat may not place reinforcements, trade sets, attack or move during its first
``penalty_turns`` turns. The final starts at 20:30 (R18), so its arrival times are 50 minutes
earlier; the call of the last two rounds stays at 23:30 under club-milano@2 (see
:meth:`Schedule.from_ruleset`). Times are read by
:func:`~risiko.tournament.dates.parse_clock` (21:15, 21.15, 21h15, 9:15 pm, 2115).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..faults import (
    Fault,
    FaultKind,
    InvalidInputError,
    Severity,
    define,
    define_words,
    faults_json,
)
from ..ruleset import Ruleset
from .dates import (
    DAY_BREAK,
    MINUTES_PER_DAY,
    NOT_A_TIME,
    NOT_A_TIME_OF_DAY,
    clock_name,
    parse_clock,
)

if TYPE_CHECKING:  # the facts import the schedule (Evening.schedule)
    from .model import Arrival, ArrivalClass, Stage

__all__ = [
    "CLUB_TIMEZONE",
    "ArrivalRuling",
    "Schedule",
    "TimeLike",
    "classify",
    "classify_arrival",
    "minute_of",
    "schedule_for",
]

#: The club's local time zone (R3 reading: arrivals are recorded in local time).
CLUB_TIMEZONE = "Europe/Rome"

TimeLike = str | int | _dt.time | _dt.datetime


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


#: the R3 classes (model.ARRIVAL_CLASSES) said in the message's language ("in orario")
define_words("arrival_class", ("on_time", "late", "excluded"))
ON_TIME = define("arrival.on_time", "R3", "arrived by {on_time}: on time (R3)")
WAIVED = define("arrival.waived", "R3",
                "phone notice waives the penalty up to {until} (R3)")
LATE = define("arrival.late", "R3", "arrived after {on_time}, by {late_until}: {turns} turns "
              "without reinforcements, moves or attacks (R3)")
LATE_NOTICE = define("arrival.late_notice", "R3", "arrived after {on_time}, by {late_until}: "
                     "{turns} turns without reinforcements, moves or attacks (R3) (a phone "
                     "notice does not waive it, R3 reading)")
LATE_PHONED = define("arrival.late_phoned", "R3", "phone notice made by {notice_by}: admitted "
                     "up to {phoned_until} with {turns} penalty turns (R3)")
EXCLUDED_PHONED = define("arrival.excluded_phoned", "R3", "arrived after {phoned_until}, the "
                         "limit even with a phone notice: may not play (R3)")
EXCLUDED = define("arrival.excluded", "R3",
                  "arrived after {late_until} without a phone notice: may not play (R3)")
EXCLUDED_LATE_NOTICE = define("arrival.excluded_late_notice", "R3", "arrived after "
                              "{late_until} without a phone notice (the phone notice at "
                              "{phoned_at} came after {notice_by}): may not play (R3)")


@dataclass(frozen=True)
class ArrivalRuling:
    """How R3 classifies one arrival.

    ``arrival_class`` is ``on_time`` | ``late`` | ``excluded``; ``penalty_turns`` the turns
    without reinforcements, sets, attacks or moves (3 when late, else 0); ``at`` the arrival
    minute (minutes after midnight); ``phoned`` whether a valid phone notice counted;
    ``note`` why, citing R3, as a :class:`~risiko.faults.Fault` value (a ``warning``: said,
    not blocking; its code says which case, ``arrival.late``, ``arrival.excluded``, ...),
    which pages and the CLI say in their language; ``reason`` the same in English.
    """

    arrival_class: ArrivalClass
    penalty_turns: int
    at: int
    phoned: bool
    note: Fault

    @property
    def reason(self) -> str:
        """Why, in English (the ``reason`` of the JSON form)."""
        return self.note.message("en")

    @property
    def admitted(self) -> bool:
        """True unless excluded: the player may be seated this evening."""
        return self.arrival_class != "excluded"

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the contract of ``risiko arrival --json``): ``class``,
        ``penalty_turns``, ``at`` ("HH:MM"), ``phoned``, ``reason`` (English), and ``faults``:
        the note as a value (:func:`risiko.faults.faults_json`)."""
        return {
            "class": self.arrival_class,
            "penalty_turns": self.penalty_turns,
            "at": clock_name(self.at),
            "phoned": self.phoned,
            "reason": self.reason,
            "faults": faults_json([self.note]),
        }


def minute_of(when: TimeLike) -> int:
    """Minutes after midnight of the evening for an arrival time (seconds dropped).

    ``when`` is ``"HH:MM"`` / ``"HH:MM:SS"`` (see :func:`parse_clock`), minutes as an int, a
    :class:`datetime.time`, or a :class:`datetime.datetime` (an aware one is converted to
    Europe/Rome first; a naive one is taken as local time). Times before 06:00 are after
    midnight (24:00 + time). Raises :class:`~risiko.faults.InvalidInputError` (a ValueError)
    for a bad time.
    """
    if isinstance(when, bool):
        raise InvalidInputError(NOT_A_TIME(value=when))
    if isinstance(when, int):
        if when < 0:
            raise InvalidInputError(NOT_A_TIME_OF_DAY(value=when))
        return when
    if isinstance(when, str):
        return parse_clock(when)
    if isinstance(when, _dt.datetime):
        if when.tzinfo is not None:
            try:
                when = when.astimezone(ZoneInfo(CLUB_TIMEZONE))
            except ZoneInfoNotFoundError as e:  # pragma: no cover - system without tzdata
                raise ValueError(f"time zone {CLUB_TIMEZONE} is not installed") from e
        when = when.time()
    if isinstance(when, _dt.time):
        value = when.hour * 60 + when.minute
        return value + MINUTES_PER_DAY if value < DAY_BREAK else value
    raise InvalidInputError(NOT_A_TIME(value=repr(when)))


def schedule_for(ruleset: Ruleset, stage: Stage = "qualifying") -> Schedule:
    """The R2/R3 schedule of an evening of ``stage`` (the final's is 50 minutes earlier)."""
    return Schedule.from_ruleset(ruleset, stage)


def classify_arrival(
    rules: Ruleset | Schedule,
    when: TimeLike,
    phoned: bool = False,
    *,
    phoned_at: TimeLike | None = None,
    stage: Stage = "qualifying",
) -> ArrivalRuling:
    """Classify an arrival under R3: on time, late (penalty turns) or excluded.

    ``rules`` is a ruleset (its schedule for ``stage`` is used) or an evening's
    :class:`Schedule`; ``when`` the arrival (see :func:`minute_of`); ``phoned`` True when
    the player phoned a notice of lateness, made at ``phoned_at`` if known (a notice after
    ``phone_notice_by`` does not count). Raises :class:`~risiko.faults.InvalidInputError` (a
    ValueError) for a bad time.
    """
    schedule = rules if isinstance(rules, Schedule) else schedule_for(rules, stage)
    at = minute_of(when)
    notice = phoned
    notice_late: int | None = None
    if phoned and phoned_at is not None and minute_of(phoned_at) > schedule.phone_notice_by:
        notice = False
        notice_late = minute_of(phoned_at)
    turns = schedule.late_penalty_turns
    times: dict[str, Any] = {"on_time": clock_name(schedule.on_time_until),
             "late_until": clock_name(schedule.late_until),
             "phoned_until": clock_name(schedule.phoned_until),
             "notice_by": clock_name(schedule.phone_notice_by), "turns": turns}

    def note(kind: FaultKind, **more: Any) -> Fault:
        return kind(severity=Severity.WARNING, **times, **more)

    if at <= schedule.on_time_until:
        return ArrivalRuling("on_time", 0, at, notice, note(ON_TIME))
    waive = schedule.phone_notice_waives_penalty_until
    if notice and waive is not None and at <= waive:
        return ArrivalRuling("on_time", 0, at, True, note(WAIVED, until=clock_name(waive)))
    if at <= schedule.late_until:
        return ArrivalRuling("late", turns, at, notice, note(LATE_NOTICE if notice else LATE))
    if notice and at <= schedule.phoned_until:
        return ArrivalRuling("late", turns, at, True, note(LATE_PHONED))
    if notice:
        return ArrivalRuling("excluded", 0, at, notice, note(EXCLUDED_PHONED))
    if notice_late is not None:
        return ArrivalRuling("excluded", 0, at, notice,
                             note(EXCLUDED_LATE_NOTICE, phoned_at=clock_name(notice_late)))
    return ArrivalRuling("excluded", 0, at, notice, note(EXCLUDED))


def classify(schedule: Schedule, arrival: Arrival) -> ArrivalRuling:
    """:func:`classify_arrival` for a recorded :class:`Arrival` under an evening's schedule."""
    return classify_arrival(schedule, arrival.at, arrival.phoned, phoned_at=arrival.phoned_at)
