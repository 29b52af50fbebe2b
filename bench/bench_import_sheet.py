"""Benchmark of ``risiko tournament import-sheet`` of a big club sheet (figures in
docs/benchmarks.md; not a timed test).

Writes an xlsx workbook of ``ROWS`` (100,000) rows, one per player and evening (``PLAYERS``
(200) players, 40 a night at 8 tables of 5, so 2,500 evenings, a winner marked per table),
then times, in this process, the command's stages: reading the workbook's cells
(:func:`risiko.cli.sheetfile.sheet_cells`, openpyxl read-only), reading the rows
(:func:`risiko.tournament.clubsheet.read_rows`), the season file's import (``--file``:
:func:`~risiko.tournament.clubsheet.apply_rows`, every check, the file dumped) and the
database's (a temporary SQLite database: bulk inserts, the audit log); with the peak memory
of the process (``ru_maxrss``) after each stage and the audit entries the import wrote.
Wall time and CPU time (``time.process_time``, less noisy on a shared machine).

Run: ``.venv/bin/python bench/bench_import_sheet.py [ROWS] [--players N] [--only file|db]``
(``--players 20000``: a sheet where most names are new, each registered by the import).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROWS = 100_000
PLAYERS = 200
PER_EVENING = 40
TABLE = 5


def write_workbook(path: Path, rows: int, players: int = PLAYERS) -> None:
    """The sheet: header, then ``rows`` rows (player, date, table, score, winner mark);
    ``players`` different names, 40 a night in turn."""
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Serate")
    sheet.append(["Giocatore", "Data", "Tavolo", "Punti", "Vincitore"])
    names = [f"Giocatore {i:05d}" for i in range(players)]
    day = _dt.date(2027, 1, 4)
    written = 0
    evening = 0
    while written < rows:
        start = (evening * PER_EVENING) % players
        present = [names[(start + k) % players] for k in range(PER_EVENING)]
        for k, name in enumerate(present):
            if written == rows:
                break
            table, seat = divmod(k, TABLE)
            score = [57, 41, 20, 9, 0][seat]  # table points (R1 maximum 100)
            sheet.append([name, day.strftime("%d/%m/%Y"), table + 1, score,
                          "X" if seat == 0 else ""])
            written += 1
        evening += 1
        day += _dt.timedelta(days=1)
    book.save(path)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Clock:
    """Wall and CPU seconds of each stage, printed as it ends."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def lap(self, what: str) -> tuple[float, float]:
        wall, cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu
        print(f"{what:<34} {wall:7.2f} s wall {cpu:7.2f} s CPU   peak {peak_mb():6.0f} MB")
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rows", nargs="?", type=int, default=ROWS)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--only", choices=("file", "db"))
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    with tempfile.TemporaryDirectory() as tmp:
        book = Path(tmp) / "serate.xlsx"
        write_workbook(book, args.rows, args.players)
        print(f"{args.rows} rows, {args.players} players, {book.stat().st_size // 1024} kB "
              "xlsx; load "
              f"{os.getloadavg()[0]:.1f}")
        from risiko.cli.sheetfile import sheet_cells
        from risiko.tournament.clubsheet import read_rows

        clock = Clock()
        cells = sheet_cells(book)
        clock.lap("read the workbook (sheet_cells)")
        rows = read_rows(cells)
        clock.lap("read the rows (read_rows)")
        del cells
        if args.only != "db":
            from risiko.cli.tournament_store import FileStore
            from risiko.tournament.season import dump_season

            try:
                from risiko.tournament.commands import new_tournament
            except ImportError:  # the code before commands.py, for a side-by-side run
                from risiko.tournament.edit import new_tournament  # type: ignore

            season = Path(tmp) / "season.json"
            import json

            season.write_text(json.dumps(dump_season(new_tournament(
                "Banco", ruleset="club-milano", format={"name": "win-bonus"}))))
            clock.lap("-")
            FileStore(season, write=True).import_sheet("", rows, by="bench")
            clock.lap("import, season file (--file)")
        if args.only != "file":
            from bench_web import setup_django

            setup_django(tmp)
            from risiko.web import services
            from risiko.web.auditlog.models import AuditEntry

            t = services.create_tournament("Banco", format={"name": "win-bonus"}, who="bench")
            before = AuditEntry.objects.count()
            clock.lap("-")
            services.import_sheet(t, rows, who="bench")
            clock.lap("import, database (SQLite)")
            print(f"audit entries of the import: {AuditEntry.objects.count() - before}")


if __name__ == "__main__":
    main()
