"""``risiko odds``, ``risiko tris``, ``risiko closing`` through Typer's CliRunner."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from risiko.cli import odds_commands


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    application = typer.Typer()
    odds_commands.register(application)
    return application


def run(app: typer.Typer, *args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def run_json(app: typer.Typer, *args: str) -> Any:
    result = run(app, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- odds -------------------------------------------------------------------------------


def test_odds_json_classic_two_v_one(app: typer.Typer) -> None:
    data = run_json(app, "odds", "2", "1", "--ruleset", "classic")
    assert data["p_conquer"] == pytest.approx(15 / 36)
    assert data["expected_attacker_losses"] == pytest.approx(21 / 36)
    assert data["expected_defender_losses"] == pytest.approx(15 / 36)
    assert data["legal"] is True
    states = {(r["attacker_left"], r["defender_left"]): r["p"] for r in data["distribution"]}
    assert states == pytest.approx({(2, 0): 15 / 36, (1, 1): 21 / 36})


def test_odds_json_club_r7(app: typer.Typer) -> None:
    data = run_json(app, "odds", "2", "2")
    assert data["p_conquer"] == 0
    assert data["legal"] is False
    assert data["distribution"] == [{"attacker_left": 2, "defender_left": 2, "p": 1.0}]
    assert "R7" in data["illegal_reason"]
    assert [(f["code"], f["clause"]) for f in data["faults"]] == [
        ("attack.r7_dice_parity", "R7")
    ]


def test_odds_not_allowed_says_so_without_a_chance(app: typer.Typer) -> None:
    """3 v 3 is not allowed (R7): no 0.0% chance printed beside it."""
    result = run(app, "odds", "3", "3")
    assert result.exit_code == 0
    assert "not allowed (R7)" in result.stdout
    assert "0.0%" not in result.stdout and "P(conquer)" not in result.stdout


def test_odds_json_r8_and_support(app: typer.Typer) -> None:
    assert run_json(app, "odds", "5", "5")["legal"] is False
    data = run_json(app, "odds", "5", "5", "--support", "1")
    assert data["legal"] is True and data["p_conquer"] > 0 and data["support"] == 1
    assert run_json(app, "odds", "11", "18")["legal"] is True


def test_odds_json_sums_to_one(app: typer.Typer) -> None:
    data = run_json(app, "odds", "12", "7")
    assert sum(r["p"] for r in data["distribution"]) == pytest.approx(1.0)
    assert data["ruleset"] == "club-milano@2"  # a bare name: the version in force


def test_odds_human(app: typer.Typer) -> None:
    result = run(app, "odds", "4", "2")
    assert result.exit_code == 0
    assert "P(conquer)" in result.stdout
    assert "conquest" in result.stdout
    assert "R7" in result.stdout  # (2, 2) is a stop by dice parity
    illegal = run(app, "odds", "5", "5")
    assert illegal.exit_code == 0
    assert "may not start" in illegal.stdout and "R8" in illegal.stdout


def test_odds_needs_armies(app: typer.Typer) -> None:
    result = run(app, "odds")
    assert result.exit_code == 2
    assert "--table" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert run(app, "odds", "5").exit_code == 2
    assert run(app, "odds", "0", "3").exit_code == 2
    assert run(app, "odds", "3", "3", "--support", "-1").exit_code == 2


def test_odds_bad_ruleset(app: typer.Typer) -> None:
    result = run(app, "odds", "3", "1", "--ruleset", "nope")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "club-milano" in lines[0]


def test_odds_table_json(app: typer.Typer) -> None:
    data = run_json(app, "odds", "--table", "4", "--ruleset", "classic")
    assert data["attackers"] == [2, 3, 4]
    assert data["defenders"] == [1, 2, 3, 4]
    grid = data["p_conquer"]
    assert len(grid) == 3 and all(len(row) == 4 for row in grid)
    assert grid[0][0] == pytest.approx(15 / 36)  # 2 v 1
    assert grid[0][1] == pytest.approx(55 / 216 * 15 / 36)  # 2 v 2 classic


def test_odds_table_club_zeros(app: typer.Typer) -> None:
    grid = run_json(app, "odds", "--table", "12")["p_conquer"]
    assert grid[0][1] == 0  # 2 v 2: R7
    assert grid[3][4] == 0  # 5 v 5: R8
    assert grid[9][11] > 0  # 11 v 12: more than 10 armies


def test_odds_table_human(app: typer.Typer) -> None:
    result = run(app, "odds", "--table", "6")
    assert result.exit_code == 0
    assert "41.7" in result.stdout  # 2 v 1
    assert "A \\ D" in result.stdout
    assert run(app, "odds", "--table", "1").exit_code == 2
    assert run(app, "odds", "3", "2", "--table", "5").exit_code == 2


# --- tris -------------------------------------------------------------------------------


def test_tris_mixed_with_bonus(app: typer.Typer) -> None:
    # Perù cavaliere, Argentina fante, Brasile cannone: one of each; 4 cards in hand -> 10
    data = run_json(app, "tris", "peru", "Argentina", "BRASILE", "--hand", "4", "--own", "Perù")
    assert data["valid"] is True
    assert data["kind"] == "mixed"
    assert (data["value"], data["bonus"], data["total"]) == (10, 2, 12)


def test_tris_by_hand_size(app: typer.Typer) -> None:
    cards = ("Alaska", "Alberta", "Africa del Nord")  # three fanti
    assert run_json(app, "tris", *cards, "--hand", "3")["value"] == 8
    assert run_json(app, "tris", *cards, "--hand", "4")["value"] == 10
    data = run_json(
        app, "tris", *cards, "--hand", "7", "--own", "alaska", "--own", "north africa"
    )
    assert (data["value"], data["bonus"], data["total"], data["kind"]) == (12, 4, 16, "fante")


def test_tris_classic_values(app: typer.Typer) -> None:
    data = run_json(app, "tris", "jolly", "venezuela", "brasile", "--hand", "3", "-r", "classic")
    assert (data["kind"], data["value"]) == ("jolly", 12)


def test_tris_invalid_set(app: typer.Typer) -> None:
    # Perù cavaliere, Venezuela cannone, Brasile cannone: not a set. An
    # invalid set exits 1, with or without --json; the JSON says why in "faults".
    result = run(app, "tris", "peru", "venezuela", "brasile", "--hand", "5", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["valid"] is False
    assert (data["value"], data["bonus"], data["total"]) == (0, 0, 0)
    assert data["kind"] is None
    assert [(f["code"], f["clause"]) for f in data["faults"]] == [("cards.invalid_set", "R9")]
    human = run(app, "tris", "peru", "venezuela", "brasile", "--hand", "5")
    assert human.exit_code == 1
    assert "not a valid set" in human.stderr.lower()


def test_tris_two_jolly_is_not_a_set(app: typer.Typer) -> None:
    result = run(app, "tris", "jolly", "jolly", "peru", "--hand", "3", "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["valid"] is False


def test_tris_unknown_card(app: typer.Typer) -> None:
    result = run(app, "tris", "peru", "perx", "brasile", "--hand", "3")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Perù" in lines[0]
    bad_own = run(app, "tris", "peru", "venezuela", "brasile", "--hand", "3", "--own", "xx")
    assert bad_own.exit_code == 2


def test_tris_hand_checks(app: typer.Typer) -> None:
    args = ("tris", "peru", "argentina", "brasile")
    result = run(app, *args, "--hand", "2")
    assert result.exit_code == 2 and "--hand" in result.stderr
    assert run(app, *args).exit_code == 2  # --hand missing
    assert run(app, "tris", "peru", "argentina", "--hand", "3").exit_code == 2
    assert run(app, "tris", "peru", "peru", "brasile", "--hand", "3").exit_code == 2


def test_tris_human(app: typer.Typer) -> None:
    result = run(app, "tris", "peru", "argentina", "brasile", "--hand", "3")
    assert result.exit_code == 0
    assert "mixed" in result.stdout and "8 armies" in result.stdout


# --- closing ----------------------------------------------------------------------------


@pytest.mark.parametrize(("k", "ways", "high"), [(1, 3, 4), (2, 7, 5), (3, 12, 6), (4, 18, 7)])
def test_closing_json(app: typer.Typer, k: int, ways: int, high: int) -> None:
    data = run_json(app, "closing", str(k))
    assert data["closing_round"] == k
    assert data["band"] == [4, high]
    assert [row["sum"] for row in data["sums"]] == list(range(4, high + 1))
    assert data["p_close"] == pytest.approx(ways / 36)
    assert sum(row["p"] for row in data["sums"]) == pytest.approx(ways / 36)


def test_closing_rollers(app: typer.Typer) -> None:
    data = run_json(app, "closing", "1", "--rollers", "5")
    assert data["p_round_closes"] == pytest.approx(1 - (33 / 36) ** 5)


def test_closing_rtu(app: typer.Typer) -> None:
    data = run_json(app, "closing", "1", "--ruleset", "rtu")
    assert data["band"] == [2, 4]
    assert data["p_close"] == pytest.approx(6 / 36)


def test_closing_human_and_errors(app: typer.Typer) -> None:
    result = run(app, "closing", "2")
    assert result.exit_code == 0
    assert "7/36" in result.stdout
    assert run(app, "closing", "0").exit_code == 2
    assert run(app, "closing", "1", "--rollers", "-1").exit_code == 2
    assert run(app, "closing", "1", "--ruleset", "bogus").exit_code == 2


def test_the_odds_tables_are_said_in_italian_under_lang_it() -> None:
    """issue (newcomer's trial, English under Italian): 5 v 2 conquers with 78.5 % (the
    engine's exact 0.785454); the labels and the figures in Italian, English unchanged."""
    from risiko.cli.main import app as risiko

    it = CliRunner().invoke(risiko, ["--lang", "it", "odds", "5", "2"], env={"COLUMNS": "200"})
    lines = [" ".join(line.split()) for line in it.stdout.splitlines()]
    assert "P(conquista) 78,5 % (0,785454)" in lines
    assert "attaccante / difensore 5 contro 2 armate" in lines
    assert "P(conquer)" not in it.stdout and "Final states" not in it.stdout
    en = CliRunner().invoke(risiko, ["--lang", "en", "odds", "5", "2"], env={"COLUMNS": "200"})
    assert "P(conquer) 78.5% (0.785454)" in [" ".join(x.split()) for x in en.stdout.splitlines()]


def test_tris_and_closing_said_in_italian(app: typer.Typer) -> None:
    """``tris`` and ``closing`` printed English under Italian (a newcomer's trial): now in
    the language asked. Perù cavaliere, Argentina fante, Brasile cannone: one of each, 3
    cards in hand: 8 armies, +2 for Perù owned (R9). Closing round 2 of the club band: sums
    4 and 5, 3 + 4 = 7 ways of 36 (R2); 2 seats rolling: 1 - (29/36)^2 = 35,1 %."""
    from risiko.faults import use_language

    with use_language("it"):
        tris = run(app, "tris", "peru", "argentina", "brasile", "--hand", "3", "--own", "peru")
        closing = run(app, "closing", "2", "--rollers", "2")
    assert tris.exit_code == 0, tris.output
    lines = [" ".join(line.split()) for line in tris.stdout.splitlines()]
    assert "tipo uno per simbolo" in lines
    assert "valore 8 (3 carte in mano)" in lines
    assert "bonus 2 (territori posseduti: Perù)" in lines and "totale 10 armate" in lines
    assert closing.exit_code == 0, closing.output
    assert closing.stdout.startswith(
        "Giro di chiusura 2 (club-milano@2): le somme da 4 a 5 chiudono la partita")
    assert "Un lancio chiude: 7/36 = 19,4 %" in closing.stdout
    assert "Con 2 giocatori che tirano, il giro chiude la partita: 35,1 %" in closing.stdout
