"""The closing dice of one table (R2, R12, R13), replayed from the recorded events.

Pure: no database. The table's seats (position = turn order) and the events recorded by the
referee (:class:`Event`) give the state (:func:`replay`): the current closing round and its
band, whose turn it is, who is still in play, whether the game has ended.

Reading of R2 (RULES.md): a closing round is n consecutive turns of the seats still in play,
the first being the last seat of the LAST round. So closing round 1 starts with the last seat
in play (highest position), then seats 1, 2, ... follow; each time the turn comes back to
the last seat in play, the next closing round starts. The band of closing round k is
``ruleset.closing_band(k)`` (club-milano: 4, 4-5, 4-6, ...); each acceleration by the referee
("widen the band now", R2) adds one round to the band from then on.

Events (``kind``):

- ``roll``: the current seat rolled ``total`` (2..12) at the end of its turn, having
  conquered ``conquests`` territories in it. Refused if it conquered
  ``ruleset.closing_skip_if_conquered`` (3) or more (R2), or if it is penalised and the
  ruleset does not let penalised seats roll (R12 lets them). Closes the game when the total
  is in the band; otherwise the turn passes.
- ``skip``: the current seat's turn ends without a roll (3+ conquests, or the referee says
  so); the turn passes.
- ``widen``: the referee widens the band (acceleration, with a reason).
- ``end``: the referee ends the game now (with a reason).
- ``out`` / ``back``: a seat leaves play (eliminated, or gone: R13) / is put back (a mistake).

A ``roll`` or ``skip`` for a seat other than the current one first moves the turn on to that
seat (the turns in between are taken as passed without a closing roll).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from risiko.closing import MAX_SUM, MIN_SUM, closes, closing_probability
from risiko.ruleset import Ruleset

KINDS = ("roll", "skip", "widen", "end", "out", "back")


class ClosingError(ValueError):
    """An event the state refuses; ``code`` says which rule (for a translated message)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class SeatInfo:
    """A seat of the table: ``position`` 1.. (turn order), the player, and whether he has a
    penalty this evening (R12: he still rolls under the club's regulation)."""

    position: int
    player: str
    penalised: bool = False


@dataclass(frozen=True)
class Event:
    """One recorded event (see the module docstring)."""

    kind: str
    position: int | None = None
    total: int | None = None
    conquests: int = 0
    reason: str = ""


@dataclass
class Turn:
    """One event as replayed: the closing round and band it fell in, and what it did."""

    event: Event
    player: str
    closing_round: int
    band: tuple[int, int]
    closed: bool = False
    position: int | None = None


@dataclass
class ClosingState:
    """The state of the closing dice after the events.

    ``closing_round`` (1..) counts the closing rounds; ``widened`` the referee's
    accelerations; the band in force is that of round ``closing_round + widened``.
    ``current`` is the position of the seat whose turn it is (None when nobody is in play).
    ``ended`` with ``ended_by`` (the closing roll or the referee's "end" event).
    """

    seats: tuple[SeatInfo, ...]
    ruleset: Ruleset
    closing_round: int = 1
    widened: int = 0
    current: int | None = None
    out: set[int] = field(default_factory=set)
    ended: bool = False
    ended_by: Turn | None = None
    turns: list[Turn] = field(default_factory=list)

    @property
    def band_round(self) -> int:
        """The closing round whose band is in force (R2 acceleration included)."""
        return self.closing_round + self.widened

    @property
    def band(self) -> tuple[int, int]:
        """(lowest, highest) closing sum now; the high end is capped at 12 for display."""
        low, high = self.ruleset.closing_band(self.band_round)
        return low, min(high, MAX_SUM)

    @property
    def probability(self) -> float:
        """Probability that one roll closes the game now."""
        return closing_probability(self.ruleset, self.band_round)

    @property
    def in_play(self) -> list[SeatInfo]:
        """The seats still in play, in turn order."""
        return [s for s in self.seats if s.position not in self.out]

    def seat(self, position: int) -> SeatInfo:
        """The seat at ``position``; ClosingError if there is none."""
        for s in self.seats:
            if s.position == position:
                return s
        raise ClosingError("no_seat", f"no seat {position} at this table")

    @property
    def current_seat(self) -> SeatInfo | None:
        """The seat whose turn it is."""
        return None if self.current is None else self.seat(self.current)

    def may_roll(self, position: int, conquests: int = 0) -> str | None:
        """None if the seat at ``position`` may roll after a turn with ``conquests``
        conquests; else the code of the reason: ``ended``, ``out``, ``conquests`` (R2),
        ``penalised`` (only when the ruleset does not follow R12)."""
        if self.ended:
            return "ended"
        if position in self.out:
            return "out"
        if conquests >= self.ruleset.closing_skip_if_conquered:
            return "conquests"
        if self.seat(position).penalised and not self.ruleset.penalised_seats_roll:
            return "penalised"
        return None

    # ------------------------------------------------------------------ transitions
    def _last(self) -> int | None:
        seats = self.in_play
        return seats[-1].position if seats else None

    def _advance(self) -> None:
        """The turn passes to the next seat in play; back at the last seat, a new closing
        round starts."""
        seats = [s.position for s in self.in_play]
        if not seats:
            self.current = None
            return
        after = [p for p in seats if self.current is not None and p > self.current]
        self.current = after[0] if after else seats[0]
        if self.current == self._last():
            self.closing_round += 1

    def _move_to(self, position: int) -> None:
        if position in self.out:
            raise ClosingError("out", f"seat {position} is not in play")
        self.seat(position)
        guard = 0
        while self.current != position:
            self._advance()
            guard += 1
            if guard > len(self.seats) + 1:  # pragma: no cover - position is in play
                raise ClosingError("no_seat", f"seat {position} cannot be reached")

    def apply(self, event: Event) -> Turn:
        """Apply one event; ClosingError (nothing changed) when the state refuses it."""
        if event.kind not in KINDS:
            raise ClosingError("kind", f"unknown event {event.kind!r}")
        if self.ended:
            raise ClosingError("ended", "the game has ended")
        player = ""
        if event.position is not None:
            player = self.seat(event.position).player
        if event.kind in ("roll", "skip"):
            position = event.position if event.position is not None else self.current
            if position is None:
                raise ClosingError("no_seat", "nobody is in play")
            player = self.seat(position).player
            if event.kind == "roll":
                if event.total is None or not MIN_SUM <= event.total <= MAX_SUM:
                    raise ClosingError("total", f"two dice sum to {MIN_SUM}..{MAX_SUM}")
                why = self.may_roll(position, event.conquests)
                if why is not None:
                    raise ClosingError(why, f"{player} may not roll ({why})")
            elif position in self.out:
                raise ClosingError("out", f"{player} is not in play")
            self._move_to(position)
            turn = Turn(event, player, self.closing_round, self.band, position=position)
            if event.kind == "roll":
                assert event.total is not None
                turn.closed = closes(self.ruleset, self.band_round, event.total)
            if turn.closed:
                self.ended = True
                self.ended_by = turn
            else:
                self._advance()
        elif event.kind == "widen":
            turn = Turn(event, player, self.closing_round, self.band)
            self.widened += 1
        elif event.kind == "end":
            turn = Turn(event, player, self.closing_round, self.band)
            self.ended = True
            self.ended_by = turn
        elif event.kind == "out":
            if event.position is None or event.position in self.out:
                raise ClosingError("out", "that seat is already out of play")
            turn = Turn(event, player, self.closing_round, self.band)
            was_current = self.current == event.position
            self.out.add(event.position)
            if len(self.in_play) == 0:
                self.current = None
            elif was_current:
                self._advance()
        else:  # back
            if event.position is None or event.position not in self.out:
                raise ClosingError("back", "that seat is in play")
            turn = Turn(event, player, self.closing_round, self.band)
            self.out.discard(event.position)
            if self.current is None:
                self.current = event.position
        if turn.position is None:
            turn.position = event.position
        self.turns.append(turn)
        return turn


def start(seats: Sequence[SeatInfo], ruleset: Ruleset) -> ClosingState:
    """The state before any event: closing round 1, the last seat's turn."""
    ordered = tuple(sorted(seats, key=lambda s: s.position))
    state = ClosingState(ordered, ruleset)
    state.current = ordered[-1].position if ordered else None
    return state


def replay(
    seats: Sequence[SeatInfo], ruleset: Ruleset, events: Sequence[Event]
) -> ClosingState:
    """The state after ``events`` (ClosingError if one of them is refused)."""
    state = start(seats, ruleset)
    for event in events:
        state.apply(event)
    return state
