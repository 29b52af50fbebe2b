"""Per-seat views: what one seat may see of a game (hidden information kept hidden).

A seat sees the whole board, every seat's card count and status, its own objective and its
own cards; other seats' objectives and cards are hidden. Bots receive only a :class:`SeatView`.
The view reads the live game (no copy), so it is cheap to make each turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import rules
from .actions import LegalActions
from .board import Mask, Territory, iter_mask, territory_name
from .objectives import Objective
from .ruleset import Ruleset
from .state import Phase, SeatStatus

if TYPE_CHECKING:
    from .game import ClosingRoll, Game


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
