"""The data migration that comes before the "one current row" constraints, tried on a
database built with the duplicates an older version let through (20 identical requests at
once on PostgreSQL): the latest row stays current, the others are superseded, each with an
audit entry the console shows; names are put in NFC and twins merged (or listed); a backup
is taken first (SQLite: a copy of the file; PostgreSQL: pg_dump, else a JSON copy of the rows;
neither: the migration stops, nothing changed)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from risiko.web.core import repair

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

BEFORE = [("core", "0001_initial"), ("players", "0002_player_key"),
          ("evenings", "0002_arrival_reason"), ("results", "0002_seat_history"),
          ("tournaments", "0002_draw_players_key")]


@pytest.fixture(autouse=True)
def data_folder(tmp_path, monkeypatch) -> Path:
    """The data folder, where the PostgreSQL backup goes."""
    monkeypatch.setenv("RISIKO_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the backup of a PostgreSQL database")


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _build_duplicates(old) -> dict[str, int]:
    """The duplicates an older version let through (see the comments); the ids of the
    rows the test checks."""
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

    return {"first": first.pk, "second": second.pk, "kept_appeal": kept_appeal.pk}


def test_duplicates_are_resolved_the_same_way_every_time(tmp_path):
    ids = _build_duplicates(_migrate(BEFORE))
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
    assert list(R.objects.current().values_list("id", flat=True)) == [ids["second"]]
    assert R.objects.get(pk=ids["first"]).superseded
    assert list(Ap.objects.current().values_list("id", flat=True)) == [ids["kept_appeal"]]
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
    # SQLite: the file was copied first (PostgreSQL: test_postgres_backup_*)
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


# --- the backup on PostgreSQL ---------------------------------------------------------------


def _dumped_rows(dump: Path, table: str) -> list[dict[str, str]]:
    """The rows of ``table`` in a pg_dump custom-format file, as pg_restore writes them
    (COPY text: booleans 't'/'f')."""
    text = subprocess.run(["pg_restore", "--data-only", f"--table={table}", "-f", "-",
                           str(dump)], capture_output=True, text=True, check=True).stdout
    lines = iter(text.splitlines())
    for line in lines:
        if line.startswith(f"COPY public.{table} ("):
            columns = line[line.index("(") + 1:line.index(")")].split(", ")
            break
    else:
        raise AssertionError(f"no {table} in {dump}")
    return [dict(zip(columns, row.split("\t"), strict=True))
            for row in iter(lines.__next__, "\\.")]


def test_postgres_backup_is_a_pg_dump_of_the_rows_as_they_were(data_folder, capsys):
    _postgres_only()
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not on PATH")
    _build_duplicates(_migrate(BEFORE))
    capsys.readouterr()
    _migrate(_latest())

    [dump] = data_folder.glob("risiko-*.before-0002-*.dump")
    assert dump.stat().st_mode & 0o777 == 0o600
    assert f"backup of the database before resolving duplicates: {dump}" in \
        capsys.readouterr().out
    # as before the run: 4 current arrivals (Anna three times, Luè), 2 current results, the
    # name typed with a combining accent, no audit entry of the update
    arrivals = _dumped_rows(dump, "evenings_arrival")
    assert sorted(a["at"] for a in arrivals if a["superseded"] == "f") == \
        ["21:00", "21:00", "21:05", "21:20"]
    assert [r["superseded"] for r in _dumped_rows(dump, "results_tableresult")] == ["f", "f"]
    assert "Lue\u0300" in [p["name"] for p in _dumped_rows(dump, "players_player")]
    assert _dumped_rows(dump, "auditlog_auditentry") == []


def test_postgres_backup_without_pg_dump_is_a_json_copy(data_folder, tmp_path, monkeypatch,
                                                         capsys):
    _postgres_only()
    _build_duplicates(_migrate(BEFORE))
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump
    capsys.readouterr()
    _migrate(_latest())

    [copy] = data_folder.glob("risiko-*.before-0002-*.json")
    assert copy.stat().st_mode & 0o777 == 0o600
    out = capsys.readouterr().out
    assert f"backup of the database before resolving duplicates: {copy}" in out
    assert "pg_dump is not on PATH: a JSON copy of the rows it may change instead" in out
    rows = json.loads(copy.read_text(encoding="utf-8"))
    current = [r["fields"]["at"] for r in rows
               if r["model"] == "evenings.arrival" and not r["fields"]["superseded"]]
    assert sorted(current) == ["21:00", "21:00", "21:05", "21:20"]
    assert [r["fields"]["superseded"] for r in rows if r["model"] == "results.tableresult"] \
        == [False, False]
    names = [r["fields"]["name"] for r in rows if r["model"] == "players.player"]
    assert names == ["Anna", "Bruno", "Carla", "Dario", "Lue\u0300", "LUÈ"]
    assert sum(r["model"] == "results.seat" for r in rows) == 8


def test_postgres_without_any_backup_the_migration_stops_before_changing_a_row(
        data_folder, tmp_path, monkeypatch):
    _postgres_only()
    old = _migrate(BEFORE)
    _build_duplicates(old)
    path = os.environ["PATH"]
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump
    data_folder.parent.mkdir(exist_ok=True)
    data_folder.write_text("a file where the data folder should be")  # no JSON copy either
    try:
        with pytest.raises(RuntimeError, match="no backup of the database could be written "
                           r"before resolving duplicates \(pg_dump is not on PATH; "
                           "NotADirectoryError.*nothing was changed"):
            _migrate(_latest())
        Arrival = old.get_model("evenings", "Arrival")
        assert Arrival.objects.filter(superseded=False).count() == 4
        from risiko.web.auditlog.models import AuditEntry

        assert not AuditEntry.objects.filter(who=repair.WHO).exists()
        assert old.get_model("players", "Player").objects.filter(name="Lue\u0300").exists()
    finally:  # the next tests need the latest schema
        monkeypatch.setenv("PATH", path)
        monkeypatch.setenv("RISIKO_DATA_DIR", str(tmp_path / "data-after"))
        _migrate(_latest())
