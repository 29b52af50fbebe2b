"""A club's page of the national list (issue 21 item 4, "per club"): its players with their
national positions, its tournaments of the year; JSON and CSV; Italian first, English.

Worked by hand (national_kit: first seat of each game wins; seats rotate by round):
- MILANO [Club Milano] (id ``milano``): "Open di Primavera", open of 4 rounds, 2 tables a
  round, T = 8 games: (100 + 8) * 2.0 = 216; 1st 1.2 * 216 = 259.20; p-th 216 * exp(-p/20):
  2nd 195.44, 3rd 185.91 (216 * 0.860708), 4th 176.85 (216 * 0.818731), 5th 168.22
  (216 * 0.778801), 6th 160.02 (216 * 0.740818). Everyone plays 4 games and wins 1 (the
  first seat of table 1 and 2 in each round: p1 p5, p2 p6, p3 p7, p4 p8).
  Its "Open d'Estate" is published, waiting for the officer: revision 0 in force, status
  "published".
- TORINO [Club Torino] (id ``TO-01``, URL name ``to-01``): a nazionale (counts nothing) of 2
  rounds in June, with Elena Fabbri (105) and Fabio Galli (106) 3rd and 4th: their latest
  tournament, so their club is TORINO's; 107 and 110 win a game each, 105 and 106 none.
  105: 168.22 points, 1 counted, 2 played, 4 + 2 = 6 games, 1 win (17%); 107: 0 points,
  shares position 7 with every player on 0.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.db import transaction
from django.test import Client
from national_kit import report

from risiko.national.report import read_report

pytestmark = [pytest.mark.db, pytest.mark.django_db]

FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")
TORINO = ("TO-01", "TORINO [Club Torino]")
TORINO_PLAYERS: list[tuple[str, int | None, str, str]] = [
    ("p1", 107, "Gino", "Ivi"), ("p2", 108, "Ida", "Lupi"),
    ("p3", 105, "Elena", "Fabbri"), ("p4", 106, "Fabio", "Galli"),
    ("p5", 109, "Luca", "Moro"), ("p6", 110, "Marta", "Neri"),
    ("p7", None, "Anonimo", "Anonimo"), ("p8", None, "Anonimo", "Anonimo")]


@pytest.fixture
def stored() -> None:
    from django.contrib.auth.models import User

    from risiko.web.national.services import import_report, store_revision

    User.objects.create_user("arbitro", password="tavolo-rosso-42")
    import_report(read_report(report(dates=FOUR_ROUNDS)), by="t")
    import_report(read_report(report("Nazionale di Torino", club=TORINO, category="nazionale",
                                     dates=("2024-06-01", "2024-06-02"),
                                     players=TORINO_PLAYERS)), by="t")
    with transaction.atomic():
        store_revision(read_report(report("Open d'Estate", dates=("2024-07-06", "2024-07-13"))),
                       source="", by="club", approved=False)


def test_the_clubs_players_and_tournaments_in_italian(stored: None) -> None:
    html = Client().get("/nazionale/2024/club/milano/").content.decode()
    assert "MILANO [Club Milano]: ranking nazionale 2024" in html
    for name, points in (("Anna Bassi", "259,20"), ("Bruno Conti", "195,44"),
                         ("Carla Dini", "185,91"), ("Dario Esposito", "176,85")):
        assert name in html and f'<td class="num">{points}</td>' in html
    assert "Elena Fabbri" not in html and "Gino Ivi" not in html  # TORINO's now
    assert '<td class="num">4</td><td class="num">1</td><td class="num">25 %</td>' in html
    assert "Open di Primavera" in html and "<td>Torneo Open</td>" in html
    assert "02/03/2024 – 23/03/2024" in html
    assert "Open d&#x27;Estate" in html and "pubblicato, in attesa di approvazione" in html
    # the waiting report shows its own number, as the CLI and the officer's page say it
    # (the trial read "Revisione 0 ... pubblicato" beside "revisione 1" elsewhere)
    assert ('<td class="num">1</td><td>pubblicato, in attesa di approvazione</td>'
            in html)
    assert "approvato" in html
    assert 'href="/nazionale/2024/club/milano.json"' in html


def test_found_by_id_or_url_name_and_in_english(stored: None) -> None:
    english = Client()
    english.cookies["django_language"] = "en"
    by_key = english.get("/nazionale/2024/club/TO-01/")
    by_slug = english.get("/nazionale/2024/club/to-01/")
    assert by_key.status_code == by_slug.status_code == 200
    html = by_slug.content.decode()
    assert "TORINO [Club Torino]: national ranking 2024" in html
    assert "Elena Fabbri" in html and "168.22" in html and "160.02" in html
    assert '<td class="num">17%</td>' in html  # English keeps the point and 17%
    assert "Nazionale di Torino" in html and "approved" in html
    assert "Anna Bassi" not in html


def test_the_club_url_name_in_any_case(stored: None) -> None:
    """issue (newcomer's trial): /nazionale/2024/club/ROMA/ was 404 while .../roma/ worked;
    the URL name (or the identifier) is found in any case, the page, JSON and CSV alike."""
    upper = Client().get("/nazionale/2024/club/MILANO/")
    assert upper.status_code == 200
    assert "MILANO [Club Milano]: ranking nazionale 2024" in upper.content.decode()
    assert Client().get("/nazionale/2024/club/Milano.json").json()["club"]["name"] == (
        "MILANO [Club Milano]")
    assert Client().get("/nazionale/2024/club/To-01/").status_code == 200
    assert Client().get("/nazionale/2024/club/NAPOLI/").status_code == 404


def test_json_has_the_year_lists_fields(stored: None) -> None:
    data = json.loads(Client().get("/nazionale/2024/club/to-01.json").content)
    assert data["year"] == 2024
    assert data["club"] == {"id": "TO-01", "name": "TORINO [Club Torino]"}
    players = data["players"]
    assert [(p["position"], p["national_id"], p["points"]) for p in players] == [
        (5, 105, 168.22), (6, 106, 160.02), (7, 107, 0.0), (7, 108, 0.0), (7, 109, 0.0),
        (7, 110, 0.0)]
    elena = players[0]
    assert set(elena) == {"position", "national_id", "name", "club", "points",
                          "by_category", "tournaments", "played", "games", "wins"}
    assert (elena["name"], elena["club"], elena["by_category"]["open"], elena["tournaments"],
            elena["played"], elena["games"], elena["wins"]) == (
        "Elena Fabbri", "TORINO [Club Torino]", 168.22, 1, 2, 6, 1)
    gino = players[2]
    assert (gino["tournaments"], gino["played"], gino["games"], gino["wins"]) == (0, 1, 2, 1)
    assert data["tournaments"] == [{
        "name": "Nazionale di Torino", "category": "nazionale", "first_date": "2024-06-01",
        "last_date": "2024-06-02", "finished": True, "revision": 1, "status": "approved",
        "status_revision": 1}]
    milano = json.loads(Client().get("/nazionale/2024/club/milano.json").content)
    assert [t["name"] for t in milano["tournaments"]] == ["Open di Primavera", "Open d'Estate"]
    estate = milano["tournaments"][1]
    assert (estate["revision"], estate["status"], estate["status_revision"]) == (
        0, "published", 1)


def test_csv_is_the_year_lists_rows_of_the_club(stored: None) -> None:
    rows = list(csv.reader(io.StringIO(
        Client().get("/nazionale/2024/club/milano.csv").content.decode())))
    assert rows[0][:5] == ["position", "national_id", "name", "club", "points"]
    assert [r[:5] for r in rows[1:]] == [
        ["1", "101", "Anna Bassi", "MILANO [Club Milano]", "259.20"],
        ["2", "102", "Bruno Conti", "MILANO [Club Milano]", "195.44"],
        ["3", "103", "Carla Dini", "MILANO [Club Milano]", "185.91"],
        ["4", "104", "Dario Esposito", "MILANO [Club Milano]", "176.85"]]
    assert rows[1][-4:] == ["1", "1", "4", "1"]


def test_linked_from_the_year_and_the_tournaments(stored: None) -> None:
    year = Client().get("/nazionale/2024/").content.decode()
    assert '<a href="/nazionale/2024/club/milano/">MILANO [Club Milano]</a>' in year
    assert '<a href="/nazionale/2024/club/to-01/">TORINO [Club Torino]</a>' in year
    tournaments = Client().get("/nazionale/2024/tornei/").content.decode()
    assert '<a href="/nazionale/2024/club/to-01/">TORINO [Club Torino]</a>' in tournaments


@pytest.mark.parametrize("path", [
    "/nazionale/2024/club/genova/", "/nazionale/2024/club/genova.json",
    "/nazionale/2024/club/genova.csv", "/nazionale/1999/club/milano/",
    "/nazionale/2100/club/milano.json"])
def test_an_unknown_club_or_year_is_not_found(stored: None, path: str) -> None:
    assert Client().get(path).status_code == 404
