"""The main pages in a real browser (Debian's Chromium driven by Playwright) at desktop width
(1280 px) and phone width (390 px), on the example season (examples/season-2027.json).

Every page must answer 200 and run without a JavaScript error. With ``RISIKO_SCREENSHOTS=1``
the test also saves a full-page PNG of each one in docs/screenshots/ (listed in
docs/screenshots.md); without it no file is written:

    RISIKO_SCREENSHOTS=1 .venv/bin/pytest tests/web/test_browser_screenshots.py

Skipped when Playwright or Chromium is missing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from browser_kit import browser_marks, launch
from django.contrib.auth.models import Group, User

from risiko.web import services

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect
pytestmark = browser_marks()

ROOT = Path(__file__).resolve().parents[2]
SEASON = ROOT / "examples" / "season-2027.json"
OUT = ROOT / "docs" / "screenshots"
SAVE = os.environ.get("RISIKO_SCREENSHOTS") == "1"

WHO = "arbitro"
PASSWORD = "tavolo-rosso-42"
DATE = "2027-03-02"  # the first evening: table 1 was entered as an end-of-game sheet
PLAYER = "Ciro"  # the winner of the final

WIDTHS = {"desktop": {"viewport": {"width": 1280, "height": 800}},
          "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                    "has_touch": True}}

# (file name, path with {slug}, what must be on the page) - public pages, no login.
PUBLIC = [
    ("standings", "/classifica/", "#standings-live tbody tr"),
    ("finals", "/finali/", "main h1"),
    ("evening", "/t/{slug}/serate/" + DATE + "/", "main table"),
    ("player", "/t/{slug}/giocatori/" + PLAYER + "/", "main svg[role=img]"),
    ("regulation", "/regulation/", "#r18"),
]
# Logged in as a referee.
REFEREE = [
    ("console-checkin", "/arbitro/t/{slug}/" + DATE + "/arrivi/", "#checkin .checkin-row"),
    ("console-seating", "/arbitro/t/{slug}/" + DATE + "/tavoli/", "section.game-table"),
    ("console-table", "/arbitro/t/{slug}/" + DATE + "/tavolo/1/", "#result table.breakdown"),
    ("board-entry", "/strumenti/tavolo/{slug}/" + DATE + "/1/tabellone/",
     "#board-scores [data-complete='1']"),
    ("closing-dice", "/strumenti/tavolo/{slug}/" + DATE + "/1/chiusura/", ".closing-status"),
]


@pytest.fixture
def season(live_server, settings):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user(WHO, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    t = services.import_season(json.loads(SEASON.read_text(encoding="utf-8")), who="test")
    return t.slug


@pytest.fixture
def browser():
    with playwright.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


def visit(page, url: str, ready: str, shot: Path | None) -> int:
    """Load the page, wait for it, save its screenshot; return the page's width."""
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)
    assert page.url == url, f"{url} redirected to {page.url}"
    expect(page.locator(ready).first).to_be_visible()
    page.wait_for_load_state("networkidle")
    how = page.get_by_text("Come è stata calcolata la scheda")  # console table: open it
    if how.count():
        how.click()
    if shot is not None:
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot), full_page=True, animations="disabled")
    return int(page.evaluate("document.documentElement.scrollWidth"))


def console_error(msg, url: str, errors: list[str]) -> None:
    """A console error, but the browser's own request of /favicon.ico (the site has none)."""
    if msg.type == "error" and not msg.location.get("url", "").endswith("/favicon.ico"):
        errors.append(f"{url}: console: {msg.text} ({msg.location.get('url')})")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_main_pages_load_without_errors(browser, live_server, season, width):
    errors: list[str] = []

    def new_page():
        context = browser.new_context(locale="it-IT", timezone_id="Europe/Rome",
                                      **WIDTHS[width])
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}"))
        page.on("console", lambda msg: console_error(msg, page.url, errors))
        return page

    def shot(name: str) -> Path | None:
        return OUT / f"{name}-{width}.png" if SAVE else None

    viewport = WIDTHS[width]["viewport"]["width"]
    too_wide: list[str] = []  # a page wider than the screen scrolls sideways as a whole

    def check(page, name: str, path: str, ready: str) -> None:
        url = live_server.url + path.format(slug=season)
        if visit(page, url, ready, shot(name)) > viewport:
            too_wide.append(f"{path.format(slug=season)}: "
                            f"{page.evaluate('document.documentElement.scrollWidth')} px")

    visitor = new_page()
    for name, path, ready in PUBLIC:
        check(visitor, name, path, ready)

    referee = new_page()
    referee.goto(live_server.url + "/login/")
    referee.get_by_label("Nome utente").fill(WHO)
    referee.get_by_label("Password").fill(PASSWORD)
    referee.locator("main").get_by_role("button", name="Accedi").click()
    expect(referee.get_by_role("button", name=f"Esci ({WHO})")).to_be_visible()
    for name, path, ready in REFEREE:
        check(referee, name, path, ready)

    assert errors == []
    assert too_wide == [], f"wider than the {viewport} px screen"
