"""One online action's server path at round 1 and at round 15, in one process, deterministic
enough to count its instructions (docs/benchmarks.md, "Online tables").

    .venv/bin/python bench/bench_online_action.py prepare [--rounds 1 15]
    .venv/bin/python bench/bench_online_action.py measure --round 15 [--warm 8] [--actions 60]

On PostgreSQL only (``DATABASE_URL``, a database of your own: it and ``<name>_r<round>`` are
dropped and made again). ``prepare`` plays one table of 4 seats (the remote bots' strategy,
:func:`risiko.online.client.choose`, a fixed seed) through
:func:`risiko.web.online.services.apply` until the first action of each round asked and keeps
the database there as a template (``<name>_r<round>``). ``measure`` copies the template of
``--round`` into ``DATABASE_URL``'s database and plays ``--warm`` actions then ``--actions``
more, each one what the two workers of ``bench_online.py`` do for it, less the sockets and
Redis: the acting worker's :func:`services.apply` and its outbox's messages JSON-encoded
(:func:`consumers.send_outbox`), the other worker's cached game brought along
(:func:`services.advance_cached`, its own cache). It prints the CPU per action (median, mean)
and the action kinds, and the outboxes' messages per action by type. To count
instructions, run ``measure`` under ``valgrind --tool=cachegrind --cache-sim=no`` twice, with
``--actions N`` and ``--actions 0``: the difference over N is one action's instructions (the
``count`` command prints the pair's figure: ``bench_online_action.py count --round 15``).

``wire --round 15 --actions N`` is the whole path in a server instead: one uvicorn worker (as
``risiko serve`` runs it, the Redis layer of ``REDIS_URL``, the scheduler off) serving the
template, N actions of the script played by 4 remote-bot sockets of this process (each
awaited to its ack and its event on every socket); ``wire-count --round 15`` runs it under
cachegrind with ``--warm`` and ``--warm`` + ``--actions`` actions: one action's frame read,
thread hop, ack, publishes, Redis's messages received and the frames written, in
instructions. The server does not migrate: ``prepare`` again after a migration (a template
of an older schema answers the sockets with a 500).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: the table's seed: every run plays the same game
SEED = bytes(range(32))
#: the actions recorded after each round's template (``--warm`` + ``--actions`` at most)
RECORDED = 240


def _url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("DATABASE_URL: a PostgreSQL database of your own")
    return url


def _admin(sql: list[str]) -> None:
    import psycopg

    base, _, _ = _url().rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        for s in sql:
            conn.execute(s)


def _setup() -> None:
    os.environ.setdefault("RISIKO_DATA_DIR", tempfile.mkdtemp(prefix="risiko-bench-action-"))
    os.environ.setdefault("RISIKO_SECRET_KEY", "bench-" + "x" * 40)
    os.environ["DJANGO_SETTINGS_MODULE"] = "risiko.web.settings"
    os.environ.pop("REDIS_URL", None)  # the in-memory layer: Redis is not what is counted
    sys.path.insert(0, str(ROOT / "src"))
    import django

    django.setup()


class _View:
    """What :func:`choose` reads of a client: the public game, the seat's private view."""

    def __init__(self, game: dict[str, Any], private: dict[str, Any], seat: int) -> None:
        self.game, self.private, self.seat = game, private, seat


class Player:
    """The four seats of the benchmark's table, acting with the remote bots' strategy."""

    def __init__(self, table_id: int, actors: list[Any], seed: int) -> None:
        self.table_id, self.actors = table_id, actors
        self.rng = random.Random(seed)
        self.turn: Any = None
        self.attacks = 3
        self.ids = 0

    def next(self) -> tuple[Any, dict[str, Any], int]:
        """The seat to act, its action, the table's seq (read as a client would see it)."""
        from risiko.online import adapter
        from risiko.online.client import choose
        from risiko.web.online import services
        from risiko.web.online.models import OnlineTable

        table = OnlineTable.objects.get(pk=self.table_id)
        game = services.game_of(table)
        seat = game.to_act
        assert seat is not None and table.status == "playing"
        view = _View(adapter.public_view(game), adapter.private_view(game, seat), seat + 1)
        if (game.round, seat) != self.turn:
            self.turn, self.attacks = (game.round, seat), 3
        action = choose(view, self.rng, self.attacks)  # type: ignore[arg-type]
        if action["kind"] == "attack":
            self.attacks -= 1
        return self.actors[seat], action, table.seq


def _round(table_id: int) -> int:
    from risiko.web.online import services
    from risiko.web.online.models import OnlineTable

    return services.game_of(OnlineTable.objects.get(pk=table_id)).round


def prepare(rounds: list[int]) -> int:
    url = _url()
    name = url.rpartition("/")[2]
    _admin([f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'])
    os.environ["RISIKO_DB_POOL_MAX"] = "0"  # no pool: the template is copied between rounds
    _setup()
    from django.core.management import call_command
    from django.db import connections

    from risiko.fair import commitment
    from risiko.web.online import services
    from risiko.web.online.models import OnlineTable

    call_command("migrate", verbosity=0)
    t = services.create_table(name="action", seats=4, who="bench",
                              settings={"clock_seconds": 0, "call_round": 30})
    OnlineTable.objects.filter(pk=t.pk).update(seed=SEED.hex(), commitment=commitment(SEED))
    tokens = [services.join(t.pk, guest_name=n)[1] for n in ("Anna", "Bruno", "Carla", "Dario")]
    actors = [services.seat_of_token(t.pk, token) for token in tokens]
    player = Player(t.pk, actors, 0)

    def play(client_id: str) -> list[Any]:
        actor, action, seq = player.next()
        player.ids += 1
        reply = services.apply(t.pk, actor, action, client_id=client_id, expect_seq=seq)
        assert not reply.faults, (action, reply.faults)
        return [actors.index(actor), action, seq, client_id]

    for wanted in sorted(rounds):
        while _round(t.pk) < wanted:
            play(f"p-{player.ids}")
        seq = OnlineTable.objects.get(pk=t.pk).seq
        connections.close_all()
        _admin([f'DROP DATABASE IF EXISTS "{name}_r{wanted}" WITH (FORCE)',
                f'CREATE DATABASE "{name}_r{wanted}" TEMPLATE "{name}"'])
        # what the measure plays from this template: the same actions every run
        script = [play(f"m{wanted}-{i}") for i in range(RECORDED)]
        with open(Path(tempfile.gettempdir()) / f"{name}-r{wanted}.json", "w") as f:
            json.dump({"table": t.pk, "code": t.code, "tokens": tokens,
                       "actors": [a.__dict__ for a in actors], "script": script}, f)
        print(f"round {wanted}: {seq} events behind, kept as {name}_r{wanted} with the "
              f"{RECORDED} actions that follow")
    return 0


def measure(at: int, warm: int, actions: int) -> int:
    url = _url()
    name = url.rpartition("/")[2]
    _admin([f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
            f'CREATE DATABASE "{name}" TEMPLATE "{name}_r{at}"'])
    _setup()
    from risiko.web.online import services
    from risiko.web.online.models import OnlineTable
    from risiko.web.online.services import cache

    with open(Path(tempfile.gettempdir()) / f"{name}-r{at}.json") as f:
        saved = json.load(f)
    table_id = int(saved["table"])
    actors = [services.Actor(**a) for a in saved["actors"]]
    script = iter(saved["script"])
    mine: dict[int, Any] = {}  # the acting worker's cache, the other worker's
    other: dict[int, Any] = {}
    kinds: Counter[str] = Counter()
    sent: Counter[str] = Counter()  # the outboxes' messages of the counted actions, by type
    cpu: list[float] = []

    def one(counted: bool) -> None:
        seat, action, seq, client_id = next(script)
        cache._CACHE = mine
        c0 = time.process_time()
        reply = services.apply(table_id, actors[seat], action, client_id=client_id,
                               expect_seq=seq)
        outbox = reply.outbox
        assert outbox is not None and not reply.faults, (action, reply.faults)
        for _, message in outbox.messages:  # what send_outbox sends, encoded once
            json.dumps(message)
        cache._CACHE = other
        if outbox.advance is not None:
            table, seq_from, seq_to, lines, draws = outbox.advance
            services.advance_cached(table, seq_from, seq_to, lines, draws)
        c1 = time.process_time()
        cache._CACHE = mine
        if counted:
            cpu.append(1000 * (c1 - c0))
            kinds[str(action["kind"])] += 1
            sent.update(str(m["type"]) for _, m in outbox.messages)

    for i in range(warm):
        one(False)
        if i == 0:  # the other worker's game: read once, then brought along
            row = OnlineTable.objects.get(pk=table_id)
            other[table_id] = (row.seq, services._rebuild(row))
    for _ in range(actions):
        one(True)
    if cpu:
        print(f"round {at}: {len(cpu)} actions ({dict(sorted(kinds.items()))}), CPU per action "
              f"median {statistics.median(cpu):.2f} ms, mean {statistics.mean(cpu):.2f} ms, "
              f"load average {os.getloadavg()[0]:.2f}; messages per action "
              + ", ".join(f"{k} {v / len(cpu):.2f}" for k, v in sorted(sent.items())))
    return 0


def _instructions(args: list[str]) -> int:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "cg.out"
        subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        f"--cachegrind-out-file={out}", sys.executable, __file__, *args],
                       check=True, capture_output=True)
        summary = [x for x in out.read_text().splitlines() if x.startswith("summary:")]
        return int(re.findall(r"\d+", summary[0])[0])


def count(at: int, warm: int, actions: int) -> int:
    base = ["measure", "--round", str(at), "--warm", str(warm)]
    none = _instructions([*base, "--actions", "0"])
    some = _instructions([*base, "--actions", str(actions)])
    print(f"round {at}: {(some - none) / actions / 1e6:.2f} M instructions per action "
          f"({actions} actions after {warm})")
    return 0


#: ``wire``'s server: the site's settings, less what wakes by the clock (the deadlines'
#: scheduler, the presence that would go stale while valgrind runs the server 50 times slower)
_WIRE_SETTINGS = """\
from risiko.web.settings import *  # noqa: F401,F403

RISIKO_ONLINE_SCHEDULER = False
RISIKO_ONLINE_PRESENCE_STALE = 1e9
"""


async def _wire_play(url: str, tokens: list[str], script: list[Any], played: int) -> None:
    """The four seats connected as remote bots (``auth``, then their ``state``), then
    ``played`` actions of the script, each sent by its seat and awaited: its ``ack``, then
    the table's ``event`` of it on every socket."""
    import websockets

    socks: list[Any] = []
    seen = [0] * len(tokens)
    origin = "http://" + url.split("://", 1)[1].split("/", 1)[0]
    for k, token in enumerate(tokens):
        ws = await websockets.connect(url, origin=origin, max_size=None,  # type: ignore[arg-type]
                                      compression=None)
        await ws.send(json.dumps({"type": "auth", "token": token}))
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "state":
                seen[k] = int(m["seq"])
                break
        socks.append(ws)
    for seat, action, _, client_id in script[:played]:
        ws = socks[seat]
        await ws.send(json.dumps({"type": "act", "id": client_id, "seq": max(seen),
                                  "action": action}))
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "ack":
                break
            if m["type"] in ("refused", "error"):
                raise SystemExit(f"refused: {m}")
        for k, other in enumerate(socks):
            while seen[k] < m["seq"]:
                e = json.loads(await other.recv())
                if e["type"] in ("event", "state"):
                    seen[k] = max(seen[k], int(e["seq"]))
    for ws in socks:
        await ws.close()


def wire(at: int, played: int, cachegrind: str | None) -> int:
    """Serve the template of round ``at`` with one uvicorn worker (Redis, ``REDIS_URL``;
    under cachegrind into ``cachegrind`` when given), play ``played`` actions through four
    sockets from this process, stop the server. Prints the server's CPU."""
    import socket

    url = _url()
    name = url.rpartition("/")[2]
    redis = os.environ.get("REDIS_URL")
    if not redis:
        raise SystemExit("REDIS_URL: a Redis database of your own")
    _admin([f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
            f'CREATE DATABASE "{name}" TEMPLATE "{name}_r{at}"'])
    with open(Path(tempfile.gettempdir()) / f"{name}-r{at}.json") as f:
        saved = json.load(f)
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "wire_settings.py").write_text(_WIRE_SETTINGS)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="wire_settings", RISIKO_DATA_DIR=d,
                   RISIKO_SECRET_KEY="bench-" + "x" * 40,
                   RISIKO_CHANNELS_PREFIX=f"wire-{os.getpid()}",
                   PYTHONPATH=os.pathsep.join(x for x in (d, os.environ.get("PYTHONPATH"))
                                              if x))
        cmd = [sys.executable, "-m", "uvicorn", "risiko.web.asgi:application", "--host",
               "127.0.0.1", "--port", str(port), "--ws", "websockets-sansio", "--lifespan", "on",
               "--log-level", "warning", "--no-access-log", "--ws-per-message-deflate", "false",
               "--ws-ping-interval", "100000"]
        if cachegrind:
            cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
                   f"--cachegrind-out-file={cachegrind}", *cmd]
        server = subprocess.Popen(cmd, env=env, cwd=d, stderr=subprocess.DEVNULL)
        try:
            import asyncio

            sys.path.insert(0, str(ROOT / "bench"))
            from bench_online import wait_for_port

            wait_for_port(port, 6000, timeout=0.5)  # valgrind starts Django in a minute or two

            asyncio.run(_wire_play(f"ws://127.0.0.1:{port}/ws/online/{saved['code']}/",
                                   saved["tokens"], saved["script"], played))
        finally:
            server.send_signal(2)
            server.wait(timeout=600)
    return 0


def wire_count(at: int, warm: int, actions: int) -> int:
    """One action's whole path in the server, in instructions: ``wire`` under cachegrind with
    ``warm + actions`` and with ``warm`` actions, the difference over ``actions``."""
    counts = []
    for played in (warm, warm + actions):
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "cg.out"
            subprocess.run([sys.executable, __file__, "wire", "--round", str(at), "--actions",
                            str(played), "--cachegrind", str(out)], check=True)
            summary = [x for x in out.read_text().splitlines() if x.startswith("summary:")]
            counts.append(int(re.findall(r"\d+", summary[0])[0]))
    print(f"round {at}: {(counts[1] - counts[0]) / actions / 1e6:.2f} M instructions per action, "
          f"the whole path in the server ({actions} actions after {warm}; "
          f"{counts[0] / 1e6:.0f} M with {warm})")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("prepare", "measure", "count", "wire", "wire-count"))
    ap.add_argument("--cachegrind", help=argparse.SUPPRESS)  # wire: the server's output file
    ap.add_argument("--rounds", type=int, nargs="+", default=[1, 15])
    ap.add_argument("--round", type=int, default=15)
    ap.add_argument("--warm", type=int, default=8)
    ap.add_argument("--actions", type=int, default=60)
    args = ap.parse_args()
    if args.what == "prepare":
        return prepare(args.rounds)
    if args.what == "measure":
        return measure(args.round, args.warm, args.actions)
    if args.what == "wire":
        return wire(args.round, args.actions, args.cachegrind)
    if args.what == "wire-count":
        return wire_count(args.round, args.warm, args.actions)
    return count(args.round, args.warm, args.actions)


if __name__ == "__main__":
    raise SystemExit(main())
