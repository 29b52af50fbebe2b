"""Positions as commands: ``risiko legal``, ``risiko position``, ``risiko
play --position``, and golden "perft-like" counts worked out by hand from the regulation.

Board facts used below (``risiko board``): Medio Oriente borders Europa Meridionale, Ucraina,
Cina, Afghanistan, India; Siam borders Cina, India, Indonesia; Cina borders Urali, Siberia,
Mongolia, Afghanistan, Medio Oriente, India, Siam; India borders Cina, Medio Oriente, Siam;
Indonesia borders Siam, Nuova Guinea, Australia Occidentale; Nuova Guinea borders Indonesia,
Australia Occidentale, Australia Orientale; Australia Occidentale borders Indonesia, Nuova
Guinea, Australia Orientale. Symbols: Alaska, Alberta, Stati Uniti Occidentali are "fante".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers import ANNA, BRUNO, position
from risiko.actions import Amount, Attack, EndTurn, Fortify, Move, Place, Trade
from risiko.board import parse_territory
from risiko.cards import JOLLY_CARDS, parse_card
from risiko.cli.main import app
from risiko.faults import InvalidInputError
from risiko.game import Game
from risiko.position import legal_json

runner = CliRunner()
T = parse_territory

# ----------------------------------------------------------------- golden: the attack phase
# Anna's attacks (R8: the attacker rolls min(3, a-1) dice, the defender min(3, d); R7: not
# fewer than the defender; R8: her armies on ALL her territories bordering the target must
# outnumber the defender's, unless the attacking territory holds more than 10):
#   Medio Oriente (2: 1 die) -> Europa Meridionale (1: 1 die): bordering = ME 2 > 1   legal
#   Medio Oriente -> Ucraina (1: 1 die): bordering = ME 2 > 1                          legal
#   Medio Oriente -> Cina (7: 3 dice): 1 die < 3                                       R7
#   Medio Oriente -> Afghanistan (1: 1 die): bordering = ME 2 > 1                      legal
#   Medio Oriente -> India (2: 2 dice): 1 die < 2                                      R7
#   Siam (4: 3 dice) -> Cina (7: 3 dice): bordering = Siam 4 + ME 2 = 6, not > 7,
#                                         and Siam holds 4 <= 10                       R8
#   Siam -> India (2: 2 dice): bordering = Siam 4 + ME 2 = 6 > 2                        legal
# Oceania and Indonesia border no enemy. Strategic moves (one, to a bordering own territory,
# leaving at least 1 army): Siam -> Indonesia 1..3; Indonesia -> Siam, Nuova Guinea,
# Australia Occidentale 1..2; Australia Occidentale -> Indonesia, Nuova Guinea, Australia
# Orientale 1..1; Medio Oriente borders none of hers; the 1-army territories cannot move.
# Then "end". 4 attacks + 7 strategic moves + 1 end = 12 entries.
ATTACKS = [
    ("Medio Oriente", "Europa Meridionale", 1, 1),
    ("Medio Oriente", "Ucraina", 1, 1),
    ("Medio Oriente", "Afghanistan", 1, 1),
    ("Siam", "India", 3, 2),
]
FORTIFIES = [
    ("Siam", "Indonesia", 3),
    ("Indonesia", "Siam", 2),
    ("Indonesia", "Nuova Guinea", 2),
    ("Indonesia", "Australia Occidentale", 2),
    ("Australia Occidentale", "Indonesia", 1),
    ("Australia Occidentale", "Nuova Guinea", 1),
    ("Australia Occidentale", "Australia Orientale", 1),
]


def test_attack_phase_lists_exactly_the_attacks_worked_out_by_hand() -> None:
    game = Game.from_position(position("attack"))
    legal = list(game.legal_actions())
    expected = [
        *(Attack(T(a), T(b)) for a, b, _, _ in ATTACKS),
        *(Amount(Fortify(T(a), T(b), most), 1, most) for a, b, most in FORTIFIES),
        EndTurn(),
    ]
    assert len(legal) == 12
    assert legal == expected


def test_legal_json_gives_the_dice_and_explains_every_forbidden_attack() -> None:
    report = legal_json(Game.from_position(position("attack")), explain=True)
    assert report["to_act"] == "Anna" and report["phase"] == "attack" and report["count"] == 12
    assert report["attacks"] == [
        {"from": a, "to": b, "attacker_dice": i, "defender_dice": j} for a, b, i, j in ATTACKS
    ]
    assert report["actions"][4] == {"kind": "fortify", "from": "Siam", "to": "Indonesia",
                                    "min": 1, "max": 3}
    assert report["actions"][-1] == {"kind": "end"}
    forbidden = {(f["from"], f["to"]): f for f in report["forbidden_attacks"]}
    assert set(forbidden) == {("Medio Oriente", "Cina"), ("Medio Oriente", "India"),
                              ("Siam", "Cina")}
    r8 = forbidden[("Siam", "Cina")]
    assert (r8["clause"], r8["armies"], r8["defender"], r8["bordering"]) == ("R8", 4, 7, 6)
    assert (r8["attacker_dice"], r8["defender_dice"]) == (3, 3)
    r7 = forbidden[("Medio Oriente", "India")]
    assert (r7["clause"], r7["attacker_dice"], r7["defender_dice"]) == ("R7", 1, 2)
    assert forbidden[("Medio Oriente", "Cina")]["clause"] == "R7"


def test_more_than_10_armies_waive_r8() -> None:
    # Siam 11 (3 dice) -> Cina 14 (3 dice): bordering 11 + ME 2 = 13, not > 14, but Siam
    # holds more than 10: R8 is waived, the attack is legal.
    anna = {**ANNA, "Siam": 11}
    game = Game.from_position(position("attack", anna, {**BRUNO, "Cina": 14}))
    assert Attack(T("Siam"), T("Cina")) in game.legal_actions()
    # 10 on Siam: 10 + 2 = 12, not > 14, and 10 is not more than 10: R8
    game = Game.from_position(position("attack", {**ANNA, "Siam": 10},
                                       {**BRUNO, "Cina": 14}))
    assert Attack(T("Siam"), T("Cina")) not in game.legal_actions()


def test_a_penalised_turn_may_only_end_and_every_attack_is_r3() -> None:
    # R3: a late seat's first three turns: no reinforcements, no moves, no attacks.
    game = Game.from_position(position("attack", penalised=True))
    assert list(game.legal_actions()) == [EndTurn()]
    report = legal_json(game, explain=True)
    # every pair from an own territory to a bordering enemy one: ME x5, Siam x2
    assert len(report["forbidden_attacks"]) == 7
    assert {f["clause"] for f in report["forbidden_attacks"]} == {"R3"}


# -------------------------------------------------------------- golden: reinforce and move
def test_reinforce_phase_lists_the_sets_then_one_range_per_territory() -> None:
    # Anna holds 6 territories and all of Oceania: floor(6/3) = 2, + 2 (Oceania) = 4 armies.
    # Hand Alaska, Alberta, Stati Uniti Occidentali (three fanti) and a jolly: the sets are
    # the three fanti, and the jolly with any two of them: 4 sets (R9 keeps the standard
    # sets). Then a place of 1..4 on each of her 6 territories: 10 entries.
    pos = position("reinforce")
    pos["seats"][0]["cards"] = ["Alaska", "Alberta", "Stati Uniti Occidentali", "jolly"]
    game = Game.from_position(pos)
    assert game.pending == 4
    legal = list(game.legal_actions())
    al, ab, su, j = (parse_card(c) for c in ("Alaska", "Alberta", "Stati Uniti Occidentali",
                                             "jolly"))
    assert j == JOLLY_CARDS[0]
    expected_sets = [(al, ab, su), (al, ab, j), (al, su, j), (ab, su, j)]
    own = sorted(T(t) for t in ANNA)
    assert legal == [*(Trade(s) for s in expected_sets),
                     *(Amount(Place(t, 4), 1, 4) for t in own)]
    # R9: 4 cards in hand: a set is worth 10; none of the cards shows her territory
    report = legal_json(game)
    assert report["actions"][0] == {"kind": "trade", "cards": [
        "Alaska", "Alberta", "Stati Uniti Occidentali"]}
    assert game.push(Trade(expected_sets[0])).value == 10


def test_move_phase_is_one_range_from_the_dice_to_all_but_one() -> None:
    # Anna conquered India from Siam with 3 dice: 3 armies moved in, Siam holds 4 more; she
    # may move 3 (the dice) up to 3 + 4 - 1 = 6.
    anna = {**ANNA, "India": 3}
    pos = position("move", anna, move={"from": "Siam", "to": "India", "min": 3})
    pos["conquests"] = 1
    game = Game.from_position(pos)
    assert list(game.legal_actions()) == [Amount(Move(6), 3, 6)]
    assert legal_json(game)["actions"] == [{"kind": "move", "min": 3, "max": 6}]


# ------------------------------------------------------------------------------ commands
def _run(args: list[str], code: int = 0) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == code, res.output
    return res.output


def test_risiko_legal_json_and_explain(tmp_path: Path) -> None:
    file = tmp_path / "pos.json"
    file.write_text(json.dumps(position("attack"), ensure_ascii=False), encoding="utf-8")
    report = json.loads(_run(["legal", str(file), "--json"]))
    assert report["count"] == 12 and "forbidden_attacks" not in report
    assert [(a["from"], a["to"]) for a in report["attacks"]] == [(a, b) for a, b, _, _ in
                                                                 ATTACKS]
    explained = json.loads(_run(["legal", str(file), "--json", "--explain"]))
    assert len(explained["forbidden_attacks"]) == 3
    text = _run(["--lang", "en", "legal", str(file), "--explain"])
    assert "Anna to act: attack (round 3), 12 legal entries" in text
    assert "R8: 6 armies bordering Cina do not outnumber its 7" in " ".join(text.split())


def test_risiko_legal_refuses_a_bad_position_naming_every_fault(tmp_path: Path) -> None:
    bad = position("attack", to_act="Zeno")
    bad["phase"] = "lunch"
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(bad), encoding="utf-8")
    res = runner.invoke(app, ["legal", str(file), "--json"])
    assert res.exit_code == 1
    codes = {f["code"] for f in json.loads(res.stdout)["faults"]}
    assert codes == {"position.bad_phase", "position.no_to_act"}
    res = runner.invoke(app, ["--lang", "it", "legal", str(file)])
    assert res.exit_code == 1
    with pytest.raises(InvalidInputError):
        Game.from_position(bad)
    assert _run(["legal", str(tmp_path / "none.json")], code=2)


def test_risiko_position_then_legal_and_play_on(tmp_path: Path) -> None:
    rec = tmp_path / "game.txt"
    _run(["play", "--seats", "4", "--seed", "5", "--bots", "random", "--record", str(rec)])
    # the position after 10 actions is the replay of the first 10 actions
    pos = json.loads(_run(["position", str(rec), "--ply", "10", "--json"]))
    from risiko.record import replay

    game = replay(rec.read_text(encoding="utf-8"), ply=10)
    assert len(game.history) == 10 and pos == game.position()
    assert Game.from_position(pos).state == game.state
    file = tmp_path / "pos.json"
    file.write_text(json.dumps(pos, ensure_ascii=False), encoding="utf-8")
    report = json.loads(_run(["legal", str(file), "--json"]))
    assert report["count"] == len(game.legal_actions())
    assert report["to_act"] == game.players[game.seat]
    # play on from it: the record starts with the position and replays to the same result
    out = tmp_path / "on.txt"
    played = json.loads(_run(["play", "--position", str(file), "--seed", "2", "--bots",
                              "random", "--record", str(out), "--json"]))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert next(x for x in lines if x.startswith(("position ", "deal "))).startswith(
        "position {")
    replayed = json.loads(_run(["replay", str(out), "--json"]))
    assert replayed["scores"] == played["scores"]
    # beyond the end of the record: a clear refusal
    assert "no position after action 99999" in " ".join(
        runner.invoke(app, ["position", str(rec), "--ply", "99999"]).output.split())
    _run(["play", "--position", str(file), "--seats", "4"], code=2)


def test_a_bad_deck_and_bad_json_are_said_in_italian(tmp_path: Path) -> None:
    """Lines inside Italian output were English: "deck: 'deck' is a list of names" and
    Python's json words; now each is a fault (JSON by its line and column)."""
    bad = position("attack")
    bad["deck"] = "Alaska"
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(bad), encoding="utf-8")
    res = runner.invoke(app, ["--lang", "it", "legal", str(file)])
    assert res.exit_code == 1
    assert "mazzo: 'deck' è un elenco di nomi" in res.stderr.splitlines()
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "phase": \n}', encoding="utf-8")
    res = runner.invoke(app, ["--lang", "it", "legal", str(broken)])
    assert res.stderr.splitlines() == ["JSON non valido (riga 3, colonna 1)"]


# ------------------------------------------------------------------ the ruleset's version
def test_a_position_writes_the_ruleset_with_its_version() -> None:
    """Issue 16: position_of writes ``name@version``; a position of club-milano@2 comes back
    as @2 (it came back as @1); a bare name in a position written before keeps meaning @1."""
    from risiko.ruleset import CLUB_MILANO, CLUB_MILANO_2

    game = Game.new(["Anna", "Bruno", "Carla"], CLUB_MILANO_2, seed=4)
    data = game.position()
    assert data["ruleset"] == "club-milano@2"
    assert Game.from_position(data).ruleset is CLUB_MILANO_2
    assert Game.from_position(data).state == game.state
    assert game.sheet()["ruleset"] == "club-milano@2"
    old = {**data, "ruleset": "club-milano"}  # a file written before: the bare name is @1
    assert Game.from_position(old).ruleset is CLUB_MILANO
    assert Game.new(["Anna", "Bruno", "Carla"], seed=4).position()["ruleset"] == "club-milano@1"


def test_a_bare_name_typed_for_something_new_is_the_newest_version(tmp_path: Path) -> None:
    """``risiko play --ruleset club-milano`` (a new game) plays club-milano@2, the newest;
    ``club-milano@1`` typed stays @1; a record written with the bare name reads back @1."""
    from risiko.record import replay

    record = tmp_path / "game.txt"
    for typed, label in (("club-milano", "club-milano@2"), ("club-milano@1", "club-milano@1"),
                         (None, "club-milano@2")):
        args = ["play", "--seats", "3", "--seed", "2", "--json", "--record", str(record)]
        res = runner.invoke(app, args + ([] if typed is None else ["--ruleset", typed]))
        assert res.exit_code == 0, res.output
        out = json.loads(res.output)
        assert out["ruleset"] == out["final_sheet"]["ruleset"] == label
        assert f'[Ruleset "{label}"]' in record.read_text()
    old = record.read_text().replace('[Ruleset "club-milano@2"]', '[Ruleset "club-milano"]')
    assert replay(old).ruleset.label == "club-milano@1"


def test_every_position_of_a_game_round_trips_equal() -> None:
    """position_of's promise (issue 16: after a conquest move ``move_from``, ``move_to`` and
    ``move_min`` stayed set in the attack phase, so the round trip differed): at every
    action of a game played by heuristic bots, the position read back is the same state,
    forfeits aside (a position does not carry them)."""
    import random

    from risiko.agents.base import agent_by_name
    from risiko.view import SeatView

    game = Game.new(["Anna", "Bruno", "Carla", "Dario"], seed=11, last_rounds_at=4)
    agents = [agent_by_name("heuristic", random.Random(s)) for s in range(4)]
    moves = 0
    while not game.over:
        seat = game.to_act
        assert seat is not None
        action = game.push(agents[seat].act(SeatView(game, seat)))
        moves += isinstance(action, Move)
        again = Game.from_position(game.position()).state
        again.forfeited = game.state.forfeited
        assert again == game.state, (len(game.history), action)
    assert moves > 0  # conquest moves were made and read back


def test_a_position_beyond_the_bounds_is_refused_before_any_work(tmp_path: Path) -> None:
    """Issue 16: a 600 KB position with 200,000 cards took seconds of CPU and answered 50 MB
    (a fault per card given twice). A table has at most 6 seats, 42 territories and 44
    cards: a longer list is refused at once, with one fault naming it (CLI and the web's
    attack check); an army count above 10,000 on a territory, a round above 1,000 too."""
    from risiko.web.tools.calc import position_attacks

    huge = position("attack")
    huge["seats"][0]["cards"] = ["Cina"] * 200_000
    huge["deck"] = ["jolly"] * 200_000
    file = tmp_path / "huge.json"
    file.write_text(json.dumps(huge), encoding="utf-8")
    res = runner.invoke(app, ["legal", str(file), "--json"])
    assert res.exit_code == 1 and len(res.stdout) < 2000
    faults = json.loads(res.stdout)["faults"]
    assert [(f["code"], f["params"]["most"], f["params"]["given"]) for f in faults] == [
        ("position.too_many", 44, 200_000), ("position.too_many", 44, 200_000)]
    with pytest.raises(InvalidInputError) as err:
        position_attacks(huge)
    assert [f.code for f in err.value.faults] == ["position.too_many"] * 2
    for bad, code in [({"seats": [huge["seats"][0]] * 7}, "position.too_many"),
                      ({"round": 1_001}, "position.too_large"),
                      ({"closing": {"widened": 10**6}}, "position.too_large"),
                      ({"reinforcements": 10_001}, "position.too_large")]:
        with pytest.raises(InvalidInputError) as err:
            Game.from_position({**position("attack"), **bad})
        assert [f.code for f in err.value.faults] == [code], bad
    armies = position("attack")
    armies["seats"][0]["armies"] = {**armies["seats"][0]["armies"], "Siam": 10_001}
    with pytest.raises(InvalidInputError) as err:
        Game.from_position(armies)
    assert [f.code for f in err.value.faults] == ["position.too_large"]
    # at the bounds, a position is read: round 1,000, 10,000 armies on Siam
    armies["seats"][0]["armies"]["Siam"] = 10_000
    assert Game.from_position({**armies, "round": 1_000}).armies[parse_territory("Siam")] \
        == 10_000
