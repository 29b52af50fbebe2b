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
