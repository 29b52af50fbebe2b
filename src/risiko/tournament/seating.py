"""Seating an evening: tables of 5 and 4, few repeat opponents, rotated first seats.

Sizes (:func:`table_sizes`): N present players sit at tables of 5 and 4, as many 5s as
possible; a table of 3 or 6 only when nothing else fits (N = 3, 6, 7, 11), with as few such
tables, then as few tables, as possible: 3 -> 3, 6 -> 6, 7 -> 4+3, 11 -> 6+5. Fewer than 3
players cannot form a table.

Optimiser (:func:`seat_players`, after krcg/archon): the rules are ranked, each infinitely
more important than the next:

1. repeat opponents: for every pair of players at the same table, the number of times they
   already met at a table of this tournament (summed);
2. first seat: for every table, the number of times its first player already played first;
3. seat positions: for every seat, the number of times its player already sat in that
   position.

Membership is improved by random swaps (hill climbing with restarts, accepting equal moves),
minimising rule 1; then each table's seat order is the permutation that minimises rules 2
and 3, ties drawn at random. Everything random comes from one ``random.Random(seed)``, so a
seed gives the same seating every time. Seat order = turn order (seat 1 plays first).
A referee may then swap any two players by hand (:func:`swap_seats`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..faults import InvalidInputError, define
from .model import Evening, Tournament
from .schedule import classify

__all__ = [
    "MAX_TABLE",
    "MIN_TABLE",
    "Seating",
    "SeatingCost",
    "SeatingError",
    "expelled_before",
    "history_of",
    "players_to_seat",
    "seat_evening",
    "seat_players",
    "seating_cost",
    "swap_seats",
    "table_sizes",
]

#: fewest and most seats at a table (standard game: 3 to 6 seats)
MIN_TABLE = 3
MAX_TABLE = 6

History = Sequence[Sequence[str]]


class SeatingError(InvalidInputError):
    """The players cannot be seated (fewer than 3, a name twice, an unknown swap)."""


TOO_FEW = define("seating.too_few", "", "{count} players cannot form a table ({min} to {max} "
                 "seats)", located=True)
LISTED_TWICE = define("seating.listed_twice", "", "listed twice: {players}", located=True)
NOT_SEATED = define("seating.not_seated", "", "not seated: {players}", located=True)


@dataclass(frozen=True)
class SeatingCost:
    """The optimiser's ranked costs: ``repeat_meetings`` (sum over pairs at the same table
    of the times they already met), ``repeat_pairs`` (pairs that already met at least once),
    ``first_seat`` (times each table's first player already played first, summed),
    ``positions`` (times each player already sat in his position, summed)."""

    repeat_meetings: int
    repeat_pairs: int
    first_seat: int
    positions: int

    def key(self) -> tuple[int, int, int]:
        """Lexicographic comparison key (repeat opponents, first seat, positions)."""
        return (self.repeat_meetings, self.first_seat, self.positions)

    def to_dict(self) -> dict[str, int]:
        """JSON form."""
        return {
            "repeat_meetings": self.repeat_meetings,
            "repeat_pairs": self.repeat_pairs,
            "first_seat": self.first_seat,
            "positions": self.positions,
        }


@dataclass(frozen=True)
class Seating:
    """The tables of an evening (each a tuple of players in turn order) and their cost
    against the tournament's history."""

    tables: tuple[tuple[str, ...], ...]
    cost: SeatingCost

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``tables`` (lists of players) and ``cost``."""
        return {"tables": [list(t) for t in self.tables], "cost": self.cost.to_dict()}


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players, largest first (see the module docstring).

    Raises :class:`SeatingError` for fewer than 3 players.
    """
    if n < MIN_TABLE:
        raise SeatingError(TOO_FEW(count=n, min=MIN_TABLE, max=MAX_TABLE))
    best: tuple[tuple[int, int, int], list[int]] | None = None
    for sixes in range(n // 6 + 1):
        for fives in range((n - 6 * sixes) // 5 + 1):
            for fours in range((n - 6 * sixes - 5 * fives) // 4 + 1):
                rest = n - 6 * sixes - 5 * fives - 4 * fours
                if rest % 3:
                    continue
                threes = rest // 3
                tables = sixes + fives + fours + threes
                key = (sixes + threes, tables, threes)
                if best is None or key < best[0]:
                    best = (key, [6] * sixes + [5] * fives + [4] * fours + [3] * threes)
    assert best is not None  # every n >= 3 is a sum of 3s, 4s and 5s
    return best[1]


def _counts(history: History) -> tuple[Counter[frozenset[str]], Counter[tuple[str, int]]]:
    met: Counter[frozenset[str]] = Counter()
    seat: Counter[tuple[str, int]] = Counter()
    for table in history:
        for i, p in enumerate(table):
            seat[(p, i)] += 1
        for a, b in itertools.combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met, seat


def seating_cost(tables: Sequence[Sequence[str]], history: History = ()) -> SeatingCost:
    """The ranked costs of ``tables`` (players in seat order) given past tables."""
    met, seat = _counts(history)
    meetings = pairs = first = positions = 0
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            m = met[frozenset((a, b))]
            meetings += m
            pairs += m > 0
        if table:
            first += seat[(table[0], 0)]
        positions += sum(seat[(p, i)] for i, p in enumerate(table))
    return SeatingCost(meetings, pairs, first, positions)


def seat_players(
    players: Iterable[str],
    history: History = (),
    *,
    seed: int | str | None = None,
    rng: random.Random | None = None,
    restarts: int = 6,
    steps: int | None = None,
) -> Seating:
    """Seat ``players`` at tables of :func:`table_sizes`, minimising repeat opponents, then
    repeated first seats, then repeated positions against ``history`` (past tables, each in
    seat order).

    ``seed`` (or an explicit ``rng``) makes the result reproducible; ``restarts`` random
    starts of ``steps`` swap attempts each (default 60 x players) are tried and the best is
    kept. Raises :class:`SeatingError` for fewer than 3 players or a name given twice.
    """
    names = list(players)
    dup = sorted({p for p in names if names.count(p) > 1})
    if dup:
        raise SeatingError(LISTED_TWICE(players=dup))
    sizes = table_sizes(len(names))
    rand = rng if rng is not None else random.Random(seed)
    met, seat = _counts(history)
    n_steps = steps if steps is not None else 60 * len(names)

    def pair_cost(p: str, others: Iterable[str]) -> int:
        return sum(met[frozenset((p, q))] for q in others if q != p)

    best: tuple[int, list[list[str]]] | None = None
    for _ in range(max(1, restarts)):
        order = sorted(names)
        rand.shuffle(order)
        tables: list[list[str]] = []
        start = 0
        for size in sizes:
            tables.append(order[start:start + size])
            start += size
        total = sum(pair_cost(p, t) for t in tables for p in t) // 2
        if len(tables) > 1:
            for _ in range(n_steps):
                if total == 0:
                    break
                ta, tb = rand.sample(range(len(tables)), 2)
                ia = rand.randrange(len(tables[ta]))
                ib = rand.randrange(len(tables[tb]))
                a, b = tables[ta][ia], tables[tb][ib]
                rest_a = [x for x in tables[ta] if x != a]
                rest_b = [y for y in tables[tb] if y != b]
                delta = (pair_cost(b, rest_a) - pair_cost(a, rest_a)
                         + pair_cost(a, rest_b) - pair_cost(b, rest_b))
                if delta < 0 or (delta == 0 and rand.random() < 0.5):
                    tables[ta][ia], tables[tb][ib] = b, a
                    total += delta
        if best is None or total < best[0]:
            best = (total, [list(t) for t in tables])
        if total == 0:
            break
    assert best is not None
    ordered = tuple(_order_table(t, seat, rand) for t in best[1])
    return Seating(ordered, seating_cost(ordered, history))


def _order_table(table: list[str], seat: Counter[tuple[str, int]],
                 rand: random.Random) -> tuple[str, ...]:
    """The seat order of one table minimising (first seat, positions); ties drawn."""
    best_key: tuple[int, int] | None = None
    best: list[tuple[str, ...]] = []
    for perm in itertools.permutations(sorted(table)):
        key = (seat[(perm[0], 0)], sum(seat[(p, i)] for i, p in enumerate(perm)))
        if best_key is None or key < best_key:
            best_key, best = key, [perm]
        elif key == best_key:
            best.append(perm)
    return best[rand.randrange(len(best))]


def swap_seats(seating: Seating, a: str, b: str, history: History = ()) -> Seating:
    """A referee's manual swap: ``a`` and ``b`` exchange seats (same or different tables).

    Raises :class:`SeatingError` if either is not seated.
    """
    seated = {p for t in seating.tables for p in t}
    missing = [p for p in (a, b) if p not in seated]
    if missing:
        raise SeatingError(NOT_SEATED(players=missing))
    swap = {a: b, b: a}
    tables = tuple(tuple(swap.get(p, p) for p in t) for t in seating.tables)
    return Seating(tables, seating_cost(tables, history))


# --------------------------------------------------------------------------------------------
# the tournament's view


def history_of(tournament: Tournament, before: Evening | None = None) -> list[tuple[str, ...]]:
    """Every table of the tournament (seat order) on evenings before ``before`` (all if
    None), in date order: the optimiser's history."""
    out: list[tuple[str, ...]] = []
    for e in sorted(tournament.evenings, key=lambda e: e.date):
        if before is not None and e.date >= before.date:
            continue
        out.extend(t.seats for t in e.tables)
    return out


def expelled_before(tournament: Tournament, evening: Evening) -> dict[str, tuple[str, str]]:
    """Players expelled from the tournament or the club (R10) on an earlier evening:
    ``{player: ("tournament", "2027-03-09")}`` (the level and the date)."""
    out: dict[str, tuple[str, str]] = {}
    earlier = (e for e in tournament.evenings if e.discipline and e.date < evening.date)
    for e in sorted(earlier, key=lambda e: e.date):  # few have records: a season's checks
        for d in e.discipline:                       # ask it for each of its evenings
            if d.level in ("tournament", "club") and d.player not in out:
                out[d.player] = (d.level, e.date.isoformat())
    return out


def players_to_seat(tournament: Tournament, evening: Evening) -> list[str]:
    """The players an evening may seat: every recorded arrival admitted by R3 (on time or
    late), less the players expelled earlier (R10), in arrival order."""
    expelled = expelled_before(tournament, evening)
    out: list[str] = []
    for a in sorted(evening.arrivals, key=lambda a: a.at):
        if a.player in out or a.player in expelled:
            continue
        if classify(evening.schedule, a).admitted:
            out.append(a.player)
    return out


def seat_evening(tournament: Tournament, evening: Evening, *,
                 seed: int | str | None = None) -> Seating:
    """Seat a qualifying evening from its arrivals (:func:`players_to_seat`) against the
    tournament's earlier tables (:func:`history_of`)."""
    return seat_players(players_to_seat(tournament, evening),
                        history_of(tournament, evening), seed=seed)
