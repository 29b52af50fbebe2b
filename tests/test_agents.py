"""The bots: they play only legal actions through a seat's view, the heuristic bot beats the
random bot, and the view keeps other seats' secrets."""

from __future__ import annotations

import random
import statistics

import pytest

from helpers import ATTACK, T, arrange, finish_setup, new_game, pass_turn, set_turn
from risiko.actions import Action, EndTurn, Place
from risiko.agents import Agent, HeuristicAgent, RandomAgent, agent_by_name
from risiko.match import AgentError, make_agents, play_bots, play_game
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU, Ruleset
from risiko.view import SeatView


def heuristic_at(pos: int, seats: int) -> list[str]:
    return ["random"] * pos + ["heuristic"] + ["random"] * (seats - pos - 1)


@pytest.mark.parametrize(("seats", "ruleset"), [(5, CLUB_MILANO), (4, CLUB_MILANO),
                                                (4, CLASSIC)])
def test_heuristic_beats_random(seats: int, ruleset: Ruleset) -> None:
    heuristic: list[int] = []
    others: list[int] = []
    wins = 0
    games = 40
    for seed in range(games):
        pos = seed % seats  # every seat position in turn
        game = play_bots(heuristic_at(pos, seats), seats, ruleset=ruleset, seed=seed)
        scores = [s.score for s in game.scores()]
        heuristic.append(scores[pos])
        others.extend(x for i, x in enumerate(scores) if i != pos)
        assert game.outcome is not None
        wins += game.outcome.winner == game.players[pos]
    assert statistics.mean(heuristic) > 2 * statistics.mean(others)
    assert wins > games // 2


@pytest.mark.parametrize("ruleset", [CLUB_MILANO, CLASSIC, RTU])
@pytest.mark.parametrize("bots", [["heuristic"], ["random"], ["random", "heuristic"]])
def test_bots_play_only_legal_actions(ruleset: Ruleset, bots: list[str]) -> None:
    for seed in range(12):
        game = play_bots(bots, 3 + seed % 4, ruleset=ruleset, seed=seed,
                         late=[seed % 3] if seed % 2 else [])
        assert game.over
        game.check_invariants()


@pytest.mark.parametrize("ruleset", [CLUB_MILANO, CLASSIC, RTU])
def test_the_random_bot_passes_the_checked_door(ruleset: Ruleset) -> None:
    """The random bot's actions go through the unchecked door: played again through the
    checked one, every action is accepted and the game is the same."""
    for seed in range(10):
        args = dict(ruleset=ruleset, seed=seed, late=[seed % 3] if seed % 2 else [],
                    last_rounds_at=2 + seed % 5)
        fast = play_bots(["random"], 3 + seed % 4, **args)  # type: ignore[arg-type]
        slow = play_bots(["random"], 3 + seed % 4, checked=True, **args)  # type: ignore[arg-type]
        assert fast.history == slow.history and fast.outcome == slow.outcome
        fast.check_invariants()


def test_the_random_bot_places_in_one_step() -> None:
    """Initial placement: the whole step on one of its territories; reinforcements: all of
    them at once (the rules let a seat place them in any steps)."""
    game = new_game(5)
    bot = RandomAgent(random.Random(4))
    while game.phase == "setup":
        action = bot.act(SeatView(game, game.seat))
        assert isinstance(action, Place)
        assert game.owner[action.territory] == game.seat
        assert action.armies == game.step_left == min(3, game.state.setup_left[game.seat])
        game.push(action)
    # seat 0 holds territories 0, 5, 10, ..., 40 (the deal in board order): 9 territories,
    # 3 armies; no continent
    assert game.phase == "reinforce" and game.seat == 0 and game.pending == 3
    action = bot.act(SeatView(game, 0))
    assert isinstance(action, Place) and action.armies == 3
    assert game.owner[action.territory] == 0


def test_same_seed_same_game() -> None:
    a = play_bots(["heuristic", "random"], 5, seed=123)
    b = play_bots(["heuristic", "random"], 5, seed=123)
    assert a.history == b.history and a.outcome == b.outcome


def test_agents_by_name() -> None:
    rng = random.Random(1)
    assert isinstance(agent_by_name("random", rng), RandomAgent)
    assert isinstance(agent_by_name(" Heuristic ", rng), HeuristicAgent)
    with pytest.raises(ValueError, match="random"):
        agent_by_name("alphago", rng)
    with pytest.raises(ValueError):
        make_agents([], 3, rng)
    agents = make_agents(["heuristic", "random"], 4, rng)
    assert [a.name for a in agents] == ["heuristic", "random", "random", "random"]


class _Stubborn:
    name = "stubborn"

    def act(self, view: SeatView) -> Action:
        return EndTurn()  # illegal during the initial placement


def test_a_bot_making_an_illegal_action_is_reported() -> None:
    agents: list[Agent] = [
        _Stubborn(), RandomAgent(random.Random(1)), RandomAgent(random.Random(2))
    ]
    with pytest.raises(AgentError, match="stubborn"):
        play_game(agents, seed=1)


def test_heuristic_ends_a_penalised_turn() -> None:
    game = new_game(5, late=[1])
    finish_setup(game)
    pass_turn(game)
    assert game.seat == 1 and game.penalised_turn
    action = HeuristicAgent(random.Random(0)).act(SeatView(game, 1))
    assert action == EndTurn()


def test_heuristic_takes_a_sure_conquest_of_its_objective() -> None:
    # objective 13 (Nord America + Asia): seat 0 holds all of it but Giappone (1 army),
    # with 20 armies on Kamchatka next to it
    game = new_game(5, objectives=[13, 1, 2, 3, 4])
    finish_setup(game)
    spec: dict[str | int, tuple[int, int]] = {t: (0, 1) for t in range(0, 9)}
    spec.update({t: (0, 1) for t in range(26, 38)})
    spec["Kamchatka"] = (0, 20)
    spec.update({"Giappone": (1, 1), "Venezuela": (1, 1), "Islanda": (2, 1),
                 "Congo": (3, 1)})
    arrange(game, spec, rest=4)
    set_turn(game, 0)
    assert game.phase == ATTACK
    action = HeuristicAgent(random.Random(0)).act(SeatView(game, 0))
    assert action.__class__.__name__ == "Attack"
    assert (action.source, action.target) == (T("Kamchatka"), T("Giappone"))  # type: ignore[union-attr]


# ------------------------------------------------------------------------ the seat's view


def test_view_keeps_other_seats_secrets() -> None:
    game = play_bots(["random"], 4, seed=3, last_rounds_at=3)
    assert any(game.hands)
    for s in range(4):
        view = SeatView(game, s)
        assert view.hand == tuple(game.hands[s])
        assert view.objective is game.objectives[s]
        assert view.card_counts == [len(h) for h in game.hands]
        data = view.to_dict()
        # the JSON view holds this seat's objective and cards, and only counts for the rest
        assert set(data) == {"seat", "player", "phase", "round", "to_act", "objective",
                             "hand", "card_counts", "territories", "mine"}
        assert data["seat"] == s + 1
        assert data["hand"] == list(game.hands[s])
        assert data["objective"]["number"] == game.objectives[s].number
        assert len(data["territories"]) == 42
        assert not hasattr(view, "hands") and not hasattr(view, "objectives")


def test_view_of_a_seat_not_to_act() -> None:
    game = new_game(5)
    finish_setup(game)
    view = SeatView(game, 2)
    assert view.legal_attacks() == []
    assert not view.penalised_turn
    assert view.conquests == 0
    with pytest.raises(ValueError):
        SeatView(game, 5)
