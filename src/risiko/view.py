"""Per-seat views: what one seat may see of a game (hidden information kept hidden).

A seat sees the whole board, every seat's card count and status, its own objective and its
own cards, and the public history (every action as the table saw it: the dice, the sets
traded); other seats' objectives and cards, the deck's order and the table's seed are hidden.
Bots receive only a :class:`SeatView`. The view reads the live game (no copy), so it is cheap
to make each turn.

:meth:`SeatView.determinise` builds a whole :class:`~risiko.game.Game` a bot may search on:
the public state as it is, the hidden part (other seats' objectives and hands, the deck)
drawn at random consistently with what is public.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from . import rules
from .actions import Action, Attack, LegalActions, Move, Trade
from .board import Mask, Territory, iter_mask, territory_name
from .cards import NUM_CARDS
from .dice import SeededChance
from .objectives import OBJECTIVES, Objective
from .ruleset import Ruleset
from .state import Phase, SeatStatus

if TYPE_CHECKING:
    from .game import ClosingRoll, Game

#: how much likelier a seat is to attack a territory of its own objective than another one
#: (the likelihood ratio of one attacked target, used to weight the objectives a seat may
#: hold; the heuristic bot values its objective's territories 4 to 1, tempered here since
#: attacks also follow the board). Measured on 30 games of 4 heuristic bots: the true
#: objective's share of the weights after round 4 is 0.24 with 3.0 (0.20 with 1.6, 0.07
#: without the history)
TARGET_RATIO: Final = 3.0


class SeatView:
    """The game as seen by ``seat`` (0-based). Sequences are read-only views of live state."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        if not 0 <= seat < game.n:
            raise ValueError(f"no seat {seat + 1} at this table")
        self._game = game
        self.seat = seat

    # public information
    @property
    def ruleset(self) -> Ruleset:
        """The ruleset of the table."""
        return self._game.ruleset

    @property
    def neighbours(self) -> Sequence[Mask]:
        """Neighbour mask of each territory on the table's board."""
        return self._game.state.neighbours

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self._game.players

    @property
    def owner(self) -> Sequence[int]:
        """Seat owning each territory."""
        return self._game.state.owner

    @property
    def armies(self) -> Sequence[int]:
        """Armies on each territory."""
        return self._game.state.armies

    @property
    def owned(self) -> Sequence[Mask]:
        """Territory mask of each seat."""
        return self._game.state.owned

    @property
    def totals(self) -> Sequence[int]:
        """Armies on the board of each seat."""
        return self._game.state.totals

    @property
    def status(self) -> Sequence[SeatStatus]:
        """``in_play``, ``eliminated`` or ``abandoned`` per seat."""
        return self._game.state.status

    @property
    def card_counts(self) -> list[int]:
        """Cards in hand per seat (the cards themselves are hidden)."""
        return [len(h) for h in self._game.hands]

    @property
    def phase(self) -> Phase:
        """Phase of the game."""
        return self._game.state.phase

    @property
    def to_act(self) -> int | None:
        """Seat to act."""
        return self._game.to_act

    @property
    def round(self) -> int:
        """Round in progress (0 during setup)."""
        return self._game.state.round

    @property
    def last_round(self) -> int | None:
        """The LAST round once the last 2 rounds are called (R2)."""
        return self._game.state.last_round

    @property
    def closing_rolls(self) -> Sequence[ClosingRoll]:
        """Closing rolls so far."""
        return self._game.closing_rolls

    @property
    def closing_band_round(self) -> int | None:
        """The closing round whose band (R2) this turn's closing roll uses (the closing round
        plus the referee's widenings), None before the closing."""
        k = self._game.closing_round_of_turn()
        return None if k is None else k + self._game.state.widened

    @property
    def deck_size(self) -> int:
        """Cards left in the deck (public: 44 less the cards in hands)."""
        return len(self._game.state.deck)

    @property
    def history(self) -> list[tuple[int | None, Action]]:
        """The public history: every action in the order played, as ``(seat, action)``
        (0-based seat; None for the referee's), with the dice rolled and the sets traded, as
        every seat saw them. The cards drawn are not in it (they are hidden)."""
        g = self._game
        return list(zip(g.acted_by(), g.history, strict=True))

    def known_deck_bottom(self) -> list[int]:
        """The cards known to lie at the bottom of the deck, top to bottom: the deck is always
        the last :attr:`deck_size` cards of (the deck at the start, then every traded set in
        the order traded: R9 puts them at the bottom, draws take the top), so its last
        cards are the last traded ones still in it."""
        traded = [c for action in self._game.history if type(action) is Trade
                  for c in action.cards]
        n = min(len(traded), self.deck_size)
        return traded[len(traded) - n:] if n else []

    def attack_targets(self) -> list[list[int]]:
        """Per seat, the territories it attacked in the public history, in order: one entry
        per run of rolls of that seat on one target (a territory attacked again later counts
        again)."""
        g = self._game
        out: list[list[int]] = [[] for _ in range(g.n)]
        last = -1
        history = g.history
        for i, by in enumerate(g.acted_by()):
            action = history[i]
            if type(action) is Attack:
                if by is not None and action.target != last:
                    out[by].append(action.target)
                last = action.target
            elif type(action) is not Move:
                last = -1
        return out

    def objective_weights(
        self, seat: int, targets: Sequence[int] | None = None
    ) -> list[float]:
        """Weights (not normalised) of the 16 objectives (index = number - 1) for ``seat``'s
        objective, from public facts only (``targets``: the seat's attacked targets, by default
        :meth:`attack_targets`'s). This view's own seat: 1 on its objective, 0 elsewhere.
        Another seat: 0 on this seat's objective (no two seats hold the same one), else the
        likelihood of its ``c`` attacked targets of which ``k`` lie inside the objective,
        ``p ** k * (1 - p) ** (c - k)``, where a target falls inside a ``size``-territory
        objective with ``p = r * size / (r * size + 42 - size)``, ``r`` = :data:`TARGET_RATIO`.

        >>> from risiko.game import Game
        >>> view = SeatView(Game.new(["A", "B", "C"], seed=1), 0)
        >>> w = view.objective_weights(1)           # no conquest yet: the 15 others alike
        >>> sorted(set(w)), w.index(0.0) + 1 == view.objective.number
        ([0.0, 1.0], True)
        """
        mine = self.objective.number - 1
        if seat == self.seat:
            return [1.0 if i == mine else 0.0 for i in range(len(OBJECTIVES))]
        if targets is None:
            targets = self.attack_targets()[seat]
        out: list[float] = []
        total = len(self._game.state.owner)
        for i, obj in enumerate(OBJECTIVES):
            if i == mine:
                out.append(0.0)
                continue
            size = obj.mask.bit_count()
            p_in = TARGET_RATIO * size / (TARGET_RATIO * size + total - size)
            k = sum(1 for t in targets if obj.mask >> t & 1)
            out.append(math.exp(k * math.log(p_in) + (len(targets) - k) * math.log(1 - p_in)))
        return out

    def determinise(self, rng: random.Random) -> Game:
        """A game to search on: the public state of this game, with its hidden part drawn
        from ``rng`` consistently with what this seat sees (a new game with no history, so
        nothing hidden can be read back from it, and its own seeded chance from ``rng``).

        - other seats' objectives: drawn without repeats, seat by seat, each by
          :meth:`objective_weights` (never this seat's own);
        - other seats' hands (as many cards as each holds) and the deck (as many cards as it
          holds, :meth:`known_deck_bottom` kept at its bottom): a shuffle of the cards this
          seat cannot place.

        The same view and the same ``rng`` state give the same game; nothing hidden is read.
        """
        from .game import Game

        g = self._game
        st = g.state.copy()
        n = st.n
        objectives = list(st.objectives)
        taken = {self.objective.number}
        attacked = self.attack_targets()
        for s in range(n):
            if s == self.seat:
                continue
            weights = self.objective_weights(s, attacked[s])
            for number in taken:
                weights[number - 1] = 0.0
            if sum(weights) <= 0.0:
                weights = [0.0 if i + 1 in taken else 1.0 for i in range(len(OBJECTIVES))]
            pick = rng.choices(range(len(OBJECTIVES)), weights=weights)[0]
            objectives[s] = OBJECTIVES[pick]
            taken.add(pick + 1)
        st.objectives = tuple(objectives)
        bottom = self.known_deck_bottom()
        own = set(st.hands[self.seat]) | set(bottom)
        pool = [c for c in range(NUM_CARDS) if c not in own]
        rng.shuffle(pool)
        k = 0
        for s in range(n):
            if s == self.seat:
                continue
            count = len(st.hands[s])
            st.hands[s] = pool[k:k + count]
            k += count
        st.deck = pool[k:] + bottom
        return Game.from_state(st, chance=SeededChance(rng.getrandbits(64)))

    # the seat's own state
    @property
    def objective(self) -> Objective:
        """This seat's secret objective."""
        return self._game.objectives[self.seat]

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards."""
        return tuple(self._game.state.hands[self.seat])

    @property
    def card_count(self) -> int:
        """How many cards this seat holds."""
        return len(self._game.state.hands[self.seat])

    @property
    def my_territories(self) -> Mask:
        """This seat's territory mask."""
        return self._game.state.owned[self.seat]

    @property
    def pending(self) -> int:
        """Reinforcements still to place (only meaningful on this seat's turn)."""
        st = self._game.state
        return st.pending if st.seat == self.seat else 0

    @property
    def step_left(self) -> int:
        """Armies left in this initial-placement step."""
        st = self._game.state
        return st.step_left if st.seat == self.seat else 0

    @property
    def move_range(self) -> tuple[int, int, Territory, Territory] | None:
        """(least, most, source, target) of the pending conquest move, or None."""
        st = self._game.state
        if st.phase is not Phase.MOVE or st.seat != self.seat:
            return None
        least = st.move_min
        return least, least + st.armies[st.move_from] - 1, st.move_from, st.move_to

    @property
    def conquests(self) -> int:
        """Territories conquered in the current turn."""
        return self._game.conquests if self._game.seat == self.seat else 0

    @property
    def penalised_turn(self) -> bool:
        """True during a late seat's penalised turn (R3)."""
        return self._game.penalised_turn and self._game.seat == self.seat

    def room(self) -> int:
        """Armies this seat may add before the army limit (R4)."""
        return rules.room(self._game.state, self.seat)

    def bordering(self, target: Territory) -> int:
        """The R8 sum: this seat's armies on all its territories bordering ``target``."""
        return self._game.bordering(self.seat, target)

    def support(self, source: Territory, target: Territory) -> int:
        """This seat's armies on its territories bordering ``target`` other than ``source``
        (what ``risiko odds --support`` takes)."""
        return self._game.bordering(self.seat, target) - self._game.armies[source]

    def legal_actions(self) -> LegalActions:
        """The legal actions of this seat (empty when it is not its turn)."""
        if self._game.to_act != self.seat:
            return LegalActions([])
        return self._game.legal_actions()

    def legal_attacks(self) -> list[tuple[Territory, Territory]]:
        """Attacks this seat may make now (empty when it is not its turn)."""
        if self._game.seat != self.seat:
            return []
        return self._game.legal_attacks()

    def sample_attack(self, random: Callable[[], float]) -> tuple[Territory, Territory] | None:
        """A uniformly random legal attack of this seat, drawn without listing them (see
        :func:`risiko.rules.sample_attack`; ``random`` gives floats in [0, 1)); None when it
        has none or it is not its turn."""
        if self._game.state.seat != self.seat:
            return None
        return rules.sample_attack(self._game.state, random)

    def legal_fortifies(self) -> list[tuple[Territory, Territory]]:
        """Strategic moves (source, target) this seat may make now."""
        if self._game.seat != self.seat:
            return []
        return self._game.legal_fortifies()

    def sample_fortify(
        self, random: Callable[[], float]
    ) -> tuple[Territory, Territory, int] | None:
        """A uniformly random legal strategic move of this seat, ``(source, target, most)``
        (any amount from 1 to ``most``), drawn without listing them (see
        :func:`risiko.rules.sample_fortify`); None when it has none or it is not its turn."""
        if self._game.state.seat != self.seat:
            return None
        return rules.sample_fortify(self._game.state, random)

    def can_fortify(self, source: Territory, target: Territory, armies: int) -> bool:
        """True when this strategic move is legal now."""
        return self._game.seat == self.seat and (
            self._game.fortify_fault(source, target, armies) is None
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the view: the board, counts, and this seat's own secrets."""
        g = self._game
        return {
            "seat": self.seat + 1,
            "player": g.players[self.seat],
            "phase": str(g.phase),
            "round": g.round,
            "to_act": None if g.to_act is None else g.to_act + 1,
            "objective": {"number": self.objective.number, "name": self.objective.name},
            "hand": list(self.hand),
            "card_counts": self.card_counts,
            "territories": [
                {"name": territory_name(t), "owner": g.players[g.owner[t]], "armies": g.armies[t]}
                for t in range(len(g.owner))
            ],
            "mine": [territory_name(t) for t in iter_mask(self.my_territories)],
        }
