"""The public pages with Django's test client, for an anonymous visitor: standings (live
partial), evenings, players (chart), semifinal and final, home; read only; Italian by default
and English after the switch; 404s.

The small tournament below is built through the services; every number is worked out by
hand (club-milano: tie-breaks points, RisiKo!, best table score, fewer penalty points)::

    2027-03-02  table 1 (Alba, Bice, Ciro, Dora): Alba 100 RisiKo!, Bice 40 - 7 (table
                penalty R5) = 33, Ciro 30, Dora 20; Ciro -10 ranking points, reduced on
                appeal to -5
                table 2 (Ezio, Fede, Gino, Ivo): Ezio 55, Fede 33, Gino 35, Ivo left the
                game (R13: 0 and -25 ranking points)
                arrivals: Ciro 21:15 late (3 turns), Ivo 21:25 phoned: late, Lia 21:40
                excluded, the others 21:00
    2027-03-09  table 1 (Alba, Ezio, Gino, Dora): 30, 60, 50, 40
                table 2 (Bice, Ciro, Fede, Ivo): no result yet

    rank player points games RisiKo! best penalties
      1  Alba    130     2      1    100     0
      2  Ezio    115     2      0     60     0
      3  Gino     85     2      0     50     0
      4  Dora     60     2      0     40     0
      5  Bice     33     1      0     33     0     Bice and Fede equal on every tie-break:
      5  Fede     33     1      0     33     0     shared 5th place, listed by name
      7  Ciro     25     1      0     30    -5
      8  Ivo     -25     1      0      0   -25

After 2027-03-02 alone: Alba 100 (1st), Ezio 55, Gino 35, Bice = Fede 33 (4th), Ciro 25,
Dora 20, Ivo -25. When table 2 of 2027-03-09 gets Bice 70, Ciro 20, Fede 45, Ivo 25: Bice
103 is 3rd, Fede 78 5th, Ciro 45, Ivo 0.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from risiko.web import services
from risiko.web.public import data
from risiko.web.results.models import GameTable, TableResult
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WHO = "arbitro"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ivo", "Lia"]
SLUG = "torneo-di-prova"
STANDINGS = [
    # rank, player, points, games, risiko, best, penalties
    (1, "Alba", 130, 2, 1, 100, 0),
    (2, "Ezio", 115, 2, 0, 60, 0),
    (3, "Gino", 85, 2, 0, 50, 0),
    (4, "Dora", 60, 2, 0, 40, 0),
    (5, "Bice", 33, 1, 0, 33, 0),
    (5, "Fede", 33, 1, 0, 33, 0),
    (7, "Ciro", 25, 1, 0, 30, -5),
    (8, "Ivo", -25, 1, 0, 0, -25),
]


@pytest.fixture(autouse=True)
def _setup(db):
    """Past the first run (a user exists); nothing remembered from another test."""
    User.objects.create_user("arbitro", password="tavolo-rosso-42")
    data.clear_cache()
    yield
    data.clear_cache()


def build() -> Tournament:
    """The tournament of the module docstring."""
    t = services.create_tournament("Torneo di prova", who=WHO)
    services.add_players(t, NAMES, who=WHO)
    e1 = services.open_evening(t, "2027-03-02", who=WHO)
    for name, at, phoned in [("Alba", "21:00", False), ("Bice", "21:00", False),
                             ("Ciro", "21:15", False), ("Dora", "21:00", False),
                             ("Ezio", "21:00", False), ("Fede", "21:00", False),
                             ("Gino", "21:00", False), ("Ivo", "21:25", True),
                             ("Lia", "21:40", False)]:
        services.record_arrival(e1, name, at, phoned=phoned, who=WHO)
    t1, t2 = services.set_tables(e1, [["Alba", "Bice", "Ciro", "Dora"],
                                      ["Ezio", "Fede", "Gino", "Ivo"]], who=WHO)
    services.enter_scores(t1, {"Alba": 100, "Bice": 40, "Ciro": 30, "Dora": 20},
                          risiko=["Alba"], who=WHO)
    services.enter_scores(t2, {"Ezio": 55, "Fede": 33, "Gino": 35, "Ivo": 0},
                          abandoned=["Ivo"], who=WHO)
    services.add_penalty(e1, "Bice", -7, unit="table", table=t1, reason="R5: oltre 120 armate",
                         referee="Luca", who=WHO)
    pen = services.add_penalty(e1, "Ciro", -10, unit="ranking", reason="R10: comportamento",
                               referee="Luca", who=WHO)
    services.decide_appeal(pen, "reduced", points=-5, referee="Sara", who=WHO)
    e2 = services.open_evening(t, "2027-03-09", who=WHO)
    u1, _u2 = services.set_tables(e2, [["Alba", "Ezio", "Gino", "Dora"],
                                       ["Bice", "Ciro", "Fede", "Ivo"]], who=WHO)
    services.enter_scores(u1, {"Alba": 30, "Ezio": 60, "Gino": 50, "Dora": 40}, who=WHO)
    return t


def _second_table_result(t: Tournament) -> None:
    table = GameTable.objects.get(evening__tournament=t, evening__date="2027-03-09", number=2)
    services.enter_scores(table, {"Bice": 70, "Ciro": 20, "Fede": 45, "Ivo": 25}, who=WHO)


def _rows(html: str) -> list[tuple[int, str, int, int, int, int | None, int]]:
    """The standings rows of a page, as numbers."""
    body = html[html.index('<table class="standings">'):]
    body = body[:body.index("</table>")]
    out = []
    for tr in re.findall(r"<tr class=[^>]*>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>|†", "", c).strip()
                 for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        rank, player, points, games, risiko, best, pen = cells
        out.append((int(rank), player, int(points), int(games), int(risiko),
                    None if best == "–" else int(best), int(pen)))
    return out


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# ------------------------------------------------------------------------------ standings


def test_the_standings_of_the_current_tournament(client):
    build()
    for url in ("/classifica/", f"/t/{SLUG}/", "/"):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert _rows(html) == STANDINGS, url
        assert "Classifica generale" in html
        assert "Torneo di prova" in html
    html = client.get("/classifica/").content.decode()
    assert '<a href="/t/torneo-di-prova/giocatori/Alba/">Alba</a>' in html
    assert '<a href="/classifica/" aria-current="page">Classifica</a>' in html  # site nav
    assert '<a href="/serate/">Serate</a>' in html and '<a href="/giocatori/">Giocatori</a>' in html
    # the stages: 8 eligible players, the semifinal needs 10; a table waits for its result
    text = _text(html)
    assert "Semifinale: in classifica ci sono 8 giocatori ammissibili, la semifinale ne " \
           "richiede 10" in text
    assert "Serata del 9 Marzo 2027 (qualificazione), tavolo 2: risultato non ancora " \
           "inserito" in text


def test_the_page_polls_a_partial_that_swaps_only_the_table(client):
    t = build()
    html = client.get("/classifica/").content.decode()
    live = f"/t/{SLUG}/classifica/live/"
    assert (f'<div id="standings-live" class="live" hx-get="{live}" hx-trigger="every 10s" '
            'hx-swap="outerHTML">') in html
    partial = client.get(live, headers={"HX-Request": "true"})
    assert partial.status_code == 200
    part = partial.content.decode()
    assert part.lstrip().startswith('<div id="standings-live"')
    assert "<html" not in part and "<nav" not in part and "site-header" not in part
    assert _rows(part) == STANDINGS
    assert 'hx-trigger="every 10s"' in part  # keeps polling
    # a result comes in: the next poll shows it (nothing stale is served)
    _second_table_result(t)
    rows = _rows(client.get(live).content.decode())
    assert rows[:5] == [(1, "Alba", 130, 2, 1, 100, 0), (2, "Ezio", 115, 2, 0, 60, 0),
                        (3, "Bice", 103, 2, 0, 70, 0), (4, "Gino", 85, 2, 0, 50, 0),
                        (5, "Fede", 78, 2, 0, 45, 0)]
    assert rows[5:] == [(6, "Dora", 60, 2, 0, 40, 0), (7, "Ciro", 45, 2, 0, 30, -5),
                        (8, "Ivo", 0, 2, 0, 25, -25)]


def test_a_change_made_outside_the_services_is_shown_at_once(client,
                                                            django_capture_on_commit_callbacks):
    t = build()
    assert _rows(client.get(f"/t/{SLUG}/").content.decode())[0][2] == 130
    result = TableResult.objects.get(table__evening__date="2027-03-09", table__number=1,
                                     table__evening__tournament=t, superseded=False)
    result.scores = {"Alba": 10, "Ezio": 60, "Gino": 50, "Dora": 40}
    with django_capture_on_commit_callbacks(execute=True):
        result.save()  # a model saved in this process without the services
    rows = _rows(client.get(f"/t/{SLUG}/").content.decode())
    assert rows[0] == (1, "Ezio", 115, 2, 0, 60, 0)
    assert rows[1] == (2, "Alba", 110, 2, 1, 100, 0)


def test_home_lists_the_tournaments_when_none_or_several_are_current(client):
    html = client.get("/").content.decode()
    assert "Ancora nessun torneo." in html
    assert "Ancora nessun torneo." in client.get("/classifica/").content.decode()
    t = build()
    Tournament.objects.create(name="Torneo 2026", slug="torneo-2026", is_current=False)
    html = client.get("/").content.decode()
    assert _rows(html) == STANDINGS  # one current tournament: its standings
    assert '<a href="/t/torneo-2026/"><strong>Torneo 2026</strong></a>' in html
    assert html.count("in corso") == 1
    Tournament.objects.create(name="Torneo 2028", slug="torneo-2028")
    html = client.get("/").content.decode()  # two current: the list
    assert '<table class="standings">' not in html
    assert html.index("Torneo 2028") < html.index("Torneo 2026") < html.index("Torneo di prova")
    assert client.get("/tornei/").status_code == 200
    # /classifica/ shows the most recent current tournament
    assert "Torneo 2028" in client.get("/classifica/").content.decode()
    t.refresh_from_db()
    Tournament.objects.filter(slug="torneo-2028").update(is_current=False)
    assert _rows(client.get("/classifica/").content.decode()) == STANDINGS


# ------------------------------------------------------------------------------ evenings


def test_the_evenings_list(client):
    build()
    for url in ("/serate/", f"/t/{SLUG}/serate/"):
        html = client.get(url).content.decode()
        text = _text(html)
        assert "1 di 2 tavoli con un risultato" in text  # 2027-03-09
        assert "2 di 2 tavoli con un risultato" in text  # 2027-03-02
        assert html.index("9 Marzo 2027") < html.index("2 Marzo 2027")  # newest first
        assert f'href="/t/{SLUG}/serate/2027-03-02/"' in html


def _table_rows(html: str, number: int) -> list[list[str]]:
    start = html.index(f'id="table-{number}"')
    body = html[start:html.index("</table>", start)]
    body = body[body.index("<tbody>"):]
    rows = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        rows.append([re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip()
                     for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)])
    return rows


def test_an_evening_with_tables_seats_scores_arrivals_and_penalties(client, settings):
    settings.RISIKO_PUBLIC_PENALTY_DETAILS = True  # the club shows reasons and referees
    build()
    html = client.get(f"/t/{SLUG}/serate/2027-03-02/").content.decode()
    assert "Serata del 2 Marzo 2027" in html and "Qualificazione" in html
    # seats in turn order: seat, player (tags), base, penalty, score
    assert _table_rows(html, 1) == [
        ["1", "Alba RisiKo!", "100", "", "100"],
        ["2", "Bice", "40", "−7", "33"],
        ["3", "Ciro", "30", "", "30"],
        ["4", "Dora", "20", "", "20"],
    ]
    assert _table_rows(html, 2) == [
        ["1", "Ezio", "55", "", "55"],
        ["2", "Fede", "33", "", "33"],
        ["3", "Gino", "35", "", "35"],
        ["4", "Ivo ha abbandonato la partita", "0", "", "0"],
    ]
    text = _text(html)
    assert "Bice : −7 punti tavolo · R5: oltre 120 armate (Luca)" in text
    # ranking penalties: the referee's after the appeal, and R13
    assert ("Ciro : −10 −5 punti classifica · R10: comportamento (Luca) · ricorso: accolto in "
            "parte, penalità ridotta") in text
    assert "Ivo : −25 punti classifica · ha abbandonato la partita al tavolo 2 (R13)" in text
    # arrivals with their R3 class
    assert "Ciro 21:15 in ritardo 3 turni senza rinforzi, attacchi né spostamenti" in text
    assert "Ivo 21:25 ☎ in ritardo" in text
    assert "Lia 21:40 escluso" in text
    assert "Alba 21:00 in orario" in text
    # the next evening: a table without a result
    html = client.get(f"/t/{SLUG}/serate/2027-03-09/").content.decode()
    assert "1 di 2 tavoli con un risultato" in _text(html)
    assert _table_rows(html, 2)[0] == ["1", "Bice", "–", "", "–"]
    assert "nessun risultato" in html
    assert 'rel="prev"' in html and 'rel="next"' not in html


# ------------------------------------------------------------------------------ players


def test_the_players_list(client):
    build()
    for url in ("/giocatori/", f"/t/{SLUG}/giocatori/"):
        html = client.get(url).content.decode()
        names = re.findall(r'giocatori/([A-Za-z]+)/">', html)
        assert names == ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ivo", "Lia"]


def test_names_in_lists_follow_italian_order(client):
    """Èrica between Dario and Franco (not after Zeno), for display only."""
    from urllib.parse import unquote

    from risiko.web.console.common import player_names

    t = services.create_tournament("Ordine", who="test")
    services.add_players(t, ["Zeno", "Franco", "Èrica", "Dario", "anna", "Ugo"], who="test")
    html = client.get(f"/t/{t.slug}/giocatori/").content.decode()
    names = [unquote(n) for n in re.findall(r'giocatori/([^/"]+)/">', html)]
    assert names == ["anna", "Dario", "Èrica", "Franco", "Ugo", "Zeno"]
    assert player_names(t) == names


def test_a_players_page_with_games_penalties_and_chart(client, settings):
    settings.RISIKO_PUBLIC_PENALTY_DETAILS = True  # the club shows reasons and referees
    build()
    html = client.get(f"/t/{SLUG}/giocatori/Bice/").content.decode()
    text = _text(html)
    assert "<h1>Bice</h1>" in html
    official = html[html.index('<dl class="facts">'):]  # the skill rating has its own
    facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", official[:official.index("</dl>")]))
    assert facts == {"Posizione": "5", "Punti classifica": "33", "Partite giocate": "1",
                     "RisiKo!": "0", "Miglior punteggio al tavolo": "33",
                     "Punti di penalità in classifica": "0"}
    games = html[html.index('<table class="games">'):]
    games = games[games.index("<tbody>"):games.index("</table>")]
    rows = [[re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip()
             for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", games, re.S)]
    assert rows == [["2 Mar 2027", "1", "2", "40", "−7", "33"],
                    ["9 Mar 2027", "2", "1", "–", "", "–"]]
    assert "Penalità 2 Mar 2027 · tavolo 1: −7 punti tavolo · R5: oltre 120 armate (Luca)" in text
    # the chart: points after each evening (33, rank 4 on 03-02; 33, rank 5 on 03-09)
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in svg
    assert '<title id="chart-title">Punti in classifica di Bice, serata per serata</title>' \
        in svg
    assert "Da 33 punti dopo la serata del 2 Marzo 2027 a 33 punti dopo la serata del 9 " \
           "Marzo 2027 (posizione 5); 2 serate." in svg
    assert svg.count("<circle") == 2
    assert "<title>2 Marzo 2027: 33 punti, posizione 4</title>" in svg
    assert "<title>9 Marzo 2027: 33 punti, posizione 5</title>" in svg
    points = re.search(r'<polyline class="line" points="([^"]+)"', svg)
    assert points and len(points.group(1).split()) == 2
    numbers = re.findall(r' (?:x|y|x1|x2|y1|y2|cx|cy)="([^"]*)"', svg)
    assert numbers and all(re.fullmatch(r"-?\d+(\.\d+)?", n) for n in numbers)  # not "224,0"
    # the chart's figures as a table too
    assert re.search(r"9 Marzo 2027</a></th><td class=\"num\">33</td><td class=\"num\">5</td>",
                     html)


def test_the_chart_follows_the_ranking_evening_by_evening(client, settings):
    settings.RISIKO_PUBLIC_PENALTY_DETAILS = True  # the club shows reasons and referees
    build()
    html = client.get(f"/t/{SLUG}/giocatori/Alba/").content.decode()
    assert "<title>2 Marzo 2027: 100 punti, posizione 1</title>" in html
    assert "<title>9 Marzo 2027: 130 punti, posizione 1</title>" in html
    ivo = client.get(f"/t/{SLUG}/giocatori/Ivo/").content.decode()
    assert "<title>2 Marzo 2027: -25 punti, posizione 8</title>" in ivo
    assert 'class="zero"' in ivo  # the axis at 0 when points go below it
    assert "2 Mar 2027 · tavolo 2: −25 punti classifica · ha abbandonato la partita al tavolo 2 " \
        "(R13)" in _text(ivo)
    ciro = _text(client.get(f"/t/{SLUG}/giocatori/Ciro/").content.decode())
    assert ("−10 −5 punti classifica · R10: comportamento (Luca) · ricorso: accolto in parte, "
            "penalità ridotta") in ciro
    lia = client.get(f"/t/{SLUG}/giocatori/Lia/").content.decode()  # registered, unranked
    assert "Non ancora in classifica" in lia and "<svg" not in lia
    assert "Ancora nessuna partita." in lia


def test_a_player_name_with_spaces_and_accents(client):
    t = services.create_tournament("Torneo accenti", who=WHO)
    services.add_players(t, ["Nicolò De Santis", "Zoë", "Ugo"], who=WHO)
    e = services.open_evening(t, "2027-03-02", who=WHO)
    (table,) = services.set_tables(e, [["Nicolò De Santis", "Zoë", "Ugo"]], who=WHO)
    services.enter_scores(table, {"Nicolò De Santis": 50, "Zoë": 40, "Ugo": 30}, who=WHO)
    html = client.get("/t/torneo-accenti/").content.decode()
    href = "/t/torneo-accenti/giocatori/Nicol%C3%B2%20De%20Santis/"
    assert f'<a href="{href}">Nicolò De Santis</a>' in html
    page = client.get(href)
    assert page.status_code == 200 and "<h1>Nicolò De Santis</h1>" in page.content.decode()


# ------------------------------------------------------------------------------ stages


def test_the_season_example_shows_its_final_standings(client):
    season = json.loads((EXAMPLES / "season-2027.json").read_text(encoding="utf-8"))
    t = services.import_season(season, who=WHO)
    html = client.get(f"/t/{t.slug}/finali/").content.decode()
    standings = re.search(r'<ol class="final-standings">(.*?)</ol>', html, re.S)
    assert standings
    names = re.findall(r'giocatori/\w+/">(\w+)</a>', standings.group(1))
    assert names == ["Ciro", "Mara", "Bice", "Fede", "Rita", "Alba", "Ilia", "Gino", "Ezio",
                     "Olga", "Dora", "Nico", "Lino"]
    text = _text(html)
    assert "Ciro ha vinto la finale." in text
    # the final: finalists in seat-choice order with their final table score
    final = html[html.index('id="final"'):html.index('id="after"')]
    assert re.findall(r'giocatori/\w+/">(\w+)</a></th>\s*<td class="num">(\d+)</td>', final) \
        == [("Mara", "60"), ("Bice", "45"), ("Fede", "30"), ("Ciro", "78"), ("Rita", "52")]
    # after the semifinal: qualifying points + semifinal table score = total
    after = html[html.index('id="after"'):html.index('id="semifinal"')]
    assert "Mara</a></th>" in after
    totals = re.findall(r'giocatori/(\w+)/">\w+</a></th>\s*<td class="num">(\d+)</td>\s*'
                        r'<td class="num">(\d+)</td>\s*<td class="num">(-?\d+)</td>\s*'
                        r'<td class="num strong">(\d+)</td>', after)
    assert totals[:5] == [("Mara", "240", "20", "0", "260"), ("Bice", "189", "61", "0", "250"),
                          ("Fede", "203", "45", "0", "248"), ("Ciro", "174", "70", "0", "244"),
                          ("Rita", "179", "50", "0", "229")]
    assert ("Olga", "156", "30", "0", "186") in totals
    # semifinal tables (R18: 1, 2, 8, 9, 10 and 3..7)
    semi = html[html.index('id="semifinal"'):]
    tables = re.findall(r'<ol class="names">(.*?)</ol>', semi, re.S)
    assert [re.findall(r'giocatori/\w+/">(\w+)</a>', x) for x in tables] == [
        ["Mara", "Fede", "Ciro", "Olga", "Ezio"], ["Alba", "Ilia", "Bice", "Gino", "Rita"]]
    # the standings page announces the winner; the player's page his final position
    assert "Ciro ha vinto la finale." in _text(client.get(f"/t/{t.slug}/").content.decode())
    ciro = _text(client.get(f"/t/{t.slug}/giocatori/Ciro/").content.decode())
    assert "Classifica finale: posizione 1 — vincitore della finale" in ciro
    assert "Finalista, scelta del posto 4" in ciro
    assert "Posizione 4 dopo la semifinale" in ciro
    # the ranking shows the shared 10th place (Ezio before Dora by the draw of lots)
    rows = _rows(client.get(f"/t/{t.slug}/").content.decode())
    assert rows[9:11] == [(10, "Ezio", 139, 4, 0, 60, 0), (10, "Dora", 139, 4, 0, 60, 0)]


def test_semifinal_tables_if_the_qualifying_ended_now(client):
    t = services.create_tournament("Torneo dieci", who=WHO)
    names = [f"G{i:02d}" for i in range(1, 11)]
    services.add_players(t, names, who=WHO)
    e = services.open_evening(t, "2027-03-02", who=WHO)
    tables = services.set_tables(e, [names[:5], names[5:]], who=WHO)
    for table, group in zip(tables, (names[:5], names[5:]), strict=True):
        services.enter_scores(table, {n: 100 - 5 * names.index(n) for n in group}, who=WHO)
    html = client.get("/t/torneo-dieci/").content.decode()
    assert "Tavoli della semifinale se la qualificazione finisse ora" in html
    semi = client.get("/t/torneo-dieci/finali/").content.decode()
    tables_html = re.findall(r'<ol class="names">(.*?)</ol>', semi, re.S)
    assert [re.findall(r'giocatori/(\w+)/"', x) for x in tables_html] == [
        ["G01", "G02", "G08", "G09", "G10"], ["G03", "G04", "G05", "G06", "G07"]]
    assert "tavolo 1: 1, 2, 8, 9, 10; tavolo 2: 3, 4, 5, 6, 7" in semi
    assert "la serata di semifinale non c&#x27;è ancora" in semi


# ------------------------------------------------------------------------------ rules


def test_anonymous_visitors_can_only_read(client):
    t = build()
    urls = ["/", "/classifica/", "/serate/", "/giocatori/", "/finali/", "/tornei/",
            f"/t/{SLUG}/", f"/t/{SLUG}/classifica/live/", f"/t/{SLUG}/finali/",
            f"/t/{SLUG}/serate/", f"/t/{SLUG}/serate/2027-03-02/", f"/t/{SLUG}/giocatori/",
            f"/t/{SLUG}/giocatori/Alba/", "/api/tournaments", f"/api/tournaments/{t.pk}/standings"]
    for url in urls:
        assert client.get(url).status_code == 200, url
        assert client.head(url).status_code == 200, url
        for method in (client.post, client.put, client.delete, client.patch):
            assert method(url).status_code == 405, (method.__name__, url)


def test_unknown_tournament_player_or_evening_is_404(client):
    build()
    for url in ("/t/nessuno/", "/t/nessuno/classifica/live/", "/t/nessuno/finali/",
                "/t/nessuno/serate/", "/t/nessuno/giocatori/",
                f"/t/{SLUG}/giocatori/Nessuno/", f"/t/{SLUG}/giocatori/alba/",
                f"/t/{SLUG}/serate/2027-01-01/", f"/t/{SLUG}/serate/2027-02-30/",
                f"/t/{SLUG}/serate/ieri/"):
        response = client.get(url)
        assert response.status_code == 404, url
    other = services.create_tournament("Altro torneo", who=WHO)
    services.add_players(other, ["Zeno"], who=WHO)
    assert client.get(f"/t/{SLUG}/giocatori/Zeno/").status_code == 404  # not in this one
    assert client.get("/t/altro-torneo/giocatori/Zeno/").status_code == 200


def test_first_run_still_comes_first(client):
    User.objects.all().delete()
    response = client.get("/classifica/")
    assert response.status_code == 302 and response["Location"] == "/first-run/"


def test_english_after_the_language_switch(client):
    build()
    it = client.get("/classifica/").content.decode()
    assert '<html lang="it">' in it and "Classifica generale" in it
    client.post("/i18n/setlang/", {"language": "en", "next": "/classifica/"})
    en = client.get("/classifica/").content.decode()
    assert '<html lang="en">' in en
    assert "General ranking" in en and "Classifica generale" not in en
    assert _rows(en) == STANDINGS
    text = _text(en)
    assert "Semifinal: 8 eligible players are ranked, the semifinal needs 10" in text
    assert "Evening of March 9, 2027 (qualifying), table 2: no result yet" in text
    evening = _text(client.get(f"/t/{SLUG}/serate/2027-03-02/").content.decode())
    assert "Evening of March 2, 2027" in evening
    assert "Ciro 21:15 late 3 turns without reinforcements, attacks or moves" in evening
    assert "Lia 21:40 excluded" in evening
    assert "appeal: reduced" in evening and "left the game" in evening
    player = client.get(f"/t/{SLUG}/giocatori/Alba/").content.decode()
    assert "Ranking points of Alba, evening by evening" in player
    assert "<title>March 9, 2027: 130 points, rank 1</title>" in player
    live = client.get(f"/t/{SLUG}/classifica/live/").content.decode()
    assert "Updates by itself every 10 seconds." in live


def test_usable_on_a_phone(client):
    build()
    html = client.get("/classifica/").content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "/static/public/public.css" in html
    assert '<div class="table-wrap">' in html  # the table scrolls sideways if it must
    assert client.get("/static/public/public.css").status_code == 200


def test_a_players_page_whatever_the_accents_of_the_address(client):
    import unicodedata
    from urllib.parse import quote

    t = services.create_tournament("Accenti", who=WHO)
    services.add_players(t, ["Èlia Noè", "Bice"], who=WHO)
    nfc = unicodedata.normalize("NFC", "Èlia Noè")
    nfd = unicodedata.normalize("NFD", "Èlia Noè")
    assert nfd != nfc and len(nfd) == len(nfc) + 2  # E + U+0300, e + U+0300
    page = client.get(f"/t/{t.slug}/giocatori/{quote(nfc)}/")
    assert page.status_code == 200 and "<title>Èlia Noè ·" in page.content.decode()
    # the decomposed address is sent to the page of the name as stored
    moved = client.get(f"/t/{t.slug}/giocatori/{quote(nfd)}/")
    assert moved.status_code == 301
    assert moved["Location"] == f"/t/{t.slug}/giocatori/{quote(nfc)}/"
    pages = [client.get(f"/t/{t.slug}/giocatori/{quote(n)}/", follow=True) for n in (nfd, nfc)]
    masked = [re.sub(r"[A-Za-z0-9]{64}", "CSRF", p.content.decode()) for p in pages]
    assert masked[0] == masked[1]  # the same page, the CSRF tokens aside
    assert client.get(f"/t/{t.slug}/giocatori/{quote('èlia noè')}/").status_code == 404


def test_penalty_reasons_and_referees_are_public_only_if_the_club_says_so(client, settings):
    # issue 18 §3: by default the public pages show a penalty's points, kind and appeal, not
    # why it was given nor by whom
    build()
    assert settings.RISIKO_PUBLIC_PENALTY_DETAILS is False
    pages = [f"/t/{SLUG}/serate/2027-03-02/", f"/t/{SLUG}/giocatori/Bice/",
             f"/t/{SLUG}/giocatori/Ciro/"]
    for path in pages:
        text = _text(client.get(path).content.decode())
        assert "R5: oltre 120 armate" not in text and "R10: comportamento" not in text, path
        assert "(Luca)" not in text, path
    text = _text(client.get(pages[0]).content.decode())
    assert "Bice : −7 punti tavolo" in text
    assert "Ciro : −10 −5 punti classifica · ricorso: accolto in parte, penalità ridotta" in text
    settings.RISIKO_PUBLIC_PENALTY_DETAILS = True
    text = _text(client.get(pages[0]).content.decode())
    assert "Bice : −7 punti tavolo · R5: oltre 120 armate (Luca)" in text
