"""An online action's cost against the game's length, in one process: one table of 4 seats
played by the remote bots' strategy (:func:`risiko.online.client.choose`) through
:func:`risiko.web.online.services.apply` to round ``--rounds``, every action measured: its
queries, its CPU (ms), the statements' time, and what the worker then keeps of the table (the
cached game's history and the objects the garbage collector walks for it). Printed per round
(docs/benchmarks.md, "Issue 20"): an action's cost is independent of the game's length when
round 1 and round 15 read the same.

    .venv/bin/python bench/bench_online_length.py [--rounds 15] [--tables 1]

On the database of ``DATABASE_URL`` (dropped and made again when it is PostgreSQL: give a
database of your own) or, without it, SQLite in a temporary folder. ``--tables N`` plays N
tables side by side (round-robin), as a worker holds many; with PostgreSQL the size of the
tables' heap is printed too (it grows with every version of a row that is not pruned).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _database() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        base, _, name = url.rpartition("/")
        with psycopg.connect(base + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')


def _tracked(obj: object) -> int:
    """Objects the garbage collector tracks that ``obj`` alone reaches (not the ruleset's,
    the modules', the classes': those every game shares)."""
    shared = {id(x) for x in gc.get_referents(type(obj))}
    seen: set[int] = set()
    stack = [obj]
    n = 0
    while stack:
        o = stack.pop()
        if id(o) in seen or id(o) in shared or isinstance(o, type):
            continue
        seen.add(id(o))
        if type(o).__module__ in ("risiko.ruleset",):
            continue  # the ruleset is a preset every game shares
        if gc.is_tracked(o):
            n += 1
        stack.extend(gc.get_referents(o))
    return n


class _View:
    """What :func:`choose` reads of a client: the public game, the seat's private view."""

    def __init__(self, game: dict[str, Any], private: dict[str, Any], seat: int) -> None:
        self.game, self.private, self.seat = game, private, seat


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--tables", type=int, default=1)
    args = ap.parse_args()
    data_dir = tempfile.mkdtemp(prefix="risiko-bench-length-")
    os.environ["RISIKO_DATA_DIR"] = data_dir  # SQLite: a database of its own
    os.environ.setdefault("RISIKO_SECRET_KEY", "bench-" + "x" * 40)
    os.environ["DJANGO_SETTINGS_MODULE"] = "risiko.web.settings"
    sys.path.insert(0, str(ROOT / "src"))
    _database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)
    from risiko.online import adapter
    from risiko.online.client import choose
    from risiko.web.online import services
    from risiko.web.online.models import OnlineTable, TableEvent

    tables = []
    for i in range(args.tables):
        t = services.create_table(name=f"length {i}", seats=4, who="bench",
                                  settings={"clock_seconds": 0, "call_round": 30})
        actors = []
        for name in ("Anna", "Bruno", "Carla", "Dario"):
            _, token, _ = services.join(t.pk, guest_name=name)
            actors.append(services.seat_of_token(t.pk, token))
        tables.append({"pk": t.pk, "actors": actors, "rng": random.Random(i), "turn": None,
                       "attacks": 3, "done": False})
    rows: dict[int, dict[str, list[float]]] = {}
    ids = 0
    while not all(t["done"] for t in tables):
        for t in tables:
            if t["done"]:
                continue
            table = OnlineTable.objects.get(pk=t["pk"])
            game = services.game_of(table)
            if table.status != "playing" or game.round > args.rounds:
                t["done"] = True
                continue
            seat = game.to_act
            assert seat is not None
            view = _View(adapter.public_view(game), adapter.private_view(game, seat), seat + 1)
            if (game.round, seat) != t["turn"]:
                t["turn"], t["attacks"] = (game.round, seat), 3
            action = choose(view, t["rng"], t["attacks"])  # type: ignore[arg-type]
            if action["kind"] == "attack":
                t["attacks"] -= 1
            ids += 1
            at = game.round
            connection.queries_log.clear()
            with CaptureQueriesContext(connection) as q:
                c0 = time.process_time()
                reply = services.apply(t["pk"], t["actors"][seat], action,
                                       client_id=f"b-{ids}", expect_seq=table.seq)
                if reply.outbox is not None:
                    json.dumps(reply.outbox.messages)  # what the consumer sends
                c1 = time.process_time()
            if reply.faults:
                raise SystemExit(f"refused: {action} {reply.faults}")
            kept = services.game_of(OnlineTable.objects.get(pk=t["pk"]))
            row = rows.setdefault(at, {"queries": [], "cpu": [], "sql": [], "history": [],
                                       "objects": [], "events": []})
            row["queries"].append(len(q.captured_queries))
            row["cpu"].append(1000 * (c1 - c0))
            row["sql"].append(sum(1000 * float(x["time"]) for x in q.captured_queries))
            row["history"].append(len(kept.history))
            row["objects"].append(_tracked(kept))
            row["events"].append(reply.seq)
    heap = None
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_relation_size(%s), pg_relation_size(%s)",
                           [OnlineTable._meta.db_table, TableEvent._meta.db_table])
            heap = cursor.fetchone()
    print(f"{args.tables} table(s), {connection.vendor}, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("round  actions  events  queries/action  CPU ms/action (median)  SQL ms/action  "
          "kept history  kept objects")
    for at, row in sorted(rows.items()):
        print(f"{at:5d}  {len(row['cpu']):7d}  {int(max(row['events'])):6d}  "
              f"{statistics.mean(row['queries']):14.2f}  {statistics.median(row['cpu']):22.2f}  "
              f"{statistics.mean(row['sql']):13.2f}  {int(max(row['history'])):12d}  "
              f"{int(max(row['objects'])):12d}")
    if heap is not None:
        print(f"heap of the tables' rows {heap[0] // 1024} KiB, of their events "
              f"{heap[1] // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
