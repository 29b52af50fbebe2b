"""Benchmarks of whole games (figures written in docs/benchmarks.md; not a timed test).

1. Speed: ``N`` (1000) 4-seat games of random bots with the last 2 rounds called in round 34,
   each timed on one core (``time.process_time``): median and mean per game, games per second.
2. Strength: the heuristic bot against random bots, ``M`` (200) 4-seat games, the heuristic
   bot's seat rotating: its share of wins and mean table score against the random bots'.

Run: ``.venv/bin/python bench/bench_games.py [N] [M]``.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from risiko.cli.game_commands import simulate_one, summarise
from risiko.match import play_bots
from risiko.ruleset import CLUB_MILANO


def speed(games: int) -> None:
    """Time ``games`` random-bot games, one by one."""
    times: list[float] = []
    rolls: list[int] = []
    rounds: list[int] = []
    for seed in range(1, games + 1):
        start = time.process_time()
        game = play_bots(["random"], 4, seed=seed, last_rounds_at=34)
        times.append(time.process_time() - start)
        rolls.append(game.rolls)
        assert game.outcome is not None
        rounds.append(game.outcome.rounds)
    median = statistics.median(times)
    print(
        f"speed: {games} games, 4 seats, random bots, last rounds called in round 34: "
        f"median {median * 1e3:.2f} ms/game, mean {statistics.fmean(times) * 1e3:.2f} ms, "
        f"{games / sum(times):.1f} games/s on one core; mean rounds "
        f"{statistics.fmean(rounds):.1f}, mean rolls {statistics.fmean(rolls):.1f}"
    )


def strength(games: int) -> None:
    """The heuristic bot (one seat, rotating) against three random bots."""
    results = []
    base = ["heuristic", "random", "random", "random"]
    start = time.perf_counter()
    for i in range(games):
        k = i % 4
        bots = base[-k:] + base[:-k] if k else base
        results.append(simulate_one(10_000 + i, bots, 4, CLUB_MILANO, 8))
    summary = summarise(results, 4, time.perf_counter() - start)
    share = summary["wins_by_bot"].get("heuristic", 0.0) / games
    print(
        f"strength: {games} games, 4 seats, 1 heuristic v 3 random, call in round 8: "
        f"heuristic wins {share:.1%} of games (a random seat would win 25%); "
        f"mean score heuristic {summary['mean_score_by_bot']['heuristic']}, "
        f"random {summary['mean_score_by_bot']['random']}; end reasons {summary['end_reasons']}"
    )


def main(argv: list[str]) -> None:
    """Run both benchmarks and print the machine."""
    n = int(argv[1]) if len(argv) > 1 else 1000
    m = int(argv[2]) if len(argv) > 2 else 200
    speed(n)
    strength(m)
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"nproc {os.cpu_count()}, {platform.machine()}"
    )


if __name__ == "__main__":
    main(sys.argv)
