"""Run every benchmark of bench/ (``make bench``); the figures go in docs/benchmarks.md."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

for script in ("bench_cli_start.py", "bench_odds.py", "bench_games.py", "bench_web.py",
               "bench_connections.py"):
    print(f"== {script}", flush=True)
    subprocess.run([sys.executable, str(HERE / script)], check=True)
