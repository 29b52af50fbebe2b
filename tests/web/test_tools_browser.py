"""The board entry in a real browser (Debian's Chromium driven by Playwright): a referee taps
the territories of each seat, types armies, picks the objectives, sees the live score and
saves; the closing dice page closes a game. Skipped when Playwright or Chromium is missing.
"""

from __future__ import annotations

import os

import pytest
from browser_kit import browser_marks, launch
from django.contrib.auth.models import Group, User

from risiko.web import services
from risiko.web.results.models import TableResult

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = browser_marks()

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
WHO = "arbitro"
PASSWORD = "tavolo-rosso-42"


@pytest.fixture
def page(live_server, settings):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user(WHO, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    t = services.create_tournament("Torneo browser", who=WHO)
    services.add_players(t, PLAYERS, who=WHO)
    e = services.open_evening(t, "2027-03-02", who=WHO)
    services.set_tables(e, [PLAYERS], who=WHO)
    with playwright.sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                      is_mobile=True)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda err: errors.append(str(err)))
        pg.goto(live_server.url + "/login/")
        pg.fill("input[name=username]", WHO)
        pg.fill("input[name=password]", PASSWORD)
        pg.click("main button[type=submit]")
        pg.wait_for_load_state()
        pg.base = live_server.url + "/strumenti/tavolo/torneo-browser/2027-03-02/1/"
        yield pg
        assert errors == []
        browser.close()


def test_a_referee_enters_a_table_by_tapping_the_board(page):
    page.goto(page.base + "tabellone/")
    split = {1: range(0, 11), 2: range(11, 22), 3: range(22, 32), 4: range(32, 42)}
    objectives = {1: "13", 2: "7", 3: "9", 4: "3"}
    for seat, territories in split.items():
        page.tap(f'[data-seat="{seat}"]')
        for t in territories:
            page.tap(f"#territory-{t}", force=True)
        page.select_option("#panel-objective", objectives[seat])
    page.tap('[data-seat="1"]')
    page.tap("#territory-0", force=True)
    page.fill("#editor-armies", "130")
    page.wait_for_selector("#board-scores [data-complete='1']")
    # every territory was owned before the armies were typed: wait for the scores of 130
    page.wait_for_function(
        "document.querySelector('#board-scores tbody tr')?.innerText.includes('-7')")
    scores = page.inner_text("#board-scores")
    assert "42 territori su 42" in scores and "-7" in scores  # 130 + 10 armies > 120 (R5)
    # Anna: Nord America (9, in objective 13) + Venezuela, Perù: 9 x 4 + 22 + 2 = 60, -7
    assert page.locator("#board-scores tbody tr").first.inner_text().split("\t")[1] == "53"
    assert page.get_attribute("#territory-0", "data-owner") == "1"
    page.click("#board-save button[type=submit]")
    page.wait_for_selector(".messages")
    result = TableResult.objects.get()
    assert result.sheet["seats"][0]["armies"]["Alaska"] == 130
    assert [s["objective"] for s in result.sheet["seats"]] == [13, 7, 9, 3]


def test_the_closing_dice_close_a_game(page):
    page.goto(page.base + "chiusura/")
    assert "Turno di Dario" in page.inner_text(".turn-of")  # the last seat starts (R2)
    page.click('button[name=total][value="4"]')
    assert "Partita finita" in page.inner_text(".closing-status")
