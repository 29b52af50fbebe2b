"""On the pages: ranking points with decimals (a comma in Italian), each row's table
points, bonus and ranking points, and one line saying how the standings are computed, on the
public standings, the console, the API and the CSV export.

The tournament is ``examples/season-2027.json`` (qualifying evenings only) under the
``win-bonus`` format (+50 to the table's winner, shared by tied winners; x1.25 at 5-player
tables); the figures are worked out by hand in ``tests/tournament/test_ranking_points.py``
(``WIN_BONUS_2027``): Gino 30 + 108 + 18 + 141.25 = 297.25 from 179 table points and two
wins (bonus 100); Alba 132.5 + 44 + 65 + 41 = 282.5 from 203 table points and one win.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from risiko.web import services
from risiko.web.public import data

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEASON = Path(__file__).resolve().parents[2] / "examples" / "season-2027.json"


@pytest.fixture(autouse=True)
def _setup(db):
    """Past the first run (a user exists, a referee); nothing remembered from another test."""
    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    data.clear_cache()
    yield
    data.clear_cache()


def _import(fmt: dict | None) -> str:
    data = json.loads(SEASON.read_text(encoding="utf-8"))
    data["evenings"] = [e for e in data["evenings"] if e["stage"] == "qualifying"]
    data["draws"] = []
    if fmt is not None:
        data["format"] = fmt
    return services.import_season(data, who="setup").slug


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _rows(html: str, table: str = '<table class="standings">') -> dict[str, list[str]]:
    """The cells of each row of the first ``table`` of a page, by player (second cell)."""
    body = html[html.index(table):]
    body = body[:body.index("</table>")]
    out = {}
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>|†", "", c).strip()
                 for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)]
        out[cells[1]] = cells
    return out


def test_public_standings_in_italian_show_table_points_bonus_and_decimal_commas(client):
    slug = _import({"base": "win-bonus"})
    html = client.get(f"/t/{slug}/").content.decode()
    rows = _rows(html)
    # rank, player, table points, bonus, ranking points, wins, games, R!, best, penalties
    assert rows["Gino"] == ["2", "Gino", "179", "100", "297,25", "2", "4", "0", "73", "0"]
    assert rows["Alba"] == ["4", "Alba", "203", "50", "282,5", "1", "4", "0", "66", "0"]
    assert rows["Mara"][:6] == ["1", "Mara", "240", "100", "340", "2"]
    assert rows["Rita"][:6] == ["10", "Rita", "142", "0", "189,5", "0"]
    text = _text(html)
    assert ("Punti classifica: punti tavolo, ×1,25 ai tavoli da 5, + 50 al vincitore del "
            "tavolo, diviso tra i vincitori a pari merito. A parità di punti: 1. più tavoli "
            "vinti, 2. il miglior punteggio al tavolo più alto") in text
    live = client.get(reverse("standings_live", args=[slug])).content.decode()
    assert _rows(live)["Gino"][4] == "297,25"
    player = _text(client.get(f"/t/{slug}/giocatori/Gino/").content.decode())
    assert "297,25" in player and "297.25" not in player


def test_public_standings_in_english_use_a_decimal_point(client):
    slug = _import({"base": "win-bonus", "discard_worst": 1, "discard_from_evening": 4})
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get(f"/t/{slug}/").content.decode()
    text = _text(html)
    assert ("Ranking points: table points, ×1.25 at 5-player tables, + 50 to the table's "
            "winner, shared by tied winners. The worst evening is discarded once 4 "
            "qualifying evenings have been held. Equal points: 1. more tables won") in text
    # four evenings held: each drops his worst; Gino drops the 18 of evening 3:
    # 30 + 108 + 141.25 = 279.25
    assert _rows(html)["Gino"][4] == "279.25"


def test_club_milano_pages_are_unchanged_but_say_how(client):
    slug = _import(None)
    html = client.get(f"/t/{slug}/").content.decode()
    rows = _rows(html)
    # rank, player, points, games, R!, best, penalties: no bonus columns under Club Milano
    assert rows["Mara"] == ["1", "Mara", "240", "4", "1", "100", "0"]
    text = _text(html)
    assert ("Punti classifica: i punti tavolo di ogni serata di qualificazione. A parità di "
            "punti: 1. più RisiKo!") in text
    assert "Bonus" not in html


def test_api_and_csv_carry_points_bonus_and_wins(client):
    slug = _import({"base": "win-bonus"})
    api = client.get(f"/api/tournaments/{slug}/standings").content.decode()
    assert '"points": 297.25' in api and '"points": 340,' in api  # integers stay integers
    gino = next(r for r in json.loads(api)["standings"] if r["player"] == "Gino")
    assert (gino["points"], gino["table_points"], gino["bonus"], gino["wins"]) == (
        297.25, 179, 100, 2)
    client.force_login(User.objects.get(username="arbitro"))
    body = client.get(reverse("console_standings_csv", args=[slug])).content.decode()
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(body))}
    assert list(rows["Gino"])[-3:] == ["table_points", "bonus", "wins"]
    assert (rows["Gino"]["points"], rows["Gino"]["table_points"], rows["Gino"]["bonus"],
            rows["Gino"]["wins"]) == ("297.25", "179", "100", "2")
    page = client.get(reverse("console_tournament", args=[slug])).content.decode()
    assert _rows(page)["Gino"][2:6] == ["179", "100", "297,25", "2"]


# --- named winners and the order of elimination in the database ---------------------------

TIED = {
    # A and B tie at 44; the club named B the winner; D was eliminated first, then C.
    # torneo-gufo: B 12 + 0.44 = 12.44, A (2nd) 7 + 0.44 = 7.44, C 3rd place out: 2,
    # D 4th place out: 1
    "name": "Gufo", "players": ["A", "B", "C", "D"],
    "format": {"base": "torneo-gufo"},
    "evenings": [{"date": "2027-01-05", "stage": "qualifying", "tables": [
        {"seats": ["A", "B", "C", "D"], "scores": {"A": 44, "B": 44, "C": 0, "D": 0},
         "winners": ["B"], "eliminated": ["D", "C"]}]}],
}


def test_a_season_file_keeps_its_named_winners_and_elimination_order_in_the_database():
    from risiko.tournament.season import compute_season
    from risiko.web import selectors
    from risiko.web.results.models import GameTable

    t = services.import_season(json.loads(json.dumps(TIED)), who="setup")
    report = selectors.season_report_of(t)
    assert [(r["player"], r["points"]) for r in report["standings"]] == [
        ("B", 12.44), ("A", 7.44), ("C", 2), ("D", 1)]
    assert report["standings"] == compute_season(TIED)["standings"]
    table = services.export_season(t)["evenings"][0]["tables"][0]
    assert (table["winners"], table["eliminated"]) == (["B"], ["D", "C"])
    # a correction keeps them unless it names others
    gt = GameTable.objects.get(evening__tournament=t)
    services.enter_scores(gt, {"A": 44, "B": 44, "C": 0, "D": 0}, reason="ricontati",
                          who="setup")
    assert selectors.season_report_of(t)["standings"][0]["player"] == "B"
    services.enter_scores(gt, {"A": 44, "B": 44, "C": 0, "D": 0}, winners=["a"],
                          reason="spareggio al tavolo", who="setup")
    assert [r["player"] for r in selectors.season_report_of(t)["standings"]] == [
        "A", "B", "C", "D"]
    # C is below the top score and was eliminated: both refused, naming him
    with pytest.raises(services.ServiceError) as err:
        services.enter_scores(gt, {"A": 44, "B": 44, "C": 0, "D": 0}, winners=["C"],
                              who="setup")
    assert sorted((f.code, f.subjects["player"]) for f in err.value.faults) == [
        ("ranking.eliminated_winner", "C"), ("ranking.winner_not_top", "C")]
