"""Benchmarks of whole games (figures written in docs/benchmarks.md; not a timed test).

1. Speed, for each build of the game library side by side (issue 16): ``pure`` (the Python
   sources of this tree, ``src/``), ``compiled`` (mypyc: the package installed in
   ``.venv-compiled`` by ``make unit-compiled``; skipped, saying so, when it is not there)
   and any other source tree given with ``--source LABEL=DIR`` (e.g. the sources of
   ``main`` before a change: ``git archive main src | tar -x -C /tmp/before``). The games:
   4 random bots, the last 2 rounds called in round 34 (issue 16's figure for risiko-rl).

   - **instructions per game** (valgrind ``--tool=cachegrind --cache-sim=no``, which the
     machine's load does not change): the count of 21 games minus that of 1 game, divided
     by 20; and the ratio to risiko-rl's :data:`RISIKO_RL_INSTRUCTIONS` (the goal: 10x,
     7.5 M; at least 5x, 15 M). Without valgrind the count is skipped, saying ``apt-get
     install valgrind``;
   - **CPU time** per game (``time.process_time`` around each game, ``N`` games, 1000)
     in ``--runs`` (5) rounds, the builds interleaved round by round (a shared machine's
     load then weighs on each alike): the median of the rounds' medians, the CPU time per
     attack roll and the games per second.

   The load average is printed before and after: say it with the figures.
2. Strength: the heuristic bot against random bots, ``M`` (200) 4-seat games, the heuristic
   bot's seat rotating: its share of wins and mean table score against the random bots'.

Run: ``.venv/bin/python bench/bench_games.py [N] [M] [--runs K] [--source LABEL=DIR]
[--profile]``; ``--profile`` adds the cProfile of the pure build's speed games (the 25
functions of most own time; the compiled build's profile is valgrind's callgrind, see
docs/benchmarks.md).
"""

from __future__ import annotations

import cProfile
import json
import os
import platform
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: risiko-rl's instructions per game of the same kind (4 random bots, the call at round 34,
#: about 36.7 rounds; valgrind's count of 21 games minus 1, by 20, Python 3.11.7; issue 16).
#: risiko-rl is not a package: the figure is kept here, measured once beside this engine.
RISIKO_RL_INSTRUCTIONS = 74.6e6
#: issue 16's goal (about 10x risiko-rl) and acceptance (about 5x), instructions per game
GOAL, ACCEPTANCE = 7.5e6, 15e6
#: where ``make unit-compiled`` installs the compiled build
COMPILED_VENV = ROOT / ".venv-compiled"


def load() -> str:
    """The load average (1, 5, 15 minutes) of the machine, as text."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def play(games: int, *, checked: bool = False) -> dict[str, float | str]:
    """Play seeds 1..``games`` one by one, each timed on the CPU: ``{median_ms, mean_ms,
    roll_us, rolls, rounds, build}`` (per game; ``build`` as ``risiko --version`` says)."""
    from risiko.match import play_bots

    try:
        from risiko._build import build
    except ImportError:  # a source tree from before the compiled build (--source)
        def build() -> str:
            return "pure"

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
    return {"median_ms": statistics.median(times) * 1e3, "mean_ms": total / games * 1e3,
            "roll_us": total / rolls * 1e6, "rolls": rolls / games, "rounds": rounds / games,
            "build": build()}


class Build:
    """One build to measure: a label, the Python that runs it and its ``PYTHONPATH``."""

    def __init__(self, label: str, python: str, path: str | None) -> None:
        self.label, self.python, self.path = label, python, path

    def run(self, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
        """This script again in the build's Python (``--child ...``), from a folder outside
        the source tree (so ``src/`` is only on the path when the build says so)."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        if self.path:
            env["PYTHONPATH"] = self.path
        return subprocess.run([*prefix, self.python, str(Path(__file__).resolve()), *args],
                              capture_output=True, text=True, env=env, cwd=Path.home(),
                              check=True)

    def instructions(self) -> float:
        """Instructions per game: valgrind's count of 21 games minus that of 1, by 20."""
        self.run("--child-games", "1")  # imports compiled (.pyc) before counting
        counts = []
        for games in ("1", "21"):
            done = self.run("--child-games", games, prefix=(
                "valgrind", "--tool=cachegrind", "--cache-sim=no",
                "--cachegrind-out-file=/dev/null"))
            found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
            assert found, done.stderr[-500:]
            counts.append(int(found.group(1).replace(",", "")))
        return (counts[1] - counts[0]) / 20

    def speed(self, games: int, *, checked: bool = False) -> dict[str, float | str]:
        """:func:`play` in the build's Python."""
        args = ["--child-speed", str(games)] + (["--checked"] if checked else [])
        out: dict[str, float | str] = json.loads(self.run(*args).stdout)
        return out


def builds(sources: list[str]) -> list[Build]:
    """The builds to measure: ``pure`` (``src/``), ``compiled`` (``.venv-compiled``, when it
    holds the compiled build), then each ``--source LABEL=DIR``."""
    out = [Build("pure", sys.executable, str(ROOT / "src"))]
    python = COMPILED_VENV / "bin" / "python"
    compiled = Build("compiled", str(python), None)
    if python.exists() and compiled.run("--child-build").stdout.strip() == "compiled":
        out.append(compiled)
    else:
        print(f"compiled build: not measured ({COMPILED_VENV} has no compiled build: "
              "`make unit-compiled` builds and installs it)")
    for spec in sources:
        label, _, path = spec.partition("=")
        out.append(Build(label, sys.executable, str(Path(path).resolve())))
    return out


def speed(games: int, runs: int, sources: list[str]) -> None:
    """Every build: instructions per game, then ``runs`` interleaved rounds of ``games``
    games timed on the CPU; one table."""
    print(f"speed: 4 seats, random bots, last rounds called in round 34; load average "
          f"before: {load()}")
    todo = builds(sources)
    counts: dict[str, float | None] = {}
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (apt-get install valgrind): "
              "not counted")
    for b in todo:
        counts[b.label] = b.instructions() if shutil.which("valgrind") else None
    rounds: dict[str, list[dict[str, float | str]]] = {b.label: [] for b in todo}
    for _ in range(runs):
        for b in todo:
            rounds[b.label].append(b.speed(games))
    print(f"{games} games x {runs} rounds, the builds interleaved; risiko-rl "
          f"{RISIKO_RL_INSTRUCTIONS / 1e6:.1f} M instructions per game (goal {GOAL / 1e6:.1f} "
          f"M: 10x; at least {ACCEPTANCE / 1e6:.1f} M: 5x)")
    print(f"  {'build':<10} {'M instr/game':>12} {'risiko-rl/ours':>14} {'CPU ms/game':>11} "
          f"{'µs/roll':>8} {'games/s':>8}  rounds' medians (ms)")
    for b in todo:
        medians = [float(r["median_ms"]) for r in rounds[b.label]]
        count = counts[b.label]
        instr = f"{count / 1e6:.2f}" if count else "-"
        ratio = f"{RISIKO_RL_INSTRUCTIONS / count:.1f}x" if count else "-"
        cpu = statistics.median(medians)
        roll = statistics.median(float(r["roll_us"]) for r in rounds[b.label])
        rate = statistics.median(1e3 / float(r["mean_ms"]) for r in rounds[b.label])
        print(f"  {b.label:<10} {instr:>12} {ratio:>14} {cpu:>11.2f} {roll:>8.1f} "
              f"{rate:>8.0f}  {' '.join(f'{m:.2f}' for m in medians)}")
    first = rounds[todo[0].label][0]
    print(f"  per game: {float(first['rolls']):.0f} rolls, {float(first['rounds']):.1f} "
          "rounds (the same games in every build)")
    for b in todo[:2]:
        done = b.speed(min(games, 200), checked=True)
        print(f"  {b.label}: the same games through the checked door (push): median "
              f"{float(done['median_ms']):.2f} ms/game, {float(done['roll_us']):.1f} µs per roll")
    print(f"  load average after: {load()}")


def profile(games: int) -> None:
    """cProfile of ``games`` speed games: the 25 functions of most own time."""
    from risiko.match import play_bots

    prof = cProfile.Profile()
    prof.enable()
    for seed in range(1, games + 1):
        play_bots(["random"], 4, seed=seed, last_rounds_at=34)
    prof.disable()
    print(f"profile of {games} speed games (cProfile, own time; the profiler slows calls):")
    pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(25)


def strength(games: int) -> None:
    """The heuristic bot (one seat, rotating) against three random bots."""
    from risiko.cli.game_commands import simulate_one, summarise
    from risiko.ruleset import CLUB_MILANO

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
    """Run both benchmarks and print the machine (or one child step, ``--child-*``)."""
    args = list(argv[1:])
    if args and args[0] == "--child-games":  # under valgrind: the games, nothing else
        from risiko.match import play_bots

        for seed in range(1, int(args[1]) + 1):
            play_bots(["random"], 4, seed=seed, last_rounds_at=34)
        return
    if args and args[0] == "--child-speed":
        print(json.dumps(play(int(args[1]), checked="--checked" in args)))
        return
    if args and args[0] == "--child-build":
        from risiko._build import build

        print(build())
        return
    runs = 5
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    sources: list[str] = []
    while "--source" in args:
        i = args.index("--source")
        sources.append(args[i + 1])
        del args[i:i + 2]
    want_profile = "--profile" in args
    if want_profile:
        args.remove("--profile")
    n = int(args[0]) if args else 1000
    m = int(args[1]) if len(args) > 1 else 200
    speed(n, runs, sources)
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
