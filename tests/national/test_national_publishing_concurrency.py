"""The flow's writes at the same instant happen once, on SQLite and PostgreSQL: 4 officers
approving one report (one approval, one audit entry), an approval racing a refusal (one
decision), 4 club servers sending the same signed revision (stored once, the others refused
as replays), 4 referees publishing the same report (one revision). Each thread has its own
connection (the helper of test_national_concurrency)."""

from __future__ import annotations

from typing import Any

import pytest
from national_kit import report
from test_national_concurrency import at_once

from risiko.national.publish import envelope, sign
from risiko.national.report import read_report

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

N = 4
PLAYERS: list[tuple[str, int | None, str, str]] = [
    ("p1", 101, "Anna", "Bassi"), ("p2", 102, "Bruno", "Conti"),
    ("p3", 103, "Carla", "Dini"), ("p4", None, "Anonimo", "Anonimo")]


def open_2019() -> Any:
    return read_report(report("Open 2019", dates=("2019-05-04",), tables_per_round=1,
                              players=PLAYERS))


def attempt(call: Any) -> str:
    """``"ok"`` or the refusal's code."""
    from risiko.web.national.publishing import PublishError

    try:
        call()
    except PublishError as e:
        return e.fault.code
    return "ok"


def test_four_officers_approving_one_report_approve_it_once() -> None:
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national.models import TournamentRevision
    from risiko.web.national.publishing import approve, publish_report
    from risiko.web.national.services import ranking

    publish_report(open_2019(), by="arbitro")
    pk = TournamentRevision.objects.get().pk
    outcomes = at_once([lambda i=i: attempt(lambda: approve(pk, by=f"u{i}"))
                        for i in range(N)])
    assert sorted(outcomes) == ["national.already_decided"] * (N - 1) + ["ok"]
    assert AuditEntry.objects.filter(action="national.approve").count() == 1
    row = TournamentRevision.objects.get()
    assert (row.status, row.tournament.current) == ("approved", 1)
    assert [(p.national_id, str(p.points)[:6]) for p in ranking(2019).players] == [
        (101, "242.39"), (102, "182.77"), (103, "173.86")]


def test_an_approval_racing_a_refusal_decides_once() -> None:
    from risiko.web.national.models import TournamentRevision
    from risiko.web.national.publishing import approve, publish_report, refuse

    publish_report(open_2019(), by="arbitro")
    pk = TournamentRevision.objects.get().pk
    outcomes = at_once([lambda: attempt(lambda: approve(pk, by="a")),
                        lambda: attempt(lambda: refuse(pk, by="b", reason="doppio"))] * 2)
    assert sorted(outcomes) == ["national.already_decided"] * 3 + ["ok"]
    row = TournamentRevision.objects.get()
    assert row.status in ("approved", "refused")
    assert (row.tournament.current == 1) == (row.status == "approved")


def test_the_same_signed_revision_sent_four_times_at_once_is_stored_once(
        settings: Any) -> None:
    from django.test import Client

    from risiko.web.national.models import Club, NationalTournament, TournamentRevision
    from risiko.web.national.publishing import issue_key

    settings.RISIKO_CLUB_KEY_SECRET = "master-secret-of-the-tests"
    Club.objects.create(key="milano", name="MILANO [Club Milano]")
    key, secret = issue_key("milano", by="ufficiale")
    body = envelope(open_2019(), 11)

    def send() -> int:
        return Client().post("/nazionale/api/pubblica/", body,
                             content_type="application/json", HTTP_X_RISIKO_KEY=key.key_id,
                             HTTP_X_RISIKO_SIGNATURE=sign(body, secret)).status_code

    assert sorted(at_once([send] * N)) == [201] + [409] * (N - 1)
    assert NationalTournament.objects.count() == 1
    assert list(TournamentRevision.objects.values_list("number", "club_revision",
                                                       "status")) == [(1, 11, "published")]


def test_four_referees_publishing_the_same_report_write_one_revision() -> None:
    from risiko.web.national.models import TournamentRevision
    from risiko.web.national.publishing import publish_report

    same = open_2019()
    outcomes = at_once([lambda: publish_report(same, by="arbitro")] * N)
    assert sorted((o.number, o.unchanged) for o in outcomes) == [(1, False)] + [
        (1, True)] * (N - 1)
    assert TournamentRevision.objects.count() == 1


def test_four_officers_registering_one_club_at_once_register_it_once() -> None:
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.national.models import Club
    from risiko.web.national.publishing import register_club

    outcomes = at_once([lambda i=i: attempt(lambda: register_club(
        "napoli", f"NAPOLI {i}", by=f"u{i}")) for i in range(N)])
    assert sorted(outcomes) == ["national.club_registered"] * (N - 1) + ["ok"]
    assert Club.objects.filter(key="napoli").count() == 1
    assert AuditEntry.objects.filter(action="national.club_add").count() == 1
