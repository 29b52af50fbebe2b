"""Two pages on a 375 px wide phone in a real browser (Debian's Chromium driven by
Playwright): the public evening page (examples/season-2027.json) and the replay of an online
table. Neither may scroll sideways (``document.documentElement.scrollWidth`` at most 375): a
table wider than the screen scrolls inside its own box; the evening's "Punteggio" column is
on screen; the replay's buttons show characters every font has, and say what they do.
Skipped when Playwright or Chromium is missing."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from browser_kit import browser_marks, launch
from django.contrib.auth.models import User

from risiko.web import services

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect
pytestmark = browser_marks()

SEASON = Path(__file__).resolve().parents[2] / "examples" / "season-2027.json"
DATE = "2027-03-02"
WIDTH = 375
PHONE = {"viewport": {"width": WIDTH, "height": 812}, "is_mobile": True, "has_touch": True}
#: characters any font draws: Latin-1 and the single guillemets
DRAWN = re.compile(r"[\x20-\x7e\xa0-\xff‹›]+")
#: the elements wider than the screen, to say which one makes the page scroll sideways
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
  .filter(e => !e.closest('.table-wrap') || e.classList.contains('table-wrap'))
  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' +
       String(e.className && e.className.baseVal === undefined ? e.className : '') + ' ' +
       Math.round(e.getBoundingClientRect().right))"""


@pytest.fixture
def browser(live_server, settings):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    settings.RISIKO_ONLINE_SCHEDULER = False
    User.objects.create_user("arbitro", password="tavolo-rosso-42")  # past the first run
    with playwright.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


def phone_page(browser, errors: list[str]):
    context = browser.new_context(locale="it-IT", timezone_id="Europe/Rome", **PHONE)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}"))
    return page


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, (width, "\n".join(page.evaluate(TOO_WIDE)))


def test_the_evening_page_on_a_phone(browser, live_server):
    t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")), who="test")
    errors: list[str] = []
    page = phone_page(browser, errors)
    page.goto(f"{live_server.url}/t/{t.slug}/serate/{DATE}/")
    no_sideways_scroll(page)
    for header in page.locator("table.seats").first.get_by_role("columnheader").all():
        expect(header).to_be_in_viewport(ratio=1)
    score = page.locator("table.seats").first.get_by_role("columnheader", name="Punteggio",
                                                           exact=True)
    expect(score).to_be_visible()
    box = score.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box
    assert errors == []


def _finished_online_table():
    from risiko.web.online import services as online

    table = online.create_table(name="Serata del giovedì sera al circolo", seats=4, who="test",
                                settings={"clock_seconds": 0})
    for name in ["Annamaria", "Bartolomeo", "Costantino", "Donatella"]:
        online.join(table.pk, guest_name=name)
    assert not online.referee(table.pk, online.Actor("referee", None, "arbitro"),
                              {"kind": "end_game", "reason": "fine della serata"}).faults
    table.refresh_from_db()
    assert table.status == "over"
    return table


def test_the_online_replay_on_a_phone(browser, live_server):
    table = _finished_online_table()
    errors: list[str] = []
    page = phone_page(browser, errors)
    page.goto(f"{live_server.url}/online/t/{table.code}/replay/")
    expect(page.locator("#rp-pos")).not_to_be_empty()
    no_sideways_scroll(page)
    buttons = page.locator(".replay-controls button")
    expect(buttons).to_have_count(6)
    for button in buttons.all():
        text = button.inner_text().strip()
        assert DRAWN.fullmatch(text), text  # no character the font may lack (an empty box)
        name = button.get_attribute("aria-label") or text
        assert len(name) > 2, name  # says what it does, not only an arrow
        expect(button).to_be_in_viewport(ratio=1)
    assert errors == []


@pytest.mark.parametrize("path", ["/arbitro/", "/classifica/"])
def test_a_logged_in_referees_navigation_fits_a_360_px_phone(browser, live_server, path):
    # issue 18 §3: the logged-in navigation no longer scrolls sideways; the console link and
    # the logout button are on screen without scrolling anything
    from django.contrib.auth.models import Group

    user = User.objects.get(username="arbitro")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    errors: list[str] = []
    context = browser.new_context(locale="it-IT", timezone_id="Europe/Rome",
                                  viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}"))
    page.goto(f"{live_server.url}/login/?next={path}")
    page.get_by_label("Nome utente").fill("arbitro")
    page.get_by_label("Password").fill("tavolo-rosso-42")
    page.locator("main").get_by_role("button", name="Accedi").click()
    page.wait_for_url(f"**{path}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, (width, "\n".join(page.evaluate(TOO_WIDE)))
    nav = page.locator("nav.site-nav")
    assert nav.evaluate("n => n.scrollWidth <= n.clientWidth")  # nothing hidden to the side
    for item in (nav.get_by_role("link", name="Console arbitro"),
                 nav.get_by_role("button", name="Esci (arbitro)")):
        expect(item).to_be_in_viewport(ratio=1)
        box = item.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert errors == []
