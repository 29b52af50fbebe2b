"""Start-up of the ``risiko`` command: ``risiko --help``, ``risiko odds 3 2`` and ``risiko
season FILE``, each run as a fresh process (what a referee waits for), N times.

Reports the median wall time and the median CPU time (user + system of the child, from
``os.wait4``: less sensitive to other jobs on a loaded machine) and, for comparison, the
bare interpreter (``python -c pass``) and ``import typer``. Usage::

    python bench/bench_cli_start.py [--runs 15]

The target: a game command (``risiko odds 3 2``) under 0.3 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEASON = ROOT / "examples" / "season-2027.json"


def _risiko() -> list[str]:
    found = shutil.which("risiko", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "risiko.cli.main"]


def measure(argv: list[str], runs: int) -> tuple[float, float]:
    """Median wall seconds and median CPU seconds of ``argv`` over ``runs`` fresh runs."""
    walls, cpus = [], []
    env = {**os.environ, "COLUMNS": "100", "LANG": "C.UTF-8"}
    for _ in range(runs):
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
        _, status, usage = os.wait4(pid, 0)
        walls.append(time.perf_counter() - start)
        cpus.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(argv)} failed")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    risiko = _risiko()
    cases = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import typer'", [sys.executable, "-c", "import typer"]),
        ("risiko --help", [*risiko, "--help"]),
        ("risiko odds 3 2", [*risiko, "odds", "3", "2"]),
        ("risiko season examples/season-2027.json", [*risiko, "season", str(SEASON)]),
    ]
    print(f"{'command':<42} {'wall (median)':>14} {'cpu (median)':>13}   ({args.runs} runs)")
    for label, argv in cases:
        wall, cpu = measure(argv, args.runs)
        print(f"{label:<42} {wall * 1000:>11.0f} ms {cpu * 1000:>10.0f} ms")


if __name__ == "__main__":
    main()
