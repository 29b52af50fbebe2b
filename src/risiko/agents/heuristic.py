"""The heuristic bot: plays for its objective with the exact odds.

- Targets: an enemy territory is worth 4 if in the objective, 1 otherwise (R16), plus the
  continent's points (R15) when taking it completes a continent.
- Reinforcements all go to the own territory that stages the best target; sets are kept until
  they are worth 12 (5 cards in hand, R9) unless the last rounds are called.
- Attacks are made when the exact probability of conquest (R7/R8 legality included, with the
  armies bordering the target as support) is at least ``threshold``, best value first.
- In a closing turn (R2) a seat that is ahead stops after 2 conquests so that it still rolls.
- Strategic move: the largest interior stack moves to the front.
- The army limit (R4) is respected by the game: near it, the bot attacks more readily rather
  than see reinforcements forfeited.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..actions import Action, Attack, EndTurn, Fortify, Move, Place, Trade
from ..board import CONTINENT_MASKS, CONTINENT_SIZES, iter_mask
from ..cards import is_jolly, sets_in
from ..odds import attack_odds
from ..ruleset import Ruleset
from ..view import SeatView
from .base import register


@lru_cache(maxsize=200_000)
def _p_conquer(a: int, d: int, ruleset: Ruleset, support: int) -> float:
    return attack_odds(min(a, 60), min(d, 60), ruleset, min(support, 60)).p_conquer


class HeuristicAgent:
    """Objective-driven bot (see module doc). ``threshold``: least p_conquer to attack."""

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None, threshold: float = 0.55) -> None:
        self.rng = rng or random.Random()
        self.threshold = threshold

    # ------------------------------------------------------------------ values
    def _value(self, view: SeatView, t: int) -> float:
        obj = view.objective
        v = 4.0 if obj.mask >> t & 1 else 1.0
        mine = view.my_territories | (1 << t)
        for c, m in enumerate(CONTINENT_MASKS):
            if m >> t & 1 and mine & m == m:
                n = CONTINENT_SIZES[c]
                v += (n * 5) // 2 if c in obj.continents else n
        if obj.mask & ~mine == 0:
            v += 100.0  # completes the objective: RisiKo!
        return v

    def _best_target(self, view: SeatView) -> tuple[int, int] | None:
        """(staging territory, target) maximising value per defending army."""
        mine = view.my_territories
        neigh = view.neighbours
        armies = view.armies
        best: tuple[float, int, int] | None = None
        for t in iter_mask(view.ruleset.board.frontier(mine)):
            stage = max(iter_mask(neigh[t] & mine), key=lambda s: armies[s])
            score = self._value(view, t) / (armies[t] + 1)
            if best is None or score > best[0]:
                best = (score, stage, t)
        return None if best is None else (best[1], best[2])

    # ------------------------------------------------------------------ decisions
    def act(self, view: SeatView) -> Action:
        """The next action for the seat of ``view``."""
        phase = view.phase
        if phase == "setup":
            return Place(self._placement(view), view.step_left)
        if phase == "reinforce":
            trade = self._trade(view)
            if trade is not None:
                return trade
            return Place(self._placement(view), view.pending)
        if phase == "move":
            return self._move(view)
        if not view.penalised_turn:
            attack = self._attack(view)
            if attack is not None:
                return attack
            fortify = self._fortify(view)
            if fortify is not None:
                return fortify
        return EndTurn()

    def _placement(self, view: SeatView) -> int:
        target = self._best_target(view)
        if target is not None:
            return target[0]
        return max(iter_mask(view.my_territories), key=lambda t: view.armies[t])

    def _trade(self, view: SeatView) -> Trade | None:
        hand = view.hand
        if len(hand) < 3:
            return None
        rs = view.ruleset
        over_limit = rs.hand_limit is not None and len(hand) > rs.hand_limit
        wait = (
            rs.set_values == "by_hand_size"
            and len(hand) < 5
            and view.last_round is None
            and not over_limit
        )
        if wait:
            return None
        # prefer the set with the most owned-territory bonuses
        best: tuple[int, tuple[int, int, int]] | None = None
        mine = view.my_territories
        for trio in sets_in(hand):
            owned = sum(1 for c in trio if not is_jolly(c) and mine >> c & 1)
            jolly = sum(1 for c in trio if is_jolly(c))
            key = owned * 2 - jolly
            if best is None or key > best[0]:
                best = (key, trio)
        return None if best is None else Trade(best[1])

    def _leading(self, view: SeatView) -> bool:
        mine = view.my_territories
        my_score = sum(4 if view.objective.mask >> t & 1 else 1 for t in iter_mask(mine))
        others = [
            view.owned[s].bit_count() * 2
            for s in range(len(view.players))
            if s != view.seat and view.status[s] == "in_play"
        ]
        return not others or my_score >= max(others)

    def _attack(self, view: SeatView) -> Attack | None:
        attacks = view.legal_attacks()
        if not attacks:
            return None
        rs = view.ruleset
        if (
            view.last_round is not None
            and view.round >= view.last_round
            and view.conquests >= rs.closing_skip_if_conquered - 1
            and self._leading(view)
        ):
            # keep the right to roll the closing dice (R2)
            finishing = [
                (s, t) for s, t in attacks
                if view.objective.mask & ~(view.my_territories | 1 << t) == 0
            ]
            if not finishing:
                return None
            attacks = finishing
        threshold = self.threshold
        if view.room() < 10:
            threshold -= 0.15
        armies = view.armies
        best: tuple[float, int, int] | None = None
        for src, dst in attacks:
            a, d = armies[src], armies[dst]
            support = view.support(src, dst)
            p = _p_conquer(a, d, rs, support)
            if p < threshold:
                continue
            score = p * self._value(view, dst)
            if best is None or score > best[0]:
                best = (score, src, dst)
        if best is None:
            return None
        return Attack(best[1], best[2])

    def _move(self, view: SeatView) -> Move:
        rng = view.move_range
        assert rng is not None
        least, most, src, dst = rng
        mine = view.my_territories
        neigh = view.neighbours
        src_front = bool(neigh[src] & ~mine)
        dst_front = bool(neigh[dst] & ~mine)
        if not src_front:
            return Move(most)
        if not dst_front:
            return Move(least)
        return Move(max(least, (least + most + 1) // 2))

    def _fortify(self, view: SeatView) -> Fortify | None:
        mine = view.my_territories
        neigh = view.neighbours
        armies = view.armies
        best: tuple[int, int, int] | None = None
        for src in iter_mask(mine):
            if armies[src] < 2 or neigh[src] & ~mine:
                continue
            fronts = [t for t in iter_mask(neigh[src] & mine) if neigh[t] & ~mine]
            if not fronts:
                continue
            dst = max(fronts, key=lambda t: (view.objective.mask >> t & 1, -armies[t]))
            if best is None or armies[src] > best[0]:
                best = (armies[src], src, dst)
        if best is None:
            return None
        amount = best[0] - 1
        if not view.can_fortify(best[1], best[2], amount):
            return None
        return Fortify(best[1], best[2], amount)


@register("heuristic")
def _make(rng: random.Random) -> HeuristicAgent:
    return HeuristicAgent(rng)
