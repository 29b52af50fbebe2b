"""Time ``odds_table(200, CLUB_MILANO)``: the median of 5 runs, in milliseconds.

Run: ``.venv/bin/python bench/bench_odds.py [N] [RUNS]``. The single-roll counts are cached
after the first call in a process, so that first, cold call is timed and reported apart.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from risiko.odds import odds_table
from risiko.ruleset import CLUB_MILANO


def main(argv: list[str]) -> None:
    """Print the cold time, the median of ``runs`` warm runs and the machine."""
    n = int(argv[1]) if len(argv) > 1 else 200
    runs = int(argv[2]) if len(argv) > 2 else 5
    start = time.perf_counter()
    odds_table(n, CLUB_MILANO)
    cold = time.perf_counter() - start
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        odds_table(n, CLUB_MILANO)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(
        f"odds_table({n}, CLUB_MILANO): median of {runs} runs {median * 1e3:.1f} ms"
        f" (min {min(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms;"
        f" first call, with the dice enumeration, {cold * 1e3:.1f} ms)"
    )
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}),"
        f" nproc {os.cpu_count()}, {platform.machine()}, {platform.system()}"
    )


if __name__ == "__main__":
    main(sys.argv)
