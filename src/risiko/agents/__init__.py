"""Bots that play through the public API and a per-seat view only.

``random``: picks uniformly among legal actions. ``heuristic``: plays for its objective with
the exact odds, trades sets when they are worth most (R9) and watches the closing dice (R2).
``greedy``, ``expectimax`` (levels 3-4, :mod:`.search`): search their own turn over the
exact odds with a hand-built evaluation, level 4 on games whose hidden part is sampled from
what its seat sees (:meth:`risiko.view.SeatView.determinise`). ``determinised`` (level 5,
:mod:`.rollout`): the heuristic's choices checked by playing the game on, heuristic bots at
every seat, in such sampled games (policy improvement by rollouts). :mod:`.top`'s
``TopAgent`` is the former level 5 (the heuristic's choices checked by the search).
The levels: :data:`.levels.LEVELS`.
"""

from __future__ import annotations

from .base import AGENTS, Agent, agent_by_name
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .rollout import RolloutAgent
from .search import SearchAgent
from .top import TopAgent

__all__ = ["AGENTS", "Agent", "HeuristicAgent", "RandomAgent", "RolloutAgent", "SearchAgent",
           "TopAgent", "agent_by_name"]
