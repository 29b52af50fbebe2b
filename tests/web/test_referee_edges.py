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
