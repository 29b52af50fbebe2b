"""The lab's simulation across cores (issue 19 item 5): games per second per core with 1
and 2 worker processes, the scaling from 1 to 2 cores, the estimate for a million games,
and the check that both runs give the same games (seed + i per game).

    .venv/bin/python bench/bench_lab.py [--games 400] [--bots random] [--seats 4]

Wall-clock figures depend on the load: the load average is printed before and after, and
goes into docs/benchmarks.md with the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from risiko.lab import SimSpec, run_games
from risiko.ruleset import new_ruleset


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--workers", default="1,2", help="comma list of worker counts")
    args = ap.parse_args()
    spec = SimSpec(tuple([args.bots] * args.seats), new_ruleset("club-milano").label, 8,
                   False, 1)
    run_games(spec, 4, workers=1)  # warm the caches (odds tables, imports)
    print(f"load average before: {os.getloadavg()}")
    print(f"{args.games} games, {args.seats} x {args.bots}, {spec.ruleset}")
    results = {}
    base = None
    for w in (int(x) for x in args.workers.split(",")):
        cpu0 = _cpu()
        t0 = time.perf_counter()
        facts = run_games(spec, args.games, workers=w)
        wall = time.perf_counter() - t0
        cpu = _cpu() - cpu0
        results[w] = facts
        gps = args.games / wall
        base = base or wall
        print(f"workers {w}: {wall:.2f} s wall, {gps:.1f} games/s, {gps / w:.1f} games/s "
              f"per core, speed-up {base / wall:.2f}x, a million games in "
              f"{1e6 / gps / 3600:.2f} h; CPU {cpu:.2f} s in all processes = "
              f"{args.games / cpu:.1f} games per CPU-second, {1e6 / (args.games / cpu) / 3600:.2f} "
              f"core-hours per million")
    first = next(iter(results.values()))
    same = all(f == first for f in results.values())
    print(f"same games whatever the workers: {same}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
