"""Writes of the evenings app: opening an evening, recording (or correcting) an arrival (R3).
Each is checked as its command (:mod:`risiko.tournament.commands`) before it writes."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction

from risiko.faults import RisikoError
from risiko.tournament import commands as cmds
from risiko.tournament.dates import clock_name, parse_clock
from risiko.tournament.schedule import ArrivalRuling
from risiko.web.auditlog.services import audit
from risiko.web.core import faults as F
from risiko.web.core.faults import ServiceError, as_faults
from risiko.web.core.limits import check_json, check_text, create
from risiko.web.core.writes import lock_tournament, write
from risiko.web.tournaments.models import Tournament
from risiko.web.tournaments.services import decide, entry_player, parse_date

from .models import Arrival, Evening


def get_evening(t: Tournament, date: str | _dt.date) -> Evening:
    """The evening of ``t`` on ``date`` (``YYYY-MM-DD``); ServiceError listing the dates."""
    day = parse_date(date)
    found = t.evenings.filter(date=day).first()
    if found is None:
        dates = ", ".join(str(d) for d in t.evenings.values_list("date", flat=True)) or "none"
        raise ServiceError(cmds.NO_EVENING({"evening": day.isoformat()}, tournament=t.name,
                                           date=day.isoformat(), dates=dates))
    return found


def subjects(evening: Evening, **more: Any) -> dict[str, Any]:
    """The subjects of a fault about ``evening`` (its date) and ``more``."""
    return {"evening": evening.date.isoformat(), **more}


def require_reason(reason: str, evening: Evening, **more: Any) -> str:
    """``reason`` checked (at most 300 characters) for a correction, which must say why:
    ServiceError ``service.correction_reason`` on the field ``reason`` (naming ``evening``
    and ``more``) when it is empty or blank."""
    text = check_text("reason", reason, 300)
    if not text.strip():
        raise ServiceError(F.CORRECTION_REASON(subjects(evening, field="reason", **more)))
    return text


def clock(evening: Evening, value: Any, player: str, field: str) -> int:
    """Minutes of a time of day as referees write it (:func:`risiko.tournament.dates.
    parse_clock`); ServiceError naming the evening, the player and the field."""
    text = check_text(field, value, 40)
    try:
        return parse_clock(text)
    except RisikoError as err:
        raise ServiceError(*as_faults(err.faults, **subjects(evening, player=player,
                                                             field=field))) from None
    except ValueError as err:
        raise ServiceError(F.BAD_TIME(subjects(evening, player=player, field=field),
                                      error=str(err))) from None


@write
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
    lock_tournament(t.pk)
    day = parse_date(date)
    if schedule:
        check_json("schedule", schedule)
    decide(t, cmds.OpenEvening(day, str(stage), dict(schedule) if schedule else None))
    try:
        with transaction.atomic():
            evening = create(Evening, tournament=t, date=day, stage=stage,
                             schedule=dict(schedule or {}), chief_referee=chief_referee)
    except IntegrityError:  # opened at the same moment by another request
        raise ServiceError(cmds.EVENING_EXISTS({"evening": day.isoformat()},
                                               date=day.isoformat())) from None
    audit(who, "open evening", t, evening, f"{day} ({stage})",
          params={"date": day.isoformat(), "stage": stage})
    return evening


@write
def record_arrival(
    evening: Evening,
    player: str,
    at: str,
    *,
    phoned: bool = False,
    phoned_at: str | None = None,
    reason: str = "",
    who: str,
) -> tuple[Arrival, ArrivalRuling]:
    """Record (or correct, saying why in ``reason``) a player's arrival to the minute and
    classify it (R3). A correction supersedes the arrival it replaces; without a reason it is
    refused (``service.correction_reason``). The same arrival (time, phoned, phoned at) sent
    again writes nothing and returns the current row."""
    t = evening.tournament
    lock_tournament(t.pk)
    p = entry_player(t, player)
    minute = clock(evening, at, p.name, "at")
    phoned_minute = clock(evening, phoned_at, p.name, "phoned_at") if phoned_at else None
    # R3: refused e.g. when a correction excludes a player already seated
    _name, ruling = decide(t, cmds.RecordArrival(
        evening.date, p.name, clock_name(minute), bool(phoned),
        clock_name(phoned_minute) if phoned_minute is not None else None),
        evening=evening).answer
    old = list(evening.arrivals.current().filter(player=p))
    same = [a for a in old if (a.at, a.phoned, a.phoned_at) == (
        clock_name(minute), bool(phoned),
        clock_name(phoned_minute) if phoned_minute is not None else "")]
    if same:  # the same arrival sent again: nothing written, no reason needed
        return same[0], ruling
    if old:  # a correction says why (what is wrong with the arrival itself is said first)
        require_reason(reason, evening, player=p.name)
    Arrival.objects.filter(pk__in=[a.pk for a in old]).update(superseded=True)
    row = create(
        Arrival, evening=evening, player=p, at=clock_name(minute), phoned=bool(phoned),
        phoned_at=clock_name(phoned_minute) if phoned_minute is not None else "",
        recorded_by=who, reason=reason,
    )
    audit(who, "correct arrival" if old else "arrival", t, row,
          f"{p.name} {row.at}{' (phoned)' if phoned else ''}: {ruling.arrival_class}"
          + (f" — {reason}" if reason else ""),
          {"replaced": [a.at for a in old], "reason": reason},
          params={"player": p.name, "at": row.at, "phoned": bool(phoned),
                  "class": ruling.arrival_class, "reason": reason})
    return row, ruling
