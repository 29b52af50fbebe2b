"""The closing dice ("dadi di chiusura", RULES.md R2).

After the LAST round each seat still in play, at the end of its own turn, rolls two dice; the
game ends when the sum falls in the band of the current closing round ``k`` (1-based): under
the club regulation round 1 closes on 4, round 2 on 4-5, round 3 on 4-6, round 4 on 4-7, and
so on (``Ruleset.closing_band``). A seat that conquered ``closing_skip_if_conquered`` (3) or
more territories in that turn does not roll; a penalised seat still rolls (R12).

Units: sums of two six-sided dice (2..12); probabilities are floats in [0, 1], computed from
exact counts out of 36.

The R2 state machine is written once, here: who rolls (:func:`closing_roll_fault`), when a
closing round starts (:func:`starts_closing_round`), which band is in force, what closes. The
game (:mod:`risiko.rules`) and the referee's closing-dice tool (:class:`ClosingState`, which
follows a real table from the referee's entries, without a whole game) both use it.

>>> from risiko.ruleset import CLUB_MILANO
>>> seats = [SeatInfo(1, "Anna"), SeatInfo(2, "Bruno"), SeatInfo(3, "Carla")]
>>> state = start(seats, CLUB_MILANO)
>>> state.closing_round, state.current, state.band   # the last seat opens closing round 1
(1, 3, (4, 4))
>>> state.apply(Event("roll", 3, total=6)).closed, state.current
(False, 1)
>>> state.apply(Event("roll", 1, total=4)).closed     # 4 closes in closing round 1
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .faults import Fault, IllegalActionError, define
from .ruleset import Ruleset

NOT_YET = define(
    "closing.not_yet", "R2", "R2: no closing dice before the end of the LAST round"
)
CONQUESTS = define(
    "closing.conquests", "R2",
    "R2: {player} conquered {conquests} territories this turn and does not roll the closing "
    "dice",
)
PENALISED = define(
    "closing.penalised", "R12",
    "{player} is penalised and does not roll the closing dice under this ruleset",
)
ENDED = define("closing.ended", "R2", "the game has ended")
OUT = define("closing.out", "R13", "{player} is not in play")
BACK = define("closing.back", "R13", "{player} is in play")
NO_SEAT = define("closing.no_seat", "", "no seat {seat} at this table")
TOTAL = define("closing.total", "R2", "two dice sum to 2..12, not {total}")
KIND = define("closing.kind", "", "unknown closing event {kind}")
REASON = define("closing.reason", "R2", "the referee's decision needs a reason")

#: lowest and highest sum of two dice
MIN_SUM = 2
MAX_SUM = 12
#: equally likely outcomes of two dice
OUTCOMES = 36


def closing_band(ruleset: Ruleset, k: int) -> tuple[int, int]:
    """The (lowest, highest) closing sums of closing round ``k`` (1-based, R2).

    Delegates to :meth:`Ruleset.closing_band`; club-milano: k=1 -> (4, 4), k=2 -> (4, 5).
    The high end may exceed 12 for late rounds (every sum from the low end then closes).
    Raises ValueError for k < 1.
    """
    return ruleset.closing_band(k)


def closing_ways(s: int) -> int:
    """Ways (out of 36) two dice sum to ``s``: 1 for 2 and 12, ..., 6 for 7; 0 off 2..12."""
    if s < MIN_SUM or s > MAX_SUM:
        return 0
    return 6 - abs(s - 7)


def p_closing_sum(s: int) -> float:
    """Probability that two dice sum to ``s``: ``closing_ways(s) / 36`` (0 off 2..12)."""
    return closing_ways(s) / OUTCOMES


def closing_round_table(ruleset: Ruleset, k: int) -> list[tuple[int, float]]:
    """The sums that close in closing round ``k``, each with its probability.

    ``[(sum, p), ...]`` in increasing sum, only possible sums (2..12) inside the band.
    Club-milano k=2: ``[(4, 3/36), (5, 4/36)]``. Raises ValueError for k < 1.
    """
    low, high = closing_band(ruleset, k)
    return [
        (s, p_closing_sum(s)) for s in range(max(low, MIN_SUM), min(high, MAX_SUM) + 1)
    ]


def closing_probability(ruleset: Ruleset, k: int) -> float:
    """Probability that ONE roll of two dice closes the game in closing round ``k`` (R2).

    Club-milano: k=1 -> 3/36, k=2 -> 7/36, k=3 -> 12/36, k=4 -> 18/36, k=5 -> 23/36.
    Raises ValueError for k < 1.
    """
    low, high = closing_band(ruleset, k)
    ways = sum(closing_ways(s) for s in range(max(low, MIN_SUM), min(high, MAX_SUM) + 1))
    return ways / OUTCOMES


def closes(ruleset: Ruleset, k: int, total: int) -> bool:
    """True when a roll summing to ``total`` ends the game in closing round ``k`` (R2).

    Raises ValueError for k < 1 or a ``total`` two dice cannot show (outside 2..12).
    """
    if total < MIN_SUM or total > MAX_SUM:
        raise ValueError(f"two dice sum to {MIN_SUM}..{MAX_SUM}, got {total}")
    low, high = closing_band(ruleset, k)
    return low <= total <= high


def p_game_closes_in_round(ruleset: Ruleset, k: int, rollers: int) -> float:
    """Probability that closing round ``k`` ends the game, given the game reaches it.

    ``rollers`` is the number of seats that actually roll in that closing round: the seats
    still in play (R2, R13) less those that conquered ``closing_skip_if_conquered`` or more
    territories in their turn (penalised seats still roll, R12). The rolls are independent,
    so the round closes unless every roller misses: ``1 - (1 - p) ** rollers`` with
    ``p = closing_probability(ruleset, k)``. That the round stops at the first closing roll
    does not change this probability. ``rollers == 0`` gives 0 (nobody rolls; the game goes
    on to round ``k + 1``). Example, club-milano, 5 rollers: k=1 -> 1 - (33/36)^5 = 0.353.
    Raises ValueError for k < 1 or rollers < 0.
    """
    if rollers < 0:
        raise ValueError(f"rollers is a number of seats (>= 0), got {rollers}")
    p = closing_probability(ruleset, k)
    return 1.0 - (1.0 - p) ** rollers


def closing_roll_fault(
    ruleset: Ruleset, player: str, conquests: int, *, penalised: bool = False
) -> Fault | None:
    """Why ``player`` does not roll the closing dice at the end of a turn with ``conquests``
    conquests (None: he rolls). R2: ``closing_skip_if_conquered`` (3) or more conquests;
    a penalised seat still rolls (R12) unless ``ruleset.penalised_seats_roll`` is False."""
    if conquests >= ruleset.closing_skip_if_conquered:
        return CONQUESTS({"player": player}, conquests=conquests)
    if penalised and not ruleset.penalised_seats_roll:
        return PENALISED({"player": player})
    return None


def closing_round_of(after_last: int, seat: int, anchor: int) -> int | None:
    """The closing round (R2) of a turn of ``seat`` in the round ``after_last`` rounds after
    the LAST one (0: the LAST round itself), or None when that turn has no closing dice.

    A closing round is one closing turn for each seat in play, in seat order from the
    anchor's place: the ``anchor`` is the seat (0- or 1-based, as ``seat``) whose turn closed
    the LAST round and opened closing round 1. Counting by places, a seat that leaves (R13)
    or is eliminated drops out of the round it is in without moving the others: a turn in
    round LAST + ``after_last`` belongs to closing round ``after_last + 1`` from the anchor's
    place on, ``after_last`` before it.

    3 seats (1, 2, 3), the anchor seat 3: its turn in the LAST round opens closing round 1,
    seats 1 and 2 of the next round finish it; if seat 3 then leaves, seats 1 and 2 of the
    round after still make closing round 2 (it does not start again with seat 2):

    >>> closing_round_of(0, 3, 3), closing_round_of(1, 1, 3), closing_round_of(1, 2, 3)
    (1, 1, 1)
    >>> closing_round_of(1, 3, 3), closing_round_of(2, 1, 3), closing_round_of(2, 2, 3)
    (2, 2, 2)
    >>> closing_round_of(0, 2, 3) is None   # before the anchor in the LAST round: no dice
    True
    """
    k = after_last + (1 if seat >= anchor else 0)
    return k if k >= 1 else None


# ---------------------------------------------------------------------------- the table
KINDS = ("roll", "skip", "widen", "end", "out", "back")


class ClosingError(IllegalActionError):
    """An event the closing state refuses: ``code`` the short reason (``ended``, ``out``,
    ``back``, ``conquests``, ``penalised``, ``total``, ``no_seat``, ``kind``, ``reason``),
    ``fault`` the :class:`~risiko.faults.Fault` (code ``closing.<code>``, clause R2/R12/R13).
    ``ClosingError("total", "no total")`` builds the fault from the short code."""

    def __init__(self, code: str, detail: Fault | str = "") -> None:
        self.code = code
        if isinstance(detail, Fault):
            fault = detail
        else:
            kinds = {
                "ended": ENDED, "out": OUT, "back": BACK, "no_seat": NO_SEAT, "total": TOTAL,
                "kind": KIND, "reason": REASON, "conquests": CONQUESTS, "penalised": PENALISED,
            }
            kind = kinds.get(code, KIND)
            fault = kind(seat="-", total="-", kind=code, conquests="-", player="-")
        super().__init__(fault)


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

    ``anchor`` is the place (position) that opened closing round 1: the last seat in play
    until the first closing turn is recorded (a seat marked out before it was out before the
    closing began), then fixed; a closing round is one turn of each seat in play from that
    place (:func:`closing_round_of`), so a seat marked out drops out of the round it is in
    without moving the others. ``after_last`` counts the table's rounds after the LAST one
    (0: the LAST round) of the current turn. ``rejoined``: seats marked out and back in
    during this closing round; each takes its place again from the next closing round.
    """

    seats: tuple[SeatInfo, ...]
    ruleset: Ruleset
    closing_round: int = 1
    widened: int = 0
    current: int | None = None
    out: set[int] = field(default_factory=set)
    anchor: int = 0
    after_last: int = 0
    opened: bool = False
    rejoined: set[int] = field(default_factory=set)
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
        raise ClosingError("no_seat", NO_SEAT(seat=position))

    @property
    def current_seat(self) -> SeatInfo | None:
        """The seat whose turn it is."""
        return None if self.current is None else self.seat(self.current)

    def may_roll(self, position: int, conquests: int = 0) -> str | None:
        """None if the seat at ``position`` may roll after a turn with ``conquests``
        conquests; else the code of the reason: ``ended``, ``out``, ``conquests`` (R2),
        ``penalised`` (only when the ruleset does not follow R12)."""
        fault = self.roll_fault(position, conquests)
        return None if fault is None else fault.code.partition(".")[2]

    def roll_fault(self, position: int, conquests: int = 0) -> Fault | None:
        """The fault that keeps the seat at ``position`` from rolling (None: it rolls):
        the game ended, the seat is out of play (R13), or :func:`closing_roll_fault`."""
        seat = self.seat(position)
        if self.ended:
            return ENDED()
        if position in self.out:
            return OUT({"player": seat.player})
        return closing_roll_fault(
            self.ruleset, seat.player, conquests, penalised=seat.penalised
        )

    # ------------------------------------------------------------------ transitions
    def _advance(self) -> None:
        """The turn passes to the next seat in play, place by place in seat order: passing
        the anchor's place starts a new closing round (:func:`closing_round_of`); a seat
        back in play this closing round waits for the next one."""
        if not self.in_play:
            self.current = None
            return
        places = [s.position for s in self.seats]
        n = len(places)
        at = places.index(self.current) if self.current in places else n - 1
        for step in range(1, 2 * n + 2):
            i = (at + step) % n
            if i == 0:
                self.after_last += 1  # the table's next round
            place = places[i]
            k = closing_round_of(self.after_last, place, self.anchor)
            if k is not None and k > self.closing_round:
                self.closing_round = k
                self.rejoined.clear()
            if place not in self.out and place not in self.rejoined:
                self.current = place
                return
        raise AssertionError("a seat in play is always reached")  # pragma: no cover

    def _reanchor(self) -> None:
        """Before the first closing turn: the closing starts with the last seat in play."""
        seats = self.in_play
        if seats:
            self.anchor = self.current = seats[-1].position
        else:
            self.current = None

    def _move_to(self, position: int) -> None:
        seat = self.seat(position)
        if position in self.out:
            raise ClosingError("out", OUT({"player": seat.player}))
        guard = 0
        while self.current != position:
            self._advance()
            guard += 1
            if guard > 2 * len(self.seats) + 2:  # pragma: no cover - position is in play
                raise ClosingError("no_seat", NO_SEAT(seat=position))

    def apply(self, event: Event) -> Turn:
        """Apply one event; ClosingError (nothing changed) when the state refuses it."""
        if event.kind not in KINDS:
            raise ClosingError("kind", KIND(kind=event.kind))
        if self.ended:
            raise ClosingError("ended", ENDED())
        player = ""
        if event.position is not None:
            player = self.seat(event.position).player
        if event.kind in ("roll", "skip"):
            position = event.position if event.position is not None else self.current
            if position is None:
                raise ClosingError("no_seat", NO_SEAT(seat="-"))
            player = self.seat(position).player
            if event.kind == "roll":
                if event.total is None or not MIN_SUM <= event.total <= MAX_SUM:
                    raise ClosingError("total", TOTAL(total=event.total))
                fault = self.roll_fault(position, event.conquests)
                if fault is not None:
                    raise ClosingError(fault.code.partition(".")[2], fault)
            elif position in self.out:
                raise ClosingError("out", OUT({"player": player}))
            self._move_to(position)
            self.opened = True
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
                raise ClosingError("out", OUT({"player": player or "-"}))
            turn = Turn(event, player, self.closing_round, self.band)
            was_current = self.current == event.position
            self.out.add(event.position)
            if not self.opened:
                self._reanchor()
            elif len(self.in_play) == 0:
                self.current = None
            elif was_current:
                self._advance()
        else:  # back
            if event.position is None or event.position not in self.out:
                raise ClosingError("back", BACK({"player": player or "-"}))
            turn = Turn(event, player, self.closing_round, self.band)
            self.out.discard(event.position)
            if not self.opened:
                self._reanchor()
            elif self.current is None:
                self.current = event.position
            else:
                self.rejoined.add(event.position)  # its place again from the next round
        if turn.position is None:
            turn.position = event.position
        self.turns.append(turn)
        return turn


def start(seats: Sequence[SeatInfo], ruleset: Ruleset) -> ClosingState:
    """The state before any event: closing round 1, the last seat's turn (the anchor)."""
    ordered = tuple(sorted(seats, key=lambda s: s.position))
    state = ClosingState(ordered, ruleset)
    state.current = ordered[-1].position if ordered else None
    state.anchor = ordered[-1].position if ordered else 0
    return state


def replay(
    seats: Sequence[SeatInfo], ruleset: Ruleset, events: Sequence[Event]
) -> ClosingState:
    """The state after ``events`` (ClosingError if one of them is refused)."""
    state = start(seats, ruleset)
    for event in events:
        state.apply(event)
    return state
