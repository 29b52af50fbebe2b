"""Benchmark of the public pages (figures written in docs/web.md; not a timed test).

Builds a tournament of ``PLAYERS`` (200) players and ``EVENINGS`` (30) qualifying evenings in
a temporary SQLite database - bulk ORM inserts: every evening has arrivals (a few late, one
excluded), tables of 5 and 4 with a result (one table in ``SHEET_EVERY`` (4) by an
end-of-game sheet, the others by scores, a RisiKo! now and then), a table penalty, a ranking
penalty with an appeal and a player who left the game (R13) - then times, with Django's test
client (server side: the whole request through the middleware, no network), the standings
page ``/classifica/``, its live partial, the JSON API standings, an evening and a player's
page: the median of ``RUNS`` (20) requests after a warm-up request.

Three figures per page: **cold** (every cache of :mod:`risiko.web.public.data` emptied before
each request: the first visitor after the server starts), **changed** (a write - an audit
entry - before each request: what the first visitor after a new result waits; parsed sheets
and past rankings are still remembered) and **warm** (nothing changed since the last request:
what the phones polling every 10 s get); the same for the referee console's tournament
page, stages, standings CSV and printable standings (the same cache). Also
``selectors.load_tournament`` and
``selectors.season_report_of`` (one query or more per table, no cache), for comparison.
Run: ``.venv/bin/python bench/bench_web.py [PLAYERS] [EVENINGS] [RUNS]``.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PLAYERS = 200
EVENINGS = 30
RUNS = 20
SHEET_EVERY = 4
EXAMPLE_SHEET = Path(__file__).resolve().parents[1] / "examples" / "sheet-5-seats.json"


def setup_django(data_dir: str) -> None:
    """Settings on a fresh SQLite database in ``data_dir``, migrated."""
    os.environ["RISIKO_DATA_DIR"] = data_dir
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko.web.settings")
    import django
    from django.conf import settings
    from django.core.management import call_command

    django.setup()
    settings.ALLOWED_HOSTS = ["testserver", *settings.ALLOWED_HOSTS]
    call_command("migrate", verbosity=0)


def build(players: int, evenings: int, seed: int = 2027) -> Any:
    """The benchmark tournament (returns the Tournament row)."""
    from django.contrib.auth.models import User
    from django.db import transaction

    from risiko.names import name_key
    from risiko.web import services
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.evenings.models import Arrival, Evening
    from risiko.web.players.models import Player
    from risiko.web.results.models import Appeal, GameTable, Penalty, Seat, TableResult
    from risiko.web.tournaments.models import Entry

    rng = random.Random(seed)
    sheet = json.loads(EXAMPLE_SHEET.read_text(encoding="utf-8"))
    sheet_names = [s["player"] for s in sheet["seats"]]
    User.objects.create_user("arbitro", password="bench-password-42")
    with transaction.atomic():
        t = services.create_tournament("Torneo benchmark", who="bench")
        names = [f"Giocatore {i:03d}" for i in range(1, players + 1)]
        Player.objects.bulk_create([Player(name=n, key=name_key(n)) for n in names])
        by_name = {p.name: p for p in Player.objects.filter(name__in=names)}
        Entry.objects.bulk_create(
            [Entry(tournament=t, player=by_name[n], order=i) for i, n in enumerate(names, 1)]
        )
        first = _dt.date(2027, 1, 5)
        for k in range(evenings):
            ev = Evening.objects.create(tournament=t, date=first + _dt.timedelta(weeks=k))
            present = rng.sample(names, k=players - rng.randint(0, players // 10))
            arrivals = []
            for i, n in enumerate(present):
                at = "21:15" if i % 23 == 1 else "20:55"
                arrivals.append(Arrival(evening=ev, player=by_name[n], at=at, recorded_by="b"))
            excluded = present.pop()  # arrives at 21:40: R3 excludes him
            arrivals[-1].at = "21:40"
            Arrival.objects.bulk_create(arrivals)
            sizes = _table_sizes(len(present))
            tables = GameTable.objects.bulk_create(
                [GameTable(evening=ev, number=i) for i in range(1, len(sizes) + 1)]
            )
            seats, results = [], []
            pos = 0
            for table, size in zip(tables, sizes, strict=True):
                seated = present[pos:pos + size]
                pos += size
                seats += [Seat(evening=ev, table=table, player=by_name[n], position=j)
                          for j, n in enumerate(seated, 1)]
                if size == 5 and table.number % SHEET_EVERY == 1:
                    renamed = dict(zip(sheet_names, seated, strict=True))
                    data = {"ruleset": "club-milano", "seats": [
                        {**s, "player": renamed[s["player"]]} for s in sheet["seats"]]}
                    results.append(TableResult(table=table, sheet=data, entered_by="b"))
                else:
                    scores = {n: rng.randint(0, 90) for n in seated}
                    risiko = []
                    if rng.random() < 0.1:
                        scores[seated[0]] = 100
                        risiko = [seated[0]]
                    gone = [seated[-1]] if table.number == 2 else []
                    for n in gone:
                        scores[n] = 0
                    results.append(TableResult(table=table, scores=scores, risiko=risiko,
                                               abandoned=gone, entered_by="b"))
            Seat.objects.bulk_create(seats)
            TableResult.objects.bulk_create(results)
            t3 = tables[2]
            Penalty.objects.create(evening=ev, table=t3, player=by_name[present[10]],
                                   unit="table", points=-7, reason="R5", referee="Luca")
            pen = Penalty.objects.create(evening=ev, player=by_name[present[20]],
                                         unit="ranking", points=-10, reason="R10",
                                         referee="Luca")
            Appeal.objects.create(penalty=pen, outcome="reduced", points=-5, referee="Sara")
            assert excluded not in present
        AuditEntry.objects.create(who="bench", action="bench data", tournament=t.name)
    return t


def _table_sizes(n: int) -> list[int]:
    """As many tables of 5 as possible, the rest of 4 (n >= 12)."""
    fours = (5 - n % 5) % 5
    return [5] * ((n - 4 * fours) // 5) + [4] * fours


def median_ms(fn: Callable[[], Any], runs: int, before: Callable[[], Any] | None = None
              ) -> float:
    """Median wall time of ``fn`` over ``runs`` calls after one warm-up, in ms."""
    if before:
        before()
    fn()
    times = []
    for _ in range(runs):
        if before:
            before()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else PLAYERS
    evenings = int(sys.argv[2]) if len(sys.argv) > 2 else EVENINGS
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else RUNS
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(tmp)
        from django.test import Client

        from risiko.web import selectors
        from risiko.web.auditlog.models import AuditEntry
        from risiko.web.public import data

        start = time.perf_counter()
        t = build(players, evenings)
        built = time.perf_counter() - start
        tables = sum(e.tables.count() for e in t.evenings.all())
        print(f"built {players} players, {evenings} evenings, {tables} tables in "
              f"{built:.1f} s (Python {platform.python_version()}, {platform.machine()})")
        client = Client()
        player = t.entries.order_by("order").first().player.name  # type: ignore[union-attr]
        evening = t.evenings.order_by("date").last().date  # type: ignore[union-attr]
        pages = {
            "standings page /classifica/": "/classifica/",
            "live partial": f"/t/{t.slug}/classifica/live/",
            "API standings": f"/api/tournaments/{t.pk}/standings",
            "API list": "/api/tournaments",
            "evening page": f"/t/{t.slug}/serate/{evening}/",
            "player page": f"/t/{t.slug}/giocatori/{player}/",
        }
        for url in pages.values():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
        def change() -> None:
            AuditEntry.objects.create(who="bench", action="bench change", tournament=t.name)

        print(f"{'':30} {'cold':>9} {'changed':>9} {'warm':>9}   (median of {runs}, ms)")
        for label, url in pages.items():
            cold = median_ms(lambda url=url: client.get(url), runs, data.clear_cache)
            changed = median_ms(lambda url=url: client.get(url), runs, change)
            warm = median_ms(lambda url=url: client.get(url), runs)
            print(f"{label:30} {cold:9.1f} {changed:9.1f} {warm:9.1f}")
        from django.contrib.auth.models import Group, User

        referee = User.objects.get(username="arbitro")
        referee.groups.add(Group.objects.get_or_create(name="referee")[0])
        console = Client()
        console.force_login(referee)
        console_pages = {
            "console: tournament page": f"/arbitro/t/{t.slug}/",
            "console: stages": f"/arbitro/t/{t.slug}/fasi/",
            "console: standings CSV": f"/arbitro/t/{t.slug}/classifica.csv",
            "console: printable standings": f"/arbitro/t/{t.slug}/classifica/stampa/",
        }
        for label, url in console_pages.items():
            assert console.get(url).status_code == 200, url
            cold = median_ms(lambda url=url: console.get(url), runs, data.clear_cache)
            changed = median_ms(lambda url=url: console.get(url), runs, change)
            warm = median_ms(lambda url=url: console.get(url), runs)
            print(f"{label:30} {cold:9.1f} {changed:9.1f} {warm:9.1f}")
        n = 3
        load = median_ms(lambda: selectors.load_tournament(t), n)
        fast = median_ms(lambda: data.load_tournament(t), n, data.clear_cache)
        print(f"load the tournament: selectors.load_tournament {load:.0f} ms, "
              f"public.data.load_tournament {fast:.0f} ms (median of {n})")


if __name__ == "__main__":
    main()
