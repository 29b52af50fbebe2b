"""Big tournaments: the season import looks each player up once and writes
with bulk inserts (its number of queries does not grow with the evenings), keeps an audit
entry per evening that says what it brought; the referee console's tournament, stages,
CSV and print pages use the change-keyed snapshot of the public pages (computed once per
change, fresh after every write), and requests arriving together after a change compute
it once. Speed itself is measured by bench/bench_import.py and bench/bench_web.py."""

from __future__ import annotations

import copy
import datetime as _dt
import json
import threading
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from risiko.tournament.season import compute_season
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival
from risiko.web.public import data
from risiko.web.results.models import Seat, TableResult
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEASON = Path(__file__).parents[2] / "examples" / "season-2027.json"


def _season() -> dict:
    return json.loads(SEASON.read_text(encoding="utf-8"))


def _qualifying(season: dict, repeat: int) -> dict:
    """The season's qualifying evenings, played ``repeat`` times over (each round of them
    ``len`` weeks after the last), without the stages and their draws."""
    out = copy.deepcopy(season)
    qualifying = [e for e in season["evenings"] if e["stage"] == "qualifying"]
    out["evenings"] = []
    for k in range(repeat):
        for e in qualifying:
            e2 = copy.deepcopy(e)
            day = _dt.date.fromisoformat(e["date"]) + _dt.timedelta(weeks=k * len(qualifying))
            e2["date"] = day.isoformat()
            out["evenings"].append(e2)
    out["draws"] = []
    return out


def _queries(season: dict, name: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        services.import_season(season, who="test", name=name)
    return len(ctx)


def test_the_import_queries_do_not_grow_with_the_evenings():
    season, doubled = _qualifying(_season(), 1), _qualifying(_season(), 2)
    assert sum(len(e.get("arrivals", {})) for e in doubled["evenings"]) > sum(
        len(e.get("arrivals", {})) for e in season["evenings"])
    _queries(season, "Zero")  # the players exist from now on, for both imports below
    # the same players: the same lookups; twice the evenings: the same bulk inserts
    assert _queries(season, "Uno") == _queries(doubled, "Due")


def test_the_import_writes_every_fact_and_an_audit_entry_per_evening():
    season = _season()
    t = services.import_season(season, who="luca")
    # every fact, as the file says (the file's own computation agrees with the database's)
    assert services.export_season(t) | {"name": season["name"]} == services.export_season(t)
    assert data.snapshot(t).report["standings"] == compute_season(season)["standings"]
    n_seats = sum(len(tb["seats"]) for e in season["evenings"] for tb in e["tables"])
    assert Seat.objects.filter(table__evening__tournament=t).count() == n_seats
    assert Arrival.objects.filter(evening__tournament=t).count() == sum(
        len(e.get("arrivals", {})) for e in season["evenings"])
    assert TableResult.objects.filter(table__evening__tournament=t).count() == sum(
        1 for e in season["evenings"] for tb in e["tables"]
        if "scores" in tb or "sheet" in tb)
    entries = list(AuditEntry.objects.filter(tournament=t.name, action="open evening")
                   .order_by("id"))
    assert len(entries) == len(season["evenings"])
    first = season["evenings"][0]
    assert entries[0].who == "luca"
    assert entries[0].summary == (
        f"{first['date']} (qualifying) from a season file: {len(first['arrivals'])} "
        f"arrivals, {len(first['tables'])} tables, {len(first['tables'])} results, 0 "
        "penalties")
    assert entries[0].target == f"evenings.Evening:{t.evenings.get(date=first['date']).pk}"
    assert AuditEntry.objects.filter(tournament=t.name, action="import season").count() == 1
    assert AuditEntry.objects.filter(tournament=t.name, action="add player").count() == len(
        season["players"])


def _referee_client() -> Client:
    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    c = Client()
    c.force_login(user)
    return c


def test_the_console_pages_compute_the_season_once_per_change(monkeypatch):
    t = services.import_season(_season(), who="test")
    c = _referee_client()
    calls = []
    real = data.load_tournament
    monkeypatch.setattr(data, "load_tournament", lambda t: calls.append(t.pk) or real(t))
    data.clear_cache()
    pages = [f"/arbitro/t/{t.slug}/", f"/arbitro/t/{t.slug}/fasi/",
             f"/arbitro/t/{t.slug}/classifica.csv", f"/arbitro/t/{t.slug}/classifica.json",
             f"/arbitro/t/{t.slug}/classifica/stampa/", "/classifica/"]
    for url in pages * 2:
        assert c.get(url).status_code == 200, url
    assert calls == [t.pk]  # twelve pages, one computation
    # a write through the services: the next page is computed again, and shows it
    evening = t.evenings.filter(stage="qualifying").order_by("date").first()
    name = season_player = _season()["players"][0]
    services.add_penalty(evening, season_player, -30, unit="ranking", reason="R10",
                         referee="Luca", who="arbitro")
    page = c.get(f"/arbitro/t/{t.slug}/").content.decode()
    assert calls == [t.pk, t.pk]
    row = next(r for r in data.snapshot(t).report["standings"] if r["player"] == name)
    assert row["penalties"] <= -30
    assert f"<td class=\"num\">{row['penalties']}</td>" in page
    assert c.get(f"/arbitro/t/{t.slug}/classifica.csv").content.decode().count(
        str(row["points"])) >= 1


class _FakeSnapshot(tuple[str, object]):
    """A snapshot's stand-in: equal to ``("snapshot", domain)``, and it takes the change key
    the cache writes on every snapshot it keeps (``Snapshot.key``)."""


def _fake_snapshot(domain: object, unreadable: object = ()) -> _FakeSnapshot:
    return _FakeSnapshot(("snapshot", domain))


def test_requests_after_a_change_compute_the_snapshot_once(monkeypatch):
    t = Tournament(pk=424242, name="x")
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow_load(tournament: Tournament) -> str:
        calls.append(tournament.pk)
        started.set()
        release.wait(10)  # the others arrive while this one computes
        return "domain"

    monkeypatch.setattr(data, "change_key", lambda: ("k",))
    monkeypatch.setattr(data, "load_tournament", slow_load)
    monkeypatch.setattr(data, "Snapshot", _fake_snapshot)
    data.clear_cache()
    out: list[object] = []
    threads = [threading.Thread(target=lambda: out.append(data.snapshot(t))) for _ in range(8)]
    for th in threads:
        th.start()
    assert started.wait(10)
    release.set()
    for th in threads:
        th.join(10)
    assert calls == [424242]
    assert out == [("snapshot", "domain")] * 8
    data.clear_cache()


def test_during_a_computation_phones_get_the_previous_snapshot_and_referees_wait(monkeypatch):
    t = Tournament(pk=434343, name="x")
    key = ["before"]
    started, release = threading.Event(), threading.Event()

    def load(tournament: Tournament) -> str:
        if key[0] == "after":
            started.set()
            release.wait(10)
        return key[0]

    monkeypatch.setattr(data, "change_key", lambda: (key[0],))
    monkeypatch.setattr(data, "load_tournament", load)
    monkeypatch.setattr(data, "Snapshot", _fake_snapshot)
    data.clear_cache()
    assert data.snapshot(t) == ("snapshot", "before")
    key[0] = "after"  # a result is saved
    first: list[object] = []
    computing = threading.Thread(target=lambda: first.append(data.snapshot(t)))
    computing.start()
    assert started.wait(10)
    # a phone asking meanwhile is answered at once, with the standings from before
    assert data.snapshot(t) == ("snapshot", "before")
    # the referee console waits for the new one
    referee: list[object] = []
    waiting = threading.Thread(target=lambda: referee.append(data.snapshot(t, fresh=True)))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive() and referee == []
    release.set()
    computing.join(10)
    waiting.join(10)
    assert first == referee == [("snapshot", "after")]
    assert data.snapshot(t) == ("snapshot", "after")
    data.clear_cache()
