"""Bots by level (issue 19): each level against three bots of the level below, and the top
level against three ``heuristic`` bots, in 4-seat games.

Usage::

    python bench/bench_bots.py [--games N] [--pairs determinised:heuristic,greedy:heuristic]
                               [--workers W] [--master-seed S] [--last-rounds-at R]
                               [--worst-case K] [--common-seeds] [--out FILE] [--json]

- A pair ``A:B`` is one bot ``A`` against three bots ``B``; ``A``'s seat turns with the game
  index (game ``i``: seat ``i % 4``), so every seat is played as often.
- Game ``i``'s seed is derived from (master seed, pair, ``i``) by :func:`game_seed`, and the
  bots are seeded from it (:func:`risiko.match.play_bots`): the results are the same whatever
  ``--workers``.
- ``--common-seeds``: game ``i``'s seed ignores ``A`` (:func:`seed_key`), so pairs with the
  same ``B`` play the same deals and dice seeds: common random numbers, to tell two settings
  of ``A`` apart with fewer games (the way levels 3 and 4 were tuned).
- A win is the RisiKo! seat, else the best table score; a tie for the best score splits the
  win among the tied seats (as ``risiko simulate`` counts).
- Printed per pair: games, wins of ``A`` with the Wilson 95 % interval, the fair share (25 %),
  the CPU seconds per game (all four bots, the game engine included) and the wall time; with
  ``--worst-case K``: the slowest single decision of the top level (``LEVELS``' last) over K
  games, in CPU milliseconds (the online bound is 1 s).
- ``--out FILE``: each game's result (pair, index, seed, A's win share, CPU seconds ...)
  appended to ``FILE`` as one JSON line as the games end, in order (paired comparisons).
- The build (pure or compiled: ``risiko._build.build()``) and the load average are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from risiko.actions import Action
from risiko.view import SeatView

#: the pairs played by default: the top level against heuristic bots (the issue's goal)
DEFAULT_PAIRS = ("determinised:heuristic",)


def game_seed(master: int, pair: str, index: int) -> int:
    """The seed of game ``index`` of ``pair`` under ``master`` (63 bits of a BLAKE2b hash):
    independent of the worker that plays it."""
    digest = hashlib.blake2b(f"{master}:{pair}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95 % for z = 1.96).

    >>> lo, hi = wilson(40, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.309, 0.498)
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def seed_key(pair: str, common: bool) -> str:
    """The name a pair's game seeds are derived from: the pair itself, or with ``common``
    (common random numbers) only its ``B``, so every ``A`` against the same ``B`` gets the
    same seeds.

    >>> seed_key("greedy:heuristic", False), seed_key("greedy:heuristic", True)
    ('greedy:heuristic', '*:heuristic')
    """
    return f"*:{pair.split(':')[1]}" if common else pair


class _Timed:
    """An agent whose decisions are timed (CPU seconds): the worst one is kept."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.worst = 0.0
        self.decisions = 0

    def act(self, view: SeatView) -> Action:
        start = time.process_time()
        action: Action = self.agent.act(view)
        spent = time.process_time() - start
        self.decisions += 1
        if spent > self.worst:
            self.worst = spent
        return action


def play_one(args: tuple[str, str, int, int, int | None, bool]) -> dict[str, Any]:
    """One game of ``pair`` (``A:B``): A at seat ``index % 4``, the seed derived from
    ``key`` (:func:`seed_key`, the pair when empty); returns A's win share, the CPU seconds
    of the game and (timed) A's slowest decision."""
    pair, key, master, index, last_rounds_at, timed = args
    from risiko.match import make_agents, play_game

    top, other = pair.split(":")
    seat = index % 4
    seed = game_seed(master, key or pair, index)
    bots = [other] * 4
    bots[seat] = top
    start = time.process_time()
    agents: list[Any] = make_agents(bots, 4, random.Random(seed * 7919 + 1))
    probe = _Timed(agents[seat]) if timed else None
    if probe is not None:
        agents[seat] = probe
    game = play_game(agents, seed=seed, last_rounds_at=last_rounds_at)
    cpu = time.process_time() - start
    scores = [s.score for s in game.scores()]
    if game.risiko_seat is not None:
        winners = [game.risiko_seat]
    else:
        winners = [s for s, v in enumerate(scores) if v == max(scores)]
    share = 1 / len(winners) if seat in winners else 0.0
    return {
        "pair": pair, "index": index, "seed": seed, "win": share, "cpu": cpu,
        "rounds": game.outcome.rounds if game.outcome else None,
        "end": str(game.outcome.end) if game.outcome else None,
        "worst": probe.worst if probe is not None else None,
        "decisions": probe.decisions if probe is not None else None,
    }


def main(argv: list[str]) -> None:
    """Parse the options, play the games over a process pool, print the figures."""
    from risiko._build import build
    from risiko.agents.levels import LEVELS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair")
    parser.add_argument("--pairs", default=",".join(DEFAULT_PAIRS),
                        help="A:B pairs, one A against three B (default: the top level against "
                             "heuristic)")
    parser.add_argument("--ladder", action="store_true",
                        help="every level against the level below (LEVELS), plus the top "
                             "level against heuristic")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--master-seed", type=int, default=19)
    parser.add_argument("--last-rounds-at", type=int, default=8)
    parser.add_argument("--worst-case", type=int, default=0,
                        help="also time every decision of the top level over K games")
    parser.add_argument("--common-seeds", action="store_true",
                        help="derive game seeds from B only, so every A plays the same games")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", default=None,
                        help="append each game's result to this file as a JSON line as it ends")
    opts = parser.parse_args(argv[1:])
    pairs = list(dict.fromkeys(p for p in opts.pairs.split(",") if p))
    top = LEVELS[max(LEVELS)]
    if opts.ladder:
        pairs = [f"{LEVELS[k]}:{LEVELS[k - 1]}" for k in sorted(LEVELS) if k > 1]
        pairs.append(f"{top}:heuristic")
        pairs = list(dict.fromkeys(pairs))
    jobs = [(pair, seed_key(pair, opts.common_seeds), opts.master_seed, i,
             opts.last_rounds_at, False)
            for pair in pairs for i in range(opts.games)]
    jobs += [(f"{top}:heuristic", "", opts.master_seed + 1, i, opts.last_rounds_at, True)
             for i in range(opts.worst_case)]
    load = os.getloadavg()
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=opts.workers) as pool:
        results = []
        for row in pool.map(play_one, jobs, chunksize=1):
            results.append(row)
            if opts.out:
                with open(opts.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps({**row, "master_seed": opts.master_seed,
                                          "common_seeds": opts.common_seeds}) + "\n")
    wall = time.monotonic() - start
    load_end = os.getloadavg()
    report: dict[str, Any] = {
        "build": build(), "workers": opts.workers, "master_seed": opts.master_seed,
        "last_rounds_at": opts.last_rounds_at,
        "load_average_start": [round(x, 2) for x in load],
        "load_average_end": [round(x, 2) for x in load_end],
        "wall_seconds": round(wall, 1), "pairs": [],
    }
    for pair in pairs:
        rows = [r for r in results if r["pair"] == pair and r["worst"] is None]
        n = len(rows)
        wins = sum(r["win"] for r in rows)
        lo, hi = wilson(wins, n)
        cpu = sum(r["cpu"] for r in rows) / n if n else 0.0
        report["pairs"].append({
            "pair": pair, "games": n, "wins": wins, "share": wins / n if n else 0.0,
            "ci95": [round(lo, 3), round(hi, 3)], "cpu_s_per_game": round(cpu, 3),
            "hour_400_games_2_cores": round(400 * cpu / 2 / 3600, 2),
        })
    timed = [r for r in results if r["worst"] is not None]
    if timed:
        report["worst_decision_ms"] = round(1000 * max(r["worst"] for r in timed), 1)
        report["worst_case_games"] = len(timed)
        report["worst_case_decisions"] = sum(r["decisions"] for r in timed)
    if opts.json:
        print(json.dumps(report, indent=2))
        return
    print(f"build {report['build']}, {opts.workers} workers, master seed {opts.master_seed}, "
          f"call in round {opts.last_rounds_at}; load average {report['load_average_start']}"
          f" -> {report['load_average_end']}; wall {report['wall_seconds']} s")
    for row in report["pairs"]:
        a, b = row["pair"].split(":")
        print(f"{a} v 3 {b}: {row['games']} games, {a} wins {row['share']:.1%} "
              f"(95% CI {row['ci95'][0]:.1%}-{row['ci95'][1]:.1%}; fair 25%), "
              f"{row['cpu_s_per_game']} CPU s/game (400 games on 2 cores: "
              f"{row['hour_400_games_2_cores']} h)")
    if timed:
        print(f"worst decision of {top}: {report['worst_decision_ms']} ms CPU over "
              f"{report['worst_case_decisions']} decisions in {len(timed)} games")


if __name__ == "__main__":
    main(sys.argv)
