"""Bots that play through the public API and a per-seat view only.

``random``: picks uniformly among legal actions. ``heuristic``: plays for its objective with
the exact odds, trades sets when they are worth most (R9) and watches the closing dice (R2).
"""

from __future__ import annotations

from .base import AGENTS, Agent, agent_by_name
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

__all__ = ["AGENTS", "Agent", "HeuristicAgent", "RandomAgent", "agent_by_name"]
