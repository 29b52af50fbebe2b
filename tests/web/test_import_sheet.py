"""A club's spreadsheet into the database (``risiko tournament import-sheet T
FILE`` and :func:`risiko.web.services.import_sheet`): the standings the club publishes
(worked out by hand in tests/tournament/test_club_sheet.py), every fault named with its row
and nothing written when one row is bad; audit-logged. SQLite, and PostgreSQL with
``make unit-postgres``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risiko.cli.main import app
from risiko.tournament import get_format
from risiko.tournament.clubsheet import read_rows
from risiko.web import selectors, services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival, Evening
from risiko.web.results.models import TableResult

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from test_club_sheet import HEADER, PUBLISHED, ROWS, italian_csv

pytestmark = [pytest.mark.db, pytest.mark.django_db]


def _tournament() -> object:
    t = services.create_tournament("Torneo del circolo", format=get_format("win-bonus")
                                   .to_dict(), who="setup")
    services.add_players(t, ["Ivo"], who="setup")  # a player the tournament knows already
    return t


def _published(t: object) -> list[tuple]:
    return [(r["rank"], r["player"], r["points"], r["wins"], r["table_points"], r["bonus"])
            for r in selectors.season_report_of(t)["standings"]]


def test_the_sheet_in_the_database_gives_the_published_standings() -> None:
    t = _tournament()
    evenings = services.import_sheet(t, read_rows([HEADER, *ROWS]), who="committee")
    assert [e.date.isoformat() for e in evenings] == ["2027-01-12", "2027-01-19"]
    assert _published(t) == PUBLISHED
    assert Arrival.objects.count() == 0  # no arrival times: everyone on time
    fabio = TableResult.objects.get(table__evening__date="2027-01-12", table__number=2)
    assert fabio.winners == ["Fabio"]
    # one audit entry for the import, saying what each evening brought and who was new
    (entry,) = AuditEntry.objects.filter(who="committee")
    assert entry.action == "import sheet"
    assert entry.data["players"] == sorted(["Anna", "Bruno", "Carla", "Dario", "Elena",  # not Ivo
                                            "Fabio", "Gina", "Luca"])
    assert [(e["date"], e["tables"], e["results"]) for e in entry.data["evenings"]] == [
        ("2027-01-12", 2, 2), ("2027-01-19", 2, 2)]
    # the same sheet again: its evenings exist already, nothing written
    with pytest.raises(services.ServiceError) as err:
        services.import_sheet(t, read_rows([HEADER, *ROWS]), who="committee")
    assert {(f.code, f.subjects["row"]) for f in err.value.faults} == {
        ("tournament.evening_exists", 2), ("tournament.evening_exists", 11)}
    assert Evening.objects.count() == 2


def test_a_bad_row_writes_nothing() -> None:
    t = _tournament()
    rows = [list(r) for r in ROWS]
    rows[12][4] = "x"  # row 14: Luca (18) marked a winner where Gina made 62
    with pytest.raises(services.ServiceError) as err:
        services.import_sheet(t, read_rows([HEADER, *rows]), who="committee")
    assert [(f.code, f.subjects["row"], f.subjects["player"]) for f in err.value.faults] == [
        ("ranking.winner_not_top", 14, "Luca")]
    assert Evening.objects.count() == 0 and TableResult.objects.count() == 0
    assert t.entries.count() == 1  # no player registered either


def test_the_command_on_the_database(tmp_path: Path) -> None:
    t = _tournament()
    sheet = tmp_path / "risultati.csv"
    sheet.write_bytes(italian_csv())
    res = CliRunner().invoke(app, ["tournament", "import-sheet", t.slug, str(sheet),
                                   "--by", "segreteria", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output) == {"rows": 18, "evenings": ["2027-01-12", "2027-01-19"],
                                      "tables": 4, "new_players": 8}
    assert _published(t) == PUBLISHED
