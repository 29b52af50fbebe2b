"""``risiko season`` and ``risiko arrival`` through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from tournament_helpers import EXAMPLES
from typer.testing import CliRunner, Result

from risiko.cli import tournament_commands

SEASON = EXAMPLES / "season-2027.json"


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    application = typer.Typer()
    tournament_commands.register(application)
    return application


def run(app: typer.Typer, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def run_json(app: typer.Typer, *args: str) -> Any:
    result = run(app, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_season_json_keys(app: typer.Typer) -> None:
    data = run_json(app, "season", str(SEASON))
    assert set(data) >= {"standings", "semifinal_tables", "after_semifinal", "finalists",
                         "final_winner", "final_standings"}
    # the rows gain table_points, bonus (what the ranking formula added) and wins
    assert set(data["standings"][0]) == {"rank", "player", "points", "games", "risiko",
                                         "best", "penalties", "eligible", "table_points",
                                         "bonus", "wins"}


def test_season_from_stdin(app: typer.Typer) -> None:
    result = run(app, "season", "-", "--json", stdin=SEASON.read_text())
    assert result.exit_code == 0
    assert json.loads(result.stdout)["final_winner"] == "Ciro"


def test_season_mid_way(app: typer.Typer, tmp_path: Path) -> None:
    data = json.loads(SEASON.read_text())
    data["evenings"] = data["evenings"][:2]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(data))
    out = run_json(app, "season", str(path))
    assert out["semifinal_tables"] is not None  # 13 ranked players: as if it ended now
    assert out["after_semifinal"] is None and out["final_standings"] is None
    assert out["pending"] == ["after the semifinal: no semifinal evening yet"]
    human = run(app, "season", str(path))
    assert "no semifinal evening yet" in human.stdout


def test_bad_season_exits_1_with_one_line_per_fault(app: typer.Typer, tmp_path: Path) -> None:
    data = json.loads(SEASON.read_text())
    data["evenings"][0]["tables"][1]["seats"][0] = "Mara"
    data["evenings"][1]["tables"][0]["seats"].append("Nicco")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    for args in (["season", str(path)], ["season", str(path), "--json"]):
        result = run(app, *args)
        assert result.exit_code == 1
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert lines == [
            "evening 2027-03-02 (qualifying), table 2: a score for Fede, who is not seated "
            "at this table",
            "evening 2027-03-02 (qualifying), table 2: no score for Mara",
            "evening 2027-03-02 (qualifying): Mara is seated twice (tables 2 and 3)",
            "evening 2027-03-09 (qualifying), table 1: unknown player 'Nicco' (did you mean "
            "Nico?)",
            "evening 2027-03-09 (qualifying), table 1: no score for Nicco",
        ]


def test_missing_season_file(app: typer.Typer, tmp_path: Path) -> None:
    result = run(app, "season", str(tmp_path / "nope.json"))
    assert result.exit_code == 1 and "cannot read" in result.stderr


@pytest.mark.parametrize(("args", "cls", "turns"), [
    (["21:10"], "on_time", 0),
    (["21:11"], "late", 3),
    (["21:11", "--phoned"], "late", 3),
    (["21:20"], "late", 3),
    (["21:21"], "excluded", 0),
    (["21:21", "--phoned"], "late", 3),
    (["21:30", "--phoned"], "late", 3),
    (["21:31", "--phoned"], "excluded", 0),
    (["21:25", "--phoned-at", "21:05"], "late", 3),
    (["21:25", "--phoned-at", "21:15"], "excluded", 0),
    (["20:25", "--final"], "late", 3),
    (["21:15", "--ruleset", "classic"], "late", 0),
])
def test_arrival_json(app: typer.Typer, args: list[str], cls: str, turns: int) -> None:
    data = run_json(app, "arrival", *args)
    assert (data["class"], data["penalty_turns"]) == (cls, turns)


def test_arrival_human_and_errors(app: typer.Typer) -> None:
    result = run(app, "arrival", "21:15")
    assert result.exit_code == 0
    assert "late, 3 penalty turns" in result.stdout and "R3" in result.stdout
    bad = run(app, "arrival", "nine")
    assert bad.exit_code == 2 and "HH:MM" in bad.stderr
    unknown = run(app, "arrival", "21:00", "--ruleset", "risk")
    assert unknown.exit_code == 2 and "unknown ruleset" in unknown.stderr


def test_tournament_file_mode_reads_like_season(tmp_path: Path) -> None:
    """``risiko tournament --file S standings`` is ``risiko season S`` (no Django)."""
    from risiko.cli.main import app as risiko

    runner = CliRunner()
    short = runner.invoke(risiko, ["season", str(SEASON), "--json"])
    long = runner.invoke(risiko, ["tournament", "--file", str(SEASON), "standings", "--json"])
    assert short.exit_code == long.exit_code == 0
    assert json.loads(short.stdout) == json.loads(long.stdout)
    human = runner.invoke(risiko, ["tournament", "--file", str(SEASON), "standings"],
                          env={"COLUMNS": "200"})
    assert "general ranking" in human.stdout and "['" not in human.stdout
    exported = runner.invoke(risiko, ["tournament", "--file", str(SEASON), "export"])
    assert json.loads(exported.stdout)["name"] == json.loads(SEASON.read_text())["name"]
    for args in (["log"], ["current"]):
        refused = runner.invoke(risiko, ["tournament", "--file", str(SEASON), *args])
        assert refused.exit_code == 2 and "database" in refused.stderr


def test_names_with_rich_markup_are_printed_as_written(tmp_path: Path) -> None:
    data = json.loads(SEASON.read_text())
    text = json.dumps(data).replace('"Ciro"', '"[bold]Ciro"')
    path = tmp_path / "markup.json"
    path.write_text(text)
    result = CliRunner().invoke(typer_app(), ["season", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "[bold]Ciro" in result.stdout


def typer_app() -> typer.Typer:
    application = typer.Typer()
    tournament_commands.register(application)
    return application


def test_what_the_season_waits_for_is_said_in_the_language_asked(tmp_path: Path) -> None:
    from risiko.cli.main import app as risiko

    data = json.loads(SEASON.read_text())
    data["evenings"] = data["evenings"][:2]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(data))
    it = CliRunner().invoke(risiko, ["--lang", "it", "season", str(path)])
    assert "dopo la semifinale: non c'è ancora la serata della semifinale" in it.stdout
    en = CliRunner().invoke(risiko, ["--lang", "en", "season", str(path)])
    assert "after the semifinal: no semifinal evening yet" in en.stdout


def test_standings_and_list_say_their_headers_in_the_language() -> None:
    """issue (newcomer's trial): `tournament list` and `tournament standings` printed English
    headers under --lang it."""
    from risiko.cli.main import app as risiko

    season = str(EXAMPLES / "season-2027.json")
    env = {"COLUMNS": "200"}
    it = CliRunner().invoke(risiko, ["--lang", "it", "tournament", "--file", season,
                                     "standings"], env=env)
    assert it.exit_code == 0, it.output
    assert "Torneo sociale 2027 - classifica generale (club-milano@1, formula club-milano)" \
        in " ".join(it.stdout.split())
    header = next(line for line in it.stdout.splitlines() if "Giocatore" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == [
        "#", "Giocatore", "Punti", "Partite", "RisiKo!", "Migliore", "Penalità"]
    assert "Player" not in it.stdout and "Points" not in it.stdout
    listed = CliRunner().invoke(risiko, ["--lang", "it", "tournament", "--file", season,
                                         "list"], env=env)
    header = next(line for line in listed.stdout.splitlines() if "slug" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == [
        "id", "slug", "nome", "regolamento", "giocatori", "serate"]
    en = CliRunner().invoke(risiko, ["--lang", "en", "tournament", "--file", season, "list"],
                            env=env)
    header = next(line for line in en.stdout.splitlines() if "slug" in line)
    assert [c.strip() for c in header.split("┃")[1:-1]] == [
        "id", "slug", "name", "ruleset", "players", "evenings"]
