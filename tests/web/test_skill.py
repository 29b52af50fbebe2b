"""The players' skill view (issue 19): a Weng-Lin rating on the player's public page, from
every table in date order, keyed on the player, re-rated by a merge, never touching the
official standings.

Hand figures (see tests/test_ratings.py): between new players a seat's μ moves by
U · Σ (s − ½), U = σ₀²/c ≈ 5.2708, and σ² is multiplied by 1 − (n − 1)(σ₀/c)³/4.
"""

from __future__ import annotations

import math

import pytest
from django.contrib.auth.models import User

from risiko.web import selectors, services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.players.models import Player
from risiko.web.public import data, skill

pytest.importorskip("openskill")
pytestmark = [pytest.mark.db, pytest.mark.django_db]

WHO = "arbitro"
S0 = math.sqrt((25 / 3) ** 2 + (25 / 300) ** 2)
C = math.sqrt(2 * S0**2 + 2 * (25 / 6) ** 2)
U = S0**2 / C
SIGMA_ONE_4 = S0 * math.sqrt(1 - 3 * (S0 / C) ** 3 / 4)  # σ after one 4-seat game


@pytest.fixture(autouse=True)
def _setup(db):
    User.objects.create_user("arbitro", password="tavolo-rosso-42")
    data.clear_cache()
    skill.clear_cache()
    yield
    data.clear_cache()
    skill.clear_cache()


def _table(t, date, seats, scores, **extra):
    e = services.open_evening(t, date, who=WHO)
    services.set_tables(e, [seats], who=WHO)
    services.enter_scores(services.get_table(e, 1), scores, who=WHO, **extra)
    return e


def test_the_player_page_shows_the_conservative_rating_worked_by_hand(client):
    """Places 1, 2, 2, 4 (50, 40, 40, 10): Anna μ = 25 + 3·½·U, σ = σ after one 4-seat
    game; the page says μ − 3σ ≈ 10.4 in Italian."""
    t = services.create_tournament("Torneo", who=WHO)
    services.add_players(t, ["Anna", "Bruno", "Carla", "Dario"], who=WHO)
    _table(t, "2027-03-02", ["Anna", "Bruno", "Carla", "Dario"],
           {"Anna": 50, "Bruno": 40, "Carla": 40, "Dario": 10})
    anna, bruno, carla, dario = (skill.rating_of(n) for n in ["Anna", "Bruno", "Carla",
                                                              "Dario"])
    assert anna.mu == pytest.approx(25 + 1.5 * U) and anna.sigma == pytest.approx(SIGMA_ONE_4)
    assert bruno == carla and bruno.mu == pytest.approx(25)
    assert dario.mu == pytest.approx(25 - 1.5 * U)
    conservative = 25 + 1.5 * U - 3 * SIGMA_ONE_4
    assert round(conservative, 1) == 10.4
    html = client.get(f"/t/{t.slug}/giocatori/Anna/", HTTP_ACCEPT_LANGUAGE="it").content
    page = html.decode()
    assert "Valutazione di abilità" in page and "10,4" in page
    assert "Non è la classifica ufficiale e non la cambia mai." in page
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    english = client.get(f"/t/{t.slug}/giocatori/Anna/").content.decode()
    assert "Skill rating" in english and "10.4" in english
    assert "It is not the official ranking and never changes it." in english


def test_a_risiko_and_named_winners_come_before_table_points():
    """Carla's RisiKo! with 30 puts her first over Anna's 50; the named winner Bruno of a
    44-44 tie comes before Dario."""
    t = services.create_tournament("Torneo", who=WHO)
    services.add_players(t, ["Anna", "Bruno", "Carla", "Dario"], who=WHO)
    _table(t, "2027-03-02", ["Anna", "Bruno", "Carla", "Dario"],
           {"Anna": 50, "Bruno": 44, "Carla": 100, "Dario": 44}, risiko=["Carla"])
    (order,) = list(skill.table_orders())
    pk = dict(Player.objects.values_list("name", "pk"))
    assert sorted(order, key=lambda p: p[1]) == [
        (skill.identity(pk["Carla"]), 1), (skill.identity(pk["Anna"]), 2),
        (skill.identity(pk["Bruno"]), 3), (skill.identity(pk["Dario"]), 3)]


def test_the_skill_view_never_changes_the_official_standings(client):
    """The standings and the audit log are the same with and without the ratings read, and
    the skill order may differ from the points' (Bruno: most points, beaten once by Anna)."""
    t = services.create_tournament("Torneo", who=WHO)
    services.add_players(t, ["Anna", "Bruno", "Carla", "Dario"], who=WHO)
    _table(t, "2027-03-02", ["Anna", "Bruno", "Carla", "Dario"],
           {"Anna": 50, "Bruno": 45, "Carla": 20, "Dario": 10})
    before = [(r.player, r.points, r.rank) for r in selectors.standings(t).rows]
    api = client.get(f"/api/tournaments/{t.pk}/standings").json()
    audit = AuditEntry.objects.count()
    rated = skill.ratings()
    assert rated is not None and len(list(rated)) == 4
    client.get(f"/t/{t.slug}/giocatori/Bruno/")
    assert [(r.player, r.points, r.rank) for r in selectors.standings(t).rows] == before
    assert client.get(f"/api/tournaments/{t.pk}/standings").json() == api
    assert AuditEntry.objects.count() == audit


def test_a_merge_re_rates_the_two_as_one():
    """Bruno R. (a twin of Bruno) won the first evening, Bruno the second: after the merge
    Bruno's rating is that of one player who won both, computed from scratch."""
    t = services.create_tournament("Torneo", who=WHO)
    services.add_players(t, ["Anna", "Bruno", "Carla", "Dario"], who=WHO)
    twin = Player.objects.create(name="Bruno R.")
    t.entries.create(player=twin, order=99)
    _table(t, "2027-03-02", ["Anna", "Bruno R.", "Carla", "Dario"],
           {"Anna": 10, "Bruno R.": 60, "Carla": 20, "Dario": 30})
    _table(t, "2027-03-09", ["Anna", "Bruno", "Carla", "Dario"],
           {"Anna": 10, "Bruno": 60, "Carla": 20, "Dario": 30})
    from risiko.ratings import rate_all

    first = [("B2", 1), ("D", 2), ("C", 3), ("A", 4)]
    second = [("B", 1), ("D", 2), ("C", 3), ("A", 4)]
    twin_rating = skill.rating_of("Bruno R.")
    assert twin_rating.games == 1 and twin_rating.mu == pytest.approx(25 + 1.5 * U)
    alone = skill.rating_of("Bruno")
    expected = rate_all([first, second])["B"]
    assert alone.games == 1 and (alone.mu, alone.sigma) == pytest.approx(
        (expected.mu, expected.sigma))
    services.merge_players("Bruno", "Bruno R.", who="comitato")
    merged = skill.rating_of("Bruno")
    assert merged.games == 2 and skill.rating_of("Bruno R.") is None
    same = rate_all([second, second])["B"]
    assert (merged.mu, merged.sigma) == pytest.approx((same.mu, same.sigma))
    assert merged.mu > alone.mu and merged.sigma < alone.sigma


@pytest.mark.django_db(transaction=True)  # the computing thread reads what was committed
def test_on_the_server_a_page_gets_the_ratings_from_before_while_a_thread_computes(settings):
    import threading

    settings.RISIKO_PUBLIC_BACKGROUND = True
    t = services.create_tournament("Torneo", who=WHO)
    services.add_players(t, ["Anna", "Bruno", "Carla", "Dario"], who=WHO)
    _table(t, "2027-03-02", ["Anna", "Bruno", "Carla", "Dario"],
           {"Anna": 50, "Bruno": 40, "Carla": 40, "Dario": 10})
    first = skill.rating_of("Anna")  # none yet: computed by the request itself
    assert first.games == 1
    _table(t, "2027-03-09", ["Anna", "Bruno", "Carla", "Dario"],
           {"Anna": 50, "Bruno": 40, "Carla": 40, "Dario": 10})
    assert skill.rating_of("Anna") == first  # at once, the ratings from before
    for th in threading.enumerate():
        if th.name == "skill-ratings":
            th.join(30)
    assert skill.rating_of("Anna").games == 2
