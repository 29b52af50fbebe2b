"""The committee's lab, the engine's part (risiko.lab: no CLI, no Django, so it runs on the
compiled build too, tools/compiled_check.py): values worked out by hand from RULES.md R2,
the dice tables and the interval formulas; the same games and figures for 1 and 2 workers.
The commands' tests are in test_lab.py."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from helpers import position
from risiko.actions import Attack
from risiko.board import parse_territory
from risiko.game import Game
from risiko.lab import (
    SimSpec,
    batches,
    closing_exact,
    luck_of_game,
    luck_of_record,
    luck_table,
    mean_ci,
    objectives_table,
    proportion_ci,
    roll_moments,
    run_games,
    score_range,
    seats_table,
    simulated_luck,
)
from risiko.match import play_bots
from risiko.record import RecordError, write_record
from risiko.ruleset import CLUB_MILANO, RTU


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
    # one value: no spread, no interval (it was the zero-width [7, 7])
    one = mean_ci([7])
    assert (one.value, one.low, one.high) == (7, None, None)
    assert one.to_dict() == {"value": 7, "low": None, "high": None, "n": 1}


def test_mean_score_interval_stays_in_the_score_range() -> None:
    """Scores 0, 100, 68 (club-milano: 0..100, R1): mean 56, s = sqrt(2608) = 51.07, half
    1.96·51.07/√3 = 57.79, so [-1.79, 113.79] cut to [0, 100]."""
    assert score_range(CLUB_MILANO) == (0, 100)
    raw = mean_ci([0, 100, 68])
    assert (raw.low, raw.high) == (pytest.approx(-1.7885, abs=1e-4),
                                   pytest.approx(113.7885, abs=1e-4))
    cut = mean_ci([0, 100, 68], bounds=(0, 100))
    assert (cut.value, cut.low, cut.high) == (56, 0, 100)
    facts = [{"winners": [0], "objectives": [1, 2, 3], "scores": [100, 0, 0],
              "score_range": [0, 100]},
             {"winners": [2], "objectives": [1, 2, 3], "scores": [0, 0, 68],
              "score_range": [0, 100]},
             {"winners": [0], "objectives": [1, 2, 3], "scores": [68, 0, 100],
              "score_range": [0, 100]}]
    seat1 = seats_table(facts)[0]["mean_score"]
    assert (seat1["low"], seat1["high"]) == (0, 100)
    obj2 = objectives_table(facts)[1]["mean_score"]  # three zeros: s = 0, [0, 0]
    assert (obj2["value"], obj2["low"], obj2["high"]) == (0, 0, 0)
    one = seats_table(facts[:1])[0]["mean_score"]
    assert (one["value"], one["low"], one["high"]) == (100, None, None)
    # a played game says its range: club-milano's
    assert run_games(SimSpec(("random",) * 3), 1, workers=1)[0]["score_range"] == [0, 100]


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


def test_luck_of_a_scripted_game_three_dice_against_two_by_hand() -> None:
    """One roll, 3 dice against 2 (R8: Brasile has 4 armies, Argentina 2): 6 5 4 against
    6 1, so 6-6 goes to the defender and 5-1 to the attacker: each side loses 1. The exact
    odds of 3 against 2 (7776 outcomes): the attacker loses 0 in 2890, 1 in 2611, 2 in
    2275, so he expects (2611 + 2·2275)/7776 = 7161/7776 = 0.92091 and the defender
    2 - 7161/7776 = 1.07909; the variance is (2611 + 4·2275)/7776 - (7161/7776)² =
    0.657968. Anna's luck 0.92091 - 1 = -0.07909, z = -0.07909/√0.657968 = -0.09750;
    Bruno's the opposite. Carla took no roll."""
    pos = position("attack", anna={"Brasile": 4, "Perù": 2}, bruno={"Argentina": 2})
    game = Game.from_position(pos)
    game.push(Attack(parse_territory("Brasile"), parse_territory("Argentina"), (6, 5, 4),
                     (6, 1)))
    anna, bruno, carla = luck_of_game(game)
    mean = Fraction(7161, 7776)
    var = Fraction(2611 + 4 * 2275, 7776) - mean * mean
    assert (anna.rolls, anna.lost, bruno.rolls, bruno.lost) == (1, 1, 1, 1)
    assert anna.expected == pytest.approx(float(mean))
    assert bruno.expected == pytest.approx(float(2 - mean))
    assert anna.variance == pytest.approx(float(var)) == pytest.approx(0.657968, abs=1e-6)
    assert anna.z == pytest.approx(-0.09750, abs=1e-5)
    assert bruno.z == pytest.approx(0.09750, abs=1e-5)
    assert (carla.rolls, carla.z) == (0, 0.0)


def test_luck_of_a_game_is_the_luck_of_its_record() -> None:
    """A bot game read from its history and from its record (write_record, replayed with
    every check) gives the same dice, seat by seat."""
    game = play_bots(["heuristic"] * 4, 4, seed=5)
    from_game = luck_of_game(game)
    from_record = luck_of_record(write_record(game))
    assert [(r.player, r.rolls, r.lost) for r in from_game] == [
        (r.player, r.rolls, r.lost) for r in from_record]
    assert [r.expected for r in from_game] == pytest.approx([r.expected for r in from_record])
    # every roll is counted once for each side
    assert sum(r.rolls for r in from_game) == 2 * game.rolls > 0


def test_simulated_luck_same_for_one_and_two_workers() -> None:
    """Same seeds, same figures: one process, or two in batches of 1; by seat and by bot."""
    spec = SimSpec(("heuristic", "random", "random"), "club-milano@2", 4, True, 3, luck=True)
    one = run_games(spec, 4, workers=1)
    two = run_games(spec, 4, workers=2, batch=1)
    assert one == two
    a, b = simulated_luck(one), simulated_luck(two)
    for key in ("seats", "bots"):
        assert [r.to_dict() for r in a[key]] == [r.to_dict() for r in b[key]]
    assert sorted(r.player for r in a["seats"]) == ["1", "2", "3"]
    assert sorted(r.player for r in a["bots"]) == ["heuristic", "random"]
    # 4 games of 3 seats; the heuristic bot rotates: one seat a game
    assert sum(r.games for r in a["seats"]) == 12
    assert {r.player: r.games for r in a["bots"]} == {"heuristic": 4, "random": 8}
    assert sum(r.rolls for r in a["seats"]) == 2 * sum(f["rolls"] for f in one)


def test_simulated_luck_needs_games_played_with_luck() -> None:
    facts = run_games(SimSpec(("random",) * 3, last_rounds_at=3), 1, workers=1)
    assert facts[0]["luck"] is None
    with pytest.raises(ValueError, match="luck"):
        simulated_luck(facts)


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
