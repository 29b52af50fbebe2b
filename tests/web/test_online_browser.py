"""Online tables in a real browser (Debian's Chromium driven by Playwright) against an ASGI
server the test starts on a free port (uvicorn with WebSockets; pytest-django's live server
has none): two browser contexts and two bots play a whole game to the closing dice (R2: the
call in round 1), one browser reloads in the middle of its turn and goes on; a seat's turn
times out on a test clock of seconds (R11); an online evening of a tournament, three members
in three browsers and the referee in a fourth, ends with its result in the standings page.
Skipped when Playwright or Chromium is missing.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import browser_marks, launch
from django.db import OperationalError

from risiko.web.online import services
from risiko.web.online.models import TableEvent

playwright = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
pytestmark = [pytest.mark.online, *browser_marks()]


class AsgiServer:
    """uvicorn serving the project's ASGI application in a thread, on a free port."""

    def __init__(self) -> None:
        from risiko.web.asgi import application

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(application, lifespan="on", ws="websockets-sansio",
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def __enter__(self) -> AsgiServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the ASGI server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()


@pytest.fixture
def server(settings: Any) -> Iterator[AsgiServer]:
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    settings.RISIKO_FIRST_RUN_CHECK = False
    settings.RISIKO_ONLINE_SCHEDULER = True
    settings.RISIKO_ONLINE_TICK = 0.1
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()
    with AsgiServer() as s:
        yield s


@pytest.fixture
def chromium() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


def _db(read: Any) -> Any:
    """A read from the test's thread while the server's thread writes: SQLite's shared
    in-memory test database says "table is locked" meanwhile; try again."""
    for _ in range(100):
        try:
            return read()
        except OperationalError:
            time.sleep(0.1)
    return read()


def _page(browser: Any, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.on("console", lambda m: errors.append(m.text)
          if "Content Security Policy" in m.text else None)
    return pg


def _join(pg: Any, url: str, name: str) -> None:
    pg.goto(url)
    pg.fill("input[name=guest_name]", name)
    pg.click("button[value=guest]")
    pg.wait_for_selector("#online-table[data-seat]")


def _root(pg: Any) -> dict[str, str]:
    return pg.evaluate("() => Object.assign({}, document.getElementById('online-table').dataset)")


def _my_turn(pg: Any) -> bool:
    d = _root(pg)
    return d.get("status") == "playing" and d.get("toAct") == d.get("seat")


def _play_one(pg: Any) -> None:
    """One action of the seat through the page: place everything on an own territory, move
    the most after a conquest, else end the turn; then wait for the server's answer."""
    d = _root(pg)
    seq = d["seq"]
    phase = d["phase"]
    if phase in ("setup", "reinforce"):
        sets = pg.locator("#ot-sets button.trade")
        if sets.count():
            sets.first.click()
        else:
            pg.locator(f'#online-table .territory[data-owner="{d["seat"]}"]').first.click(
                force=True)
    elif phase == "move":
        pg.click("#ot-move-go")
    else:
        pg.click("#ot-end")
    pg.wait_for_function(
        f"() => document.getElementById('online-table').dataset.seq !== '{seq}' || "
        "!document.getElementById('ot-faults').hidden", timeout=20000)
    assert pg.locator("#ot-faults").is_hidden(), pg.inner_text("#ot-faults")


def test_two_browsers_and_two_bots_play_to_the_closing_dice(server: AsgiServer,
                                                           chromium: Any) -> None:
    table = services.create_table(
        name="Browser", seats=4, bots={3: "random", 4: "random"}, who="test",
        settings={"clock_seconds": 0, "call_round": 1, "bot_delay_ms": 0})
    errors: list[str] = []
    anna, bruno = _page(chromium, errors), _page(chromium, errors)
    url = f"{server.url}/online/t/{table.code}/"
    _join(anna, url, "Anna")
    _join(bruno, url, "Bruno")
    for pg in (anna, bruno):
        pg.wait_for_function("() => document.getElementById('online-table').dataset.status "
                             "=== 'playing'", timeout=20000)
    assert _root(anna)["seat"] == "1" and _root(bruno)["seat"] == "2"
    # the board is drawn in the seats' colours (its style allowed by the page's CSP nonce)
    fill = anna.evaluate("() => getComputedStyle(document.querySelector("
                         "'#online-table .territory.s1 .land')).fill")
    assert fill == "rgb(214, 40, 40)"
    # each seat sees its own objective only
    assert anna.inner_text("#ot-objective") != bruno.inner_text("#ot-objective")
    reloaded = False
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        if _root(anna).get("status") == "over":
            break
        acted = False
        for pg in (anna, bruno):
            if _my_turn(pg):
                d = _root(pg)
                if not reloaded and pg is anna and d["phase"] == "reinforce":
                    before = anna.inner_text("#ot-objective")
                    anna.reload()  # mid-turn: the view comes back from the server
                    anna.wait_for_function(
                        "() => document.getElementById('online-table').dataset.phase === "
                        "'reinforce'", timeout=20000)
                    assert anna.inner_text("#ot-objective") == before
                    assert _my_turn(anna)
                    reloaded = True
                _play_one(pg)
                acted = True
        if not acted:
            time.sleep(0.1)
    assert reloaded
    anna.wait_for_selector("#ot-result:not([hidden])", timeout=30000)
    _db(table.refresh_from_db)
    assert table.status == "over"
    game = _db(lambda: services.game_of(table))
    assert game.outcome is not None and game.last_round == 2  # called in round 1
    assert game.closing_rolls, "the game reached the closing dice"
    # the humans' actions came through the pages, each applied once
    for seat in (1, 2):
        ids = _db(lambda seat=seat: list(TableEvent.objects.filter(
            table=table, actor=f"seat:{seat}").values_list("client_id", flat=True)))
        assert ids and len(ids) == len(set(ids))
    assert table.seed in anna.inner_text("#ot-seed")  # revealed at the end
    assert errors == []


def test_a_seat_times_out_on_the_turn_clock(server: AsgiServer, chromium: Any) -> None:
    table = services.create_table(
        name="Clock", seats=3, bots={2: "random", 3: "random"}, who="test",
        settings={"clock_seconds": 3, "warning_seconds": 1, "bot_delay_ms": 0})
    errors: list[str] = []
    anna = _page(chromium, errors)
    _join(anna, f"{server.url}/online/t/{table.code}/", "Anna")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the initial placement has no clock
        d = _root(anna)
        if d.get("phase") not in ("setup", None, "") and d.get("round") == "1":
            break
        if _my_turn(anna):
            _play_one(anna)
        else:
            time.sleep(0.1)
    anna.wait_for_function("() => document.getElementById('online-table').dataset.toAct === "
                           "'1' && document.getElementById('online-table').dataset.phase "
                           "=== 'reinforce'", timeout=30000)
    assert ":" in anna.inner_text("#ot-clock")  # the clock shows minutes:seconds
    # Anna does nothing: the server ends her turn at the limit (R11)
    anna.wait_for_function("() => document.getElementById('online-table').dataset.toAct !== "
                           "'1'", timeout=20000)
    # said in the page's language (the record line stays "R timeout")
    assert "tempo scaduto per Anna: il turno passa" in anna.inner_text("#ot-log")
    timeouts = _db(lambda: TableEvent.objects.filter(
        table=table, actor="clock", text__startswith="R timeout").count())
    assert timeouts >= 1
    assert errors == []


def test_an_online_evening_ends_with_its_result_in_the_standings(server: AsgiServer,
                                                                 chromium: Any) -> None:
    """Three members sit down at their tournament table in three browsers (logged in), play
    the initial placement, and the referee, in a fourth, ends the game from the table's
    referee panel (R2, with a reason): the result is entered as a scored sheet, and the
    tournament's public standings page shows each of them with one game played."""
    from django.contrib.auth.models import Group, User
    from django.test import Client

    from risiko.web import selectors
    from risiko.web import services as club
    from risiko.web.online.models import Member

    names = ["Alba", "Bice", "Ciro"]

    def setup() -> tuple[Any, Any, dict[str, str], str]:
        t = club.create_tournament("Serata online", who="t")
        club.add_players(t, names, who="t")
        ev = club.open_evening(t, "2027-03-02", who="t")
        club.set_tables(ev, [names], who="t")
        (table,) = services.open_evening(ev, who="arbitro", settings={"clock_seconds": 0})
        cookies = {}
        for n in names:
            user = User.objects.create_user(n.lower(), password="x")
            Member.objects.create(user=user, player=club.entry_player(t, n))
            cookies[n] = _session(user)
        ref = User.objects.create_user("arbitro", password="x")
        ref.groups.add(Group.objects.get_or_create(name="referee")[0])
        return t, table, cookies, _session(ref)

    def _session(user: Any) -> str:
        c = Client()
        c.force_login(user)
        return str(c.cookies["sessionid"].value)

    t, table, cookies, ref_cookie = _db(setup)
    url = f"{server.url}/online/t/{table.code}/"
    errors: list[str] = []
    pages = {}
    import datetime as dt
    import zoneinfo
    from unittest import mock

    # taking the seat is the arrival: on the evening, on time (R3; the server runs in this
    # process, so its club clock is the one stopped here)
    evening_time = dt.datetime(2027, 3, 2, 21, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Rome"))
    with mock.patch("risiko.web.online.services.evenings.club_now", return_value=evening_time):
        for n in names:
            pg = _page(chromium, errors)
            pg.context.add_cookies([{"name": "sessionid", "value": cookies[n],
                                     "url": server.url}])
            pg.goto(url)
            pg.click("button[value=member]")
            pg.wait_for_selector("#online-table[data-seat]")
            pages[n] = pg
    for pg in pages.values():
        pg.wait_for_function("() => document.getElementById('online-table').dataset.status "
                             "=== 'playing'", timeout=20000)
    acted = 0
    deadline = time.monotonic() + 120
    while acted < 12 and time.monotonic() < deadline:  # some of the initial placement
        for pg in pages.values():
            if _my_turn(pg):
                _play_one(pg)
                acted += 1
        time.sleep(0.05)
    assert acted >= 12
    ref = _page(chromium, errors)
    ref.context.add_cookies([{"name": "sessionid", "value": ref_cookie, "url": server.url}])
    ref.goto(url)
    ref.wait_for_selector("#ot-referee:not([hidden])")
    ref.fill("#ot-ref-reason", "fine della serata")
    ref.click("#ot-referee button[data-command=end_game]")
    for pg in pages.values():
        pg.wait_for_selector("#ot-result:not([hidden])", timeout=30000)
    standings = _db(lambda: selectors.standings(t))
    assert all(standings.row(n).games == 1 for n in names)
    public = pages["Alba"]
    public.goto(f"{server.url}/t/{t.slug}/")
    for n in names:  # #, Pts, GP, R!, Best, Pen. (the player is the row's header)
        cells = public.locator("table.standings tbody tr", has_text=n).locator(
            "td").all_inner_texts()
        assert cells[2] == "1", cells  # one game played
        assert cells[4] == str(standings.row(n).best), cells  # its table score
    assert errors == []


def test_a_phone_plays_a_turn_in_italian_on_a_zoomed_map(server: AsgiServer,
                                                         chromium: Any) -> None:
    """Issue 20 item 8, at 390 px (and 360 px): the table page is no wider than the screen
    (the secret link breaks), the map zooms to 4x inside its box, where every territory is a
    target a thumb can hit, a tap places the armies, and the log says it in Italian: the
    player by name, the territory as the board writes it (no underscore)."""
    import re

    table = services.create_table(name="Telefono", seats=3, bots={2: "random", 3: "random"},
                                  who="test", settings={"clock_seconds": 0,
                                                        "bot_delay_ms": 0})
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True, locale="it-IT")
    pg = context.new_page()
    pg.on("pageerror", lambda err: errors.append(str(err)))
    _join(pg, f"{server.url}/online/t/{table.code}/", "Anna")
    pg.wait_for_function("() => document.getElementById('online-table').dataset.status "
                         "=== 'playing'", timeout=20000)
    width = "() => document.documentElement.scrollWidth"
    assert pg.evaluate(width) <= 390
    pg.set_viewport_size({"width": 360, "height": 780})
    assert pg.evaluate(width) <= 360  # the page fits 360 px: the secret link breaks
    assert pg.locator(".secret a").is_visible()
    # the map: four taps on + make it 4x its box, which scrolls; every territory is then at
    # least 40 px on each side (a thumb; the smallest is 10.75 px at 1x, 344 px wide), the
    # zoom buttons 44 px
    for _ in range(5):  # the fifth stays at the most
        pg.tap("#ot-zoom-in")
    assert pg.inner_text("#ot-zoom-level") == "4×"
    assert pg.evaluate(width) <= 360  # the map scrolls in its own box, not the page
    smallest = pg.evaluate("""() => Math.min(...[...document.querySelectorAll(
        '#ot-map .territory .land')].map(el => { const r = el.getBoundingClientRect();
        return Math.min(r.width, r.height); }))""")
    assert smallest >= 40, smallest
    box = pg.locator("#ot-zoom-in").bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    # Anna's turn of the initial placement: a tap on one of her territories places them
    deadline = time.monotonic() + 60
    while not _my_turn(pg) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _my_turn(pg)
    d = _root(pg)
    pending = pg.inner_text("#ot-pending")
    mine = pg.locator(f'#online-table .territory[data-owner="{d["seat"]}"]').first
    name = mine.get_attribute("data-name")
    mine.scroll_into_view_if_needed()
    mine.tap()
    pg.wait_for_function(f"() => document.getElementById('online-table').dataset.seq !== "
                         f"'{d['seq']}'", timeout=20000)
    # read at once: the bots keep playing and the list is drawn again with each event
    said = pg.evaluate("() => [...document.querySelectorAll('#ot-log li')]"
                       ".map(li => li.textContent)")
    mine_said = [s for s in said if s.startswith("Anna piazza")]
    assert mine_said and mine_said[-1] == f"Anna piazza {pending} su {name}", said[:5]
    assert not any("_" in s for s in said), said  # no record line, no Medio_Oriente
    assert re.search(r"partita comincia", "\n".join(said))
    assert pg.evaluate(width) <= 360
    # the lobby in the site's look: the table as a card with its state in Italian, the
    # bots' names in Italian, nothing wider than the screen
    pg.goto(f"{server.url}/online/")
    card = pg.locator(".online-lobby .cards .card", has_text="Telefono")
    assert card.locator(".badge").inner_text() == "in gioco"
    assert "3 posti" in card.inner_text()
    assert pg.evaluate(width) <= 360
    assert _db(lambda: [s.name for s in table.seat_set.order_by("position")]) == [
        "Anna", "Bot Bice (livello 1)", "Bot Carlo (livello 1)"]
    assert errors == []
    context.close()


def test_a_phone_leaves_the_table_in_italian_after_a_confirmation(server: AsgiServer,
                                                                   chromium: Any) -> None:
    """The "leave the table" button at 390 px, in Italian: a 44 px target; a tap asks
    first (what leaving does at this casual table in play with bots for the absent: one
    plays for her), "No" sends nothing; "Yes" sends ``leave``, the server's ``bye`` makes
    the page say she left and offer the lobby (a 44 px link), a bot stands in for her."""
    table = services.create_table(name="Uscita", seats=3, bots={2: "random", 3: "random"},
                                  who="test", settings={"clock_seconds": 0,
                                                        "bot_delay_ms": 200})
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True, locale="it-IT")
    pg = context.new_page()
    pg.on("pageerror", lambda err: errors.append(str(err)))
    _join(pg, f"{server.url}/online/t/{table.code}/", "Anna")
    pg.wait_for_function("() => document.getElementById('online-table').dataset.status "
                         "=== 'playing'", timeout=20000)
    ask = pg.locator("#ot-leave-ask")
    ask.wait_for(state="visible")
    assert ask.inner_text() == "Lascia il tavolo"
    box = ask.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    assert pg.locator("#ot-leave-confirm").is_hidden()
    ask.tap()
    assert pg.inner_text("#ot-leave-question") == (
        "Lasciare il tavolo? Un bot gioca per te finché non torni.")
    for button, words in (("#ot-leave-yes", "Sì, lascio il tavolo"), ("#ot-leave-no", "No, resto")):
        assert pg.inner_text(button) == words
        b = pg.locator(button).bounding_box()
        assert b is not None and b["width"] >= 44 and b["height"] >= 44
    pg.tap("#ot-leave-no")  # nothing sent: she stays
    assert pg.locator("#ot-leave-confirm").is_hidden() and ask.is_visible()
    time.sleep(0.5)
    anna = lambda: table.seat_set.get(position=1)  # noqa: E731
    assert not _db(lambda: anna().stand_in) and _root(pg).get("left") is None
    ask.tap()
    pg.tap("#ot-leave-yes")
    pg.wait_for_selector("#ot-left", state="visible", timeout=20000)
    assert pg.inner_text("#ot-left p:first-child") == "Hai lasciato il tavolo."
    link = pg.locator("#ot-left a")
    assert link.inner_text() == "Torna ai tavoli online"
    assert link.get_attribute("href") == "/online/"
    b = link.bounding_box()
    assert b is not None and b["height"] >= 44
    assert pg.locator("#ot-leave").is_hidden() and pg.locator("#ot-controls").is_hidden()
    assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
    deadline = time.monotonic() + 20
    while not _db(lambda: anna().stand_in) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _db(lambda: anna().stand_in)  # a bot plays for her
    time.sleep(1.5)  # no reconnection after bye: the page stays as it is
    assert pg.locator("#ot-left").is_visible() and pg.inner_text("#ot-conn") == ""
    link.tap()
    pg.wait_for_url(f"{server.url}/online/")
    assert errors == []
    context.close()


def test_a_logged_in_player_sits_as_himself_without_a_guest_name(server: AsgiServer,
                                                                 chromium: Any) -> None:
    """A referee trying level-5 bots on his phone: at a casual table in the lobby, the
    button "Siediti come marco" shares its form with the guest's name, which is required;
    without ``formnovalidate`` the browser refused the tap ("fill out this field") and he
    could only sit as a guest. The tap sits him by his login; his seat is the last person's
    seat, so the game starts with him to place first (3 seats: 35 armies each, 14 already
    one per territory, 3 per turn of the initial placement)."""
    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.test import Client

    user = User.objects.create_user("marco", password="x")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    client = Client()
    client.force_login(user)
    table = services.create_table(name="Livello 5", seats=3, bots={2: "random", 3: "random"},
                                  who="marco", settings={"clock_seconds": 0,
                                                         "bot_delay_ms": 0})
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True, locale="it-IT")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": server.url,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    pg = context.new_page()
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.goto(f"{server.url}/online/t/{table.code}/")
    button = pg.locator("button[value=member]")
    assert button.inner_text() == "Siediti come marco"
    assert pg.input_value("input[name=guest_name]") == ""
    with pg.expect_navigation():
        button.tap()
    pg.wait_for_selector("#online-table[data-seat]")
    pg.wait_for_function("() => document.getElementById('online-table').dataset.status "
                         "=== 'playing'", timeout=20000)
    assert _root(pg)["seat"] == "1"
    assert _db(lambda: [s.name for s in table.seat_set.order_by("position")]) == [
        "marco", "Bot Bice (livello 1)", "Bot Carlo (livello 1)"]
    assert _db(lambda: table.seat_set.get(position=1).user_id) == user.pk
    assert errors == []
    context.close()
