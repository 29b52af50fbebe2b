"""The committee changes a tournament's format in the console: a preset
(Club Milano's, GestioneTorneo's types) with changed parameters, the standings under it
compared first with today's (who moves up or down), then applied: by any referee before the
first evening, afterwards only by the committee, saying why, audit-logged.

Exactly once (as tests/web/test_write_once.py): the same form sent 8 times at once is one
change and one audit entry; two committee members applying different formats at the same
moment, each prepared against the same format, give one change and one refusal ("changed
meanwhile"). On the file SQLite database and on PostgreSQL (``make unit-postgres``).

The comparison on examples/season-2027.json (qualifying evenings) under ``win-bonus`` (the
figures by hand in tests/tournament/test_ranking_points.py, WIN_BONUS_2027): by table points
(Club Milano) Gino is 6th with 179 and Rita 7th with 179 (best 73 v 42), Dora 10th with 139;
under win-bonus Gino is 2nd (297.25: up 4), Rita 10th (189.5: down 3), Dora 8th (198.5: up
2), Mara stays 1st (240, then 340).
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from concurrency_kit import Session, fire
from django.urls import reverse
from test_ranking_pages import _rows

from risiko.tournament import get_format
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.core.models import FormToken
from risiko.web.public import data
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

SEASON = Path(__file__).resolve().parents[2] / "examples" / "season-2027.json"
N = 8


@pytest.fixture(autouse=True)
def _fresh_pages(fast_hashing):
    data.clear_cache()
    yield
    data.clear_cache()


@pytest.fixture
def committee(live_server, make_user) -> Session:
    return Session.logged_in(live_server.url, make_user("presidente", "committee"))


@pytest.fixture
def referee(live_server, make_user) -> Session:
    return Session.logged_in(live_server.url, make_user("arbitro", "referee"))


def _qualified() -> Tournament:
    season = json.loads(SEASON.read_text(encoding="utf-8"))
    season["evenings"] = [e for e in season["evenings"] if e["stage"] == "qualifying"]
    season["draws"] = []
    return services.import_season(season, who="setup")


def _expected(t: Tournament) -> str:
    return json.dumps(Tournament.objects.get(pk=t.pk).format)


def _changes() -> int:
    return AuditEntry.objects.filter(action="change format").count()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _compare_rows(html: str) -> dict[str, list[str]]:
    return _rows(html, '<table class="standings compare">')


def test_compare_first_then_apply(committee: Session) -> None:
    t = _qualified()
    path = reverse("console_format", args=[t.slug])
    page = committee.get(path)
    assert page.status == 200 and "Applica questo formato" not in _text(page.body)
    form = {"preset": "win-bonus", "params": "", "reason": "come il circolo di Pavia",
            "expected": _expected(t), "action": "compare", "once": committee.token(path)}
    answer = committee.post(path, form)
    assert answer.status == 200, answer.body[:500]
    rows = _compare_rows(answer.body)
    # new rank, player, new points, rank today, points today, moves
    assert rows["Gino"] == ["2", "Gino", "297,25", "6", "179", "↑4"]
    assert rows["Rita"] == ["10", "Rita", "189,5", "7", "179", "↓3"]
    assert rows["Dora"] == ["8", "Dora", "198,5", "10", "139", "↑2"]
    assert rows["Mara"] == ["1", "Mara", "340", "1", "240", "="]
    assert _changes() == 0 and Tournament.objects.get(pk=t.pk).format["name"] == "club-milano"
    compared = re.search(r'name="compared" value="([^"]*)"', answer.body).group(1)
    # apply what was compared
    answer = committee.post(path, {**form, "action": "apply", "compared": unescape(compared),
                                   "once": committee.token(path)})
    assert answer.status == 302, answer.body[:500]
    t.refresh_from_db()
    assert t.format["name"] == "win-bonus" and t.format["ranking_points"]["win_bonus"] == 50
    entry = AuditEntry.objects.get(action="change format")
    assert entry.who == "presidente" and "come il circolo di Pavia" in entry.summary
    assert entry.data["old"]["name"] == "club-milano"
    public = _text(committee.get(f"/t/{t.slug}/").body)
    assert "+ 50 al vincitore del tavolo" in public


def test_changed_parameters_and_an_apply_without_a_comparison(committee: Session) -> None:
    t = _qualified()
    path = reverse("console_format", args=[t.slug])
    form = {"preset": "win-bonus", "params": '{"ranking_points": {"win_bonus": 40}}',
            "reason": "bonus ridotto", "expected": _expected(t), "action": "apply",
            "compared": "", "once": committee.token(path)}
    answer = committee.post(path, form)  # never compared: shown, not applied
    assert answer.status == 200 and _changes() == 0
    assert "+ 40 al vincitore del tavolo" in _text(answer.body)
    assert "win_bonus 40 bonus al vincitore del tavolo" in _text(answer.body)  # parameters
    compared = unescape(re.search(r'name="compared" value="([^"]*)"', answer.body).group(1))
    answer = committee.post(path, {**form, "compared": compared, "once": committee.token(path)})
    assert answer.status == 302
    t.refresh_from_db()
    assert t.format["ranking_points"] == {"formula": "win_bonus", "five_seat_factor": 1.25,
                                          "win_bonus": 40}
    bad = committee.post(path, {**form, "params": '{"ranking_points": {"bonus": 5}}',
                                "once": committee.token(path)})
    assert bad.status == 400 and "non ha il parametro bonus" in _text(bad.body)


def test_after_the_first_evening_only_the_committee(referee: Session, committee: Session
                                                     ) -> None:
    t = _qualified()
    path = reverse("console_format", args=[t.slug])
    target = get_format("master").to_dict()
    form = {"preset": "master", "params": "", "reason": "", "expected": _expected(t),
            "action": "apply", "compared": json.dumps(target, sort_keys=True)}
    answer = referee.post(path, {**form, "reason": "x", "once": referee.token(path)})
    assert answer.status == 400 and "solo il comitato ne cambia il formato" in _text(answer.body)
    answer = committee.post(path, {**form, "once": committee.token(path)})  # no reason given
    assert answer.status == 400 and "scrivi perché il formato cambia" in _text(answer.body)
    assert _changes() == 0
    fresh = services.create_tournament("Torneo nuovo", who="setup")
    fresh_path = reverse("console_format", args=[fresh.slug])
    answer = referee.post(fresh_path, {**form, "expected": _expected(fresh),
                                       "once": referee.token(fresh_path)})
    assert answer.status == 302 and _changes() == 1  # no evening yet: a referee may


def test_the_same_change_sent_8_times_is_one_change(committee: Session) -> None:
    t = _qualified()
    target = get_format("win-bonus").to_dict()
    form = {"preset": "win-bonus", "params": "", "reason": "deciso in assemblea",
            "expected": _expected(t), "action": "apply",
            "compared": json.dumps(target, sort_keys=True),
            "once": committee.token(reverse("console_format", args=[t.slug]))}
    answers = fire(committee, reverse("console_format", args=[t.slug]), form, n=N)
    assert [a.status for a in answers] == [302] * N, [(a.status, a.body[:200]) for a in answers]
    assert FormToken.objects.count() == 1 and _changes() == 1


def test_two_changes_prepared_against_the_same_format_one_wins(committee: Session) -> None:
    t = _qualified()
    expected = _expected(t)
    payloads = []
    for i in range(N):
        preset = ("win-bonus", "master")[i % 2]
        target = get_format(preset).to_dict()
        payloads.append({"preset": preset, "params": "", "reason": f"proposta {i}",
                         "expected": expected, "action": "apply",
                         "compared": json.dumps(target, sort_keys=True),
                         "once": committee.token(reverse("console_format", args=[t.slug]))})
    answers = fire(committee, reverse("console_format", args=[t.slug]), payloads)
    statuses = sorted(a.status for a in answers)
    assert statuses == [302] + [400] * (N - 1), [(a.status, a.body[:200]) for a in answers]
    assert _changes() == 1
    refusals = [_text(a.body) for a in answers if a.status == 400]
    assert all("è stato cambiato nel frattempo" in r for r in refusals)
