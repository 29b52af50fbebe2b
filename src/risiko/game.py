"""A RisiKo! game under a ruleset: the door to a :class:`~risiko.state.State`.

:class:`Game` holds the state, the chance it draws from and the history, and offers:

- :meth:`Game.push`: the checked door. It checks the action against the rules
  (:mod:`risiko.rules`), draws its chance (dice, closing dice), applies it and records it with
  the values used - or raises :class:`IllegalActionError` (or
  :class:`~risiko.dice.ChanceExhaustedError`) and the game is exactly as before: every push
  is all or nothing.
- :meth:`Game.push_unchecked`: the fast door for callers that take their action from
  :meth:`Game.legal_actions` (bots, simulations): no check at all.
- :meth:`Game.legal_actions`: what the seat to act may do now, with one entry per amount
  range (:class:`~risiko.actions.Amount`).
- :meth:`Game.pop` (undo the last action), :meth:`Game.copy`,
  :meth:`Game.from_position` / :meth:`Game.position` (a position file: a sheet plus whose
  turn, which phase ...).

Chance is not part of the state: a position continues identically under the same chance.

>>> from risiko.actions import Place
>>> from risiko.dice import SeededChance
>>> game = Game.new(["Anna", "Bruno", "Carla"], seed=7)
>>> game.phase, game.seat, game.step_left
(<Phase.SETUP: 'setup'>, 0, 3)
>>> entry = game.legal_actions()[0]           # one entry per own territory: 1 to 3 armies
>>> entry.min, entry.max
(1, 3)
>>> game.push(entry.of(3)) == entry.of(3)
True
>>> _ = game.pop()
>>> game.seat, len(game.history)
(0, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MemberDescriptorType
from typing import Any, Final

from . import rules
from .actions import (
    REFEREE_ACTIONS,
    Abandon,
    Action,
    Amount,
    Attack,
    CallLastRounds,
    Dice,
    EndGame,
    EndTurn,
    Fortify,
    Late,
    Legal,
    LegalActions,
    Move,
    Place,
    Timeout,
    Trade,
    WidenClosing,
)
from .attack import attacker_dice, defender_dice
from .board import NUM_TERRITORIES, Mask, Territory, iter_mask, territory_name
from .cards import NUM_CARDS
from .dice import Chance, SeededChance, roll
from .faults import Fault, IllegalActionError, InvalidInputError, define
from .objectives import OBJECTIVES, Objective
from .rules import ABANDONED, ATTACK, ELIMINATED, IN_PLAY, MOVE, OVER, REINFORCE, SETUP
from .ruleset import CLUB_MILANO, Ruleset
from .scoring import SeatScore
from .state import (
    FORFEIT_CLAUSES,
    ClosingRoll,
    EndReason,
    Outcome,
    Phase,
    SeatStatus,
    State,
)

__all__ = [
    "ABANDONED",
    "ATTACK",
    "ELIMINATED",
    "END_REASONS",
    "IN_PLAY",
    "MOVE",
    "OVER",
    "REINFORCE",
    "SETUP",
    "ClosingRoll",
    "EndReason",
    "Game",
    "IllegalActionError",
    "Outcome",
    "Phase",
    "SeatStatus",
]

END_REASONS = tuple(EndReason)

SAME_PLAYER = define("game.same_player", "", "two seats have the same player name {player}")
BAD_DEAL = define("game.bad_deal", "", "the deal must list each of the 42 territories once")
BAD_OBJECTIVES = define(
    "game.bad_objectives", "", "{seats} seats need {seats} different objectives, got {given}"
)
BAD_OBJECTIVE = define(
    "game.bad_objective", "", "objective {given}: objectives are numbered 1 to {most}"
)
BAD_DECK = define("game.bad_deck", "", "the deck must hold each of the 44 cards once")
BAD_LATE = define("game.bad_late_seat", "R3", "late seat {seat} is not at this table")
BAD_LAST_ROUNDS_AT = define(
    "game.bad_last_rounds_at", "R2", "the automatic call counts rounds from 1, not {given}"
)
BAD_SEATS = define("game.bad_seats", "", "{seats} seats: a table has {least} to {most} seats")


def _attack(source: int, target: int, attacker: Dice, defender: Dice) -> Attack:
    """``Attack(source, target, attacker, defender)``; in the pure build without the frozen
    dataclass's ``__init__`` (twice as fast; the same value). The compiled build's dataclass
    is a native class, made only by its own (fast) constructor."""
    if not _SLOTTED:
        return Attack(source, target, attacker, defender)
    new = _new(Attack)
    _set_source(new, source)
    _set_target(new, target)
    _set_attacker(new, attacker)
    _set_defender(new, defender)
    return new


_new = object.__new__
#: True when Attack is a Python class with slots (the pure build)
_SLOTTED: Final = isinstance(vars(Attack)["source"], MemberDescriptorType)
# the slots' own setters: a frozen dataclass refuses setattr, its slot descriptors do not
_set_source: Callable[[Attack, int], None] = vars(Attack)["source"].__set__
_set_target: Callable[[Attack, int], None] = vars(Attack)["target"].__set__
_set_attacker: Callable[[Attack, Dice], None] = vars(Attack)["attacker_dice"].__set__
_set_defender: Callable[[Attack, Dice], None] = vars(Attack)["defender_dice"].__set__


#: the spacing of the states the checked door stores for :meth:`Game.pop` (one every 64
#: actions: a copy of the state before each push cost about 13,000 instructions, 57% more
#: instructions for the checked door; one in 64 costs about 1%, and the fast door none)
CHECKPOINT_EVERY = 64


def _illegal(fault: Fault | None) -> None:
    if fault is not None:
        raise IllegalActionError(fault)


class Game:
    """The state of one table, its chance and its history.

    Build with :meth:`Game.new` (chance draws the deal, objectives and deck), directly with an
    explicit ``deal`` (territory order of the deal, dealt one at a time in seat order),
    ``objectives`` (numbers 1..16 per seat) and ``deck`` (order of the 44 cards, top first),
    or with :meth:`Game.from_position`. ``late`` lists seats (0-based) arriving late (R3);
    ``last_rounds_at`` makes the call of the last 2 rounds automatic at the start of that
    round (simulations). Raises InvalidInputError for a bad deal, objectives or deck.

    ``state`` is the :class:`~risiko.state.State`; for reading, the game also shows its
    fields: ``owner`` and ``armies`` (lists over territories), ``owned`` (mask per seat),
    ``totals`` (armies per seat), ``hands``, ``deck``, ``phase``, ``seat`` (to act),
    ``round``, ``status``, ``pending``, ``outcome`` ... ``history`` holds every action as
    applied (dice included); ``closing_rolls`` the closing turns (R2); ``rolls`` the attack
    rolls.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Game:
        # an empty game for :meth:`from_state` and :meth:`copy`, which fill it without
        # ``__init__`` (written out so that the compiled build, mypyc, allows ``cls.__new__``)
        return object.__new__(cls)

    def __init__(
        self,
        players: Sequence[str],
        ruleset: Ruleset = CLUB_MILANO,
        *,
        deal: Sequence[Territory],
        objectives: Sequence[int],
        deck: Sequence[int],
        chance: Chance | None = None,
        late: Iterable[int] = (),
        last_rounds_at: int | None = None,
    ) -> None:
        n = len(players)
        table = dict(ruleset.initial_armies)
        if n not in table:
            raise InvalidInputError(BAD_SEATS(seats=n, least=min(table), most=max(table)))
        seen: set[str] = set()
        for p in players:
            if p in seen:
                raise InvalidInputError(SAME_PLAYER({"player": p}))
            seen.add(p)
        if sorted(deal) != list(range(NUM_TERRITORIES)):
            raise InvalidInputError(BAD_DEAL())
        if len(objectives) != n or len(set(objectives)) != n:
            raise InvalidInputError(BAD_OBJECTIVES(seats=n, given=list(objectives)))
        for o in objectives:
            if isinstance(o, bool) or not isinstance(o, int) or not 1 <= o <= len(OBJECTIVES):
                raise InvalidInputError(BAD_OBJECTIVE(given=repr(o), most=len(OBJECTIVES)))
        if sorted(deck) != list(range(NUM_CARDS)):
            raise InvalidInputError(BAD_DECK())
        late_seats = tuple(sorted(set(late)))
        for s in late_seats:
            if not 0 <= s < n:
                raise InvalidInputError(BAD_LATE(seat=s + 1))
        if last_rounds_at is not None and last_rounds_at < 1:
            raise InvalidInputError(BAD_LAST_ROUNDS_AT(given=last_rounds_at))
        state = rules.new_state(
            players, ruleset, deal, objectives, deck, late_seats, last_rounds_at
        )
        self._attach(state, chance)
        self.deal: tuple[int, ...] | None = tuple(deal)
        self.deck_order: tuple[int, ...] = tuple(deck)
        self.late_seats: tuple[int, ...] = late_seats

    def _attach(self, state: State, chance: Chance | None) -> None:
        self.state = state
        self.chance: Chance = chance if chance is not None else SeededChance()
        self.history: list[Action] = []
        self.closing_rolls: list[ClosingRoll] = []
        self.rolls = 0
        self._start = state.copy()
        #: the snapshots :meth:`pop` restores, by history index: the state before the action
        #: at that index, the closing rolls and attack rolls then
        self._snapshots: dict[int, tuple[State, int, int]] = {}
        #: who acts: (index of the first action, seat) at each change of the seat to act
        self._turns: list[tuple[int, int]] = [(0, state.seat)]
        #: the armies each action forfeited, by its index: [(seat, clause index, armies)]
        self._forfeits: dict[int, list[tuple[int, int, int]]] = {}
        self._seen = [f.copy() for f in state.forfeited]

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        players: Sequence[str],
        ruleset: Ruleset = CLUB_MILANO,
        *,
        chance: Chance | None = None,
        seed: int | None = None,
        late: Iterable[int] = (),
        last_rounds_at: int | None = None,
    ) -> Game:
        """A new game: the deal, the objectives (from the 16) and the deck come from chance."""
        ch: Chance = chance if chance is not None else SeededChance(seed)
        deal = ch.permutation(NUM_TERRITORIES)
        objectives = [o + 1 for o in ch.permutation(len(OBJECTIVES))[: len(players)]]
        deck = ch.permutation(NUM_CARDS)
        return cls(
            players, ruleset, deal=deal, objectives=objectives, deck=deck, chance=ch,
            late=late, last_rounds_at=last_rounds_at,
        )

    @classmethod
    def from_state(cls, state: State, *, chance: Chance | None = None) -> Game:
        """A game that goes on from ``state`` (copied), with no history behind it."""
        game = cls.__new__(cls)
        game._attach(state.copy(), chance)
        game.deal = None
        game.deck_order = tuple(state.deck)
        game.late_seats = tuple(s for s in range(state.n) if state.late_left[s])
        return game

    @classmethod
    def from_position(
        cls,
        position: Mapping[str, Any] | str,
        *,
        chance: Chance | None = None,
        ruleset: Ruleset | str | None = None,
    ) -> Game:
        """A game that goes on from a position (the JSON of :mod:`risiko.position`: a sheet
        plus ``to_act``, ``phase`` and optional fields), as a dict or JSON text.

        Raises InvalidInputError naming the faults of a bad position.
        """
        from .position import parse_position

        return cls.from_state(parse_position(position, ruleset=ruleset), chance=chance)

    @property
    def start_state(self) -> State:
        """A copy of the state the game started from (before its first action)."""
        return self._start.copy()

    def position(self) -> dict[str, Any]:
        """The position now, as the JSON :meth:`from_position` reads (every field written)."""
        from .position import position_of

        return position_of(self.state)

    def copy(self, *, chance: Chance | None = None) -> Game:
        """An independent copy: state, history and logs copied; the chance object is shared
        unless ``chance`` gives another one (a shared seeded chance interleaves its draws)."""
        game = Game.__new__(Game)
        game.state = self.state.copy()
        game.chance = self.chance if chance is None else chance
        game.history = list(self.history)
        game.closing_rolls = list(self.closing_rolls)
        game.rolls = self.rolls
        game._start = self._start
        game.deal = self.deal
        game.deck_order = self.deck_order
        game.late_seats = self.late_seats
        game._snapshots = dict(self._snapshots)  # the states in it are never changed
        game._turns = list(self._turns)
        game._forfeits = dict(self._forfeits)
        game._seen = [f.copy() for f in self._seen]
        return game

    # ------------------------------------------------------------------ reading
    @property
    def ruleset(self) -> Ruleset:
        """The ruleset of the table."""
        return self.state.ruleset

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in seat order."""
        return self.state.players

    @property
    def n(self) -> int:
        """Number of seats."""
        return self.state.n

    @property
    def objectives(self) -> tuple[Objective, ...]:
        """Each seat's objective."""
        return self.state.objectives

    @property
    def neighbours(self) -> tuple[Mask, ...]:
        """Neighbour mask of each territory on the table's board."""
        return self.state.neighbours

    @property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Neighbours of each territory as tuples."""
        return self.state.adjacency

    @property
    def owner(self) -> list[int]:
        """Seat owning each territory."""
        return self.state.owner

    @property
    def armies(self) -> list[int]:
        """Armies on each territory."""
        return self.state.armies

    @property
    def owned(self) -> list[Mask]:
        """Territory mask of each seat."""
        return self.state.owned

    @property
    def totals(self) -> list[int]:
        """Armies on the board of each seat."""
        return self.state.totals

    @property
    def hands(self) -> list[list[int]]:
        """Cards of each seat."""
        return self.state.hands

    @property
    def deck(self) -> list[int]:
        """The deck, top first."""
        return self.state.deck

    @property
    def status(self) -> list[SeatStatus]:
        """Status of each seat."""
        return self.state.status

    @property
    def phase(self) -> Phase:
        """The phase."""
        return self.state.phase

    @property
    def seat(self) -> int:
        """The seat to act (the last one to act once the game is over)."""
        return self.state.seat

    @property
    def round(self) -> int:
        """The round in progress (0 during setup)."""
        return self.state.round

    @property
    def step_left(self) -> int:
        """Armies left in this initial-placement step."""
        return self.state.step_left

    @property
    def pending(self) -> int:
        """Reinforcements still to place."""
        return self.state.pending

    @property
    def conquests(self) -> int:
        """Territories conquered in this turn."""
        return self.state.conquests

    @property
    def penalised_turn(self) -> bool:
        """True during a late seat's penalised turn (R3)."""
        return self.state.penalised

    @property
    def move_from(self) -> int:
        """Territory the pending conquest move comes from (-1 when none)."""
        return self.state.move_from

    @property
    def move_to(self) -> int:
        """The conquered territory waiting for armies (-1 when none)."""
        return self.state.move_to

    @property
    def move_min(self) -> int:
        """Armies already moved in (the dice of the last roll)."""
        return self.state.move_min

    @property
    def last_round(self) -> int | None:
        """The LAST round once the last 2 rounds are called (R2)."""
        return self.state.last_round

    @property
    def last_rounds_at(self) -> int | None:
        """The round of the automatic call (simulations), or None."""
        return self.state.last_rounds_at

    @property
    def closing_extra(self) -> int:
        """The referee's widenings of the closing band (R2)."""
        return self.state.widened

    @property
    def risiko_seat(self) -> int | None:
        """The seat that completed its objective, if any."""
        return self.state.risiko_seat

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        return self.state.outcome

    @property
    def late_turns(self) -> list[int]:
        """Penalised turns each seat started the game with (R3)."""
        k = self.ruleset.late_penalty_turns
        return [k if s in self.late_seats else 0 for s in range(self.n)]

    @property
    def forfeited(self) -> list[int]:
        """Armies each seat forfeited, all clauses together (see :meth:`forfeits`)."""
        return [sum(f) for f in self.state.forfeited]

    def forfeits(self, seat: int) -> dict[str, int]:
        """Armies ``seat`` forfeited by clause: ``{"R3": n, "R4": n, "R11": n}``."""
        return self.state.forfeits(seat)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.phase is OVER

    @property
    def to_act(self) -> int | None:
        """The seat (0-based) that must act now, or None when the game is over."""
        return None if self.state.phase is OVER else self.state.seat

    @property
    def in_play(self) -> list[int]:
        """Seats still in play: neither eliminated nor gone (R13)."""
        return self.state.in_play()

    def reinforcements(self, seat: int) -> int:
        """Armies a seat receives at the start of its turn before sets: floor(t/3), at least
        ``min_reinforcement``, plus the bonus of each whole continent held."""
        return rules.reinforcements(self.state, seat)

    def room(self, seat: int) -> int:
        """Armies the seat may still add before reaching the army limit (R4)."""
        return rules.room(self.state, seat)

    def bordering(self, seat: int, target: Territory) -> int:
        """The R8 sum: ``seat``'s armies on all its territories bordering ``target``."""
        return rules.bordering(self.state, seat, target)

    def attack_fault(self, source: Territory, target: Territory) -> Fault | None:
        """Why the seat to act may not roll from ``source`` on ``target`` now (None: legal)."""
        return rules.attack_fault(self.state, source, target)

    def can_attack(self, source: Territory, target: Territory) -> bool:
        """True when :meth:`attack_fault` finds nothing."""
        return rules.attack_fault(self.state, source, target) is None

    def legal_attacks(self) -> list[tuple[Territory, Territory]]:
        """Every (source, target) the seat to act may roll on now (R7, R8)."""
        return rules.legal_attacks(self.state)

    def fortify_fault(self, source: Territory, target: Territory, armies: int) -> Fault | None:
        """Why the seat to act may not make this strategic move now (None: legal)."""
        return rules.fortify_fault(self.state, source, target, armies)

    def legal_fortifies(self) -> list[tuple[Territory, Territory]]:
        """Every (source, target) strategic move the seat to act may make now (at least 1
        army; see :func:`risiko.rules.fortify_most` for the most)."""
        return [(s, t) for s, t, _ in rules.legal_fortifies(self.state)]

    def objective_done(self, seat: int) -> bool:
        """True when the seat holds every territory of its objective."""
        return rules.objective_done(self.state, seat)

    def closing_round_of_turn(self) -> int | None:
        """The closing round (R2) the current turn belongs to, None before the closing."""
        return rules.closing_round_of_turn(self.state)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> LegalActions:
        """What the seat to act may do now (referee actions are not listed).

        ``setup``: one :class:`Amount` of :class:`Place` per own territory (1 to the armies
        left in the step); ``reinforce``: every set in hand as :class:`Trade`, then one
        Amount of Place per own territory (1 to the reinforcements left), unless the hand is
        over ``hand_limit`` (a set first); ``attack``: every legal :class:`Attack` (R7, R8;
        dice left to chance), one Amount of :class:`Fortify` per legal pair, and
        :class:`EndTurn` (a penalised seat, R3: EndTurn only); ``move``: one Amount of
        :class:`Move`; ``over``: nothing. Perft-style counts count these entries.
        """
        st = self.state
        phase = st.phase
        seat = st.seat
        out: list[Legal] = []
        if phase is OVER:
            return LegalActions(out)
        if phase is SETUP or phase is REINFORCE:
            if phase is REINFORCE:
                out.extend(Trade(trio) for trio in rules.valid_sets(st.hands[seat]))
                if rules.must_trade(st):
                    return LegalActions(out)
                most = min(st.pending, rules.room(st, seat))
            else:
                most = st.step_left
            if most >= 1:
                out.extend(Amount(Place(t, most), 1, most) for t in iter_mask(st.owned[seat]))
            return LegalActions(out)
        if phase is MOVE:
            most = st.move_min + st.armies[st.move_from] - 1
            return LegalActions([Amount(Move(most), st.move_min, most)])
        out.extend(Attack(s, t) for s, t in rules.legal_attacks(st))
        out.extend(
            Amount(Fortify(s, t, most), 1, most) for s, t, most in rules.legal_fortifies(st)
        )
        out.append(EndTurn())
        return LegalActions(out, st.armies)

    # ------------------------------------------------------------------ the doors
    def push(self, action: Action) -> Action:
        """Check and apply ``action``; return it as recorded (with the dice used).

        Raises IllegalActionError naming the fault (and the clause) when the rules forbid
        it, ChanceExhaustedError when a scripted chance has no dice left for it; in both
        cases the game is exactly as before.
        """
        if self.state.phase is OVER:
            raise IllegalActionError(rules.GAME_OVER())
        complete = self._prepare(action)
        history = self.history
        if not len(history) % CHECKPOINT_EVERY:
            self._snapshot()
        st = self.state
        seat = st.seat
        setup = st.phase is SETUP
        try:
            self._apply(complete)
        except BaseException:  # pragma: no cover - a bug in a transition: undo it all
            self._restore(len(self.history))
            raise
        kind = type(complete)
        if kind is Place:
            if setup:  # a placement passes the turn only in the initial placement
                self._note(seat)
        elif kind is not Attack and kind is not Move:  # these pass nothing, forfeit nothing
            self._note(seat)
        self.history.append(complete)
        return complete

    def _note(self, seat: int) -> None:
        """After an action of ``seat`` (the seat to act before it) that may pass the turn or
        forfeit armies: who acts from the next action on, and what this one forfeited (R3,
        R4, R11) - the history's (seat, action) and forfeit lines, read by
        :meth:`acted_by` and :meth:`forfeit_lines` (a record) without replaying."""
        st = self.state
        now = st.seat
        turns = self._turns
        if now != seat and turns[-1] != (len(self.history) + 1, now):
            turns.append((len(self.history) + 1, now))
        forfeited = st.forfeited
        seen = self._seen
        if forfeited[seat] != seen[seat] or forfeited[now] != seen[now]:
            lines: list[tuple[int, int, int]] = []
            for s in sorted({seat, now}):
                lines.extend((s, k, x - y) for k, (x, y) in
                             enumerate(zip(forfeited[s], seen[s], strict=True)) if x != y)
                seen[s] = forfeited[s].copy()
            self._forfeits[len(self.history)] = lines

    def acted_by(self) -> list[int | None]:
        """The seat (0-based) that made each action of the history, None for the referee's
        (:data:`~risiko.actions.REFEREE_ACTIONS`), kept as the game went (no replay)."""
        out: list[int | None] = []
        turns = self._turns
        k = 0
        for i, action in enumerate(self.history):
            while k + 1 < len(turns) and turns[k + 1][0] <= i:
                k += 1
            out.append(None if isinstance(action, REFEREE_ACTIONS) else turns[k][1])
        return out

    def forfeit_lines(self) -> dict[int, list[tuple[int, str, int]]]:
        """The armies each action of the history forfeited, by its index: ``[(seat, clause
        (R3, R4, R11), armies)]`` in seat then clause order; actions that forfeited nothing
        are left out."""
        return {i: [(s, FORFEIT_CLAUSES[k], n) for s, k, n in lines]
                for i, lines in self._forfeits.items()}

    def _snapshot(self) -> None:
        """Keep the state before the action about to be pushed (the checked door, when its
        index is a multiple of :data:`CHECKPOINT_EVERY`), for :meth:`pop`."""
        self._snapshots[len(self.history)] = (
            self.state.copy(), len(self.closing_rolls), self.rolls
        )

    def _restore(self, n: int) -> None:
        """The game after its first ``n`` actions: the latest snapshot at or before ``n``
        (else the start), then the actions after it applied again (fewer than
        :data:`CHECKPOINT_EVERY` when they came through the checked door)."""
        snaps = self._snapshots
        for k in [k for k in snaps if k > n]:
            del snaps[k]
        at = max(snaps, default=-1)
        if at >= 0:
            state, closing, rolls = snaps[at]
            self.state = state.copy()
            del self.closing_rolls[closing:]
            self.rolls = rolls
        else:
            at = 0
            self.state = self._start.copy()
            self.closing_rolls = []
            self.rolls = 0
        for action in self.history[at:n]:
            self._apply(action)
        self._turns = [t for t in self._turns if t[0] <= n]
        self._forfeits = {i: x for i, x in self._forfeits.items() if i < n}
        self._seen = [f.copy() for f in self.state.forfeited]

    def push_unchecked(self, action: Action) -> Action:
        """Apply ``action`` WITHOUT checking it: the fast door for callers that take their
        action from :meth:`legal_actions` (or the same rules). Chance is drawn as in
        :meth:`push`. An illegal action here corrupts the game: use :meth:`push` for
        anything a person typed."""
        st = self.state
        if type(action) is Attack:
            if action.attacker_dice is None or action.defender_dice is None:
                action = self._roll(action)
            ad = action.attacker_dice
            dd = action.defender_dice
            assert ad is not None and dd is not None
            self.rolls += 1
            rules.do_attack(st, action.source, action.target, ad, dd)
        elif type(action) is Place:
            if st.phase is SETUP:  # the end of a step passes the turn
                seat = st.seat
                rules.do_place(st, action.territory, action.armies)
                now = st.seat
                if now != seat:  # _note, inline: the step ended, the next seat places
                    self._turns.append((len(self.history) + 1, now))
                if st.phase is not SETUP:  # round 1 began: its first turn may forfeit
                    self._note(now)
            else:
                rules.do_place(st, action.territory, action.armies)
        elif type(action) is Move:
            rules.do_move(st, action.armies)
        elif type(action) is Trade and action.value is None and action.bonus is None:
            seat = st.seat
            base, owned = rules.do_trade(st, action.cards)
            bonus = st.ruleset.owned_card_bonus
            action = Trade(action.cards, base, tuple((t, bonus) for t in owned))
            if st.forfeited[seat] != self._seen[seat]:  # R4: beyond the army limit
                self._note(seat)
        elif type(action) is EndTurn or type(action) is Fortify:
            seat = st.seat
            if (action.closing is None and st.last_round is not None
                    and rules.needs_closing_roll(st)):  # no closing dice before the call
                dice = roll(self.chance, 2)
                if type(action) is Fortify:  # written out: no dataclasses.replace (mypyc)
                    action = Fortify(action.source, action.target, action.armies, dice)
                else:
                    action = EndTurn(dice)
            if type(action) is Fortify:
                rules.do_fortify(st, action.source, action.target, action.armies)
            closing = rules.do_end_turn(st, action.closing)
            if closing is not None:
                self.closing_rolls.append(closing)
            # _note, inline (once a turn): the next seat acts; its turn's start may forfeit
            # (R3, R4); the seat ending its turn forfeits nothing here
            now = st.seat
            if now != seat:
                self._turns.append((len(self.history) + 1, now))
            if st.forfeited[now] != self._seen[now]:
                self._note(now)
        else:
            seat = st.seat
            action = self._fill(action)
            self._apply(action)
            self._note(seat)
        self.history.append(action)
        return action

    def pop(self) -> Action:
        """Undo the last action and return it (IndexError when there is none): the latest
        state stored at or before it is restored (:meth:`push` stores one every
        :data:`CHECKPOINT_EVERY` actions), and the fewer than 64 actions since applied
        again, not the whole game (after :meth:`push_unchecked`, which stores none, from
        the last one stored, or the start). The chance is not rewound."""
        if not self.history:
            raise IndexError("no action to undo")
        last = self.history.pop()
        self._restore(len(self.history))
        return last

    # ------------------------------------------------------------------ inside the doors
    def _closing_dice(self, closing: Dice | None) -> Dice | None:
        """The closing dice the turn ending now uses: the ones given, or drawn when the turn
        rolls (R2); None when it does not roll."""
        if closing is not None:
            return closing
        if rules.needs_closing_roll(self.state):
            return roll(self.chance, 2)
        return None

    def _fill(self, action: Action) -> Action:
        """The action with its chance drawn (nothing checked)."""
        st = self.state
        if isinstance(action, EndTurn):
            return EndTurn(self._closing_dice(action.closing))
        if isinstance(action, Fortify):
            return Fortify(action.source, action.target, action.armies,
                           self._closing_dice(action.closing))
        if isinstance(action, Timeout):
            return Timeout(self._closing_dice(action.closing))
        if isinstance(action, Trade) and (action.value is None or action.bonus is None):
            base, owned = rules.trade_value(st, action.cards)
            bonus = st.ruleset.owned_card_bonus
            return Trade(action.cards, base, tuple((t, bonus) for t in owned))
        if isinstance(action, Attack):
            return self._roll(action)
        return action

    def _roll(self, action: Attack) -> Attack:
        """The attack with the dice it lacks drawn from chance: the most dice each side
        rolls (R8), attacker's first, both sides at once (all or none from a scripted
        chance)."""
        src = action.source
        dst = action.target
        ad = action.attacker_dice
        dd = action.defender_dice
        arm = self.state.armies
        na = attacker_dice(arm[src])
        nd = defender_dice(arm[dst])
        chance = self.chance
        if ad is None and dd is None:
            if type(chance) is SeededChance:  # the same dice, in the same order, as below
                ad = chance.dice(na)
                dd = chance.dice(nd)
            else:
                both = roll(chance, na + nd)
                ad = both[:na]
                dd = both[na:]
        else:
            ad = ad if ad is not None else roll(self.chance, na)
            dd = dd if dd is not None else roll(self.chance, nd)
        return _attack(src, dst, ad, dd)

    def _prepare(self, action: Action) -> Action:
        """Check ``action`` (IllegalActionError) and return it complete, chance drawn."""
        st = self.state
        if isinstance(action, Place):
            _illegal(rules.check_place(st, action.territory, action.armies))
            return action
        if isinstance(action, Trade):
            bonus = None
            if action.bonus is not None:
                if any(n != st.ruleset.owned_card_bonus for _, n in action.bonus):
                    bonus = [-1]  # a wrong amount: refused below as a wrong bonus
                else:
                    bonus = [t for t, _ in action.bonus]
            _illegal(rules.check_trade(st, action.cards, action.value, bonus))
            return self._fill(action)
        if isinstance(action, Attack):
            _illegal(rules.attack_fault(st, action.source, action.target))
            _illegal(rules.check_attack_dice(
                st, action.source, action.target, action.attacker_dice, action.defender_dice
            ))
            return self._fill(action)
        if isinstance(action, Move):
            _illegal(rules.check_move(st, action.armies))
            return action
        if isinstance(action, Fortify):
            _illegal(rules.fortify_fault(st, action.source, action.target, action.armies))
            _illegal(rules.check_closing(st, action.closing))
            return self._fill(action)
        if isinstance(action, EndTurn):
            _illegal(rules.check_end(st))
            _illegal(rules.check_closing(st, action.closing))
            return self._fill(action)
        if isinstance(action, CallLastRounds):
            _illegal(rules.check_referee_call(st))
            return action
        if isinstance(action, WidenClosing):
            _illegal(rules.check_widen(st))
            return action
        if isinstance(action, EndGame):
            return action
        if isinstance(action, Timeout):
            _illegal(rules.check_timeout(st, action.closing))
            return self._fill(action)
        if isinstance(action, Abandon):
            _illegal(rules.check_abandon(st, action.seat))
            return action
        if isinstance(action, Late):
            _illegal(rules.check_late(st, action.seat))
            return action
        raise IllegalActionError(rules.UNKNOWN_ACTION(action=repr(action)))

    def _apply(self, action: Action) -> None:
        """Apply a complete action (chance in it) to the state; no check."""
        st = self.state
        closing: ClosingRoll | None = None
        if isinstance(action, Attack):
            assert action.attacker_dice is not None and action.defender_dice is not None
            self.rolls += 1
            rules.do_attack(st, action.source, action.target, action.attacker_dice,
                            action.defender_dice)
        elif isinstance(action, Place):
            rules.do_place(st, action.territory, action.armies)
        elif isinstance(action, Move):
            rules.do_move(st, action.armies)
        elif isinstance(action, EndTurn):
            closing = rules.do_end_turn(st, action.closing)
        elif isinstance(action, Fortify):
            rules.do_fortify(st, action.source, action.target, action.armies)
            closing = rules.do_end_turn(st, action.closing)
        elif isinstance(action, Trade):
            figures = None  # the value checked or drawn up by _prepare: not computed again
            if action.value is not None and action.bonus is not None:
                figures = (action.value, tuple(t for t, _ in action.bonus))
            rules.do_trade(st, action.cards, figures)
        elif isinstance(action, Timeout):
            closing = rules.do_timeout(st, action.closing)
        elif isinstance(action, CallLastRounds):
            rules.do_call(st)
        elif isinstance(action, WidenClosing):
            rules.do_widen(st)
        elif isinstance(action, EndGame):
            rules.finish(st, EndReason.REFEREE, action.reason or "ended by the referee")
        elif isinstance(action, Abandon):
            rules.do_abandon(st, action.seat)
        elif isinstance(action, Late):
            rules.do_late(st, action.seat)
        if closing is not None:
            self.closing_rolls.append(closing)

    # ------------------------------------------------------------------ results
    def scores(self) -> list[SeatScore]:
        """Each seat's table score with its breakdown (R1, R5, R15, R16, R13)."""
        return rules.scores(self.state)

    def forfeits_json(self) -> dict[str, dict[str, int]]:
        """Forfeited armies per player and clause: ``{player: {"R3": n, "R4": n, "R11": n}}``."""
        return {
            self.players[s]: dict(zip(FORFEIT_CLAUSES, self.state.forfeited[s], strict=True))
            for s in range(self.n)
        }

    def sheet(self) -> dict[str, Any]:
        """The end board in the sheet format of ``risiko score``."""
        seats = []
        for s in range(self.n):
            entry: dict[str, Any] = {
                "player": self.players[s],
                "objective": self.objectives[s].number,
                "armies": {
                    territory_name(t): self.armies[t] for t in iter_mask(self.owned[s])
                },
            }
            if self.status[s] is ABANDONED:
                entry["abandoned"] = True
            seats.append(entry)
        return {"ruleset": self.ruleset.label, "seats": seats}

    def check_invariants(self) -> None:
        """Raise AssertionError if the state is inconsistent (used by property tests)."""
        rules.check_invariants(self.state)

    def mask_names(self, mask: Mask) -> list[str]:
        """Territory names of a mask (helper for messages)."""
        return [territory_name(t) for t in iter_mask(mask)]
