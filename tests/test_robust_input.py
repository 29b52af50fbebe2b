"""A clean clone's bad inputs refused as faults at every door, nothing written: evenings
outside the years 2000-2099, odds for more armies than the limit, JSON nested too deep or
holding an absurd number (never a RecursionError or an OverflowError traceback)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from risiko import jsonread
from risiko.cli.main import app
from risiko.faults import InvalidInputError, RisikoError
from risiko.odds import MAX_ARMIES, attack_odds, odds_table
from risiko.position import parse_position
from risiko.record import RecordError, parse_record
from risiko.sheet import SheetError, parse_sheet_text
from risiko.tournament import parse_season
from risiko.tournament.commands import OpenEvening, apply
from risiko.tournament.dates import EVENING_YEARS
from risiko.tournament.model import Evening
from risiko.tournament.season import SeasonError, parse_season_text
from risiko.tournament.standings import compute_standings

DEEP = "[" * 100_000 + "]" * 100_000
SEASON = {"name": "Torneo", "players": ["Anna", "Bruno", "Carla", "Dario"], "evenings": [
    {"date": "2027-03-02", "tables": [{"seats": ["Anna", "Bruno", "Carla", "Dario"],
                                       "scores": {"Anna": 57, "Bruno": 40, "Carla": 30,
                                                  "Dario": 12}}]}]}


def cli(*args: str, data_dir: Path | None = None) -> Result:
    env = {"COLUMNS": "200"}
    if data_dir is not None:
        env["RISIKO_DATA_DIR"] = str(data_dir)
    return CliRunner().invoke(app, ["--lang", "en", *args], env=env)


def refused(result: Result, *words: str) -> str:
    """The output of a command that exited with a refusal (not a traceback) saying
    ``words``."""
    assert result.exit_code != 0, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    for word in words:
        assert word in result.output, result.output
    return result.output


# ---------------------------------------------------------------------------- JSON


def test_the_json_reader_refuses_depth_and_long_numbers_before_reading() -> None:
    with pytest.raises(InvalidInputError) as err:
        jsonread.loads(DEEP)
    assert err.value.faults[0].code == "json.too_deep"
    assert err.value.faults[0].params == {"limit": jsonread.MAX_DEPTH}
    deepest = "[" * jsonread.MAX_DEPTH + "]" * jsonread.MAX_DEPTH
    assert jsonread.loads(deepest) is not None  # 24 levels are read
    with pytest.raises(InvalidInputError):
        jsonread.loads("[" + deepest + "]")  # 25 are not
    # brackets inside strings (escaped quotes too) are text, not nesting
    assert jsonread.loads('{"a": "[[[[\\"[[[' + "[" * 50 + '"}') == {"a": '[[[["[[[' + "[" * 50}
    with pytest.raises(InvalidInputError) as err:
        jsonread.loads('{"score": ' + "9" * 21 + "}")
    assert (err.value.faults[0].code, err.value.faults[0].params["digits"]) == (
        "json.long_number", 21)
    assert jsonread.loads("-" + "9" * 20) == -int("9" * 20)
    assert err.value.faults[0].message("it") != err.value.faults[0].message("en")
    with pytest.raises(json.JSONDecodeError):
        jsonread.loads("{")


def test_every_library_reader_refuses_deep_json_as_its_own_fault() -> None:
    with pytest.raises(SheetError) as sheet:
        parse_sheet_text(DEEP)
    with pytest.raises(SeasonError) as season:
        parse_season_text(DEEP)
    with pytest.raises(InvalidInputError) as position:
        parse_position(DEEP)
    for err in (sheet, season, position):
        assert [f.code for f in err.value.faults] == ["json.too_deep"]
    with pytest.raises(RecordError) as record:
        parse_record("[Event \"Prova\"]\nposition " + DEEP + "\n")
    assert "json.too_deep" in [f.code for f in record.value.faults]


@pytest.mark.parametrize("command", [
    ["season"], ["score"], ["legal"], ["play", "--position"],
    ["tournament", "import"],
])
def test_every_cli_json_reader_refuses_deep_json(tmp_path: Path, command: list[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP, encoding="utf-8")
    refused(cli(*command, str(deep), data_dir=tmp_path / "data"),
            "nested deeper than 24 levels")
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())


def test_file_mode_refuses_a_deep_season_file_and_leaves_it(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP, encoding="utf-8")
    refused(cli("tournament", "--file", str(deep), "standings"),
            "nested deeper than 24 levels")
    refused(cli("tournament", "--file", str(deep), "--write", "evening", "2027-03-09"),
            "nested deeper than 24 levels")
    assert deep.read_text(encoding="utf-8") == DEEP


# ---------------------------------------------------------------------------- evening dates


def test_evening_dates_outside_the_club_years_are_refused_by_the_library() -> None:
    assert EVENING_YEARS == (2000, 2099)
    t = parse_season(SEASON)
    for day in ("9999-12-31", "1999-12-31", "2100-01-01"):
        with pytest.raises(InvalidInputError) as err:
            apply(t, OpenEvening(day))
        fault = err.value.faults[0]
        assert (fault.code, fault.params) == ("time.evening_date_range",
                                              {"date": day, "low": 2000, "high": 2099})
        assert f"non il {day}" in fault.message("it")
    assert [e.date for e in apply(t, OpenEvening("2099-12-31")).evenings][-1] == dt.date(
        2099, 12, 31)
    assert apply(t, OpenEvening("2000-01-01")).evenings[0].date == dt.date(2000, 1, 1)


def test_a_season_file_with_an_evening_on_9999_12_31_names_the_evening() -> None:
    data = json.loads(json.dumps(SEASON))
    data["evenings"].append({"date": "9999-12-31"})
    with pytest.raises(SeasonError) as err:
        parse_season(data)
    [fault] = err.value.faults
    assert fault.code == "time.evening_date_range" and fault.subjects == {"evening": 2}
    assert fault.message("en") == ("evening 2: an evening falls in the years 2000 to 2099, "
                                   "not on 9999-12-31")


def test_standings_do_not_overflow_on_the_last_day_of_the_calendar() -> None:
    """A tournament built in memory (as from an old database) with an evening on
    9999-12-31: the standings are computed, the day after the last evening never asked."""
    t = parse_season(SEASON)
    t = replace(t, evenings=(*t.evenings, Evening(dt.date.max)))
    points = {r.player: r.points for r in compute_standings(t).rows}
    assert points == {"Anna": 57, "Bruno": 40, "Carla": 30, "Dario": 12}


def test_file_mode_refuses_the_evening_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "torneo.json"
    path.write_text(json.dumps(SEASON), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    refused(cli("tournament", "--file", str(path), "--write", "evening", "9999-12-31"),
            "an evening falls in the years 2000 to 2099, not on 9999-12-31")
    assert path.read_text(encoding="utf-8") == before
    bad = json.loads(before)
    bad["evenings"][0]["date"] = "9999-12-31"
    path.write_text(json.dumps(bad), encoding="utf-8")
    for command in (["season", str(path)], ["tournament", "--file", str(path), "standings"]):
        refused(cli(*command), "not on 9999-12-31")  # `tournament import`: tests/web


# ---------------------------------------------------------------------------- odds


def test_odds_beyond_the_limit_are_refused_before_computing() -> None:
    assert MAX_ARMIES == 400
    for call, what in ((lambda: attack_odds(5000, 5000), "attacker"),
                       (lambda: attack_odds(3, 401), "defender"),
                       (lambda: attack_odds(3, 2, support=401), "support"),
                       (lambda: odds_table(99999), "table")):
        with pytest.raises(RisikoError) as err:
            call()
        assert err.value.faults[0].code == "odds.too_many_armies"
        assert err.value.faults[0].params["what"] == what
    assert attack_odds(400, 400).attacker == 400


def test_the_odds_command_refuses_too_many_armies() -> None:
    refused(cli("odds", "--table", "99999"),
            "the odds are computed for at most 400 armies, got 99999 (table)")
    result = cli("odds", "5000", "5000", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["faults"][0]["code"] == "odds.too_many_armies"
