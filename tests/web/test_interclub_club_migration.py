"""Interclub events belong to their organising club (issue 21): the events of a database
made before (national 0006) go to the default club, the club whose committee ran them."""

from __future__ import annotations

import pytest
from migration_kit import latest, migrate

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

BEFORE = [("national", "0006_club_tenancy"), ("tournaments", "0006_tournament_club")]


@pytest.fixture
def old_state():
    old = migrate(BEFORE)
    yield old
    migrate(latest())


def test_existing_events_go_to_the_default_club(old_state, settings):
    settings.RISIKO_CLUB_NAME = "MILANO [Club Milano]"
    settings.RISIKO_CLUB_ID = "MILANO"
    Event = old_state.get_model("national", "InterclubEvent")
    OldClub = old_state.get_model("national", "Club")
    OldClub.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    Event.objects.create(name="Campionato a squadre", year=2026)
    Event.objects.create(name="Regionale", year=2027, region="Lombardia")
    migrate(latest())

    from risiko.web.national.models import Club, InterclubEvent

    milano = Club.objects.get(is_default=True)
    assert (milano.key, milano.slug) == ("MILANO", "milano")
    assert sorted(InterclubEvent.objects.values_list("name", "club__key")) == [
        ("Campionato a squadre", "MILANO"), ("Regionale", "MILANO")]


def test_no_event_no_club_made(old_state):
    migrate(latest())
    from risiko.web.national.models import Club

    assert not Club.objects.exists()
