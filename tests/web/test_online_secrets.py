"""No seat secret in the log (issue 20 item 3): against a real ``risiko serve --dev`` (uvicorn
with its access log, Django's request logging), every way a secret reaches the server is
taken - the committee's invitation link opened and used, a guest sitting down and opening
his seat's secret link in another browser, that browser's socket (by its session cookie), a
remote bot's socket (its token in the first message), an old client putting the token in
the URL (refused) - and the server's whole log is read: neither token is in it, and the
paths that carried them are there with ``[redacted]`` in their place."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from served import Browser, make_user, run_django, server_env

from risiko.web.serving import ServedApp

websockets = pytest.importorskip("websockets")

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]

PASSWORD = "tavolo-rosso-42"


def _login(b: Browser, username: str) -> None:
    b.get("/login/")
    status, _h, _body = b.post("/login/", {"username": username, "password": PASSWORD})
    assert status == 302, _body[:300]


async def _socket(url: str, code: str, cookies: dict[str, str] | None = None,
                  first: dict[str, Any] | None = None, query: str = "") -> list[Any]:
    """Open the table's socket (cookies, then ``first`` sent); every message up to the
    last state, or the close code."""
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())}
    out: list[Any] = []
    async with websockets.connect(f"{url.replace('http', 'ws')}/ws/online/{code}/?lang=it"
                                  f"{query}", origin=url,
                                  additional_headers=headers if cookies else None) as ws:
        try:
            for _ in range(2):
                out.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            if first is not None:
                await ws.send(json.dumps(first))
                for _ in range(2):
                    out.append(json.loads(await asyncio.wait_for(ws.recv(), 30)))
        except websockets.ConnectionClosed as e:
            out.append(e.rcvd.code if e.rcvd else None)
    return out


def test_no_seat_or_invitation_token_reaches_the_servers_log(tmp_path: Any) -> None:
    from risiko.online.client import TableClient

    env = server_env(tmp_path)
    make_user(env, "comitato", PASSWORD, "committee")
    make_user(env, "anna", PASSWORD)
    run_django(env, "from risiko.web import services as club\n"
                    "club.add_players(club.create_tournament('Torneo', who='t'), ['Dario'],"
                    " who='t')\n")
    with ServedApp(env, args=["--dev"], with_stdout=True) as app:
        committee = Browser(app.url)
        _login(committee, "comitato")
        status, _h, page = committee.post("/online/inviti/", {"player": "Dario"})
        assert status == 200
        invite = re.search(r"/online/invito/([A-Za-z0-9_-]+)/", page)
        assert invite is not None
        invite_token = invite.group(1)
        dario = Browser(app.url)
        status, headers, _b = dario.get(f"/online/invito/{invite_token}/")
        assert (status, headers["location"]) == (303, "/online/invito/")
        status, _h, form = dario.get("/online/invito/")
        assert status == 200 and invite_token not in form
        status, _h, _b = dario.post("/online/invito/", {
            "username": "dario", "password1": "pietra-verde-77",
            "password2": "pietra-verde-77"})
        assert status == 302
        # a casual table; a guest sits down and keeps his seat's secret link
        owner = Browser(app.url)
        _login(owner, "anna")
        status, headers, _b = owner.post("/online/nuovo/", {
            "name": "Prova", "seats": "3", "bot2": "random", "bot3": "random",
            "clock_minutes": "0"})
        assert status == 302
        code = headers["location"].rstrip("/").rsplit("/", 1)[1]
        guest = Browser(app.url)
        guest.get(f"/online/t/{code}/")
        status, _h, _b = guest.post(f"/online/t/{code}/siedi/",
                                    {"as": "guest", "guest_name": "Bruno"})
        assert status == 302
        _s, _h, table_page = guest.get(f"/online/t/{code}/")
        link = re.search(r"/online/s/([A-Za-z0-9_-]+)/", table_page)
        assert link is not None and "data-token" not in table_page
        seat_token = link.group(1)
        # his other browser: the link gives its session the seat, then the table's address
        phone = Browser(app.url)
        status, headers, _b = phone.get(f"/online/s/{seat_token}/")
        assert (status, headers["location"]) == (302, f"/online/t/{code}/")
        by_cookie = asyncio.run(_socket(app.url, code, phone.cookies))
        assert (by_cookie[0]["role"], by_cookie[0]["seat"]) == ("seat", 1)
        assert by_cookie[1]["private"]["seat"] == 1  # his objective: the seat's own
        # a remote bot: the token in its first message (the client does it)

        async def bot() -> tuple[str | None, int | None]:
            async with TableClient(f"{app.url.replace('http', 'ws')}/ws/online/{code}/",
                                   token=seat_token, origin=app.url) as c:
                return c.role, c.seat

        assert asyncio.run(bot()) == ("seat", 1)
        # an old client with the token in the URL: refused, closed (4400), never seated
        old = asyncio.run(_socket(app.url, code, query=f"&token={seat_token}"))
        assert [f["code"] for f in old[0]["faults"]] == ["online.token_in_url"]
        assert old[-1] == 4400
        app.stop()
        log = "\n".join(app.log)
    assert seat_token not in log and invite_token not in log
    # what carried them was logged, the token blanked: the filter did it, not silence
    assert "/online/invito/[redacted]/" in log
    assert "/online/s/[redacted]/" in log
    assert f"/ws/online/{code}/?lang=it&token=[redacted]" in log


def test_djangos_request_log_blanks_a_token_too() -> None:
    """Django's own request log (a server error names the path) goes through the same
    filter (settings.LOGGING's console handler): the token is written ``[redacted]``, in an
    argument or in the format itself."""
    import logging
    import secrets

    token = secrets.token_urlsafe(24)
    from risiko.web.core.redact import RedactSecrets

    (handler,) = [h for h in logging.getLogger("django.request").handlers
                  if any(isinstance(f, RedactSecrets) for f in h.filters)]
    said = []
    for msg, args in (("Internal Server Error: %s", (f"/online/s/{token}/",)),
                      (f"Internal Server Error: /online/invito/{token}/ (%s)", ("GET",))):
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, msg, args,
                                   None)
        assert handler.filter(record)
        said.append(handler.format(record))
    assert said == ["Internal Server Error: /online/s/[redacted]/",
                    "Internal Server Error: /online/invito/[redacted]/ (GET)"]
