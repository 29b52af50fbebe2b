"""Online tables: what a change schedules (the turn clock (R11), a bot's move, the end) and
the invariant that every table in play has someone who will act."""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django.utils import timezone

from risiko.game import Game
from risiko.online import adapter

from ..models import Deadline, DeadlineKind, OnlineSeat, OnlineTable, SeatKind, TableStatus
from .base import SNAPSHOT_EVERY, Outbox, settings_of
from .results import _finish


def _deadline(table: OnlineTable, kind: str, due: dt.datetime, *, seat: int = 0,
              guard: int = 0, outbox: Outbox | None = None) -> None:
    Deadline.objects.get_or_create(
        table=table, kind=kind, seat=seat, guard=guard, defaults={"due": due}
    )
    if outbox is not None:
        wait = max(0.0, (due - timezone.now()).total_seconds())
        outbox.wake = wait if outbox.wake is None else min(outbox.wake, wait)


def _is_bot_turn(seat: OnlineSeat) -> bool:
    return seat.kind == SeatKind.BOT or seat.stand_in


def _after_change(
    table: OnlineTable, game: Game, now: dt.datetime, outbox: Outbox, seats: list[OnlineSeat]
) -> None:
    """Clock, snapshot, bots and the end, after the game changed (inside the transaction)."""
    s = settings_of(table)
    if game.over:
        _finish(table, game, now, seats)
        return
    turn = adapter.turn_number(game)
    new_turn = turn != table.turn
    if new_turn:
        table.turn = turn
        table.turn_deadline = None
        if table.status == TableStatus.PLAYING:
            _start_clock(table, game, now, s["clock_seconds"] * 1000, outbox)
    if new_turn or table.seq - table.snapshot_seq >= SNAPSHOT_EVERY or not table.snapshot_format:
        table.snapshot = adapter.snapshot(game)
        table.snapshot_seq = table.seq
        table.snapshot_format = adapter.SNAPSHOT_FORMAT
        table.snapshot_dirty = True
    to_act = game.to_act
    if to_act is not None and table.status == TableStatus.PLAYING and _is_bot_turn(seats[to_act]):
        due = now + dt.timedelta(milliseconds=int(s["bot_delay_ms"]))
        _deadline(table, DeadlineKind.BOT, due, seat=to_act + 1, guard=table.seq, outbox=outbox)


def _start_clock(table: OnlineTable, game: Game, now: dt.datetime, ms: int,
                 outbox: Outbox) -> None:
    """Run the turn clock (R11) for ``ms`` from now; none during the initial placement."""
    table.clock_epoch += 1
    if ms <= 0 or game.phase == "setup" or game.over:
        table.turn_deadline = None
        return
    s = settings_of(table)
    end = now + dt.timedelta(milliseconds=ms)
    table.turn_deadline = end
    seat = (game.to_act or 0) + 1
    _deadline(table, DeadlineKind.TURN_END, end, seat=seat, guard=table.clock_epoch, outbox=outbox)
    warn = end - dt.timedelta(seconds=int(s["warning_seconds"]))
    if warn > now:
        _deadline(table, DeadlineKind.TURN_WARNING, warn, seat=seat, guard=table.clock_epoch,
                  outbox=outbox)


def _someone_acts(table: OnlineTable, game: Game | None, seats: list[OnlineSeat],
                  now: dt.datetime, outbox: Outbox | None = None,
                  verify_clock: bool = False) -> str:
    """The invariant of a table in play: someone will act. Checked inside the
    transaction of every change (:func:`_broadcast`) and by the scheduler at start-up and
    every heartbeat (:func:`keep_tables_alive`); what is missing is scheduled, never acted
    here. Returns who will act:

    - ``"none"``: not in play (lobby, paused, over) or nobody to act;
    - ``"bot"``: the seat to act is a bot or a stand-in: a bot deadline guarded by the
      table's current seq (one written before a later event is stale: made again);
    - ``"clock"``: the turn clock runs (R11): its ``turn_end`` deadline (``verify_clock``:
      looked up, and made again at ``turn_deadline`` when missing);
    - ``"human"``: the seat to act is present (a seat that never connects or whose worker
      died is made absent by :func:`sweep_presence`);
    - ``"absence"``: the seat to act is absent: its grace period or absence limit is
      pending (made due now when missing), or the referee is asked for R13 (R11, R13)."""
    if table.status != TableStatus.PLAYING or game is None or game.over or game.to_act is None:
        return "none"
    seat = next((x for x in seats if x.position == game.to_act + 1), None)
    if seat is None:
        return "none"
    position = seat.position

    def pending() -> QuerySet[Deadline]:
        # made only when looked up: a person's action never needs it (a query's making costs)
        return Deadline.objects.filter(table=table, fired=None, seat=position)

    if _is_bot_turn(seat):
        if not pending().filter(kind=DeadlineKind.BOT, guard=table.seq).exists():
            delay = int(settings_of(table)["bot_delay_ms"])
            _deadline(table, DeadlineKind.BOT, now + dt.timedelta(milliseconds=delay),
                      seat=seat.position, guard=table.seq, outbox=outbox)
        return "bot"
    if table.turn_deadline is not None:
        if verify_clock and not Deadline.objects.filter(
                table=table, fired=None, kind=DeadlineKind.TURN_END,
                guard=table.clock_epoch).exists():
            _deadline(table, DeadlineKind.TURN_END, max(now, table.turn_deadline),
                      seat=seat.position, guard=table.clock_epoch, outbox=outbox)
        return "clock"
    if seat.absent_since is None:
        return "human"
    if seat.r13_requested or pending().filter(
            kind__in=(DeadlineKind.GRACE_END, DeadlineKind.ABSENCE_LIMIT),
            guard=seat.absence_epoch).exists():
        return "absence"
    grace_fired = Deadline.objects.filter(table=table, kind=DeadlineKind.GRACE_END,
                                          seat=seat.position, guard=seat.absence_epoch).exists()
    _deadline(table, DeadlineKind.ABSENCE_LIMIT if grace_fired else DeadlineKind.GRACE_END, now,
              seat=seat.position, guard=seat.absence_epoch, outbox=outbox)
    return "absence"
