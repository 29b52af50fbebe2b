"""The data migration that comes before the "one current row" constraints, tried on a
database built with the duplicates an older version let through (20 identical requests at
once on PostgreSQL): the latest row stays current, the others are superseded, each with an
audit entry the console shows; names are put in NFC and twins merged (or listed); on
SQLite a backup of the file is taken first."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from risiko.web.core import repair

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

BEFORE = [("core", "0001_initial"), ("players", "0002_player_key"),
          ("evenings", "0002_arrival_reason"), ("results", "0002_seat_history"),
          ("tournaments", "0002_draw_players_key")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def test_duplicates_are_resolved_the_same_way_every_time(tmp_path):
    old = _migrate(BEFORE)
    Player = old.get_model("players", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    Entry = old.get_model("tournaments", "Entry")
    Evening = old.get_model("evenings", "Evening")
    Arrival = old.get_model("evenings", "Arrival")
    GameTable = old.get_model("results", "GameTable")
    Seat = old.get_model("results", "Seat")
    TableResult = old.get_model("results", "TableResult")
    Penalty = old.get_model("results", "Penalty")
    Appeal = old.get_model("results", "Appeal")
    CarryOver = old.get_model("tournaments", "CarryOver")
    Draw = old.get_model("tournaments", "Draw")

    t = Tournament.objects.create(name="Torneo 2027", slug="torneo-2027", format={})
    names = ["Anna", "Bruno", "Carla", "Dario", "Lue\u0300"]  # Luè typed with a combining accent
    players = {n: Player.objects.create(name=n) for n in names}
    luE = Player.objects.create(name="LUÈ")  # the same player again, in capitals
    for i, p in enumerate([*players.values(), luE], start=1):
        Entry.objects.create(tournament=t, player=p, order=i)
    e = Evening.objects.create(tournament=t, date=dt.date(2027, 3, 2))
    # 3 current arrivals of Anna; the last one (21:20) is the one that stays
    for at in ("21:00", "21:05", "21:20"):
        Arrival.objects.create(evening=e, player=players["Anna"], at=at)
    Arrival.objects.create(evening=e, player=players["Lue\u0300"], at="21:00")
    # a table seated twice over (seats rewritten by two requests at once)
    table = GameTable.objects.create(evening=e, number=1)
    for _ in range(2):
        for pos, n in enumerate(["Anna", "Bruno", "Carla", "Dario"], start=1):
            Seat.objects.create(table=table, player=players[n], position=pos)
    # two current results; the second (id higher) stays
    scores = {"Anna": 50, "Bruno": 40, "Carla": 30, "Dario": 20}
    first = TableResult.objects.create(table=table, scores=scores)
    second = TableResult.objects.create(table=table, scores={**scores, "Anna": 60})
    pen = Penalty.objects.create(evening=e, player=players["Bruno"], unit="ranking", points=-5)
    Appeal.objects.create(penalty=pen, outcome="upheld")
    kept_appeal = Appeal.objects.create(penalty=pen, outcome="annulled")
    for pts in (10, 20, 30):
        CarryOver.objects.create(tournament=t, player=players["Carla"], points=pts)
    Draw.objects.create(tournament=t, stage="semifinal", order=["Anna", "Bruno"])
    Draw.objects.create(tournament=t, stage="semifinal", order=["Bruno", "Anna"])

    _migrate(_latest())

    from risiko.web import selectors
    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.evenings.models import Arrival as A
    from risiko.web.players.models import Player as P
    from risiko.web.results.models import Appeal as Ap
    from risiko.web.results.models import Seat as S
    from risiko.web.results.models import TableResult as R
    from risiko.web.tournaments.models import CarryOver as C
    from risiko.web.tournaments.models import Draw as D
    from risiko.web.tournaments.models import Tournament as T

    anna = A.objects.current().filter(player__name="Anna")
    assert [a.at for a in anna] == ["21:20"] and A.objects.filter(player__name="Anna").count() == 3
    assert list(R.objects.current().values_list("id", flat=True)) == [second.pk]
    assert R.objects.get(pk=first.pk).superseded
    assert list(Ap.objects.current().values_list("id", flat=True)) == [kept_appeal.pk]
    assert [c.points for c in C.objects.current()] == [30]
    assert [d.order for d in D.objects.current()] == [["Bruno", "Anna"]]
    assert S.objects.current().count() == 4 and S.objects.count() == 8
    # names in NFC; LUÈ (no facts of its own) merged into the first registered Luè
    assert P.objects.filter(key="luè").get().name == "Luè"
    merged = P.objects.get(name="LUÈ")
    assert merged.key.startswith("luè#merged-") and not merged.entries.exists()
    # every change is in the audit log, which the console shows referees
    log = AuditEntry.objects.filter(who=repair.WHO)
    assert log.filter(action=repair.RESOLVED).count() == 2 + 1 + 1 + 2 + 1 + 4
    assert log.filter(action=repair.MERGED).count() == 1
    assert log.filter(action=repair.RENAMED).count() == 1
    # the standings read again, counting Anna's corrected result once
    row = next(r for r in selectors.standings(T.objects.get()).rows if r.player == "Anna")
    assert row.games == 1
    # the console's home page shows referees every change the update made
    _console_shows(log)
    # SQLite: the file was copied first (PostgreSQL: no copy; the audit holds old values)
    if connection.vendor == "sqlite":
        name = Path(connection.settings_dict["NAME"])
        backups = list(name.parent.glob(name.name + ".before-0002-*"))
        assert backups and all(b.stat().st_mode & 0o777 == 0o600 for b in backups)
        # taken before the run: the copy still holds Anna's three current arrivals and the
        # two current results, and no audit entry of the update
        copy = sqlite3.connect(backups[-1])
        try:
            assert copy.execute(
                "SELECT COUNT(*) FROM evenings_arrival a JOIN players_player p"
                " ON p.id = a.player_id WHERE p.name = 'Anna' AND NOT a.superseded"
            ).fetchone() == (3,)
            assert copy.execute("SELECT COUNT(*) FROM results_tableresult"
                                " WHERE NOT superseded").fetchone() == (2,)
            assert copy.execute("SELECT COUNT(*) FROM auditlog_auditentry WHERE who = ?",
                                (repair.WHO,)).fetchone() == (0,)
        finally:
            copy.close()
        for b in backups:
            b.unlink()


def _console_shows(log) -> None:
    from django.contrib.auth.models import Group, User
    from django.test import Client
    from django.urls import reverse
    from django.utils.html import escape

    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    client = Client()
    client.force_login(user)
    page = client.get(reverse("referee_home")).content.decode()
    summaries = list(log.values_list("summary", flat=True))
    assert len(summaries) == 13
    missing = [s for s in summaries if escape(s) not in page]
    assert not missing, missing


def test_twins_with_facts_on_the_same_evening_are_listed_not_merged():
    old = _migrate(BEFORE)
    Player = old.get_model("players", "Player")
    Tournament = old.get_model("tournaments", "Tournament")
    Entry = old.get_model("tournaments", "Entry")
    Evening = old.get_model("evenings", "Evening")
    Arrival = old.get_model("evenings", "Arrival")
    t = Tournament.objects.create(name="T", slug="t", format={})
    a = Player.objects.create(name="Noè Galli")
    b = Player.objects.create(name="noè galli")
    e = Evening.objects.create(tournament=t, date=dt.date(2027, 3, 2))
    for i, p in enumerate((a, b), start=1):
        Entry.objects.create(tournament=t, player=p, order=i)
        Arrival.objects.create(evening=e, player=p, at="21:00")

    _migrate(_latest())

    from risiko.web.auditlog.models import AuditEntry
    from risiko.web.players.models import Player as P

    assert P.objects.get(pk=a.pk).key == "noè galli"
    assert P.objects.get(pk=b.pk).key == f"noè galli#collision-{b.pk}"
    entry = AuditEntry.objects.get(action=repair.COLLISION)
    assert "both arrived (2027-03-02)" in entry.summary
    for backup in Path(str(connection.settings_dict["NAME"])).parent.glob("*.before-0002-*"):
        backup.unlink()
