"""The committee's lab (risiko.lab, ``risiko analyse``, ``simulate --workers/--engine``):
values worked out by hand from RULES.md R2, the dice tables and the interval formulas."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import position
from risiko.cli.main import app
from risiko.lab import (
    SimSpec,
    batches,
    closing_exact,
    luck_of_record,
    luck_table,
    mean_ci,
    objectives_table,
    proportion_ci,
    roll_moments,
    run_games,
    seats_table,
)
from risiko.record import RecordError
from risiko.ruleset import CLUB_MILANO, RTU

runner = CliRunner()


# ---------------------------------------------------------------------------- closing (R2)
def test_club_band_alone_four_seats_by_hand() -> None:
    """R2: round 1 closes on 4 (3/36), round 2 on 4-5 (7/36), round 3 on 4-6 (12/36); four
    seats roll once each per closing round."""
    c = closing_exact(CLUB_MILANO, 4)
    miss1, miss2, miss3 = Fraction(33, 36) ** 4, Fraction(29, 36) ** 4, Fraction(24, 36) ** 4
    assert [r.band for r in c.rows[:3]] == [(4, 4), (4, 5), (4, 6)]
    assert [r.p_roll for r in c.rows[:3]] == pytest.approx([3 / 36, 7 / 36, 12 / 36])
    # 1 - (33/36)^4 = 493695/1679616 = 0.2939: the "29 %"
    assert c.rows[0].p_end == pytest.approx(float(1 - miss1)) == pytest.approx(0.29393, 1e-4)
    assert c.rows[1].p_end == pytest.approx(float(miss1 * (1 - miss2)))
    assert c.rows[2].p_end == pytest.approx(float(miss1 * miss2 * (1 - miss3)))
    assert c.rows[2].cumulative == pytest.approx(float(1 - miss1 * miss2 * miss3))
    assert sum(c.rounds_after_call.values()) == pytest.approx(1.0, abs=1e-9)


def test_rtu_band_closes_first_round_half_the_time() -> None:
    """RTU: sums 2..4 close in closing round 1 (6/36): 1 - (5/6)^4 = 671/1296 = 0.5177."""
    c = closing_exact(RTU, 4)
    assert c.rows[0].band == (2, 4)
    assert c.rows[0].p_end == pytest.approx(671 / 1296)


def test_one_roller_the_anchor_closes_in_the_last_round() -> None:
    """One seat rolling: closing round 1 is its turn in the LAST round (the 1st after the
    call's), so that round ends the game with 3/36; closing round 2 is the next round with
    33/36 · 7/36; the mean closing round is sum k·P(k)."""
    c = closing_exact(CLUB_MILANO, 1, rows=40)
    assert c.rounds_after_call[1] == pytest.approx(3 / 36)
    assert c.rounds_after_call[2] == pytest.approx(33 / 36 * 7 / 36)
    mean = sum(r.k * r.p_end for r in c.rows)
    assert c.mean_rounds == pytest.approx(mean, abs=1e-9)


# ---------------------------------------------------------------------------- intervals
def test_wilson_interval_by_hand() -> None:
    """50 of 100: centre 0.5, half z·sqrt(0.25/100 + z²/40000)/(1 + z²/100) = 0.09617;
    0 of 10: low 0, high (z²/10)/(1 + z²/10) = 0.27753."""
    ci = proportion_ci(50, 100)
    assert (ci.low, ci.high) == (pytest.approx(0.40383, abs=1e-5), pytest.approx(0.59617,
                                                                               abs=1e-5))
    zero = proportion_ci(0, 10)
    assert zero.low == 0 and zero.high == pytest.approx(0.38415 / 1.38415, abs=1e-4)
    with pytest.raises(ValueError):
        proportion_ci(11, 10)


def test_mean_interval_by_hand() -> None:
    """[1, 2, 3, 4]: mean 2.5, s = sqrt(5/3) = 1.2910, half 1.96·1.2910/2 = 1.2652."""
    ci = mean_ci([1, 2, 3, 4])
    half = 1.959964 * math.sqrt(5 / 3) / 2
    assert (ci.value, ci.low, ci.high) == (2.5, pytest.approx(2.5 - half),
                                           pytest.approx(2.5 + half))
    assert mean_ci([7]).low == 7


# ---------------------------------------------------------------------------- objectives, seats
FACTS = [  # three hand-made 3-seat games
    {"winners": [0], "objectives": [1, 2, 3], "scores": [60, 20, 10]},
    {"winners": [1, 2], "objectives": [2, 3, 1], "scores": [10, 40, 40]},
    {"winners": [0], "objectives": [1, 3, 2], "scores": [50, 30, 20]},
]


def test_objectives_and_seats_from_hand_made_games() -> None:
    """Objective 1: dealt 3 times, won games 1 and 3 and half of game 2 (seat 3's tie):
    2.5/3, scores 60, 40, 50; objective 3:
    dealt 3 times, a half win (the tie of game 2). Seat 1 wins 2 of 3, seats 2 and 3 one
    half each."""
    rows = {r["objective"]: r for r in objectives_table(FACTS)}
    assert rows[1]["dealt"] == 3 and rows[1]["win_rate"]["value"] == pytest.approx(2.5 / 3,
                                                                                 abs=1e-4)
    assert rows[1]["mean_score"]["value"] == 50
    assert rows[3]["win_rate"]["value"] == pytest.approx(0.5 / 3, abs=1e-4)
    seats = seats_table(FACTS)
    assert [s["win_rate"]["value"] for s in seats] == pytest.approx([2 / 3, 1 / 6, 1 / 6],
                                                                    abs=1e-4)
    assert seats[0]["fair"] == pytest.approx(0.3333, abs=1e-4)
    assert seats[1]["mean_score"]["value"] == 30


# ---------------------------------------------------------------------------- luck
def tiny_record() -> str:
    """Anna attacks Argentina (Bruno, 1 army) twice, 1 die against 1: first 6 against 6
    (she loses 1), then 5 against 2 (Bruno loses 1, the conquest)."""
    pos = position("attack", anna={"Brasile": 2, "Perù": 2}, bruno={"Argentina": 1})
    return "\n".join([
        '[Ruleset "club-milano@1"]', '[Seats "Anna|Bruno|Carla"]', "",
        "position " + json.dumps(pos, ensure_ascii=False),
        "1 attack Brasile Argentina 6 6",
        "1 attack Perù Argentina 5 2", ""])


def test_roll_moments_one_die_each() -> None:
    """1 die against 1: the attacker loses with 21/36 (ties to the defender)."""
    mean, var = roll_moments(1, 1)
    assert mean == pytest.approx(21 / 36) and var == pytest.approx(21 * 15 / 36**2)


def test_luck_index_of_a_tiny_record_by_hand() -> None:
    """Two 1-against-1 rolls. Anna expected 2·21/36 = 1.1667 losses, lost 1: luck +0.1667,
    variance 2·315/1296 = 0.4861, z = 0.1667/0.6972 = +0.239. Bruno expected 2·15/36 =
    0.8333, lost 1: z = -0.239. Carla took no roll."""
    anna, bruno, carla = luck_of_record(tiny_record())
    assert (anna.rolls, anna.lost, bruno.rolls, bruno.lost) == (2, 1, 2, 1)
    assert anna.expected == pytest.approx(42 / 36) and bruno.expected == pytest.approx(30 / 36)
    assert anna.variance == pytest.approx(630 / 1296)
    assert anna.z == pytest.approx((1 / 6) / math.sqrt(630 / 1296))
    assert anna.z == pytest.approx(0.2390, abs=1e-4) and bruno.z == pytest.approx(-0.2390,
                                                                                 abs=1e-4)
    assert (carla.rolls, carla.z) == (0, 0.0)
    # the game is not over: one game each, no win, no score yet
    assert (anna.games, anna.wins, anna.mean_score) == (1, 0, None)
    # two copies: the same player adds up (luck doubles, z grows by sqrt 2)
    two = {r.player: r for r in luck_table([tiny_record(), tiny_record()])}
    assert two["Anna"].z == pytest.approx(0.2390 * math.sqrt(2), abs=1e-4)


def test_luck_beside_the_results_of_a_golden_record() -> None:
    """tests/golden/club3_late.txt says Result "closing_dice Anna" and Scores "Anna 82|Bruno
    21|Carla 16": the results are read beside the dice."""
    text = (Path(__file__).parent / "golden" / "club3_late.txt").read_text(encoding="utf-8")
    rows = {r.player: r for r in luck_of_record(text)}
    assert [(p, rows[p].wins, rows[p].mean_score) for p in ("Anna", "Bruno", "Carla")] == [
        ("Anna", 1, 82), ("Bruno", 0, 21), ("Carla", 0, 16)]
    # every roll has an attacker and a defender: the rolls counted twice, once per side
    game_rolls = sum(1 for line in text.splitlines() if " attack " in line)
    assert sum(r.rolls for r in rows.values()) == 2 * game_rolls


def test_luck_refuses_a_record_that_does_not_replay() -> None:
    with pytest.raises(RecordError):
        luck_of_record(tiny_record().replace("5 2", "5"))


def test_analyse_luck_command_it_and_en(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(tiny_record(), encoding="utf-8")
    res = runner.invoke(app, ["analyse", "luck", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["records"] == 1
    assert [(p["player"], p["z"]) for p in data["players"]] == [
        ("Anna", 0.239), ("Carla", 0.0), ("Bruno", -0.239)]
    # the default language is LANG's, as for every command
    it = runner.invoke(app, ["analyse", "luck", str(tmp_path / "a.txt")],
                       env={"LANG": "it_IT.UTF-8"})
    assert "Fortuna ai dadi (partite registrate: 1)" in it.output and "Oscillazione" in it.output
    en = runner.invoke(app, ["analyse", "luck", str(tmp_path / "a.txt"), "--lang", "en"])
    assert "Luck of the dice" in en.output and "Player" in en.output
    # risiko --lang en before the command says it too
    top = runner.invoke(app, ["--lang", "en", "analyse", "luck", str(tmp_path / "a.txt")])
    assert "Luck of the dice" in top.output
    empty = tmp_path / "none"
    empty.mkdir()
    res = runner.invoke(app, ["--lang", "it", "analyse", "luck", str(empty)])
    assert res.exit_code == 2 and "nessuna partita registrata" in res.stderr


# ---------------------------------------------------------------------------- scale
def test_batches_cover_every_game_once_in_order() -> None:
    assert batches(10, 2, 4) == [(0, 4), (4, 8), (8, 10)]
    covered = [i for a, b in batches(1001, 2) for i in range(a, b)]
    assert covered == list(range(1001))


def test_one_and_two_workers_play_the_same_games() -> None:
    """Game i is seeded by seed + i alone: two processes in batches of 2 give the games of
    one process, in order."""
    spec = SimSpec(("random",) * 3, "club-milano@2", 4, True, 7)
    one = run_games(spec, 6, workers=1)
    two = run_games(spec, 6, workers=2, batch=2)
    assert one == two
    assert [f["seed"] for f in one] == [7, 8, 9, 10, 11, 12]
    assert [f["bots"] for f in one][:1] == [["random"] * 3]


def test_analyse_closing_json_exact_and_simulated() -> None:
    res = runner.invoke(app, ["analyse", "closing", "--ruleset", "rtu", "--games", "3",
                              "--bots", "1", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    (entry,) = json.loads(res.output)["rulesets"]
    assert entry["ruleset"] == "rtu@1"
    assert entry["exact"]["rows"][0]["p_end"] == pytest.approx(671 / 1296, abs=1e-6)
    assert entry["simulated"]["games"] == 3 and entry["simulated"]["bots"] == ["random"] * 4


def test_analyse_seats_and_objectives_json() -> None:
    seats = json.loads(runner.invoke(app, [
        "analyse", "seats", "--games", "4", "--seats", "3", "--bots", "random",
        "--workers", "1", "--json"]).output)
    assert [s["seat"] for s in seats["seats"]] == [1, 2, 3]
    assert sum(s["win_rate"]["value"] for s in seats["seats"]) == pytest.approx(1, abs=1e-3)
    objs = json.loads(runner.invoke(app, [
        "analyse", "objectives", "--games", "4", "--seats", "3", "--bots", "random",
        "--workers", "1", "--json"]).output)
    assert sum(o["dealt"] for o in objs["objectives"]) == 12


def test_engine_refused_by_name() -> None:
    res = runner.invoke(app, ["simulate", "--games", "1", "--engine", "spark"])
    assert res.exit_code == 2 and "spark" in res.stderr


def test_ray_plays_the_same_games_as_the_pool() -> None:
    """A small local Ray (2 CPUs) plays the games of the process pool (skipped without the
    ``ray`` extra)."""
    ray = pytest.importorskip("ray")
    from risiko.cli.lab_ray import run_games_ray

    spec = SimSpec(("random",) * 3, "club-milano@2", 4, False, 3)
    try:
        got = run_games_ray(spec, 4, batch=2, init={"num_cpus": 2})
    finally:
        ray.shutdown()
    assert got == run_games(spec, 4, workers=1)


def test_plots_png_and_svg(tmp_path: Path) -> None:
    """--plots writes PNG and SVG (the lab extra: matplotlib) with the Italian labels."""
    pytest.importorskip("matplotlib")
    res = runner.invoke(app, ["analyse", "closing", "--games", "0", "--plots", str(tmp_path),
                              "--lang", "it"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "closing.png").read_bytes()[:4] == b"\x89PNG"
    svg = (tmp_path / "closing.svg").read_text(encoding="utf-8")
    assert "Giro di chiusura" in svg or "Giro" in svg


def test_without_ray_or_matplotlib_the_commands_say_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from risiko.web import labplots

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as where it is absent
    res = runner.invoke(app, ["simulate", "--games", "1", "--engine", "ray"])
    assert res.exit_code == 2 and "pip install 'risiko-club[ray]'" in res.stderr
    monkeypatch.setattr(labplots, "available", lambda: False)
    res = runner.invoke(app, ["analyse", "closing", "--games", "0", "--plots", str(tmp_path)])
    assert res.exit_code == 2 and "pip install 'risiko-club[lab]'" in res.stderr
    assert not list(tmp_path.iterdir())


def test_bots_by_level() -> None:
    """--bots takes the levels of agents.levels.LEVELS: 2 = heuristic, 1 = random (the last
    repeats)."""
    res = runner.invoke(app, ["simulate", "--games", "2", "--bots", "2,1", "--workers", "1",
                              "--json"])
    assert res.exit_code == 0, res.output
    assert set(json.loads(res.output)["mean_score_by_bot"]) == {"heuristic", "random"}
    bad = runner.invoke(app, ["simulate", "--games", "1", "--bots", "99"])
    assert bad.exit_code == 2 and "99" in bad.stderr


def test_closing_figures_in_the_language_and_json_keeps_the_point() -> None:
    """issue (newcomer's trial): the CLI said "29.4%" under --lang it while the lab page said
    "0,294". Club band, 4 seats: round 1 ends the game with 1 - (33/36)^4 = 0.2939 (29,4 %);
    one roll of 4 closes with 3/36 = 8,3 %."""
    args = ["analyse", "closing", "--games", "0", "--ruleset", "club-milano"]
    env = {"COLUMNS": "200"}
    it = runner.invoke(app, ["--lang", "it", *args], env=env)
    first = next(line for line in it.stdout.splitlines() if "4-4" in line)
    assert [c.strip() for c in first.split("│")[1:-1]] == [
        "1", "4-4", "8,3 %", "29,4 %", "29,4 %"]
    en = runner.invoke(app, ["--lang", "en", *args], env=env)
    first = next(line for line in en.stdout.splitlines() if "4-4" in line)
    assert [c.strip() for c in first.split("│")[1:-1]] == ["1", "4-4", "8.3%", "29.4%", "29.4%"]
    data = json.loads(runner.invoke(app, ["--lang", "it", *args, "--json"]).stdout)
    row = data["rulesets"][0]["exact"]["rows"][0]
    assert (row["p_roll"], row["p_end"]) == (0.083333, 0.293933)  # JSON: numbers, a point
