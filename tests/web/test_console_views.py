"""The referee console with Django's test client: who may open which page, CSRF on every
form, a whole evening run by a referee (check-in of 10 players with the R3 class shown at
once, two tables seated, one table entered by scores, a penalty, an appeal), refusals shown
next to the form with nothing saved, corrections kept, and the audit log."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from risiko.web import selectors, services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.results.models import Appeal, GameTable, Penalty, TableResult
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db, pytest.mark.usefixtures("fast_hashing")]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ilia", "Lino", "Mara",
         "Nico"]
DATE = "2027-03-02"


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def played(referee):
    """A tournament with an evening seated (2 tables), table 1 played, one penalty."""
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, NAMES, who="setup")
    e = services.open_evening(t, DATE, who="setup")
    services.set_tables(e, [NAMES[:5], NAMES[5:10]], who="setup")
    services.enter_scores(services.get_table(e, 1), dict(zip(NAMES[:5], [57, 40, 12, 30, 20],
                                                             strict=True)), who="setup")
    pen = services.add_penalty(e, "Bice", -5, unit="ranking", reason="x", referee="R",
                               who="setup")
    return t, e, pen


def _page_urls(t, e, pen) -> list[str]:
    """Every GET page of the console for the ``played`` fixture."""
    s, d = t.slug, DATE
    alba = t.entries.get(player__name="Alba").player_id
    return [
        reverse("referee_home"),
        reverse("console_tournament", args=[s]),
        reverse("console_stages", args=[s]),
        reverse("console_standings_csv", args=[s]),
        reverse("console_standings_json", args=[s]),
        reverse("console_standings_print", args=[s]),
        reverse("console_season_export", args=[s]),
        reverse("console_audit", args=[s]),
        reverse("console_evening", args=[s, d]),
        reverse("console_checkin", args=[s, d]),
        reverse("console_seating", args=[s, d]),
        reverse("console_table_cards", args=[s, d]),
        reverse("console_penalties", args=[s, d]),
        reverse("console_appeal", args=[s, d, pen.pk]),
        reverse("console_table", args=[s, d, 1]),
        reverse("console_table", args=[s, d, 2]),
    ] + [f"POST {u}" for u in (
        reverse("referee_home"),
        reverse("console_add_players", args=[s]),
        reverse("console_open_evening", args=[s]),
        reverse("console_carry_over", args=[s]),
        reverse("console_seat_stage", args=[s]),
        reverse("console_draw", args=[s]),
        reverse("console_arrival", args=[s, d, alba]),
        reverse("console_seat", args=[s, d]),
        reverse("console_swap", args=[s, d]),
        reverse("console_set_tables", args=[s, d]),
        reverse("console_add_penalty", args=[s, d]),
        reverse("console_void_penalty", args=[s, d, pen.pk]),
        reverse("console_appeal", args=[s, d, pen.pk]),
        reverse("console_discipline", args=[s, d]),
        reverse("console_scores", args=[s, d, 2]),
        reverse("console_sheet", args=[s, d, 2]),
        reverse("console_abandon", args=[s, d, 1]),
        reverse("console_import"),
    )]


def _call(client: Client, url: str, **extra):
    if url.startswith("POST "):
        return client.post(url[5:], {}, **extra)
    return client.get(url, **extra)


# --- permissions ----------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_login(played):
    client = Client()
    for url in [*_page_urls(*played), reverse("console_import")]:
        response = _call(client, url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/login/?next="), url


def test_a_user_in_no_group_gets_403(played, make_user):
    client = Client()
    client.force_login(make_user("giocatore"))
    for url in [*_page_urls(*played), reverse("console_import")]:
        assert _call(client, url).status_code == 403, url


def test_a_referee_opens_every_page(played, ref_client):
    for url in _page_urls(*played):
        if url.startswith("POST ") or url == reverse("console_import"):
            continue
        assert ref_client.get(url).status_code == 200, url


def test_a_referee_cannot_reach_committee_pages(ref_client, committee):
    assert ref_client.get(reverse("console_import")).status_code == 403
    assert ref_client.post(reverse("console_import"), {}).status_code == 403
    assert ref_client.get("/admin/").status_code in (302, 403)
    assert ref_client.get("/admin/tournaments/tournament/").status_code in (302, 403)
    boss = Client()
    boss.force_login(committee)
    assert boss.get(reverse("console_import")).status_code == 200
    assert boss.get("/admin/").status_code == 200
    assert boss.get(reverse("referee_home")).status_code == 200  # committee are referees


def test_post_only_endpoints_refuse_get(played, ref_client):
    t = played[0]
    assert ref_client.get(reverse("console_seat", args=[t.slug, DATE])).status_code == 405
    assert ref_client.get(reverse("console_scores", args=[t.slug, DATE, 1])).status_code == 405


def test_unknown_tournament_evening_table_are_404(played, ref_client):
    t = played[0]
    assert ref_client.get(reverse("console_tournament", args=["nessuno"])).status_code == 404
    assert ref_client.get(reverse("console_evening", args=[t.slug, "2027-13-40"])
                          ).status_code == 404
    assert ref_client.get(reverse("console_evening", args=[t.slug, "2027-03-03"])
                          ).status_code == 404
    assert ref_client.get(reverse("console_table", args=[t.slug, DATE, 9])).status_code == 404


def test_csrf_is_enforced_on_every_form(played, referee, committee):
    client = Client(enforce_csrf_checks=True)
    client.force_login(committee)
    before = AuditEntry.objects.count()
    for url in _page_urls(*played):
        if url.startswith("POST "):
            assert _call(client, url).status_code == 403, url
    assert AuditEntry.objects.count() == before


def test_every_form_carries_the_csrf_token(played, ref_client):
    for url in _page_urls(*played):
        if url.startswith("POST "):
            continue
        page = ref_client.get(url)
        if page["Content-Type"].startswith("text/html"):
            html = page.content.decode()
            forms = re.findall(r"<form[^>]*method=\"post\"[^>]*>(.*?)</form>", html, re.S)
            for form in forms:
                assert "csrfmiddlewaretoken" in form, url


# --- an evening -----------------------------------------------------------------------------


def _htmx(client: Client, url: str, data: dict):
    return client.post(url, data, headers={"HX-Request": "true"})


def test_a_referee_runs_an_evening(ref_client):
    c = ref_client
    # a tournament with its players
    r = c.post(reverse("referee_home"), {
        "name": "Torneo sociale 2027", "ruleset": "club-milano", "format": "club-milano",
        "format_params": "", "players": "\n".join(NAMES[:8]) + "\n\n"})
    t = Tournament.objects.get(name="Torneo sociale 2027")
    assert r.status_code == 302 and r["Location"] == reverse("console_tournament",
                                                             args=[t.slug])
    r = c.post(reverse("console_add_players", args=[t.slug]),
               {"players": "\n".join(NAMES[8:]) + "\nAlba\n"})
    assert r.status_code == 302 and t.entries.count() == 11
    page = c.get(reverse("console_tournament", args=[t.slug])).content.decode()
    assert "11 giocatori" in page and "Nico" in page
    assert "3 giocatori iscritti. Già iscritto: Alba." in page  # the new ones counted
    r = c.post(reverse("console_add_players", args=[t.slug]), {"players": "Alba\nNico"})
    page = c.get(r["Location"]).content.decode()
    assert "0 giocatori iscritti. Già iscritti: Alba, Nico." in page
    assert t.entries.count() == 11

    # the evening
    r = c.post(reverse("console_open_evening", args=[t.slug]),
               {"date": DATE, "stage": "qualifying", "chief_referee": "Luca"})
    e = Evening.objects.get(tournament=t)
    assert r["Location"] == reverse("console_checkin", args=[t.slug, DATE])
    checkin = c.get(r["Location"]).content.decode()
    assert checkin.count('class="checkin-row') == 11
    assert re.search(r'name="at" value="\d\d:\d\d"', checkin)  # now, by default
    assert 'hx-post="' in checkin

    # check-in: 10 admitted (two late), one excluded; the class comes back at once
    times = {"Alba": "21:00", "Bice": "21:05", "Ciro": "21:10", "Dora": "20:55",
             "Ezio": "21:02", "Fede": "21:08", "Gino": "21:15", "Ilia": "21:01",
             "Lino": "21:09", "Mara": ("21:25", True), "Nico": "21:40"}
    ids = dict(t.entries.values_list("player__name", "player_id"))
    rows = {}
    for name, at in times.items():
        at, phoned = at if isinstance(at, tuple) else (at, False)
        data = {"at": at, **({"phoned": "on"} if phoned else {})}
        r = _htmx(c, reverse("console_arrival", args=[t.slug, DATE, ids[name]]), data)
        assert r.status_code == 200
        rows[name] = r.content.decode()
        assert rows[name].startswith('<li class="checkin-row'), name  # a row, not a page
        assert "<html" not in rows[name]
    assert "in orario" in rows["Alba"] and "turni di penalità" not in rows["Alba"]
    assert "in ritardo · 3 turni di penalità" in rows["Gino"]
    assert "in ritardo · 3 turni di penalità" in rows["Mara"] and "telefonato" in rows["Mara"]
    assert "escluso" in rows["Nico"]
    assert 'id="checkin-counts" class="counts" hx-swap-oob="true"' in rows["Nico"]
    assert "escluso: <strong>1</strong>" in rows["Nico"]

    # a correction supersedes the earlier arrival (htmx or not)
    r = c.post(reverse("console_arrival", args=[t.slug, DATE, ids["Ciro"]]),
               {"at": "21:12", "reason": "era arrivato prima"})
    assert r.status_code == 302
    assert Arrival.objects.filter(evening=e, player__name="Ciro").count() == 2
    assert Arrival.objects.get(evening=e, player__name="Ciro", superseded=False).at == "21:12"
    page = c.get(reverse("console_checkin", args=[t.slug, DATE])).content.decode()
    assert "in orario: <strong>7</strong>" in page and "in ritardo: <strong>3</strong>" in page

    # seating with the optimiser: two tables of 5, Nico (excluded) not seated
    r = c.post(reverse("console_seat", args=[t.slug, DATE]), {"seed": "7"})
    assert r.status_code == 302
    tables = [[s.player.name for s in tb.seats.current().order_by("position")]
              for tb in e.tables.order_by("number")]
    assert [len(x) for x in tables] == [5, 5] and "Nico" not in tables[0] + tables[1]
    page = c.get(reverse("console_seating", args=[t.slug, DATE])).content.decode()
    assert "Esclusi (R3): Nico" in page
    seats_1 = re.search(r'<ol class="seats">(.*?)</ol>', page, re.S)
    assert seats_1 and [n for n in tables[0] if n in seats_1.group(1)] == tables[0]
    assert seats_1.group(1).index(tables[0][0]) < seats_1.group(1).index(tables[0][4])

    # a manual swap across the tables
    a, b = tables[0][0], tables[1][0]
    r = c.post(reverse("console_swap", args=[t.slug, DATE]), {"a": a, "b": b})
    assert r.status_code == 302
    t1 = [s.player.name for s in e.tables.get(number=1).seats.current().order_by("position")]
    assert t1[0] == b
    cards = c.get(reverse("console_table_cards", args=[t.slug, DATE])).content.decode()
    assert cards.count('class="table-card"') == 2 and cards.count('class="box"') == 10
    assert "in ritardo: 3 turni di penalità" in cards and "@media print" not in cards

    # table 1 by scores: the breakdown after saving
    t1_names = t1
    data = {f"score_{i}": v for i, v in enumerate([57, 40, 100, 30, 20], start=1)}
    data["risiko_3"] = "on"
    r = c.post(reverse("console_scores", args=[t.slug, DATE, 1]), data)
    assert r.status_code == 302
    page = c.get(r["Location"]).content.decode()
    assert "Tavolo 1: risultato salvato." in page
    assert "Punteggi inseriti a mano · arbitro" in page
    assert '<td class="num"><strong>100</strong></td>' in page and "RisiKo!</span>" in page
    st = selectors.standings(t)
    assert st.row(t1_names[2]).points == 100 and st.row(t1_names[2]).risiko == 1

    # a correction: the previous values stay in the history
    data["score_1"] = 61
    r = c.post(reverse("console_scores", args=[t.slug, DATE, 1]), {**data, "reason": "61"})
    page = c.get(r["Location"]).content.decode()
    assert "corretto: il risultato precedente resta nella cronologia" in page
    assert "sostituito" in page and f"{t1_names[0]} 57" in page and f"{t1_names[0]} 61" in page
    assert TableResult.objects.filter(table__evening=e, table__number=1).count() == 2
    # the same scores sent again (another form, another token): nothing saved
    audited = AuditEntry.objects.count()
    r = c.post(reverse("console_scores", args=[t.slug, DATE, 1]), data)
    page = c.get(r["Location"]).content.decode()
    assert "Tavolo 1: questo risultato era già registrato, non è stato salvato nulla." in page
    assert TableResult.objects.filter(table__evening=e, table__number=1).count() == 2
    assert AuditEntry.objects.count() == audited

    # a table penalty and an appeal
    r = c.post(reverse("console_add_penalty", args=[t.slug, DATE]), {
        "player": t1_names[1], "unit": "table", "points": "-7", "reason": "121 armate (R5)",
        "referee": "Rita", "at": "22:40"})
    assert r.status_code == 302
    pen = Penalty.objects.get(evening=e)
    assert pen.table is not None and pen.table.number == 1
    assert selectors.standings(t).row(t1_names[1]).points == 40 - 7
    page = c.get(reverse("console_table", args=[t.slug, DATE, 1])).content.decode()
    assert '<td class="num">-7</td><td class="num"><strong>33</strong></td>' in page
    r = c.post(reverse("console_appeal", args=[t.slug, DATE, pen.pk]),
               {"outcome": "reduced", "points": "-2", "referee": "Luca", "reason": "errore"})
    assert r.status_code == 302
    assert selectors.standings(t).row(t1_names[1]).points == 38
    page = c.get(reverse("console_penalties", args=[t.slug, DATE])).content.decode()
    assert "Ricorso: <strong>accolto in parte, penalità ridotta</strong> (-2) · Luca" in page

    # the public side of things: the evening overview
    page = c.get(reverse("console_evening", args=[t.slug, DATE])).content.decode()
    assert page.count("risultato inserito") == 1 and "in gioco" in page


def test_checkin_refusal_is_shown_in_the_row_and_nothing_saved(played, ref_client):
    t = played[0]
    alba = t.entries.get(player__name="Alba").player_id
    before = AuditEntry.objects.count()
    url = reverse("console_arrival", args=[t.slug, DATE, alba])
    r = _htmx(ref_client, url, {"at": "nine"})
    assert r.status_code == 400
    row = r.content.decode()
    # the time's fault names the field "at": shown under the time box
    assert row.startswith('<li class="checkin-row')
    assert re.search(rf'<ul class="errorlist" id="a{alba}_at_error"><li>[^<]*nine', row), row
    assert "Alba" in row
    r = ref_client.post(url, {"at": "nine"})  # without htmx: the page with the row's error
    page = r.content.decode()
    assert r.status_code == 400 and "Alba" in page
    # ... and at the page's top, a link to that time box
    top = page.index('id="refusals"')
    assert top < page.index('id="checkin"')
    assert re.search(rf'<a href="#a{alba}_at">Arrivo: [^<]*nine', page[top:]), page[top:top + 600]
    assert not Arrival.objects.exists() and AuditEntry.objects.count() == before


def test_refusals_are_shown_next_to_the_form_and_nothing_is_written(played, ref_client):
    t, _e, pen = played
    c = ref_client
    before = AuditEntry.objects.count()
    cases = [
        (reverse("referee_home"), {"name": "Torneo sociale", "ruleset": "club-milano",
                                   "format": "club-milano", "players": "Zeno"},
         "esiste già un torneo chiamato &#x27;Torneo sociale&#x27;"),
        (reverse("referee_home"), {"name": "Altro", "ruleset": "club-milano",
                                   "format": "club-milano", "format_params": '{"bogus": 1}'},
         "campi del formato sconosciuti: bogus"),
        (reverse("console_open_evening", args=[t.slug]), {"date": DATE, "stage": "qualifying"},
         "c&#x27;è già una serata il 2027-03-02"),
        (reverse("console_scores", args=[t.slug, DATE, 2]),
         {f"score_{i}": 101 if i == 1 else 10 for i in range(1, 6)},
         "Fede ha 101 punti, più del massimo punteggio di tavolo di 100 (R1)"),
        (reverse("console_scores", args=[t.slug, DATE, 2]),
         {**{f"score_{i}": 10 for i in range(1, 6)}, "risiko_2": "on"},
         "Gino ha completato l&#x27;obiettivo: il punteggio è 100"),
        (reverse("console_add_penalty", args=[t.slug, DATE]),
         {"player": "Ciro", "unit": "ranking", "points": "5", "reason": "x", "referee": "R"},
         "una penalità è un numero negativo di punti (per esempio -7)"),
        (reverse("console_add_penalty", args=[t.slug, DATE]),
         {"player": "Nico", "unit": "table", "points": "-5", "reason": "x", "referee": "R"},
         "Nico non è seduto a un tavolo"),
        (reverse("console_appeal", args=[t.slug, DATE, pen.pk]),
         {"outcome": "reduced", "points": "-9", "referee": "Capo"},
         "il ricorso di Bice riduce -5 a -9: una riduzione sta tra -5 (escluso) e 0"),
        (reverse("console_swap", args=[t.slug, DATE]), {"a": "Fede", "b": "Alba"},
         "il tavolo 1 ha un risultato: i posti non possono cambiare"),
        (reverse("console_set_tables", args=[t.slug, DATE]), {"tables": "Alba, Bice, Ciro"},
         "il tavolo 1 ha un risultato: i posti non possono cambiare"),
        (reverse("console_seat", args=[t.slug, DATE]), {"seed": ""},
         "il tavolo 1 ha un risultato: i posti non possono cambiare"),
        (reverse("console_carry_over", args=[t.slug]),
         {"player": "Zeno", "points": "10", "referee": "R"}, "Zeno"),
        (reverse("console_draw", args=[t.slug]),
         {"stage": "semifinal", "order": "Alba", "referee": "R"},
         "un sorteggio ordina almeno 2 giocatori diversi"),
        (reverse("console_seat_stage", args=[t.slug]),
         {"stage": "semifinal", "date": "2027-04-01", "chief_referee": ""},
         "la semifinale non si può ancora generare"),
        (reverse("console_sheet", args=[t.slug, DATE, 2]), {"text": '{"seats": []}'},
         "0 posti: un tavolo ha da 2 a 6 posti"),
        (reverse("console_abandon", args=[t.slug, DATE, 2]), {"player": "Fede"},
         "inserisci prima il risultato del tavolo, poi chi ha abbandonato"),
    ]
    for url, data, message in cases:
        r = c.post(url, data)
        assert r.status_code == 400, (url, r.status_code)
        html = r.content.decode()
        assert message in html, (url, message, re.findall(r'class="errorlist[^"]*">.*?</ul>',
                                                          html, re.S))
        assert 'class="errorlist' in html, url
    assert AuditEntry.objects.count() == before
    assert Tournament.objects.count() == 1 and Evening.objects.count() == 1
    assert TableResult.objects.count() == 1 and Penalty.objects.count() == 1
    assert not Appeal.objects.exists()


def test_the_sheet_pasted_or_uploaded_and_the_corrections(ref_client):
    sheet_json = (EXAMPLES / "sheet-5-seats.json").read_text(encoding="utf-8")
    players = [s["player"] for s in json.loads(sheet_json)["seats"]]
    t = services.create_tournament("Torneo schede", who="setup")
    services.add_players(t, players, who="setup")
    services.open_evening(t, DATE, who="setup")
    c = ref_client
    r = c.post(reverse("console_set_tables", args=[t.slug, DATE]),
               {"tables": ", ".join(players)})
    assert r.status_code == 302
    url = reverse("console_sheet", args=[t.slug, DATE, 1])
    r = c.post(url, {"text": sheet_json})
    assert r.status_code == 302
    page = c.get(reverse("console_table", args=[t.slug, DATE, 1])).content.decode()
    assert "Dalla scheda di fine partita" in page and "Come è stata calcolata la scheda" in page
    table = GameTable.objects.get(evening__tournament=t)
    first = TableResult.objects.get(table=table)
    assert first.sheet is not None and first.scores is None
    # the same sheet as CSV, uploaded, with a player marked as having left (R13)
    from django.core.files.uploadedfile import SimpleUploadedFile

    csv = (EXAMPLES / "sheet-5-seats.csv").read_bytes()
    r = c.post(url, {"file": SimpleUploadedFile("tavolo1.csv", csv, "text/csv"),
                     "abandoned": [players[4]], "reason": "un giocatore è andato via"})
    assert r.status_code == 302
    first.refresh_from_db()
    assert first.superseded
    assert selectors.standings(t).row(players[4]).points == -25
    page = c.get(reverse("console_table", args=[t.slug, DATE, 1])).content.decode()
    assert "Cronologia" in page and page.count("sostituito") == 1
    # a bad sheet: the sheet's own faults, named, nothing saved
    bad = sheet_json.replace('"Alaska"', '"Alaskaa"')
    r = c.post(url, {"text": bad})
    assert r.status_code == 400 and "Alaskaa" in r.content.decode()
    r = c.post(url, {"text": ""})
    assert "Incolla la scheda o scegli il suo file." in r.content.decode()
    assert TableResult.objects.filter(table=table).count() == 2


def test_a_player_who_left_after_the_result(played, ref_client):
    t = played[0]
    r = ref_client.post(reverse("console_abandon", args=[t.slug, DATE, 1]), {"player": "Dora"})
    assert r.status_code == 302
    assert selectors.standings(t).row("Dora").points == -25
    assert selectors.faults_of(t) == []


def test_void_a_penalty_and_record_discipline(played, ref_client):
    t, _e, pen = played
    c = ref_client
    assert selectors.standings(t).row("Bice").points == 35
    r = c.post(reverse("console_void_penalty", args=[t.slug, DATE, pen.pk]), {"reason": ""})
    assert r.status_code == 400 and "Questo campo è obbligatorio." in r.content.decode()
    r = c.post(reverse("console_void_penalty", args=[t.slug, DATE, pen.pk]),
               {"reason": "giocatore sbagliato"})
    assert r.status_code == 302
    assert selectors.standings(t).row("Bice").points == 40
    page = c.get(reverse("console_penalties", args=[t.slug, DATE])).content.decode()
    assert "annullata" in page
    r = c.post(reverse("console_discipline", args=[t.slug, DATE]), {
        "player": "Ezio", "level": "warning", "reason": "R10: linguaggio", "referee": "Rita",
        "table_number": "1"})
    assert r.status_code == 302
    page = c.get(reverse("console_penalties", args=[t.slug, DATE])).content.decode()
    assert "<strong>Ezio</strong>: richiamo (tavolo 1) · R10: linguaggio · Rita" in page


def test_carry_over_is_confirmed_and_counts(played, ref_client):
    t = played[0]
    r = ref_client.post(reverse("console_carry_over", args=[t.slug]),
                        {"player": "Nico", "points": "37", "referee": "Luca", "note": "R17"})
    assert r.status_code == 302
    assert selectors.standings(t).row("Nico").points == 37
    page = ref_client.get(reverse("console_tournament", args=[t.slug])).content.decode()
    assert "Nico: <strong>37</strong> punti · Luca · R17" in page


def test_the_audit_log_lists_the_changes_with_the_username(ref_client):
    c = ref_client
    c.post(reverse("referee_home"), {"name": "Torneo registro", "ruleset": "club-milano",
                                     "format": "club-milano", "players": "Alba\nBice\nCiro"})
    t = Tournament.objects.get(name="Torneo registro")
    c.post(reverse("console_open_evening", args=[t.slug]), {"date": DATE, "stage": "qualifying"})
    c.post(reverse("console_set_tables", args=[t.slug, DATE]), {"tables": "Alba, Bice, Ciro"})
    c.post(reverse("console_scores", args=[t.slug, DATE, 1]),
           {"score_1": 50, "score_2": 40, "score_3": 30})
    c.post(reverse("console_scores", args=[t.slug, DATE, 1]),
           {"score_1": 55, "score_2": 40, "score_3": 30, "reason": "55, non 50"})
    entries = list(AuditEntry.objects.filter(tournament=t.name))
    assert {e.who for e in entries} == {"arbitro"}
    assert [e.action for e in reversed(entries)] == [
        "create tournament", "add player", "add player", "add player", "open evening",
        "set tables", "enter result", "correct result"]
    page = c.get(reverse("console_audit", args=[t.slug])).content.decode()
    assert page.count('<td class="who">arbitro</td>') == 8
    # issue 18: said in the page's language (the codes stay in the database)
    assert "<strong>risultato corretto</strong>" in page
    assert "serata 2027-03-02 (qualificazione), tavolo 1: punteggi inseriti a mano" in page
    # the values entered and replaced, in the details: their keys said in the page's
    # language too (issue: "new", "scores", "abandoned", "winners", "reason", "replaced"
    # were shown as raw JSON keys); the names and numbers as entered (55, not 50)
    details = page[page.index("risultato corretto"):]
    details = details[details.index("<pre>") + 5:details.index("</pre>")]
    print(details)
    for key in ("new", "scores", "abandoned", "winners", "reason", "replaced", "tables"):
        assert f"&quot;{key}&quot;" not in details and f"{key}:" not in details
    assert "nuovi valori:\n" in details and "motivo: 55, non 50" in details
    assert "    Alba: 55\n" in details and "sostituito:\n" in details


def test_home_shows_the_current_evening(ref_client):
    from risiko.web.console.forms import today

    t = services.create_tournament("Torneo di oggi", who="setup")
    page = ref_client.get(reverse("referee_home")).content.decode()
    assert "Torneo di oggi" in page and "Serata in corso" not in page
    services.open_evening(t, today(), who="setup")
    page = ref_client.get(reverse("referee_home")).content.decode()
    assert "Serata in corso" in page
    assert reverse("console_checkin", args=[t.slug, today().isoformat()]) in page


# --- the board entry page of the referee tools ----------------------------------------------


def test_the_table_page_links_to_the_board(played, ref_client):
    """The link is always there (no link that renders nothing when its URL
    name is unknown)."""
    t = played[0]
    page = ref_client.get(reverse("console_table", args=[t.slug, DATE, 2])).content.decode()
    assert f'href="{reverse("board_entry", args=[t.slug, DATE, 2])}"' in page
    assert "Inserisci il risultato sulla plancia" in page
