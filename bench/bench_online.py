"""Online tables under load: 100 tables of 4 remote bots each, playing over WebSockets from a
separate process, each acting after a 1 s think time; the server is uvicorn with 2 workers,
the Redis channel layer and PostgreSQL, every action stored (docs/benchmarks.md).

    .venv/bin/python bench/bench_online.py [--tables 100] [--seconds 60] [--think 1.0]

Loopback only, bounded in time: the bots stop after ``--seconds``. Three phases: every
socket opens and receives its view (``connect_s``), the bots play for ``--seconds`` (what
the latencies measure), play stops everywhere and the actions in flight are answered
(``stop_s``) before the sockets close. Measures the action
latency (``act`` sent to its ``ack`` received, p50/p99), the update latency (``act`` sent to
the table's ``event`` for it received: when the player sees the board change), the workers'
CPU per action (the whole run, and the steady state in its middle), checks that no action
was lost or applied twice (every ack has its event, events are numbered 1..N per table
without a gap, no message id twice), the memory of the workers per table, PostgreSQL's CPU per
action (its server processes for the benchmark's database) and the connections the workers
hold when the bots have stopped (their pools: at most workers x ``RISIKO_DB_POOL_MAX``). uvicorn
runs as ``risiko serve`` runs it (no permessage-deflate). Through the run, per minute of play
(``per_minute``): the actions, those over 50 ms (``slow``), p50/p99, the workers' CPU per
action and their full garbage collections (count, longest pause; read by a probe the
benchmark puts on the workers' ``PYTHONPATH``, ``sitecustomize``): a cost that grows as
the games grow shows there; per minute too, how clustered in time the actions were sent
(``sends_dispersion``: 1 when the tables act independently), the bots' own event loop lag
(``client_loop_lag_ms`` for the run: inside every latency), PostgreSQL's CPU per action,
the machine's busy cores and its load. ``--timeline FILE`` writes one line a second;
``--think-spread`` draws each think time within ``--think`` x (1 +- spread) (0: fixed, as
before); ``--bots-freeze`` has the bots' process freeze its objects once every socket is open
(off: the bots' full collections, each a pause of all 400 bots, stay in the latencies, as in
every figure before). The load average is printed at the start and the end. Needs
PostgreSQL (``RISIKO_BENCH_POSTGRES_URL``, default the local server, database ``risiko_bench``) and
Redis (``REDIS_URL``, default 127.0.0.1:6379).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("RISIKO_BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/risiko_bench")
REDIS = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


#: the workers' probe (bench only): each full collection (generation 2) of a process started
#: with RISIKO_BENCH_GC_DIR set is one line "<time> <pause s> <its thread's CPU s>" in
#: gc-<pid>.txt there (on a busy machine the pause is longer than the CPU: the worker waited
#: for a core in the middle of it)
_GC_PROBE = """\
import gc, os, time
_dir = os.environ.get("RISIKO_BENCH_GC_DIR")
if _dir:
    _path, _t = os.path.join(_dir, "gc-%d.txt" % os.getpid()), [0.0, 0.0]

    def _probe(phase, info):
        if phase == "start":
            _t[0], _t[1] = time.perf_counter(), time.thread_time()
        elif info["generation"] == 2:
            with open(_path, "a") as f:
                f.write("%.3f %.6f %.6f\\n" % (time.time(), time.perf_counter() - _t[0],
                                               time.thread_time() - _t[1]))

    gc.callbacks.append(_probe)
    _every = float(os.environ.get("RISIKO_BENCH_OBJECTS_EVERY", "0"))
    if _every:  # what the collector walks, by type, every so often (a diagnosis, not a figure)
        import collections, json, threading

        def _objects():
            while True:
                time.sleep(_every)
                kinds = collections.Counter(type(o).__name__ for o in gc.get_objects())
                with open(os.path.join(_dir, "objects-%d.txt" % os.getpid()), "a") as f:
                    f.write(json.dumps([time.time(), sum(kinds.values()), gc.get_freeze_count(),
                                        kinds.most_common(25)]) + "\\n")

        threading.Thread(target=_objects, daemon=True).start()
"""


def _env(data_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DATABASE_URL=PG, REDIS_URL=REDIS, RISIKO_DATA_DIR=data_dir,
               RISIKO_SECRET_KEY="bench-" + "x" * 40, DJANGO_SETTINGS_MODULE="risiko.web.settings",
               RISIKO_CHANNELS_PREFIX=f"bench-{os.getpid()}",
               # the limits of a table socket, set here (not the defaults): every socket of
               # the run comes from 127.0.0.1, one per seat; the bots may act without pause
               RISIKO_ONLINE_SOCKETS_PER_ADDRESS="100000", RISIKO_ONLINE_SOCKETS_PER_USER="4",
               RISIKO_ONLINE_MESSAGES_PER_SECOND="1000", RISIKO_ONLINE_MESSAGE_BURST="1000")
    return env


def _create_database() -> None:
    import psycopg

    base, _, name = PG.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, tries: int, timeout: float = 0.2) -> None:
    """Until something accepts a connection on the loopback's ``port`` (at most ``tries``
    attempts 0.1 s apart)."""
    for _ in range(tries):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=timeout):
                return
        except OSError:
            time.sleep(0.1)


def _rss_kib(pid: int) -> int:
    """Resident memory of a process (0 once it is gone: a worker uvicorn restarted)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except FileNotFoundError:
        return 0
    for line in lines:
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_s(pid: int) -> float:
    """CPU seconds of a process (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _database_backends() -> list[int]:
    """The PostgreSQL server processes serving the benchmark's database (by their title)."""
    name = PG.rpartition("/")[2]
    out = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                title = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if title.startswith("postgres: ") and f" {name} " in title:
                out.append(int(proc.name))
    return out


def _database_connections() -> int:
    """Open connections to the benchmark's database (the pools of the workers)."""
    import psycopg

    base, _, name = PG.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                           [name]).fetchone()
    return int(row[0]) if row else 0


def _machine_busy() -> tuple[float, float]:
    """Every core's busy and stolen CPU seconds since boot (``/proc/stat``)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]
    steal = fields[7] if len(fields) > 7 else 0
    return (sum(fields[:8]) - idle - steal) / tick, steal / tick


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def setup_tables(n: int) -> list[dict[str, Any]]:
    """Migrate, then create ``n`` tables of 4 guests (the bots' tokens)."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from risiko.web.online import services

    tables = []
    for i in range(n):
        t = services.create_table(name=f"bench {i}", seats=4, who="bench",
                                  settings={"clock_seconds": 0, "call_round": 30})
        tokens = []
        for name in ("Anna", "Bruno", "Carla", "Dario"):
            _, token, _ = services.join(t.pk, guest_name=name)
            tokens.append(token)
        tables.append({"code": t.code, "tokens": tokens})
    return tables


def check(tables: list[dict[str, Any]], result: dict[str, Any]) -> dict[str, Any]:
    """Every acked action stored once; events numbered without gaps; no id twice."""
    from django.db.models import Count

    from risiko.web.online.models import OnlineTable, TableEvent

    acked: dict[str, list[int]] = result["acks"]
    lost = duplicated = gaps = 0
    stored_actions = 0
    for t in tables:
        table = OnlineTable.objects.get(code=t["code"])
        seqs = list(TableEvent.objects.filter(table=table).order_by("seq")
                    .values_list("seq", flat=True))
        if seqs != list(range(1, len(seqs) + 1)):
            gaps += 1
        have = set(seqs)
        lost += sum(1 for s in acked.get(t["code"], []) if s not in have)
        dup = (TableEvent.objects.filter(table=table).exclude(client_id="")
               .values("actor", "client_id").annotate(n=Count("id")).filter(n__gt=1).count())
        duplicated += dup
        stored_actions += TableEvent.objects.filter(table=table, actor__startswith="seat:").count()
    acks = sum(len(v) for v in acked.values())
    return {"acked": acks, "stored_seat_actions": stored_actions, "lost": lost,
            "duplicated": duplicated, "tables_with_gaps": gaps,
            "unacked_but_stored": stored_actions - acks}


async def _bots(url: str, tables: list[dict[str, Any]], seconds: float,
                think: float, spread: float = 0.0, freeze: bool = False) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "src"))
    from risiko.online.client import play_remote_bot

    stop, begin, close = asyncio.Event(), asyncio.Event(), asyncio.Event()
    ready: list[str] = []
    latencies: list[float] = []
    ack_times: list[float] = []
    updates: list[float] = []
    acks: dict[str, list[int]] = {}
    tasks = []
    # the bots' own event loop: how late a 10-ms sleep wakes (every bot's latency includes
    # this process's lag: a wake-up late by 40 ms is 40 ms added to the acks it receives)
    lags: list[tuple[float, float]] = []
    lag_done = asyncio.Event()

    async def lag_probe() -> None:
        while not lag_done.is_set():
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((time.time(), time.perf_counter() - t0 - 0.01))

    probe = asyncio.create_task(lag_probe())
    for i, t in enumerate(tables):
        acks[t["code"]] = []
        for k, token in enumerate(t["tokens"]):
            tasks.append(asyncio.create_task(play_remote_bot(
                f"{url}/ws/online/{t['code']}/", token, think=think, seed=i * 10 + k,
                stop=stop, latencies=latencies, acks=acks[t["code"]], ack_times=ack_times,
                updates=updates, begin=begin, ready=ready, close=close, spread=spread)))
            await asyncio.sleep(0.005)  # do not open 400 sockets in the same millisecond
    # the phases: every socket opened (and its view received) before any bot plays, play
    # stopped everywhere (the actions in flight answered) before any socket closes - 100
    # tables do not join nor leave a club's server in the same second; those two storms
    # are timed apart (connect_s, idle_s), not counted in the play's latencies
    connecting = time.perf_counter()
    while len(ready) < len(tasks) and time.perf_counter() - connecting < 120:
        await asyncio.sleep(0.05)
    connect_s = time.perf_counter() - connecting
    frozen = 0
    if freeze:  # --bots-freeze: the 400 connections' objects out of this process's full
        # collections (each stops every bot at once, 40 ms at 85,000 objects)
        import gc

        gc.collect()
        gc.freeze()
        frozen = gc.get_freeze_count()
    begin.set()
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    stopping = time.perf_counter()
    while len(ready) < 2 * len(tasks) and time.perf_counter() - stopping < 30:
        await asyncio.sleep(0.05)
    idle_s = time.perf_counter() - stopping
    close.set()
    done, pending = await asyncio.wait(tasks, timeout=30)
    for task in pending:
        task.cancel()
    errors = [repr(t.exception()) for t in done if t.exception() is not None]
    lag_done.set()
    await probe
    return {"loop_lags": [(round(t, 3), round(x, 4)) for t, x in lags],
            "latencies": latencies, "ack_times": ack_times, "updates": updates, "acks": acks,
            "seconds": stopping - start, "connect_s": connect_s, "idle_s": idle_s,
            "errors": errors[:5], "error_count": len(errors), "frozen": frozen,
            "client_cpu_s": resource.getrusage(resource.RUSAGE_SELF).ru_utime
            + resource.getrusage(resource.RUSAGE_SELF).ru_stime}


def _percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p90, p99 and the max of durations in seconds, as milliseconds."""
    v = sorted(values)
    if len(v) < 100:
        return {"p50": None, "p90": None, "p99": None, "max": None}
    q = statistics.quantiles(v, n=100)
    return {"p50": round(1000 * q[49], 1), "p90": round(1000 * q[89], 1),
            "p99": round(1000 * q[98], 1), "max": round(1000 * v[-1], 1)}


def _gc_lines(path: Path) -> list[tuple[float, float, float]]:
    """The probe's lines of one process: (time, pause s, CPU s) of each full collection."""
    if not path.exists():
        return []
    return [(float(a), float(b), float(c)) for a, b, c in
            (line.split() for line in path.read_text().splitlines() if line)]


def _per_minute(result: dict[str, Any], run_start: float, samples: list[tuple[float, float]],
                workers: list[int], probe_dir: Path, bots_pid: int) -> list[dict[str, Any]]:
    """Each minute of play (from the first action): its actions, those over 50 ms, ack
    p50/p99 ms, the workers' CPU per action (ms) and full collections (count, longest pause
    and longest CPU in ms), and the bots' process's full collections (its event loop stops
    meanwhile: every bot's latency grows) - flat when an action's cost does not grow with
    the games."""
    acts = sorted(zip(result["ack_times"], result["latencies"], strict=True))
    if not acts:
        return []
    first = acts[0][0]
    pauses = [x for pid in workers for x in _gc_lines(probe_dir / f"gc-{pid}.txt")]
    bots = _gc_lines(probe_dir / f"gc-{bots_pid}.txt")
    out = []
    minute = 0
    # whole minutes, and a last part of at least 30 s (the actions in flight at the stop)
    while first + 60 * minute + 30 <= acts[-1][0]:
        lo, hi = first + 60 * minute, first + 60 * (minute + 1)
        lat = sorted(x for t, x in acts if lo <= t < hi)
        cpu = [c for t, c in samples if lo <= t < hi]
        row: dict[str, Any] = {"minute": minute + 1, "actions": len(lat),
                               "slow": sum(1 for x in lat if x > 0.05)}
        if len(lat) >= 100:
            q = statistics.quantiles(lat, n=100)
            row.update(p50_ms=round(1000 * q[49], 1), p99_ms=round(1000 * q[98], 1))
        if len(cpu) >= 2 and lat:
            row["workers_cpu_ms_per_action"] = round(1000 * (cpu[-1] - cpu[0]) / len(lat), 2)
        full = [(p, c) for t, p, c in pauses if lo <= t < hi]
        row["full_gc"] = len(full)
        row["full_gc_max_ms"] = round(1000 * max(p for p, _ in full), 1) if full else 0.0
        row["full_gc_cpu_max_ms"] = round(1000 * max(c for _, c in full), 1) if full else 0.0
        theirs = [p for t, p, _ in bots if lo <= t < hi]
        row["bots_full_gc"] = len(theirs)
        row["bots_full_gc_max_ms"] = round(1000 * max(theirs), 1) if theirs else 0.0
        out.append(row)
        minute += 1
    return out


def _window(rows: list[tuple[float, ...]], lo: float, hi: float, i: int) -> float | None:
    """The growth of column ``i`` of timed samples between ``lo`` and ``hi`` (None: too few)."""
    inside = [r[i] for r in rows if lo <= r[0] < hi]
    return inside[-1] - inside[0] if len(inside) >= 2 else None


def _extend_per_minute(rows: list[dict[str, Any]], result: dict[str, Any],
                       others: list[tuple[float, ...]]) -> None:
    """Add to each minute: the bots' process's longest loop lag (ms) and its CPU, PostgreSQL's
    CPU per action (ms), the whole machine's busy cores and the load average at its end."""
    acts = sorted(result["ack_times"])
    if not acts:
        return
    first = acts[0]
    lags = result.get("loop_lags", [])
    sends = sorted(a - x for a, x in zip(result["ack_times"], result["latencies"], strict=True))
    for row in rows:
        lo, hi = first + 60 * (row["minute"] - 1), first + 60 * row["minute"]
        # how the actions were sent in time: the variance over the mean of the actions sent
        # per 50 ms (1 when the tables act independently, as a Poisson process; more when
        # they act in step: a burst of actions at the same instant, queued by the server)
        bins = [0] * 1200
        for t in sends:
            if lo <= t < hi:
                bins[min(1199, int((t - lo) / 0.05))] += 1
        mean = statistics.fmean(bins)
        if mean:
            row["sends_dispersion"] = round(statistics.pvariance(bins) / mean, 2)
            row["sends_max_per_50ms"] = max(bins)
        mine = [x for t, x in lags if lo <= t < hi]
        row["bots_loop_lag_max_ms"] = round(1000 * max(mine), 1) if mine else None
        row["bots_loop_lags_over_20ms"] = sum(1 for x in mine if x > 0.02)
        bots, db, busy = (_window(others, lo, hi, i) for i in (1, 2, 3))
        inside = [r for r in others if lo <= r[0] < hi]
        span = inside[-1][0] - inside[0][0] if len(inside) >= 2 else 0
        if bots is not None and span:
            row["bots_cpu_share"] = round(bots / span, 2)
        if db is not None and row["actions"]:
            row["database_cpu_ms_per_action"] = round(1000 * db / row["actions"], 2)
        if busy is not None and span:
            row["machine_busy_cores"] = round(busy / span, 2)
        if inside:
            row["load_1min"] = inside[-1][5]


def _write_timeline(path: Path, result: dict[str, Any], run_start: float,
                    samples: list[tuple[float, float]], others: list[tuple[float, ...]],
                    workers: list[int], probe_dir: Path, bots_pid: int) -> None:
    """One JSON line per second of the run (``t``: seconds since the bots' process started):
    the actions acked, those over 50 ms, their p99 and max (ms); the CPU share of the workers,
    the bots' process and PostgreSQL, the machine's busy and stolen cores; the bots' longest
    loop lag (ms); the full collections of the workers and of the bots (pause ms)."""
    per: dict[int, dict[str, Any]] = {}

    def at(t: float) -> dict[str, Any]:
        k = int(t - run_start)
        return per.setdefault(k, {"t": k, "actions": 0, "slow": 0, "lat": []})

    for t, x in zip(result["ack_times"], result["latencies"], strict=True):
        row = at(t)
        row["actions"] += 1
        row["slow"] += x > 0.05
        row["lat"].append(x)
    for t, x in result.get("loop_lags", []):
        row = at(t)
        row["bots_lag_max_ms"] = max(row.get("bots_lag_max_ms", 0.0), round(1000 * x, 1))
    for pid in workers:
        for t, pause, _ in _gc_lines(probe_dir / f"gc-{pid}.txt"):
            at(t).setdefault("workers_gc_ms", []).append(round(1000 * pause, 1))
    for t, pause, _ in _gc_lines(probe_dir / f"gc-{bots_pid}.txt"):
        at(t).setdefault("bots_gc_ms", []).append(round(1000 * pause, 1))
    for k, row in per.items():
        lo, hi = run_start + k - 0.5, run_start + k + 1.5  # two samples at least
        w = _window([(t, c) for t, c in samples], lo, hi, 1)
        inside = [r for r in others if lo <= r[0] < hi]
        span = inside[-1][0] - inside[0][0] if len(inside) >= 2 else 0
        if span:
            first, last = inside[0], inside[-1]
            row.update(bots_cpu=round((last[1] - first[1]) / span, 2),
                       db_cpu=round((last[2] - first[2]) / span, 2),
                       busy=round((last[3] - first[3]) / span, 2),
                       steal=round((last[4] - first[4]) / span, 2), load=last[5])
            if w is not None:
                row["workers_cpu"] = round(w / span, 2)
        lat = sorted(row.pop("lat"))
        if lat:
            row["p99_ms"] = round(1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))], 1)
            row["max_ms"] = round(1000 * lat[-1], 1)
    with path.open("w") as f:
        for k in sorted(per):
            f.write(json.dumps(per[k]) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--think-spread", type=float, default=0.0,
                    help="each think time drawn uniformly within --think x (1 +- this), "
                         "0 to 1 (0: every think exactly --think, the tables' phases never "
                         "spread again once a pause has gathered them)")
    ap.add_argument("--bots-freeze", action="store_true",
                    help="the bots' process freezes its objects once every socket is open "
                         "(gc.freeze: its full collections, each a pause of all the bots at "
                         "once, then walk only what play makes); off by default, as in every "
                         "figure of docs/benchmarks.md but the one run that names it")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--server-arg", action="append", default=[],
                    help="one more argument for uvicorn "
                         "(e.g. --server-arg=--ws-per-message-deflate=true)")
    ap.add_argument("--timeline", help="write one JSON line per second of the run to this file "
                    "(actions, slow, p99, the CPU of the workers, the bots' process, "
                    "PostgreSQL and the whole machine, the bots' loop lag, collections)")
    ap.add_argument("--bots", help=argparse.SUPPRESS)  # the bots' process: URL
    ap.add_argument("--tables-file", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.bots:  # the separate process of the bots
        tables = json.loads(Path(args.tables_file).read_text())
        result = asyncio.run(_bots(args.bots, tables, args.seconds, args.think,
                                   args.think_spread, args.bots_freeze))
        Path(args.out).write_text(json.dumps(result))
        return 0
    data_dir = tempfile.mkdtemp(prefix="risiko-bench-online-")
    load_start = os.getloadavg()
    os.environ.update(_env(data_dir))
    sys.path.insert(0, str(ROOT / "src"))
    _create_database()
    tables = setup_tables(args.tables)
    tables_file = Path(data_dir) / "tables.json"
    tables_file.write_text(json.dumps(tables))
    port = _free_port()
    probe_dir = Path(data_dir) / "probe"
    probe_dir.mkdir()
    (probe_dir / "sitecustomize.py").write_text(_GC_PROBE)
    server_env = _env(data_dir)
    server_env["PYTHONPATH"] = os.pathsep.join(
        x for x in (str(probe_dir), os.environ.get("PYTHONPATH", "")) if x)
    server_env["RISIKO_BENCH_GC_DIR"] = str(probe_dir)
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "risiko.web.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(args.workers), "--ws", "websockets-sansio",
         "--lifespan", "on", "--log-level", "warning", "--no-access-log",
         # as risiko serve: no permessage-deflate
         "--ws-per-message-deflate", "false", *args.server_arg],
        env=server_env, cwd=ROOT)
    try:
        wait_for_port(port, 300)
        time.sleep(1.0)
        workers = _children(server.pid)
        rss_before = sum(_rss_kib(p) for p in workers)
        cpu_before = sum(_cpu_s(p) for p in workers)
        db_cpu_before = {p: _cpu_s(p) for p in _database_backends()}
        out = Path(data_dir) / "result.json"
        samples: list[tuple[float, float]] = []
        sampling = threading.Event()

        # the rest of the machine, for the timeline: the bots' process, PostgreSQL's
        # backends of the benchmark's database, every core (busy and steal jiffies), load
        others: list[tuple[float, float, float, float, float, float]] = []
        bots_pid: list[int] = []

        def sample() -> None:
            backends: list[int] = []
            k = 0
            while not sampling.is_set():
                now = time.time()
                samples.append((now, sum(_cpu_s(p) for p in workers)))
                if k % 10 == 0:
                    backends = _database_backends()
                k += 1
                others.append((now, sum(_cpu_s(p) for p in bots_pid),
                               sum(_cpu_s(p) for p in backends), *_machine_busy(),
                               os.getloadavg()[0]))
                sampling.wait(0.5)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        run_start = time.time()
        bots = subprocess.Popen(
            [sys.executable, __file__, "--bots", f"ws://127.0.0.1:{port}",
             "--tables-file", str(tables_file), "--out", str(out), "--seconds",
             str(args.seconds), "--think", str(args.think),
             "--think-spread", str(args.think_spread),
             *(["--bots-freeze"] if args.bots_freeze else [])],
            env=server_env, cwd=ROOT)  # the probe too: the bots' process collects as well
        bots_pid.append(bots.pid)
        try:
            bots.wait(timeout=args.seconds + 300)
        except subprocess.TimeoutExpired:
            bots.kill()
            bots.wait()
        if bots.returncode:
            print("the bots' process failed", file=sys.stderr)
            return 1
        sampling.set()
        sampler.join()
        gone = [p for p in workers if not Path(f"/proc/{p}").exists()]
        rss_after = sum(_rss_kib(p) for p in workers)
        cpu_after = sum(_cpu_s(p) for p in workers)
        db_cpu = sum(_cpu_s(p) - db_cpu_before.get(p, 0.0) for p in _database_backends())
        # the workers' pools: at most RISIKO_DB_POOL_MAX each, none left over after the run
        db_connections = _database_connections()
        result = json.loads(out.read_text())
    finally:
        server.terminate()
        server.wait(timeout=30)
    checked = check(tables, result)
    lat = sorted(result["latencies"])
    report = {
        "tables": args.tables, "seats": 4 * args.tables, "workers": args.workers,
        "think_s": args.think, "think_spread": args.think_spread,
        "bots_frozen_objects": result.get("frozen", 0),
        "seconds": round(result["seconds"], 1),
        # every socket opened and its view received, before play (all at once, 5 ms apart);
        # play stopped everywhere, the actions in flight answered, before the sockets close
        "connect_s": round(result["connect_s"], 1), "stop_s": round(result["idle_s"], 1),
        "actions": len(lat), "actions_per_s": round(len(lat) / result["seconds"], 1),
        # null below 100 actions, as update_ms (a NaN is not JSON)
        "latency_ms": _percentiles(lat),
        # the board updated: act sent to the table's event for it received
        "update_ms": _percentiles(result.get("updates", [])),
        "checks": checked,
        "client_errors": result["error_count"], "client_error_samples": result["errors"],
        "workers_rss_mib": {"before": round(rss_before / 1024, 1),
                            "after": round(rss_after / 1024, 1)},
        "memory_per_table_kib": round((rss_after - rss_before) / args.tables, 1),
        "workers_cpu_s": round(cpu_after - cpu_before, 1),
        "workers_cpu_ms_per_action": round(1000 * (cpu_after - cpu_before) / max(1, len(lat)),
                                           2),
        "client_cpu_s": round(result["client_cpu_s"], 1),
        # PostgreSQL's backends for the benchmark's database (those open at the end)
        "database_cpu_ms_per_action": round(1000 * db_cpu / max(1, len(lat)), 2),
        "database_connections_after": db_connections,
        # a worker gone during the run (uvicorn restarts a worker that stops answering its
        # health check): its CPU and memory are missing from the figures above
        "workers_gone": len(gone),
    }
    # steady state: the middle of the run (every socket open, none closing yet)
    w0, w1 = run_start + 0.3 * args.seconds, run_start + 0.9 * args.seconds
    inside = [c for t, c in samples if w0 <= t <= w1]
    times = [t for t, c in samples if w0 <= t <= w1]
    acted = sum(1 for t in result["ack_times"] if times and times[0] <= t <= times[-1])
    if len(inside) >= 2 and acted:
        steady = [x for x, t in zip(result["latencies"], result["ack_times"], strict=True)
                  if times[0] <= t <= times[-1]]
        report["steady_state"] = {
            "seconds": round(times[-1] - times[0], 1), "actions": acted,
            "workers_cpu_ms_per_action": round(1000 * (inside[-1] - inside[0]) / acted, 2),
            "latency_ms": _percentiles(steady)}
    # where the slow actions fall: actions over 50 ms per 5 s of the run (the sockets open
    # during the first seconds, 5 ms apart)
    slow: dict[int, int] = {}
    for x, t in zip(result["latencies"], result["ack_times"], strict=True):
        if x > 0.05:
            bucket = int((t - run_start) // 5) * 5
            slow[bucket] = slow.get(bucket, 0) + 1
    report["over_50ms_per_5s"] = {f"{k}-{k + 5}s": v for k, v in sorted(slow.items())}
    report["per_minute"] = _per_minute(result, run_start, samples, workers, probe_dir,
                                       bots.pid)
    lags = [x for t, x in result.get("loop_lags", [])
            if result["ack_times"] and result["ack_times"][0] <= t <= result["ack_times"][-1]]
    # the bots' process's own event loop during play: a 10-ms sleep woke this late (ms);
    # every bot's latency includes it
    report["client_loop_lag_ms"] = _percentiles(lags)
    _extend_per_minute(report["per_minute"], result, others)
    if args.timeline:
        _write_timeline(Path(args.timeline), result, run_start, samples, others, workers,
                        probe_dir, bots.pid)
    report["load_average"] = {"start": [round(x, 2) for x in load_start],
                              "end": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(report, indent=2))
    ok = (len(lat) > 0 and checked["lost"] == 0 and checked["duplicated"] == 0
          and checked["tables_with_gaps"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
