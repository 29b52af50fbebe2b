"""Live pages (issue 18 §1): a saved change pushed over ``ws/live/`` to the open pages.

Channels' communicator against the real ASGI application (origin check, session), the
in-memory channel layer, or Redis under ``make unit-redis`` (``-m online``). The tournament:
four players at one table on 2027-03-02; the result saved is Alba 100 (RisiKo!), Bice 40,
Ciro 30, Dora 20: under Club Milano the ranking points are the table scores (R15), so the
standings pushed read 1 Alba 100, 2 Bice 40, 3 Ciro 30, 4 Dora 20. A penalty of -10
ranking points to Dora (R10) then makes her 10.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from test_online_ws import WebsocketCommunicator, run

from risiko.web import services
from risiko.web.core import writes
from risiko.web.core.faults import ServiceError
from risiko.web.live import render
from risiko.web.live.groups import REGISTRY, Page, page_of
from risiko.web.live.hub import HUB
from risiko.web.public import data
from risiko.web.results.models import GameTable
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db(transaction=True)]

WHO = "arbitro"
SLUG = "torneo-in-diretta"
NAMES = ["Alba", "Bice", "Ciro", "Dora"]
TIMEOUT = 5


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


def build() -> tuple[Tournament, GameTable]:
    t = services.create_tournament("Torneo in diretta", who=WHO)
    assert t.slug == SLUG
    services.add_players(t, NAMES, who=WHO)
    evening = services.open_evening(t, "2027-03-02", who=WHO)
    (table,) = services.set_tables(evening, [NAMES], who=WHO)
    return t, table


def save_result(table: GameTable) -> None:
    services.enter_scores(table, {"Alba": 100, "Bice": 40, "Ciro": 30, "Dora": 20},
                          risiko=["Alba"], who=WHO)


def rows(html: str) -> list[tuple[int, str, int]]:
    """(rank, player, points) of the standings in a fragment."""
    body = html[html.index('<table class="standings">'):]
    out = []
    for tr in re.findall(r"<tr class=[^>]*>(.*?)</tr>", body[:body.index("</table>")], re.S):
        cells = [re.sub(r"<[^>]+>|†", "", c).strip()
                 for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        out.append((int(cells[0]), cells[1], int(cells[2])))
    return out


async def follow(path: str, lang: str = "it", session: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if session:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    comm = WebsocketCommunicator(application(), f"/ws/live/?path={path}&lang={lang}",
                                 headers=headers)
    ok, code = await comm.connect(timeout=TIMEOUT)
    assert ok, code
    return comm


def application() -> Any:
    from risiko.web.asgi import application as app

    return app


async def next_message(comm: WebsocketCommunicator) -> dict[str, Any]:
    return dict(json.loads(await comm.receive_from(timeout=TIMEOUT)))


in_db = database_sync_to_async


# ------------------------------------------------------------------------------ the hook


def test_the_write_path_hands_each_committed_change_once_and_never_a_refused_one() -> None:
    seen: list[writes.Change] = []
    writes.AFTER_COMMIT.append(seen.append)
    try:
        t, table = build()
        seen.clear()
        save_result(table)
        # one change, the tournament locked, who saved it, which service
        assert [(c.service, c.who, c.tournaments) for c in seen] == [
            ("enter_scores", WHO, {t.pk})]
        seen.clear()
        with pytest.raises(ServiceError):  # Zeno is not in the tournament: refused
            services.enter_scores(table, {"Zeno": 1, "Bice": 2, "Ciro": 3, "Dora": 4},
                                  who=WHO)
        assert seen == []
    finally:
        writes.AFTER_COMMIT.remove(seen.append)


def test_a_hook_that_raises_never_breaks_the_save() -> None:
    def broken(change: writes.Change) -> None:
        raise RuntimeError("boom")

    writes.AFTER_COMMIT.insert(0, broken)
    try:
        _t, table = build()
        save_result(table)  # no exception
    finally:
        writes.AFTER_COMMIT.remove(broken)
    assert rows(render.page_fragment(Page("public", f"/t/{SLUG}/", SLUG, "it")))[0] == (
        1, "Alba", 100)


# ------------------------------------------------------------------------------ who follows


def test_who_may_follow_what() -> None:
    build()
    assert page_of(f"/t/{SLUG}/", "it", referee=False) == Page(
        "public", f"/t/{SLUG}/", SLUG, "it")
    # a player's page percent-encoded as location.pathname gives it
    assert page_of(f"/t/{SLUG}/giocatori/Nicol%C3%B2/", "en", referee=False).path == (
        f"/t/{SLUG}/giocatori/Nicolò/")
    assert page_of("/classifica/", "it", referee=False).slug is None
    assert page_of(f"/arbitro/t/{SLUG}/", "it", referee=False) is None  # console: referees
    assert page_of(f"/arbitro/t/{SLUG}/", "it", referee=True).audience == "console"
    assert page_of("/login/", "it", referee=True) is None
    assert page_of(f"/t/{SLUG}/", "fr", referee=False) is None
    assert page_of("/nowhere/", "it", referee=False) is None

    async def refused(path: str) -> int:
        comm = WebsocketCommunicator(application(), f"/ws/live/?path={path}&lang=it",
                                     headers=[(b"origin", b"http://localhost"),
                                              (b"host", b"localhost")])
        # accepted, then closed at once with the code: a close before the accept would be
        # the handshake's bare 403, which the browser sees as 1006 and retries for ever
        ok, _code = await comm.connect(timeout=TIMEOUT)
        assert ok
        closed = await comm.receive_output(timeout=TIMEOUT)
        assert closed["type"] == "websocket.close"
        return int(closed["code"])

    async def go() -> None:
        assert await refused("/arbitro/") == 4403  # an anonymous socket on the console
        # a made-up player: refused at once, never rendered at a change
        assert await refused(f"/t/{SLUG}/giocatori/Zeno/") == 4404
        assert await refused(f"/t/{SLUG}/serate/2031-01-01/") == 4404
        assert REGISTRY.pages() == set()

    run(go)


def test_a_process_follows_a_bounded_number_of_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    from risiko.web.live import groups

    build()
    monkeypatch.setattr(groups, "MAX_PAGES", 2)

    async def go() -> None:
        a = await follow(f"/t/{SLUG}/")
        b = await follow(f"/t/{SLUG}/giocatori/Alba/")
        again = await follow(f"/t/{SLUG}/")  # a page already followed: always
        comm = WebsocketCommunicator(application(), f"/ws/live/?path=/t/{SLUG}/giocatori/Bice/"
                                     "&lang=it", headers=[(b"origin", b"http://localhost"),
                                                          (b"host", b"localhost")])
        assert (await comm.connect(timeout=TIMEOUT))[0]
        closed = await comm.receive_output(timeout=TIMEOUT)
        assert closed == {"type": "websocket.close", "code": 4429}  # a third distinct page
        for c in (a, b, again):
            await c.disconnect()
        assert REGISTRY.pages() == set()

    run(go)


# ------------------------------------------------------------------------------ the push


def test_a_result_reaches_every_phone_on_the_standings_in_its_language() -> None:
    _t, table = build()

    async def go() -> None:
        phones = [await follow(f"/t/{SLUG}/") for _ in range(3)]
        english = await follow(f"/t/{SLUG}/", "en")
        evening = await follow(f"/t/{SLUG}/serate/2027-03-02/")
        player = await follow(f"/t/{SLUG}/giocatori/Dora/")
        assert len([p for p in REGISTRY.pages() if p.path == f"/t/{SLUG}/"]) == 2
        renders = HUB.renders
        started = time.monotonic()
        await in_db(save_result)(table)
        got = [await next_message(p) for p in phones]
        assert time.monotonic() - started < TIMEOUT
        assert {m["seq"] for m in got} == {got[0]["seq"]}  # one fragment for all
        for m in got:
            assert m["kind"] == "page"
            assert rows(m["html"]) == [(1, "Alba", 100), (2, "Bice", 40), (3, "Ciro", 30),
                                       (4, "Dora", 20)]
            assert "Classifica generale" in m["html"]
        m = await next_message(english)
        assert "General ranking" in m["html"] and rows(m["html"])[0] == (1, "Alba", 100)
        m = await next_message(evening)
        assert "Alba" in m["html"] and "100" in m["html"]
        m = await next_message(player)  # Dora's page: her game, 20 points, 4th
        assert "Dora" in m["html"] and re.search(r">\s*20\s*<", m["html"])
        # one render per page and language: standings it and en, the evening, Dora's page
        assert HUB.renders - renders == 4
        for c in (*phones, english, evening, player):
            await c.disconnect()
        assert REGISTRY.pages() == set()

    run(go)


def test_the_referees_console_gets_the_notice_in_italian(make_user: Any) -> None:
    _t, table = build()
    referee = make_user("sara", "referee")
    from django.test import Client

    client = Client()
    client.force_login(referee)
    session = client.cookies["sessionid"].value

    async def go() -> None:
        console = await follow(f"/arbitro/t/{SLUG}/2027-03-02/", session=session)
        home = await follow("/arbitro/", "en", session=session)
        await in_db(save_result)(table)
        m = await next_message(console)
        assert m["kind"] == "notice"
        assert re.search(r"Aggiornato da arbitro alle \d\d:\d\d:\d\d: un risultato\.",
                         m["html"])
        assert "data-live-reload" in m["html"] and "Ricarica la pagina" in m["html"]
        m = await next_message(home)
        assert "Updated by arbitro" in m["html"] and "a result" in m["html"]
        await console.disconnect()
        await home.disconnect()

    run(go)


# ------------------------------------------------------------------------------ how it dies


def test_a_page_whose_render_raises_leaves_the_save_and_the_other_pages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _t, table = build()
    real = render.page_fragment

    def fragile(page: Page) -> str:
        if "serate" in page.path:
            raise RuntimeError("template broken")
        return real(page)

    async def go() -> None:
        broken = await follow(f"/t/{SLUG}/serate/2027-03-02/")
        standings = await follow(f"/t/{SLUG}/")
        monkeypatch.setattr(render, "page_fragment", fragile)  # broken after it was opened
        await in_db(save_result)(table)  # the save answers
        m = await next_message(standings)
        assert rows(m["html"])[0] == (1, "Alba", 100)
        assert await broken.receive_nothing(timeout=0.5)  # its phone keeps polling
        await broken.disconnect()
        await standings.disconnect()

    run(go)
    assert GameTable.objects.get(pk=table.pk).results.current().count() == 1


def test_a_socket_closed_while_sending_ends_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    _t, table = build()
    from risiko.web.live.consumers import LiveConsumer

    real = LiveConsumer.send
    failed: list[str] = []

    async def send_once_broken(self: Any, *args: Any, **kwargs: Any) -> None:
        if not failed:
            failed.append(self.channel_name)
            raise ConnectionResetError("the phone went away")
        await real(self, *args, **kwargs)

    monkeypatch.setattr(LiveConsumer, "send", send_once_broken)

    async def go() -> None:
        a = await follow(f"/t/{SLUG}/")
        b = await follow(f"/t/{SLUG}/")
        await in_db(save_result)(table)
        outputs = []
        for c in (a, b):
            outputs.append(await c.receive_output(timeout=TIMEOUT))
        kinds = sorted(o["type"] for o in outputs)
        assert kinds == ["websocket.close", "websocket.send"]  # one closed, one served
        sent = next(o for o in outputs if o["type"] == "websocket.send")
        assert rows(json.loads(sent["text"])["html"])[0] == (1, "Alba", 100)
        for c in (a, b):
            await c.disconnect()
        assert REGISTRY.pages() == set()

    run(go)


def test_a_closed_tab_costs_no_render() -> None:
    _t, table = build()

    async def go() -> None:
        tab = await follow(f"/t/{SLUG}/giocatori/Alba/")
        await tab.disconnect()
        assert REGISTRY.pages() == set()
        renders = HUB.renders
        await in_db(save_result)(table)
        await asyncio.sleep(0.5)
        assert HUB.renders == renders

    run(go)


def test_two_changes_in_one_tick_are_one_round_and_rounds_arrive_in_order() -> None:
    _t, table = build()
    evening = table.evening

    async def go() -> None:
        phone = await follow(f"/t/{SLUG}/")
        HUB.server_loop = asyncio.get_running_loop()

        def two_saves_one_round() -> list[tuple[str, dict[str, Any]]]:
            hooks = list(writes.AFTER_COMMIT)
            caught: list[writes.Change] = []
            writes.AFTER_COMMIT[:] = [caught.append]
            try:
                save_result(table)
                services.add_penalty(evening, "Dora", -10, unit="ranking",
                                     reason="R10: comportamento", referee="Luca", who="luca")
            finally:
                writes.AFTER_COMMIT[:] = hooks
            renders = HUB.renders
            sent = HUB.publish(caught)  # the two in one round
            assert HUB.renders - renders == 1  # one render of the one page followed
            return sent

        sent = await in_db(two_saves_one_round)()
        m = await next_message(phone)
        # both changes in the fragment: Dora 20 - 10 = 10 ranking points, still 4th
        assert rows(m["html"]) == [(1, "Alba", 100), (2, "Bice", 40), (3, "Ciro", 30),
                                   (4, "Dora", 10)]
        notice = json.loads(next(msg["text"] for group, msg in sent
                                 if group.startswith("live.c.")))
        assert "arbitro, luca" in notice["html"] and "un risultato, una sanzione" in (
            notice["html"])
        # a later round has a larger seq; the same page unchanged sends nothing
        first = m["seq"]
        await in_db(services.add_penalty)(evening, "Ciro", -5, unit="ranking",
                                          reason="R10", referee="Luca", who="luca")
        m2 = await next_message(phone)
        assert m2["seq"] > first and rows(m2["html"])[2] == (3, "Ciro", 25)
        await phone.disconnect()

    run(go)


# ------------------------------------------------------------------------------ other processes


def save_elsewhere(table: GameTable) -> None:
    """The result saved as another process saves it (``risiko tournament scores`` on the
    same database): the services with no hook of this server's process."""
    hooks = list(writes.AFTER_COMMIT)
    writes.AFTER_COMMIT[:] = []
    try:
        save_result(table)
    finally:
        writes.AFTER_COMMIT[:] = hooks


def test_a_result_saved_by_another_process_reaches_a_followed_page_within_the_interval(
        make_user: Any) -> None:
    from risiko.web.live import hub

    _t, table = build()
    referee = make_user("sara", "referee")
    from django.test import Client

    client = Client()
    client.force_login(referee)
    session = client.cookies["sessionid"].value
    assert hub.WATCH_INTERVAL == 2.0  # docs/web.md: "within 2 s"

    async def go() -> None:
        phone = await follow(f"/t/{SLUG}/")
        console = await follow(f"/arbitro/t/{SLUG}/2027-03-02/", session=session)
        queued = HUB.rounds
        await in_db(save_elsewhere)(table)
        assert HUB.rounds == queued and HUB._queue.empty()  # no hook ran here
        m = await next_message(phone)  # within the interval and a round (TIMEOUT 5 s)
        # R15: the ranking points are the table scores: Alba 100, Bice 40, Ciro 30, Dora 20
        assert rows(m["html"]) == [(1, "Alba", 100), (2, "Bice", 40), (3, "Ciro", 30),
                                   (4, "Dora", 20)]
        # who wrote is not known here: the console gets no notice (it is no page to swap)
        assert await console.receive_nothing(timeout=0.5)
        await phone.disconnect()
        await console.disconnect()

    run(go)


def short_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """Looks every 0.1 s, by a thread started after (an earlier test's thread, nobody
    following since, ends at its next look)."""
    from risiko.web.live import hub

    thread = HUB._thread
    if thread is not None:
        thread.join(timeout=hub.WATCH_INTERVAL + TIMEOUT)
    monkeypatch.setattr(hub, "WATCH_INTERVAL", 0.1)


def test_the_looks_are_one_query_and_a_local_change_is_one_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    short_interval(monkeypatch)
    _t, table = build()

    async def go() -> None:
        phone = await follow(f"/t/{SLUG}/")
        rounds, looks = HUB.rounds, HUB.looks
        await asyncio.sleep(0.6)
        # nothing written: looks (about six), no round, nothing sent
        assert HUB.looks > looks and HUB.rounds == rounds
        assert await phone.receive_nothing(timeout=0.1)
        await in_db(save_result)(table)  # this process's save: its hook's round only
        m = await next_message(phone)
        assert rows(m["html"])[0] == (1, "Alba", 100)
        await asyncio.sleep(0.6)  # the looks see the key that round read: no second round
        # one round, or two when a look read the new key between the save's commit and its
        # hook queuing the change (a loaded machine: the look renders it, the hook's round
        # then renders the same page again): the phone gets the page once either way
        assert HUB.rounds - rounds in (1, 2)
        assert await phone.receive_nothing(timeout=0.1)
        await phone.disconnect()

    run(go)


def test_a_look_that_fails_is_logged_and_nobody_following_ends_the_looks(
        monkeypatch: pytest.MonkeyPatch, caplog: Any) -> None:
    short_interval(monkeypatch)
    _t, table = build()
    real = data.stored_change_key
    broken = [True]

    def away() -> tuple[Any, ...]:
        if broken[0]:
            raise ConnectionError("the database went away")
        return real()

    async def go() -> None:
        phone = await follow(f"/t/{SLUG}/")
        monkeypatch.setattr(data, "stored_change_key", away)
        await asyncio.sleep(0.4)
        assert "a round failed" in caplog.text  # logged, the thread goes on
        broken[0] = False  # the database back: the next look sees the write
        await in_db(save_elsewhere)(table)
        m = await next_message(phone)
        assert rows(m["html"])[0] == (1, "Alba", 100)
        await phone.disconnect()
        assert REGISTRY.local_pages() == set()
        await asyncio.sleep(0.4)
        looks = HUB.looks
        thread = HUB._thread
        assert thread is None  # nobody follows: the thread ended
        await asyncio.sleep(0.3)
        assert HUB.looks == looks  # and no look since

    run(go)


LIVE_JS_HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const handlers = {}, sockets = [], out = [];
let now = 0;
const main = {innerHTML: "", firstChild: null};
const ctx = {
  document: {
    querySelector: () => ({getAttribute: () => "public"}),
    documentElement: {getAttribute: () => "it"},
    addEventListener: (type, fn) => { (handlers[type] = handlers[type] || []).push(fn); },
    getElementById: (id) => (id === "main" ? main : null),
  },
  location: {protocol: "http:", host: "localhost", pathname: "/t/x/"},
  setTimeout: () => 0, JSON: JSON, Math: Math, encodeURIComponent: encodeURIComponent,
  Date: {now: () => now},
};
ctx.window = {WebSocket: true};
ctx.WebSocket = function (url) { sockets.push(this); };
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), ctx);
function poll(at) {  // the 10 s poll of the standings at second `at`: true when it goes
  now = at * 1000;
  let prevented = false;
  const e = {detail: {elt: {id: "standings-live"}}, preventDefault: () => { prevented = true; }};
  handlers["htmx:beforeRequest"].forEach((fn) => fn(e));
  out.push([at, !prevented]);
}
poll(0);                                   // the socket not open yet: the poll goes
sockets[0].onopen();
poll(10); poll(50); poll(61); poll(71);    // open: once a minute since the last poll
now = 100000;                              // a pushed fragment at 100 s
sockets[0].onmessage({data: JSON.stringify({kind: "page", seq: 1, html: "x"})});
poll(150); poll(161);                      // a minute after the push
sockets[0].onclose({code: 1006});          // the socket failed: every 10 s again
poll(171);
process.stdout.write(JSON.stringify(out));
"""


def test_the_phone_polls_once_a_minute_while_its_socket_is_open(tmp_path: Any) -> None:
    """live.js run by Node against a stand-in page: the second line behind the push (a
    change the hub never saw reaches the phone within a minute whatever happens)."""
    import shutil
    import subprocess
    from pathlib import Path

    import risiko.web.live

    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js")
    script = Path(risiko.web.live.__file__).parent / "static" / "live" / "live.js"
    harness = tmp_path / "harness.js"
    harness.write_text(LIVE_JS_HARNESS, encoding="utf-8")
    done = subprocess.run([node, str(harness), str(script)], capture_output=True, text=True,
                          timeout=30, check=True)
    # SLOW_POLL 60 s: 10 and 50 are within a minute of the poll at 0, 61 is past it, 71
    # within a minute of 61; the push at 100 counts as fresh: 150 skipped, 161 goes; the
    # socket closed: 171 goes (the 10 s fallback)
    assert json.loads(done.stdout) == [[0, True], [10, False], [50, False], [61, True],
                                       [71, False], [150, False], [161, True], [171, True]]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_catalogues_are_complete_and_compiled(lang: str) -> None:
    import gettext
    from pathlib import Path

    import risiko.web.live

    folder = Path(risiko.web.live.__file__).parent / "locale" / lang / "LC_MESSAGES"
    po = (folder / "django.po").read_text(encoding="utf-8")
    entries = dict(re.findall(r'\nmsgid "(.+)"\nmsgstr "(.*)"', po))
    assert len(entries) == 10  # the nine words of the notice and the app's name
    with (folder / "django.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
    for msgid, msgstr in entries.items():
        assert msgstr and compiled.get(msgid) == msgstr, (lang, msgid)


def test_the_socket_is_offered_only_where_it_can_open(client: Any, settings: Any) -> None:
    """The WSGI test client (like ``runserver``) has no ``ws/live/``: no live script, the
    page polls; an ASGI request gets it, unless ``RISIKO_LIVE`` is off."""
    from django.core.handlers.asgi import ASGIRequest

    from risiko.web.live.context_processors import live_pages

    build()
    html = client.get(f"/t/{SLUG}/").content.decode()
    assert 'name="risiko-live"' not in html and 'hx-trigger="every 10s"' in html
    scope = {"type": "http", "method": "GET", "path": f"/t/{SLUG}/", "query_string": b"",
             "headers": []}
    request = ASGIRequest(scope, io.BytesIO())
    assert live_pages(request) == {"live_pages": True}
    settings.RISIKO_LIVE = False
    assert live_pages(request) == {"live_pages": False}
    queued = HUB.rounds
    HUB.changed(writes.Change("enter_scores", WHO, {1}))  # off: nothing queued
    assert HUB.rounds == queued and HUB._queue.empty()


def test_a_send_that_fails_leaves_the_other_fragments(monkeypatch: pytest.MonkeyPatch) -> None:
    t, table = build()
    save_result(table)
    standings = Page("public", f"/t/{SLUG}/", SLUG, "it")
    evening = Page("public", f"/t/{SLUG}/serate/2027-03-02/", SLUG, "it")
    for page in (standings, evening):
        assert REGISTRY.add(page)
    went: list[str] = []

    def send(messages: Any) -> None:
        ((group, _message),) = messages
        if group == standings.group:
            raise TimeoutError("the loop did not answer")
        went.append(group)

    monkeypatch.setattr(HUB, "send", send)
    sent = HUB.publish([writes.Change("enter_scores", WHO, {t.pk})])
    # the notice in it and en, each to the tournament's consoles and to every console (4),
    # and the evening's page; the standings' fragment failed alone
    assert [g for g, _m in sent] == went and len(went) == 5
    assert evening.group in went and standings.group not in went


def test_the_hubs_thread_is_stopped_and_reads_nothing_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """:meth:`Hub.stop` (the tests' teardown, before PostgreSQL's ``TRUNCATE``: the look's
    query deadlocked with it in a CI run) ends the thread while a page is still followed:
    no look after it; a page followed afterwards starts a new thread."""
    short_interval(monkeypatch)
    build()
    page = page_of(f"/t/{SLUG}/", "it", referee=False)
    assert page is not None and REGISTRY.add(page)
    HUB.follow()
    first = HUB._thread
    assert first is not None and first.is_alive()
    deadline = time.monotonic() + TIMEOUT
    looks = HUB.looks
    while HUB.looks < looks + 2:  # it looks every 0.1 s while the page is followed
        assert time.monotonic() < deadline, "the hub did not look"
        time.sleep(0.05)
    assert HUB.stop() is True
    assert not first.is_alive() and HUB._thread is None
    looks = HUB.looks
    time.sleep(0.4)
    assert HUB.looks == looks  # four intervals: nothing read
    HUB.follow()  # the page still followed: a new thread
    second = HUB._thread
    assert second is not None and second is not first and second.is_alive()
    assert HUB.stop() is True and not second.is_alive()
