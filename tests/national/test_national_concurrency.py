"""Imports at the same instant write each tournament once and number its revisions
without a gap (the constraints national_tournament_once, national_revision_once and the
tournament row's lock), on SQLite and PostgreSQL. Each thread has its own connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from national_kit import report

from risiko.national.report import read_report

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

N = 4
FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")


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


def test_the_same_new_report_sent_at_once_is_written_once() -> None:
    from risiko.web.national.models import (
        Club,
        NationalPlayer,
        NationalResult,
        NationalTournament,
        TournamentRevision,
    )
    from risiko.web.national.services import import_report

    same = read_report(report(dates=FOUR_ROUNDS))
    outcomes = at_once([lambda: import_report(same, by="t")] * N)
    assert sorted((o.number, o.new, o.unchanged) for o in outcomes) == sorted(
        [(1, True, False)] + [(1, False, True)] * (N - 1))
    assert (Club.objects.count(), NationalTournament.objects.count(),
            TournamentRevision.objects.count(), NationalPlayer.objects.count(),
            NationalResult.objects.count()) == (1, 1, 1, 6, 6)


def test_different_revisions_sent_at_once_are_numbered_without_a_gap() -> None:
    from risiko.web.national.models import TournamentRevision
    from risiko.web.national.services import import_report, ranking

    keys = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]
    versions = [read_report(report(dates=FOUR_ROUNDS, standings=keys[i:] + keys[:i]))
                for i in range(N)]
    outcomes = at_once([lambda v=v: import_report(v, by="t") for v in versions])
    assert sorted(o.number for o in outcomes) == list(range(1, N + 1))
    assert sorted(TournamentRevision.objects.values_list("number", flat=True)) == list(
        range(1, N + 1))
    # the revision in force is the last one written: its winner leads the list
    last = TournamentRevision.objects.get(number=N)
    leader = last.report["standings"][0]["player"]
    national = {p["key"]: p["national_id"] for p in last.report["players"]}
    assert national[leader] is not None  # leaders p1..p4 are named
    assert ranking(2024).players[0].national_id == national[leader]
