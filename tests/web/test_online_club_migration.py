"""An existing database's online tables migrate to their clubs, nothing lost (issue 21
item 1): migrated back to before tables had a club, filled, migrated forward: an evening's
table goes to its tournament's club, every casual table to the default club made from the
settings."""

from __future__ import annotations

import datetime as dt

import pytest
from migration_kit import latest, migrate

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def old_state():
    """Every app as now, the online tables as before they had a club."""
    old = migrate([n for n in latest() if n[0] != "online"]
                   + [("online", "0007_onlinetable_fillfactor")])
    yield old
    migrate(latest())


def test_every_table_goes_to_its_tournaments_club_or_the_default_club(old_state, settings):
    settings.RISIKO_CLUB_NAME = "MILANO [Club Milano]"
    settings.RISIKO_CLUB_ID = "MILANO"
    Club = old_state.get_model("national", "Club")
    Tournament = old_state.get_model("tournaments", "Tournament")
    Evening = old_state.get_model("evenings", "Evening")
    GameTable = old_state.get_model("results", "GameTable")
    OnlineTable = old_state.get_model("online", "OnlineTable")
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    t = Tournament.objects.create(club=roma, name="Torneo", slug="torneo", format={})
    gt = GameTable.objects.create(evening=Evening.objects.create(
        tournament=t, date=dt.date(2027, 3, 2)), number=1)
    for code, game_table in (("serata", gt), ("casual1", None), ("casual2", None)):
        OnlineTable.objects.create(code=code, name=code, seats=4, seed="00", commitment="c",
                                   game_table=game_table)
    migrate(latest())

    from risiko.web.national.models import Club as NewClub
    from risiko.web.online.models import OnlineTable as NewTable

    home = NewClub.objects.get(is_default=True)
    assert (home.key, home.slug) == ("MILANO", "milano")
    assert sorted(NewTable.objects.values_list("code", "club__slug")) == [
        ("casual1", "milano"), ("casual2", "milano"), ("serata", "roma")]
