"""A whole evening in a real browser (Debian's Chromium driven by Playwright), through the UI
only: the issue's browser test.

The database starts empty but for one referee (group ``referee``). In the browser he logs in
at /login/, creates the tournament and its 10 players in the console (/arbitro/), opens an
evening, checks the players in (eight at 21:05, Marta at 21:15: late, 3 penalty turns; Nico
at 21:25 having phoned by 21:10: late too, R3), seats two tables with the optimiser, enters
table 1 by tapping the SVG board of the referee tools (seat by seat: territories, armies,
objective; then save) and table 2 by typing the scores in the console. Meanwhile a visitor
(another browser context, not logged in) has the public standings open: the htmx poll shows
the new order without a reload, and a fresh load shows it too.

Nothing is read from or written to the database by the test after the referee is created:
every expected figure below is worked out by hand from the inputs. A second test checks the
check-in's search box on a phone and on a laptop. Skipped when Playwright or Chromium is
missing.
"""

from __future__ import annotations

import os
import re

import pytest
from browser_kit import browser_marks, launch
from django.contrib.auth.models import Group, User

playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect
pytestmark = browser_marks()

WHO = "arbitro"
PASSWORD = "tavolo-rosso-42"
TOURNAMENT = "Torneo di primavera"
SLUG = "torneo-di-primavera"
DATE = "2027-03-02"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Luca", "Marta",
           "Nico"]
# R3: on time until 21:10; 21:11-21:20 late (3 turns without reinforcements, moves or
# attacks); a notice phoned by 21:10 admits up to 21:30, still with the 3 turns.
ARRIVALS = {name: ("21:05", False) for name in PLAYERS}
ARRIVALS["Marta"] = ("21:15", False)
ARRIVALS["Nico"] = ("21:25", True)
SEED = "primavera"
# The optimiser with this seed (no earlier evening, so no repeat opponents to avoid).
TABLE_1 = ["Luca", "Dario", "Giulia", "Elena", "Carla"]
TABLE_2 = ["Nico", "Bruno", "Marta", "Anna", "Fabio"]

# Table 1, entered on the board: per seat its territories, the armies typed for some of them
# (the others keep the 1 army a tap puts), its objective. Scores by R15/R16 (4 points per
# territory in the objective, 1 outside; a whole continent in the objective 2.5 x its
# territories rounded down, outside 1 x; base capped at 100, R1) and R5 (-7 over 120 armies):
#   Luca   Nord America (9), obj. 13 Guerra Fredda (Nord America, Asia):
#          9 x 4 + floor(2.5 x 9) = 36 + 22                                         = 58
#   Dario  Sud America (4) + Africa (6), obj. 7 AAA (Sud America, Africa, Asia):
#          10 x 4 + floor(2.5 x 4) + floor(2.5 x 6) = 40 + 10 + 15                   = 65
#   Giulia Europa (7), obj. 9 Eurasia (Europa, Asia, Indonesia): 7 x 4 + floor(17.5)
#          = 28 + 17 = 45; armies 119 + 6 x 1 = 125 > 120: -7 (R5)                   = 38
#   Elena  Urali, Siberia, Jacuzia, Cita, Kamchatka, Giappone, Mongolia, Cina (8),
#          obj. 3 Ciclista (Europa, Africa, Oceania + Urali, Afghanistan, Medio Oriente,
#          India, Siam): Urali 4 + 7 x 1, no whole continent                        = 11
#   Carla  Afghanistan, Medio Oriente, India, Siam + Oceania (4), obj. 6 Formula 1
#          (Sud America, Europa, Oceania + ... Afghanistan, Medio Oriente, India, Siam):
#          8 x 4 + floor(2.5 x 4) = 32 + 10 (Asia is not whole)                      = 42
BOARD = {
    "Luca": (["Alaska", "Territori del Nord Ovest", "Groenlandia", "Alberta", "Ontario",
              "Quebec", "Stati Uniti Occidentali", "Stati Uniti Orientali",
              "America Centrale"], {"Alaska": 12, "Quebec": 7}, "13"),
    "Dario": (["Venezuela", "Perù", "Brasile", "Argentina", "Africa del Nord", "Egitto",
               "Africa Orientale", "Congo", "Africa del Sud", "Madagascar"],
              {"Brasile": 20, "Egitto": 9}, "7"),
    "Giulia": (["Islanda", "Gran Bretagna", "Scandinavia", "Europa Settentrionale",
                "Europa Occidentale", "Europa Meridionale", "Ucraina"],
               {"Ucraina": 119}, "9"),
    "Elena": (["Urali", "Siberia", "Jacuzia", "Cita", "Kamchatka", "Giappone", "Mongolia",
               "Cina"], {"Cina": 15}, "3"),
    "Carla": (["Afghanistan", "Medio Oriente", "India", "Siam", "Indonesia", "Nuova Guinea",
               "Australia Occidentale", "Australia Orientale"], {"Siam": 4}, "6"),
}
BOARD_SCORES = {"Luca": 58, "Dario": 65, "Giulia": 38, "Elena": 11, "Carla": 42}
BOARD_ARMIES = {"Luca": 7 + 12 + 7, "Dario": 8 + 20 + 9, "Giulia": 6 + 119, "Elena": 7 + 15,
                "Carla": 7 + 4}

# Table 2, typed in the console: Anna completed her objective (RisiKo!, 100 by R1); Nico left
# the game (R13: 0 at the table and -25 in the ranking).
SCORES = {"Nico": 0, "Bruno": 58, "Marta": 30, "Anna": 100, "Fabio": 20}

# The general ranking after the evening (club-milano tie-breaks: points, RisiKo!, best table
# score, fewer ranking penalty points; still equal = shared position, listed by name).
# Bruno and Luca: 58 points, no RisiKo!, best 58, no penalty: both 3rd, then 5th.
# (rank, player, points, games, RisiKo!, best, ranking penalties)
EXPECTED = [
    ("1", "Anna", "100", "1", "1", "100", "0"),
    ("2", "Dario", "65", "1", "0", "65", "0"),
    ("3", "Bruno", "58", "1", "0", "58", "0"),
    ("3", "Luca", "58", "1", "0", "58", "0"),
    ("5", "Carla", "42", "1", "0", "42", "0"),
    ("6", "Giulia", "38", "1", "0", "38", "0"),
    ("7", "Marta", "30", "1", "0", "30", "0"),
    ("8", "Fabio", "20", "1", "0", "20", "0"),
    ("9", "Elena", "11", "1", "0", "11", "0"),
    ("10", "Nico", "-25", "1", "0", "0", "-25"),
]
EXPECTED_AFTER_TABLE_1 = [
    ("1", "Dario", "65"), ("2", "Luca", "58"), ("3", "Carla", "42"), ("4", "Giulia", "38"),
    ("5", "Elena", "11"),
]


@pytest.fixture
def browser(live_server, settings):
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop + the ORM
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user(WHO, password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    with playwright.sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


def new_page(browser, errors: list[str], **options):
    context = browser.new_context(locale="it-IT", timezone_id="Europe/Rome", **options)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}"))
    return page


def standings_rows(page, columns: int = 7) -> list[tuple[str, ...]]:
    rows = page.locator("#standings-live tbody tr")
    return [tuple(cell.strip() for cell in text.split("\t"))[:columns]
            for text in rows.all_inner_texts()]


def territory(page, name: str):
    """A territory of the board: a button named after it (then " — player, armies")."""
    return page.get_by_role("button", name=re.compile("^" + re.escape(name) + "( —|$)"))


def test_a_referee_runs_an_evening_and_the_public_standings_follow(browser, live_server):
    errors: list[str] = []
    url = live_server.url
    page = new_page(browser, errors, viewport={"width": 1280, "height": 900})

    # Log in.
    page.goto(url + "/login/")
    page.get_by_label("Nome utente").fill(WHO)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Accedi").click()
    expect(page.get_by_role("button", name=f"Esci ({WHO})")).to_be_visible()

    # The console: a new tournament with its players.
    page.get_by_role("link", name="Console arbitro").first.click()
    expect(page.get_by_role("heading", name="Console arbitro", level=1)).to_be_visible()
    page.get_by_label("Nome:").fill(TOURNAMENT)
    page.get_by_label("Giocatori (uno per riga):").fill("\n".join(PLAYERS))
    page.get_by_role("button", name="Crea il torneo").click()
    expect(page.get_by_role("heading", name=TOURNAMENT, level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="10 giocatori")).to_be_visible()

    # Open the evening: the check-in opens.
    page.get_by_label("Data:").fill(DATE)
    page.get_by_role("button", name="Apri la serata").click()
    expect(page.get_by_role("heading", name=re.compile("^Arrivi"), level=1)).to_be_visible()
    counts = page.locator("#checkin-counts")
    expect(counts).to_contain_text("non arrivati: 10")

    # Check-in: each row answers through htmx (no reload) with its R3 class.
    rows = page.locator("#checkin > li")
    expect(rows).to_have_count(10)
    for name, (at, phoned) in ARRIVALS.items():
        row = rows.filter(has=page.get_by_text(name, exact=True))
        row.get_by_label("Arrivo").fill(at)
        if phoned:
            row.get_by_label("Ha telefonato").check()
        row.get_by_role("button", name="Arrivo").click()
        expect(row.get_by_role("button", name="Correggi")).to_be_visible()  # swapped
        status = row.locator(".status")
        if name in ("Marta", "Nico"):
            expect(status).to_contain_text("in ritardo · 3 turni di penalità")
        else:
            expect(status).to_contain_text("in orario")
            expect(status).not_to_contain_text("penalità")
        expect(status).to_contain_text(at)
    expect(rows.filter(has=page.get_by_text("Nico", exact=True)).locator(".status")) \
        .to_contain_text("telefonato")
    expect(counts).to_contain_text("in orario: 8")
    expect(counts).to_contain_text("in ritardo: 2")
    expect(counts).to_contain_text("escluso: 0")
    expect(counts).to_contain_text("non arrivati: 0")

    # Seat two tables with the optimiser.
    page.get_by_role("link", name="Forma i tavoli").click()
    expect(page.get_by_text("Ammessi ma senza tavolo")).to_contain_text(", ".join(PLAYERS))
    page.get_by_label("Seme (facoltativo)").fill(SEED)
    page.get_by_role("button", name="Forma i tavoli").click()
    expect(page.get_by_text("Tavoli formati: 2.")).to_be_visible()
    tables = page.locator("section.game-table")
    expect(tables).to_have_count(2)
    for i, seats in enumerate([TABLE_1, TABLE_2]):
        items = tables.nth(i).get_by_role("listitem")
        expect(items).to_have_count(5)
        for j, name in enumerate(seats):
            expect(items.nth(j)).to_contain_text(name)
            if name in ("Marta", "Nico"):
                expect(items.nth(j)).to_contain_text("3 turni di penalità")
    expect(page.get_by_text("Ammessi ma senza tavolo")).to_have_count(0)

    # Table 1 on the board: from the console's table page to the tools' board entry.
    page.get_by_role("link", name="Tavolo 1").first.click()
    expect(page.get_by_role("heading", name=re.compile("^Tavolo 1"), level=1)).to_be_visible()
    page.get_by_role("link", name="Inserisci il risultato sulla plancia").click()
    expect(page.get_by_role("heading", name="Fine partita: il tabellone")).to_be_visible()
    scores_box = page.locator("#board-scores")
    for name, (names, armies, objective) in BOARD.items():
        seat = page.get_by_role("button", name=re.compile(rf"^{name} \d+$"))
        seat.click()
        expect(seat).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#panel-player")).to_have_text(name)
        for t in names:
            territory(page, t).click()
            expect(territory(page, t)).to_have_accessible_name(f"{t} — {name}, 1")
            if t in armies:  # the box under the map edits the territory just tapped
                page.get_by_label("Armate", exact=True).fill(str(armies[t]))
                expect(territory(page, t)).to_have_accessible_name(
                    f"{t} — {name}, {armies[t]}")
        expect(seat).to_have_accessible_name(f"{name} {len(names)}")
        page.get_by_label("Obiettivo").select_option(objective)
    expect(scores_box).to_contain_text("42 territori su 42 inseriti")
    expect(scores_box).to_contain_text("completo: pronto da salvare")
    score_rows = scores_box.locator("tbody tr")
    for i, name in enumerate(BOARD):
        cells = score_rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(name)
        expect(cells.nth(1)).to_have_text(str(BOARD_SCORES[name]))
        expect(cells.nth(6)).to_have_text(str(BOARD_ARMIES[name]))
    expect(score_rows.nth(2).locator("td").nth(3)).to_have_text("-7")  # Giulia, R5
    page.get_by_role("button", name="Salva il risultato").click()
    expect(page.get_by_text("Tavolo 1: risultato salvato.")).to_be_visible()

    # The visitor opens the public standings: table 1 is in, table 2 is not yet.
    visitor = new_page(browser, errors, viewport={"width": 390, "height": 844},
                       is_mobile=True, has_touch=True)
    visitor.goto(url + "/classifica/")
    expect(visitor.get_by_role("heading", name="Classifica generale")).to_be_visible()
    expect(visitor.get_by_role("link", name="Console arbitro")).to_have_count(0)
    assert [r[:3] for r in standings_rows(visitor)] == EXPECTED_AFTER_TABLE_1
    expect(visitor.get_by_text("tavolo 2: risultato non ancora inserito")).to_be_visible()

    # Back in the console (the board page links to the tools, not to the console's table):
    # the tournament, the evening's tables, table 1 with the sheet's scores.
    page.get_by_role("link", name="Console arbitro").first.click()
    page.get_by_role("link", name=TOURNAMENT).click()
    page.get_by_role("listitem").filter(has_text="2 Marzo 2027") \
        .get_by_role("link", name="Tavoli").click()
    page.locator("section.game-table").first.get_by_role("link", name="Tavolo 1").click()
    result = page.locator("#result")
    expect(result).to_contain_text("Dalla scheda di fine partita")
    for i, name in enumerate(TABLE_1):
        cells = result.locator("table.breakdown").first.locator("tbody tr").nth(i).locator("td")
        expect(cells.nth(1)).to_have_text(name)
        expect(cells.nth(4)).to_have_text(str(BOARD_SCORES[name]))

    # Table 2 by typing the scores.
    page.get_by_role("link", name="Tavolo 2 →").click()
    expect(page.get_by_role("heading", name=re.compile("^Tavolo 2"), level=1)).to_be_visible()
    for name, points in SCORES.items():
        page.get_by_role("spinbutton", name=name, exact=True).fill(str(points))
    page.get_by_label("RisiKo! Anna").check()
    page.get_by_label("Ha abbandonato Nico").check()
    page.get_by_role("button", name="Salva i punteggi").click()
    result = page.locator("#result")
    expect(result).to_contain_text("Punteggi inseriti")
    expect(result.get_by_text("RisiKo!", exact=True)).to_be_visible()
    expect(result).to_contain_text("abbandonato")

    # The visitor's page updates by itself (htmx polls every 10 s) ...
    expect(visitor.locator("#standings-live tbody tr")).to_have_count(10, timeout=25_000)
    assert standings_rows(visitor) == EXPECTED
    # ... and a fresh load says the same, with nothing pending for the evening.
    visitor.reload()
    assert standings_rows(visitor) == EXPECTED
    expect(visitor.get_by_text("risultato non ancora inserito")).to_have_count(0)
    expect(visitor.get_by_text("Dopo 1 serata di qualificazione con risultati.")).to_be_visible()

    # The visitor opens the evening: both tables, the R13 penalty, the R3 arrivals.
    visitor.get_by_role("navigation", name="Pagine del torneo") \
        .get_by_role("link", name="Serate").click()
    visitor.get_by_role("link", name="2 Marzo 2027").click()
    expect(visitor.get_by_text("2 di 2 tavoli con un risultato.")).to_be_visible()
    expect(visitor.locator("main")).to_contain_text(
        "Nico: −25 punti classifica · ha abbandonato la partita al tavolo 2 (R13)")
    arrivals = visitor.get_by_role("table", name="Arrivi e loro classe secondo R3")
    for name in ("Marta", "Nico"):
        expect(arrivals.get_by_role("row").filter(has_text=name)).to_contain_text("in ritardo")
    expect(arrivals.get_by_role("row").filter(has_text="Anna")).to_contain_text("in orario")

    assert errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_the_checkin_search_box_filters_the_players(browser, live_server, width):
    """The search box above the check-in keeps only the matching rows, on a phone and on the
    laptop. (At 48rem and wider, console.css gives .checkin-row display:flex, which beats the
    hidden attribute the filter sets: every row stays visible.)"""
    from risiko.web import services

    t = services.create_tournament(TOURNAMENT, who=WHO)
    services.add_players(t, PLAYERS, who=WHO)
    services.open_evening(t, DATE, who=WHO)
    errors: list[str] = []
    page = new_page(browser, errors, viewport={"width": width, "height": 900})
    page.goto(live_server.url + f"/login/?next=/arbitro/t/{SLUG}/{DATE}/arrivi/")
    page.get_by_label("Nome utente").fill(WHO)
    page.get_by_label("Password").fill(PASSWORD)
    page.locator("main").get_by_role("button", name="Accedi").click()
    rows = page.locator("#checkin > li")
    expect(rows).to_have_count(10)
    page.get_by_placeholder("Cerca un giocatore").fill("ni")
    expect(rows.filter(visible=True)).to_have_count(1)
    expect(rows.filter(visible=True)).to_contain_text("Nico")
    page.get_by_placeholder("Cerca un giocatore").fill("")
    expect(rows.filter(visible=True)).to_have_count(10)
    assert errors == []
