"""The national skill view: a Weng-Lin rating keyed on the national id (issue 19).

The games of every tournament's revision in force (its ``risiko-report/1``: per round and
table the seats' table points and the winners), in date order (the round's date, then the
tournament, round and table), each table's order by :func:`risiko.ratings.places`: the
winners first, then table points, equal seats tied. A seat's identity is
``national:<id>`` (:func:`identity`); an anonymous seat (no national id) is rated as its own
identity in that revision and never shown. Computed from scratch whenever the revisions in
force change, so a corrected report (a new revision) re-rates everyone concerned. It reads
the stored reports and writes nothing: the national list never depends on it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from django.db.models import F

from risiko.faults import InvalidInputError
from risiko.national.report import read_report
from risiko.ratings import Rating, Ratings, SeatOutcome, places

from .models import TournamentRevision

__all__ = ["identity", "rating_of", "ratings", "table_orders"]

_lock = threading.Lock()
_cached: tuple[tuple[int, ...], Ratings | None] | None = None  # (revisions in force, ratings)


def identity(national_id: int | None, revision: int = 0, key: str = "") -> str:
    """``national:<id>``; an anonymous seat: ``anonymous:<revision>:<key>``."""
    if national_id is None:
        return f"anonymous:{revision}:{key}"
    return f"national:{national_id}"


def _in_force() -> list[int]:
    return list(TournamentRevision.objects.filter(number=F("tournament__current"))
                .order_by("id").values_list("id", flat=True))


def table_orders(revisions: Sequence[int] | None = None) -> Iterator[list[tuple[str, int]]]:
    """Every game of the revisions in force (or ``revisions``) as its ``(identity, place)``
    pairs, in date order, then tournament, round and table."""
    ids = _in_force() if revisions is None else list(revisions)
    rows = []
    for rid, tid, data in (TournamentRevision.objects.filter(id__in=ids)
                           .values_list("id", "tournament_id", "report")):
        report = read_report(data)
        who = {p.key: p.national_id for p in report.players}
        for game in report.games:
            date = report.dates[min(game.round, len(report.dates)) - 1]
            seats = [SeatOutcome(identity(who.get(key), rid, key), points,
                                 winner=key in game.winners) for key, points in game.seats]
            rows.append((date, tid, game.round, game.table, seats))
    rows.sort(key=lambda r: (r[0], r[1], r[2], r[3]))
    for *_where, seats in rows:
        yield places(seats)


def ratings() -> Ratings | None:
    """Every national identity's rating from the revisions in force, computed again when
    they change (None without ``openskill``)."""
    global _cached
    key = tuple(_in_force())
    with _lock:
        if _cached is not None and _cached[0] == key:
            return _cached[1]
        try:
            found: Ratings | None = Ratings()
        except InvalidInputError:
            found = None
        if found is not None:
            for order in table_orders(key):
                found.rate(order)
        _cached = (key, found)
        return found


def rating_of(national_id: int) -> Rating | None:
    """The rating of the player ``national_id`` (None: no rated game, or no openskill)."""
    rated = ratings()
    if rated is None or identity(national_id) not in rated:
        return None
    return rated[identity(national_id)]


def clear_cache() -> None:
    """Forget the ratings (tests)."""
    global _cached
    with _lock:
        _cached = None
