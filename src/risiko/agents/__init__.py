"""Bots that play through the public API and a per-seat view only.

``random``: picks uniformly among legal actions. ``heuristic``: plays for its objective with
the exact odds, trades sets when they are worth most (R9) and watches the closing dice (R2).
``greedy``, ``expectimax`` (levels 3-4, :mod:`.search`), ``determinised`` (level 5,
:mod:`.top`, the heuristic's choices checked by the same search): search their own
turn over the exact odds with a hand-built evaluation, the upper two on games whose hidden
part is sampled from what their seat sees (:meth:`risiko.view.SeatView.determinise`).
``rollout`` (:mod:`.rollout`, no level): the heuristic's choices checked by playing the game
on, heuristic bots at every seat, in such sampled games.
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
