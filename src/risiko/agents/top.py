"""Level 4, ``determinised``: the heuristic's choices, checked by an expectimax over
determinised games (issue 19; the top level until level 5, :mod:`.rollout`, which starts from
its choices, was measured against it: docs/benchmarks.md).

The bot is the searching bot of :mod:`.search` (the exact odds, the hand-built evaluation in
table points, the closing dice's timing, R2) with three changes that make it at least the
heuristic bot where the search has nothing to say, and a better judge of a thin front:

- the heuristic's own choice is always a candidate: its attack is searched next to the
  search's best attacks at the root, and its staging territory next to the search's
  staging territories for the reinforcements; so a position where the search finds nothing
  better than the heuristic gets the heuristic's move (ties go to the heuristic);
- a seat's threat on an own territory counts that seat's next reinforcements
  (:func:`reinforcement_estimate`: R10's third of its territories, at least the ruleset's
  minimum, and its whole continents' bonuses; card sets left out) on top of its biggest
  stack beside the territory: the search then sees that a long chain of conquests
  leaving one army on each territory is weak against the seats that play next;
- the search runs over :data:`LEVEL_DETERMINISED`'s determinised games (other seats' objectives
  drawn by :meth:`risiko.view.SeatView.determinise` from their attacks; hands and deck
  shuffled), three attacks deep, with a budget in search nodes, never in time.

The decision reads the seat's view only (:class:`~risiko.view.SeatView`); the same view and
rng state give the same action.
"""

from __future__ import annotations

import random
from typing import Final

from ..actions import Attack
from ..board import CONTINENT_BONUS, CONTINENT_MASKS
from ..view import SeatView
from .base import register
from .search import Level, SearchAgent, _Node, _World

#: level 4's budget: 3 attacks deep, 6 attacks per node, 300 attack nodes per decision
#: and determinised game, 4 determinised games, 6 staging territories
LEVEL_DETERMINISED: Final = Level("determinised", depth=3, width=6, nodes=300, samples=4,
                                  placements=6)


def reinforcement_estimate(owned: int, minimum: int) -> int:
    """The armies a seat holding the territories of mask ``owned`` receives at its next turn
    before card sets (R10): a third of its territories, rounded down, at least ``minimum``
    (the ruleset's ``min_reinforcement``), plus each whole continent's bonus.

    >>> from risiko.board import CONTINENT_MASKS
    >>> reinforcement_estimate(0b111, 1), reinforcement_estimate(0b11, 1)
    (1, 1)
    >>> every_other = sum(1 << t for t in range(0, 28, 2))  # 14, no whole continent
    >>> reinforcement_estimate(every_other, 1)
    4
    >>> reinforcement_estimate((1 << 13) - 1, 1)  # 13: 4, Nord and Sud America: 5 + 2
    11
    >>> oceania = CONTINENT_MASKS[-1]  # 4 territories, a bonus of 2
    >>> reinforcement_estimate(oceania, 1), reinforcement_estimate(oceania, 3)
    (3, 5)
    """
    n = owned.bit_count() // 3
    armies = n if n > minimum else minimum
    for c in range(len(CONTINENT_MASKS)):
        m = CONTINENT_MASKS[c]
        if owned & m == m:
            armies += CONTINENT_BONUS[c]
    return armies


class TopAgent(SearchAgent):
    """The level-4 bot (see the module); ``level`` its budget (:data:`LEVEL_DETERMINISED`)."""

    def __init__(self, level: Level = LEVEL_DETERMINISED, rng: random.Random | None = None) -> None:
        super().__init__(level, rng)
        self._reinforcements: dict[int, int] = {}

    def _reinforcement(self, owned: int) -> int:
        """:func:`reinforcement_estimate` under the table's ruleset, cached by the bot."""
        armies = self._reinforcements.get(owned)
        if armies is None:
            rs = self._ruleset
            assert rs is not None
            armies = reinforcement_estimate(owned, rs.min_reinforcement)
            if len(self._reinforcements) > 50_000:
                self._reinforcements.clear()
            self._reinforcements[owned] = armies
        return armies

    def _threat_at(self, world: _World, node: _Node, t: int) -> float:
        """Own territory ``t``'s value times the chance that the strongest enemy beside it
        takes it with its biggest bordering stack plus its next reinforcements (0 for a
        territory not this seat's)."""
        me = self._me
        owner = node.owner
        if owner[t] != me:
            return 0.0
        armies = node.armies
        strongest = 0
        for e in self._adj[t]:
            s = owner[e]
            if s != me:
                a = armies[e] + self._reinforcement(node.owned[s])
                if a > strongest:
                    strongest = a
        if strongest < 2:
            return 0.0
        mask = world.masks[me]
        assert mask is not None
        return (4.0 if mask >> t & 1 else 1.0) * self._p(strongest, armies[t], 0)

    def _attack(self, view: SeatView, has_prior: bool = False,
                prior: Attack | None = None) -> Attack | None:
        # this level has no prior level (LEVEL_DETERMINISED.prior is None): the heuristic's
        # attack is its hint instead, below
        legal = view.legal_attacks()
        if not legal:
            return None
        hint = self._heuristic._attack(view)
        worlds = self._setup(view)
        totals: dict[tuple[int, int], float] = {}
        stop = 0.0
        for world in worlds:
            root = self._root(view, world)
            self._budget = self.level.nodes
            stop += self._stop_value(world, root)
            candidates = [(src, dst, support) for _, src, dst, support
                          in self._attacks(world, root)]
            if hint is not None and all((s, d) != (hint.source, hint.target)
                                        for s, d, _ in candidates):
                candidates.insert(0, (hint.source, hint.target,
                                      view.support(hint.source, hint.target)))
            for src, dst, support in candidates:
                if self._budget <= 0 and (hint is None or (src, dst) != (hint.source,
                                                                         hint.target)):
                    continue
                v = self._attack_value(world, root, src, dst, support, self.level.depth)
                totals[(src, dst)] = totals.get((src, dst), 0.0) + v
        # the heuristic's choice (attack or stop) wins the ties
        if hint is None:
            best: tuple[int, int] | None = None
            best_value = stop
        else:
            best = (hint.source, hint.target)
            best_value = totals.get(best, stop)
            if stop > best_value + 1e-9:
                best, best_value = None, stop
        for pair in sorted(totals):
            if totals[pair] > best_value + 1e-9:
                best, best_value = pair, totals[pair]
        if best is None or best not in legal:
            return None
        return Attack(best[0], best[1])

    def _placement(self, view: SeatView, amount: int, prior: int | None = None) -> int:
        worlds = self._setup(view)
        root = self._root(view, worlds[0])
        ranked = self._staging(root, worlds[0], amount)
        hint = self._heuristic._placement(view)
        if not ranked:
            return hint
        candidates = ranked[:self.level.placements]
        if hint not in candidates:
            candidates.insert(0, hint)
        values = self._placement_values(view, worlds, root, candidates, amount)
        best_t = hint
        for t in candidates:
            if values[t] > values[best_t] + 1e-9:
                best_t = t
        return best_t


@register("determinised")
def _make_determinised(rng: random.Random) -> TopAgent:
    return TopAgent(LEVEL_DETERMINISED, rng)
