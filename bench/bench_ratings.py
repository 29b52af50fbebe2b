"""Benchmark of the ratings (issue 19): the players' skill view computed from scratch, and
the bots' ladder (figures in docs/benchmarks.md; not a timed test).

- ``skill``: :func:`risiko.ratings.rate_all` over a club's history (seeded): ``PLAYERS``
  (200) players, ``TABLES`` (3,000) tables of 4 or 5 seats (five seasons of 30 evenings of
  20 tables), places from shuffled scores with about one tie in six tables; CPU time
  (``time.process_time``), best and median of ``RUNS`` (5). This is what the player's page
  computes once after a change (:mod:`risiko.web.public.skill`), without reading the
  snapshots.
- ``ladder``: :func:`risiko.ratings.ladder.play_game` for levels 1 and 2 at 4 seats,
  ``GAMES`` (200) games, CPU time per game, and the rating of those games.

Run: ``.venv/bin/python bench/bench_ratings.py [TABLES] [GAMES] [RUNS]``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from risiko.ratings import rate_all
from risiko.ratings.ladder import play_game
from risiko.ruleset import new_ruleset

PLAYERS, TABLES, GAMES, RUNS = 200, 3000, 200, 5


def history(tables: int, seed: int = 19) -> list[list[tuple[str, int]]]:
    """``tables`` tables of 4 or 5 of ``PLAYERS`` players, as ``(identity, place)``."""
    rng = random.Random(seed)
    out = []
    for _ in range(tables):
        seats = rng.sample(range(PLAYERS), rng.choice((4, 5)))
        scores = [rng.randrange(0, 100) for _ in seats]
        if rng.random() < 1 / 6:
            scores[1] = scores[0]  # a tie
        out.append([(f"player:{p}", 1 + sum(o > s for o in scores))
                    for p, s in zip(seats, scores, strict=True)])
    return out


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else TABLES
    games = int(sys.argv[2]) if len(sys.argv) > 2 else GAMES
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else RUNS
    print(f"load average {os.getloadavg()[0]:.2f}")
    data = history(tables)
    cpu = []
    for _ in range(runs):
        start = time.process_time()
        rated = rate_all(data)
        cpu.append(time.process_time() - start)
    print(f"skill: {tables} tables, {len(list(rated))} players: best {min(cpu):.3f} s CPU, "
          f"median {statistics.median(cpu):.3f} s ({min(cpu) / tables * 1e6:.0f} µs a table)")
    rs = new_ruleset(None)
    start = time.process_time()
    results = [play_game(i, 1, 4, rs, [1, 2]) for i in range(games)]
    played = time.process_time() - start
    start = time.process_time()
    ladder = rate_all([[(str(lv), p) for lv, p in r.places] for r in results])
    rating = time.process_time() - start
    firsts = sum(1 for r in results if r.places[0] == (2, 1) and r.places[1][1] != 1)
    print(f"ladder: {games} games of levels 1-2 at 4 seats: {played / games * 1000:.1f} ms "
          f"CPU a game, rated in {rating * 1000:.1f} ms; level 2 alone first in {firsts}")
    for key, r in ladder.ranked():
        print(f"  level {key}: mu {r.mu:.2f} sigma {r.sigma:.2f} "
              f"conservative {r.conservative:.2f}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
