"""Online tables: a seat's action, applied under the table's row lock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from risiko.actions import Action
from risiko.faults import Fault, RisikoError
from risiko.game import Game
from risiko.online import adapter
from risiko.online import log as olog

from ..models import EventKind, OnlineSeat, OnlineTable, TableEvent, TableStatus
from .base import NOT_PLAYING, OUT_OF_TURN, SPECTATOR, STALE, Actor, Outbox, Reply
from .cache import _cache_put, _take_game
from .messages import _broadcast
from .rows import _event, _locked, _players, _save, _seats
from .schedule import _after_change


# ------------------------------------------------------------------------------ actions
def _refuse(table: OnlineTable, *faults: Fault) -> Reply:
    return Reply(seq=table.seq, faults=list(faults))


def _stale(table: OnlineTable, expect_seq: int | None) -> bool:
    if expect_seq is None or expect_seq == table.seq:
        return False
    return TableEvent.objects.filter(table=table, seq__gt=expect_seq).exclude(
        text__startswith="#").exists() or expect_seq > table.seq


def apply(table_id: int, actor: Actor, intention: Mapping[str, Any], *, client_id: str = "",
          expect_seq: int | None = None) -> Reply:
    """Apply a seat's intention exactly once (docs/online.md): under the row lock, refused
    with faults (wrong seat, out of turn, stale view, the engine's refusal) or written as
    the next event. A ``client_id`` already applied returns that event (``duplicate``)."""
    now = timezone.now()
    try:
        with transaction.atomic():
            table = _locked(table_id, actor.key, client_id)
            if actor.role != "seat" or actor.seat is None:
                return _refuse(table, SPECTATOR())
            applied = getattr(table, "applied_seq", None)
            if applied is not None:
                return Reply(seq=applied, duplicate=True)
            if table.status != TableStatus.PLAYING:
                return _refuse(table, NOT_PLAYING(status=table.status))
            if _stale(table, expect_seq):
                return _refuse(table, STALE(seen=expect_seq, seq=table.seq))
            seats = _seats(table)
            game = _take_game(table)
            if game.to_act != actor.seat:
                _cache_put(table.pk, table.seq, game)
                who = game.players[game.to_act] if game.to_act is not None else "-"
                return _refuse(table, OUT_OF_TURN({"player": who}))
            try:
                action = adapter.to_action(intention)
                before = adapter.draws(game)
                recorded = adapter.push(game, action)
            except RisikoError as e:
                # the engine's push leaves the game as it was; the cache is rebuilt anyway
                return _refuse(table, *e.faults)
            outbox = _record(table, game, seats, now, recorded, actor=actor.key,
                             kind=EventKind.ACTION, seat=actor.seat, intention=intention,
                             before=before, client_id=client_id, prev=actor.seat)
    except IntegrityError:
        table = OnlineTable.objects.get(pk=table_id)
        return _refuse(table, STALE(seen=expect_seq, seq=table.seq))
    return Reply(seq=outbox_seq(outbox), outbox=outbox)


def outbox_seq(outbox: Outbox) -> int:
    """The seq the outbox's messages carry."""
    for _, message in outbox.messages:
        return int(message["seq"])
    return 0


def _record(table: OnlineTable, game: Game, seats: list[OnlineSeat], now: dt.datetime,
            recorded: Action, *, actor: str, kind: str, seat: int | None,
            intention: Mapping[str, Any] | None = None, before: int = 0,
            client_id: str = "", reason: str = "", prev: int | None = None) -> Outbox:
    """Write the event of an applied action, then clock, bots, snapshot, end; broadcast
    (private views to ``prev``, the seat that acted, the seat to act now and seats out of
    play; to every seat when the game is over or ``prev`` is None)."""
    after = adapter.draws(game)
    seq_from = table.seq
    table.new_events = []
    ev = _event(table, actor=actor, kind=kind, seat=None if seat is None else seat + 1,
                intention=intention, text=adapter.line_of(seat, recorded),
                draws=(before, after), client_id=client_id, reason=reason,
                write=game.over,  # the game's record, written at its end, reads it
                value=olog.action_value(seat if seat is not None else prev, recorded,
                                        _players(seats)))
    table.draws = after
    outbox = Outbox(table.pk)
    _after_change(table, game, now, outbox, seats)
    _save(table, None if game.over else ev)  # the event and the row in one statement
    entries, table.new_events = table.new_events or [ev], None
    private: list[int] | None = None
    if prev is not None and not game.over:
        private = [prev, *([] if game.to_act is None else [game.to_act]),
                   *(s for s in range(game.n) if game.status[s] != "in_play")]
    _broadcast(table, game, seats, entries, outbox, private)
    final_seq = table.seq
    outbox.advance = (table.pk, seq_from, final_seq,
                      [e.text for e in entries if not e.undone and not e.text.startswith("#")],
                      table.draws)
    transaction.on_commit(lambda: _cache_put(table.pk, final_seq, game))
    return outbox
