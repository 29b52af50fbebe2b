"""Clubs' writes at the same instant (issue 21 item 1), on SQLite and PostgreSQL, each
thread with its own connection: the default club is created once (``one_default_club``);
the same tournament name sent at once to one club is written once (``tournament_name_per_club``)
and to two clubs twice."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

N = 4


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; each closes its connection."""
    from django.db import connection

    barrier = threading.Barrier(len(calls))

    def one(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait(timeout=60)
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(one, calls))


def test_the_default_club_is_created_once() -> None:
    from risiko.web.clubs import default_club
    from risiko.web.national.models import Club

    clubs = at_once([default_club] * N)
    assert len({c.pk for c in clubs}) == 1
    assert list(Club.objects.values_list("is_default", flat=True)) == [True]


def _create(club: Any, name: str) -> str:
    from risiko.web import services
    from risiko.web.clubs import club_scope

    with club_scope(club):
        try:
            return services.create_tournament(name, who="t").slug
        except services.ServiceError:
            return "refused"


def test_one_name_at_one_club_at_once_is_one_tournament_and_at_two_clubs_two() -> None:
    from risiko.web.national.models import Club
    from risiko.web.tournaments.models import Tournament

    milano = Club.objects.create(key="MILANO", name="MILANO [Club Milano]", slug="milano")
    roma = Club.objects.create(key="ROMA", name="ROMA [Roma Club]", slug="roma")
    outcomes = at_once([lambda c=c: _create(c, "Coppa") for c in [milano, milano, roma, roma]])
    assert sorted(outcomes) == ["coppa", "coppa", "refused", "refused"]
    assert sorted(Tournament.all_clubs.values_list("club__key", "slug")) == [
        ("MILANO", "coppa"), ("ROMA", "coppa")]
