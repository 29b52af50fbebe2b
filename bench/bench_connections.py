"""PostgreSQL connections held by the web app under load (figures in docs/benchmarks.md).

Starts the ASGI app with uvicorn in a subprocess, as ``risiko serve`` does, on a fresh
PostgreSQL database, and fires ``CLIENTS`` (50) clients at once, each asking ``REQUESTS`` (20)
pages in a row (the public standings, its live partial and the JSON API, as the players'
phones do); meanwhile it counts the database's connections (``pg_stat_activity``) every
20 ms. Then it waits 2 s and counts again (what stays open when the evening is quiet).
Twice: with the connection pool (the default, ``RISIKO_DB_POOL_MAX`` = 8) and without it
(``RISIKO_DB_POOL_MAX=0``: a connection per request, closed at its end).

Run: ``RISIKO_BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/wt_write
.venv/bin/python bench/bench_connections.py`` (the database ``<name>_conn_bench`` is created
and dropped). Skipped without PostgreSQL.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

CLIENTS = 50
REQUESTS = 20
ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _db_url(base: str, name: str) -> str:
    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))


def _prepare(url: str, data_dir: str) -> str:
    """Migrate the bench database and create a played tournament; its slug."""
    code = (
        "from risiko.web.bootstrap import setup; setup()\n"
        "from risiko.web import services\n"
        "names = [f'Giocatore {i:02d}' for i in range(1, 41)]\n"
        "t = services.create_tournament('Banco', who='bench')\n"
        "services.add_players(t, names, who='bench')\n"
        "for d in (2, 9, 16):\n"
        "    e = services.open_evening(t, f'2027-03-{d:02d}', who='bench')\n"
        "    tables = [names[i:i + 5] for i in range(0, 40, 5)]\n"
        "    services.set_tables(e, tables, who='bench')\n"
        "    for n, seats in enumerate(tables, start=1):\n"
        "        services.enter_scores(services.get_table(e, n),\n"
        "            dict(zip(seats, [50, 40, 30, 20, 10])), who='bench')\n"
        "from django.contrib.auth.models import User\n"
        "User.objects.create_superuser('bench', password='bench-password-42')\n"
        "print(t.slug)\n"
    )
    env = {**os.environ, "DATABASE_URL": url, "RISIKO_DATA_DIR": data_dir}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


def _count(admin: object, name: str) -> int:
    cur = admin.cursor()  # type: ignore[attr-defined]
    cur.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                "AND pid <> pg_backend_pid()", (name,))
    return int(cur.fetchone()[0])


def _get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def run(url: str, name: str, slug: str, data_dir: str, pool_max: int) -> dict[str, object]:
    import psycopg

    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "RISIKO_DATA_DIR": data_dir,
           "RISIKO_DB_POOL_MAX": str(pool_max), "DJANGO_SETTINGS_MODULE": "risiko.web.settings"}
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "risiko.web.asgi:application", "--port", str(port),
         "--lifespan", "off", "--log-level", "warning", "--no-access-log"],
        env=env, cwd=ROOT)
    admin = psycopg.connect(_db_url(url, "postgres"), autocommit=True)
    try:
        for _ in range(200):
            try:
                if _get(port, "/api/tournaments") == 200:
                    break
            except OSError:
                time.sleep(0.1)
        samples: list[int] = []
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                samples.append(_count(admin, name))
                time.sleep(0.02)

        paths = [f"/t/{slug}/", f"/t/{slug}/classifica/live/",
                 f"/api/tournaments/{slug}/standings"]
        barrier = threading.Barrier(CLIENTS)
        statuses: list[int] = []

        def client(i: int) -> None:
            barrier.wait()
            for k in range(REQUESTS):
                statuses.append(_get(port, paths[(i + k) % len(paths)]))

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.perf_counter()
        with ThreadPoolExecutor(CLIENTS) as pool:
            list(pool.map(client, range(CLIENTS)))
        elapsed = time.perf_counter() - started
        stop.set()
        sampler.join()
        time.sleep(2)
        after = _count(admin, name)
        return {"pool_max": pool_max, "requests": len(statuses),
                "errors": sum(1 for s in statuses if s != 200),
                "max_connections": max(samples), "after_2s": after,
                "requests_per_s": round(len(statuses) / elapsed, 1)}
    finally:
        server.terminate()
        server.wait(timeout=30)
        admin.close()


def main() -> int:
    base = os.environ.get("RISIKO_BENCH_POSTGRES_URL") or os.environ.get(
        "RISIKO_TEST_POSTGRES_URL")
    if not base:
        print("bench_connections: set RISIKO_BENCH_POSTGRES_URL (PostgreSQL); skipped")
        return 0
    import psycopg

    name = (urlsplit(base).path.strip("/") or "risiko") + "_conn_bench"
    url = _db_url(base, name)
    with psycopg.connect(_db_url(base, "postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with tempfile.TemporaryDirectory() as data_dir:
            slug = _prepare(url, data_dir)
            print(f"{CLIENTS} clients x {REQUESTS} requests at once (uvicorn, one process); "
                  "the load generator runs on the same machine")
            for pool_max in (8, 0):
                r = run(url, name, slug, data_dir, pool_max)
                label = f"pool max {pool_max}" if pool_max else "no pool"
                print(f"{label:12} {r['requests']} requests, {r['errors']} errors, "
                      f"{r['requests_per_s']} req/s; connections held: at most "
                      f"{r['max_connections']}, 2 s after: {r['after_2s']}")
    finally:
        with psycopg.connect(_db_url(base, "postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
