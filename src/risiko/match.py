"""Playing whole games with bots: the loop that asks the seat to act for its action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .agents.base import Agent, agent_by_name
from .dice import Chance, SeededChance
from .game import OVER, Game
from .ruleset import CLUB_MILANO, Ruleset
from .view import SeatView

try:  # the marker of the compiled build (mypyc); at run time it changes nothing
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - the library needs nothing beyond the standard library
    from ._build import mypyc_attr

DEFAULT_PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")


@mypyc_attr(native_class=False)  # the compiled build: a native class cannot extend it
class AgentError(RuntimeError):
    """A bot returned an action the game refused (a bug in the bot)."""


def make_agents(names: Sequence[str], seats: int, rng: random.Random) -> list[Agent]:
    """``seats`` agents from a list of bot names (the last name repeats if the list is short).

    Raises ValueError for an unknown bot name or an empty list.
    """
    if not names:
        raise ValueError("name at least one bot")
    full = [names[min(i, len(names) - 1)] for i in range(seats)]
    return [agent_by_name(n, rng) for n in full]


def play_game(
    agents: Sequence[Agent],
    *,
    ruleset: Ruleset = CLUB_MILANO,
    players: Sequence[str] | None = None,
    seed: int | None = None,
    chance: Chance | None = None,
    late: Sequence[int] = (),
    last_rounds_at: int | None = 8,
    max_actions: int = 1_000_000,
    checked: bool = False,
) -> Game:
    """Play one game to its end with one agent per seat; returns the finished game.

    ``seed`` seeds both the chance of the table and the bots. Actions of an agent whose
    ``legal_only`` is True (it takes them from the rules' legal sets, as the random bot does)
    go through :meth:`Game.push_unchecked`, the others through the checked :meth:`Game.push`;
    ``checked=True`` checks them all (same game, slower). Raises AgentError if a bot makes an
    action the game refuses, RuntimeError if the game exceeds ``max_actions``.
    """
    n = len(agents)
    names = list(players) if players is not None else list(DEFAULT_PLAYERS[:n])
    ch = chance if chance is not None else SeededChance(seed)
    game = Game.new(names, ruleset, chance=ch, late=late, last_rounds_at=last_rounds_at)
    return play_on(game, agents, max_actions=max_actions, checked=checked)


def play_on(
    game: Game, agents: Sequence[Agent], *, max_actions: int = 1_000_000, checked: bool = False
) -> Game:
    """Play ``game`` on to its end (from wherever it is: a new game, a position) with one
    agent per seat; returns it. Actions of an agent whose ``legal_only`` is True go through
    :meth:`Game.push_unchecked` unless ``checked`` (see :func:`play_game`). Raises AgentError
    if a bot makes an action the game refuses, RuntimeError if the game exceeds
    ``max_actions`` more actions."""
    views = [SeatView(game, s) for s in range(game.n)]
    acts = [agent.act for agent in agents]
    trusted = [checked is False and getattr(agent, "legal_only", False) for agent in agents]
    push, push_unchecked = game.push, game.push_unchecked
    over = OVER
    for _ in range(max_actions):
        st = game.state
        if st.phase is over:
            return game
        seat = st.seat
        if trusted[seat]:
            push_unchecked(acts[seat](views[seat]))
            continue
        action = acts[seat](views[seat])
        try:
            push(action)
        except ValueError as e:
            raise AgentError(f"bot {agents[seat].name} at seat {seat + 1}: {e}") from e
    raise RuntimeError(f"game not over after {max_actions} actions")


def play_bots(
    bots: Sequence[str],
    seats: int,
    *,
    ruleset: Ruleset = CLUB_MILANO,
    seed: int | None = None,
    last_rounds_at: int | None = 8,
    late: Sequence[int] = (),
    checked: bool = False,
) -> Game:
    """Play a game with bots by name (see :func:`make_agents`), seeded by ``seed``;
    ``checked``: every action through the checked door (see :func:`play_game`)."""
    rng = random.Random(None if seed is None else seed * 7919 + 1)
    agents = make_agents(bots, seats, rng)
    return play_game(
        agents, ruleset=ruleset, seed=seed, last_rounds_at=last_rounds_at, late=late,
        checked=checked,
    )


def play_bots_from(bots: Sequence[str], game: Game, *, seed: int | None = None) -> Game:
    """Play ``game`` (e.g. :meth:`Game.from_position`) on to its end with bots by name, one
    per seat (the last name repeats), seeded by ``seed`` as :func:`play_bots` seeds them."""
    rng = random.Random(None if seed is None else seed * 7919 + 1)
    return play_on(game, make_agents(bots, game.n, rng))
