"""Load benchmark of the live standings on an evening (figures in docs/benchmarks.md; not a
timed test).

An evening's real load, against ``risiko serve`` started by the benchmark on a free port
(uvicorn, production settings, the embedded SQLite database in a temporary data folder):

- the tournament of :mod:`bench_web` with ``PLAYERS`` players and ``EVENINGS`` past
  evenings, and tonight's evening with ``PRESENT`` players checked in and seated at tables
  of 5 and 4, no result yet;
- **open loop**: ``PHONES`` (50) phones each ask for the live standings every ``PERIOD``
  (10) seconds - in turn the page ``/classifica/``, its live partial (what htmx polls) and
  the JSON API - at random phases, so ``PHONES / PERIOD`` (5) requests a second; meanwhile
  ``REFEREES`` (2) referees, logged in, each save a table's result through the console every
  ``WRITE_EVERY`` (3) seconds (the table's page, then its scores form: a new result or a
  correction). Latency is measured from the moment each request was due (a late request
  counts its wait), for ``DURATION`` (60) seconds;
- **closed loop**: ``PHONES`` clients asking for the same mix back to back, as fast as the
  server answers, for ``CLOSED`` (30) seconds, the referees still saving.

Figures: requests, errors (anything but 200, and any error the server logged), requests a
second, p50/p90/p99/max latency, the writes saved and their p50/p99, the server's CPU time
per request. The load generator runs on the same machine as the server (threads in this
process): on 2 cores the two compete. Run:
``.venv/bin/python bench/bench_load.py [--players N] [--evenings N] [--duration S]``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import http.client
import os
import random
import re
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_web import _table_sizes, build, setup_django

PASSWORD = "bench-password-42"


@dataclass
class Tally:
    """Latencies (seconds) and failures of one kind of request."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, error: str | None = None) -> None:
        with self.lock:
            self.latencies.append(seconds)
            if error:
                self.errors.append(error)


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` in ms (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1e3


class Client:
    """A keep-alive HTTP client with cookies (one per phone or referee)."""

    def __init__(self, base: str) -> None:
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.conn: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: str | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.conn.request(method, path, body=body, headers=h)
                resp = self.conn.getresponse()
                text = resp.read().decode("utf-8", "replace")
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        for value in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return resp.status, text, {k.lower(): v for k, v in resp.getheaders()}

    def form(self, path: str, page: str, values: dict[str, str]) -> tuple[int, str]:
        """POST ``values`` with every hidden input of the form of ``page`` that posts to
        ``path`` (CSRF, its one-time token: each form has its own), or of the whole page."""
        found = re.search(r'<form[^>]*action="' + re.escape(path) + r'"(.*?)</form>', page,
                          re.S)
        data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                               found.group(1) if found else page))
        data.update(values)
        status, text, _h = self.request(
            "POST", path, urllib.parse.urlencode(data),
            {"Content-Type": "application/x-www-form-urlencoded",
             "Referer": f"http://{self.host}:{self.port}{path}"})
        return status, text


def prepare(tmp: str, players: int, evenings: int, present: int) -> dict[str, Any]:
    """The database in ``tmp``: the bench_web tournament and tonight's evening seated."""
    setup_django(tmp)
    from django.db import connections

    from risiko.web import services
    from risiko.web.tournaments.models import Tournament

    t = build(players, evenings)
    names = list(t.entries.order_by("order").values_list("player__name", flat=True))
    tonight = (t.evenings.order_by("-date").first().date  # type: ignore[union-attr]
               + _dt.timedelta(weeks=1))
    e = services.open_evening(t, tonight, who="bench")
    here = names[:present]
    for n in here:
        services.record_arrival(e, n, "20:55", who="bench")
    tables, pos = [], 0
    for size in _table_sizes(present):
        tables.append(here[pos:pos + size])
        pos += size
    services.set_tables(e, tables, who="bench")
    Tournament.objects.filter(pk=t.pk).update(is_current=True)
    Tournament.objects.exclude(pk=t.pk).update(is_current=False)
    connections.close_all()
    return {"slug": t.slug, "date": tonight.isoformat(), "tables": tables}


def evening_arguments(doc: str | None, *, phones: int, referees: int
                      ) -> argparse.ArgumentParser:
    """The options of an evening's benchmark: ``--players``, ``--evenings``, ``--present``,
    ``--phones``, ``--referees``, ``--write-every``."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    ap.add_argument("--players", type=int, default=80)
    ap.add_argument("--evenings", type=int, default=20)
    ap.add_argument("--present", type=int, default=50)
    ap.add_argument("--phones", type=int, default=phones)
    ap.add_argument("--referees", type=int, default=referees)
    ap.add_argument("--write-every", type=float, default=3.0)
    return ap


def prepare_with_referees(tmp: str, args: Any) -> dict[str, Any]:
    """:func:`prepare` and ``args.referees`` referees (``arbitro0``...), said on stdout."""
    setup = prepare(tmp, args.players, args.evenings, args.present)
    from django.contrib.auth.models import Group, User
    from django.db import connections

    for r in range(args.referees):
        u = User.objects.create_user(f"arbitro{r}", password=PASSWORD)
        u.groups.add(Group.objects.get_or_create(name="referee")[0])
    connections.close_all()
    print(f"{args.players} players, {args.evenings} past evenings, tonight "
          f"{args.present} players at {len(setup['tables'])} tables; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start "
          "(the load generator runs on this machine too)", flush=True)
    return setup


def login(base: str, username: str) -> Client:
    c = Client(base)
    status, page, _h = c.request("GET", "/login/")
    assert status == 200, status
    status, _t = c.form("/login/", page, {"username": username, "password": PASSWORD})
    assert status == 302, f"login of {username}: {status}"
    return c


def save_one(c: Client, setup: dict[str, Any], rng: random.Random, *,
             refused_is_error: bool = False) -> str | None:
    """A referee saves a random table's result (the table page, then its scores form, with
    a reason: a correction needs one); what went wrong, or None (a form refused, 200, is
    an error only with ``refused_is_error``)."""
    number = rng.randint(1, len(setup["tables"]))
    seats = setup["tables"][number - 1]
    path = f"/arbitro/t/{setup['slug']}/{setup['date']}/tavolo/{number}/"
    try:
        _status, page, _h = c.request("GET", path)
        values = {f"score_{i}": str(rng.randint(5, 90)) for i in range(1, len(seats) + 1)}
        values["reason"] = "correzione del banco"
        status, _text = c.form(path + "punteggi/", page, values)
        if status == 200:  # the form again: refused (its errors on it), nothing saved
            return None if not refused_is_error else f"refused (200) POST {path}"
        return None if status == 302 else f"{status} POST {path}"
    except Exception as exc:  # a refused connection, a timeout: an error
        return f"{type(exc).__name__}: {exc}"


def referee(base: str, username: str, setup: dict[str, Any], stop: threading.Event,
            every: float, seed: int, done: Callable[[float, str | None], None],
            refused_is_error: bool = False) -> None:
    """Save a table's result every ``every`` seconds (:func:`save_one`); after each,
    ``done(seconds it took, what went wrong or None)``."""
    rng = random.Random(seed)
    c = login(base, username)
    due = time.perf_counter() + rng.uniform(0, every)
    while not stop.is_set():
        time.sleep(max(0.0, due - time.perf_counter()))
        if stop.is_set():
            break
        start = time.perf_counter()
        error = save_one(c, setup, rng, refused_is_error=refused_is_error)
        done(time.perf_counter() - start, error)
        due += every


def phone_paths(setup: dict[str, Any]) -> list[str]:
    slug = setup["slug"]
    return ["/classifica/", f"/t/{slug}/classifica/live/", f"/api/tournaments/{slug}/standings"]


def phone(base: str, paths: list[str], stop: threading.Event, period: float | None,
          tallies: dict[str, Tally], seed: int) -> None:
    """Ask for the standings every ``period`` seconds (None: back to back)."""
    rng = random.Random(seed)
    c = Client(base)
    k = rng.randrange(len(paths))
    due = time.perf_counter() + (rng.uniform(0, period) if period else 0)
    while not stop.is_set():
        if period:
            time.sleep(max(0.0, due - time.perf_counter()))
            if stop.is_set():
                break
        else:
            due = time.perf_counter()
        path = paths[k % len(paths)]
        k += 1
        try:
            status, _text, _h = c.request("GET", path, headers={"HX-Request": "true"}
                                          if "live" in path else None)
            error = None if status == 200 else f"{status} {path}"
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
        tallies[path].add(time.perf_counter() - due, error)
        if period:
            due += period


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` and of its children (uvicorn's workers),
    from Linux's /proc."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == str(pid) or fields[1] == str(pid):
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def for_a_while(threads: list[threading.Thread], stop: threading.Event, pid: int,
                duration: float, linger: float = 0.0) -> tuple[float, float]:
    """Run ``threads`` for ``duration`` seconds, then ``stop`` them and wait ``linger``
    more seconds; the server's (``pid``) CPU seconds and the seconds elapsed."""
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    for th in threads:
        th.start()
    time.sleep(duration)
    stop.set()
    for th in threads:
        th.join(120)
    time.sleep(linger)
    return cpu_seconds(pid) - cpu0, time.perf_counter() - t0


def run(base: str, pid: int, setup: dict[str, Any], phones: int, period: float | None,
        referees: int, every: float, duration: float, paths: list[str] | None = None
        ) -> dict[str, Any]:
    """The phones (``paths`` in turn: :func:`phone_paths` unless given) and the referees
    for ``duration`` seconds; the figures of :func:`report`."""
    paths = paths or phone_paths(setup)
    tallies = {p: Tally() for p in paths}
    writes = Tally()
    stop = threading.Event()
    threads = [threading.Thread(target=referee, args=(base, f"arbitro{r}", setup, stop, every,
                                                      100 + r, writes.add))
               for r in range(referees)]
    threads += [threading.Thread(target=phone, args=(base, paths, stop, period, tallies, i))
                for i in range(phones)]
    cpu, elapsed = for_a_while(threads, stop, pid, duration)
    lat = [x for t in tallies.values() for x in t.latencies]
    errors = [e for t in (*tallies.values(), writes) for e in t.errors]
    return {
        "requests": len(lat), "rps": len(lat) / elapsed, "errors": errors,
        "p50": pct(lat, 0.5), "p90": pct(lat, 0.9), "p99": pct(lat, 0.99),
        "max": max(lat) * 1e3 if lat else float("nan"),
        "by_path": {p: (len(t.latencies), pct(t.latencies, 0.5), pct(t.latencies, 0.99))
                    for p, t in tallies.items()},
        "writes": len(writes.latencies), "write_p50": pct(writes.latencies, 0.5),
        "write_p99": pct(writes.latencies, 0.99),
        "cpu_ms_per_request": cpu * 1e3 / max(1, len(lat) + 2 * len(writes.latencies)),
        "server_cpu": cpu / elapsed,
    }


def report(label: str, r: dict[str, Any]) -> None:
    print(f"{label}: {r['requests']} requests, {r['rps']:.1f}/s, errors {len(r['errors'])}; "
          f"latency p50 {r['p50']:.0f} ms, p90 {r['p90']:.0f} ms, p99 {r['p99']:.0f} ms, "
          f"max {r['max']:.0f} ms; {r['writes']} results saved (p50 {r['write_p50']:.0f} ms, "
          f"p99 {r['write_p99']:.0f} ms); server CPU {r['server_cpu']:.2f} cores, "
          f"{r['cpu_ms_per_request']:.1f} ms per request", flush=True)
    for path, (n, p50, p99) in r["by_path"].items():
        print(f"    {path:50} {n:6} requests  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms")
    for e in sorted(set(r["errors"]))[:10]:
        print(f"    error: {e} (x{r['errors'].count(e)})")


def main() -> None:
    ap = evening_arguments(__doc__, phones=50, referees=2)
    ap.add_argument("--period", type=float, default=10.0)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--closed", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=0,
                    help="risiko serve --workers (0: its default)")
    args = ap.parse_args()
    from risiko.web.serving import ServedApp

    with tempfile.TemporaryDirectory() as tmp:
        setup = prepare_with_referees(tmp, args)
        serve_args = ["--workers", str(args.workers)] if args.workers else []
        env = {"RISIKO_DATA_DIR": tmp}
        if args.workers > 1:  # the online tables' channel layer (not used here)
            env["REDIS_URL"] = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"
        with ServedApp(env, args=serve_args) as app:
            assert app.process is not None
            for path in phone_paths(setup):  # warm: templates, first snapshot
                Client(app.url).request("GET", path)
            pid = app.process.pid
            r = run(app.url, pid, setup, args.phones, args.period, args.referees,
                    args.write_every, args.duration)
            report(f"open loop ({args.phones} phones every {args.period:g} s, "
                   f"{args.referees} referees every {args.write_every:g} s)", r)
            r = run(app.url, pid, setup, args.phones, None, args.referees,
                    args.write_every, args.closed)
            report(f"closed loop ({args.phones} clients back to back, "
                   f"{args.referees} referees every {args.write_every:g} s)", r)
            logged = app.errors()
            print(f"server errors logged: {len(logged)}")
            exceptions = [line for line in app.log
                          if re.match(r"^[\w.]+(Error|Exception)\b", line)]
            for line in sorted(set(exceptions))[:10]:
                print(f"    {line} (x{exceptions.count(line)})")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
