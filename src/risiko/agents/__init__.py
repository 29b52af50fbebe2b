"""Bots that play through the public API and a per-seat view only.

``random``: picks uniformly among legal actions. ``heuristic``: plays for its objective with
the exact odds, trades sets when they are worth most (R9) and watches the closing dice (R2).
``greedy`` (level 3), ``expectimax`` (no level, :mod:`.search`), ``determinised`` (level 4,
:mod:`.top`, the heuristic's choices checked by the same search): search their own
turn over the exact odds with a hand-built evaluation, the last two on games whose hidden
part is sampled from what their seat sees (:meth:`risiko.view.SeatView.determinise`).
``rollout`` (level 5, :mod:`.rollout`): level 4's choices checked by playing the game
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
