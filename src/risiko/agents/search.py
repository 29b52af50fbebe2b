"""Searching bots, levels 3 and 4 (``greedy``, ``expectimax``), and the search of level 5.

All three play from their seat's view only (:class:`~risiko.view.SeatView`) and score a
position with one hand-built evaluation, in table points (R1, R15, R16):

- ``margin``: this seat's table score less the best other seat's (R16: 4 a territory of the
  objective, 1 another; R15: a whole continent; a completed objective is RisiKo!, the game),
  each with the objective's progress (:data:`RACE_POINTS`: the last territories missing);
- ``threats``: each own territory's value times the exact chance (:mod:`risiko.odds`) that the
  biggest enemy stack beside it takes it (before the closing: :data:`THREAT_WEIGHT`);
- ``armies``: :attr:`Level.army_weight` a point per own army until the army limit (R4), then
  the limit's penalty (R5: -7);
- the closing dice's timing (R2): ending a turn of a closing round with fewer than 3 conquests
  rolls the dice, which close the game with the band's exact probability
  (:func:`risiko.closing.closing_probability`): then the margin is final, and a win is worth
  :data:`WIN_BONUS` more;
- R8's army sums: every attack in the search is legal under R7/R8 with the armies bordering
  the target as support, and its outcome comes from :func:`risiko.odds.attack_odds`.

The search (in the attack phase, and for the reinforcements and the conquest move) is an
expectimax over this seat's own turn: a node is the board after some attacks; its children
are "stop here" and the :attr:`Level.width` most promising attacks, each a chance node over
the attack's exact outcomes (attacking until the conquest or until the next roll is illegal),
grouped into at most two conquest outcomes and one failed one. The tree is cut at
:attr:`Level.depth` attacks and by a budget of :attr:`Level.nodes` attack nodes per decision
and per sample, so a decision does not depend on the machine's load.

Levels (see :data:`LEVEL_3`, ...):

- 3, ``greedy``: one attack deep; other seats' scores estimated from their territories
  alone (:attr:`Level.unknown_factor` points each): no hidden information sampled;
- ``expectimax`` (no level; level 4 until :mod:`.top`'s bot was measured stronger against
  level 3): two attacks deep, over 2 determinised games
  (:meth:`SeatView.determinise`: other seats' objectives drawn by how well they fit the
  conquests they made), the values averaged; it starts from level 3's decision
  (:attr:`Level.prior`) and overrides it only where its own choice is worth 3 points more
  (:attr:`Level.override_margin`);
- :data:`LEVEL_SEARCH`: three attacks deep over 6 determinised games, with a bigger budget
  (the first level 5; the bot ``determinised``, level 4, is :mod:`.top`'s, built on this
  one).

Level 3 and ``expectimax`` weigh an army :data:`TUNED_ARMY_WEIGHT` and a territory of an unknown
objective :data:`TUNED_UNKNOWN_FACTOR` (:data:`LEVEL_SEARCH` keeps :data:`ARMY_WEIGHT` and
:data:`UNKNOWN_OBJECTIVE_FACTOR`): weights chosen by games against the level below played on
the same seeds (docs/benchmarks.md, "Bots by level").

Trades (R9) and the strategic move follow the heuristic bot; a late seat's penalised turn
(R3) only places and ends.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from ..actions import Action, Attack, EndTurn, Move, Place
from ..board import CONTINENT_MASKS, CONTINENT_SIZES, iter_mask
from ..closing import closing_probability
from ..odds import attack_odds
from ..ruleset import Ruleset
from ..view import SeatView
from .base import register
from .heuristic import HeuristicAgent

#: points of a win when the closing dice end the game (over the final margin itself)
WIN_BONUS: Final = 20.0
#: weight of the expected loss of own territories to the biggest enemy stack beside them
THREAT_WEIGHT: Final = 0.35
#: points per own army on the board (up to the army limit, R4)
ARMY_WEIGHT: Final = 0.03
#: the card a first conquest of the turn draws, in points (before the last rounds)
CARD_POINTS: Final = 1.5
#: points per territory of a seat whose objective is not known (level 3): 1 + 3 x the share of
#: the board an objective holds on average (about 22 %)
UNKNOWN_OBJECTIVE_FACTOR: Final = 1.66
#: a completed objective (RisiKo!, R1): the game is won
RISIKO_POINTS: Final = 1000.0
#: a seat's nearness to RisiKo! (R1), by the objective's territories it still lacks (1, 2,
#: ...): a completed objective ends the game, so the last territories are worth more than
#: their table points
RACE_POINTS: Final[tuple[float, ...]] = (0.0, 40.0, 24.0, 14.0, 8.0, 4.0, 2.0)
#: levels 3 and 4's :data:`ARMY_WEIGHT` and :data:`UNKNOWN_OBJECTIVE_FACTOR` (see
#: :data:`LEVEL_3`)
TUNED_ARMY_WEIGHT: Final = 0.1
TUNED_UNKNOWN_FACTOR: Final = 1.2
#: the most armies the odds are looked up for (bigger stacks count as this many)
ODDS_CAP: Final = 60


@dataclass(frozen=True)
class Level:
    """A searching bot's budget: ``depth`` attacks ahead, ``width`` attacks tried per node,
    ``nodes`` attack nodes per decision and sample, ``samples`` determinised games (0: other
    seats' objectives unknown, estimated), ``placements`` staging territories tried for
    reinforcements; the evaluation's weights (points): ``army_weight`` a point per own army,
    ``threat_weight`` on the threat term, ``unknown_factor`` a point per territory of a seat
    whose objective is not guessed (``samples`` = 0)."""

    name: str
    depth: int
    width: int
    nodes: int
    samples: int
    placements: int
    army_weight: float = ARMY_WEIGHT
    threat_weight: float = THREAT_WEIGHT
    unknown_factor: float = UNKNOWN_OBJECTIVE_FACTOR
    prior: Level | None = None
    override_margin: float = 1.0


#: level 3 and ``expectimax`` weigh armies more, and a seat of unknown objective less, than
#: :data:`LEVEL_SEARCH`: tuned against the level below with common random numbers
#: (docs/benchmarks.md)
LEVEL_3: Final = Level("greedy", depth=1, width=12, nodes=80, samples=0, placements=4,
                       army_weight=TUNED_ARMY_WEIGHT, unknown_factor=TUNED_UNKNOWN_FACTOR)
#: ``expectimax`` (no level) starts from level 3's decisions and overrides one when its own
#: is worth 3 points more
LEVEL_EXPECTIMAX: Final = Level("expectimax", depth=2, width=5, nodes=160, samples=2,
                                placements=4, army_weight=TUNED_ARMY_WEIGHT,
                                unknown_factor=TUNED_UNKNOWN_FACTOR, prior=LEVEL_3,
                                override_margin=3.0)
#: the first level 5's search alone (the registered ``determinised`` is :mod:`.top`'s)
LEVEL_SEARCH: Final = Level("determinised", depth=3, width=6, nodes=500, samples=6,
                            placements=6)


@lru_cache(maxsize=200_000)
def p_conquer(a: int, d: int, ruleset: Ruleset, support: int) -> float:
    """Exact chance that ``a`` armies take a territory of ``d`` (R7/R8, ``support``: the
    attacker's other armies bordering it), stacks capped at :data:`ODDS_CAP`."""
    return attack_odds(min(a, ODDS_CAP), min(d, ODDS_CAP), ruleset,
                       min(support, ODDS_CAP)).p_conquer


@lru_cache(maxsize=200_000)
def outcomes(a: int, d: int, ruleset: Ruleset, support: int
             ) -> tuple[tuple[bool, int, int, float], ...]:
    """An attack's outcomes grouped for the search: ``(conquered, attacker_left,
    defender_left, p)``, at most two conquests (more and fewer armies left than the median)
    and one failure (the mean armies left, rounded), from :func:`risiko.odds.attack_odds`."""
    odds = attack_odds(min(a, ODDS_CAP), min(d, ODDS_CAP), ruleset, min(support, ODDS_CAP))
    wins = [(x, p) for (x, y), p in odds.distribution if y == 0]
    fails = [(x, y, p) for (x, y), p in odds.distribution if y != 0]
    out: list[tuple[bool, int, int, float]] = []
    if wins:
        half = (len(wins) + 1) // 2
        for group in (wins[:half], wins[half:]):
            p = sum(q for _, q in group)
            if p > 0.0:
                x = round(sum(xx * q for xx, q in group) / p)
                out.append((True, max(2, x), 0, p))
    p = sum(q for _, _, q in fails)
    if p > 0.0:
        x = round(sum(xx * q for xx, _, q in fails) / p)
        y = round(sum(yy * q for _, yy, q in fails) / p)
        out.append((False, max(1, x), max(1, y), p))
    return tuple(out)


def table_score(owned: int, objective_mask: int, continents: tuple[int, ...]) -> float:
    """A seat's table score (R16, R15 under club-milano's points): 4 a territory of the
    objective, 1 another, a whole continent its size (5/2 of it, rounded down, inside the
    objective); :data:`RISIKO_POINTS` when it holds its whole objective (R1).

    >>> from risiko.objectives import OBJECTIVES
    >>> from risiko.board import CONTINENT_MASKS
    >>> obj = OBJECTIVES[0]
    >>> table_score(0, obj.mask, obj.continents)
    0.0
    >>> table_score(obj.mask, obj.mask, obj.continents)
    1000.0
    """
    if owned & objective_mask == objective_mask:
        return RISIKO_POINTS
    inside = (owned & objective_mask).bit_count()
    score = float(3 * inside + owned.bit_count())
    missing = (objective_mask & ~owned).bit_count()
    if missing < len(RACE_POINTS):
        score += RACE_POINTS[missing]
    for c in range(len(CONTINENT_MASKS)):
        m = CONTINENT_MASKS[c]
        if owned & m == m:
            n = CONTINENT_SIZES[c]
            score += (n * 5) // 2 if c in continents else n
    return score


class _World:
    """One guess at the hidden part: each seat's objective (mask and continents), or None
    where the level does not guess it."""

    __slots__ = ("continents", "masks")

    def __init__(self, masks: list[int | None], continents: list[tuple[int, ...]]) -> None:
        self.masks = masks
        self.continents = continents


class _Node:
    """A board in the search: armies and owner per territory, territory mask per seat, this
    turn's conquests, and (kept up to date as the search goes) each seat's score in the
    world searched and this seat's threat term."""

    __slots__ = ("armies", "conquests", "owned", "owner", "scores", "threat", "total")

    def __init__(self, armies: list[int], owner: list[int], owned: list[int],
                 conquests: int, scores: list[float], threat: float, total: int) -> None:
        self.total = total  # this seat's armies on the board
        self.armies = armies
        self.owner = owner
        self.owned = owned
        self.conquests = conquests
        self.scores = scores
        self.threat = threat


class SearchAgent:
    """A searching bot of one :class:`Level` (see the module). ``rng`` draws the
    determinised games (levels 4, 5); the same view and rng state give the same action."""

    legal_only = False

    def __init__(self, level: Level, rng: random.Random | None = None) -> None:
        self.level = level
        self.name = level.name
        self.rng = rng or random.Random()
        self._heuristic = HeuristicAgent(self.rng)
        self._prior = None if level.prior is None else SearchAgent(level.prior, self.rng)
        self._budget = 0
        # the decision's context, set by act()
        self._me = 0
        self._ruleset: Ruleset | None = None
        self._neighbours: tuple[int, ...] = ()
        self._in_play: list[int] = []
        self._closing_p = 0.0
        self._closing_started = False
        self._limit = 0
        self._skip = 3
        self._adj: list[list[int]] = []
        self._near: dict[int, tuple[int, ...]] = {}
        self._p_cache: dict[int, float] = {}
        self._threat_weight = level.threat_weight
        self._army_weight = level.army_weight
        self._unknown_factor = level.unknown_factor
        self._card_points = CARD_POINTS

    # ------------------------------------------------------------------ worlds
    def _worlds(self, view: SeatView) -> list[_World]:
        n = len(view.players)
        me = view.seat
        mine = view.objective
        if self.level.samples == 0:
            masks: list[int | None] = [None] * n
            conts: list[tuple[int, ...]] = [()] * n
            masks[me] = mine.mask
            conts[me] = mine.continents
            return [_World(masks, conts)]
        out: list[_World] = []
        for _ in range(self.level.samples):
            game = view.determinise(self.rng)
            objs = game.objectives
            out.append(_World([o.mask for o in objs], [o.continents for o in objs]))
        return out

    # ------------------------------------------------------------------ evaluation
    def _score(self, world: _World, seat: int, owned: int) -> float:
        mask = world.masks[seat]
        if mask is None:
            return self._unknown_factor * owned.bit_count()
        return table_score(owned, mask, world.continents[seat])

    def _p(self, a: int, d: int, support: int) -> float:
        """:func:`p_conquer` under the table's ruleset, cached by the bot."""
        cap = ODDS_CAP
        key = (((a if a < cap else cap) * 64 + (d if d < cap else cap)) * 64
               + (support if support < cap else cap))
        p = self._p_cache.get(key)
        if p is None:
            rs = self._ruleset
            assert rs is not None
            p = p_conquer(a, d, rs, support)
            self._p_cache[key] = p
        return p

    def _threat_at(self, world: _World, node: _Node, t: int) -> float:
        """Own territory ``t``'s value times the chance the biggest enemy stack beside it
        takes it (0 for a territory not this seat's)."""
        me = self._me
        owner = node.owner
        if owner[t] != me:
            return 0.0
        armies = node.armies
        strongest = 0
        for e in self._adj[t]:
            if owner[e] != me and armies[e] > strongest:
                strongest = armies[e]
        if strongest < 2:
            return 0.0
        mask = world.masks[me]
        assert mask is not None
        return (4.0 if mask >> t & 1 else 1.0) * self._p(strongest, armies[t], 0)

    def _make_node(self, world: _World, armies: list[int], owner: list[int],
                   owned: list[int], conquests: int) -> _Node:
        """A node with its scores and threat computed in full."""
        scores = [self._score(world, s, owned[s]) for s in range(len(owned))]
        total = 0
        for t in iter_mask(owned[self._me]):
            total += armies[t]
        node = _Node(armies, owner, owned, conquests, scores, 0.0, total)
        threat = 0.0
        for t in range(len(armies)):
            threat += self._threat_at(world, node, t)
        node.threat = threat
        return node

    def _child(self, world: _World, node: _Node, src: int, dst: int, conquered: bool,
               a_left: int, d_left: int) -> _Node:
        """The board after an attack from ``src`` on ``dst`` ending with ``a_left`` and
        ``d_left`` armies (a conquest moves all but one army in); scores and threat
        updated where they changed."""
        me = self._me
        armies = node.armies.copy()
        owner = node.owner
        owned = node.owned
        scores = node.scores
        if conquered:
            owner = owner.copy()
            owned = owned.copy()
            scores = scores.copy()
            loser = owner[dst]
            owner[dst] = me
            owned[loser] &= ~(1 << dst)
            owned[me] |= 1 << dst
            scores[loser] = self._score(world, loser, owned[loser])
            scores[me] = self._score(world, me, owned[me])
            armies[src] = 1
            armies[dst] = a_left - 1
        else:
            armies[src] = a_left
            armies[dst] = d_left
        child = _Node(armies, owner, owned, node.conquests + (1 if conquered else 0),
                      scores, node.threat, node.total - (node.armies[src] - a_left))
        # the threat changes only around the two territories
        near = self._near[src * 64 + dst] if src < dst else self._near[dst * 64 + src]
        delta = 0.0
        for t in near:
            delta += self._threat_at(world, child, t) - self._threat_at(world, node, t)
        child.threat = node.threat + delta
        return child

    def _margin(self, node: _Node) -> float:
        me = self._me
        scores = node.scores
        best = 0.0
        for s in self._in_play:
            if s != me and node.owned[s] and scores[s] > best:
                best = scores[s]
        return scores[me] - best

    def _evaluate(self, world: _World, node: _Node) -> float:
        """The static value of ``node`` for this seat, in points (see the module)."""
        margin = self._margin(node)
        if margin >= RISIKO_POINTS / 2:
            return margin
        rs = self._ruleset
        assert rs is not None
        total = node.total
        value = margin
        if not self._closing_started:
            value -= self._threat_weight * node.threat
            value += self._army_weight * min(total, self._limit)
        if total > self._limit:
            value -= float(rs.army_limit_penalty)
        return value

    def _stop_value(self, world: _World, node: _Node) -> float:
        """The value of ending the attacks at ``node``: the card of a first conquest, and the
        closing roll (R2) when this turn rolls it."""
        value = self._evaluate(world, node)
        if value >= RISIKO_POINTS / 2:
            return value
        if node.conquests > 0 and not self._closing_started:
            value += self._card_points
        p = self._closing_p
        if p > 0.0 and node.conquests < self._skip:
            margin = self._margin(node)
            final = margin + (WIN_BONUS if margin > 0 else -WIN_BONUS)
            value = (1.0 - p) * value + p * final
        return value

    # ------------------------------------------------------------------ search
    def _gain(self, world: _World, node: _Node, dst: int) -> float:
        """A quick value of taking ``dst`` (to order the attacks): its points to this seat
        and to its owner."""
        me = self._me
        after_me = self._score(world, me, node.owned[me] | 1 << dst)
        owner = node.owner[dst]
        loss = node.scores[owner] - self._score(world, owner, node.owned[owner] & ~(1 << dst))
        return after_me - node.scores[me] + 0.5 * loss

    def _attacks(self, world: _World, node: _Node) -> list[tuple[float, int, int, int]]:
        """The node's legal attacks (R7, R8 with the bordering armies), best first: ``(quick
        value, source, target, support)``, at most :attr:`Level.width`."""
        me = self._me
        rs = self._ruleset
        assert rs is not None
        neigh = self._neighbours
        mine = node.owned[me]
        armies = node.armies
        out: list[tuple[float, int, int, int]] = []
        frontier = 0
        for t in iter_mask(mine):
            if armies[t] >= 2:
                frontier |= neigh[t]
        frontier &= ~mine
        owner = node.owner
        adj = self._adj
        for dst in iter_mask(frontier):
            bordering = 0
            for s in adj[dst]:
                if owner[s] == me:
                    bordering += armies[s]
            d = armies[dst]
            gain = -1.0
            for src in adj[dst]:
                a = armies[src]
                if a < 2 or owner[src] != me:
                    continue
                support = bordering - a
                p = self._p(a, d, support)
                if p <= 0.0:  # illegal (R7, R8): attack_odds gives 0
                    continue
                if gain < 0.0:
                    gain = self._gain(world, node, dst)
                out.append((p * gain, src, dst, support))
        out.sort(key=lambda x: (-x[0], x[1], x[2]))
        return out[:self.level.width]

    def _value(self, world: _World, node: _Node, depth: int) -> float:
        """Expectimax value of ``node`` with ``depth`` attacks left to plan."""
        best = self._stop_value(world, node)
        if depth <= 0 or best >= RISIKO_POINTS / 2:
            return best
        for _, src, dst, support in self._attacks(world, node):
            if self._budget <= 0:
                break
            v = self._attack_value(world, node, src, dst, support, depth)
            if v > best:
                best = v
        return best

    def _attack_value(self, world: _World, node: _Node, src: int, dst: int, support: int,
                      depth: int) -> float:
        self._budget -= 1
        rs = self._ruleset
        assert rs is not None
        total = 0.0
        for conquered, a_left, d_left, p in outcomes(node.armies[src], node.armies[dst], rs,
                                                     support):
            child = self._child(world, node, src, dst, conquered, a_left, d_left)
            total += p * self._value(world, child, depth - 1)
        return total

    # ------------------------------------------------------------------ decisions
    def _setup(self, view: SeatView) -> list[_World]:
        self._me = view.seat
        rs = view.ruleset
        if rs is not self._ruleset:
            self._p_cache = {}
            self._ruleset = rs
        neighbours = tuple(view.neighbours)
        if neighbours != self._neighbours:
            self._neighbours = neighbours
            self._adj = [list(iter_mask(m)) for m in neighbours]
            near: dict[int, tuple[int, ...]] = {}
            for a in range(len(neighbours)):
                for b in iter_mask(neighbours[a]):
                    if a < b:
                        near[a * 64 + b] = tuple(
                            iter_mask(neighbours[a] | neighbours[b] | 1 << a | 1 << b))
            self._near = near
        self._in_play = [s for s in range(len(view.players)) if view.status[s] == "in_play"]
        k = view.closing_band_round
        self._closing_p = 0.0 if k is None else closing_probability(rs, k)
        self._closing_started = view.last_round is not None and view.round >= view.last_round
        self._limit = rs.army_limit if rs.army_limit is not None else 1_000_000
        self._skip = rs.closing_skip_if_conquered
        return self._worlds(view)

    def _root(self, view: SeatView, world: _World, armies: list[int] | None = None,
              conquests: int | None = None) -> _Node:
        """The view's board as a search node in ``world`` (``armies`` in place of the
        board's, ``conquests`` in place of the turn's)."""
        return self._make_node(
            world, list(view.armies) if armies is None else armies, list(view.owner),
            list(view.owned), view.conquests if conquests is None else conquests)

    def act(self, view: SeatView) -> Action:
        """The next action of the seat of ``view`` (see the module). With a
        :attr:`Level.prior`, the prior level's bot decides first and this level's search
        overrides its attack, placement or move only when it values its own choice more by
        :attr:`Level.override_margin` points."""
        phase = view.phase
        prior = self._prior.act(view) if self._prior is not None else None
        if phase == "reinforce":
            trade = self._heuristic._trade(view)
            if trade is not None:
                return trade
            base = prior.territory if isinstance(prior, Place) else None
            return Place(self._placement(view, view.pending, base), view.pending)
        if phase == "setup":
            base = prior.territory if isinstance(prior, Place) else None
            return Place(self._placement(view, view.step_left, base), view.step_left)
        if phase == "move":
            return self._move(view, prior.armies if isinstance(prior, Move) else None)
        if view.penalised_turn:
            return EndTurn()
        if self._prior is None:
            attack = self._attack(view)
        else:
            attack = self._attack(view, True, prior if isinstance(prior, Attack) else None)
        if attack is not None:
            return attack
        fortify = self._heuristic._fortify(view)
        return fortify if fortify is not None else EndTurn()

    def _overrides(self, own: float, base: float, worlds: int) -> bool:
        """Whether the search's own choice, valued ``own`` (summed over ``worlds``), replaces
        the prior's, valued ``base``."""
        return own > base + self.level.override_margin * worlds + 1e-9

    def _attack(self, view: SeatView, has_prior: bool = False,
                prior: Attack | None = None) -> Attack | None:
        """The attack to make, or ``None`` to stop; with ``has_prior``, ``prior`` (the prior
        level's attack, ``None``: it stops) unless the search clearly prefers another."""
        legal = view.legal_attacks()
        if not legal:
            return None
        worlds = self._setup(view)
        totals: dict[tuple[int, int], float] = {}
        stop = 0.0
        base = None if prior is None else (prior.source, prior.target)
        for world in worlds:
            root = self._root(view, world)
            self._budget = self.level.nodes
            stop += self._stop_value(world, root)
            tried = self._attacks(world, root)
            if base is not None:
                # the prior's attack is valued first, whatever the budget
                tried = [(0.0, base[0], base[1], view.support(base[0], base[1]))] + [
                    x for x in tried if (x[1], x[2]) != base]
            for _, src, dst, support in tried:
                if self._budget <= 0:
                    break
                v = self._attack_value(world, root, src, dst, support, self.level.depth)
                totals[(src, dst)] = totals.get((src, dst), 0.0) + v
        best: tuple[int, int] | None = None
        best_value = stop
        for pair in sorted(totals):
            if totals[pair] > best_value + 1e-9:
                best, best_value = pair, totals[pair]
        if has_prior and best != base:
            base_value = stop if base is None else totals.get(base, stop)
            if not self._overrides(best_value, base_value, len(worlds)):
                return prior
        if best is None or best not in legal:
            return None
        return Attack(best[0], best[1])

    def _staging(self, root: _Node, world0: _World, amount: int) -> list[int]:
        """This seat's territories with an enemy beside them, best first, for placing
        ``amount`` armies (the best single attack they would then make: chance of conquest
        x gain, plus 0.1 a army the strongest enemy beside them has over them; ties by
        territory index)."""
        me = self._me
        neigh = self._neighbours
        mine = root.owned[me]
        ranked: list[tuple[float, int]] = []
        for t in iter_mask(mine):
            enemies = neigh[t] & ~mine
            if not enemies:
                continue
            a = root.armies[t] + amount
            best = 0.0
            danger = 0
            for e in iter_mask(enemies):
                g = self._p(a, root.armies[e], 0) * self._gain(world0, root, e)
                if g > best:
                    best = g
                danger = max(danger, root.armies[e])
            ranked.append((best + 0.1 * max(0, danger - root.armies[t]), t))
        ranked.sort(key=lambda x: (-x[0], x[1]))
        return [t for _, t in ranked]

    def _placement_values(self, view: SeatView, worlds: list[_World], root: _Node,
                          candidates: list[int], amount: int) -> dict[int, float]:
        """Each candidate territory's value summed over ``worlds``: ``amount`` armies
        placed on it, then searched one attack less deep than the level."""
        depth = max(1, self.level.depth - 1)
        values: dict[int, float] = {}
        for world in worlds:
            self._budget = self.level.nodes
            for t in candidates:
                armies = root.armies.copy()
                armies[t] += amount
                node = self._root(view, world, armies, 0)
                values[t] = values.get(t, 0.0) + self._value(world, node, depth)
        return values

    def _placement(self, view: SeatView, amount: int, prior: int | None = None) -> int:
        """The territory to place ``amount`` armies on; ``prior`` (the prior level's) unless
        the search clearly prefers another."""
        worlds = self._setup(view)
        root = self._root(view, worlds[0])
        ranked = self._staging(root, worlds[0], amount)
        if not ranked:
            if prior is not None:
                return prior
            return max(iter_mask(root.owned[self._me]), key=lambda t: (view.armies[t], -t))
        candidates = ranked[:self.level.placements]
        if prior is not None:
            candidates = [prior] + [t for t in candidates if t != prior]
        values = self._placement_values(view, worlds, root, candidates, amount)
        choice = max(candidates, key=lambda t: (values[t], -t))
        if prior is not None and choice != prior and not self._overrides(
                values[choice], values[prior], len(worlds)):
            return prior
        return choice

    def _move(self, view: SeatView, prior: int | None = None) -> Move:
        """The armies to move in after a conquest; ``prior`` (the prior level's) unless the
        search clearly prefers another amount."""
        span = view.move_range
        assert span is not None
        least, most, src, dst = span
        worlds = self._setup(view)
        root = self._root(view, worlds[0])
        on_src = root.armies[src]
        on_dst = root.armies[dst]  # the dice already moved in: least
        options = sorted({least, most, max(least, (least + most + 1) // 2)}
                         | ({prior} if prior is not None else set()))
        depth = max(1, self.level.depth - 1)
        values: dict[int, float] = {}
        for world in worlds:
            self._budget = self.level.nodes
            for m in options:
                armies = root.armies.copy()
                armies[src] = on_src - (m - least)
                armies[dst] = on_dst + (m - least)
                node = self._root(view, world, armies)
                values[m] = values.get(m, 0.0) + self._value(world, node, depth)
        choice = max(options, key=lambda m: (values[m], m))
        if prior is not None and choice != prior and not self._overrides(
                values[choice], values[prior], len(worlds)):
            return Move(prior)
        return Move(choice)


@register("greedy")
def _make_greedy(rng: random.Random) -> SearchAgent:
    return SearchAgent(LEVEL_3, rng)


@register("expectimax")
def _make_expectimax(rng: random.Random) -> SearchAgent:
    return SearchAgent(LEVEL_EXPECTIMAX, rng)

