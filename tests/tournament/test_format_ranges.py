"""Format parameters out of range are refused naming the parameter and its range, at every
door: the format value itself, a season file read by ``risiko season``, the database's
create and change of format (the console's compare and apply call those).

Before: a win bonus of 1e30 or a divisor 0 overflowed the decimal arithmetic (a 500, a
traceback from ``risiko season``) and a negative bonus was taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from tournament_helpers import EXAMPLES
from typer.testing import CliRunner

from risiko.cli import tournament_commands
from risiko.faults import RisikoError
from risiko.tournament.format import TournamentFormat

# (formula, parameter, bad value, the range the fault names)
BAD = [
    ("win_bonus", "win_bonus", 1e30, "from 0 to 1000"),
    ("win_bonus", "win_bonus", -5, "from 0 to 1000"),
    ("win_bonus", "five_seat_factor", float("inf"), "from 0 to 10"),
    ("thousandths", "divisor", 0, "from 1 to 1000000"),
    ("thousandths", "win_point", -1, "from 0 to 1000"),
    ("placement_bonus", "placement_bonus", [12, -7, 5, 3, 2], "from 0 to 1000"),
    ("placement", "points_by_size", {"4": [100, 60, 1e40, 20]}, "from 0 to 1000"),
]


def _format(formula: str, parameter: str, value: object) -> dict[str, object]:
    return {"name": "prova", "ranking_points": {"formula": formula, parameter: value}}


@pytest.mark.parametrize(("formula", "parameter", "value", "within"), BAD)
def test_a_parameter_out_of_range_is_a_fault_naming_it_and_its_range(
        formula: str, parameter: str, value: object, within: str) -> None:
    with pytest.raises(RisikoError) as err:
        TournamentFormat.from_dict(_format(formula, parameter, value))
    (fault,) = [f for f in err.value.faults if f.code == "format.bad_ranking_parameter"]
    assert fault.params["parameter"] == parameter
    assert within in fault.params["expected"]


def test_the_ends_of_a_range_are_taken() -> None:
    """0 and 1000 for a bonus, 1 for a divisor (ends included)."""
    for formula, parameter, value in (("win_bonus", "win_bonus", 0),
                                      ("win_bonus", "win_bonus", 1000),
                                      ("thousandths", "divisor", 1)):
        TournamentFormat.from_dict(_format(formula, parameter, value))


@pytest.mark.parametrize(("formula", "parameter", "value", "within"), BAD[:4])
def test_risiko_season_says_the_fault_and_exits_1_without_a_traceback(
        tmp_path: Path, formula: str, parameter: str, value: object, within: str) -> None:
    data = json.loads((EXAMPLES / "season-2027.json").read_text(encoding="utf-8"))
    data["format"] = _format(formula, parameter, value)
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    app = typer.Typer()
    tournament_commands.register(app)
    result = CliRunner().invoke(app, ["season", str(path)])
    assert result.exit_code == 1, result.output
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(
        result.exception, SystemExit)
    assert parameter in result.output and within in result.output
