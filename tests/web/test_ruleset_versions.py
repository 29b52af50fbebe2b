"""Issue 16: a bare ruleset name typed to create something new (a tournament, an online
table) is the newest version; a bare name stored before (a row) keeps meaning @1."""

from __future__ import annotations

import pytest

from risiko.web import services
from risiko.web.online import services as online
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]


def test_a_new_tournament_with_a_bare_name_is_the_newest_version() -> None:
    t = services.create_tournament("Torneo nuovo", ruleset="club-milano", who="test")
    assert (t.ruleset_name, t.ruleset_version) == ("club-milano", 2)
    t = services.create_tournament("Torneo di ieri", ruleset="club-milano@1", who="test")
    assert (t.ruleset_name, t.ruleset_version) == ("club-milano", 1)
    old = Tournament.objects.create(name="Torneo 2026", slug="torneo-2026")  # a row before
    assert (old.ruleset_name, old.ruleset_version) == ("club-milano", 1)


def test_a_new_online_table_with_a_bare_name_is_the_newest_version() -> None:
    table = online.create_table(name="Prova", seats=3, who="test", ruleset="club-milano")
    assert table.ruleset == "club-milano@2"
    # a row written before versions were stored: its bare name is @1 (the game of that row,
    # as the server builds it: adapter.new_game with the row's ruleset)
    from risiko.online import adapter

    game = adapter.new_game(["Anna", "Bruno", "Carla"], "club-milano", bytes(32))
    assert game.ruleset.label == "club-milano@1"
