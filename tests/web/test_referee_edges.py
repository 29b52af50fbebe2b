"""The referee's rough edges, with Django's test client: the check-in search
forgives accents and case (the same key as names), a correction needs a reason, a refused
form's faults are at the page's top linked to their field, the stage form proposes the next
free date, the console's words for seating 11 players."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from risiko import names
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival
from risiko.web.results.models import TableResult

pytestmark = [pytest.mark.db, pytest.mark.django_db]

DATE = "2027-03-02"
CONSOLE_JS = (Path(__file__).resolve().parents[2] / "src" / "risiko" / "web" / "console"
              / "static" / "console" / "console.js")


@pytest.fixture
def ref_client(settings) -> Client:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    c = Client()
    c.force_login(user)
    return c


# --- the check-in search ----------------------------------------------------------------------

ACCENTED = ["Érica", "Nicolò", "Zoë", "Lue\u0300 Rossi", "Strauß"]


def test_the_search_key_forgives_accents_and_case():
    assert [names.search_key(n) for n in ACCENTED] == [
        "erica", "nicolo", "zoe", "lue rossi", "strauss"]
    assert names.search_key("  NICOLÒ  ") == names.search_key("nicolo")


def test_the_checkin_rows_carry_the_search_key(ref_client):
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, ["Érica", "Nicolò", "Zoë", "Anna"], who="setup")
    services.open_evening(t, DATE, who="setup")
    page = ref_client.get(reverse("console_checkin", args=[t.slug, DATE])).content.decode()
    keys = dict(re.findall(r'data-name="([^"]+)">\s*<div class="who">\s*<strong>([^<]+)</strong>',
                           page))
    assert keys == {"erica": "Érica", "nicolo": "Nicolò", "zoe": "Zoë", "anna": "Anna"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_console_script_folds_what_is_typed_the_same_way():
    # the script's searchKey, run by node on what a referee types, gives the rows' key
    typed = ["erica", "ERICA", "Érica", "nicolo", "Nicolo\u0300", "zoe", "ZOË", " lue  rossi ",
             "STRAUSS", "Strauß"]
    script = CONSOLE_JS.read_text(encoding="utf-8")
    body = script[script.index("function searchKey"):script.index("window.risikoSearchKey")]
    program = body + f"console.log(JSON.stringify({json.dumps(typed)}.map(searchKey)));"
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True,
                         timeout=30)
    assert json.loads(out.stdout) == [names.search_key(t) for t in typed] == [
        "erica", "erica", "erica", "nicolo", "nicolo", "zoe", "zoe", "lue rossi",
        "strauss", "strauss"]


# --- a correction says why ----------------------------------------------------------------------


def _seated():
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, ["Alba", "Bice", "Ciro", "Dora"], who="setup")
    e = services.open_evening(t, DATE, who="setup")
    for name in ("Alba", "Bice", "Ciro", "Dora"):
        services.record_arrival(e, name, "21:00", who="setup")
    services.set_tables(e, [["Alba", "Bice", "Ciro", "Dora"]], who="setup")
    return t, e


def test_a_correction_without_a_reason_is_refused_and_writes_nothing():
    _t, e = _seated()
    table = services.get_table(e, 1)
    scores = {"Alba": 57, "Bice": 40, "Ciro": 12, "Dora": 30}
    services.enter_scores(table, scores, who="arbitro")  # the first result needs none
    before = (TableResult.objects.count(), Arrival.objects.count(), AuditEntry.objects.count())
    for reason in ("", "   "):
        with pytest.raises(services.ServiceError) as err:
            services.enter_scores(table, {**scores, "Alba": 58}, reason=reason, who="arbitro")
        (fault,) = err.value.faults
        assert fault.code == "service.correction_reason"
        assert fault.subjects == {"evening": DATE, "table": 1, "field": "reason"}
        assert fault.message("it") == "motivo: scrivi perché viene corretto"
        with pytest.raises(services.ServiceError, match="say why it is corrected"):
            services.record_arrival(e, "Bice", "21:02", reason=reason, who="arbitro")
    assert (TableResult.objects.count(), Arrival.objects.count(),
            AuditEntry.objects.count()) == before
    # the same result or arrival sent again is no correction: nothing to say, nothing written
    assert services.enter_scores(table, scores, who="arbitro").already_recorded
    services.record_arrival(e, "Bice", "21:00", who="arbitro")
    assert Arrival.objects.count() == before[1]
    # with a reason, both go through
    services.enter_scores(table, {**scores, "Alba": 58}, reason="58, non 57", who="arbitro")
    services.record_arrival(e, "Bice", "21:02", reason="orologio avanti", who="arbitro")
    assert TableResult.objects.count() == before[0] + 1
    assert Arrival.objects.count() == before[1] + 1


def test_the_console_shows_the_missing_reason_on_the_field_at_the_top(ref_client):
    t, _e = _seated()
    url = reverse("console_scores", args=[t.slug, DATE, 1])
    data = {"score_1": 57, "score_2": 40, "score_3": 12, "score_4": 30}
    assert ref_client.post(url, data).status_code == 302
    r = ref_client.post(url, {**data, "score_1": 58, "reason": ""})
    page = r.content.decode()
    assert r.status_code == 400 and TableResult.objects.count() == 1
    # at the top, before the first card, a link to the reason box; the message under the box
    top = page.index('id="refusals"')
    assert top < page.index('<section class="card">')
    assert re.search(r'<a href="#id_reason">Perché \(per una correzione\): '
                     r'motivo: scrivi perché viene corretto</a>', page), page[top:top + 800]
    assert re.search(r'id="id_reason"[^>]*>\s*<ul class="errorlist" id="id_reason_error">', page)


def test_a_refused_sheet_is_at_the_top_linked_to_the_sheet_box(ref_client):
    t, _e = _seated()
    url = reverse("console_sheet", args=[t.slug, DATE, 1])
    r = ref_client.post(url, {"text": '{"seats": []}'})
    page = r.content.decode()
    assert r.status_code == 400
    top = page.index('id="refusals"')
    assert top < page.index('<section class="card">')  # 1,500 px up: where the page opens
    links = re.findall(r'<li><a href="#([^"]+)">', page[top:page.index("</section>", top)])
    assert links and set(links) == {"id_text"}, links


# --- the forms propose a free date -------------------------------------------------------------


def test_the_forms_propose_the_next_free_date(ref_client, monkeypatch):
    import datetime as dt

    from risiko.web.console.views import stages, tournament

    today = dt.date(2027, 3, 2)
    monkeypatch.setattr(stages, "today", lambda: today)
    monkeypatch.setattr(tournament, "today", lambda: today)
    t = services.create_tournament("Torneo sociale", who="setup")
    for day in ("2027-03-02", "2027-03-03", "2027-03-09"):
        services.open_evening(t, day, who="setup")

    def proposed(url: str, name: str) -> str:
        page = ref_client.get(url).content.decode()
        return re.search(rf'name="{name}" value="([^"]+)"', page).group(1)

    # an evening: today and tomorrow are taken, 4 March is free (9 March is later)
    assert proposed(reverse("console_tournament", args=[t.slug]), "date") == "2027-03-04"
    # a semifinal or final: after the last evening (9 March)
    assert proposed(reverse("console_stages", args=[t.slug]), "date") == "2027-03-10"


# --- seating 11 players: the console says what the optimiser does ------------------------------


def test_the_seating_page_says_6_and_5_for_11_players(ref_client):
    players = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ilia", "Lino", "Mara",
               "Nico"]
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, players, who="setup")
    e = services.open_evening(t, DATE, who="setup")
    for name in players:
        services.record_arrival(e, name, "21:00", who="setup")
    page = ref_client.get(reverse("console_seating", args=[t.slug, DATE])).content.decode()
    # R3 admits all 11 (21:00 is on time); 11 is no sum of 5s and 4s alone (5+5+1, 4+4+3),
    # so one table that is not a 5 or a 4: 6+5 and 4+4+3 both have one, 6+5 has fewer tables
    assert "Con 11 giocatori ammessi: tavoli da 6 + 5." in page
    assert "un tavolo da 6 o da 3 solo quando nient'altro è possibile" in page
    assert "11: 6 e 5" in page
    services.seat_evening(e, seed=1, who="arbitro")
    assert sorted(table.seats.current().count() for table in e.tables.all()) == [5, 6]


# --- no doubled words --------------------------------------------------------------------------


def test_creating_a_tournament_named_torneo_says_it_once(ref_client):
    r = ref_client.post(reverse("referee_home"), {
        "name": "Torneo sociale 2027", "ruleset": "club-milano@2", "format": "club-milano",
        "players": ""}, follow=True)
    page = r.content.decode()
    assert "Nuovo torneo: Torneo sociale 2027." in page, page[:3000]
    assert "Torneo Torneo" not in page


def test_no_tournament_yet_is_said_in_italian():
    # issue 18 §2: "(esistenti: none yet)"
    with pytest.raises(services.ServiceError) as err:
        services.get_tournament("torneo-2028")
    assert err.value.fault.message("it") == (
        "nessun torneo 'torneo-2028' (esistenti: nessuno per ora)")
    assert err.value.fault.message("en") == "no tournament 'torneo-2028' (known: none yet)"


# --- the audit log in the reader's language ----------------------------------------------------


def test_the_audit_log_is_said_in_the_readers_language(ref_client):
    t, e = _seated()  # arrivals at 21:00 (on time, R3), one table seated by hand
    services.swap_seats(e, "Alba", "Dora", reason="richiesta dei giocatori", who="arbitro")
    table = services.get_table(e, 1)
    services.enter_scores(table, {"Alba": 30, "Bice": 40, "Ciro": 12, "Dora": 57},
                          who="arbitro")
    services.add_penalty(e, "Bice", -5, unit="ranking", reason="ritardo", referee="Luca",
                         who="arbitro")
    from risiko.web.tools.services import set_turn_clock

    set_turn_clock(table, True, who="arbitro")
    url = reverse("console_audit", args=[t.slug])
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", ref_client.get(url).content.decode()))
    for italian in ("risultato inserito", "serata 2027-03-02 (qualificazione), tavolo 1: "
                    "punteggi inseriti a mano", "posti scambiati",
                    "Alba (tavolo 1, posto 1) e Dora (tavolo 1, posto 4) — richiesta dei "
                    "giocatori", "Alba, arrivo alle 21:00: in orario",
                    "Bice -5 punti classifica — ritardo", "serata aperta", "torneo creato",
                    "orologio del turno", "serata 2027-03-02 (qualificazione), tavolo 1: "
                    "orologio del turno attivo (R11)"):
        assert italian in page, italian
    for english in ("enter result", "swap seats", "on_time", "ranking points", "table 1",
                    "open evening", "create tournament", "turn clock"):
        assert english not in page, english
    ref_client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = ref_client.get(url).content.decode()
    assert "result entered" in page and "Alba arrived at 21:00: on time" in page
