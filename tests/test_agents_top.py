"""Level 4, ``determinised`` (:mod:`risiko.agents.top`): registered as level 4,
its threat term counting the next reinforcements, and decisions argued by hand. Its
honesty (no decision changes when the hidden part is scrambled) is tested with every level in
``test_agents_levels.py``."""

from __future__ import annotations

import math
import random

from helpers import T, position
from risiko.actions import Attack
from risiko.agents.base import agent_by_name
from risiko.agents.levels import LEVELS, agent_for_level
from risiko.agents.search import LEVEL_EXPECTIMAX, SearchAgent
from risiko.agents.top import LEVEL_DETERMINISED, TopAgent
from risiko.game import Game
from risiko.view import SeatView

#: Anna (seat 0, objective 1: 23 territories, Siam among them) around the Indian ocean;
#: Bruno holds three territories with one army each; Carla every other, one army each
ANNA = {"Medio Oriente": 2, "India": 3, "Siam": 1, "Indonesia": 3, "Nuova Guinea": 1,
        "Australia Occidentale": 2, "Australia Orientale": 1}
BRUNO = {"Cina": 1, "Europa Meridionale": 1, "Afghanistan": 1}


def test_level_4_is_the_determinised_search() -> None:
    assert LEVELS[4] == "determinised"
    bot = agent_for_level(4, random.Random(0))
    assert isinstance(bot, TopAgent)
    assert bot.level == LEVEL_DETERMINISED
    assert isinstance(agent_by_name("determinised", random.Random(0)), TopAgent)
    # deeper and over more determinised games than expectimax (level 4 before it)
    assert LEVEL_DETERMINISED.depth > LEVEL_EXPECTIMAX.depth
    assert LEVEL_DETERMINISED.samples > LEVEL_EXPECTIMAX.samples


def test_threat_counts_the_next_reinforcements() -> None:
    """Siam (1 army, in Anna's objective: 4 points) borders one enemy territory, Bruno's
    Cina with 1 army. A stack of 1 cannot attack (R7), so level 4's threat on Siam is 0.
    Bruno holds 3 territories: 3 // 3 = 1 reinforcement (club-milano's minimum is 1, no
    whole continent), so next turn Cina may hold 2 armies: 2 against 1 is one die against
    one, the attacker wins with 15/36 = 5/12 and cannot roll again otherwise. The top level's
    threat on Siam is 4 x 5/12 = 5/3."""
    game = Game.from_position(position("attack", anna=ANNA, bruno=BRUNO))
    view = SeatView(game, 0)
    siam = T("Siam")
    top = TopAgent(rng=random.Random(1))
    world = top._setup(view)[0]
    assert math.isclose(top._threat_at(world, top._root(view, world), siam), 4 * 5 / 12)
    old = SearchAgent(LEVEL_EXPECTIMAX, random.Random(1))
    world = old._setup(view)[0]
    assert old._threat_at(world, old._root(view, world), siam) == 0.0
    # a territory of Bruno's is no threat to itself
    assert top._threat_at(world, top._root(view, world), T("Cina")) == 0.0


def test_takes_the_last_territory_of_its_objective() -> None:
    """Anna holds every territory of objective 1 but Siam, which Bruno holds with 1 army;
    India beside it has 10 armies. Taking Siam completes the objective (R1: RisiKo!, the
    game) with a chance of about 1, worth more than anything else: the top level attacks
    Siam from India (Indonesia has 1 army and cannot attack)."""
    objective = ["Alaska", "Territori del Nord Ovest", "Groenlandia", "Alberta", "Ontario",
                 "Quebec", "Stati Uniti Occidentali", "Stati Uniti Orientali",
                 "America Centrale", "Venezuela", "Perù", "Brasile", "Argentina",
                 "Africa del Nord", "Egitto", "Africa Orientale", "Congo", "Medio Oriente",
                 "India", "Indonesia", "Nuova Guinea", "Australia Occidentale"]
    anna = dict.fromkeys(objective, 2)
    anna.update({"India": 10, "Indonesia": 1})
    bruno = {"Siam": 1, "Cina": 3, "Afghanistan": 1}
    game = Game.from_position(position("attack", anna=anna, bruno=bruno))
    for seed in range(3):
        bot = agent_for_level(5, random.Random(seed))
        assert bot.act(SeatView(game, 0)) == Attack(T("India"), T("Siam"))
