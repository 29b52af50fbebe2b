"""The national register in the administration (committee only): an exclusion
added there takes the player out of the list; tournaments are read only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from national_kit import report

from risiko.national.report import read_report

pytestmark = [pytest.mark.db, pytest.mark.django_db]

FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")


@pytest.fixture(autouse=True)
def _fast_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def committee() -> Client:
    user = User.objects.create_user("comitato", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="committee")[0])
    c = Client()
    c.force_login(user)
    return c


def test_an_exclusion_added_in_the_admin_takes_the_player_out() -> None:
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national.models import NationalPlayer, NationalTournament
    from risiko.web.national.services import import_report, ranking

    import_report(read_report(report(dates=FOUR_ROUNDS)), by="t")
    c = committee()
    for model in ("club", "nationalplayer", "exclusion", "nationaltournament"):
        assert c.get(f"/admin/national/{model}/").status_code == 200, model
    tournament = NationalTournament.objects.get()
    assert c.get(f"/admin/national/nationaltournament/{tournament.pk}/change/"
                 ).status_code == 200
    assert c.get("/admin/national/nationaltournament/add/").status_code == 403
    anna = NationalPlayer.objects.get(national_id=101)
    bad = c.post("/admin/national/exclusion/add/", {
        "player": anna.pk, "years": "2024; 2025", "reason": "x"})
    assert bad.status_code == 200 and "Anni separati da virgole" in bad.content.decode()
    done = c.post("/admin/national/exclusion/add/", {
        "player": anna.pk, "years": "2024, 2025", "start": "", "end": "",
        "reason": "fuori classifica"})
    assert done.status_code == 302, done.content.decode()[:2000]
    assert [p.national_id for p in ranking(2024).players][:1] == [102]
    assert AuditEntry.objects.filter(action="admin add").count() == 1


def test_a_club_added_or_changed_in_the_admin_meets_the_registers_rules() -> None:
    """The admin ("Club del ranking") follows ``national club add``: a new identifier of
    another form, or one that is another club's URL name, is refused on the form in
    Italian, nothing written; a club stored before with an identifier in capitals is
    changed (its name) without its identifier being checked."""
    from risiko.web.national.models import Club

    Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="milano")
    c = committee()
    fields = {"name": "ROMA [Roma Club]", "region": "", "official_from": "",
              "official_to": ""}
    bad = c.post("/admin/national/club/add/", {**fields, "key": "Bad Id!", "slug": "roma"})
    assert bad.status_code == 200
    assert ("identificativo Bad Id!: solo lettere minuscole a-z, cifre e trattini"
            in bad.content.decode().replace("&#x27;", "'"))
    slug = c.post("/admin/national/club/add/", {**fields, "key": "milano", "slug": "rm"})
    assert slug.status_code == 200  # milano: the URL name of MILANO's club, and its twin
    assert "il club MILANO è già registrato" in slug.content.decode()
    is_key = c.post("/admin/national/club/add/", {**fields, "key": "roma", "slug": "Milano"})
    assert is_key.status_code == 200
    assert Club.objects.count() == 1
    stored = Club.objects.get()
    kept = c.post(f"/admin/national/club/{stored.pk}/change/", {
        **fields, "key": "MILANO", "name": "MILANO [Club Milano 1970]", "slug": "milano"})
    assert kept.status_code == 302, kept.content.decode()[:2000]
    assert Club.objects.get().name == "MILANO [Club Milano 1970]"
    done = c.post("/admin/national/club/add/", {**fields, "key": "roma", "slug": "roma"})
    assert done.status_code == 302 and Club.objects.filter(key="roma").exists()
