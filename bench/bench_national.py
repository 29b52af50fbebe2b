"""Benchmark of the national list: the whole list of a year for ``PLAYERS``
(1,300) players and ``TOURNAMENTS`` (400) tournaments recomputed in under a second (figures
in docs/benchmarks.md; not a timed test).

A synthetic year (seeded): 33 clubs of about 40 players each; tournaments of every ranked
category (half campionati of 4 to 10 rounds, then opens, masters, interclubs, raduni, and a
few nazionali and amichevoli), 16 to 64 entrants in tables of 4, mostly the organising
club's players with visitors, two anonymous seats in some; standings a shuffle.

Two figures, each the best and the median of ``RUNS`` (5):

- ``compute``: :func:`risiko.national.ranking.national_ranking` on the tournaments already
  in memory (CPU time, ``time.process_time``);
- ``from the database``: :func:`risiko.web.national.services.ranking`, what
  ``risiko national ranking`` and the pages call: the revisions in force and their results
  read from a fresh SQLite database (the reports imported first with ``import_report``, not
  timed), then the list computed (wall and CPU time, queries).

Run: ``.venv/bin/python bench/bench_national.py [PLAYERS] [TOURNAMENTS] [RUNS]``;
``--compute-only`` skips the database (for ``valgrind --tool=cachegrind``).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

PLAYERS, TOURNAMENTS, RUNS, CLUBS = 1300, 400, 5, 33
CATEGORIES = (["CPP"] * 50 + ["OPN"] * 22 + ["MST"] * 10 + ["ITC"] * 10 + ["RDN"] * 4
              + ["CNI"] * 2 + ["AMC"] * 2)


def reports(players: int, tournaments: int, seed: int = 2024) -> list[dict[str, Any]]:
    """The year's ``risiko-report/1`` values."""
    rng = random.Random(seed)
    club_of = {n: n % CLUBS for n in range(1, players + 1)}
    members: dict[int, list[int]] = {}
    for n, c in club_of.items():
        members.setdefault(c, []).append(n)
    out = []
    for k in range(tournaments):
        club = k % CLUBS
        code = rng.choice(CATEGORIES)
        rounds = rng.randint(4, 10) if code == "CPP" else rng.randint(2, 5)
        size = 4 * rng.randint(4, 16)
        local = rng.sample(members[club], min(len(members[club]), size * 2 // 3))
        others = [n for n in rng.sample(range(1, players + 1), size) if n not in local]
        anonymous = ["a1", "a2"] if k % 5 == 0 else []
        entrants = (local + others)[:size - len(anonymous)]  # tables of 4, nobody left out
        start = date(2024, 1, 6) + timedelta(days=rng.randint(0, 300))
        dates = [start + timedelta(days=7 * r) for r in range(rounds)]
        keys = [f"n{n}" for n in entrants]
        games = []
        for r in range(1, rounds + 1):
            seated = keys + anonymous
            rng.shuffle(seated)
            for t in range(len(seated) // 4):
                four = seated[4 * t:4 * t + 4]
                points = rng.sample(range(5, 120), 4)
                games.append({"round": r, "table": t + 1,
                              "seats": [{"player": p, "points": v} for p, v in zip(four, points,
                                                                                  strict=True)],
                              "winners": [four[points.index(max(points))]]})
        order = keys + anonymous
        rng.shuffle(order)
        out.append({
            "format": "risiko-report/1",
            "club": {"id": f"club{club:02d}", "name": f"CITTÀ {club:02d} [Club {club:02d}]"},
            "tournament": {"name": f"Torneo {k:03d}", "category": code, "rounds": rounds,
                           "dates": [d.isoformat() for d in dates], "finished": True},
            "players": [{"key": f"n{n}", "national_id": n, "name": f"Nome{n}",
                         "surname": f"Cognome{n}", "birth_date": None} for n in entrants]
            + [{"key": a, "national_id": None, "name": "Anonimo", "surname": "Anonimo",
                "birth_date": None} for a in anonymous],
            "games": games,
            "standings": [{"player": p, "position": i} for i, p in enumerate(order, 1)],
        })
    return out


def timed(fn: Any, runs: int) -> tuple[list[float], list[float], Any]:
    walls, cpus, value = [], [], None
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        value = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, value


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    players = int(args[0]) if args else PLAYERS
    tournaments = int(args[1]) if len(args) > 1 else TOURNAMENTS
    runs = int(args[2]) if len(args) > 2 else RUNS
    from risiko.national.ranking import national_ranking
    from risiko.national.report import read_report

    checked = [read_report(r) for r in reports(players, tournaments)]
    results = [r.result() for r in checked]
    entries = sum(len(t.participants) for t in results)
    print(f"{tournaments} tournaments, {entries} results, {sum(t.tables for t in results)} "
          f"games")
    walls, cpus, in_memory = timed(lambda: national_ranking(2024, results), runs)
    print(f"compute: {len(in_memory.players)} players listed; CPU best {min(cpus):.3f} s, "
          f"median {statistics.median(cpus):.3f} s (wall best {min(walls):.3f} s)")
    if "--compute-only" in sys.argv:
        return
    with tempfile.TemporaryDirectory() as tmp:
        from bench_web import setup_django

        setup_django(tmp)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from risiko.web.national.services import import_report, ranking

        start = time.perf_counter()
        for report in checked:
            import_report(report, by="bench")
        print(f"imported in {time.perf_counter() - start:.1f} s (not timed below)")
        with CaptureQueriesContext(connection) as queries:
            ranking(2024)
        walls, cpus, stored = timed(lambda: ranking(2024), runs)
        same = stored.to_json() == in_memory.to_json()
        print(f"from the database: {len(stored.players)} players, {len(queries)} queries, "
              f"same list as in memory: {same}; wall best {min(walls):.3f} s, median "
              f"{statistics.median(walls):.3f} s; CPU best {min(cpus):.3f} s")


if __name__ == "__main__":
    main()
