"""The state of one table, as a value: who holds what, whose turn, which phase.

:class:`State` is everything the rules need to go on from here (and nothing about chance,
which is given to the game: a state continues identically under the same dice). The rules
are functions over it (:mod:`risiko.rules`); :class:`risiko.game.Game` is the door that
checks actions, draws chance and keeps the history.

The enums are ``StrEnum`` over the strings the JSON has always used, so ``Phase.ATTACK ==
"attack"`` and ``json.dumps`` writes ``"attack"``:

>>> Phase.ATTACK == "attack", str(SeatStatus.ELIMINATED), EndReason("closing_dice").name
(True, 'eliminated', 'CLOSING_DICE')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .board import Mask
from .objectives import Objective
from .ruleset import Ruleset


class Phase(StrEnum):
    """The phase of a game (what the seat to act may do)."""

    #: seats place their initial armies, ``setup_step`` (3) at a time, in seat order
    SETUP = "setup"
    #: card sets (R9) and reinforcements to place
    REINFORCE = "reinforce"
    #: rolls (R7/R8 before each), then a strategic move or the end of the turn
    ATTACK = "attack"
    #: after a conquest: the armies moved in
    MOVE = "move"
    #: the game has ended
    OVER = "over"


class SeatStatus(StrEnum):
    """A seat in play, eliminated (no territory left), or gone from the game (R13)."""

    IN_PLAY = "in_play"
    ELIMINATED = "eliminated"
    ABANDONED = "abandoned"


class EndReason(StrEnum):
    """How a game ended."""

    #: a seat completed its objective (R1)
    RISIKO = "risiko"
    #: a closing roll fell in the band (R2)
    CLOSING_DICE = "closing_dice"
    #: the referee stopped the game (R2)
    REFEREE = "referee"
    #: one seat left in play
    ALL_OTHERS_ELIMINATED = "all_others_eliminated"


#: the clauses under which armies are forfeited, in the order of ``State.forfeited``:
#: R3 (a late seat's penalised turns), R4 (the army limit), R11 (a turn that timed out)
FORFEIT_CLAUSES: tuple[str, str, str] = ("R3", "R4", "R11")
R3: Final = 0
R4: Final = 1
R11: Final = 2


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``end`` (an :class:`EndReason`), ``rounds`` played (the round in
    progress counts), ``winner`` (player name, None on a tie for the best score), ``reason``
    text."""

    end: EndReason
    rounds: int
    winner: str | None
    reason: str = ""


@dataclass(frozen=True)
class ClosingRoll:
    """One closing-dice turn (R2): ``sum`` None when the seat may not roll (3+ conquests);
    ``dice`` as rolled or entered."""

    seat: int
    player: str
    closing_round: int
    sum: int | None
    closed: bool
    conquests: int
    dice: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{seat, player, closing_round, sum, closed, conquests}`` (a contract)."""
        return {
            "seat": self.seat + 1,
            "player": self.player,
            "closing_round": self.closing_round,
            "sum": self.sum,
            "closed": self.closed,
            "conquests": self.conquests,
        }


#: the fields of a :class:`State` (its ``__slots__``), named once here so that the copy and
#: ``==`` follow them (the compiled build, mypyc, cannot read ``__slots__`` back)
SLOTS: tuple[str, ...] = (
    "adjacency",
    "armies",
    "closing_anchor",
    "closing_round",
    "conquests",
    "deck",
    "forfeited",
    "hands",
    "last_round",
    "last_rounds_at",
    "late_left",
    "move_from",
    "move_min",
    "move_to",
    "n",
    "neighbours",
    "objectives",
    "outcome",
    "owned",
    "owner",
    "penalised",
    "pending",
    "phase",
    "players",
    "risiko_seat",
    "round",
    "ruleset",
    "seat",
    "setup_left",
    "status",
    "step_left",
    "totals",
    "widened",
)


class State:
    """One table's state. Seats are 0-based; territories and cards are ints (see
    :mod:`risiko.board`, :mod:`risiko.cards`).

    Board: ``owner`` and ``armies`` (per territory), ``owned`` (territory mask per seat),
    ``totals`` (armies per seat). Cards: ``hands`` (per seat), ``deck`` (top first; traded
    cards go to the bottom). Seats: ``status`` (:class:`SeatStatus`), ``objectives``,
    ``late_left`` (penalised turns still to serve, R3), ``setup_left`` (initial armies still
    to place), ``forfeited`` (armies lost per seat under R3, R4, R11: ``FORFEIT_CLAUSES``).
    Turn: ``phase``, ``seat`` (to act), ``round`` (0 in setup), ``step_left`` (armies left in
    this setup step), ``pending`` (reinforcements to place), ``conquests`` (this turn),
    ``penalised`` (this turn is a late seat's, R3), ``move_from``/``move_to``/``move_min``
    (the conquest waiting for armies, -1 when none). Closing (R2): ``last_round`` (None until
    the call), ``last_rounds_at`` (automatic call), ``closing_anchor`` (the seat whose turn
    closed the LAST round and opened closing round 1, -1 until then), ``closing_round`` (of
    the last closing turn, 0 before the closing), ``widened`` (the referee's accelerations). End:
    ``risiko_seat``, ``outcome``.

    The lists are the state's own: :meth:`copy` copies them all; two states are equal when
    every field is.
    """

    __slots__ = SLOTS

    ruleset: Ruleset
    players: tuple[str, ...]
    n: int
    objectives: tuple[Objective, ...]
    neighbours: tuple[Mask, ...]
    adjacency: tuple[tuple[int, ...], ...]
    owner: list[int]
    armies: list[int]
    owned: list[Mask]
    totals: list[int]
    hands: list[list[int]]
    deck: list[int]
    status: list[SeatStatus]
    late_left: list[int]
    setup_left: list[int]
    forfeited: list[list[int]]
    phase: Phase
    seat: int
    round: int
    step_left: int
    pending: int
    conquests: int
    penalised: bool
    move_from: int
    move_to: int
    move_min: int
    last_round: int | None
    last_rounds_at: int | None
    closing_anchor: int
    closing_round: int
    widened: int
    risiko_seat: int | None
    outcome: Outcome | None

    def copy(self) -> State:
        """An independent copy (lists copied; the ruleset, board tables and objectives are
        immutable and shared)."""
        new = State()
        for name in _SCALARS:
            setattr(new, name, getattr(self, name))
        new.owner = self.owner.copy()
        new.armies = self.armies.copy()
        new.owned = self.owned.copy()
        new.totals = self.totals.copy()
        new.hands = [h.copy() for h in self.hands]
        new.deck = self.deck.copy()
        new.status = self.status.copy()
        new.late_left = self.late_left.copy()
        new.setup_left = self.setup_left.copy()
        new.forfeited = [f.copy() for f in self.forfeited]
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<State {self.phase} seat {self.seat + 1} round {self.round} "
            f"of {'|'.join(self.players)}>"
        )

    def in_play(self) -> list[int]:
        """Seats still in play (neither eliminated nor gone, R13), in seat order."""
        return [s for s in range(self.n) if self.status[s] is SeatStatus.IN_PLAY]

    def forfeits(self, seat: int) -> dict[str, int]:
        """Armies ``seat`` forfeited so far, by clause: ``{"R3": n, "R4": n, "R11": n}``."""
        return dict(zip(FORFEIT_CLAUSES, self.forfeited[seat], strict=True))


_LISTS = (
    "owner", "armies", "owned", "totals", "hands", "deck", "status", "late_left",
    "setup_left", "forfeited",
)
_SCALARS = tuple(s for s in SLOTS if s not in _LISTS)
#: the fields compared by ``==`` (all but the derived board tables)
FIELDS: tuple[str, ...] = tuple(s for s in SLOTS if s not in ("adjacency", "neighbours"))
