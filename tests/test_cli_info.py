"""``risiko rules`` and ``risiko board`` (info_commands), run on a fresh Typer app.

Expected numbers are those of RULES.md and DOMAIN.md: 81 borders on the club board (R6),
82 on the official one; continent bonuses 5, 2, 5, 3, 7, 2.
"""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
import typer
from typer.testing import CliRunner, Result

from risiko.cli import info_commands
from risiko.ruleset import CLUB_MILANO, RTU, Ruleset, get_ruleset


def run(*args: str) -> Result:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """Test root."""

    info_commands.register(app)
    return CliRunner(env={"COLUMNS": "250"}).invoke(app, list(args))


def test_every_ruleset_field_is_explained() -> None:
    names = {f.name for f in fields(Ruleset)}
    assert names == set(info_commands.FIELD_HELP)
    for meaning, clause in info_commands.FIELD_HELP.values():
        assert meaning and "\n" not in meaning
        assert clause


@pytest.mark.parametrize(("name", "ruleset"), [
    ("club-milano@1", CLUB_MILANO), ("rtu", RTU),
    ("club-milano", get_ruleset("club-milano@2"))])  # a bare name: the version in force
def test_rules_json_is_the_ruleset_dict(name: str, ruleset: Ruleset) -> None:
    result = run("rules", "--ruleset", name, "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc == json.loads(json.dumps(ruleset.to_dict()))
    assert Ruleset.from_dict(doc) == ruleset


def test_rules_human() -> None:
    result = run("rules")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "club-milano@2" in out  # a bare name: the version in force
    for f in fields(Ruleset):
        assert f.name in out
    # a few values with their clause, as the regulation gives them
    assert "army_limit " in out and "120" in out and "R4" in out
    assert "5/2 = 2.5" in out  # R15
    assert "3: 8, 4: 10, 5: 12" in out  # R9
    assert "R13" in out and "R6" in out


def test_rules_default_is_club_milano() -> None:
    doc = json.loads(run("rules", "--json").stdout)
    assert doc["name"] == "club-milano"
    assert doc["army_limit"] == 120
    assert doc["board_name"] == "club-milano"


def test_unknown_ruleset() -> None:
    for command in ("rules", "board"):
        result = run(command, "--ruleset", "monopoli")
        assert result.exit_code == 1
        assert "monopoli" in result.stderr


def test_board_json_club() -> None:
    result = run("board", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["board"] == "club-milano"
    assert doc["borders"] == 81
    assert doc["removed_borders"] == [["Egitto", "Medio Oriente"]]
    assert len(doc["territories"]) == 42
    assert [(c["name"], c["bonus"], len(c["territories"])) for c in doc["continents"]] == [
        ("Nord America", 5, 9), ("Sud America", 2, 4), ("Europa", 5, 7), ("Africa", 3, 6),
        ("Asia", 7, 12), ("Oceania", 2, 4),
    ]
    by_name = {t["name"]: t for t in doc["territories"]}
    assert set(by_name["Egitto"]["neighbours"]) == {"Africa Orientale", "Africa del Nord",
                                                    "Europa Meridionale"}
    assert "Egitto" not in by_name["Medio Oriente"]["neighbours"]
    peru = by_name["Perù"]
    assert peru == {"name": "Perù", "english": "Peru", "continent": "Sud America",
                    "symbol": "cavaliere",
                    "neighbours": ["Venezuela", "Brasile", "Argentina"]}
    assert sum(len(t["neighbours"]) for t in doc["territories"]) == 162


def test_board_json_official() -> None:
    doc = json.loads(run("board", "--ruleset", "rtu", "--json").stdout)
    assert doc["board"] == "official"
    assert doc["borders"] == 82
    assert doc["removed_borders"] == []
    by_name = {t["name"]: t for t in doc["territories"]}
    assert "Egitto" in by_name["Medio Oriente"]["neighbours"]
    assert len(by_name["Cina"]["neighbours"]) == 7
    assert sum(len(t["neighbours"]) for t in doc["territories"]) == 164


def test_board_human() -> None:
    result = run("board")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "81 borders (official board without Egitto - Medio Oriente)" in out
    for text in ("Nord America", "North America", "Madagascar", "Jacuzia", "Bonus",
                 "cavaliere"):
        assert text in out
    result = run("board", "-r", "classic")
    assert "82 borders" in result.stdout
