"""The national skill view (issue 19): a Weng-Lin rating keyed on the national id, from the
games of the revisions in force, on the national player's page; a new revision re-rates;
the national list never changes. Hand figures as in tests/test_ratings.py: between new
players a seat's μ moves by U · Σ (s − ½), U = σ₀²/c ≈ 5.2708."""

from __future__ import annotations

import math

import pytest
from national_kit import PLAYERS, report

from risiko.national.report import read_report

pytest.importorskip("openskill")
pytestmark = [pytest.mark.db, pytest.mark.django_db]

S0 = math.sqrt((25 / 3) ** 2 + (25 / 300) ** 2)
C = math.sqrt(2 * S0**2 + 2 * (25 / 6) ** 2)
U = S0**2 / C
SIGMA_ONE_4 = S0 * math.sqrt(1 - 3 * (S0 / C) ** 3 / 4)


@pytest.fixture(autouse=True)
def _fresh():
    """Past the first run (a user exists); no ratings remembered."""
    from django.contrib.auth.models import User

    from risiko.web.national import skill

    User.objects.create_user("arbitro", password="tavolo-rosso-42")

    skill.clear_cache()
    yield
    skill.clear_cache()


def test_the_national_page_shows_the_rating_keyed_on_the_national_id(client) -> None:
    """One game: Anna (101) wins with 90, then 40, 30, 20: Anna μ = 25 + 3 · ½ · U, σ after
    one 4-seat game, μ − 3σ ≈ 10.4; the list is the same with the ratings read."""
    from risiko.web.national import services, skill

    one_game = report(dates=("2024-03-02",), tables_per_round=1, players=PLAYERS[:4])
    services.import_report(read_report(one_game), by="t")
    before = services.ranking(2024)
    anna = skill.rating_of(101)
    assert anna.mu == pytest.approx(25 + 1.5 * U) and anna.sigma == pytest.approx(SIGMA_ONE_4)
    assert skill.rating_of(104).mu == pytest.approx(25 - 1.5 * U)
    assert skill.rating_of(105) is None  # not seated
    page = client.get("/nazionale/giocatore/101/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Valutazione di abilità" in page and "10,4" in page
    assert "Non è la classifica nazionale e non la cambia mai." in page
    assert services.ranking(2024) == before


def test_a_new_revision_re_rates_and_anonymous_seats_are_rated_apart() -> None:
    """The report corrected: Bruno (102) won, not Anna; the anonymous seats of a second
    tournament are rated but never named."""
    from risiko.web.national import services, skill

    first = report(dates=("2024-03-02",), tables_per_round=1, players=PLAYERS[:4])
    services.import_report(read_report(first), by="t")
    assert skill.rating_of(101).mu > 25
    corrected = report(dates=("2024-03-02",), tables_per_round=1, players=PLAYERS[:4])
    corrected["games"][0]["winners"] = ["p2"]
    corrected["games"][0]["seats"][1]["points"] = 95
    services.import_report(read_report(corrected), by="t")
    assert skill.rating_of(102).mu == pytest.approx(25 + 1.5 * U)  # 1st: winner, 95
    assert skill.rating_of(101).mu == pytest.approx(25 + 0.5 * U)  # 2nd of 4
    assert skill.rating_of(101).games == 1  # the old revision counts no more
    services.import_report(read_report(report("Altro", dates=("2024-04-06",))), by="t")
    assert skill.rating_of(101).games == 2
    rated = skill.ratings()
    assert rated is not None
    assert sorted(k for k in rated if k.startswith("anonymous:"))[0].endswith(":p7")
    assert {k for k in rated if k.startswith("national:")} == {
        f"national:{n}" for n in range(101, 107)}
