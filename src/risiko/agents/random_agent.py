"""The random-legal bot: each choice drawn at random among the legal ones.

Its policy (the game's rules are not the bot's: they are checked or trusted by the game):

- initial placement: the whole step (3 armies, R4 permitting) on a uniformly random territory
  of the seat;
- reinforcement: a set is traded when the hand is over the limit, otherwise with chance 1/2
  when the hand holds one (R9); then all the reinforcements on a uniformly random territory
  of the seat (one placement: the rules let a seat place them in any steps);
- attack phase: with chance :data:`STOP` the seat stops attacking, otherwise it rolls a
  uniformly random legal attack (R7, R8), drawn without checking them all
  (:func:`risiko.rules.sample_attack`); when it stops (or has no attack left) it makes, with
  chance 1/2, a random legal strategic move (a random territory of 2 armies or more, a
  random territory bordering it, :func:`risiko.rules.sample_fortify`) of a uniformly random
  amount, and otherwise ends its turn;
- after a conquest: a uniformly random amount of armies moved in.

Every action it returns comes from the rules' legal sets (``legal_only``): the game loop
(:func:`risiko.match.play_game`) pushes them through the unchecked door. An earlier version
drew every choice uniformly among all the legal actions (placements of any amount, and
stopping with chance 2 in (legal attacks + 2)): a game had as many rolls, but 880 actions
instead of 730, and listing the legal attacks at each decision cost most of its time.
"""

from __future__ import annotations

import random
from typing import Final

from ..actions import Action, Attack, EndTurn, Fortify, Move, Place, Trade
from ..board import NUM_TERRITORIES, territories_of
from ..cards import best_set
from ..state import Phase
from ..view import SeatView
from .base import register

# Final: the compiled build (mypyc) reads them as constants, not from the module's dict
SETUP: Final = Phase.SETUP
ATTACK: Final = Phase.ATTACK
MOVE: Final = Phase.MOVE

#: the chance of stopping the attacks at each decision of the attack phase: with it a game
#: of 4 random bots has about as many rolls as before this policy (about 330 when the last
#: rounds are called in round 34), when the chance was 2 in (legal attacks + 2)
STOP: Final = 0.27

_END_TURN: Final = EndTurn()
#: the attacks without dice, made once per pair (at source * 42 + target): actions are
#: immutable values
_ATTACKS: Final[list[Attack | None]] = [None] * (NUM_TERRITORIES * NUM_TERRITORIES)


class RandomAgent:
    """The random bot (see the module's policy)."""

    name = "random"
    #: every action comes from the rules' legal sets: the game loop may push it unchecked
    legal_only = True

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self._random = self.rng.random

    def act(self, view: SeatView) -> Action:
        """One random legal action for the seat to act (see the module's policy)."""
        random_ = self._random
        phase = view.phase
        if phase is ATTACK:
            if random_() >= STOP:
                pair = view.sample_attack(random_)
                if pair is not None:
                    src, dst = pair
                    attack = _ATTACKS[src * NUM_TERRITORIES + dst]
                    if attack is None:
                        attack = _ATTACKS[src * NUM_TERRITORIES + dst] = Attack(src, dst)
                    return attack
            if random_() < 0.5:
                move = view.sample_fortify(random_)
                if move is not None:
                    return Fortify(move[0], move[1], 1 + int(random_() * move[2]))
            return _END_TURN
        if phase is MOVE:
            span = view.move_range
            assert span is not None
            return Move(span[0] + int(random_() * (span[1] - span[0] + 1)))
        if phase is SETUP:
            amount = view.step_left
        else:
            if view.card_count >= 3:
                hand = view.hand
                limit = view.ruleset.hand_limit
                if (limit is not None and len(hand) > limit) or random_() < 0.5:
                    trio = best_set(hand)
                    if trio is not None:
                        return Trade(trio)
            amount = view.pending
            room = view.room()  # R4 (the reinforcements are clamped to it already)
            if room < amount:
                amount = room
        mine = territories_of(view.my_territories)
        return Place(mine[int(random_() * len(mine))], amount)


@register("random")
def _make(rng: random.Random) -> RandomAgent:
    return RandomAgent(rng)
