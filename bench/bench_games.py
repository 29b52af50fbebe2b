"""Benchmarks of whole games (figures written in docs/benchmarks.md; not a timed test).

1. Speed: ``N`` (1000) 4-seat games of random bots with the last 2 rounds called in round 34,
   each timed on one core (``time.process_time``: CPU time, so other processes on a shared
   machine count less), the whole run made ``--runs`` (3) times: per run the median and mean
   CPU time per game, the CPU time per attack roll and the games per second; then the median
   of the runs and its ratio to risiko-rl (17 ms of CPU per game of the same kind on this
   machine: the goal is 5x its games per second, 3.4 ms per game, 3x at the very
   least, 5.7 ms). The same games again through the checked door (``push``) once, for the
   price of checking. The load average is printed before and after: say it with the figures.
2. Strength: the heuristic bot against random bots, ``M`` (200) 4-seat games, the heuristic
   bot's seat rotating: its share of wins and mean table score against the random bots'.

Run: ``.venv/bin/python bench/bench_games.py [N] [M] [--runs K] [--profile]``;
``--profile`` adds the cProfile of the speed games (the 25 functions of most own time).
"""

from __future__ import annotations

import cProfile
import os
import platform
import pstats
import statistics
import sys
import time

from risiko.cli.game_commands import simulate_one, summarise
from risiko.match import play_bots
from risiko.ruleset import CLUB_MILANO

#: risiko-rl's CPU time per game of the same kind on this machine, milliseconds
RISIKO_RL_MS = 17.0


def load() -> str:
    """The load average (1, 5, 15 minutes) of the machine, as text."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def speed_run(
    games: int, *, checked: bool = False
) -> tuple[float, float, float, float, float]:
    """Play ``games`` games one by one: (median ms/game, mean ms/game, µs/roll, rolls per
    game, rounds per game)."""
    times: list[float] = []
    rolls = 0
    rounds = 0
    for seed in range(1, games + 1):
        start = time.process_time()
        game = play_bots(["random"], 4, seed=seed, last_rounds_at=34, checked=checked)
        times.append(time.process_time() - start)
        rolls += game.rolls
        assert game.outcome is not None
        rounds += game.outcome.rounds
    total = sum(times)
    return (statistics.median(times) * 1e3, total / games * 1e3, total / rolls * 1e6,
            rolls / games, rounds / games)


def speed(games: int, runs: int = 3) -> None:
    """Time ``games`` random-bot games, ``runs`` times; print each run and the median."""
    print(f"speed: {games} games x {runs} runs, 4 seats, random bots, last rounds called in "
          f"round 34; load average before: {load()}")
    medians: list[float] = []
    per_roll: list[float] = []
    rates: list[float] = []
    play_bots(["random"], 4, seed=0, last_rounds_at=34)  # imports and caches warm
    for run in range(1, runs + 1):
        median, mean, roll_us, rolls, rounds = speed_run(games)
        medians.append(median)
        per_roll.append(roll_us)
        rates.append(1e3 / mean)
        print(f"  run {run}: median {median:.2f} ms/game, mean {mean:.2f} ms, "
              f"{roll_us:.1f} µs per roll, {1e3 / mean:.0f} games/s on one core")
    best = statistics.median(medians)
    print(f"speed: median of the runs {best:.2f} ms/game, "
          f"{statistics.median(per_roll):.1f} µs per roll (mean {rolls:.0f} rolls and "
          f"{rounds:.1f} rounds per game), "
          f"{statistics.median(rates):.0f} games/s; risiko-rl {RISIKO_RL_MS:.0f} ms/game: "
          f"{RISIKO_RL_MS / best:.2f}x its games/s (goal 5x, at least 3x)")
    median, mean, roll_us, _, _ = speed_run(min(games, 200), checked=True)
    print(f"  the same games through the checked door (push): median {median:.2f} ms/game, "
          f"{roll_us:.1f} µs per roll")
    print(f"  load average after: {load()}")


def profile(games: int) -> None:
    """cProfile of ``games`` speed games: the 25 functions of most own time."""
    prof = cProfile.Profile()
    prof.enable()
    for seed in range(1, games + 1):
        play_bots(["random"], 4, seed=seed, last_rounds_at=34)
    prof.disable()
    print(f"profile of {games} speed games (cProfile, own time; the profiler slows calls):")
    pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(25)


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
    args = list(argv[1:])
    runs = 3
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    want_profile = "--profile" in args
    if want_profile:
        args.remove("--profile")
    n = int(args[0]) if args else 1000
    m = int(args[1]) if len(args) > 1 else 200
    speed(n, runs)
    if want_profile:
        profile(min(n, 300))
    if m:
        strength(m)
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"nproc {os.cpu_count()}, {platform.machine()}"
    )


if __name__ == "__main__":
    main(sys.argv)
