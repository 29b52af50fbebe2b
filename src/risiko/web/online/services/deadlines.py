"""Online tables: deadlines fired exactly once (turn clock, bots, grace, the call of the last
rounds), and the schedulers' heartbeat."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.db import IntegrityError, transaction
from django.utils import timezone

from risiko.actions import CallLastRounds, Timeout
from risiko.faults import RisikoError
from risiko.online import adapter
from risiko.online import log as olog

from ..models import (
    Deadline,
    DeadlineKind,
    EventKind,
    OnlineSeat,
    OnlineTable,
    SchedulerBeat,
    TableKind,
    TableStatus,
)
from .base import Outbox, bot_for, log, settings_of
from .cache import _cache_put, _take_game, game_of
from .messages import _broadcast
from .play import _record
from .rows import _event, _locked, _save, _seats
from .schedule import _deadline, _is_bot_turn


# ------------------------------------------------------------------------------ deadlines
def due_deadlines(now: dt.datetime | None = None) -> list[int]:
    """Ids of the unfired deadlines due by ``now``."""
    now = now or timezone.now()
    return list(Deadline.objects.filter(fired=None, due__lte=now).order_by("due", "id")
                .values_list("id", flat=True)[:200])


def next_due() -> dt.datetime | None:
    """When the next unfired deadline is due."""
    row = Deadline.objects.filter(fired=None).order_by("due").values_list("due", flat=True)
    return row.first()


def fire(deadline_id: int) -> Outbox | None:
    """Fire one deadline exactly once: claim it (a conditional update) and apply its effect
    in the same transaction, under the table's row lock. None when another worker fired it
    or it was stale."""
    now = timezone.now()
    with transaction.atomic():
        d = Deadline.objects.filter(pk=deadline_id).first()
        if d is None or d.fired is not None:
            return None
        table = _locked(d.table_id)
        claimed = Deadline.objects.filter(pk=d.pk, fired=None).update(fired=now)
        if claimed == 0:
            return None
        outcome, outbox = _effect(table, d, now)
        Deadline.objects.filter(pk=d.pk).update(outcome=outcome)
        return outbox


#: the bot that makes a move whose bot raised (level 1: any legal move, wherever the game is)
FALLBACK_BOT = "random"


def set_aside(deadline_id: int, reason: str) -> Outbox | None:
    """A deadline whose firing raised (a fault of the server itself: its transaction rolled
    back, nothing written) is fired now with the outcome ``failed: <reason>``, so it is not
    fired again every tick ahead of the others. A bot's move (its bot raised) is made by
    :data:`FALLBACK_BOT` instead, recorded as the bot's, so the table goes on (one bot
    deadline per seq: without a move the table would wait for ever). Returns the outbox of
    that move; None when the deadline was fired meanwhile, is of another kind, is stale,
    or the fallback fails too (then only marked, one log line with its traceback)."""
    now = timezone.now()
    outcome = f"failed: {reason}"[:40]
    try:
        with transaction.atomic():
            d = Deadline.objects.filter(pk=deadline_id, fired=None).first()
            if d is None:
                return None
            table = _locked(d.table_id)
            if not Deadline.objects.filter(pk=d.pk, fired=None).update(fired=now,
                                                                       outcome=outcome):
                return None
            if d.kind != DeadlineKind.BOT or table.status not in (TableStatus.PLAYING,
                                                                  TableStatus.PAUSED):
                return None
            _, outbox = _bot_move(table, d, now, _seats(table), FALLBACK_BOT)
            return outbox
    except Exception:
        log.exception("deadline %s: the fallback failed too; marked failed", deadline_id)
        Deadline.objects.filter(pk=deadline_id, fired=None).update(fired=now, outcome=outcome)
        return None


def _bot_move(table: OnlineTable, d: Deadline, now: dt.datetime, seats: list[OnlineSeat],
              bot: str | None = None) -> tuple[str, Outbox | None]:
    """A bot deadline's move: the seat's bot (``bot``: another one) acts, if the deadline is
    not stale (guarded by the table's seq, the seat still a bot's to act)."""
    if d.guard != table.seq or table.status != TableStatus.PLAYING:
        return "stale", None
    seat = next((x for x in seats if x.position == d.seat), None)
    game = _take_game(table)
    if seat is None or game.to_act != seat.position - 1 or not _is_bot_turn(seat):
        _cache_put(table.pk, table.seq, game)
        return "stale", None
    rng = int.from_bytes(hashlib.sha256(f"{table.seed}:{table.seq}".encode()).digest()[:8])
    before = adapter.draws(game)
    try:
        action = adapter.bot_action(game, seat.position - 1, bot or bot_for(seat, table), rng)
        recorded = adapter.push(game, action)
    except RisikoError as e:
        log.error("table %s: bot at seat %s refused: %s", table.code, d.seat, e)
        return "bot refused", None
    return "bot", _record(table, game, seats, now, recorded, actor=f"bot:{d.seat}",
                          kind=EventKind.ACTION, seat=seat.position - 1, before=before,
                          prev=seat.position - 1)


def _effect(table: OnlineTable, d: Deadline, now: dt.datetime) -> tuple[str, Outbox | None]:
    if table.status not in (TableStatus.PLAYING, TableStatus.PAUSED):
        return "not in play", None
    seats = _seats(table)
    seat = next((x for x in seats if x.position == d.seat), None)
    if d.kind in (DeadlineKind.TURN_END, DeadlineKind.TURN_WARNING):
        if d.guard != table.clock_epoch or table.status != TableStatus.PLAYING:
            return "stale", None
        game = _take_game(table)
        if d.kind == DeadlineKind.TURN_WARNING:
            _cache_put(table.pk, table.seq, game)
            s = settings_of(table)
            ev = _event(table, actor="clock", kind=EventKind.CLOCK, seat=d.seat,
                        text=f"# clock: {s['warning_seconds']} s left for "
                             f"{seat.name if seat else '?'} (R11)",
                        value=olog.value(olog.CLOCK_WARNING, seconds=s["warning_seconds"],
                                         player=seat.name if seat else "?"))
            _save(table)
            outbox = Outbox(table.pk)
            _broadcast(table, game, seats, [ev], outbox)
            return "warned", outbox
        prev = game.to_act
        try:
            recorded = adapter.push(game, Timeout())
        except RisikoError:
            return "refused", None
        return "timeout", _record(table, game, seats, now, recorded, actor="clock",
                                  kind=EventKind.CLOCK, seat=None, before=table.draws, prev=prev)
    if d.kind == DeadlineKind.BOT:
        return _bot_move(table, d, now, seats)
    if d.kind == DeadlineKind.CALL:
        game = _take_game(table)
        if game.last_round is not None:
            _cache_put(table.pk, table.seq, game)
            return "already called", None
        if game.phase == "setup":
            _cache_put(table.pk, table.seq, game)
            _deadline(table, DeadlineKind.CALL, now + dt.timedelta(seconds=30), guard=table.seq)
            return "after the placement", None
        recorded = adapter.push(game, CallLastRounds())
        return "called", _record(table, game, seats, now, recorded, actor="clock",
                                 kind=EventKind.CLOCK, seat=None)
    if d.kind in (DeadlineKind.GRACE_END, DeadlineKind.ABSENCE_LIMIT):
        if seat is None or seat.absence_epoch != d.guard or seat.absent_since is None:
            return "stale", None
        s = settings_of(table)
        outbox = Outbox(table.pk)
        game = game_of(table)
        if d.kind == DeadlineKind.GRACE_END:
            if table.kind == TableKind.CASUAL and s["bot_for_absent"]:
                seat.stand_in = True
                seat.save()
                text = f"# a bot plays for {seat.name} until back"
                said = olog.value(olog.STAND_IN, player=seat.name)
                if game.to_act == seat.position - 1 and table.status == TableStatus.PLAYING:
                    _deadline(table, DeadlineKind.BOT, now, seat=seat.position, guard=table.seq + 1,
                              outbox=outbox)
            else:
                text = f"# {seat.name} is absent: his turns time out (R11)"
                said = olog.value(olog.ABSENT, player=seat.name)
                _deadline(table, DeadlineKind.ABSENCE_LIMIT,
                          now + dt.timedelta(seconds=int(s["absence_limit_seconds"])),
                          seat=seat.position, guard=seat.absence_epoch, outbox=outbox)
        else:
            seat.r13_requested = True
            seat.save()
            text = f"# the referee is asked to declare R13 for {seat.name}"
            said = olog.value(olog.R13_ASKED, player=seat.name)
        ev = _event(table, actor="clock", kind=EventKind.SYSTEM, seat=seat.position, text=text,
                    value=said)
        _save(table)
        _broadcast(table, game, _seats(table), [ev], outbox)
        return d.kind, outbox
    return "unknown", None


def beat(now: dt.datetime | None = None, *, stop_after: float = 10.0) -> float:
    """The schedulers' heartbeat, written while deadlines are pending. After a stop longer
    than ``stop_after`` seconds, every unfired deadline that existed during the stop is moved
    by the stop's length (the clock did not run while no server was there). Returns the stop
    in seconds (0 when none). One compare-and-set update: one worker moves them."""
    now = now or timezone.now()
    if not Deadline.objects.filter(fired=None).exists():
        return 0.0
    prev = SchedulerBeat.objects.filter(pk=1).values_list("beat", flat=True).first()
    if prev is None:
        try:
            with transaction.atomic():
                SchedulerBeat.objects.create(pk=1, beat=now)
        except IntegrityError:  # another worker's scheduler wrote it first
            pass
        return 0.0
    if not SchedulerBeat.objects.filter(pk=1, beat=prev).update(beat=now):
        return 0.0  # another worker beat meanwhile
    gap = (now - prev).total_seconds()
    if gap <= stop_after:
        return 0.0
    shift = dt.timedelta(seconds=gap)
    with transaction.atomic():
        for d in Deadline.objects.filter(fired=None, created__lt=prev):
            d.due = d.due + shift
            d.save(update_fields=["due"])
        for t in OnlineTable.objects.filter(status=TableStatus.PLAYING,
                                            turn_deadline__isnull=False,
                                            started__lt=prev):
            assert t.turn_deadline is not None
            t.turn_deadline = t.turn_deadline + shift
            t.save(update_fields=["turn_deadline"])
    return gap
