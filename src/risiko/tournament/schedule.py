"""Arrivals and lateness (R3), and the schedule of each evening (R2, R18).

R3 under the club-milano ruleset (times are the club's local time, Europe/Rome; seconds are
dropped, so 21:10:59 is 21:10)::

    arrival          no phone notice          phone notice made by 21:10
    <= 21:10         on_time                  on_time
    21:11 .. 21:20   late, 3 turns            late, 3 turns (reading: "comunque")
    21:21 .. 21:30   excluded                 late, 3 turns
    > 21:30          excluded                 excluded

A late seat may not place reinforcements, trade sets, attack or move during its first
``penalty_turns`` turns. The final starts at 20:30 (R18), so its whole schedule is 50 minutes
earlier (see :meth:`risiko.tournament.model.Schedule.from_ruleset`).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..ruleset import Ruleset
from .model import (
    DAY_BREAK,
    MINUTES_PER_DAY,
    Arrival,
    ArrivalClass,
    Schedule,
    Stage,
    clock_name,
    parse_clock,
)

__all__ = [
    "CLUB_TIMEZONE",
    "ArrivalRuling",
    "TimeLike",
    "classify",
    "classify_arrival",
    "minute_of",
    "schedule_for",
]

#: The club's local time zone (R3 reading: arrivals are recorded in local time).
CLUB_TIMEZONE = "Europe/Rome"

TimeLike = str | int | _dt.time | _dt.datetime


@dataclass(frozen=True)
class ArrivalRuling:
    """How R3 classifies one arrival.

    ``arrival_class`` is ``on_time`` | ``late`` | ``excluded``; ``penalty_turns`` the turns
    without reinforcements, sets, attacks or moves (3 when late, else 0); ``at`` the arrival
    minute (minutes after midnight); ``phoned`` whether a valid phone notice counted;
    ``reason`` one English sentence citing R3.
    """

    arrival_class: ArrivalClass
    penalty_turns: int
    at: int
    phoned: bool
    reason: str

    @property
    def admitted(self) -> bool:
        """True unless excluded: the player may be seated this evening."""
        return self.arrival_class != "excluded"

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the contract of ``risiko arrival --json``): ``class``,
        ``penalty_turns``, ``at`` ("HH:MM"), ``phoned``, ``reason``."""
        return {
            "class": self.arrival_class,
            "penalty_turns": self.penalty_turns,
            "at": clock_name(self.at),
            "phoned": self.phoned,
            "reason": self.reason,
        }


def minute_of(when: TimeLike) -> int:
    """Minutes after midnight of the evening for an arrival time (seconds dropped).

    ``when`` is ``"HH:MM"`` / ``"HH:MM:SS"`` (see :func:`parse_clock`), minutes as an int, a
    :class:`datetime.time`, or a :class:`datetime.datetime` (an aware one is converted to
    Europe/Rome first; a naive one is taken as local time). Times before 06:00 are after
    midnight (24:00 + time). Raises ValueError for a bad time.
    """
    if isinstance(when, bool):
        raise ValueError(f"a time is 'HH:MM', not {when!r}")
    if isinstance(when, int):
        if when < 0:
            raise ValueError(f"{when} minutes is not a time of day")
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
    raise ValueError(f"a time is 'HH:MM', not {when!r}")


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
    ``phone_notice_by`` does not count). Raises ValueError for a bad time.
    """
    schedule = rules if isinstance(rules, Schedule) else schedule_for(rules, stage)
    at = minute_of(when)
    notice = phoned
    late_note = ""
    if phoned and phoned_at is not None and minute_of(phoned_at) > schedule.phone_notice_by:
        notice = False
        late_note = (f" (the phone notice at {clock_name(minute_of(phoned_at))} came after "
                     f"{clock_name(schedule.phone_notice_by)})")
    turns = schedule.late_penalty_turns
    on_time, late_until = clock_name(schedule.on_time_until), clock_name(schedule.late_until)
    if at <= schedule.on_time_until:
        return ArrivalRuling("on_time", 0, at, notice,
                             f"arrived by {on_time}: on time (R3)")
    waive = schedule.phone_notice_waives_penalty_until
    if notice and waive is not None and at <= waive:
        return ArrivalRuling("on_time", 0, at, True,
                             f"phone notice waives the penalty up to {clock_name(waive)} (R3)")
    if at <= schedule.late_until:
        why = " (a phone notice does not waive it, R3 reading)" if notice else ""
        return ArrivalRuling("late", turns, at, notice,
                             f"arrived after {on_time}, by {late_until}: {turns} turns without "
                             f"reinforcements, moves or attacks (R3){why}")
    phoned_until = clock_name(schedule.phoned_until)
    if notice and at <= schedule.phoned_until:
        return ArrivalRuling("late", turns, at, True,
                             f"phone notice made by {clock_name(schedule.phone_notice_by)}: "
                             f"admitted up to {phoned_until} with {turns} penalty turns (R3)")
    if notice:
        why = f"arrived after {phoned_until}, the limit even with a phone notice"
    else:
        why = f"arrived after {late_until} without a phone notice{late_note}"
    return ArrivalRuling("excluded", 0, at, notice, f"{why}: may not play (R3)")


def classify(schedule: Schedule, arrival: Arrival) -> ArrivalRuling:
    """:func:`classify_arrival` for a recorded :class:`Arrival` under an evening's schedule."""
    return classify_arrival(schedule, arrival.at, arrival.phoned, phoned_at=arrival.phoned_at)
