"""The agent protocol and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..actions import Action
from ..faults import InvalidInputError, define
from ..view import SeatView


class Agent(Protocol):
    """A bot: given the view of its seat when that seat is to act, returns one action."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The next action of the seat of ``view`` (which is the seat to act)."""
        ...


UNKNOWN_BOT = define("game.unknown_bot", "", "unknown bot '{name}' (known: {known})")

AGENTS: dict[str, Callable[[random.Random], Agent]] = {}


def register(name: str) -> Callable[[Callable[[random.Random], Agent]], Callable[
        [random.Random], Agent]]:
    """Decorator: register an agent factory (taking a ``random.Random``) under ``name``."""

    def deco(factory: Callable[[random.Random], Agent]) -> Callable[[random.Random], Agent]:
        AGENTS[name] = factory
        return factory

    return deco


def agent_by_name(name: str, rng: random.Random) -> Agent:
    """A new agent by name (``random``, ``heuristic``, ``greedy``, ``determinised``,
    ``rollout``: :data:`risiko.agents.levels.LEVELS`; ``expectimax``); ``InvalidInputError``
    (a ValueError, ``cli.unknown_bot``) naming the known ones."""
    # importing the modules registers them
    from . import heuristic, random_agent, rollout, search, top  # noqa: F401

    key = name.strip().lower()
    if key not in AGENTS:
        raise InvalidInputError(UNKNOWN_BOT(name=name, known=sorted(AGENTS)))
    return AGENTS[key](rng)
