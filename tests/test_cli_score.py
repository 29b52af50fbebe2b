"""``risiko score``: output contract, human table, stdin, faults and exit codes.

Commands are registered on a fresh Typer app (``score_commands.register``) and run with
Typer's CliRunner; expected scores are those of the example sheet, worked out by hand in
tests/test_sheet.py (Anna 66, Carla 40, Bruno 35, Dario 30 - 7 = 23, Elena 21).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from risiko.cli import score_commands

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_JSON = EXAMPLES / "sheet-5-seats.json"
EXAMPLE_CSV = EXAMPLES / "sheet-5-seats.csv"

SEAT_KEYS = {"player", "objective", "territories", "armies", "objective_territories",
             "continents", "base", "penalty", "score", "risiko"}


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """Test root: keeps ``score`` a subcommand."""

    score_commands.register(app)
    return app


def run(*args: str, stdin: str | None = None) -> Result:
    runner = CliRunner(env={"COLUMNS": "200"})
    return runner.invoke(make_app(), list(args), input=stdin)


def scores_of(doc: dict[str, Any]) -> dict[str, int]:
    return {s["player"]: s["score"] for s in doc["seats"]}


@pytest.mark.parametrize("path", [EXAMPLE_JSON, EXAMPLE_CSV])
def test_json_output_contract(path: Path) -> None:
    result = run("score", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    doc = json.loads(result.stdout)
    assert {"seats", "ranking"} <= set(doc)
    assert doc["ruleset"] == "club-milano"
    for seat in doc["seats"]:
        assert set(seat) >= SEAT_KEYS
    assert scores_of(doc) == {"Anna": 66, "Bruno": 35, "Carla": 40, "Dario": 23, "Elena": 21}
    assert doc["ranking"] == ["Anna", "Carla", "Bruno", "Dario", "Elena"]
    dario = doc["seats"][3]
    assert (dario["armies"], dario["base"], dario["penalty"]) == (124, 30, -7)
    anna = doc["seats"][0]
    assert (anna["objective"], anna["territories"], anna["objective_territories"]) == (13, 11, 11)
    assert anna["continents"] == [{"name": "Nord America", "in_objective": True, "points": 22}]
    assert anna["risiko"] is False


def test_human_output() -> None:
    result = run("score", str(EXAMPLE_JSON))
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("Anna", "13 Guerra Fredda", "Nord America 22", "Oceania 4", "124", "-7",
                 "Ranking", "1. Anna 66", "2. Carla 40", "3. Bruno 35", "4. Dario 23",
                 "5. Elena 21", "124 armies > 120"):
        assert text in out, text


def test_stdin_json_and_csv() -> None:
    for path in (EXAMPLE_JSON, EXAMPLE_CSV):
        result = run("score", "-", "--json", stdin=path.read_text(encoding="utf-8"))
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["ranking"][0] == "Anna"


def test_ruleset_option_overrides_the_sheet() -> None:
    # RTU border points: Anna Nord America 35 + Kamchatka 5 + Giappone 2 = 42;
    # Dario 4 + 5 + 3 + 2 + 3 + 4 + 6 = 27, 124 armies under RTU's 130
    result = run("score", str(EXAMPLE_JSON), "--ruleset", "rtu", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["ruleset"] == "rtu"
    assert scores_of(doc)["Anna"] == 42
    assert scores_of(doc)["Dario"] == 27


def test_bad_sheet_exit_1_one_line_per_fault(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE_JSON.read_text(encoding="utf-8"))
    data["seats"][0]["armies"]["Alsaka"] = data["seats"][0]["armies"].pop("Alaska")
    data["seats"][4]["objective"] = 13
    data["seats"][2]["armies"]["Cita"] = 0
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for args in (["score", str(path)], ["score", str(path), "--json"]):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stdout == ""  # no scores printed
        lines = result.stderr.splitlines()
        assert len(lines) == 4
        assert any("Anna" in x and "'Alsaka'" in x and "Alaska" in x for x in lines)
        assert any("missing" in x and "Alaska" in x for x in lines)
        assert any("objective 13" in x and "Anna" in x and "Elena" in x for x in lines)
        assert any("Carla" in x and "Cita" in x for x in lines)


def test_garbled_and_missing_files(tmp_path: Path) -> None:
    garbled = tmp_path / "sheet.json"
    garbled.write_text('{"seats": [', encoding="utf-8")
    result = run("score", str(garbled))
    assert result.exit_code == 1
    assert result.stderr.startswith("not valid JSON")
    assert len(result.stderr.splitlines()) == 1
    result = run("score", str(tmp_path / "nowhere.csv"))
    assert result.exit_code == 1
    assert "cannot read" in result.stderr
    result = run("score", "-", stdin="")
    assert result.exit_code == 1
    assert result.stderr.strip() == "empty sheet"


def test_unknown_ruleset_option() -> None:
    result = run("score", str(EXAMPLE_JSON), "--ruleset", "monopoli")
    assert result.exit_code == 1
    assert "monopoli" in result.stderr
    assert result.stdout == ""


def test_missing_argument_is_a_usage_error() -> None:
    result = run("score")
    assert result.exit_code == 2


def test_shared_positions_and_markup_in_names() -> None:
    # Fabio and Gina, both eliminated (0), share the last position
    data = json.loads(EXAMPLE_JSON.read_text(encoding="utf-8"))
    data["seats"].append({"player": "[bold]Fabio", "objective": 16, "armies": {}})
    data["seats"].append({"player": "Gina", "objective": 2, "armies": {}})
    data["seats"].pop(4)  # keep 6 seats: drop Elena ...
    data["seats"][3]["armies"].update({"Indonesia": 9, "Nuova Guinea": 4,
                                        "Australia Occidentale": 6, "Australia Orientale": 2,
                                        "Siam": 2})  # ... whose territories go to Dario
    # Dario obj 3 Ciclista now also holds Oceania (in objective) and Siam:
    # 7 + 4 + 1 = 12 in objective x 4 = 48, Mongolia Cina 2, Oceania floor(2.5 x 4) = 10
    # -> 60, 124 + 23 = 147 armies: -7 -> 53
    result = run("score", "-", stdin=json.dumps(data))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "[bold]Fabio" in out
    assert "2. Dario 53" in out  # above Carla 40 and Bruno 35
    assert "4. Bruno 35" in out
    assert "5. [bold]Fabio 0" in out
    assert "5. Gina 0" in out
