"""The national ranking's pages followed live (issue 21 items 5 and 8): a decision of the
national officer (an approval, a refusal), a revision replaced, a merge or a suspension in
the register is pushed over ``ws/live/`` to the followers of the pages it changes.

Channels' communicator against the real ASGI application, the in-memory channel layer, or
Redis under ``make unit-redis`` (``-m online``). The report: an open of 2019 (the 2019 rules:
at least 1 table, every result counts), one game of 4 seats, T = 1: Anna Bassi (101) first
with 1.2 * 101 * 2 = 242.40; Bruno Conti (102) 202 * exp(-2/20) = 182.78; Carla Dini (103)
202 * exp(-3/20) = 173.86; the fourth anonymous, not listed (the figures of
``tests/national/test_national_publishing.py``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from test_online_ws import WebsocketCommunicator, run

from risiko.web import services
from risiko.web.core import writes
from risiko.web.live import render
from risiko.web.live.groups import REGISTRY, Page, page_of
from risiko.web.live.hub import HUB
from risiko.web.public import data

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "national"))
from national_kit import report

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]

OFFICER = "ufficiale"
TIMEOUT = 5
PLAYERS: list[tuple[str, int | None, str, str]] = [
    ("p1", 101, "Anna", "Bassi"), ("p2", 102, "Bruno", "Conti"),
    ("p3", 103, "Carla", "Dini"), ("p4", None, "Anonimo", "Anonimo")]
LIST = "/nazionale/2019/"
#: the list after the approval: (position, player, points)
APPROVED = [(1, "Anna Bassi", "242.40"), (2, "Bruno Conti", "182.78"),
            (3, "Carla Dini", "173.86")]


@pytest.fixture(autouse=True)
def _live(settings: Any) -> Any:
    settings.RISIKO_ONLINE_SCHEDULER = False
    settings.RISIKO_FIRST_RUN_CHECK = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    data.clear_cache()
    REGISTRY.clear()
    HUB.forget()
    yield
    REGISTRY.clear()
    HUB.server_loop = None
    data.clear_cache()


def published(name: str = "Open 2019", day: str = "2019-05-04") -> int:
    """A club's report of ``day``'s year (2019) published, waiting for the officer: its
    revision's id."""
    from risiko.national.report import read_report
    from risiko.web.national.publishing import publish_report

    done = publish_report(read_report(report(name, dates=(day,), tables_per_round=1,
                                             players=PLAYERS)), by="arbitro")
    assert done.status == "published"
    return done.id


def approve(revision: int) -> None:
    from risiko.web.national.publishing import approve as approved

    approved(revision, by=OFFICER)


def ranked(html: str) -> list[tuple[int, str, str]]:
    """(position, player, points) of the national list in a fragment; the points with a
    point (the Italian page writes ``242,40``, the English ``242.40``)."""
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip()
                 for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        out.append((int(cells[0]), cells[1], cells[3].replace(",", ".")))
    return out


async def follow(path: str, lang: str = "it") -> WebsocketCommunicator:
    from risiko.web.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/live/?path={path}&lang={lang}",
                                 headers=[(b"origin", b"http://localhost"),
                                          (b"host", b"localhost")])
    ok, code = await comm.connect(timeout=TIMEOUT)
    assert ok, code
    return comm


async def next_message(comm: WebsocketCommunicator) -> dict[str, Any]:
    return dict(json.loads(await comm.receive_from(timeout=TIMEOUT)))


in_db = database_sync_to_async


def test_the_national_pages_are_followed_by_anyone() -> None:
    assert page_of(LIST, "it", referee=False) == Page("national", LIST, "2019", "it")
    assert page_of("/nazionale/2019/tornei/", "en", referee=False) == Page(
        "national", "/nazionale/2019/tornei/", "2019", "en")
    assert page_of("/nazionale/2019/club/milano/", "it", referee=False) == Page(
        "national", "/nazionale/2019/club/milano/", "2019", "it")
    # a player's page shows every year: no year
    assert page_of("/nazionale/giocatore/101/", "it", referee=False) == Page(
        "national", "/nazionale/giocatore/101/", None, "it")
    # the JSON, the officer's page and the home (a redirect) are no pages to follow
    for path in ("/nazionale/2019.json", "/nazionale/ufficiale/", "/nazionale/"):
        assert page_of(path, "it", referee=True) is None


def test_an_approval_reaches_every_follower_of_the_changed_pages() -> None:
    revision = published()
    published("Open 2020", "2020-05-09")  # 2020 has a page (a report waiting), unchanged

    async def go() -> None:
        phones = [await follow(LIST) for _ in range(2)]
        english = await follow(LIST, "en")
        player = await follow("/nazionale/giocatore/101/")
        club = await follow("/nazionale/2019/club/milano/")
        other_year = await follow("/nazionale/2020/")
        renders = HUB.renders
        await in_db(approve)(revision)
        got = [await next_message(p) for p in phones]
        assert {m["seq"] for m in got} == {got[0]["seq"]}  # one fragment for all
        for m in got:
            assert m["kind"] == "page"
            assert ranked(m["html"]) == APPROVED and "242,40" in m["html"]
            assert "Ranking nazionale 2019" in m["html"]
        m = await next_message(english)
        assert "National ranking 2019" in m["html"] and ranked(m["html"]) == APPROVED
        m = await next_message(player)  # in force now: 242,40, no estimate any more
        assert "242,40" in m["html"]
        m = await next_message(club)
        assert ranked(m["html"])[0][1] == "Anna Bassi"
        assert await other_year.receive_nothing(timeout=0.3)  # 2020 did not change
        # once per page and language: the list it and en, the player, the club
        assert HUB.renders - renders == 4
        for c in (*phones, english, player, club, other_year):
            await c.disconnect()
        assert REGISTRY.pages(("national",)) == set()

    run(go)


def test_a_refusal_and_a_suspension_are_pushed() -> None:
    from risiko.web.national.duplicates_services import suspend
    from risiko.web.national.publishing import refuse

    first = published()
    approve(first)
    waiting = published("Open di maggio")

    async def go() -> None:
        tournaments = await follow("/nazionale/2019/club/milano/")
        phone = await follow(LIST)
        await in_db(refuse)(waiting, by=OFFICER, reason="tavoli incompleti")
        m = await next_message(tournaments)  # the club's page: the report refused
        assert "rifiutat" in m["html"].lower()
        assert await phone.receive_nothing(timeout=0.3)  # the list did not change
        # Anna Bassi suspended for 2019: the others move up
        await in_db(suspend)(101, dt.date(2019, 1, 1), dt.date(2019, 12, 31),
                             reason="squalifica", who=OFFICER)
        m = await next_message(phone)
        assert ranked(m["html"]) == [(1, "Bruno Conti", "182.78"),
                                     (2, "Carla Dini", "173.86")]  # positions anew
        await tournaments.disconnect()
        await phone.disconnect()

    run(go)


def test_a_national_change_never_reaches_a_clubs_pages_nor_a_club_change_the_list() -> None:
    t = services.create_tournament("Torneo in diretta", who="arbitro")
    revision = published()

    async def go() -> None:
        standings = await follow(f"/t/{t.slug}/")
        club_list = await follow(LIST)
        await in_db(approve)(revision)
        m = await next_message(club_list)
        assert ranked(m["html"]) == APPROVED
        assert await standings.receive_nothing(timeout=0.3)
        # a tournament's change renders no national page
        groups = [g for g, _m in await in_db(lambda: list(HUB.messages(
            [writes.Change("enter_scores", "arbitro", {t.pk})])))()]
        assert page_of(LIST, "it", referee=False).group not in groups  # type: ignore[union-attr]
        await standings.disconnect()
        await club_list.disconnect()

    run(go)


# ------------------------------------------------------------------------------ how it dies


def test_a_render_that_raises_leaves_the_approval_and_the_other_pages(
        monkeypatch: pytest.MonkeyPatch, caplog: Any) -> None:
    revision = published()
    real = render.page_fragment

    def fragile(page: Page) -> str:
        if "giocatore" in page.path:
            raise RuntimeError("template broken")
        return real(page)

    async def go() -> None:
        broken = await follow("/nazionale/giocatore/101/")
        phone = await follow(LIST)
        monkeypatch.setattr(render, "page_fragment", fragile)
        await in_db(approve)(revision)  # the approval stands
        m = await next_message(phone)
        assert ranked(m["html"]) == APPROVED
        assert await broken.receive_nothing(timeout=0.3)  # it keeps polling
        assert "could not be rendered" in caplog.text
        await broken.disconnect()
        await phone.disconnect()

    run(go)
    from risiko.web.national.models import TournamentRevision

    assert TournamentRevision.objects.get(pk=revision).status == "approved"


def test_a_follower_that_closes_mid_push_ends_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from risiko.web.live.consumers import LiveConsumer

    revision = published()
    real = LiveConsumer.send
    failed: list[str] = []

    async def send_once_broken(self: Any, *args: Any, **kwargs: Any) -> None:
        if not failed:
            failed.append(self.channel_name)
            raise ConnectionResetError("the phone went away")
        await real(self, *args, **kwargs)

    monkeypatch.setattr(LiveConsumer, "send", send_once_broken)

    async def go() -> None:
        a = await follow(LIST)
        b = await follow(LIST)
        await in_db(approve)(revision)
        outputs = [await c.receive_output(timeout=TIMEOUT) for c in (a, b)]
        assert sorted(o["type"] for o in outputs) == ["websocket.close", "websocket.send"]
        sent = next(o for o in outputs if o["type"] == "websocket.send")
        assert ranked(json.loads(sent["text"])["html"]) == APPROVED
        for c in (a, b):
            await c.disconnect()
        assert REGISTRY.pages(("national",)) == set()

    run(go)


def short_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    from risiko.web.live import hub

    thread = HUB._thread
    if thread is not None:
        thread.join(timeout=hub.WATCH_INTERVAL + TIMEOUT)
    monkeypatch.setattr(hub, "WATCH_INTERVAL", 0.1)


def approve_elsewhere(revision: int) -> None:
    """Approved as ``risiko national approve`` does it in another process: no hook here."""
    hooks = list(writes.AFTER_COMMIT)
    writes.AFTER_COMMIT[:] = []
    try:
        approve(revision)
    finally:
        writes.AFTER_COMMIT[:] = hooks


def test_an_approval_by_another_process_and_the_hubs_thread_restarted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from risiko.web.national.duplicates_services import suspend

    short_interval(monkeypatch)
    first = published()

    async def go() -> None:
        phone = await follow(LIST)
        await asyncio.sleep(0.3)
        assert HUB._thread is not None and HUB._thread.is_alive()
        await in_db(approve_elsewhere)(first)  # the look at the change key finds it
        m = await next_message(phone)
        assert ranked(m["html"]) == APPROVED
        await phone.disconnect()
        await asyncio.sleep(0.4)
        assert HUB._thread is None  # nobody follows: the thread ended
        phone = await follow(LIST)  # a new follower: a new thread
        await in_db(suspend)(101, dt.date(2019, 1, 1), None, reason="squalifica",
                             who=OFFICER)
        m = await next_message(phone)
        assert ranked(m["html"]) == [(1, "Bruno Conti", "182.78"),
                                     (2, "Carla Dini", "173.86")]
        await phone.disconnect()

    run(go)


NATIONAL_JS_HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const sockets = [], out = [];
let now = 0, tick = null, pending = [];
const main = {innerHTML: "old"};
const ctx = {
  document: {
    querySelector: () => ({getAttribute: () => "national"}),
    documentElement: {getAttribute: () => "it"},
    addEventListener: () => {},
    getElementById: (id) => (id === "main" ? main : null),
  },
  location: {protocol: "http:", host: "localhost", pathname: "/nazionale/2019/"},
  setTimeout: () => 0, setInterval: (fn, ms) => { tick = fn; out.push(["every", ms]); },
  JSON: JSON, Math: Math, encodeURIComponent: encodeURIComponent, Date: {now: () => now},
  fetch: (url) => { out.push(["fetch", now / 1000, url]);
    return {then: (f) => { pending.push(f); return {then: () => ({catch: () => 0})}; }}; },
  DOMParser: function () {
    this.parseFromString = (t) => ({getElementById: () => ({innerHTML: t})}); },
};
ctx.window = {WebSocket: true, fetch: true};
ctx.WebSocket = function (url) { sockets.push(this); };
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), ctx);
function at(s) { now = s * 1000; tick(); }
at(10);                                    // no socket open: the page fetches itself
sockets[0].onopen();
at(20); at(69);                            // open: within a minute of the last, none
at(71);                                    // a minute since the fetch at 10: one
now = 100000;                              // a pushed fragment at 100 s
sockets[0].onmessage({data: JSON.stringify({kind: "page", seq: 5, html: "pushed"})});
out.push(["main", main.innerHTML]);
at(150);                                   // fresh from the push: none
sockets[0].onclose({code: 1006});          // the socket failed: every 10 s again
at(160);
process.stdout.write(JSON.stringify(out));
"""


def test_a_national_page_fetches_itself_while_its_socket_is_not_open(tmp_path: Any) -> None:
    """live.js (Node, a stand-in page) on a national page: no htmx poll there, so the page
    fetches itself every 10 s while the socket is not open, once a minute while it is; a
    pushed fragment replaces its ``<main>``."""
    import shutil
    import subprocess

    import risiko.web.live

    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js")
    script = Path(risiko.web.live.__file__).parent / "static" / "live" / "live.js"
    harness = tmp_path / "harness.js"
    harness.write_text(NATIONAL_JS_HARNESS, encoding="utf-8")
    done = subprocess.run([node, str(harness), str(script)], capture_output=True, text=True,
                          timeout=30, check=True)
    assert json.loads(done.stdout) == [
        ["every", 10000], ["fetch", 10, "/nazionale/2019/"], ["fetch", 71, "/nazionale/2019/"],
        ["main", "pushed"], ["fetch", 160, "/nazionale/2019/"]]


def test_a_fresh_servers_home_is_not_followed_and_a_refusal_is_final() -> None:
    """issue (newcomer's trial): on a fresh server /nazionale/ carried the live tag, its
    socket was refused before the accept (HTTP 403, seen as 1006: live.js retried for ever)
    and its JSON/CSV links answered 404. Now the home with no year says so without the live
    tag or the links; with a report of this year waiting it is this year's page (followed);
    a page that cannot be followed is closed with 4403 after the accept (final for live.js)."""
    from django.contrib.auth.models import User
    from django.test import Client

    User.objects.create_user("arbitro", password="tavolo-rosso-42")  # past the first run
    year = dt.date.today().year
    home = asgi_get("/nazionale/")
    html = home.content.decode()
    assert home.status_code == 200 and f"Ranking nazionale {year}" in html
    assert 'name="risiko-live"' not in html
    assert f"/nazionale/{year}.json" not in html and f"/nazionale/{year}.csv" not in html

    async def go() -> None:
        from risiko.web.asgi import application

        comm = WebsocketCommunicator(application, "/ws/live/?path=/nazionale/&lang=it",
                                     headers=[(b"origin", b"http://localhost"),
                                              (b"host", b"localhost")])
        assert (await comm.connect(timeout=TIMEOUT))[0]
        assert await comm.receive_output(timeout=TIMEOUT) == {
            "type": "websocket.close", "code": 4403}

    run(go)
    assert REGISTRY.pages() == set()
    # a report of this year waiting: the home is this year's page, which can be followed
    published(f"Open {year}", f"{year}-01-10")
    assert Client().get("/nazionale/").url == f"/nazionale/{year}/"
    html = asgi_get(f"/nazionale/{year}/").content.decode()
    assert 'name="risiko-live"' in html and f"/nazionale/{year}.json" in html


def asgi_get(path: str) -> Any:
    """``path`` as the ASGI server serves it (the live tag is offered to ASGI requests
    only; Django's test client is WSGI)."""
    import io

    from django.core.handlers.asgi import ASGIRequest
    from django.urls import resolve

    scope = {"type": "http", "method": "GET", "path": path, "query_string": b"",
             "headers": [(b"host", b"localhost")]}
    match = resolve(path)
    return match.func(ASGIRequest(scope, io.BytesIO()), *match.args, **match.kwargs)
