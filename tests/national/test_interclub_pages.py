"""The interclub pages: public standings (Italian first, English on request), the JSON, the
committee's console building an event through its forms (exactly once), refusals said as
faults in the reader's language, and nobody else let in."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

pytestmark = [pytest.mark.db, pytest.mark.django_db]


@pytest.fixture
def committee() -> Client:
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user("comitato", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="committee")[0])
    client = Client()
    client.force_login(user)
    return client


def _token(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    found = re.search(r'name="once" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


def _post(client: Client, url: str, data: dict[str, object]) -> object:
    return client.post(url, {**data, "once": _token(client, url)})


def test_the_committee_builds_and_plays_an_event_through_the_forms(committee: Client) -> None:
    from risiko.web.national.models import (
        Club,
        InterclubEvent,
        InterclubMember,
        InterclubSeat,
        NationalPlayer,
    )

    clubs = [Club.objects.create(key=f"k{c}", name=f"CLUB{c}", region="Lombardia")
             for c in range(4)]
    for c in range(4):
        for i in range(4):
            NationalPlayer.objects.create(national_id=100 * (c + 1) + i, name=f"N{c}{i}",
                                          surname=f"S{c}{i}")
    made = _post(committee, "/nazionale/interclub/gestione/",
                 {"name": "Campionato a squadre", "year": 2027, "region": "", "rounds": 3,
                  "counted_games": 9})
    event = InterclubEvent.objects.get()
    url = f"/nazionale/interclub/{event.pk}/gestione/"
    assert made.url == url  # type: ignore[attr-defined]
    for club in clubs:
        _post(committee, url, {"action": "team", "team-club": club.pk, "team-name": ""})
    teams = {t.club_id: t for t in event.teams.all()}
    for c, club in enumerate(clubs):
        for i in range(4):
            _post(committee, url, {"action": "member", "member-team": teams[club.pk].pk,
                                   "member-national_id": 100 * (c + 1) + i})
    assert InterclubMember.objects.count() == 16
    # the same form sent twice: one member, "already recorded"
    token = _token(committee, url)
    NationalPlayer.objects.create(national_id=999, name="Ugo", surname="Rossi")
    data = {"action": "member", "member-team": teams[clubs[0].pk].pk,
            "member-national_id": 999, "once": token}
    committee.post(url, data)
    committee.post(url, data)
    assert InterclubMember.objects.filter(player__national_id=999).count() == 1
    # the same player in another team: refused, said in Italian
    page = committee.post(url, {"action": "member", "member-team": teams[clubs[1].pk].pk,
                                "member-national_id": 999, "once": _token(committee, url)},
                          follow=True)
    assert "è già nella squadra CLUB0" in page.content.decode()
    for c, club in enumerate(clubs):
        _post(committee, url, {"action": "field", "field-team": teams[club.pk].pk,
                               "field-round": 1,
                               "field-players": " ".join(str(100 * (c + 1) + i)
                                                         for i in range(4))})
    _post(committee, url, {"action": "seat", "seat-round": 1})
    assert InterclubSeat.objects.count() == 16
    table = list(InterclubSeat.objects.filter(table=1).select_related("member__player"))
    lines = "\n".join(f"{s.member.player.national_id} {v}{' R' if v == 0 else ''}"
                      for s, v in zip(table, (0, 40, 20, 10), strict=True))
    _post(committee, url, {"action": "result", "result-round": 1, "result-table": 1,
                           "result-lines": lines, "result-reason": ""})
    scores = sorted(str(s.score) for s in InterclubSeat.objects.filter(table=1))
    # a RisiKo! 13; then 40 -> 7.40, 20 -> 5.20, 10 -> 3.10
    assert scores == ["13.00", "3.10", "5.20", "7.40"]
    public = Client().get(f"/nazionale/interclub/{event.pk}/").content.decode()
    assert "Classifica a squadre" in public and "Classifica individuale" in public
    data = json.loads(Client().get(f"/nazionale/interclub/{event.pk}.json").content)
    assert [t["total"] for t in data["teams"]] == sorted(
        [13, 7.4, 5.2, 3.1], reverse=True)
    # Italian whatever the browser says; English on the language switch
    english = Client()
    assert "Classifica a squadre" in english.get(
        f"/nazionale/interclub/{event.pk}/", headers={"Accept-Language": "en"}
    ).content.decode()
    english.post("/i18n/setlang/", {"language": "en"})
    page = english.get(f"/nazionale/interclub/{event.pk}/").content.decode()
    assert "Team standings" in page and "Individual standings" in page
    refused = committee.post(url, {"action": "member", "member-team": teams[clubs[2].pk].pk,
                                   "member-national_id": 999,
                                   "once": _token(committee, url)}, follow=True)
    assert "è già nella squadra CLUB0" in refused.content.decode()


def test_the_console_is_the_committees(committee: Client) -> None:
    from django.contrib.auth.models import User

    assert Client().get("/nazionale/interclub/gestione/").status_code == 302  # to login
    someone = Client()
    someone.force_login(User.objects.create_user("giocatore", password="x-y-z-123456"))
    assert someone.get("/nazionale/interclub/gestione/").status_code == 403
    assert committee.get("/nazionale/interclub/gestione/").status_code == 200
    assert Client().get("/nazionale/interclub/").status_code == 200
    assert Client().get("/nazionale/interclub/9999/").status_code == 404


def test_regional_standings_and_an_unknown_region() -> None:
    from django.contrib.auth.models import User

    from risiko.web.national import interclub_services as svc
    from risiko.web.national.models import Club

    User.objects.create_user("arbitro", password="tavolo-rosso-42")  # past the first run

    event = svc.create_event("Campionato a squadre", 2027, who="ref")
    svc.add_team(event, Club.objects.create(key="mi", name="MILANO", region="Lombardia"),
                 who="ref")
    svc.add_team(event, Club.objects.create(key="to", name="TORINO", region="Piemonte"),
                 who="ref")
    data = json.loads(Client().get(f"/nazionale/interclub/{event.pk}.json",
                                   {"regione": "Piemonte"}).content)
    assert data["region"] == "Piemonte"
    assert [(t["position"], t["name"], t["total"]) for t in data["teams"]] == [
        (1, "TORINO", 0)]
    html = Client().get(f"/nazionale/interclub/{event.pk}/").content.decode()
    assert "Campionati regionali:" in html and "?regione=Piemonte" in html
    assert Client().get(f"/nazionale/interclub/{event.pk}/",
                        {"regione": "Sicilia"}).status_code == 404


def _member(name: str, club: object, role: str) -> Client:
    from django.contrib.auth.models import User

    from risiko.web.site.models import ClubMembership

    user = User.objects.create_user(name, password="tavolo-rosso-42")
    ClubMembership.objects.create(user=user, club=club, role=role)
    client = Client()
    client.force_login(user)
    return client


def test_an_event_is_run_by_its_organising_club_and_the_national_officer() -> None:
    """Roma's committee creates an event at its URLs: Roma organises it. Milano's committee
    gets 403 on its console (reading or sending), nothing written, no audit entry; Roma's
    referee opens it and may record a result but not add a team; the national officer runs
    it."""
    from django.contrib.auth.models import Group, User

    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national.models import Club, InterclubEvent, InterclubTeam

    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    milano = Club.objects.create(key="MILANO", name="MILANO", slug="milano")
    roma_committee = _member("comitato-roma", roma, "committee")
    milano_committee = _member("comitato-milano", milano, "committee")
    roma_referee = _member("arbitro-roma", roma, "referee")
    made = _post(roma_committee, "/c/roma/nazionale/interclub/gestione/",
                 {"name": "Coppa di Roma", "year": 2027, "region": "", "rounds": 3,
                  "counted_games": 9})
    event = InterclubEvent.objects.get()
    assert event.club == roma
    url = f"/nazionale/interclub/{event.pk}/gestione/"
    assert made.url == f"/c/roma{url}"  # type: ignore[attr-defined]
    # Milano's list shows none of Roma's events; its committee may not open Roma's console
    listing = milano_committee.get("/c/milano/nazionale/interclub/gestione/")
    assert listing.status_code == 200 and "Coppa di Roma" not in listing.content.decode()
    audited = AuditEntry.objects.count()
    for prefix in ("", "/c/milano", "/c/roma"):
        assert milano_committee.get(f"{prefix}{url}").status_code == 403
        refused = milano_committee.post(f"{prefix}{url}", {
            "action": "team", "team-club": milano.pk, "team-name": "", "once": "x" * 32})
        assert refused.status_code == 403
    assert not InterclubTeam.objects.exists()
    assert AuditEntry.objects.count() == audited  # no entry for the refused
    # its public pages are everyone's
    assert milano_committee.get(f"/nazionale/interclub/{event.pk}/").status_code == 200
    # Roma's committee runs it (200), Roma's referee sees it and its results form only
    assert roma_committee.get(url).status_code == 200
    page = roma_referee.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="result"' in html and 'value="team"' not in html
    assert "Organizzato da ROMA [Roma Club]." in html
    assert _post(roma_referee, url, {"action": "team", "team-club": roma.pk,
                                     "team-name": ""}).status_code == 403  # type: ignore[attr-defined]
    assert not InterclubTeam.objects.exists()
    # the national officer runs any event
    officer = User.objects.create_user("ufficiale", password="tavolo-rosso-42")
    officer.groups.add(Group.objects.get_or_create(name="national_officer")[0])
    client = Client()
    client.force_login(officer)
    done = _post(client, url, {"action": "team", "team-club": milano.pk, "team-name": ""})
    assert done.status_code == 302  # type: ignore[attr-defined]
    assert list(InterclubTeam.objects.values_list("club__key", flat=True)) == ["MILANO"]
    assert AuditEntry.objects.filter(action="interclub.team").count() == 1
