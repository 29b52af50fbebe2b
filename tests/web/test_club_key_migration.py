"""Club identifiers unique whatever their case (national 0008): a database made before,
with identifiers that differ by case only and identifiers of any form, migrates without
a change to any of them; from then on the database refuses a new identifier that differs
from a stored one by case only (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from migration_kit import latest, migrate

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

BEFORE = [("national", "0007_interclub_club")]


@pytest.fixture
def old_state():
    old = migrate(BEFORE)
    yield old
    migrate(latest())


def test_stored_identifiers_stay_and_a_new_case_twin_is_refused(old_state):
    OldClub = old_state.get_model("national", "Club")
    for key, slug in [("ROMA", "roma"), ("roma", "roma-2"), ("Bad Id!", "bad-id"),
                      ("Roma", "roma-3"), ("milano", "milano")]:
        OldClub.objects.create(key=key, name=f"{key} club", slug=slug)
    migrate(latest())

    from risiko.web.national.models import Club

    # every identifier as it was; the first ROMA of the three under the constraint, the
    # two stored after it (by id) left out of it
    assert list(Club.objects.order_by("pk").values_list("key", "key_case_twin")) == [
        ("ROMA", False), ("roma", True), ("Bad Id!", False), ("Roma", True),
        ("milano", False)]
    for twin in ("rOMA", "MILANO"):
        with pytest.raises(IntegrityError), transaction.atomic():
            Club.objects.create(key=twin, name="again", slug=twin.lower() + "-new")
    Club.objects.filter(key="Roma").update(name="Roma, renamed")  # a stored twin still saves
    Club.objects.create(key="napoli", name="NAPOLI", slug="napoli")
    assert Club.objects.filter(key__iexact="roma").count() == 3
