"""Benchmark of ``risiko tournament import`` of a big season (figures in docs/benchmarks.md;
not a timed test).

Builds the tournament of :mod:`bench_web` (``PLAYERS`` (200) players, ``EVENINGS`` (30)
qualifying evenings, tables of 5 and 4 with results, some by an end-of-game sheet,
penalties and appeals) in a temporary SQLite database, exports its season file, then times
``risiko tournament import FILE`` of that file (the command in this process: parse the file,
check it against the regulation, write every fact) ``RUNS`` (3) times, each into a new
tournament: wall time and CPU time (``time.process_time``, less noisy on a shared machine),
with the number of SQL queries of one import.
Run: ``.venv/bin/python bench/bench_import.py [PLAYERS] [EVENINGS] [RUNS]``.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_web import EVENINGS, PLAYERS, build, setup_django

RUNS = 3


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else PLAYERS
    evenings = int(sys.argv[2]) if len(sys.argv) > 2 else EVENINGS
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else RUNS
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(tmp)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from typer.testing import CliRunner

        from risiko.cli.main import app
        from risiko.web import services
        from risiko.web.evenings.models import Arrival
        from risiko.web.results.models import Seat

        t = build(players, evenings)
        season = services.export_season(t)
        path = Path(tmp) / "season.json"
        path.write_text(json.dumps(season, ensure_ascii=False), encoding="utf-8")
        arrivals = sum(len(e.get("arrivals", {})) for e in season["evenings"])
        tables = sum(len(e.get("tables", [])) for e in season["evenings"])
        print(f"season file: {players} players, {evenings} evenings, {arrivals} arrivals, "
              f"{tables} tables, {path.stat().st_size // 1024} kB")
        runner = CliRunner()
        walls, cpus = [], []
        for k in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                res = runner.invoke(app, ["tournament", "import", str(path), "--name",
                                          f"Copia {k}", "--by", "bench"])
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
            assert res.exit_code == 0, res.output
        copy = services.get_tournament("Copia 0")
        assert Arrival.objects.filter(evening__tournament=copy).count() == arrivals
        assert Seat.objects.filter(table__evening__tournament=copy).count() == sum(
            len(tb["seats"]) for e in season["evenings"] for tb in e["tables"])
        print(f"risiko tournament import: wall {statistics.median(walls):.2f} s, "
              f"CPU {statistics.median(cpus):.2f} s (median of {runs}), "
              f"{len(queries)} SQL queries")


if __name__ == "__main__":
    main()
