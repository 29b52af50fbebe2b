"""The limits of a table socket and the doors of a seat (issue 20, items 5 and 7): a flood of
messages, the sockets per user and per address, the origin by scheme, host and port, the
``leave`` message, one seat per user and per browser session, the names a guest types."""

from __future__ import annotations

import asyncio
import collections
import json
import os
import time
import uuid
from typing import Any

import pytest
from test_online_ws import (  # noqa: F401
    WebsocketCommunicator,
    _online,
    checked,
    connect,
    drain,
    make_table,
)

from risiko.web.asgi import application
from risiko.web.online import consumers, limits, services
from risiko.web.online.models import Deadline, OnlineSeat, OnlineTable, TableEvent

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]


def _socket(table: OnlineTable, *, client: str = "10.0.0.7",
            origin: bytes = b"http://localhost", host: bytes = b"localhost") -> Any:
    comm = WebsocketCommunicator(application, f"/ws/online/{table.code}/?lang=en",
                                 headers=[(b"origin", origin), (b"host", host)])
    comm.scope["client"] = (client, 40000)
    return comm


async def _opened(comm: Any) -> dict[str, Any]:
    """Connect; the first message (``welcome``, or the ``error`` of a refusal)."""
    ok, _ = await comm.connect(timeout=5)
    assert ok
    return checked(await comm.receive_json_from(timeout=5))


async def _seated(comm: Any, token: str) -> dict[str, Any]:
    """Connect as a spectator, then send the seat's ``auth``; the first answer to it (the
    seat's ``welcome``, or the ``error`` of a refusal)."""
    assert (await _opened(comm))["type"] == "welcome"
    assert checked(await comm.receive_json_from(timeout=5))["type"] == "state"
    await comm.send_json_to({"type": "auth", "token": token})
    return checked(await comm.receive_json_from(timeout=5))


async def _refused(comm: Any, code: str, close: int = 1008,
                   first: dict[str, Any] | None = None) -> dict[str, Any]:
    """The socket was accepted, told ``code`` in an ``error`` (``first``, else the first
    message) and closed with ``close``."""
    error = first if first is not None else await _opened(comm)
    assert error["type"] == "error" and error["close"] == close
    assert [f["code"] for f in error["faults"]] == [code]
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": close}
    return error


# ------------------------------------------------------------------------------ item 5
def test_a_flood_of_messages_is_refused_past_the_allowance_and_the_socket_closed(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """5 messages a second in bursts of 10, the clock stopped (no refill): of 30 pings sent
    at once after her ``auth`` (one message of the burst: 9 left), the first 9 are answered
    (pong), the 10th is refused with online.too_fast (in Italian, as the viewer asked) and
    the socket closes 1008; the other 20 are never served. Anna's seat is disconnected (her
    grace period starts)."""
    settings.RISIKO_ONLINE_MESSAGES_PER_SECOND = 5
    settings.RISIKO_ONLINE_MESSAGE_BURST = 10
    monkeypatch.setattr(limits, "clock", lambda: 1000.0)
    table, tokens = make_table(grace_seconds=60)

    async def go() -> list[dict[str, Any]]:
        anna = await connect(table, tokens[0], lang="it")
        for _ in range(30):
            await anna.send_json_to({"type": "ping"})
        got = []
        while True:
            m = await anna.receive_output(timeout=5)
            if m["type"] == "websocket.close":
                assert m["code"] == 1008
                break
            got.append(checked(json.loads(m["text"])))
        await anna.wait(timeout=5)
        return got

    got = asyncio.run(go())
    assert [m["type"] for m in got] == ["pong"] * 9 + ["error"]
    (fault,) = got[-1]["faults"]
    assert fault["code"] == "online.too_fast"
    assert fault["message"] == ("troppi messaggi: al massimo 5 al secondo (a raffiche di 10); "
                                "questa connessione si chiude")
    anna = OnlineSeat.objects.get(table=table, position=1)
    assert anna.connections == 0 and anna.absent_since is not None


def test_the_bucket_refills_at_its_rate() -> None:
    """20 a second, bursts of 60: 60 at once, none more; 0.5 s later 10 more (20 x 0.5)."""
    b = limits.Bucket(rate=20, burst=60, now=0.0)
    assert sum(b.take(0.0) for _ in range(70)) == 60
    assert sum(b.take(0.5) for _ in range(20)) == 10


def test_sockets_per_user_are_capped_and_a_closed_one_frees_its_place(settings: Any) -> None:
    """At most 2 table sockets of one seat's token (a remote bot: no login, no session).
    Its sockets open as nobody's spectators and count as the seat's from their ``auth``:
    the third ``auth`` is told online.too_many_sockets_user and closed 1008, the two others
    go on; one closed, a new one is accepted. Every count is given back at the end."""
    settings.RISIKO_ONLINE_SOCKETS_PER_USER = 2
    table, tokens = make_table()
    anna = f"seat:{OnlineSeat.objects.get(table=table, position=1).pk}"  # her user key

    async def go() -> None:
        first, second = _socket(table), _socket(table)
        assert (await _seated(first, tokens[0]))["role"] == "seat"
        assert (await _seated(second, tokens[0]))["role"] == "seat"
        assert dict(limits.BY_USER) == {anna: 2}
        third = _socket(table)
        await _refused(third, "online.too_many_sockets_user",
                       first=await _seated(third, tokens[0]))
        assert dict(limits.BY_USER) == {anna: 2}  # the refused one never counted
        await drain(first)
        await first.send_json_to({"type": "ping"})
        assert (await first.receive_json_from(timeout=5))["type"] == "pong"
        await second.disconnect()
        again = _socket(table)
        assert (await _seated(again, tokens[0]))["role"] == "seat"
        # another seat (Bruno's token) from the same address is not Anna
        bruno = _socket(table)
        assert (await _seated(bruno, tokens[1]))["role"] == "seat"
        for c in (first, again, bruno):
            await c.disconnect()

    asyncio.run(go())
    assert not limits.BY_USER and not limits.BY_ADDRESS  # every count given back


def test_sockets_per_address_are_capped(settings: Any) -> None:
    """At most 3 table sockets from one address (spectators, no user): the fourth from
    10.0.0.7 is refused (online.too_many_sockets_address, 1008); 10.0.0.8 is not."""
    settings.RISIKO_ONLINE_SOCKETS_PER_ADDRESS = 3
    table, _ = make_table()

    async def go() -> None:
        opened = [_socket(table) for _ in range(3)]
        for c in opened:
            assert (await _opened(c))["type"] == "welcome"
        await _refused(_socket(table), "online.too_many_sockets_address")
        other = _socket(table, client="10.0.0.8")
        assert (await _opened(other))["type"] == "welcome"
        for c in [*opened, other]:
            await c.disconnect()

    asyncio.run(go())
    assert not limits.BY_ADDRESS


# ------------------------------------------------------------------------------ item 7
@pytest.mark.parametrize(("origin", "accepted"), [
    (b"http://localhost", True),
    (b"http://localhost:80", True),  # the default port written out
    (b"http://localhost:8001", False),  # another port
    (b"https://localhost", False),  # another scheme
    (b"http://evil.example", False),  # another host
    (b"https://club.example", True),  # CSRF_TRUSTED_ORIGINS: an HTTPS proxy in front
])
def test_the_origin_is_compared_by_scheme_host_and_port(settings: Any, origin: bytes,
                                                        accepted: bool) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://club.example"]
    settings.ALLOWED_HOSTS = ["localhost", "club.example"]
    table, _ = make_table()

    async def go() -> bool:
        comm = _socket(table, origin=origin,  # the proxy passes the Host on
                       host=b"club.example" if b"club" in origin else b"localhost")
        ok, _ = await comm.connect(timeout=5)
        if ok:
            await comm.disconnect()
        return bool(ok)

    assert asyncio.run(go()) is accepted


def test_leave_in_the_lobby_frees_the_seat() -> None:
    """Anna sits at a casual table's lobby (3 seats, 1 taken) and sends ``leave``: ``bye``,
    the socket closes 1000, seat 1 is free again (her token no longer opens it) and Bruno
    takes it."""
    table = services.create_table(name="Prova", seats=3, who="test")
    _, token, _ = services.join(table.pk, guest_name="Anna")
    assert token

    async def go() -> None:
        anna = await connect(table, token)
        await anna.send_json_to({"type": "leave"})
        got = []
        while True:
            m = await anna.receive_output(timeout=5)
            if m["type"] == "websocket.close":
                assert m["code"] == 1000
                break
            got.append(checked(json.loads(m["text"])))
        assert got[-1] == {"type": "bye"}
        await anna.disconnect()

    asyncio.run(go())
    seat = OnlineSeat.objects.get(table=table, position=1)
    assert (seat.kind, seat.guest_name, seat.token_hash) == ("open", "", "")
    assert services.identify(table.code, None, token)[1].role == "spectator"
    bruno, _, _ = services.join(table.pk, guest_name="Bruno")
    assert bruno.position == 1


def test_leave_in_play_brings_the_stand_in_at_once() -> None:
    """Anna (to act, the initial placement, no clock) leaves a casual table in play: no
    grace period; a bot plays for her at once, scheduled at the table's final seq."""
    table, tokens = make_table(grace_seconds=600, bot_delay_ms=0)

    async def go() -> None:
        anna = await connect(table, tokens[0])
        await anna.send_json_to({"type": "leave"})
        for _ in range(10):
            m = await anna.receive_output(timeout=5)
            if m["type"] == "websocket.close":
                assert m["code"] == 1000
                await anna.disconnect()  # the client's side of the close
                return
        raise AssertionError("not closed")

    asyncio.run(go())
    table.refresh_from_db()
    anna = OnlineSeat.objects.get(table=table, position=1)
    assert anna.stand_in and anna.absent_since is not None and anna.connections == 0
    assert anna.pk not in consumers.LIVE_SEATS
    left = TableEvent.objects.filter(table=table, seat=1).latest("seq")
    assert left.text == "# Anna left the table: a bot plays for him until back"
    # for people: a value, said in each viewer's language (risiko.online.log)
    assert left.value == {"code": "log.left_stand_in", "params": {"player": "Anna"}}
    assert services.entry_of(left)["messages"] == {
        "it": "Anna ha lasciato il tavolo: un bot gioca per lui finché torna",
        "en": "Anna left the table: a bot plays for him until back"}
    assert Deadline.objects.filter(table=table, kind="bot", seat=1, guard=table.seq,
                                   fired=None).exists()


def test_leave_in_play_without_bots_asks_the_referee_for_r13() -> None:
    """A casual table without bots for the absent: Bruno's ``leave`` in play asks the
    referee to declare R13 (leaving the table is abandoning it), said as a value."""
    table, _tokens = make_table(bot_for_absent=False)
    assert services.leave(table.pk, 2) is not None
    bruno = OnlineSeat.objects.get(table=table, position=2)
    assert bruno.r13_requested and not bruno.stand_in and bruno.absent_since is not None
    left = TableEvent.objects.filter(table=table, seat=2).latest("seq")
    assert left.value == {"code": "log.left_r13", "params": {"player": "Bruno"}}
    assert services.entry_of(left)["messages"]["it"] == (
        "Bruno ha lasciato il tavolo: si chiede all'arbitro di dichiarare l'R13")


def test_the_remote_bot_client_sends_its_servers_origin() -> None:
    """The origin the server accepts: the scheme (ws → http, wss → https), host and port."""
    from risiko.online.client import TableClient

    assert TableClient("ws://127.0.0.1:8000/ws/online/abc/").origin == "http://127.0.0.1:8000"
    assert TableClient("wss://club.example/ws/online/abc/").origin == "https://club.example"


# ------------------------------------------------------------------------------ caps across workers
# With the Redis channel layer (REDIS_URL: make unit-redis) the socket caps are counted in
# its Redis, a field per worker, so two workers share them; a worker that stops beating (a
# kill -9) stops counting once its key expires. Two "workers" here are two SharedCounts of
# one Redis, each with its own counts, as two processes would be.
needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                                 reason="the shared caps need Redis (REDIS_URL: make unit-redis)")


def _worker(prefix: str, name: str, expiry: float = 30.0) -> limits.SharedCounts:
    return limits.SharedCounts(os.environ["REDIS_URL"], prefix, worker=name, expiry=expiry,
                               by_user=collections.Counter(), by_address=collections.Counter())


@pytest.fixture
def prefix() -> Any:
    """A Redis prefix of this test's own; its keys deleted afterwards."""
    import redis

    name = f"test-caps-{uuid.uuid4().hex[:12]}"
    yield name
    r = redis.Redis.from_url(os.environ["REDIS_URL"])
    for key in r.scan_iter(f"{name}:*"):
        r.delete(key)


@needs_redis
def test_two_workers_share_the_caps(prefix: str) -> None:
    """Caps of 3 per user and 4 per address. Worker A holds 2 of Anna's sockets, B one: a
    4th of hers is refused at either (1: the user's cap), counting nothing. Bruno's first
    from the same address makes 4 there: his next is refused at B (2: the address's cap).
    A closes one of Anna's: B may open one for her again (the address has 3 then 4)."""
    a, b = _worker(prefix, "a"), _worker(prefix, "b")
    assert [a.claim("user:1", "10.0.0.7", 3, 4) for _ in range(2)] == [0, 0]
    assert b.claim("user:1", "10.0.0.7", 3, 4) == 0
    assert a.claim("user:1", "10.0.0.7", 3, 4) == 1
    assert b.claim("user:1", "10.0.0.7", 3, 4) == 1
    assert a.claim("user:2", "10.0.0.7", 3, 4) == 0  # the 4th socket of the address
    assert b.claim("user:2", "10.0.0.7", 3, 4) == 2
    assert b.claim("user:2", "10.0.0.8", 3, 4) == 0  # another address: Bruno's 2nd
    assert (dict(a.by_user), dict(a.by_address)) == ({"user:1": 2, "user:2": 1},
                                                     {"10.0.0.7": 3})
    assert (dict(b.by_user), dict(b.by_address)) == ({"user:1": 1, "user:2": 1},
                                                     {"10.0.0.7": 1, "10.0.0.8": 1})
    a.release("user:1", "10.0.0.7")
    assert b.claim("user:1", "10.0.0.7", 3, 4) == 0
    assert b.claim("user:3", "10.0.0.7", 3, 4) == 2  # 4 at the address again


@needs_redis
def test_a_killed_workers_sockets_stop_counting_after_expiry(prefix: str) -> None:
    """Worker A (its beat lasting 0.6 s) holds both of Anna's sockets (cap 2): B is refused
    while A beats, 1 s after A's last claim included; A killed (no beat), 0.6 s later its
    sockets no longer count and B's claim is counted."""
    a, b = _worker(prefix, "a", expiry=0.6), _worker(prefix, "b")
    assert [a.claim("user:1", "", 2, 500) for _ in range(2)] == [0, 0]
    for _ in range(2):
        time.sleep(0.5)
        a.beat()
    assert b.claim("user:1", "", 2, 500) == 1  # 1 s after the claims: A beats, still counts
    time.sleep(0.8)  # A killed: no beat since 0.8 s (> 0.6)
    assert b.claim("user:1", "", 2, 500) == 0
    assert b.claim("user:1", "", 2, 500) == 0
    assert b.claim("user:1", "", 2, 500) == 1  # B's own two count


@needs_redis
def test_a_socket_over_a_cap_held_by_another_worker_is_refused_as_before(settings: Any) -> None:
    """The server's Redis layer; caps of 3 per address. Another worker already holds 2
    sockets from 10.0.0.7: this one accepts one more (the 3rd) and refuses the 4th with
    online.too_many_sockets_address and close 1008, as with one process. The other worker
    killed (its beat lasted 0.5 s), a 4th is accepted."""
    settings.RISIKO_ONLINE_SOCKETS_PER_ADDRESS = 3
    shared = limits.shared_counts()
    assert shared is not None  # REDIS_URL: the settings' Redis channel layer
    other = limits.SharedCounts(os.environ["REDIS_URL"], shared.prefix,
                                worker=f"other-{uuid.uuid4().hex[:8]}", expiry=0.5,
                                by_user=collections.Counter(),
                                by_address=collections.Counter())
    assert [other.claim("", "10.0.0.7", 30, 3) for _ in range(2)] == [0, 0]
    table, _ = make_table()

    async def go() -> None:
        mine = _socket(table)
        assert (await _opened(mine))["type"] == "welcome"
        assert dict(limits.BY_ADDRESS) == {"10.0.0.7": 1}  # this worker's own
        error = await _refused(_socket(table), "online.too_many_sockets_address")
        assert error["faults"][0]["message"] == (
            "too many table connections from your network address: at most 3 at once")
        await asyncio.sleep(0.7)  # the other worker killed: its beat expired
        again = _socket(table)
        assert (await _opened(again))["type"] == "welcome"
        for c in (mine, again):
            await c.disconnect()

    asyncio.run(go())
    assert not limits.BY_ADDRESS


def test_the_in_memory_layer_counts_in_this_process(settings: Any) -> None:
    """One process (the in-memory layer): no Redis asked, the caps counted here."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.RISIKO_ONLINE_SOCKETS_PER_USER = 1
    assert limits.shared_counts() is None
    assert asyncio.run(limits.claim_socket("user:9", "10.0.0.9")) is None
    refused = asyncio.run(limits.claim_socket("user:9", "10.0.0.9"))
    assert refused is not None and refused.code == "online.too_many_sockets_user"
    asyncio.run(limits.release_socket("user:9", "10.0.0.9"))
    assert not limits.BY_USER and not limits.BY_ADDRESS


def test_leave_through_the_socket_at_a_table_without_bots_is_said_to_the_others() -> None:
    """The table page's "leave" (issue 20): Anna, at a casual table in play with no bots for
    the absent, sends ``leave``: she gets ``bye`` and the socket closes 1000; Bruno, on the
    table in Italian, gets the event saying she left and the referee is asked for R13
    (leaving the table is abandoning it); her seat asks for R13, her socket counts no more."""
    table, tokens = make_table(bot_for_absent=False)

    async def go() -> dict[str, Any]:
        anna = await connect(table, tokens[0])
        bruno = await connect(table, tokens[1], lang="it")
        await drain(bruno)
        await anna.send_json_to({"type": "leave"})
        got = []
        while True:
            m = await anna.receive_output(timeout=5)
            if m["type"] == "websocket.close":
                assert m["code"] == 1000
                break
            got.append(checked(json.loads(m["text"])))
        assert got[-1] == {"type": "bye"}
        await anna.disconnect()
        for _ in range(20):
            m = checked(await bruno.receive_json_from(timeout=10))
            entry = m.get("entry") if m["type"] == "event" else None
            if entry and entry["value"]["code"] == "log.left_r13":
                await bruno.disconnect()
                return m
        raise AssertionError("Bruno was not told")

    event = asyncio.run(go())
    assert event["entry"]["messages"]["it"] == (
        "Anna ha lasciato il tavolo: si chiede all'arbitro di dichiarare l'R13")
    assert [s["r13_requested"] for s in event["table"]["seats"]] == [True, False, False]
    anna = OnlineSeat.objects.get(table=table, position=1)
    assert anna.r13_requested and not anna.stand_in and anna.connections == 0
    assert not limits.BY_USER and not limits.BY_ADDRESS


def test_the_table_page_has_the_leave_button_and_its_questions_in_italian() -> None:
    """The page carries the button, its confirmation and what follows in Italian (drawn by
    table.js), and the three questions by what leaving does."""
    from django.test import Client
    from django.urls import reverse

    table = services.create_table(name="Prova", seats=3, who="test")
    c = Client(HTTP_ACCEPT_LANGUAGE="it")
    c.post(reverse("online_join", args=[table.code]), {"as": "guest", "guest_name": "Anna"})
    page = c.get(reverse("online_table", args=[table.code])).content.decode()
    for said in ('id="ot-leave-ask">Lascia il tavolo<', ">Sì, lascio il tavolo<",
                 ">No, resto<", "<p>Hai lasciato il tavolo.</p>",
                 'href="/online/">Torna ai tavoli online<'):
        assert said in page, said
    words = json.loads(page.split('id="online-words" type="application/json">')[1]
                       .split("</script>")[0])
    assert (words["leave_lobby"], words["leave_stand_in"], words["leave_r13"]) == (
        "Lasciare il posto? Torna libero per qualcun altro.",
        "Lasciare il tavolo? Un bot gioca per te finché non torni.",
        "Lasciare il tavolo? Lasciare il tavolo è abbandonare la partita (R13): si chiede "
        "all'arbitro di dichiararlo.")
