"""Services fixed for the console: direct scores are refused where the season file refuses
them (a score above 100, R1; a player who left the game with a score other than 0, R13), so
that what the console saves always exports to a season file that reads back."""

from __future__ import annotations

import pytest

from risiko.web import selectors, services
from risiko.web.results.models import TableResult

pytestmark = [pytest.mark.db, pytest.mark.django_db]

WHO = "arbitro"
FIVE = ["Alba", "Bice", "Ciro", "Dora", "Ezio"]


def _table():
    t = services.create_tournament("Torneo di prova", who=WHO)
    services.add_players(t, FIVE, who=WHO)
    e = services.open_evening(t, "2027-03-02", who=WHO)
    services.set_tables(e, [FIVE], who=WHO)
    return t, services.get_table(e, 1)


def test_a_score_above_100_is_refused_r1():
    _, table = _table()
    with pytest.raises(services.ServiceError, match=r"Alba scores 101, above the maximum "
                                                    r"table score of 100 \(R1\)"):
        services.enter_scores(table, dict.fromkeys(FIVE, 10) | {"Alba": 101}, who=WHO)
    assert not TableResult.objects.exists()


def test_a_player_who_left_scores_0_r13():
    t, table = _table()
    scores = {"Alba": 57, "Bice": 40, "Ciro": 12, "Dora": 30, "Ezio": 20}
    with pytest.raises(services.ServiceError, match=r"Dora left the game \(R13\) but scores 30"):
        services.enter_scores(table, scores, abandoned=["Dora"], who=WHO)
    assert not TableResult.objects.exists()
    services.enter_scores(table, scores | {"Dora": 0}, abandoned=["Dora"], who=WHO)
    assert selectors.standings(t).row("Dora").points == -25
    assert selectors.faults_of(t) == []


def test_marking_who_left_after_the_scores_sets_his_score_to_0():
    t, table = _table()
    scores = {"Alba": 100, "Bice": 40, "Ciro": 12, "Dora": 30, "Ezio": 20}
    services.enter_scores(table, scores, risiko=["Alba"], who=WHO)
    services.mark_abandoned(table, "Alba", who=WHO)
    res = selectors.current_result(table)
    assert res is not None
    assert res.scores == scores | {"Alba": 0} and res.risiko == [] and res.abandoned == ["Alba"]
    assert selectors.standings(t).row("Alba").points == -25
    assert selectors.faults_of(t) == []
    copy = services.import_season(services.export_season(t), name="Copia", who=WHO)
    assert selectors.standings(copy).to_list() == selectors.standings(t).to_list()
