"""Online tables: connections and heartbeats, a seat absent and its grace period (R11, R13),
the scheduler's sweep of stale seats and its check that every table in play goes on."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from risiko.online import log as olog

from ..models import (
    Deadline,
    DeadlineKind,
    EventKind,
    OnlineSeat,
    OnlineTable,
    SeatKind,
    TableKind,
    TableStatus,
)
from .base import Outbox, log, settings_of
from .cache import game_of
from .messages import _broadcast, is_connected, presence_stale_after
from .rows import _event, _locked, _save, _seats
from .schedule import _deadline, _someone_acts


# ------------------------------------------------------------------------------ presence
def connected(table_id: int, position: int, now: dt.datetime | None = None) -> Outbox | None:
    """A connection of seat ``position`` opened; a seat coming back is no longer absent.
    Connections counted by a worker that stopped beating (it died) are forgotten."""
    now = now or timezone.now()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seat = OnlineSeat.objects.get(table=table, position=position)
        if not is_connected(seat, now):
            seat.connections = 0  # the count of a dead worker's connections
        seat.connections = max(0, seat.connections) + 1
        seat.heartbeat = now
        back = seat.absent_since is not None
        if back:
            seat.absent_since = None
            seat.absence_epoch += 1
            seat.stand_in = False
            seat.r13_requested = False
        seat.save()
        if not back or table.status not in (TableStatus.PLAYING, TableStatus.PAUSED):
            return None
        ev = _event(table, actor="system", kind=EventKind.SYSTEM, seat=position,
                    text=f"# {seat.name} is back", value=olog.value(olog.BACK, player=seat.name))
        _save(table)
        outbox = Outbox(table.pk)
        _broadcast(table, game_of(table), _seats(table), [ev], outbox)
        return outbox


def disconnected(table_id: int, position: int) -> Outbox | None:
    """A connection of seat ``position`` closed; the last one makes the seat absent and
    starts its grace period (R13 design: docs/online.md)."""
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seat = OnlineSeat.objects.get(table=table, position=position)
        seat.connections = max(0, seat.connections - 1)
        if seat.connections:
            seat.save()
            return None
        return _absent(table, seat, timezone.now(), f"# {seat.name} disconnected",
                       olog.value(olog.DISCONNECTED, player=seat.name))


def leave(table_id: int, position: int, now: dt.datetime | None = None) -> Outbox | None:
    """Seat ``position`` leaves the table (the protocol's ``leave``). In the lobby of a
    casual table the seat is free again (its guest's token, its member forgotten). In play
    it is absent now and its grace period is over at once: a bot stands in at a casual
    table that has them, otherwise the referee is asked to declare R13 (R13: leaving the
    table is abandoning it; a member coming back is the referee's to judge). None when
    nothing changes (a tournament's lobby, a bot's seat, a game over)."""
    now = now or timezone.now()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        seat = OnlineSeat.objects.get(table=table, position=position)
        outbox = Outbox(table.pk)
        if table.status == TableStatus.LOBBY:
            if table.kind != TableKind.CASUAL or seat.kind not in (SeatKind.GUEST, SeatKind.MEMBER):
                return None
            seat.kind = SeatKind.OPEN
            seat.guest_name, seat.token_hash, seat.session_hash = "", "", ""
            seat.user, seat.player, seat.joined = None, None, None
            seat.save()
            _broadcast(table, None, _seats(table), [], outbox)
            return outbox
        if (table.status not in (TableStatus.PLAYING, TableStatus.PAUSED)
                or seat.kind == SeatKind.BOT):
            return None
        if seat.absent_since is None:
            seat.absent_since = now
            seat.absence_epoch += 1
        s = settings_of(table)
        if table.kind == TableKind.CASUAL and s["bot_for_absent"]:
            seat.stand_in = True
            text = f"# {seat.name} left the table: a bot plays for him until back"
            said = olog.value(olog.LEFT_STAND_IN, player=seat.name)
        else:
            seat.r13_requested = True
            text = f"# {seat.name} left the table: the referee is asked to declare R13"
            said = olog.value(olog.LEFT_R13, player=seat.name)
        seat.save()
        ev = _event(table, actor=f"seat:{position}", kind=EventKind.SYSTEM, seat=position,
                    text=text, value=said)
        _save(table)
        _broadcast(table, game_of(table), _seats(table), [ev], outbox)
        return outbox


def _absent(table: OnlineTable, seat: OnlineSeat, now: dt.datetime, text: str,
            value: Mapping[str, Any] | None = None) -> Outbox | None:
    """Seat ``seat`` has no connection left (its row is saved): at a table in play it is
    absent from ``now`` and its grace period starts (R11, R13: docs/online.md)."""
    if table.status not in (TableStatus.PLAYING, TableStatus.PAUSED) or (
            seat.kind == SeatKind.BOT) or (
            seat.absent_since is not None):
        seat.save()
        return None
    seat.absent_since = now
    seat.absence_epoch += 1
    seat.save()
    s = settings_of(table)
    ev = _event(table, actor="system", kind=EventKind.SYSTEM, seat=seat.position, text=text,
                value=value)
    outbox = Outbox(table.pk)
    _deadline(table, DeadlineKind.GRACE_END, now + dt.timedelta(seconds=int(s["grace_seconds"])),
              seat=seat.position, guard=seat.absence_epoch, outbox=outbox)
    _save(table)
    _broadcast(table, game_of(table), _seats(table), [ev], outbox)
    return outbox


def keep_tables_alive(now: dt.datetime | None = None) -> list[Outbox]:
    """The scheduler's check of :func:`_someone_acts` over every table in play (at start-up
    and every heartbeat): a table whose bot, clock or absent seat has no pending deadline
    (a database left so by an older server, a deadline lost) gets it. Only the tables where
    it can be missing are read (no running clock deadline, and a bot, a stand-in or an
    absent seat); each is checked again under its row lock. Returns the outboxes (a
    deadline to wake for)."""
    now = now or timezone.now()
    clock = Deadline.objects.filter(table=models.OuterRef("pk"), fired=None,
                                    kind=DeadlineKind.TURN_END,
                                    guard=models.OuterRef("clock_epoch"))
    special = OnlineSeat.objects.filter(table=models.OuterRef("pk")).filter(
        Q(kind=SeatKind.BOT) | Q(stand_in=True) | Q(absent_since__isnull=False))
    ids = list(OnlineTable.objects.filter(status=TableStatus.PLAYING).filter(
        ~models.Exists(clock), models.Exists(special)).values_list("pk", flat=True))
    out = []
    for table_id in ids:
        with transaction.atomic():
            table = _locked(table_id)
            if table.status != TableStatus.PLAYING:
                continue
            outbox = Outbox(table.pk)
            before = Deadline.objects.filter(table=table).count()
            who = _someone_acts(table, game_of(table), _seats(table), now, outbox,
                                verify_clock=True)
            if Deadline.objects.filter(table=table).count() != before:
                log.warning("online table %s: nobody was going to act; %s scheduled",
                            table.code, who)
                out.append(outbox)
    return out


def heartbeat(seat_ids: Iterable[int], now: dt.datetime | None = None) -> int:
    """A worker is alive and holds connections of these seats (OnlineSeat ids): their
    heartbeat is ``now``. One query; returns the rows updated."""
    ids = sorted(set(seat_ids))
    if not ids:
        return 0
    return OnlineSeat.objects.filter(pk__in=ids, connections__gt=0).update(
        heartbeat=now or timezone.now())


def sweep_presence(now: dt.datetime | None = None) -> list[Outbox]:
    """Seats counted as connected whose heartbeat is stale (every worker holding their
    connections died, or the server was stopped) lose those connections: at a table in play
    they become absent now and their grace period starts, as if they had disconnected (R11,
    R13). So are the seats of a table in play that have no connection and were never
    made absent (a player who sat down and never opened the table, or left it in the
    lobby) once the table has played the stale limit without them. Each seat is checked
    again under its table's row lock. Returns the outboxes."""
    now = now or timezone.now()
    limit = now - presence_stale_after()
    stale = set(OnlineSeat.objects.filter(connections__gt=0).filter(
        Q(heartbeat__isnull=True) | Q(heartbeat__lt=limit)).values_list("table_id", "position"))
    stale |= set(OnlineSeat.objects.filter(
        connections__lte=0, absent_since__isnull=True, kind__in=(SeatKind.MEMBER, SeatKind.GUEST),
        table__status__in=(TableStatus.PLAYING, TableStatus.PAUSED),
        table__started__lt=limit).filter(
        Q(heartbeat__isnull=True) | Q(heartbeat__lt=limit)).values_list("table_id", "position"))
    out = []
    for table_id, position in sorted(stale):
        with transaction.atomic():
            table = OnlineTable.objects.select_for_update().get(pk=table_id)
            seat = OnlineSeat.objects.get(table=table, position=position)
            if is_connected(seat, now) or (seat.connections <= 0
                                           and seat.absent_since is not None):
                continue  # it came back meanwhile, or is absent already
            if seat.heartbeat is not None and seat.heartbeat >= limit:
                continue  # a connection closed within the limit: its own grace period
            seat.connections = 0
            outbox = _absent(table, seat, now, f"# {seat.name}: connection lost",
                             olog.value(olog.CONNECTION_LOST, player=seat.name))
        if outbox is not None:
            out.append(outbox)
    return out
