"""The top level, 5 = ``rollout``: policy improvement by rollouts, level 4's choices
(:mod:`.top`) and the heuristic bot's, checked by playing the game on in determinised worlds
(issue 19 §1; its figures against three ``heuristic`` bots and against three level-4 bots
in docs/benchmarks.md, "Bots by level").

At the decisions that matter - attack or stop and which attack, the armies moved in after a
conquest, the territory the reinforcements go to - the bot lists a few candidates, level 4's
choice (with :attr:`RolloutLevel.searched`; else the heuristic bot's) first and the
heuristic bot's own choice always among them, and plays each on in the same
:attr:`RolloutLevel.worlds` determinised games (:meth:`risiko.view.SeatView.determinise`:
other seats' objectives drawn from their attacks, hands and deck shuffled; the public board
as it is), every seat (this one too, after the candidate) played by the heuristic bot: the
rest of this turn, the other seats' turns, and :attr:`RolloutLevel.rounds` more turns of
this seat's each followed by the others', up to the start of its next one (or to the game's
end, the closing dice included). A candidate's value is the mean over the worlds of this
seat's table score less the best other seat's (R16, R15, R5), plus :data:`WIN_POINTS` times
its share of the win when the game ended by the closing dice (R2); a RisiKo! (R1) is
:data:`RISIKO_VALUE`, this seat's, or minus that, another's. Every candidate meets the same
worlds and the same dice (common random numbers: one seed a world), so the comparison is
between the candidates, not between the worlds' luck. The first candidate wins the ties and
is left only for a candidate better by :attr:`RolloutLevel.margin` points on average.

Budgets are counted in rollouts (candidates x worlds, at most :attr:`RolloutLevel.rollouts`
a decision) and in rounds, never in time: the same view and rng state give the same action
whatever the machine's load. The decision reads the seat's view only
(:class:`~risiko.view.SeatView`); hidden information is sampled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from ..actions import Action, Attack, EndTurn, Move, Place
from ..board import iter_mask
from ..dice import SeededChance
from ..game import OVER, Game
from ..view import SeatView
from .base import register
from .heuristic import HeuristicAgent, _p_conquer
from .top import LEVEL_DETERMINISED, TopAgent

#: the points of a whole win when a rollout reaches the game's end (over the final margin)
WIN_POINTS: Final = 30.0
#: the value of a rollout ending in RisiKo! (R1): this seat's (minus: another seat's),
#: whatever the scores, above any margin and win by the closing dice
RISIKO_VALUE: Final = 200.0


@dataclass(frozen=True)
class RolloutLevel:
    """A rollout bot's budget: ``worlds`` determinised games per decision, each candidate
    played on to the start of this seat's turn after ``rounds`` more of its turns (0: its
    next turn; ``None``: to the game's end);
    ``attacks`` attacks tried besides the heuristic's (the best by the heuristic's own
    value, at least ``least_p`` likely to conquer), ``placements`` staging territories
    besides the heuristic's; ``margin`` the mean points a candidate must gain over the
    heuristic's choice; ``rollouts`` the most rollouts of one decision (candidates are cut
    to fit); ``moves``/``places`` whether the conquest move and the placement are checked;
    ``searched``: level 4's choice (:class:`~.top.TopAgent`'s search) is the one to beat,
    the heuristic's another candidate."""

    name: str
    worlds: int = 8
    rounds: int | None = 1
    attacks: int = 2
    least_p: float = 0.3
    placements: int = 2
    margin: float = 0.5
    rollouts: int = 40
    moves: bool = True
    places: bool = True
    searched: bool = False


#: level 5's budget: 8 worlds, 40 rollouts a decision, each played on to the start of this
#: seat's next turn (``rounds=0``: 44.8 % of 400 games against three ``heuristic`` bots, 7
#: points more than one more round on the same games; 30.4 % against three level-4 bots;
#: 1.5 CPU s a 4-seat game among heuristic bots in the compiled build: docs/benchmarks.md,
#: "Level 5 by rollouts")
LEVEL_ROLLOUT: Final = RolloutLevel("rollout", rounds=0, searched=True)


class RolloutAgent:
    """The ``rollout`` bot (see the module); ``level`` its budget (:data:`LEVEL_ROLLOUT`),
    ``rng`` draws the worlds."""

    legal_only = False

    def __init__(self, level: RolloutLevel = LEVEL_ROLLOUT,
                 rng: random.Random | None = None) -> None:
        self.level = level
        self.name = level.name
        self.rng = rng or random.Random()
        self._heuristic = HeuristicAgent(self.rng)
        self._search = TopAgent(LEVEL_DETERMINISED, self.rng) if level.searched else None
        #: rollouts played (all decisions): what the budget counts
        self.rollouts = 0

    # ------------------------------------------------------------------ decisions
    def act(self, view: SeatView) -> Action:
        """The next action of the seat of ``view`` (see the module)."""
        h = self._heuristic
        search = self._search
        phase = view.phase
        if phase == "reinforce":
            trade = h._trade(view)
            if trade is not None:
                return trade
            own_place = Place(h._placement(view), view.pending)
            if not self.level.places:
                return own_place
            hint_place = own_place
            if search is not None:
                hint_place = Place(search._placement(view, view.pending), view.pending)
            others = self._placements(view, hint_place)
            if own_place != hint_place and own_place not in others:
                others.insert(0, own_place)
            return self._choose(view, hint_place, others)
        if phase == "move":
            hint_move = h._move(view) if search is None else search._move(view)
            span = view.move_range
            assert span is not None
            least, most, _, _ = span
            if not self.level.moves or most == least:
                return hint_move
            moves: list[Action] = [Move(m) for m in sorted(
                {least, most, max(least, (least + most + 1) // 2)}) if m != hint_move.armies]
            return self._choose(view, hint_move, moves)
        if phase == "attack" and not view.penalised_turn:
            own = h.act(view)
            hint = own if search is None else search.act(view)
            candidates = self._attack_candidates(view, hint)
            if own != hint and own not in candidates:
                candidates.insert(0, own)
            return self._choose(view, hint, candidates)
        return h.act(view)

    def _attack_candidates(self, view: SeatView, hint: Action) -> list[Action]:
        """Besides ``hint``: stopping (the heuristic's strategic move or the end of the
        turn) when ``hint`` attacks, and the :attr:`RolloutLevel.attacks` best other attacks
        by the heuristic's value (chance of conquest x the target's worth)."""
        legal = view.legal_attacks()
        if not legal:
            return []
        h = self._heuristic
        out: list[Action] = []
        if isinstance(hint, Attack):
            fortify = h._fortify(view)
            out.append(fortify if fortify is not None else EndTurn())
        rs = view.ruleset
        armies = view.armies
        ranked: list[tuple[float, int, int]] = []
        for src, dst in legal:
            if isinstance(hint, Attack) and (src, dst) == (hint.source, hint.target):
                continue
            p = _p_conquer(armies[src], armies[dst], rs, view.support(src, dst))
            if p < self.level.least_p:
                continue
            ranked.append((-p * h._value(view, dst), src, dst))
        ranked.sort()
        out.extend(Attack(src, dst) for _, src, dst in ranked[:self.level.attacks])
        return out

    def _placements(self, view: SeatView, hint: Place) -> list[Action]:
        """Besides ``hint``: the staging territories of the heuristic's next best targets
        (value per defending army, :meth:`HeuristicAgent._value`)."""
        h = self._heuristic
        mine = view.my_territories
        neigh = view.neighbours
        armies = view.armies
        best: dict[int, float] = {}
        for t in iter_mask(view.ruleset.board.frontier(mine)):
            stage = max(iter_mask(neigh[t] & mine), key=lambda s: (armies[s], -s))
            score = h._value(view, t) / (armies[t] + 1)
            if score > best.get(stage, -1.0):
                best[stage] = score
        ranked = sorted((-v, s) for s, v in best.items() if s != hint.territory)
        return [Place(s, hint.armies) for _, s in ranked[:self.level.placements]]

    # ------------------------------------------------------------------ rollouts
    def _choose(self, view: SeatView, hint: Action, others: list[Action]) -> Action:
        """``hint`` unless a candidate of ``others`` is better by the level's margin, each
        played on in the same determinised worlds with the same dice."""
        if not others:
            return hint
        level = self.level
        worlds = level.worlds
        most = max(1, level.rollouts // worlds - 1)
        candidates = [hint, *others[:most]]
        totals = [0.0] * len(candidates)
        me = view.seat
        for _ in range(worlds):
            world = view.determinise(self.rng)
            seed = self.rng.getrandbits(64)
            for i, action in enumerate(candidates):
                game = world.copy(chance=SeededChance(seed))
                totals[i] += self._rollout(game, action, me)
        best = 0
        for i in range(1, len(candidates)):
            if totals[i] > totals[best] + (level.margin * worlds if best == 0 else 1e-9):
                best = i
        return candidates[best]

    def _rollout(self, game: Game, action: Action, me: int) -> float:
        """``action``, then every seat by the heuristic bot to the horizon: this seat's
        value at its end (see the module)."""
        self.rollouts += 1
        game.push(action)
        h = self._heuristic
        views = [SeatView(game, s) for s in range(game.n)]
        rounds = self.level.rounds
        st = game.state
        over = OVER
        push = game.push
        act = h.act
        turns = 0
        last = me
        for _ in range(100_000):
            if st.phase is over:
                break
            seat = st.seat
            if seat == me and last != me:  # a new turn of this seat
                turns += 1
                if rounds is not None and turns > rounds:
                    break
            last = seat
            push(act(views[seat]))
            st = game.state
        if st.risiko_seat is not None:  # R1: the game, whatever the scores
            return RISIKO_VALUE if st.risiko_seat == me else -RISIKO_VALUE
        scores = [s.score for s in game.scores()]
        mine = scores[me]
        best_other = max(v for s, v in enumerate(scores) if s != me)
        value = float(mine - best_other)
        if st.phase is over and mine >= best_other:
            value += WIN_POINTS / scores.count(mine)
        return value


@register("rollout")
def _make_rollout(rng: random.Random) -> RolloutAgent:
    return RolloutAgent(LEVEL_ROLLOUT, rng)
