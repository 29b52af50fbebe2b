"""The contracts of ``risiko play``, ``risiko replay`` and ``risiko simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risiko.cli.main import app

runner = CliRunner()


def _json(args: list[str]) -> dict:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_play_json_contract_and_final_sheet_scores_the_same(tmp_path: Path) -> None:
    """The contract: the final_sheet of `play --seats 5 --seed 1`, scored by
    `risiko score`, gives the same scores."""
    game = _json(["play", "--seats", "5", "--seed", "1", "--json"])
    assert set(game) >= {"result", "scores", "final_sheet", "closing_rolls", "record"}
    assert game["result"]["end"] in ("risiko", "closing_dice", "referee",
                                     "all_others_eliminated")
    assert isinstance(game["result"]["rounds"], int) and game["result"]["rounds"] >= 1
    assert len(game["scores"]) == 5
    assert game["result"]["winner"] in (None, *game["scores"])
    for roll in game["closing_rolls"]:
        assert set(roll) == {"seat", "player", "closing_round", "sum", "closed", "conquests"}
        if roll["sum"] is None:
            assert roll["conquests"] >= 3 and not roll["closed"]
        else:
            low, high = 4, 4 + roll["closing_round"] - 1
            assert roll["closed"] == (low <= roll["sum"] <= high)
    if game["result"]["end"] == "closing_dice":
        assert game["closing_rolls"][-1]["closed"]
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(game["final_sheet"], ensure_ascii=False), encoding="utf-8")
    scored = _json(["score", str(sheet), "--json"])
    assert {s["player"]: s["score"] for s in scored["seats"]} == game["scores"]
    # the same seed plays the same game
    assert _json(["play", "--seats", "5", "--seed", "1", "--json"])["scores"] == game["scores"]


def test_play_record_then_replay_gives_the_same_result(tmp_path: Path) -> None:
    rec = tmp_path / "game.txt"
    played = _json(["play", "--seats", "4", "--seed", "7", "--bots", "heuristic,random",
                    "--late", "2", "--record", str(rec), "--json"])
    assert played["record"] == str(rec)
    assert played["seats"][1]["late"] is True
    replayed = _json(["replay", str(rec), "--json"])
    for key in ("result", "scores", "final_sheet", "closing_rolls"):
        assert replayed[key] == played[key], key


def test_replay_refuses_a_corrupt_record_with_line_and_reason(tmp_path: Path) -> None:
    rec = tmp_path / "game.txt"
    _json(["play", "--seats", "4", "--seed", "3", "--record", str(rec), "--json"])
    lines = rec.read_text(encoding="utf-8").splitlines()
    no = next(i for i, line in enumerate(lines) if " attack " in line)
    lines[no] = lines[no].replace(" attack ", " attack Atlantide ", 1)
    rec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec)])
    assert res.exit_code == 1
    assert f"line {no + 1}" in res.output and "Atlantide" in res.output


def test_simulate_json_contract() -> None:
    out = _json(["simulate", "--games", "6", "--seats", "4", "--bots", "heuristic,random",
                 "--rotate", "--seed", "5", "--json"])
    assert out["games"] == 6
    for key in ("seconds", "games_per_second", "mean_rounds", "mean_rolls", "end_reasons",
                "wins_by_seat", "mean_score_by_bot"):
        assert key in out
    assert sum(out["end_reasons"].values()) == 6
    assert sorted(out["wins_by_seat"]) == ["1", "2", "3", "4"]
    assert sum(out["wins_by_seat"].values()) == pytest.approx(6)
    assert set(out["mean_score_by_bot"]) == {"heuristic", "random"}


def test_simulate_with_workers_gives_the_same_figures() -> None:
    args = ["simulate", "--games", "4", "--seats", "3", "--bots", "random", "--seed", "11",
            "--json"]
    one = _json(args)
    two = _json([*args, "--workers", "2"])
    for key in ("mean_rounds", "mean_rolls", "end_reasons", "wins_by_seat"):
        assert one[key] == two[key], key


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--seats", "7"], "3 to 6 seats"),
        (["play", "--bots", "genius"], "unknown bot 'genius'"),
        (["play", "--ruleset", "hasbro"], "unknown ruleset 'hasbro'"),
        (["play", "--late", "9", "--seats", "4"], "no such seat"),
        (["simulate", "--games", "0"], "at least 1"),
    ],
)
def test_bad_options_exit_non_zero_with_one_clear_line(args: list[str], message: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert message in res.output


def test_play_json_gives_each_players_forfeits_by_clause(tmp_path: Path) -> None:
    """``forfeited`` per player as {"R3", "R4", "R11"}, the same armies as the
    record's forfeit lines. Seat 2 is late (R3): its 3 penalised turns forfeit their
    reinforcements (at least 1 each); nobody else arrives late."""
    rec = tmp_path / "game.txt"
    game = _json(["play", "--seats", "4", "--seed", "7", "--bots", "random", "--late", "2",
                  "--record", str(rec), "--json"])
    players = [s["player"] for s in game["seats"]]
    assert set(game["forfeited"]) == set(players)
    for forfeits in game["forfeited"].values():
        assert set(forfeits) == {"R3", "R4", "R11"}
    assert game["forfeited"][players[1]]["R3"] >= 3
    assert all(game["forfeited"][p]["R3"] == 0 for p in players if p != players[1])
    from_lines = {p: {"R3": 0, "R4": 0, "R11": 0} for p in players}
    for line in rec.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if len(words) == 4 and words[1] == "forfeit":
            from_lines[players[int(words[0]) - 1]][words[2]] += int(words[3])
    assert from_lines == game["forfeited"]
    assert _json(["replay", str(rec), "--json"])["forfeited"] == game["forfeited"]


def test_replay_says_a_corrupt_record_in_italian(tmp_path: Path) -> None:
    rec = tmp_path / "game.txt"
    _json(["play", "--seats", "4", "--seed", "3", "--record", str(rec), "--json"])
    lines = rec.read_text(encoding="utf-8").splitlines()
    no = next(i for i, line in enumerate(lines) if " attack " in line)
    lines[no] = "X" + lines[no]
    rec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["--lang", "it", "replay", str(rec)])
    assert res.exit_code == 1
    assert res.stderr.replace("\n", "") == (
        f"errore: {rec}: riga {no + 1}: una riga comincia con il numero di un posto o con R, "
        f"non 'X{lines[no][1:].split()[0]}'")


def test_simulate_says_its_summary_in_italian() -> None:
    """``simulate``'s summary was English under ``--lang it`` (a newcomer's trial): the same
    figures as ``--json``, said in Italian with a decimal comma and the end reasons' words."""
    args = ["simulate", "--games", "4", "--seats", "3", "--bots", "heuristic,random",
            "--seed", "11", "--workers", "1"]
    figures = _json([*args, "--json"])
    res = runner.invoke(app, ["--lang", "it", *args])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    rounds = f"{figures['mean_rounds']:.1f}".replace(".", ",")
    assert lines[-5].startswith("4 partite in ") and f"giri in media {rounds}" in lines[-5]
    ends = {"closing_dice": "dadi di chiusura", "risiko": "RisiKo!"}
    assert lines[-4] == "come sono finite: " + "; ".join(
        f"{ends[k]}: {v}" for k, v in figures["end_reasons"].items())
    assert lines[-3].startswith("vittorie per posto: 1: ")
    assert lines[-1].startswith("punteggio medio per bot: heuristic: ")
