"""Reports for the national tests: :func:`report` builds a ``risiko-report/1`` value."""

from __future__ import annotations

import copy
from typing import Any

#: eight players, two anonymous (national_id None)
PLAYERS: list[tuple[str, int | None, str, str]] = [
    ("p1", 101, "Anna", "Bassi"), ("p2", 102, "Bruno", "Conti"),
    ("p3", 103, "Carla", "Dini"), ("p4", 104, "Dario", "Esposito"),
    ("p5", 105, "Elena", "Fabbri"), ("p6", 106, "Fabio", "Galli"),
    ("p7", None, "Anonimo", "Anonimo"), ("p8", None, "Anonimo", "Anonimo"),
]


def report(name: str = "Open di Primavera", *, club: tuple[str, str] = (
        "milano", "MILANO [Club Milano]"), category: str = "open",
        dates: tuple[str, ...] = ("2024-03-02", "2024-03-09"), finished: bool = True,
        tables_per_round: int = 2, players: list[tuple[str, int | None, str, str]] | None
        = None, standings: list[str] | None = None) -> dict[str, Any]:
    """A report of ``len(dates)`` rounds, each of ``tables_per_round`` games of 4 seats
    (seats rotate by round; the first seat of each game wins with 90 points, the others
    score 40, 30, 20); the standings are ``standings`` (keys, first to last) or the
    players' order."""
    people = players or PLAYERS
    keys = [k for k, *_ in people]
    games = []
    for rnd in range(1, len(dates) + 1):
        order = keys[rnd - 1:] + keys[:rnd - 1]
        for table in range(1, tables_per_round + 1):
            seated = order[(table - 1) * 4:table * 4]
            games.append({
                "round": rnd, "table": table,
                "seats": [{"player": k, "points": p} for k, p in zip(
                    seated, (90, 40, 30, 20), strict=False)],
                "winners": seated[:1]})
    return copy.deepcopy({
        "format": "risiko-report/1",
        "club": {"id": club[0], "name": club[1]},
        "tournament": {"name": name, "category": category, "rounds": len(dates),
                       "dates": list(dates), "finished": finished},
        "players": [{"key": k, "national_id": n, "name": a, "surname": b,
                     "birth_date": None} for k, n, a, b in people],
        "games": games,
        "standings": [{"player": k, "position": i}
                      for i, k in enumerate(standings or keys, start=1)],
    })
