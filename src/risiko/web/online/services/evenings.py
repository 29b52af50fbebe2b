"""Online tables: online evenings of a tournament and a member's arrival when he takes his
online seat (R3, on the club's clock)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from risiko.tournament.dates import clock_name, parse_clock
from risiko.web import services as club
from risiko.web.players.models import Player

from ..models import OnlineSeat, OnlineTable, TableKind
from .base import (
    ARRIVAL_CLOSED,
    ARRIVAL_EXCLUDED,
    CLUB_TIME,
    NO_ONLINE_SEAT,
    NOT_ONLINE_EVENING,
    OnlineError,
)
from .rows import _save


def _arrival(table: OnlineTable, seat: OnlineSeat) -> None:
    """R3 at an online evening: taking his online seat is the member's arrival, timed now on
    the club's clock (Europe/Rome, :func:`club_now`) as at the venue. Refused (OnlineError:
    the join writes nothing) outside that evening's times, from 12:00 of its date to 06:00
    of the next (``online.arrival_closed``: a past or future evening), or when R3 excludes
    him at this minute (``online.arrival_excluded``); an arrival already recorded (by the
    referee at the console: a phone notice) is kept as it is."""
    from risiko.tournament import model as dm
    from risiko.tournament.dates import DAY_BREAK, MINUTES_PER_DAY
    from risiko.tournament.schedule import classify
    from risiko.web.evenings.models import Arrival
    from risiko.web.selectors import schedule_of

    assert table.game_table is not None and seat.player is not None
    evening, player = table.game_table.evening, seat.player.name
    local = timezone.localtime(club_now(), CLUB_TIME)
    day, minute = local.date(), local.hour * 60 + local.minute
    if minute < DAY_BREAK:  # after midnight: still the evening before (R3's clock)
        day, minute = day - dt.timedelta(days=1), minute + MINUTES_PER_DAY
    where = {"evening": evening.date.isoformat(), "player": player}
    if day != evening.date or minute < 12 * 60:
        raise OnlineError(ARRIVAL_CLOSED(where, now=local.strftime("%Y-%m-%d %H:%M")))
    if Arrival.objects.filter(evening=evening, player=seat.player, superseded=False).exists():
        return
    t = evening.tournament
    ruling = classify(schedule_of(evening, t.ruleset),
                      dm.Arrival(player, minute, False, None))
    at = clock_name(minute)
    if not ruling.admitted:
        raise OnlineError(ARRIVAL_EXCLUDED(where, at=at, fault=ruling.note.to_dict()))
    club.record_arrival(evening, player, at, who=f"online:{table.code}")


def club_now() -> dt.datetime:
    """Now, for the arrivals (R3): one place the tests can stop."""
    return timezone.now()


def evening_table(evening: Any, player: Player) -> OnlineTable:
    """The online table of ``evening`` where ``player`` has a seat. OnlineError: the
    evening has no online tables (a venue evening), or none of them seats him."""
    tables = OnlineTable.objects.filter(game_table__evening=evening)
    where = {"evening": evening.date.isoformat(), "player": player.name}
    if not tables.exists():
        raise OnlineError(NOT_ONLINE_EVENING(where))
    table = tables.filter(seat_set__player=player).first()
    if table is None:
        raise OnlineError(NO_ONLINE_SEAT(where))
    return table


def _late_seats(table: OnlineTable, seats: list[OnlineSeat]) -> list[int]:
    """R3 at a tournament table: the seats (0-based) whose arrival was late."""
    from risiko.tournament import model as dm
    from risiko.tournament.schedule import classify
    from risiko.web.evenings.models import Arrival
    from risiko.web.selectors import schedule_of

    assert table.game_table is not None
    evening = table.game_table.evening
    t = evening.tournament
    schedule = schedule_of(evening, t.ruleset)
    late = []
    for x in seats:
        if x.player is None:
            continue
        a = Arrival.objects.filter(evening=evening, player=x.player,
                                   superseded=False).order_by("-id").first()
        if a is None:
            continue
        ruling = classify(schedule, dm.Arrival(
            x.player.name, parse_clock(a.at), a.phoned,
            parse_clock(a.phoned_at) if a.phoned_at else None))
        if ruling.penalty_turns:
            late.append(x.position - 1)
    return late


def open_evening(evening: Any, *, who: str,
                 settings: Mapping[str, Any] | None = None) -> list[OnlineTable]:
    """An online evening: one tournament table per seated table of ``evening`` (3-6 seats),
    each seat reserved for the seated player; tables already opened are kept."""
    from .lobby import create_table  # lobby imports this module (the arrival)

    t = evening.tournament
    out: list[OnlineTable] = []
    with transaction.atomic():
        for gt in evening.tables.order_by("number"):
            existing = OnlineTable.objects.filter(game_table=gt).first()
            if existing is not None:
                out.append(existing)
                continue
            seated = list(gt.seats.select_related("player").order_by("position"))
            if not 3 <= len(seated) <= 6:
                continue
            table = create_table(
                name=f"{t.name} {evening.date} — {gt.number}", seats=len(seated), who=who,
                ruleset=t.ruleset_label, kind=TableKind.TOURNAMENT,
                settings=settings, tournament=t)
            table.game_table = gt
            _save(table)
            for row, s in zip(table.seat_set.order_by("position"), seated, strict=True):
                row.player = s.player
                row.save()
            out.append(table)
        club.audit(who, "online evening", t, evening,
                   f"online tables for {evening.date}: {len(out)}",
                   params={"date": evening.date.isoformat(), "stage": evening.stage,
                           "tables": len(out)})
    return out
