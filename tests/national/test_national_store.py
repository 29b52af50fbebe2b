"""``risiko national import`` and ``risiko national ranking`` on the
database (revisions, refusals naming the file and field, JSON and CSV contracts).

The reports come from national_kit: 8 players (p7, p8 anonymous), 2 tables of 4 per round,
seats rotating, so each player plays every round and wins once in 4 rounds. An open of 4
rounds has T = 8 games (>= the 6 of 2024): 1st 1.2 * 108 * 2 = 259.2; p-th 216 * exp(-p/20):
2nd 195.4449, 3rd 185.9129, 4th 176.8458, 5th 168.2210, 6th 160.0167.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from national_kit import report
from typer.testing import CliRunner, Result

from risiko.cli import national_commands

pytestmark = [pytest.mark.db, pytest.mark.django_db]

FOUR_ROUNDS = ("2024-03-02", "2024-03-09", "2024-03-16", "2024-03-23")


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    application = typer.Typer()
    national_commands.register(application)
    return application


def run(app: typer.Typer, *args: str) -> Result:
    return CliRunner().invoke(app, ["national", *args])


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def ranking(app: typer.Typer, year: int = 2024) -> Any:
    result = run(app, "ranking", "--year", str(year), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_import_then_the_list(app: typer.Typer, tmp_path: Path) -> None:
    path = write(tmp_path / "open.json", report(dates=FOUR_ROUNDS))
    result = run(app, "import", str(path), "--by", "luca")
    assert result.exit_code == 0, result.output
    assert "20240302 - milano - Open di Primavera, new, revision 1" in result.stdout
    data = ranking(app)
    assert data["year"] == 2024 and data["rules"]["since"] == 2024
    assert data["rules"]["categories"]["open"]["tournaments"] == 1
    rows = [(p["position"], p["national_id"], p["name"], p["points"], p["tournaments"],
             p["played"], p["games"], p["wins"]) for p in data["players"]]
    assert rows == [
        (1, 101, "Anna Bassi", 259.2, 1, 1, 4, 1),
        (2, 102, "Bruno Conti", 195.44, 1, 1, 4, 1),
        (3, 103, "Carla Dini", 185.91, 1, 1, 4, 1),
        (4, 104, "Dario Esposito", 176.85, 1, 1, 4, 1),
        (5, 105, "Elena Fabbri", 168.22, 1, 1, 4, 1),
        (6, 106, "Fabio Galli", 160.02, 1, 1, 4, 1),
    ]  # p7, p8 anonymous: not listed
    assert data["players"][0]["club"] == "MILANO [Club Milano]"
    assert data["players"][0]["by_category"]["open"] == 259.2
    # a year without tournaments is refused naming the years that have one (its page: 404)
    empty = run(app, "ranking", "--year", "2023", "--json")
    assert empty.exit_code == 1 and json.loads(empty.stdout)["faults"][0]["code"] == (
        "national.no_year")


def test_the_same_tournament_again_is_a_new_revision(app: typer.Typer, tmp_path: Path) -> None:
    from risiko.web.national.models import NationalTournament, TournamentRevision

    first = write(tmp_path / "a.json", report(dates=FOUR_ROUNDS))
    assert run(app, "import", str(first)).exit_code == 0
    again = run(app, "import", str(first))
    assert again.exit_code == 0
    assert "already imported (revision 1): nothing written" in again.stdout
    # the referee corrects the standings: Bruno 1st, Anna 2nd -> revision 2 in force
    fixed = report(dates=FOUR_ROUNDS, standings=["p2", "p1", "p3", "p4", "p5", "p6", "p7",
                                                 "p8"])
    result = run(app, "import", str(write(tmp_path / "b.json", fixed)))
    assert result.exit_code == 0, result.output
    assert "revision 2 now in force" in result.stdout
    top = ranking(app)["players"][:2]
    assert [(p["national_id"], p["points"]) for p in top] == [(102, 259.2), (101, 195.44)]
    assert NationalTournament.objects.count() == 1
    assert list(TournamentRevision.objects.values_list("number", flat=True)) == [1, 2]


def test_a_bad_file_is_named_and_the_good_ones_imported(app: typer.Typer,
                                                         tmp_path: Path) -> None:
    from risiko.web.national.models import NationalTournament

    good = write(tmp_path / "good.json", report(dates=FOUR_ROUNDS))
    broken = report(name="Master", category="MST", dates=FOUR_ROUNDS)
    broken["games"][0]["seats"][1]["player"] = "p99"
    bad = write(tmp_path / "bad.json", broken)
    missing = tmp_path / "missing.json"
    result = CliRunner().invoke(app, ["national", "import", str(bad), str(good),
                                      str(missing)])
    assert result.exit_code == 1
    assert f"{bad}: games[0].seats[1].player: no player 'p99'" in result.output
    assert f"cannot read {missing}: no such file" in result.output
    assert "2 of 3 files refused: nothing imported from them" in result.output
    assert list(NationalTournament.objects.values_list("name", flat=True)) == [
        "Open di Primavera"]


def test_a_national_id_under_another_name_refuses_the_whole_report(
        app: typer.Typer, tmp_path: Path) -> None:
    from risiko.web.national.models import NationalPlayer, NationalTournament

    assert run(app, "import", str(write(tmp_path / "a.json", report(dates=FOUR_ROUNDS)))
               ).exit_code == 0
    other = report(name="Secondo Open", dates=("2024-05-04", "2024-05-11", "2024-05-18",
                                               "2024-05-25"))
    other["players"][0]["surname"] = "Rossi"  # 101 is Anna Bassi in the register
    other["players"][1]["national_id"] = 201  # a new player: must not be registered either
    result = CliRunner().invoke(app, ["national", "import", "--json",
                                      str(write(tmp_path / "b.json", other))])
    assert result.exit_code == 1
    assert ("players[0]: national id 101 is Anna Bassi in the register, not Anna Rossi"
            in result.output)
    assert NationalTournament.objects.count() == 1
    assert not NationalPlayer.objects.filter(national_id=201).exists()


def test_csv_and_italian(app: typer.Typer, tmp_path: Path) -> None:
    from risiko.faults import use_language

    path = write(tmp_path / "open.json", report(dates=FOUR_ROUNDS))
    with use_language("it"):
        result = run(app, "import", str(path))
    assert "Open di Primavera, nuovo, revisione 1" in result.stdout
    result = run(app, "ranking", "--year", "2024", "--csv")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == ("position,national_id,name,club,points,points_master,points_raduno,"
                        "points_campionato,points_interclub,points_open,tournaments,played,"
                        "games,wins")
    assert lines[1] == ("1,101,Anna Bassi,MILANO [Club Milano],259.20,0.00,0.00,0.00,0.00,"
                        "259.20,1,1,4,1")
    both = run(app, "ranking", "--year", "2024", "--csv", "--json")
    assert both.exit_code == 2 and "--json or --csv, not both" in both.output


def test_a_workbook_imports_like_its_report(app: typer.Typer, tmp_path: Path) -> None:
    pytest.importorskip("xlwt")
    from risiko.national.report import read_report
    from risiko.national.workbook import write_workbook

    xls = tmp_path / "open.xls"
    exported = run(app, "workbook", str(write(tmp_path / "open.json",
                                                report(dates=FOUR_ROUNDS))), "-o", str(xls))
    assert exported.exit_code == 0, exported.output
    assert xls.read_bytes() == write_workbook(read_report(report(dates=FOUR_ROUNDS)))
    result = run(app, "import", "--club", "milano", str(xls))
    assert result.exit_code == 0, result.output
    rows = [(p["national_id"], p["points"], p["games"], p["wins"])
            for p in ranking(app)["players"]]
    assert rows == [(101, 259.2, 4, 1), (102, 195.44, 4, 1), (103, 185.91, 4, 1),
                    (104, 176.85, 4, 1), (105, 168.22, 4, 1), (106, 160.02, 4, 1)]
    # the same tournament from its JSON report is the same tournament: a new revision
    # only because the workbook's keys and clubs differ from the report's
    again = run(app, "import", str(tmp_path / "open.json"))
    assert again.exit_code == 0 and "revision 2 now in force" in again.stdout


@pytest.mark.parametrize("report_first", [True, False])
def test_the_projects_own_workbook_is_the_same_tournament_without_club(
        app: typer.Typer, tmp_path: Path, report_first: bool) -> None:
    """issue: `national workbook` then `national import` of the .xls after the report made a
    SECOND tournament (points doubled): the workbook's club is its organiser, "MILANO [Club
    Milano]", not the report's id "milano". Either order, one tournament: the 1st's 259.2
    points once (1.2 * 108 * 2, see the module's docstring), never 518.4."""
    pytest.importorskip("xlwt")
    source = write(tmp_path / "open.json", report(dates=FOUR_ROUNDS))
    xls = tmp_path / "open.xls"
    assert run(app, "workbook", str(source), "-o", str(xls)).exit_code == 0
    first, second = (source, xls) if report_first else (xls, source)
    assert run(app, "import", str(first)).exit_code == 0
    again = run(app, "import", str(second))
    assert again.exit_code == 0, again.output
    # a new revision of the same tournament (the workbook numbers its players 1..8)
    assert "20240302 - milano - Open di Primavera, revision 2 now in force" in again.stdout
    rows = [(p["national_id"], p["points"], p["tournaments"]) for p in ranking(app)["players"]]
    assert rows[:2] == [(101, 259.2, 1), (102, 195.44, 1)]


def test_a_missing_workbook_is_said_before_a_missing_extra(
        app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue: without the national extra, `national import missing.xls` said "install the
    extra" and never that the file does not exist."""
    import sys

    monkeypatch.setitem(sys.modules, "risiko.national.workbook", None)  # no xlrd/xlwt
    missing = run(app, "import", str(tmp_path / "missing.xls"))
    assert missing.exit_code == 1
    assert missing.stderr.splitlines()[0] == f"cannot read {tmp_path}/missing.xls: no such file"
    (tmp_path / "there.xls").write_bytes(b"\xd0\xcf\x11\xe0")
    there = run(app, "import", str(tmp_path / "there.xls"))
    assert there.exit_code == 1 and "pip install 'risiko-club[national]'" in there.stderr


@pytest.mark.parametrize("width", [80, 100])
def test_the_list_is_readable_in_an_80_column_terminal(
        app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """issue: `national ranking --year 2024` at 80 columns cut its headers ("Cou…"): no
    header or value is cut now, the optional columns left out instead; --json keeps all."""
    from rich.console import Console

    assert run(app, "import", str(write(tmp_path / "open.json",
                                         report(dates=FOUR_ROUNDS)))).exit_code == 0
    monkeypatch.setattr(national_commands, "console", Console(width=width))
    shown = run(app, "ranking", "--year", "2024")
    assert shown.exit_code == 0, shown.output
    assert "…" not in shown.stdout
    assert max(len(line) for line in shown.stdout.splitlines()) <= width
    for header in ("Pos.", "Player", "Club", "Points", "Counted", "Games", "Wins"):
        assert header in shown.stdout
    assert "259.20" in shown.stdout  # the 1st: 1.2 * 108 * 2 (the module's docstring)
    assert set(ranking(app)["players"][0]) >= {"by_category", "played", "wins"}


def test_a_reports_club_id_in_capitals_is_the_registered_club() -> None:
    """Identifiers are unique whatever their case: a report of ``ROMA`` imported after
    ``roma`` was registered is roma's (it was a second club, and is now refused by the
    database's constraint if made)."""
    from risiko.national.report import read_report
    from risiko.web.national.models import Club, NationalTournament
    from risiko.web.national.services import import_report

    roma = Club.objects.create(key="roma", name="ROMA [Roma Club]", slug="roma")
    import_report(read_report(report(club=("ROMA", "ROMA [Roma Club]"))), by="t")
    assert Club.objects.count() == 1
    assert NationalTournament.objects.get().club == roma
