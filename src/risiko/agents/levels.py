"""Bots by level: 1 = ``random``, 2 = ``heuristic``, 3 to 5 search: 3 = ``greedy``
(:mod:`.search`, one attack deep), 4 = ``determinised`` (:mod:`.top`: the heuristic's
choices checked by a search over determinised games), 5 = ``rollout`` (:mod:`.rollout`:
level 4's choices checked by playing the game on in determinised games). ``expectimax``
(:mod:`.search`, level 4 until level 4 v 3 was measured: docs/benchmarks.md) is a bot of no
level; each level wins more than its fair share against three bots of the level below.

The levels are one table, :data:`LEVELS`, from level (1 = weakest) to the registered bot's
name; the lobby, the referee's stand-ins, ``risiko ladder`` and the benchmarks read it, so a
new level is one line here and one registered agent.

>>> LEVELS[1], LEVELS[2]
('random', 'heuristic')
>>> [LEVELS[k] for k in (3, 4, 5)]
['greedy', 'determinised', 'rollout']
>>> level_of("Determinised"), level_of("rollout")
(4, 5)
>>> level_of("expectimax") is None
True
>>> level_of("heuristic")
2
>>> level_of("nobody") is None
True
"""

from __future__ import annotations

import random

from .base import Agent, agent_by_name

#: level (1 = weakest) -> the name the bot is registered under (:data:`base.AGENTS`)
LEVELS: dict[int, str] = {
    1: "random", 2: "heuristic", 3: "greedy", 4: "determinised", 5: "rollout",
}


def level_of(name: str) -> int | None:
    """The level of the bot registered as ``name``, or ``None`` for a bot with no level."""
    key = name.strip().lower()
    for level, bot in LEVELS.items():
        if bot == key:
            return level
    return None


def agent_for_level(level: int, rng: random.Random) -> Agent:
    """A new bot of ``level`` (1 to ``max(LEVELS)``); ``InvalidInputError``
    (``game.unknown_bot``) for a level with no bot."""
    return agent_by_name(LEVELS.get(level, f"level {level}"), rng)
