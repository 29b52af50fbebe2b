"""Dates and the clock of a club evening: the years an evening may fall in and the times
referees write (R3), as minutes after midnight of the evening.

Units: times are minutes after midnight, local time of the club (Europe/Rome, summer time
included), built with :func:`parse_clock` and shown with :func:`clock_name`; a time before
:data:`DAY_BREAK` (06:00) is after midnight and counts as 24:00 + time.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from ..faults import Fault, InvalidInputError, define, value_param

__all__ = [
    "DAY_BREAK",
    "EVENING_YEARS",
    "MINUTES_PER_DAY",
    "check_evening_date",
    "clock_name",
    "evening_date_fault",
    "parse_clock",
]

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
        raise InvalidInputError(NOT_A_TIME(value=value_param(text)))
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


def clock_name(minutes: int) -> str:
    """``"HH:MM"`` for minutes after midnight (24:05 is shown ``"00:05"``)."""
    minutes %= MINUTES_PER_DAY
    return f"{minutes // 60:02d}:{minutes % 60:02d}"

