"""Online tables: the referee's commands (pause, resume, undo, settings, R13, the end)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from risiko.actions import Abandon, Action, CallLastRounds, EndGame, WidenClosing
from risiko.agents.levels import level_of
from risiko.faults import Fault, RisikoError
from risiko.game import Game
from risiko.online import adapter
from risiko.online import log as olog
from risiko.web import services as club

from ..models import DeadlineKind, EventKind, OnlineSeat, OnlineTable, TableEvent, TableStatus
from .base import (
    BAD_COMMAND,
    BAD_SETTING,
    NEED_REASON,
    NOT_PLAYING,
    NOT_REFEREE,
    NOTHING_TO_UNDO,
    WRONG_SEAT,
    Actor,
    Outbox,
    Reply,
    bot_of,
    settings_of,
)
from .cache import _cache_put, _fresh, _take_game
from .messages import _broadcast
from .play import _refuse
from .rows import _event, _game_lines, _players, _save, _seats, _tournament, _where
from .schedule import _after_change, _deadline, _is_bot_turn, _start_clock


# ------------------------------------------------------------------------------ referee
@dataclass
class Command:
    """A referee's command at its locked table: what its handler reads and changes (the
    ``game``: :func:`_undo_command` replaces it)."""

    table: OnlineTable
    actor: Actor
    command: Mapping[str, Any]
    kind: str
    reason: str
    now: dt.datetime
    seats: list[OnlineSeat]
    game: Game
    outbox: Outbox
    settings: dict[str, Any]
    tournament: Any
    target: OnlineSeat | None


#: what a handler returns: an engine action to push (recorded as the referee's), None when
#: it changed the table itself, or the fault that refuses the command (nothing written)
Handled = Action | Fault | None


def _pause(c: Command) -> Handled:
    """Stop the turn clock, keeping what remained of it."""
    table = c.table
    if table.status != TableStatus.PLAYING:
        return NOT_PLAYING(status=table.status)
    if table.turn_deadline is not None:
        table.paused_remaining_ms = max(
            0, int((table.turn_deadline - c.now).total_seconds() * 1000))
    table.status = TableStatus.PAUSED
    table.turn_deadline = None
    table.clock_epoch += 1
    _event(table, actor=c.actor.key, kind=EventKind.REFEREE, text="# pause", reason=c.reason,
           value=olog.value(olog.PAUSE))
    return None


def _resume(c: Command) -> Handled:
    """Play again: the clock runs for what remained of it (R11), a bot to act is due now."""
    table, s, game, seats = c.table, c.settings, c.game, c.seats
    if table.status != TableStatus.PAUSED:
        return NOT_PLAYING(status=table.status)
    table.status = TableStatus.PLAYING
    remaining = table.paused_remaining_ms
    table.paused_remaining_ms = None
    _event(table, actor=c.actor.key, kind=EventKind.REFEREE, text="# resume", reason=c.reason,
           value=olog.value(olog.RESUME))
    ms = remaining if remaining is not None else int(s["clock_seconds"]) * 1000
    if int(s["clock_seconds"]):
        _start_clock(table, game, c.now, ms, c.outbox)
    if game.to_act is not None and _is_bot_turn(seats[game.to_act]):
        _deadline(table, DeadlineKind.BOT, c.now, seat=game.to_act + 1, guard=table.seq,
                  outbox=c.outbox)
    return None


def _call(c: Command) -> Handled:
    """The call of the last two rounds (R2)."""
    return CallLastRounds()


def _widen(c: Command) -> Handled:
    """The closing dice widened, with the referee's reason."""
    return WidenClosing(c.reason)


def _end_game(c: Command) -> Handled:
    """The game ended by the referee, with his reason."""
    return EndGame(c.reason)


def _abandon(c: Command) -> Handled:
    """The target seat abandons (``abandon``) or is expelled (``expel``)."""
    assert c.target is not None
    return Abandon(c.target.position - 1)


def _penalty(c: Command) -> Handled:
    """A penalty of negative ``points`` to the target seat (the evening's too at a
    tournament table)."""
    table, target, actor, reason = c.table, c.target, c.actor, c.reason
    assert target is not None
    points = c.command.get("points")
    if not isinstance(points, int) or points >= 0:
        return BAD_SETTING(setting="points", reason="negative points")
    table.penalties = [*table.penalties, {
        "seat": target.position, "player": target.name, "points": points,
        "reason": reason, "referee": actor.name}]
    _event(table, actor=actor.key, kind=EventKind.REFEREE, seat=target.position,
           text=f"# penalty {target.name} {points}", reason=reason,
           value=olog.value(olog.PENALTY, player=target.name, points=points))
    if c.tournament is not None and table.game_table is not None:
        club.add_penalty(table.game_table.evening, target.name, points, unit="table",
                         reason=reason, referee=actor.name, table=table.game_table,
                         who=actor.name)
    return None


def _undo_command(c: Command) -> Handled:
    """The last action undone (:func:`_undo`)."""
    undone = _undo(c.table, c.reason, c.actor)
    if undone is None:
        return NOTHING_TO_UNDO()
    c.game = undone
    return None


def _bot_level(c: Command) -> Handled:
    """The level of the bot that plays the target seat: a bot seat's own (its name says
    the new level), or for a person's seat the stand-in that plays for him while absent
    (R13, casual tables). ``level`` one of :data:`~risiko.agents.levels.LEVELS`."""
    target = c.target
    assert target is not None
    try:
        bot = bot_of(c.command.get("level"), target.position)
    except RisikoError as e:
        return e.fault  # nothing written
    target.bot = bot
    target.save(update_fields=["bot"])
    level = level_of(bot)
    _event(c.table, actor=c.actor.key, kind=EventKind.REFEREE, seat=target.position,
           text=f"# bot level {target.position} {level}", reason=c.reason,
           value=olog.value(olog.BOT_LEVEL, seat=target.position, player=target.name,
                            level=level))
    return None


#: the referee's commands by kind
HANDLERS: dict[str, Callable[[Command], Handled]] = {
    "pause": _pause,
    "resume": _resume,
    "call": _call,
    "widen": _widen,
    "end_game": _end_game,
    "abandon": _abandon,
    "expel": _abandon,
    "penalty": _penalty,
    "undo": _undo_command,
    "bot_level": _bot_level,
}
#: the commands that name a seat, and those that need a reason
NEED_SEAT = ("penalty", "expel", "abandon", "bot_level")
NEED_REASON_KINDS = ("widen", "end_game", "penalty", "expel", "undo")


def referee(table_id: int, actor: Actor, command: Mapping[str, Any], *, client_id: str = "",
            expect_seq: int | None = None) -> Reply:
    """A referee's command (pause, resume, call, widen, end_game, penalty, expel, abandon,
    undo, bot_level: :data:`HANDLERS`), each an event and an audit entry. Refused for anyone but a
    referee."""
    now = timezone.now()
    kind = str(command.get("kind", ""))
    reason = str(command.get("reason", "") or "").strip()
    with transaction.atomic():
        table = OnlineTable.objects.select_for_update().get(pk=table_id)
        if actor.role != "referee":
            return _refuse(table, NOT_REFEREE())
        if client_id:
            old = TableEvent.objects.filter(table=table, actor=actor.key,
                                            client_id=client_id).first()
            if old is not None:
                return Reply(seq=old.seq, duplicate=True)
        if table.status not in (TableStatus.PLAYING, TableStatus.PAUSED):
            return _refuse(table, NOT_PLAYING(status=table.status))
        seats = _seats(table)
        game = _take_game(table)
        outbox = Outbox(table.pk)
        table.new_events = []
        tournament = _tournament(table)
        seat_no = command.get("seat")
        target = next((x for x in seats if x.position == seat_no), None)
        if kind in NEED_SEAT and target is None:
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, WRONG_SEAT(seat=seat_no))
        if kind in NEED_REASON_KINDS and not reason:
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, NEED_REASON(what=kind))
        handler = HANDLERS.get(kind)
        if handler is None:
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, BAD_COMMAND(command=kind))
        c = Command(table=table, actor=actor, command=command, kind=kind, reason=reason,
                    now=now, seats=seats, game=game, outbox=outbox,
                    settings=settings_of(table), tournament=tournament, target=target)
        done = handler(c)
        if isinstance(done, Fault):
            _cache_put(table.pk, table.seq, game)
            return _refuse(table, done)
        game = c.game
        if done is None and client_id:
            # the entry the handler wrote carries the message id: the same message sent again
            # (a resend, a second tab) is a duplicate, not a second pause, penalty, level ...
            mine = next((e for e in table.new_events or [] if e.actor == actor.key), None)
            if mine is not None:
                mine.client_id = client_id[:64]
                TableEvent.objects.filter(pk=mine.pk).update(client_id=mine.client_id)
        if done is not None:
            before = adapter.draws(game)
            try:
                recorded = adapter.push(game, done)
            except RisikoError as e:
                return _refuse(table, *e.faults)
            after = adapter.draws(game)
            _event(table, actor=actor.key, kind=EventKind.REFEREE, seat=seat_no,
                   intention=dict(command), text=adapter.line_of(None, recorded),
                   draws=(before, after), client_id=client_id, reason=reason,
                   value=olog.action_value(None, recorded, _players(seats)))
            table.draws = after
            if kind == "expel" and tournament is not None and table.game_table is not None:
                assert target is not None
                club.add_discipline(table.game_table.evening, target.name, "table",
                                    reason=reason, referee=actor.name,
                                    table_number=table.game_table.number, who=actor.name)
            if target is not None:
                target.r13_requested = False
                target.save()
        _after_change(table, game, now, outbox, seats)
        _save(table)
        club.audit(actor.name, f"online {kind}", tournament, table,
                   f"online table {table.code}: {kind}" + (f" ({reason})" if reason else ""),
                   {"command": dict(command), "seq": table.seq},
                   params={**_where(table), "kind": kind, "reason": reason,
                           **({"seat": target.position, "player": target.name}
                              if target is not None else {}),
                           **({"points": command.get("points")} if kind == "penalty" else {})})
        entries, table.new_events = table.new_events or [], None
        _broadcast(table, game, _seats(table), entries, outbox)
        final = table.seq
        transaction.on_commit(lambda: _cache_put(table.pk, final, game))
    return Reply(seq=table.seq, outbox=outbox)


def _undo(table: OnlineTable, reason: str, actor: Actor) -> Game | None:
    """Undo the last game action: mark it undone, rebuild the game without it; its draws are
    burnt (SkippedDraws). None when there is nothing to undo."""
    last = TableEvent.objects.filter(table=table, undone=False).exclude(
        text__startswith="#").order_by("-seq").first()
    if last is None:
        return None
    last.undone = True
    last.save(update_fields=["undone"])
    if last.draws_to > last.draws_from:
        table.skipped_draws = sorted({*table.skipped_draws,
                                      *range(last.draws_from, last.draws_to)})
    table.snapshot = None
    table.snapshot_format = ""
    table.snapshot_dirty = True
    _event(table, actor=actor.key, kind=EventKind.REFEREE, text=f"# undo {last.seq}: {last.text}",
           reason=reason, value=olog.value(olog.UNDO, seq=last.seq))
    game = _fresh(table)
    adapter.replay_lines(game, _game_lines(table, 0))
    adapter.set_draws(game, table.draws)
    table.turn = -1 if adapter.turn_number(game) == table.turn else table.turn
    return game
