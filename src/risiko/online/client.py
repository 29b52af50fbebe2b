"""A small WebSocket client for online tables (remote bots, tests, the benchmark).

Needs the web extra (the ``websockets`` package). Protocol: docs/online.md.

    async with TableClient("ws://127.0.0.1:8000/ws/online/CODE/", token=TOKEN) as c:
        await c.wait_until(lambda c: c.my_turn)
        reply = await c.act({"kind": "end"})

A seat's token never goes in the URL (servers and proxies log URLs): the client sends it as
its first message (``{"type": "auth", "token": ...}``) and waits for the server's welcome as
that seat.

The client keeps the latest ``table``, ``game`` (public), ``private`` (its seat's secrets),
``clock`` and ``seq``, and the last :data:`LOG_MOST` entries of the ``log`` (as a ``state``
sends them: what a client holds does not grow with the game's length); an ``event`` whose
``seq`` is not the next one makes it ask for a full ``state`` (``sync``). :meth:`act` sends an
intention with a fresh ``id`` and the ``seq`` of its view and returns the ``ack`` or
``refused`` answering it. :func:`play_remote_bot` plays a
seat with a simple random strategy from the JSON alone.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import json
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

import websockets

#: the log entries a client keeps (the last ones; a ``state`` sends the server's last 200)
LOG_MOST = 200


class TableClient:
    """One connection to one table. ``messages`` keeps every message received (tests);
    ``log_most``: how many of the last log entries ``log`` keeps (0: none)."""

    def __init__(self, url: str, *, token: str | None = None, lang: str = "en",
                 origin: str | None = None, keep: bool = False,
                 log_most: int = LOG_MOST) -> None:
        sep = "&" if "?" in url else "?"
        self.url = url + sep + f"lang={lang}"
        self.token = token
        scheme, _, rest = url.partition("://")  # the server's own origin
        self.origin = origin or ("https://" if scheme == "wss" else "http://") + rest.split(
            "/", 1)[0]
        self.keep = keep
        self.messages: list[dict[str, Any]] = []
        self.role: str | None = None
        self.seat: int | None = None
        self.seq = -1
        self.table: dict[str, Any] = {}
        self.game: dict[str, Any] | None = None
        self.private: dict[str, Any] | None = None
        self.clock: dict[str, Any] = {}
        self.log_most = log_most  # the log entries kept (a remote bot reads none: 0)
        self.log: collections.deque[dict[str, Any]] = collections.deque(maxlen=log_most)
        self.events_seen: collections.deque[int] = collections.deque(maxlen=log_most)
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Condition()
        self._ids = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self.closed = False
        self.viewed = False  # the state of the identity last welcomed has come
        #: ``refused`` messages that answered no request of this client (its ``auth``) and
        #: ``error`` messages with faults (a limit, then the server closes: its ``auth`` one
        #: socket too many for its seat, too many messages)
        self.refusals: list[dict[str, Any]] = []

    async def __aenter__(self) -> TableClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        """Open the connection and wait for the first full state."""
        self._ws = await websockets.connect(self.url, origin=self.origin,  # type: ignore[arg-type]
                                            max_size=2**22, open_timeout=30)
        self.closed = False
        self.role, self.seq, self.viewed, self.refusals = None, -1, False, []
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if self.token:  # the first message: the spectator's welcome becomes the seat's
            await self.send({"type": "auth", "token": self.token})
            try:
                await self.wait_until(lambda c: c.role == "seat" and c.viewed, timeout=30)
            except ConnectionError:
                faults = [f.get("message") for r in self.refusals for f in r["faults"]]
                raise ConnectionError(f"seat refused: {'; '.join(faults)}") from None
        else:
            await self.wait_until(lambda c: c.seq >= 0, timeout=30)

    async def close(self) -> None:
        """Close the connection."""
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()
        self.closed = True

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message as it is."""
        await self._ws.send(json.dumps(message))

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                message = json.loads(raw)
                if self.keep:
                    self.messages.append(message)
                await self._handle(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))
            async with self._changed:
                self._changed.notify_all()

    async def _handle(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        if kind == "welcome":  # a new identity: its own state follows
            self.role, self.seat, self.seq, self.viewed = m["role"], m["seat"], -1, False
        elif kind == "state":
            self.seq, self.viewed = m["seq"], True
            self.table, self.game, self.private = m["table"], m["game"], m["private"]
            self.clock = m["clock"]
            self.log = collections.deque(m["log"], maxlen=self.log_most)
        elif kind == "event":
            if m["seq"] <= self.seq:
                pass  # already seen (a state after a sync may be newer)
            else:
                entries = m.get("entries") or []
                first = entries[0]["seq"] if entries else m["seq"]
                if first > self.seq + 1 and self.seq >= 0:
                    await self.send({"type": "sync"})
                self.seq = m["seq"]
                self.events_seen.append(m["seq"])
                self.table, self.game = m["table"], m["game"]
                if m.get("private") is not None:
                    self.private = m["private"]
                self.clock = m["clock"]
                self.log.extend(entries)
        elif kind == "private":
            self.private = m["private"]
        elif kind in ("ack", "refused", "odds_result"):
            key = m.get("id") or ("odds" if kind == "odds_result" else "")
            fut = self._pending.pop(str(key), None)
            if fut is not None and not fut.done():
                fut.set_result(m)
            elif kind == "refused":
                self.refusals.append(m)
        elif kind == "error" and m.get("faults"):  # a limit: the server closes the socket
            self.refusals.append(m)
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(self, test: Callable[[TableClient], bool], timeout: float = 60) -> None:
        """Wait until ``test(self)`` holds (TimeoutError after ``timeout`` seconds)."""
        async def waiter() -> None:
            async with self._changed:
                while not test(self):
                    if self.closed:
                        raise ConnectionError("connection closed")
                    await self._changed.wait()
        await asyncio.wait_for(waiter(), timeout)

    def new_id(self) -> str:
        """A fresh message id."""
        return f"{self._prefix}-{next(self._ids)}"

    async def _request(self, message: dict[str, Any], key: str,
                       timeout: float) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[key] = fut
        await self.send(message)
        return await asyncio.wait_for(fut, timeout)

    async def act(self, action: dict[str, Any], *, id: str | None = None,
                  seq: int | bool | None = True, timeout: float = 30) -> dict[str, Any]:
        """Send an intention; the ``ack`` or ``refused`` answering it. ``seq=True`` sends the
        view's seq, None none, an int that one."""
        mid = id or self.new_id()
        message = {"type": "act", "id": mid, "action": action,
                   "seq": self.seq if seq is True else seq}
        return await self._request(message, mid, timeout)

    async def referee(self, command: dict[str, Any], *, timeout: float = 30) -> dict[str, Any]:
        """A referee's command; the ``ack`` or ``refused``."""
        mid = self.new_id()
        return await self._request({"type": "referee", "id": mid, "command": command,
                                    "seq": None}, mid, timeout)

    async def odds(self, source: str, target: str, timeout: float = 30) -> dict[str, Any]:
        """Legality and odds of an attack before the roll."""
        return await self._request({"type": "odds", "from": source, "to": target}, "odds",
                                   timeout)

    @property
    def my_turn(self) -> bool:
        """True when the game is on and this seat is to act."""
        return (self.game is not None and self.table.get("status") == "playing"
                and self.seat is not None and self.game.get("to_act") == self.seat)

    @property
    def over(self) -> bool:
        """True once the table's game is over."""
        return self.table.get("status") == "over"


def choose(client: TableClient, rng: random.Random, attacks_left: int) -> dict[str, Any]:
    """A random strategy from the JSON alone: place everything on one own territory, trade
    the first set, attack a legal target while ``attacks_left``, move the most, end."""
    game, private = client.game or {}, client.private or {}
    seat = client.seat
    mine = [t["name"] for t in game["territories"] if t["owner"] == seat]
    phase = game["phase"]
    if phase in ("setup", "reinforce"):
        if phase == "reinforce" and private.get("sets"):
            return {"kind": "trade", "cards": private["sets"][0]["cards"]}
        return {"kind": "place", "territory": rng.choice(mine), "armies": game["pending"]}
    if phase == "move":
        return {"kind": "move", "armies": game["move"]["max"]}
    attacks = private.get("attacks") or []
    if attacks and attacks_left > 0:
        a = rng.choice(attacks)
        return {"kind": "attack", "from": a["from"], "to": a["to"]}
    return {"kind": "end"}


def think_time(think: float, spread: float, pace: random.Random) -> float:
    """One think time of a remote bot, in seconds: ``think`` times ``1 + spread * u``, ``u``
    uniform in [-1, 1] from ``pace`` (``spread`` 0: exactly ``think``, nothing drawn).
    ValueError for a ``spread`` outside 0..1 (a negative wait).

    >>> think_time(1.0, 0.0, random.Random(1))
    1.0
    >>> 0.5 <= think_time(1.0, 0.5, random.Random(1)) <= 1.5
    True
    """
    if not 0.0 <= spread <= 1.0:
        raise ValueError(f"spread {spread!r}: a think time's spread is between 0 and 1")
    return think * (1.0 + spread * pace.uniform(-1.0, 1.0)) if spread else think


async def play_remote_bot(url: str, token: str, *, think: float = 1.0, seed: int = 0,
                          attacks_per_turn: int = 3, stop: asyncio.Event | None = None,
                          latencies: list[float] | None = None,
                          acks: list[int] | None = None, origin: str | None = None,
                          ack_times: list[float] | None = None,
                          updates: list[float] | None = None,
                          begin: asyncio.Event | None = None,
                          ready: list[str] | None = None,
                          close: asyncio.Event | None = None,
                          spread: float = 0.0) -> str:
    """Play a seat until the game ends (or ``stop``): wait ``think`` seconds before each
    action, or with ``spread`` (0 to 1) a time drawn uniformly between ``think * (1 -
    spread)`` and ``think * (1 + spread)`` (the same mean: a person does not act at a fixed
    period; bots of a load test with one fixed think act in step for good once a pause of
    the server or of their own process has gathered them, docs/benchmarks.md). ValueError
    for a spread outside 0..1 (:func:`think_time`). ``latencies`` gets each action's round
    trip (s), ``acks`` each event's seq, ``ack_times`` when each answer came
    (``time.time()``), ``updates`` each accepted action's time until the table's event
    for it arrived (s: what the player sees).
    For a load test's phases: once connected (the welcome and the view received) the token
    is appended to ``ready`` and play waits for ``begin`` (then for a random part of
    ``think``, so that tables do not act in step); once play stopped the token is
    appended to ``ready`` again and the socket stays open until ``close``.
    Returns the final status."""
    think_time(think, spread, random.Random(0))  # a spread outside 0..1 refused here
    rng = random.Random(seed)
    # the think times from their own generator: the moves are those of the seed either way
    pace = random.Random(f"think:{seed}")

    def pause() -> float:
        return think_time(think, spread, pace)

    # the bot plays from the game and its private view: it keeps no log (400 bots of a
    # load test in one process would otherwise hold 200 entries each for the collector)
    async with TableClient(url, token=token, origin=origin, log_most=0) as c:
        if ready is not None:
            ready.append(token)
        if begin is not None:
            await begin.wait()
            await asyncio.sleep(rng.uniform(0, think))  # tables do not act in step
        status = await _play(c, rng, pause, attacks_per_turn, stop, latencies, acks,
                             ack_times, updates)
        if ready is not None:
            ready.append(token)
        if close is not None:
            await close.wait()
        return status


async def _play(c: TableClient, rng: random.Random, pause: Callable[[], float],
                attacks_per_turn: int,
                stop: asyncio.Event | None, latencies: list[float] | None,
                acks: list[int] | None, ack_times: list[float] | None,
                updates: list[float] | None) -> str:
    """The play loop of :func:`play_remote_bot` on a connected client."""
    turn_key = None
    attacks = 0
    while not c.over and not (stop is not None and stop.is_set()):
        try:
            await c.wait_until(lambda c: c.my_turn or c.over, timeout=5)
        except TimeoutError:
            continue
        if c.over:
            break
        key = (c.game or {}).get("round"), (c.game or {}).get("to_act")
        if key != turn_key:
            turn_key, attacks = key, attacks_per_turn
        wait = pause()
        if wait > 0:
            await asyncio.sleep(wait)
        if not c.my_turn:
            continue
        action = choose(c, rng, attacks)
        if action["kind"] == "attack":
            attacks -= 1
        start = time.perf_counter()
        reply = await c.act(action)
        if latencies is not None:
            latencies.append(time.perf_counter() - start)
        if ack_times is not None:
            ack_times.append(time.time())
        if reply["type"] == "ack" and acks is not None:
            acks.append(reply["seq"])
        if reply["type"] == "ack":
            seq: int = reply["seq"]

            def caught_up(c: TableClient, seq: int = seq) -> bool:
                return c.seq >= seq or c.over

            await c.wait_until(caught_up, timeout=30)
            if updates is not None:
                updates.append(time.perf_counter() - start)
    return str(c.table.get("status"))
