"""The random-legal bot: each choice drawn at random among the legal ones.

Its policy (the game's rules are not the bot's: they are checked or trusted by the game):

- initial placement: the whole step (3 armies, R4 permitting) on a uniformly random territory
  of the seat;
- reinforcement: a set is traded when the hand is over the limit, otherwise with chance 1/2
  when the hand holds one (R9); then all the reinforcements on a uniformly random territory
  of the seat (one placement: the rules let a seat place them in any steps);
- attack phase: with chance :data:`STOP` the seat stops attacking, otherwise it rolls a
  uniformly random legal attack (R7, R8), drawn without listing them
  (:func:`risiko.rules.sample_attack`); when it stops (or has no attack left) it makes, with
  chance 1/2, a uniformly random legal strategic move of a uniformly random amount, and
  otherwise ends its turn;
- after a conquest: a uniformly random amount of armies moved in.

Every action it returns comes from the rules' legal sets (``legal_only``): the game loop
(:func:`risiko.match.play_game`) pushes them through the unchecked door.
"""

from __future__ import annotations

import random

from ..actions import Action, Attack, EndTurn, Fortify, Move, Place, Trade
from ..board import NUM_TERRITORIES
from ..cards import best_set
from ..state import Phase
from ..view import SeatView
from .base import register

SETUP, REINFORCE, MOVE = Phase.SETUP, Phase.REINFORCE, Phase.MOVE

#: the chance of stopping the attacks at each decision of the attack phase: with it a game
#: of 4 random bots has about as many rolls as before this policy (about 330 when the last
#: rounds are called in round 34), when the chance was 2 in (legal attacks + 2)
STOP = 0.27

_END_TURN = EndTurn()
#: the attacks without dice, made once: actions are immutable values
_ATTACKS: list[Attack | None] = [None] * (NUM_TERRITORIES * NUM_TERRITORIES)


def _attack(source: int, target: int) -> Attack:
    """``Attack(source, target)``, made once per pair."""
    key = source * NUM_TERRITORIES + target
    found = _ATTACKS[key]
    if found is None:
        found = _ATTACKS[key] = Attack(source, target)
    return found


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
        if phase is SETUP or phase is REINFORCE:
            if phase is SETUP:
                amount = view.step_left
            else:
                hand = view.hand
                if len(hand) >= 3:
                    limit = view.ruleset.hand_limit
                    if (limit is not None and len(hand) > limit) or random_() < 0.5:
                        trio = best_set(hand)
                        if trio is not None:
                            return Trade(trio)
                amount = min(view.pending, view.room())  # R4: pending is clamped already
            # a uniformly random territory of the seat: drawn over the board until it is one
            owner = view.owner
            seat = view.seat
            while True:
                t = int(random_() * NUM_TERRITORIES)
                if owner[t] == seat:
                    return Place(t, amount)
        if phase is MOVE:
            span = view.move_range
            assert span is not None
            return Move(span[0] + int(random_() * (span[1] - span[0] + 1)))
        if random_() >= STOP:
            pair = view.sample_attack(random_)
            if pair is not None:
                return _attack(pair[0], pair[1])
        if random_() < 0.5:
            moves = view.fortify_moves()
            if moves:
                src, dst, most = moves[int(random_() * len(moves))]
                return Fortify(src, dst, 1 + int(random_() * most))
        return _END_TURN


@register("random")
def _make(rng: random.Random) -> RandomAgent:
    return RandomAgent(rng)
