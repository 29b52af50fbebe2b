"""Benchmark of the live pages (issue 18 §1; figures in docs/benchmarks.md; not a timed test).

Against ``risiko serve`` started on a free loopback port (uvicorn, production settings, the
embedded SQLite database in a temporary folder), the evening of :mod:`bench_load` (80
players, 20 past evenings, tonight 50 players at 10 tables):

1. **push**: ``PHONES`` (200) WebSockets follow the live pages (``ws/live/``) - 120 the
   tournament's standings ``/t/<slug>/``, 40 the current tournament's ``/classifica/``, 40
   tonight's evening - while ``REFEREES`` (3) referees, logged in, save a table's result
   through the console every ``WRITE_EVERY`` (3) seconds each, for ``DURATION`` (30)
   seconds. For every save, on every phone: the time from the save's answer (the console's
   302) to the arrival of the first fragment covering it. A fragment covers a save when its
   ``seq`` (wall-clock nanoseconds when its round had read the standings) comes after the
   save's audit entry was written (read from the database after the answer). An update
   that arrives before the answer counts 0. Also: saves, rounds, fragments received, phones
   that missed a save, the server's CPU per save.
2. **poll**: ``READERS`` (50) closed-loop readers of the polled API (the page, its live
   partial and the JSON API, back to back; ``--poll-paths api``: the JSON API alone,
   ``live``: the live partial alone) while the referees keep saving, for ``POLL`` (20)
   seconds (:func:`bench_load.run`); with the push on, then off (``RISIKO_LIVE=0``) side by
   side; ``--baseline SRC`` adds the same with the push off on a server running the code
   of ``SRC`` (a ``src`` folder: ``git archive <commit> src | tar -x -C DIR``), so an old
   commit and this one are measured in one run; ``--poll-only`` leaves the push out.

The load generator (threads and one event loop in this process) shares the machine's cores
with the server. Run: ``.venv/bin/python bench/bench_live.py [--phones N] [--duration S]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_load import (
    Client,
    evening_arguments,
    for_a_while,
    pct,
    phone_paths,
    prepare_with_referees,
    referee,
    report,
    run,
)


@dataclass
class Save:
    """One save: who, when it was written on the server (ns), when its answer came (ns)."""

    who: str
    written: int
    answered: int


@dataclass
class Phones:
    """What the phones received: per phone, (seq, arrival ns) of every fragment."""

    got: list[list[tuple[int, int]]] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)


def written_at(who: str) -> int:
    """Wall-clock ns of ``who``'s last audit entry (the save just answered)."""
    from django.db import connections

    from risiko.web.auditlog.models import AuditEntry

    try:
        when = (AuditEntry.objects.filter(who=who).order_by("-pk")
                .values_list("when", flat=True).first())
    finally:
        connections.close_all()
    return int(when.timestamp() * 1e9) if when else 0


async def follow_all(base: str, paths: list[str], phones: Phones, stop: threading.Event
                     ) -> None:
    import websockets

    host = base.split("://", 1)[1]
    phones.got = [[] for _ in paths]

    async def one(i: int, path: str) -> None:
        url = f"ws://{host}/ws/live/?path={path}&lang=it"
        try:
            async with websockets.connect(url, origin=base, max_size=2**22,
                                          open_timeout=30) as ws:
                opened.append(i)
                if len(opened) == len(paths):
                    phones.ready.set()
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        continue
                    phones.got[i].append((json.loads(raw)["seq"], time.time_ns()))
        except Exception as exc:
            phones.failed.append(f"{path}: {type(exc).__name__}: {exc}")
            phones.ready.set()

    opened: list[int] = []
    await asyncio.gather(*(one(i, p) for i, p in enumerate(paths)))


def push(base: str, pid: int, setup: dict[str, Any], n_phones: int, referees: int,
         every: float, duration: float) -> dict[str, Any]:
    slug = setup["slug"]
    kinds = [f"/t/{slug}/"] * 6 + ["/classifica/"] * 2 + [f"/t/{slug}/serate/{setup['date']}/"] * 2
    paths = [kinds[i % len(kinds)] for i in range(n_phones)]
    phones = Phones()
    stop_phones, stop = threading.Event(), threading.Event()
    listener = threading.Thread(
        target=lambda: asyncio.run(follow_all(base, paths, phones, stop_phones)))
    listener.start()
    if paths:
        phones.ready.wait(60)
    time.sleep(0.5)
    saves: list[Save] = []
    errors: list[str] = []

    def saved(username: str) -> Callable[[float, str | None], None]:
        def done(_seconds: float, error: str | None) -> None:
            answered = time.time_ns()
            if error is None:
                saves.append(Save(username, written_at(username), answered))
            else:
                errors.append(error)
        return done

    threads = [threading.Thread(target=referee, args=(base, f"arbitro{r}", setup, stop, every,
                                                      100 + r, saved(f"arbitro{r}"), True))
               for r in range(referees)]
    cpu, elapsed = for_a_while(threads, stop, pid, duration, linger=2.0)  # the last fragments
    stop_phones.set()
    listener.join(60)
    if os.environ.get("BENCH_LIVE_DUMP") and paths:  # the raw times, to look at the slow saves
        Path(os.environ["BENCH_LIVE_DUMP"]).write_text(json.dumps({
            "saves": [[s.who, s.written, s.answered] for s in saves], "got": phones.got}))
    latencies, missed = [], 0
    for s in saves:
        for got in phones.got:
            arrival = next((at for seq, at in got if seq > s.written), None)
            if arrival is None:
                missed += 1
            else:
                latencies.append(max(0, arrival - s.answered) / 1e9)
    rounds = len({seq for got in phones.got for seq, _at in got})
    return {
        "phones": n_phones, "connected": n_phones - len(phones.failed),
        "failed": phones.failed, "saves": len(saves), "errors": errors, "missed": missed,
        "rounds": rounds, "fragments": sum(len(g) for g in phones.got),
        "p50": pct(latencies, 0.5), "p90": pct(latencies, 0.9), "p99": pct(latencies, 0.99),
        "max": max(latencies) * 1e3 if latencies else float("nan"),
        "cpu_per_save_ms": cpu * 1e3 / max(1, len(saves)), "server_cpu": cpu / elapsed,
        "cpu": cpu,
    }


def poll_paths(setup: dict[str, Any], which: str) -> list[str]:
    """The paths the readers ask in turn: ``mix`` (:func:`bench_load.phone_paths`), ``api``
    (the JSON API) or ``live`` (the live partial)."""
    paths = phone_paths(setup)
    return {"mix": paths, "api": paths[2:], "live": paths[1:2]}[which]


def poll(app: Any, args: Any, setup: dict[str, Any], label: str) -> None:
    """The polled API under ``args.readers`` closed-loop readers, the referees saving."""
    assert app.process is not None
    for path in poll_paths(setup, args.poll_paths):  # warm: templates, the snapshot
        Client(app.url).request("GET", path)
    mine, started = time.process_time(), time.perf_counter()
    p = run(app.url, app.process.pid, setup, args.readers, None, args.referees,
            args.write_every, args.poll, poll_paths(setup, args.poll_paths))
    generator = (time.process_time() - mine) / (time.perf_counter() - started)
    report(f"polled API ({args.poll_paths}), {label} ({args.readers} closed-loop readers, "
           f"{args.referees} "
           f"referees every {args.write_every:g} s; the load generator's CPU "
           f"{generator:.2f} cores)", p)


def main() -> None:
    ap = evening_arguments(__doc__, phones=200, referees=3)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--readers", type=int, default=50)
    ap.add_argument("--poll", type=float, default=20.0)
    ap.add_argument("--poll-paths", choices=("mix", "api", "live"), default="mix")
    ap.add_argument("--poll-only", action="store_true", help="leave the push out")
    ap.add_argument("--baseline", metavar="SRC",
                    help="also poll a server running the code of this src folder")
    ap.add_argument("--workers", type=int, default=1,
                    help="risiko serve --workers (above 1: the Redis channel layer, "
                    "REDIS_URL or redis://127.0.0.1:6379/15, its own prefix)")
    args = ap.parse_args()
    from risiko.web.serving import ServedApp

    with tempfile.TemporaryDirectory() as tmp:
        setup = prepare_with_referees(tmp, args)
        env = {"RISIKO_DATA_DIR": tmp}
        serve_args: list[str] = []
        if args.workers > 1:
            env["REDIS_URL"] = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
            env["RISIKO_CHANNELS_PREFIX"] = f"bench-live-{os.getpid()}"
            serve_args = ["--workers", str(args.workers)]
        with ServedApp(env, args=serve_args) as app:
            assert app.process is not None
            pid = app.process.pid
            if args.poll_only:
                poll(app, args, setup, "push on")
                logged = app.errors()
            else:
                logged = push_phases(app, pid, setup, args)
        with ServedApp({**env, "RISIKO_LIVE": "0"}, args=serve_args) as app:
            poll(app, args, setup, "push off (RISIKO_LIVE=0), side by side")
            logged += app.errors()
        if args.baseline:
            old = {**env, "RISIKO_LIVE": "0", "PYTHONPATH": str(Path(args.baseline).resolve())}
            with ServedApp(old, args=serve_args) as app:
                poll(app, args, setup, f"push off, the code of {args.baseline}, side by side")
                logged += app.errors()
        print(f"server errors logged: {len(logged)}")
        for line in sorted(set(logged))[:10]:
            print(f"    {line}")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


def push_phases(app: Any, pid: int, setup: dict[str, Any], args: Any) -> list[str]:
    """The push (:func:`push`) with the phones, then the same saves alone, then the poll
    with the push on; the server's errors logged."""
    r = push(app.url, pid, setup, args.phones, args.referees, args.write_every,
             args.duration)
    print(f"push: {r['connected']}/{r['phones']} phones following, {r['saves']} "
          f"results saved by {args.referees} referees, {r['rounds']} rounds, "
          f"{r['fragments']} fragments received, {r['missed']} (save, phone) missed, "
          f"errors {len(r['errors'])}; save's answer -> update on every phone: "
          f"p50 {r['p50']:.0f} ms, p90 {r['p90']:.0f} ms, p99 {r['p99']:.0f} ms, "
          f"max {r['max']:.0f} ms; server CPU {r['server_cpu']:.2f} cores, "
          f"{r['cpu_per_save_ms']:.0f} ms per save", flush=True)
    for e in sorted(set(r["errors"] + r["failed"]))[:10]:
        print(f"    error: {e}")
    alone = push(app.url, pid, setup, 0, args.referees, args.write_every,
                 args.duration)
    print(f"the same saves with no phone following: {alone['saves']} saves, server "
          f"CPU {alone['cpu_per_save_ms']:.0f} ms per save; the push's CPU per "
          f"change (200 phones): "
          f"{r['cpu_per_save_ms'] - alone['cpu_per_save_ms']:.0f} ms", flush=True)
    poll(app, args, setup, "push on")
    return app.errors()


if __name__ == "__main__":
    main()
