"""The WebSocket of an online table: ``ws/online/<code>/`` (protocol: docs/online.md).

One consumer per connection. It learns who connects (by the session cookie: a guest's seat
taken in this browser, a member's seat, a referee; by the first message ``auth``: a remote
bot's token; else a spectator: never by a token in the URL, which servers log), joins the
table's groups (its seat's own group, or the public one), and turns messages into calls of
:mod:`.services` in a worker thread. After every change it sends the outbox to the groups
(through the channel layer: in memory for one process, Redis for several workers).

However a socket ends (a normal close, a frame refused, the client gone while an answer was
on its way, an exception, the task cancelled) its disconnection runs once (:meth:`_leave`):
the seat's live count, the groups left, the seat's grace period (R11, R13). A worker that
dies never runs it: the seat stops beating and the scheduler's sweep makes it absent. The
limits of one socket (origin, messages, sockets per user and address): :mod:`.limits`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404

from risiko.faults import RisikoError
from risiko.online import adapter

from . import limits, scheduler, services
from .models import OnlineTable
from .services import Actor, Outbox

log = logging.getLogger(__name__)

#: this process's open connections of seats: OnlineSeat id -> count (the scheduler beats
#: for them, :func:`services.heartbeat`)
LIVE_SEATS: collections.Counter[int] = collections.Counter()
#: disconnections under way (kept from the garbage collector while their task runs)
_LEAVING: set[asyncio.Task[None]] = set()


#: :func:`in_thread`'s wrappers, one per function and kind of database (made once: making
#: one, and asking the connection its vendor, was a part of every message's cost)
_IN_THREAD: dict[tuple[Any, str], Any] = {}


def in_thread(func: Any) -> Any:
    """``func`` run in a worker thread. On a database server every call gets a thread of the
    pool, so the tables of a worker do not wait for each other's commits (the row lock keeps
    one table in order); SQLite, one writer at a time, keeps Django's single thread."""
    engine = settings.DATABASES["default"]["ENGINE"]
    wrapper = _IN_THREAD.get((func, engine))
    if wrapper is None:
        from django.db import connection

        wrapper = database_sync_to_async(func, thread_sensitive=connection.vendor == "sqlite")
        if len(_IN_THREAD) < 256:  # module functions: a handful (a closure is not kept)
            _IN_THREAD[(func, engine)] = wrapper
    return wrapper


def _lang(scope: dict[str, Any], query: dict[str, list[str]]) -> str:
    wanted = (query.get("lang") or [""])[0]
    if not wanted:
        cookies = scope.get("cookies") or {}
        wanted = cookies.get(settings.LANGUAGE_COOKIE_NAME, "") or settings.LANGUAGE_CODE
    return "en" if str(wanted).startswith("en") else "it"


def _identify(code: str, scope: dict[str, Any]) -> tuple[OnlineTable, Actor] | None:
    """:func:`services.identify` by the connection's cookies: the guest's token this
    browser's session holds for the table (``online_tokens``), the logged-in user. Only a
    table of the socket's club: ``c/<club>/ws/online/<code>/`` a club's, ``ws/online/<code>/``
    the default club's (None, a 404 close, for another club's table or an unknown club)."""
    from risiko.web.clubs import club_named

    from .views import SESSION_KEY

    try:
        club = club_named(scope["url_route"]["kwargs"].get("club"))
    except Http404:
        return None
    if club is None:
        return None

    session = scope.get("session")
    tokens = session.get(SESSION_KEY) if session is not None else None
    token = tokens.get(code) if isinstance(tokens, dict) else None
    return services.identify(code, scope.get("user"), token if isinstance(token, str) else None,
                             club=club)


def _text(value: Any, limit: int = 64) -> str:
    return value[:limit] if isinstance(value, str) else ""


async def send_outbox(layer: Any, outbox: Outbox | None) -> None:
    """Send an outbox's messages to their groups, in their order (:func:`group_send_all`);
    wake the scheduler if a deadline is near."""
    if outbox is None:
        return
    public = services.public_group(outbox.table_id)
    sends = []
    for group, message in outbox.messages:
        # encoded once here, not once per connection that receives it
        sent: dict[str, Any] = {"type": "online.message", "text": json.dumps(message)}
        if group == public and outbox.advance is not None:
            sent["advance"] = list(outbox.advance)  # for the other workers' cached games
        sends.append((group, sent))
    await group_send_all(layer, sends)
    if outbox.wake is not None:
        scheduler.wake(outbox.wake)


def _one_redis(layer: Any) -> Any | None:
    """The connection of channels-redis's publish/subscribe layer to its one Redis server
    (``RedisSingleShardConnection``: its lock, its client), None for any other layer or
    several servers (then each message is its own ``group_send``)."""
    try:
        from channels_redis.pubsub import RedisPubSubChannelLayer
    except ImportError:  # pragma: no cover - channels-redis is a dependency
        return None
    if not isinstance(layer, RedisPubSubChannelLayer):
        return None
    shards = getattr(layer._get_layer(), "_shards", None)
    if not isinstance(shards, list) or len(shards) != 1:
        return None
    shard = shards[0]
    ok = all(hasattr(shard, name) for name in ("_lock", "_ensure_redis", "_redis"))
    return shard if ok else None


async def group_send_all(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """``layer.group_send`` of each (group, message) of ``sends``, in their order. With
    channels-redis's publish/subscribe layer on one Redis server, the PUBLISHes go in one
    pipeline (one round trip, in this order, under the lock its ``group_send`` takes: a
    worker's publishes stay in the order they were made) instead of one awaited round trip
    each: an action's 2-3 messages held that lock, which every table of the worker waits
    for, three times as long (docs/benchmarks.md, "Online tables")."""
    shard = _one_redis(layer) if len(sends) > 1 else None
    if shard is None:
        for group, message in sends:
            await layer.group_send(group, message)
        return
    loop_layer = layer._get_layer()
    data = [(loop_layer._get_group_channel_name(group), layer.serialize(message))
            for group, message in sends]
    async with shard._lock:
        shard._ensure_redis()
        async with shard._redis.pipeline(transaction=False) as pipe:
            for channel, payload in data:
                pipe.publish(channel, payload)
            await pipe.execute()


def _state(table_id: int, actor: Actor) -> dict[str, Any]:
    table = OnlineTable.objects.get(pk=table_id)
    return services.state_message(table, actor.role, actor.seat)


def _odds(table_id: int, actor: Actor, source: Any, target: Any, lang: str) -> dict[str, Any]:
    table = OnlineTable.objects.get(pk=table_id)
    out: dict[str, Any] = {"type": "odds_result", "from": str(source), "to": str(target)}
    if actor.role != "seat" or actor.seat is None or table.status == "lobby":
        out.update(legal=False, faults=services.fault_dicts([services.SPECTATOR()], lang))
        return out
    try:
        result = adapter.odds(services.game_of(table), actor.seat, source, target)
    except RisikoError as e:
        out.update(legal=False, faults=services.fault_dicts(e.faults, lang))
        return out
    result["faults"] = services.fault_dicts(result.get("faults", []), lang)
    out.update(result)
    return out


class TableConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """One browser tab, phone, remote bot or test client at one table."""

    table_id: int = 0
    actor: Actor = Actor("spectator")
    lang: str = "it"
    joined: list[str]
    #: what the socket holds until :meth:`_leave` gives it back (once): a count in
    #: LIVE_SEATS, the seat's connection in the database, the socket caps' counts
    beating: bool = False
    seated: bool = False
    claimed: tuple[str, str] | None = None
    #: a claim under way (shared counts: a Redis call in a thread) and what it claims: a
    #: socket that ends meanwhile gives it back once it is counted (:meth:`_disconnection`)
    claiming: tuple[asyncio.Future[Any], tuple[str, str]] | None = None
    left: bool = False
    leaving: asyncio.Task[None] | None = None
    bucket: limits.Bucket
    code: str = ""
    commitment: str = ""
    seq: int = 0  # the table's seq when the connection opened (a refusal before any view)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' consumer, then the disconnection whatever ended it (:meth:`_leave`):
        the client gone while a message was sent to it is one log line; any other
        exception is raised on after the disconnection ran."""
        try:
            await super().__call__(scope, receive, send)
        except OSError as e:
            log.info("online table %s: the client went away (%s)", self.table_id or "-",
                     type(e).__name__)
        finally:
            with contextlib.suppress(asyncio.CancelledError):
                await self._leave()  # cancelled again: the disconnection goes on

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` (a trip to a worker
        thread for every message, a table's broadcasts included): this consumer touches the
        database only through :func:`in_thread`, which closes old connections itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.joined = []
        self.bucket = limits.Bucket()
        code = str(self.scope["url_route"]["kwargs"]["code"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.lang = _lang(self.scope, query)
        found = await in_thread(_identify)(code, self.scope)
        if found is None:
            await self.close(code=4404)
            return
        table, actor = found
        self.table_id, self.code, self.commitment = table.pk, table.code, table.commitment
        self.seq = table.seq
        await self.accept()
        if "token" in query:  # a secret in the address (logged on its way): refused
            await self._refuse(services.TOKEN_IN_URL(), close=4400)
            return
        claim = (limits.user_key(self.scope, actor.seat_id), limits.address_of(self.scope))
        refused = await self._claim(claim)
        if refused is not None:
            await self._close_with(refused, limits.CLOSE_LIMIT)
            return
        self.claimed = claim
        await self.channel_layer.group_add(services.public_group(table.pk), self.channel_name)
        self.joined.append(services.public_group(table.pk))
        scheduler.ensure_started()
        await self._welcome(actor)

    async def _welcome(self, actor: Actor) -> None:
        """Say who this connection is (``welcome``), a seat's presence, then the ``state``.
        What a seat holds is marked as it is taken, for :meth:`_leave` to give back."""
        self.actor = actor
        if actor.role == "seat" and actor.seat is not None:
            group = services.seat_group(self.table_id, actor.seat + 1)
            await self.channel_layer.group_add(group, self.channel_name)
            self.joined.append(group)
        await self.send_json({
            "type": "welcome", "table": self.code, "role": actor.role,
            "seat": None if actor.seat is None else actor.seat + 1,
            "player": actor.name or None, "commitment": self.commitment,
        })
        if actor.role == "seat" and actor.seat is not None:
            if actor.seat_id is not None:
                LIVE_SEATS[actor.seat_id] += 1
                self.beating = True
            outbox = await in_thread(services.connected)(self.table_id, actor.seat + 1)
            self.seated = True
            await send_outbox(self.channel_layer, outbox)
        await self.send_json(await in_thread(_state)(self.table_id, actor))

    async def _refuse(self, fault: Any, close: int | None = None) -> None:
        """A ``refused`` with ``fault`` (no message id); with ``close``, the socket closes
        with that code and its disconnection runs (:meth:`_leave`)."""
        await self.send_json({"type": "refused", "id": None, "seq": self.seq,
                              "faults": services.fault_dicts([fault], self.lang)})
        if close is not None:
            await self.close(code=close)
            await self._leave()

    async def _auth(self, token: Any) -> None:
        """A remote bot's first message: its seat's secret token (docs/online.md). The
        socket, counted at connect as nobody's (no login, no session), is counted from now
        as its seat's (``seat:<id>``, :func:`limits.user_key`): over the cap it is refused
        and closed as at connect."""
        if self.actor.role == "seat" and self.actor.seat is not None:
            await self._refuse(services.ALREADY_IDENTIFIED(seat=self.actor.seat + 1))
            return
        actor = None
        if isinstance(token, str) and 0 < len(token) <= 200:
            actor = await in_thread(services.seat_of_token)(self.table_id, token)
        if self.left:
            return  # the socket ended meanwhile: nothing to take
        if actor is None:
            await self._refuse(services.BAD_TOKEN(), close=4403)
            return
        if not await self._claim_as(limits.user_key(self.scope, actor.seat_id)):
            return
        await self._welcome(actor)

    async def _claim_as(self, user: str) -> bool:
        """Count this socket as ``user``'s instead of whoever it was counted as (its address
        stays counted once). False when ``user``'s cap is reached: the socket is told the
        fault and closed, its first claim given back by :meth:`_leave`."""
        if self.claimed is None:  # given back already: the socket has ended
            return False
        before, address = self.claimed
        if user == before:
            return True
        refused = await self._claim((user, ""))
        if self.left:  # ended meanwhile: its disconnection gives back both claims
            return False
        if refused is not None:
            await self._close_with(refused, limits.CLOSE_LIMIT)
            return False
        self.claimed = (user, address)
        await limits.release_socket(before, "")
        return True

    async def _claim(self, claim: tuple[str, str]) -> Any | None:
        """Count this socket (:func:`limits.claim_socket`: across the workers with Redis);
        the fault of a cap reached. The claim runs on if the socket's task is cancelled:
        its disconnection gives it back."""
        task = asyncio.ensure_future(limits.claim_socket(*claim))
        self.claiming = (task, claim)
        refused = await asyncio.shield(task)
        self.claiming = None
        return refused

    async def disconnect(self, code: int) -> None:
        await self._leave()

    async def _leave(self) -> None:
        """The disconnection, once however the socket ended, in a task of its own that a
        cancellation of the socket's task does not stop (:meth:`_disconnection`)."""
        self.left = True
        if self.leaving is None:
            self.leaving = asyncio.ensure_future(self._disconnection())
            _LEAVING.add(self.leaving)
            self.leaving.add_done_callback(_LEAVING.discard)
        await asyncio.shield(self.leaving)

    async def _disconnection(self) -> None:
        """First what this process counts (the seat stops beating: if the rest fails, the
        sweep makes it absent), then the groups left and the seat's connection closed (its
        grace period, R11, R13)."""
        seat_id = self.actor.seat_id
        if self.beating and seat_id is not None and LIVE_SEATS[seat_id] > 0:
            LIVE_SEATS[seat_id] -= 1
            if not LIVE_SEATS[seat_id]:
                del LIVE_SEATS[seat_id]
        if self.claimed is not None:  # this process's count at once, then the shared one
            claimed, self.claimed = self.claimed, None
            await limits.release_socket(*claimed)
        if self.claiming is not None:  # ended while its claim was under way
            (task, claim), self.claiming = self.claiming, None
            with contextlib.suppress(Exception):
                if await task is None:
                    await limits.release_socket(*claim)
        try:
            for group in getattr(self, "joined", []):
                await self.channel_layer.group_discard(group, self.channel_name)
            if self.seated and self.actor.seat is not None:
                outbox = await in_thread(services.disconnected)(
                    self.table_id, self.actor.seat + 1)
                await send_outbox(self.channel_layer, outbox)
        except Exception as e:  # the heartbeat's sweep finishes it (docs/online.md)
            log.warning("online table %s: seat %s's disconnection left to the sweep (%s)",
                        self.table_id, (self.actor.seat or 0) + 1, type(e).__name__)

    async def _close_with(self, fault: Any, code: int) -> None:
        """Say ``fault`` (an ``error`` with the fault), close with ``code``, disconnect; one
        log line."""
        log.warning("online table %s: connection closed (%s): %s", self.table_id or "-",
                    code, fault.code)
        with contextlib.suppress(OSError, RuntimeError):
            await self.send_json({"type": "error", "message": fault.message(self.lang),
                                  "faults": services.fault_dicts([fault], self.lang),
                                  "close": code})
            await self.close(code=code)
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        """A frame: within the socket's allowance (else ``online.too_fast``, 1008), one
        JSON object in text (else ``online.not_text`` / ``online.not_json``, 1003)."""
        if self.left:
            return  # closed: what was still queued is not served
        if not self.bucket.take():
            await self._close_with(self.bucket.fault(), limits.CLOSE_LIMIT)
            return
        if text_data is None:
            await self._close_with(limits.NOT_TEXT(), limits.CLOSE_MALFORMED)
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            content = None
        if not isinstance(content, dict):
            await self._close_with(limits.NOT_JSON(), limits.CLOSE_MALFORMED)
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """One message, served (:meth:`_serve`). The database failing under it (busy,
        its connection lost: ``OperationalError``, ``InterfaceError``; its transaction rolled
        back, nothing written) refuses that message with ``online.busy`` (send it again)
        and one log line: the socket stays, the seat stays connected. Any other exception
        ends the socket (its disconnection runs, then the exception is raised on)."""
        try:
            await self._serve(content)
        except (OperationalError, InterfaceError) as e:
            log.warning("online table %s: a %r message refused, the database failing (%s)",
                        self.table_id or "-", _text(content.get("type"), 16),
                        type(e).__name__)
            with contextlib.suppress(OSError, RuntimeError):
                await self.send_json({"type": "refused", "id": _text(content.get("id")) or None,
                                      "seq": self.seq,
                                      "faults": services.fault_dicts([services.BUSY()],
                                                                     self.lang)})

    async def _serve(self, content: dict[str, Any]) -> None:
        kind = content.get("type")
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "auth":
            await self._auth(content.get("token"))
        elif kind == "sync":
            await self.send_json(await in_thread(_state)(self.table_id,
                                                                       self.actor))
        elif kind in ("act", "referee"):
            await self._change(kind, content)
        elif kind == "leave":
            await self._leave_table()
        elif kind == "odds":
            await self.send_json(await in_thread(_odds)(
                self.table_id, self.actor, content.get("from"), content.get("to"), self.lang))
        else:
            await self.send_json({"type": "error", "message": f"unknown message {kind!r}"})

    async def _leave_table(self) -> None:
        """``leave``: a seat gives its seat up (the lobby: the seat is free again; in play:
        a bot stands in at once at a casual table, the referee is asked for R13 at a
        tournament table); then the socket closes (1000), as a spectator's does."""
        if self.seated and self.actor.seat is not None:
            outbox = await in_thread(services.leave)(self.table_id, self.actor.seat + 1)
            await send_outbox(self.channel_layer, outbox)
        with contextlib.suppress(OSError, RuntimeError):
            await self.send_json({"type": "bye"})
            await self.close(code=limits.CLOSE_NORMAL)
        await self._leave()

    async def _change(self, kind: str, content: dict[str, Any]) -> None:
        client_id = _text(content.get("id"))
        seq = content.get("seq")
        expect = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
        body = content.get("action" if kind == "act" else "command")
        if not isinstance(body, dict):
            await self.send_json({"type": "error", "message": f"'{kind}' needs an object"})
            return
        call = services.apply if kind == "act" else services.referee
        reply = await in_thread(call)(
            self.table_id, self.actor, body, client_id=client_id, expect_seq=expect)
        # the sender's answer first, then the groups' messages (each a trip to the channel
        # layer: with Redis a PUBLISH, its reply awaited): the sender knows at once, and a
        # change is committed before either. The groups are sent to whatever became of the
        # answer (a sender gone does not keep the table's event from the others).
        try:
            if reply.faults:
                await self.send_json({"type": "refused", "id": client_id or None,
                                      "seq": reply.seq,
                                      "faults": services.fault_dicts(reply.faults, self.lang)})
            else:
                await self.send_json({"type": "ack", "id": client_id, "seq": reply.seq,
                                      "duplicate": reply.duplicate})
        finally:
            await send_outbox(self.channel_layer, reply.outbox)

    async def online_message(self, event: dict[str, Any]) -> None:
        """A message sent to one of this connection's groups: pass it on (unless the socket
        has just closed: the group still held it for a moment). A change made by another
        worker also brings this worker's cached game of the table along (its first
        connection that receives the message does it; the others find the cache there)."""
        advance = event.get("advance")
        if advance is not None:
            table_id, seq_from, seq_to, lines, draws = advance
            services.advance_cached(int(table_id), int(seq_from), int(seq_to),
                                    [str(x) for x in lines], int(draws))
        with contextlib.suppress(RuntimeError):
            await self.send(text_data=event["text"])
