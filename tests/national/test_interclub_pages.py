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
