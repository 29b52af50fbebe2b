"""Refusals reach the referee in Italian, in a real browser (Debian's Chromium driven by
Playwright): a refused arrival, seating, score sheet and penalty each show the fault's Italian
words (from the project's catalogues) next to the form, and nothing is saved.

The tournament, its players, the evening and its two tables are made through the services;
everything else goes through the console's pages. Each expected line is the Italian template
of the fault's code (``src/risiko/locale/it/LC_MESSAGES``) filled by hand. Skipped when
Playwright or Chromium is missing.
"""

from __future__ import annotations

import os

import pytest
from browser_kit import browser_marks, launch
from django.contrib.auth.models import Group, User

from risiko.web import services
from risiko.web.evenings.models import Arrival
from risiko.web.results.models import GameTable, Penalty, TableResult

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect
pytestmark = browser_marks()

WHO = "arbitro"
PASSWORD = "tavolo-rosso-42"
DATE = "2027-03-02"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ilia", "Lino", "Mara"]


@pytest.fixture
def evening(live_server, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user(WHO, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    t = services.create_tournament("Torneo d'autunno", who="setup")
    services.add_players(t, NAMES, who="setup")
    e = services.open_evening(t, DATE, who="setup")
    services.set_tables(e, [NAMES[:5], NAMES[5:]], who="setup")
    return t, e


@pytest.fixture
def page(evening, live_server):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    with playwright.sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(locale="it-IT", timezone_id="Europe/Rome")
        context.set_default_timeout(15_000)
        page = context.new_page()
        page.goto(live_server.url + "/login/")
        page.get_by_label("Nome utente").fill(WHO)
        page.get_by_label("Password").fill(PASSWORD)
        page.locator("main").get_by_role("button", name="Accedi").click()
        expect(page.get_by_role("button", name=f"Esci ({WHO})")).to_be_visible()
        yield page
        browser.close()


def test_refusals_are_said_in_italian_and_nothing_is_saved(page, evening, live_server):
    t, e = evening
    base = f"{live_server.url}/arbitro/t/{t.slug}/{DATE}/"

    # Arrival: a browser's time field sends 09:15 for a 9:15 typed in an evening field, a
    # morning time: refused with the evening time it most likely means.
    page.goto(base + "arrivi/")
    row = page.locator("#checkin > li").filter(has=page.get_by_text("Alba", exact=True))
    row.locator("input[name=at]").fill("09:15")
    row.locator("button[type=submit]").click()
    expect(row.locator(".errorlist")).to_contain_text(
        "'09:15' sarebbe un orario del mattino: intendevi 21:15?")
    expect(row.locator(".status")).to_contain_text("non ancora arrivato")

    # Seating by hand: Alba at both tables (tournament.seated_twice).
    page.goto(base + "tavoli/")
    page.get_by_role("heading", name="Tavoli a mano").click()  # opens its <details>
    form = page.locator("form").filter(has=page.locator("textarea[name=tables]"))
    form.locator("textarea[name=tables]").fill(
        "Alba, Bice, Ciro, Dora, Ezio\nFede, Gino, Ilia, Lino, Alba")
    form.locator("input[name=reason]").fill("prova")
    form.locator("button[type=submit]").click()
    expect(page.locator(".errorlist").first).to_contain_text("Alba è seduto due volte")

    # Scores typed for table 1: 130 is above the table's maximum of 100 (R1).
    page.goto(base + "tavolo/1/")
    scores = page.locator("form").filter(has=page.locator("input[name=score_1]"))
    for i, score in enumerate([130, 40, 12, 30, 20], start=1):
        scores.locator(f"input[name=score_{i}]").fill(str(score))
    scores.locator("button[type=submit]").click()
    expect(page.locator(".errorlist").first).to_contain_text(
        "tavolo 1: Alba ha 130 punti, più del massimo punteggio di tavolo di 100 (R1)")

    # A sheet for table 1 naming a territory that is not on the board.
    page.goto(base + "tavolo/1/")
    page.get_by_role("heading", name="Scheda di fine partita (JSON o CSV)").click()
    sheet = page.locator("form").filter(has=page.locator("textarea[name=text]"))
    sheet.locator("textarea[name=text]").fill(
        "player,objective,territory,armies\nAlba,1,Atlantide,3\n")
    sheet.locator("button[type=submit]").click()
    expect(page.locator(".errorlist").first).to_contain_text(
        "riga 2: Alba: territorio sconosciuto 'Atlantide'; forse: Islanda o Iceland")
    expect(page.locator(".errorlist").first).to_contain_text("1 posto: un tavolo ha da 2 a 6")

    # A penalty of +5 points: a penalty is negative points.
    page.goto(base + "sanzioni/")
    pen = page.locator("form").filter(has=page.locator("input[name=points]"))
    pen.locator("select[name=player]").select_option(label="Bice")
    pen.locator("input[name=points]").fill("5")
    pen.locator("input[name=reason]").fill("gioco lento")
    pen.locator("input[name=referee]").fill("R")
    pen.locator("button[type=submit]").click()
    expect(page.locator(".errorlist").first).to_contain_text(
        "penalità per Bice di 5 punti")

    # Nothing of it was saved: no arrival, no result, no penalty, the seating as it was.
    assert not Arrival.objects.filter(evening=e).exists()
    assert not TableResult.objects.filter(table__evening=e).exists()
    assert not Penalty.objects.filter(evening=e).exists()
    seated = [[s.player.name for s in tb.seats.current().order_by("position")]
              for tb in GameTable.objects.filter(evening=e).order_by("number")]
    assert seated == [NAMES[:5], NAMES[5:]]
