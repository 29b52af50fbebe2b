"""Online tables' snapshots: a position plus its chance, as JSON.

A snapshot taken at any moment of a game and read back is the same game: the same state
(forfeits per clause included), the same closing rolls, and - under the same chance - the
same future: every die drawn after it is the die the uninterrupted game draws.
"""

from __future__ import annotations

import json
import random

import pytest

from risiko.agents.base import agent_by_name
from risiko.game import Game
from risiko.online import adapter
from risiko.state import R11
from risiko.view import SeatView

SEED = bytes(range(32))
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def play(game: Game, steps: int, rng: random.Random) -> list[str]:
    """``steps`` heuristic actions (fewer if the game ends); their record lines."""
    agents = [agent_by_name("heuristic", random.Random(rng.random())) for _ in game.players]
    lines = []
    for _ in range(steps):
        seat = game.to_act
        if seat is None:
            break
        recorded = game.push(agents[seat].act(SeatView(game, seat)))
        lines.append(adapter.line_of(seat, recorded))
    return lines


def same_state(a: Game, b: Game) -> bool:
    """Equal states, every field (the conquest's move fields are cleared once the armies
    are moved in, issue 16, so a position round trip is equal)."""
    return a.state == b.state


def test_a_snapshot_is_json_without_code_and_names_its_next_draw() -> None:
    game = adapter.new_game(PLAYERS, "club-milano", SEED, last_rounds_at=2)
    play(game, 150, random.Random(1))
    data = adapter.snapshot(game)
    raw = json.loads(data.decode())
    assert raw["format"] == "position-v1" == adapter.SNAPSHOT_FORMAT
    assert set(raw) == {"format", "position", "draws", "forfeited", "closing_rolls", "rolls"}
    # deal, objectives and deck are draws 0, 1, 2; every die after that is one draw
    dice = sum(len(a.attacker_dice or ()) + len(a.defender_dice or ())
               for a in game.history if hasattr(a, "attacker_dice"))
    dice += sum(len(getattr(a, "closing", None) or ()) for a in game.history)
    assert raw["draws"] == 3 + dice == adapter.draws(game)
    assert raw["position"] == game.position()
    assert b"\\x80" not in data and not data.startswith(b"\x80")  # not a pickle


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_every_snapshot_restores_the_same_game_and_the_same_future(seats: int) -> None:
    """At every 7th action of a whole game (to its end, closing dice included): snapshot,
    restore, then both games go on with the same bots; every die and every state agree."""
    players = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"][:seats]
    game = adapter.new_game(players, "club-milano", SEED, last_rounds_at=3)
    rng = random.Random(seats)
    restored_once = 0
    while not game.over:
        play(game, 7, rng)
        again = adapter.restore(adapter.snapshot(game), SEED, "club-milano")
        assert same_state(again, game)
        assert again.closing_rolls == game.closing_rolls
        assert adapter.draws(again) == adapter.draws(game)
        assert adapter.public_view(again) == adapter.public_view(game)
        for s in range(seats):
            assert adapter.private_view(again, s) == adapter.private_view(game, s)
        # the same future: a copy of the uninterrupted game with its own chance at the same
        # draw, and the restored game, play the same bots for 30 actions
        control = game.copy(chance=type(game.chance)(SEED, adapter.draws(game)))
        seed = rng.random()
        assert play(again, 30, random.Random(seed)) == play(control, 30, random.Random(seed))
        assert same_state(again, control)
        restored_once += 1
    assert game.closing_rolls, "the game reached the closing dice"
    assert restored_once > 10


def test_forfeits_per_clause_survive_a_snapshot() -> None:
    game = adapter.new_game(PLAYERS, "club-milano", SEED)
    play(game, 200, random.Random(3))
    game.state.forfeited[1][R11] = 7  # as a timed-out turn leaves it (R11)
    again = adapter.restore(adapter.snapshot(game), SEED, "club-milano")
    assert again.forfeits(1)["R11"] == 7
    assert same_state(again, game)


def test_a_snapshot_this_engine_cannot_read_is_a_value_error() -> None:
    game = adapter.new_game(PLAYERS, "club-milano", SEED)
    raw = json.loads(adapter.snapshot(game))
    for broken in (
        {**raw, "format": "pickle-0123"},
        {**raw, "position": {**raw["position"], "phase": "levitate"}},
        {**raw, "forfeited": {"Anna": {"R99": 1}}},
        {k: v for k, v in raw.items() if k != "draws"},
    ):
        with pytest.raises(ValueError):
            adapter.restore(json.dumps(broken).encode(), SEED, "club-milano")
    with pytest.raises(ValueError):
        adapter.restore(b"\x80\x05not json", SEED, "club-milano")


def test_snapshots_written_before_the_closing_anchor() -> None:
    """A snapshot of a running table written before positions kept ``closing.anchor`` (R2):
    before the closing rounds it restores the same game; in them it is a ValueError, and the
    table is rebuilt from its events (services._rebuild), which know the anchor."""
    seed = bytes([2] * 32)  # a table whose game goes on into round 5 (closing round 2)
    game = adapter.new_game(PLAYERS, "club-milano", seed, last_rounds_at=3)
    rng = random.Random(5)
    play(game, 30, rng)
    assert game.last_round is None or game.round <= game.last_round
    raw = json.loads(adapter.snapshot(game))
    del raw["position"]["closing"]["anchor"]
    again = adapter.restore(json.dumps(raw).encode(), seed, "club-milano")
    assert same_state(again, game) and again.state.closing_anchor == -1
    while not game.over and (game.last_round is None or game.round <= game.last_round):
        play(game, 1, rng)
    assert not game.over and game.state.closing_anchor == 3
    raw = json.loads(adapter.snapshot(game))
    del raw["position"]["closing"]["anchor"]
    with pytest.raises(ValueError):
        adapter.restore(json.dumps(raw).encode(), seed, "club-milano")
