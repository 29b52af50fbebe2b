"""The ``rollout`` bot (:mod:`risiko.agents.rollout`, level 5): the heuristic's game when
no candidate may win, the budget counted in rollouts, the same game for the same seed, the
candidates, and honesty (no decision changes when the hidden part is scrambled; every level's bot is
also checked in ``test_agents_levels.py``)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from helpers import T, position
from risiko.actions import Action, Attack, EndTurn, Fortify
from risiko.agents.base import agent_by_name
from risiko.agents.heuristic import HeuristicAgent
from risiko.agents.levels import LEVELS, agent_for_level
from risiko.agents.rollout import LEVEL_ROLLOUT, RolloutAgent, RolloutLevel
from risiko.game import Game
from risiko.match import make_agents, play_game
from risiko.view import SeatView
from test_agents_levels import _decision_points, _scrambled

#: a small budget for the tests: 3 worlds, played on to the seat's next turn
SMALL = RolloutLevel("rollout", worlds=3, rounds=0, rollouts=12)


class _Counted:
    """A bot whose rollouts are counted decision by decision."""

    def __init__(self, bot: RolloutAgent) -> None:
        self.bot = bot
        self.name = bot.name
        self.per_decision: list[int] = []

    def act(self, view: SeatView) -> Action:
        before = self.bot.rollouts
        action = self.bot.act(view)
        self.per_decision.append(self.bot.rollouts - before)
        return action


def test_the_rollout_bot_is_level_5() -> None:
    bot = agent_by_name("rollout", random.Random(0))
    assert isinstance(bot, RolloutAgent)
    assert bot.level == LEVEL_ROLLOUT and bot.name == "rollout"
    assert LEVELS[5] == "rollout" and isinstance(agent_for_level(5, random.Random(0)),
                                                 RolloutAgent)
    # it starts from level 4's choice (its search), the heuristic's another candidate
    assert LEVEL_ROLLOUT.searched and bot._search is not None


def test_an_infinite_margin_plays_the_heuristics_game() -> None:
    """The heuristic's choice is left only for a candidate better by ``margin`` points on
    average: with an infinite margin the bot never leaves it, so its game is move for move
    the heuristic bot's (the rollouts draw from the bot's own rng, not the table's)."""
    stubborn = replace(SMALL, margin=math.inf)
    for seed in (2, 7):
        rng = random.Random(seed)
        alone = play_game([HeuristicAgent(rng), *make_agents(["heuristic"], 3, rng)],
                          seed=seed, last_rounds_at=3)
        rng = random.Random(seed)
        bot = RolloutAgent(stubborn, rng)
        led = play_game([bot, *make_agents(["heuristic"], 3, rng)], seed=seed,
                        last_rounds_at=3)
        assert led.history == alone.history
        assert bot.rollouts > 0  # it did check its choices


def test_the_budget_is_counted_in_rollouts() -> None:
    """No decision plays more than ``rollouts`` rollouts: candidates x worlds, the
    candidates cut to ``rollouts // worlds`` (12 // 3 = 4: the heuristic's and 3 more)."""
    level = replace(SMALL, attacks=5, placements=5)
    counted = _Counted(RolloutAgent(level, random.Random(3)))
    rng = random.Random(3)
    game = play_game([*make_agents(["heuristic"], 2, rng), counted,
                      *make_agents(["heuristic"], 1, rng)], seed=3, last_rounds_at=3,
                     checked=True)
    assert game.over
    assert max(counted.per_decision) == 12  # 4 candidates in 3 worlds, somewhere
    assert all(n % 3 == 0 and n <= 12 for n in counted.per_decision)
    assert sum(counted.per_decision) == counted.bot.rollouts


def test_same_seed_same_game() -> None:
    games = []
    for _ in range(2):
        rng = random.Random(11)
        games.append(play_game([RolloutAgent(SMALL, rng), *make_agents(["heuristic"], 3, rng)],
                               seed=11, last_rounds_at=3))
    assert games[0].history == games[1].history


def test_the_candidates_besides_the_heuristics_attack() -> None:
    """Anna (Medio Oriente 2, India 3, Indonesia 3 ...) beside Bruno's three territories of
    one army. The heuristic attacks; stopping is always a candidate then (the strategic
    move or the end of the turn). With ``least_p`` above 1 no other attack qualifies; with
    0 every other legal attack does, best first, cut at ``attacks``."""
    anna = {"Medio Oriente": 2, "India": 3, "Siam": 1, "Indonesia": 3, "Nuova Guinea": 1,
            "Australia Occidentale": 2, "Australia Orientale": 1}
    bruno = {"Cina": 1, "Europa Meridionale": 1, "Afghanistan": 1}
    game = Game.from_position(position("attack", anna=anna, bruno=bruno))
    view = SeatView(game, 0)
    hint = HeuristicAgent()._attack(view)
    assert isinstance(hint, Attack)
    none = RolloutAgent(replace(SMALL, least_p=1.01))._attack_candidates(view, hint)
    assert len(none) == 1 and isinstance(none[0], (EndTurn, Fortify))
    every = RolloutAgent(replace(SMALL, least_p=0.0, attacks=99))._attack_candidates(view, hint)
    legal = view.legal_attacks()
    attacks = [(a.source, a.target) for a in every if isinstance(a, Attack)]
    assert sorted(attacks) == sorted(x for x in legal if x != (hint.source, hint.target))
    two = RolloutAgent(replace(SMALL, least_p=0.0, attacks=2))._attack_candidates(view, hint)
    assert two == every[:3]
    # India (3) on Cina (1) is legal: 2 dice against 1
    assert (T("India"), T("Cina")) in legal


def test_no_decision_reads_the_hidden_part() -> None:
    """Honesty: the same decisions on the game and on copies whose hidden part (other seats'
    objectives and hands, the deck, the table's seed) is drawn anew."""
    points = _decision_points(4)
    scrambler = random.Random(4)
    for game in points[:8]:
        decided = [RolloutAgent(SMALL, random.Random(5)).act(SeatView(g, 0))
                   for g in (game, _scrambled(game, 0, scrambler),
                             _scrambled(game, 0, scrambler))]
        assert decided[0] == decided[1] == decided[2], game.phase
