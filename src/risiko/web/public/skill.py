"""The players' skill view: a Weng-Lin rating beside the official points (issue 19).

Every played table of every tournament, in date order (then tournament, then table number),
becomes an order (:func:`risiko.ratings.places`): a RisiKo! first, then the table's winners
(those the table names, else the top table score, :func:`table_winners`), then by table
points (after table penalties), the seats that left the game (R13) last; equal seats tie.
The ratings are computed from scratch from these results whenever a fact changed
(:func:`risiko.web.public.data.change_key`), so a corrected result or two players merged
into one (their tables are then one identity's) re-rate everyone concerned.

A rating keys on the player's identity, :func:`identity`: the player's row (a name merged
into another is that other's). It reads the snapshots the public pages already computed and
writes nothing: the official standings never depend on it (tested).

The view is absent (``rating_of`` returns None) where ``openskill`` is not installed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from typing import Any

from risiko.faults import InvalidInputError
from risiko.ratings import Rating, Ratings, SeatOutcome, places
from risiko.tournament import model as dm
from risiko.tournament.ranking import table_winners
from risiko.web.players.models import Player
from risiko.web.tournaments.models import Tournament

from . import data

__all__ = ["identity", "rating_of", "ratings", "table_orders"]

_lock = threading.Lock()
_building = threading.Lock()  # held while the ratings are computed
_cached: tuple[tuple[Any, ...], Ratings | None] | None = None


def identity(player_pk: int) -> str:
    """The identity a rating keys on: ``"player:<pk>"`` (one person, one row: a merge moves
    every fact to the row kept)."""
    return f"player:{player_pk}"


def _order(table: dm.Table, ruleset: Any, ids: dict[str, str]) -> list[tuple[str, int]]:
    results = table.results(ruleset)
    won = table_winners(results, table.winners)
    return places([SeatOutcome(ids.get(s.player, f"name:{s.player}"), s.score, s.risiko,
                               s.player in won, s.abandoned) for s in results])


def table_orders() -> Iterator[Sequence[tuple[str, int]]]:
    """Every played table of 2 seats or more as its ``(identity, place)`` pairs, in date
    order, then tournament, then table number."""
    ids = {name: identity(pk) for name, pk in Player.objects.values_list("name", "pk")}
    rows = []
    for t in Tournament.objects.order_by("pk"):
        snap = data.snapshot(t, fresh=True)  # never the one from before a change
        for evening in snap.scored.evenings:
            for number, table in enumerate(evening.tables, start=1):
                if table.played and len(table.seats) >= 2:
                    rows.append((evening.date, t.pk, number, snap.ruleset, table))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    for _date, _pk, _number, ruleset, table in rows:
        yield _order(table, ruleset, ids)


def _compute(key: tuple[Any, ...]) -> Ratings | None:
    global _cached
    try:
        found: Ratings | None = Ratings()
    except InvalidInputError:
        found = None
    if found is not None:
        for order in table_orders():
            found.rate(order)
    with _lock:
        _cached = (key, found)
    return found


def _compute_in_background(key: tuple[Any, ...]) -> None:
    from django.db import connections

    def work() -> None:
        try:
            _compute(key)
        finally:
            _building.release()
            connections.close_all()

    threading.Thread(target=work, name="skill-ratings", daemon=True).start()


def ratings() -> Ratings | None:
    """Every identity's rating from every result, computed again after any change (None
    without ``openskill``). One computation at a time; while it runs, and with the server's
    background snapshots (:func:`risiko.web.public.data.background_snapshots`) whenever
    there are ratings from before the change, a request gets those (a page never waits
    for the ratings of a result saved a moment ago)."""
    key = data.change_key()
    with _lock:
        previous = _cached
    if previous is not None and previous[0] == key:
        return previous[1]
    if not _building.acquire(blocking=previous is None):
        assert previous is not None
        return previous[1]
    if previous is not None and data.background_snapshots():
        _compute_in_background(key)
        return previous[1]
    try:
        return _compute(key)
    finally:
        _building.release()


def rating_of(name: str) -> Rating | None:
    """The rating of the player called ``name`` (None: no rated game, or no openskill)."""
    rated = ratings()
    pk = Player.objects.filter(name=name).values_list("pk", flat=True).first()
    if rated is None or pk is None or identity(pk) not in rated:
        return None
    return rated[identity(pk)]


def clear_cache() -> None:
    """Forget the ratings (tests)."""
    global _cached
    with _lock:
        _cached = None
