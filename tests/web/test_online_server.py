"""The online tables behind the real server as ``risiko serve`` runs it (uvicorn with
``web_commands.UVICORN_OPTIONS``, in a thread on a free port): the WebSockets are not
compressed (no permessage-deflate, docs/online.md), even to a client that offers it."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from risiko.cli.web_commands import UVICORN_OPTIONS
from risiko.web.online import services

uvicorn = pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server_url(settings: Any) -> Iterator[str]:
    """``ws://127.0.0.1:<port>``: uvicorn with serve's options, in a thread."""
    from channels.layers import channel_layers

    from risiko.web.asgi import application

    settings.RISIKO_FIRST_RUN_CHECK = False
    settings.RISIKO_ONLINE_SCHEDULER = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", **UVICORN_OPTIONS))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])),
                              daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the ASGI server did not start"
        time.sleep(0.05)
    try:
        yield f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


def test_serve_answers_a_websocket_uncompressed_even_when_the_client_offers_deflate(
        server_url: str) -> None:
    table = services.create_table(name="Prova", seats=3, who="test",
                                  settings={"clock_seconds": 0})

    async def go() -> tuple[str | None, dict[str, Any]]:
        async with websockets.connect(  # the client offers permessage-deflate by default
                f"{server_url}/ws/online/{table.code}/?lang=en",
                origin=server_url.replace("ws://", "http://")) as ws:
            assert ws.request is not None and ws.response is not None
            assert "permessage-deflate" in ws.request.headers["Sec-WebSocket-Extensions"]
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
            return ws.response.headers.get("Sec-WebSocket-Extensions"), welcome

    extensions, welcome = asyncio.run(go())
    assert extensions is None
    assert (welcome["type"], welcome["table"], welcome["role"]) == (
        "welcome", table.code, "spectator")


def test_the_remote_bot_client_takes_its_seat_by_auth_and_is_told_the_socket_cap(
        server_url: str, settings: Any) -> None:
    """A remote bot's token, at most 1 socket per user: the first client takes seat 1 by its
    ``auth`` message; a second with the same token is counted as the seat's from its
    ``auth``, one too many: the client's connect fails naming the fault the server said
    (online.too_many_sockets_user, then closed 1008). Once the first closes, the seat's
    count is given back and the same token is seated again."""
    from risiko.online.client import TableClient
    from risiko.web.online import limits

    settings.RISIKO_ONLINE_SOCKETS_PER_USER = 1
    table = services.create_table(name="Prova", seats=3, who="test",
                                  settings={"clock_seconds": 0})
    _seat, token, _ = services.join(table.pk, guest_name="Robo")
    assert token
    url = f"{server_url}/ws/online/{table.code}/"

    async def go() -> tuple[tuple[Any, Any], str, tuple[Any, Any]]:
        async with TableClient(url, token=token) as first:
            seated = (first.role, first.seat)
            second = TableClient(url, token=token)
            with pytest.raises(ConnectionError) as refused:
                await second.connect()
            await second.close()
        for _ in range(100):  # the server's disconnection of the first gives its count back
            if not limits.BY_USER:
                break
            await asyncio.sleep(0.05)
        async with TableClient(url, token=token) as again:
            return seated, str(refused.value), (again.role, again.seat)

    seated, refused, again = asyncio.run(go())
    assert seated == again == ("seat", 1)
    assert refused == ("seat refused: too many table connections of yours: at most 1 at "
                       "once")
