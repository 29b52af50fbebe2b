"""The full hand-written season (examples/season-2027.json: 4 qualifying evenings, 13 players,
semifinal, final won by the 4th after the semifinal) gives the same standings, semifinal
tables, finalists and final standings through the file and through the database, on SQLite
and (``make unit-postgres``) on PostgreSQL; the ``risiko tournament`` commands drive it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risiko.cli.main import app
from risiko.tournament.season import compute_season
from risiko.web import selectors, services

pytestmark = [pytest.mark.db, pytest.mark.django_db]

SEASON = Path(__file__).parents[2] / "examples" / "season-2027.json"
KEYS = ("standings", "semifinal_tables", "after_semifinal", "finalists", "final_winner",
        "final_standings")


@pytest.fixture
def season() -> dict:
    return json.loads(SEASON.read_text(encoding="utf-8"))


def test_file_and_database_agree(season: dict) -> None:
    from_file = compute_season(season)
    t = services.import_season(season, who="test")
    from_db = selectors.season_report_of(t)
    for key in KEYS:
        assert from_db[key] == from_file[key], key
    # the final is won by the player 4th after the semifinal; the rest keep their order
    after = from_file["after_semifinal"]
    assert from_file["final_winner"] == after[3]
    assert from_file["final_standings"] == [after[3], *after[:3], *after[4:]]


def test_export_round_trip(season: dict) -> None:
    t = services.import_season(season, who="test")
    exported = services.export_season(t)
    assert compute_season(exported)["final_standings"] == compute_season(season)[
        "final_standings"]
    again = services.import_season(exported, who="test", name="Copia")
    assert services.export_season(again) | {"name": exported["name"]} == exported


def test_cli_import_standings_and_csv(season: dict, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["tournament", "import", str(SEASON), "--by", "test"])
    assert res.exit_code == 0, res.output
    slug = services.get_tournament(season["name"]).slug
    res = runner.invoke(app, ["tournament", "standings", slug, "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["final_standings"] == compute_season(season)["final_standings"]
    res = runner.invoke(app, ["tournament", "standings", slug, "--csv"])
    lines = res.output.strip().splitlines()
    assert lines[0] == ("rank,player,points,games,risiko,best,penalties,eligible,"
                        "table_points,bonus,wins")  # three columns at the end
    assert len(lines) == 1 + len(season["players"])
    out = tmp_path / "out.json"
    res = runner.invoke(app, ["tournament", "export", slug, str(out)])
    assert res.exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["players"] == season["players"]


def test_cli_refuses_bad_input_with_one_line_per_fault(season: dict) -> None:
    runner = CliRunner()
    bad = dict(season, players=season["players"][:-1])  # a seated player is not registered
    path = Path(__file__).parent / "_bad_season.json"
    try:
        path.write_text(json.dumps(bad), encoding="utf-8")
        res = runner.invoke(app, ["tournament", "import", str(path)])
    finally:
        path.unlink()
    assert res.exit_code == 1
    assert season["players"][-1] in res.output
    res = runner.invoke(app, ["tournament", "standings", "no-such-tournament"])
    assert res.exit_code == 1
    assert "no tournament 'no-such-tournament'" in res.output


def test_the_database_holds_the_same_facts_as_the_file(season: dict) -> None:
    """Reading the imported tournament back gives the very tournament the file describes."""
    from risiko.tournament.season import parse_season

    t = services.import_season(season, who="test")
    assert selectors.load_tournament(t) == parse_season(season)


def test_cli_import_refuses_a_key_given_twice(season: dict, tmp_path: Path) -> None:
    """The import reads the file with the season reader, which keeps a
    repeated key (plain json.loads kept the last value silently)."""
    text = json.dumps(season, indent=1)
    first = '"date": "2027-03-02"'
    assert first in text
    path = tmp_path / "twice.json"
    path.write_text(text.replace(first, first + ', "stage": "qualifying", "stage": "final"',
                                 1), encoding="utf-8")
    res = CliRunner().invoke(app, ["tournament", "import", str(path)])
    assert res.exit_code == 1
    assert "key 'stage' is given twice" in res.stderr


def test_cli_seat_by_hand(season: dict) -> None:
    runner = CliRunner()
    t = services.create_tournament("Mano", who="test")
    services.add_players(t, ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gino"],
                         who="test")
    services.open_evening(t, "2027-05-04", who="test")
    res = runner.invoke(app, ["tournament", "seat-by-hand", t.slug, "2027-05-04",
                              "Anna,Bruno,Carla,Dario", "Elena, Franco, Gino", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"tables": [["Anna", "Bruno", "Carla", "Dario"],
                                                 ["Elena", "Franco", "Gino"]]}
    twice = runner.invoke(app, ["tournament", "seat-by-hand", t.slug, "2027-05-04",
                                "Anna,Bruno,Carla", "Anna,Franco,Gino"])
    assert twice.exit_code == 1 and "Anna" in twice.stderr


def test_cli_import_and_evening_refuse_dates_outside_2000_2099(season: dict,
                                                               tmp_path: Path) -> None:
    from risiko.web.evenings.models import Evening
    from risiko.web.tournaments.models import Tournament

    season["evenings"][0]["date"] = "9999-12-31"
    path = tmp_path / "far.json"
    path.write_text(json.dumps(season), encoding="utf-8")
    res = CliRunner().invoke(app, ["--lang", "en", "tournament", "import", str(path)])
    assert res.exit_code == 1, res.output
    assert "an evening falls in the years 2000 to 2099, not on 9999-12-31" in res.stderr
    assert not Tournament.objects.exists()
    t = services.create_tournament("Serate", who="test")
    res = CliRunner().invoke(app, ["--lang", "it", "tournament", "evening", t.slug,
                                   "9999-12-31"])
    assert res.exit_code == 1, res.output
    assert "una serata cade negli anni dal 2000 al 2099, non il 9999-12-31" in res.stderr
    assert not Evening.objects.exists()


@pytest.mark.db
@pytest.mark.django_db
def test_a_write_reads_the_facts_of_its_evening_and_the_whole_tournaments_discipline():
    """``load_tournament(t, facts_of=evening)`` (what a write checks) is the whole load with
    the other evenings' arrivals, tables and penalties left out - their dates, stages,
    schedules and disciplinary records (R10 reaches later evenings) kept."""
    from dataclasses import replace

    season = json.loads(SEASON.read_text(encoding="utf-8"))
    t = services.import_season(season, who="test")
    whole = selectors.load_tournament(t)
    rows = list(t.evenings.order_by("date"))
    assert len(rows) == len(whole.evenings) >= 4
    assert any(e.discipline for e in whole.evenings)  # the example records R10
    for row in rows:
        part = selectors.load_tournament(t, facts_of=row.pk)
        expected = replace(whole, evenings=tuple(
            e if e.date == row.date else replace(e, arrivals=(), tables=(), penalties=())
            for e in whole.evenings))
        assert part == expected
