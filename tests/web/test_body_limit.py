"""The request-size limit at the server's door: :class:`risiko.web.asgi.BodyLimit`
refuses a body larger than the limit with 413 before the application reads it: a declared
``Content-Length`` at once (not a byte read), a chunked body as soon as the count passes the
limit; a view that takes a file (``@limit_upload``) has the upload limit
(``RISIKO_UPLOAD_MAX_BYTES``), every other path ``RISIKO_REQUEST_MAX_BYTES``. Against a real
``risiko serve``: an anonymous 500 MB POST to ``/login/`` is answered 413 and leaves no
temporary file."""

from __future__ import annotations

import asyncio
import http.client
import os
import time
from typing import Any

import pytest
from served import server_env

from risiko.web.asgi import BodyLimit, body_limit
from risiko.web.core.limits import request_limit, upload_request_limit
from risiko.web.serving import ServedApp

MB = 1024 * 1024
IMPORT = "/arbitro/importa/"  # the season file's upload (console_import)


class FakeApp:
    """Reads the body as Django does (until ``more_body`` is false or the client leaves),
    then answers 200 with the number of bytes it read."""

    def __init__(self) -> None:
        self.called = False
        self.read = 0
        self.left = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.left = True
                return
            self.read += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = str(self.read).encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


def _call(path: str, chunks: list[bytes], length: int | None,
          cookie: str = "") -> tuple[FakeApp, list[dict[str, Any]], int]:
    """Run BodyLimit(FakeApp) on one request; (the app, what was sent, chunks taken)."""
    app, sent, taken = FakeApp(), [], 0
    headers = [(b"content-length", str(length).encode())] if length is not None else []
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers}

    async def receive() -> dict[str, Any]:
        nonlocal taken
        if taken >= len(chunks):
            return {"type": "http.disconnect"}
        taken += 1
        return {"type": "http.request", "body": chunks[taken - 1],
                "more_body": taken < len(chunks)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(BodyLimit(app)(scope, receive, send))
    return app, sent, taken


def test_the_limits_by_path(settings):
    settings.RISIKO_UPLOAD_MAX_BYTES = 4 * MB
    settings.RISIKO_REQUEST_MAX_BYTES = MB
    assert request_limit() == MB and upload_request_limit() == 4 * MB + 64 * 1024
    assert body_limit("/login/") == MB
    assert body_limit("/nowhere/at/all/") == MB
    assert body_limit(IMPORT) == 4 * MB + 64 * 1024
    assert body_limit("/arbitro/t/torneo/2027-01-14/tavolo/1/scheda/") == (
        4 * MB + 64 * 1024)  # the sheet's upload (console_sheet)


def test_a_declared_length_over_the_limit_is_refused_unread(settings):
    settings.RISIKO_REQUEST_MAX_BYTES = MB
    app, sent, taken = _call("/login/", [b"x" * 1000], length=500 * MB)
    assert not app.called and taken == 0  # not a byte read
    assert sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]
    assert sent[1]["body"].decode() == (
        "Richiesta troppo grande: il limite è di 1 MB. Non è stato letto né salvato nulla.")
    _app, sent, _t = _call("/login/", [b""], length=MB + 1, cookie="django_language=en")
    assert sent[1]["body"].decode() == (
        "The request is too large: the limit is 1 MB. Nothing was read or saved.")


def test_a_chunked_body_is_cut_where_it_passes_the_limit(settings):
    settings.RISIKO_REQUEST_MAX_BYTES = MB
    chunks = [b"x" * (64 * 1024)] * 48  # 3 MiB without a Content-Length
    app, sent, taken = _call("/login/", chunks, length=None)
    # 16 chunks of 64 KiB are exactly 1 MiB (allowed); the 17th passes it: the app sees the
    # client leave after reading 16 chunks, and nothing after the 17th is taken
    assert app.called and app.left and app.read == MB and taken == 17
    assert [m.get("status") for m in sent[:1]] == [413]
    # a body declaring a small length but sending more is counted all the same
    app, sent, taken = _call("/login/", chunks, length=10)
    assert app.left and taken == 17 and sent[0]["status"] == 413


def test_bodies_within_the_limit_reach_the_application(settings):
    settings.RISIKO_REQUEST_MAX_BYTES = MB
    settings.RISIKO_UPLOAD_MAX_BYTES = 4 * MB
    app, sent, _t = _call("/login/", [b"x" * MB], length=MB)
    assert app.read == MB and sent[0]["status"] == 200
    chunks = [b"x" * MB] * 4  # 4 MiB to the season file's upload: within its limit
    app, sent, _t = _call(IMPORT, chunks, length=None)
    assert app.read == 4 * MB and sent[0]["status"] == 200 and not app.left
    app, sent, _t = _call(IMPORT, [b""], length=4 * MB + 64 * 1024 + 1)
    assert not app.called and sent[0]["status"] == 413
    # a GET without a body, a websocket or the lifespan pass through untouched
    app, sent, _t = _call("/", [b""], length=None)
    assert sent[0]["status"] == 200


def _post_raw(url: str, headers: dict[str, str], body_chunks, chunked: bool) -> tuple[int, str]:
    host, port = url.split("//")[1].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    conn.putrequest("POST", "/login/")
    for k, v in headers.items():
        conn.putheader(k, v)
    if chunked:
        conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    try:
        for chunk in body_chunks:
            if chunked:
                conn.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            else:
                conn.send(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed: the rest of the body is never sent
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response.status, text


@pytest.mark.db
@pytest.mark.django_db(transaction=True)
def test_a_served_500_mb_post_is_refused_and_spools_nothing(tmp_path):
    env = server_env(tmp_path)
    spool = tmp_path / "tmp"
    spool.mkdir()
    env.update(TMPDIR=str(spool), RISIKO_REQUEST_MAX_BYTES=str(MB))
    with ServedApp(env) as app:
        started = time.monotonic()
        # 500 MB announced, 2 MB actually sent: refused without waiting for the rest
        status, text = _post_raw(app.url, {"Content-Length": str(500 * MB)},
                                 (b"x" * (256 * 1024) for _ in range(8)), chunked=False)
        assert status == 413 and "Richiesta troppo grande" in text
        # a chunked body of 8 MB: cut after the first MiB
        status, text = _post_raw(app.url, {}, (b"x" * (256 * 1024) for _ in range(32)),
                                 chunked=True)
        assert status == 413 and "il limite è di 1 MB" in text
        assert time.monotonic() - started < 30
        assert not app.errors(), app.log[-20:]
    # no upload's named temporary file (Django's spooled body would be an anonymous one: the
    # proof it was never written is that the body was cut at the limit, in memory)
    assert os.listdir(spool) == []


def test_a_small_request_never_looks_its_path_up(settings, monkeypatch):
    import risiko.web.asgi as door

    settings.RISIKO_REQUEST_MAX_BYTES = MB
    settings.RISIKO_UPLOAD_MAX_BYTES = 4 * MB
    looked: list[str] = []
    real = door.body_limit
    monkeypatch.setattr(door, "body_limit", lambda path: looked.append(path) or real(path))
    _call("/", [b""], length=None)  # a GET
    _call("/login/", [b"x" * 1000], length=1000)  # a login form
    _call("/login/", [b"x" * 1000] * 3, length=None)  # a small chunked body
    assert looked == []
    # past the lowest limit (1 MiB): the path's own limit is looked up, once
    app, _sent, _t = _call(IMPORT, [b"x" * MB] * 3, length=None)
    assert looked == [IMPORT] and app.read == 3 * MB and not app.left
