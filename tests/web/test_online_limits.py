"""The limits of a table socket and the doors of a seat (issue 20, items 5 and 7): a flood of
messages, the sockets per user and per address, the origin by scheme, host and port, the
``leave`` message, one seat per user and per browser session, the names a guest types."""

from __future__ import annotations

import asyncio
import json
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
