"""Online tables: this process's cached game of each table (one cache, owned here), and a game
rebuilt from the table's snapshot and events when the cache does not hold it.

A cached game is kept without its history once that reaches
:data:`risiko.online.adapter.HISTORY_MOST` actions (:func:`risiko.online.adapter.bounded`):
what a worker holds for a table, and what its garbage collector walks, does not grow with
the game's length (docs/benchmarks.md, "Issue 20")."""

from __future__ import annotations

import threading

from risiko.game import Game
from risiko.online import adapter

from ..models import OnlineTable
from .base import log, settings_of
from .rows import _game_lines, _players, _seats

# ------------------------------------------------------------------------------ the cache
_CACHE: dict[int, tuple[int, Game]] = {}
_CACHE_LOCK = threading.Lock()


def _cache_take(table_id: int, seq: int) -> Game | None:
    with _CACHE_LOCK:
        hit = _CACHE.pop(table_id, None)
    return hit[1] if hit is not None and hit[0] == seq else None


def _cache_put(table_id: int, seq: int, game: Game) -> None:
    game = adapter.bounded(game)
    with _CACHE_LOCK:
        _CACHE[table_id] = (seq, game)


def _cache_peek(table_id: int, seq: int) -> Game | None:
    with _CACHE_LOCK:
        hit = _CACHE.get(table_id)
    return hit[1] if hit is not None and hit[0] == seq else None


def advance_cached(table_id: int, seq_from: int, seq_to: int, lines: list[str],
                   draws: int) -> bool:
    """Bring this process's cached game of a table from event ``seq_from`` to ``seq_to`` by
    pushing the record ``lines`` of the events between (with their dice: nothing is drawn)
    and setting the next chance draw to ``draws``: what another worker applied, learnt from
    its broadcast (:attr:`Outbox.advance`), so that the next action at this worker finds its
    game in the cache instead of rebuilding it from the database. Nothing when the cache does
    not hold the game at ``seq_from`` (False); a line that does not apply drops the cached
    game (the next action rebuilds it). True when the cache now holds ``seq_to``."""
    with _CACHE_LOCK:
        hit = _CACHE.get(table_id)
        if hit is None or hit[0] != seq_from or seq_to <= seq_from:
            return False
        del _CACHE[table_id]  # ours alone while lines are pushed (as _cache_take)
    game = hit[1]
    try:
        adapter.replay_lines(game, lines)
    except ValueError as e:  # RisikoError, RecordError: the line does not apply here
        log.warning("table %s: cached game not advanced to %s (%s)", table_id, seq_to, e)
        return False
    adapter.set_draws(game, draws)
    game = adapter.bounded(game)
    with _CACHE_LOCK:
        held = _CACHE.get(table_id)
        if held is not None and held[0] >= seq_to:  # this worker has gone further meanwhile
            return False
        _CACHE[table_id] = (seq_to, game)
    return True


def clear_cache() -> None:
    """Forget every cached game (tests; a game is rebuilt from the database)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def _fresh(table: OnlineTable) -> Game:
    s = settings_of(table)
    return adapter.new_game(
        _players(_seats(table)), table.ruleset, bytes.fromhex(table.seed),
        late=s.get("late") or (), last_rounds_at=s.get("call_round"),
    )


def _rebuild(table: OnlineTable) -> Game:
    """The game at ``table.seq``: the snapshot plus the events since (or all the events)."""
    game: Game | None = None
    since = 0
    if table.snapshot_format == adapter.SNAPSHOT_FORMAT and table.snapshot is not None:
        try:
            game = adapter.restore(bytes(table.snapshot), bytes.fromhex(table.seed),
                                   table.ruleset)
            since = table.snapshot_seq
        except ValueError as e:  # a position this engine cannot read: replay the events
            log.warning("table %s: snapshot unreadable (%s), replaying the events",
                        table.code, e)
            game = None
    if game is None:
        game = _fresh(table)
        since = 0
    adapter.replay_lines(game, _game_lines(table, since))
    adapter.set_draws(game, table.draws)
    return game


def game_of(table: OnlineTable) -> Game:
    """The table's game now (from the cache when it is current); not for a lobby."""
    cached = _cache_peek(table.pk, table.seq)
    if cached is not None:
        return cached
    game = _rebuild(table)
    _cache_put(table.pk, table.seq, game)
    return game


def _take_game(table: OnlineTable) -> Game:
    cached = _cache_take(table.pk, table.seq)
    return cached if cached is not None else _rebuild(table)
