"""The read-only JSON API: ``/api/tournaments`` and ``/api/tournaments/<id or slug>/standings``
(rows shaped as in ``risiko season --json``, plus the stage keys)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from test_public_pages import STANDINGS, WHO, build

from risiko.tournament.season import compute_season
from risiko.web import services
from risiko.web.public import data
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# the rows gain table_points, bonus and wins (at the end)
ROW_KEYS = ["rank", "player", "points", "games", "risiko", "best", "penalties", "eligible",
            "table_points", "bonus", "wins"]
STAGE_KEYS = ["semifinal_tables", "direct_to_final", "after_semifinal", "finalists",
              "final_winner", "final_standings", "pending",
              "faults"]  # the sibling list of values beside `pending`


@pytest.fixture(autouse=True)
def _setup(db):
    User.objects.create_user("arbitro", password="tavolo-rosso-42")
    data.clear_cache()
    yield
    data.clear_cache()


def _json(client, url):
    response = client.get(url)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return response.status_code, json.loads(response.content.decode("utf-8"))


def test_the_list_of_tournaments(client):
    assert _json(client, "/api/tournaments") == (200, [])
    t = build()
    old = Tournament.objects.create(name="Torneo 2026 «vecchio»", slug="torneo-2026",
                                    is_current=False)
    status, body = _json(client, "/api/tournaments")
    assert status == 200
    assert body == [
        {"id": old.pk, "slug": "torneo-2026", "name": "Torneo 2026 «vecchio»",
         "ruleset": "club-milano@1", "players": 0, "evenings": 0, "is_current": False},
        # created now with the bare name: the newest version (issue 16); the row stored
        # before with the bare name keeps @1
        {"id": t.pk, "slug": "torneo-di-prova", "name": "Torneo di prova",
         "ruleset": "club-milano@2", "players": 9, "evenings": 2, "is_current": True},
    ]
    raw = client.get("/api/tournaments").content.decode("utf-8")
    assert "«vecchio»" in raw  # not escaped (ensure_ascii=False)
    assert client.get("/api/tournaments/").status_code == 200


def test_the_standings_by_id_or_slug(client):
    t = build()
    status, body = _json(client, f"/api/tournaments/{t.pk}/standings")
    assert status == 200
    assert list(body) == ["id", "slug", "name", "ruleset", "format", "standings", *STAGE_KEYS]
    assert (body["id"], body["slug"], body["name"], body["ruleset"]) == (
        t.pk, "torneo-di-prova", "Torneo di prova", "club-milano@2")
    assert [list(r) for r in body["standings"]] == [ROW_KEYS] * len(STANDINGS)
    assert [(r["rank"], r["player"], r["points"], r["games"], r["risiko"], r["best"],
             r["penalties"]) for r in body["standings"]] == STANDINGS
    assert all(r["eligible"] for r in body["standings"])
    assert body["semifinal_tables"] is None and body["finalists"] is None
    assert body["pending"] == [
        "evening 2027-03-09 (qualifying), table 2: no result yet",
        "semifinal: 8 eligible players are ranked; the semifinal needs 10",
    ]
    assert _json(client, "/api/tournaments/torneo-di-prova/standings") == (status, body)
    assert client.get(f"/api/tournaments/{t.pk}/standings/").status_code == 200


def test_unknown_tournament_is_a_json_404(client):
    status, body = _json(client, "/api/tournaments/999/standings")
    assert status == 404 and body == {"error": "no tournament '999'"}
    assert _json(client, "/api/tournaments/nessuno/standings")[0] == 404


def test_the_season_example_gives_what_risiko_season_json_gives(client):
    season = json.loads((EXAMPLES / "season-2027.json").read_text(encoding="utf-8"))
    expected = compute_season(season)
    t = services.import_season(season, who=WHO)
    status, body = _json(client, f"/api/tournaments/{t.slug}/standings")
    assert status == 200
    assert body["standings"] == expected["standings"]
    for key in STAGE_KEYS:
        assert body[key] == expected[key], key
    assert body["format"] == expected["format"] and body["ruleset"] == expected["ruleset"]
    assert body["final_winner"] == "Ciro"
    assert body["final_standings"][:5] == ["Ciro", "Mara", "Bice", "Fede", "Rita"]


def test_the_api_is_read_only_and_open_to_other_sites(client):
    t = build()
    for url in ("/api/tournaments", f"/api/tournaments/{t.pk}/standings"):
        response = client.get(url)
        assert response["Access-Control-Allow-Origin"] == "*"
        assert client.post(url, {}).status_code == 405
        assert client.delete(url).status_code == 405
        assert client.head(url).status_code == 200
