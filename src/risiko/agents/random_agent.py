"""The random-legal bot: every choice uniform among the legal ones."""

from __future__ import annotations

import random

from ..actions import Action, Attack, EndTurn, Fortify, Move, Place, Trade
from ..board import mask_list
from ..cards import best_set
from ..view import SeatView
from .base import register


class RandomAgent:
    """Chooses uniformly: a territory and an amount to place, a set to trade or not, one of
    the legal attacks or stopping, a legal strategic move or none, an amount to move in."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: SeatView) -> Action:
        """One uniformly random legal action for the seat to act."""
        rng = self.rng
        phase = view.phase
        if phase == "setup" or phase == "reinforce":
            limit = view.ruleset.hand_limit
            must = limit is not None and len(view.hand) > limit
            if phase == "reinforce" and len(view.hand) >= 3 and (must or rng.random() < 0.5):
                trio = best_set(view.hand)
                if trio is not None:
                    return Trade(trio)
            mine = mask_list(view.my_territories)
            amount = view.step_left if phase == "setup" else view.pending
            return Place(rng.choice(mine), rng.randint(1, amount))
        if phase == "move":
            rng_ = view.move_range
            assert rng_ is not None
            return Move(rng.randint(rng_[0], rng_[1]))
        attacks = view.legal_attacks()
        choice = rng.randrange(len(attacks) + 2)
        if choice < len(attacks):
            src, dst = attacks[choice]
            return Attack(src, dst)
        if choice == len(attacks):
            moves = view.legal_fortifies()
            if moves:
                src, dst = moves[rng.randrange(len(moves))]
                most = view.armies[src] - 1
                while most > 0 and not view.can_fortify(src, dst, most):
                    most -= 1  # RTU: armies that must stay on a border territory
                if most > 0:
                    return Fortify(src, dst, rng.randint(1, most))
        return EndTurn()


@register("random")
def _make(rng: random.Random) -> RandomAgent:
    return RandomAgent(rng)
