"""An existing one-club database migrates to one club, nothing lost (issue 21 item 1): the
migration executor builds the database as it was before clubs owned tournaments, fills it,
migrates, and every tournament (with its entries and evenings) belongs to the default club
made from the settings."""

from __future__ import annotations

import datetime as dt

import pytest
from migration_kit import latest, migrate

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

BEFORE = [("tournaments", "0005_format_cap_players"), ("national", "0005_publishing")]


@pytest.fixture
def old_state():
    """The apps as they were before clubs (migrated back), and forward again afterwards."""
    old = migrate(BEFORE)
    yield old
    migrate(latest())


def _fill(old) -> None:
    Player = old.get_model("players", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    Entry = old.get_model("tournaments", "Entry")
    Evening = old.get_model("evenings", "Evening")
    t1 = Tournament.objects.create(name="Torneo 2026", slug="torneo-2026", format={},
                                   is_current=False)
    t2 = Tournament.objects.create(name="Torneo 2027", slug="torneo-2027", format={},
                                   previous=t1)
    for i, name in enumerate(("Anna Rossi", "Bruno Neri", "Carla Bianchi"), start=1):
        p = Player.objects.create(name=name, key=name.lower())
        Entry.objects.create(tournament=t1, player=p, order=i)
        Entry.objects.create(tournament=t2, player=p, order=i)
    Evening.objects.create(tournament=t2, date=dt.date(2027, 3, 2))


def test_every_tournament_goes_to_the_default_club_made_from_the_settings(old_state, settings):
    settings.RISIKO_CLUB_NAME = "MILANO [Club Milano]"
    settings.RISIKO_CLUB_ID = "MILANO"
    _fill(old_state)
    migrate(latest())

    from risiko.web.national.models import Club
    from risiko.web.tournaments.models import Entry, Tournament

    club = Club.objects.get()
    assert (club.key, club.name, club.slug, club.is_default) == (
        "MILANO", "MILANO [Club Milano]", "milano", True)
    rows = list(Tournament.all_clubs.order_by("name").values_list("name", "slug", "club_id"))
    assert rows == [("Torneo 2026", "torneo-2026", club.pk),
                    ("Torneo 2027", "torneo-2027", club.pk)]
    assert Entry.objects.count() == 6
    t2 = Tournament.all_clubs.get(slug="torneo-2027")
    assert (t2.previous.slug, t2.evenings.count(), t2.is_current) == ("torneo-2026", 1, True)


def test_a_club_the_ranking_already_knows_becomes_the_default(old_state, settings):
    settings.RISIKO_CLUB_NAME = "MILANO [Club Milano]"
    settings.RISIKO_CLUB_ID = "MILANO"
    OldClub = old_state.get_model("national", "Club")
    OldClub.objects.create(key="ROMA", name="ROMA [Roma Club]")
    known = OldClub.objects.create(key="MILANO", name="MILANO", region="Lombardia")
    _fill(old_state)
    migrate(latest())

    from risiko.web.national.models import Club
    from risiko.web.tournaments.models import Tournament

    assert sorted(Club.objects.values_list("key", "slug", "is_default")) == [
        ("MILANO", "milano", True), ("ROMA", "roma", False)]
    assert set(Tournament.all_clubs.values_list("club_id", flat=True)) == {known.pk}
    # the ranking's own name and region are kept
    assert Club.objects.get(key="MILANO").region == "Lombardia"


def test_a_database_without_tournaments_gets_no_club_until_it_needs_one(old_state):
    migrate(latest())

    from risiko.web.clubs import default_club
    from risiko.web.national.models import Club

    assert Club.objects.count() == 0
    club = default_club()
    assert (Club.objects.count(), club.is_default) == (1, True)
    assert default_club().pk == club.pk
