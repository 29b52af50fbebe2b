"""A RisiKo! game under a ruleset: state, legality and transitions.

One door in: :meth:`Game.push` takes an action (see :mod:`risiko.actions`), checks it against
the ruleset and applies it, or raises :class:`IllegalActionError` (a ValueError) naming the
fault and leaving the state untouched. The end of a game is data (:class:`Outcome`).

Turn structure (standard game plus the club regulation):

``setup``      seats place their initial armies, ``setup_step`` (3) at a time, in seat order;
``reinforce``  card sets (R9) and reinforcements (floor(t/3), min 1, continent bonuses), capped
               by the army limit (R4: what cannot be placed is forfeited); a late seat (R3)
               forfeits them in its first 3 turns and goes straight to ``attack``;
``attack``     rolls (R7/R8 checked before each), then :class:`Fortify` or :class:`EndTurn`;
``move``       after a conquest, the armies moved in (at least the dice of the last roll);
``over``       the game has ended.

At the end of a turn: one card if the seat conquered at least one territory; the closing dice
(R2) once the LAST round has been reached; then the next seat still in play.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .actions import (
    Abandon,
    Action,
    Attack,
    CallLastRounds,
    Dice,
    EndGame,
    EndTurn,
    Fortify,
    Move,
    Place,
    Timeout,
    Trade,
    WidenClosing,
)
from .board import (
    CONTINENT_BONUS,
    CONTINENT_MASKS,
    NUM_TERRITORIES,
    Mask,
    Territory,
    iter_mask,
    territory_name,
)
from .cards import NUM_CARDS, best_set, card_name, is_jolly, set_kind, set_value
from .dice import Chance, SeededChance, roll
from .objectives import OBJECTIVES, Objective
from .ruleset import CLUB_MILANO, Ruleset
from .scoring import SeatScore, score_seat

SETUP, REINFORCE, ATTACK, MOVE, OVER = "setup", "reinforce", "attack", "move", "over"
IN_PLAY, ELIMINATED, ABANDONED = "in_play", "eliminated", "abandoned"
END_REASONS = ("risiko", "closing_dice", "referee", "all_others_eliminated")


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message names the fault and the clause."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``end`` in END_REASONS, ``rounds`` played (the round in progress
    counts), ``winner`` (player name, None on a tie for the best score), ``reason`` text."""

    end: str
    rounds: int
    winner: str | None
    reason: str = ""


@dataclass(frozen=True)
class ClosingRoll:
    """One closing-dice turn (R2): ``sum`` None when the seat may not roll (3+ conquests)."""

    seat: int
    player: str
    closing_round: int
    sum: int | None
    closed: bool
    conquests: int
    dice: Dice | None = None

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


def _check_dice(d: Dice, n: int, who: str) -> Dice:
    if len(d) != n:
        raise IllegalActionError(f"the {who} rolls {n} dice (R8: always the maximum), not {len(d)}")
    for x in d:
        if not 1 <= x <= 6:
            raise IllegalActionError(f"a die shows 1..6, not {x}")
    return tuple(sorted(d, reverse=True))


class Game:
    """The state of one table and its history.

    Build with :meth:`Game.new` (chance draws the deal, objectives and deck) or directly with
    an explicit ``deal`` (territory order of the deal, dealt one at a time in seat order),
    ``objectives`` (numbers 1..16 per seat) and ``deck`` (order of the 44 cards, top first).
    ``late`` lists seats (0-based) arriving late (R3); ``last_rounds_at`` makes the call of
    the last 2 rounds automatic at the start of that round (simulations).

    Read-only attributes for callers: ``owner`` and ``armies`` (lists over territories),
    ``owned`` (mask per seat), ``totals`` (armies per seat), ``hands`` (cards per seat),
    ``phase``, ``seat`` (the seat to act), ``round``, ``history``, ``outcome``.
    Raises ValueError for a bad deal, objectives or deck.
    """

    _handlers: ClassVar[dict[type, Callable[[Game, Any], Action]]]

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
        self.ruleset = ruleset
        self.players: tuple[str, ...] = tuple(players)
        if len(set(self.players)) != n:
            raise ValueError("two seats have the same player name")
        initial = ruleset.initial_armies_for(n)
        if sorted(deal) != list(range(NUM_TERRITORIES)):
            raise ValueError("the deal must list each of the 42 territories once")
        if len(objectives) != n or len(set(objectives)) != n:
            raise ValueError(f"{n} seats need {n} different objectives, got {list(objectives)}")
        for o in objectives:
            if isinstance(o, bool) or not isinstance(o, int) or not 1 <= o <= len(OBJECTIVES):
                raise ValueError(f"objective {o!r}: objectives are numbered 1 to {len(OBJECTIVES)}")
        self.objectives: tuple[Objective, ...] = tuple(OBJECTIVES[o - 1] for o in objectives)
        if sorted(deck) != list(range(NUM_CARDS)):
            raise ValueError("the deck must hold each of the 44 cards once")
        self.late_turns = [0] * n
        for s in late:
            if not 0 <= s < n:
                raise ValueError(f"late seat {s + 1} is not at this table")
            self.late_turns[s] = ruleset.late_penalty_turns
        if last_rounds_at is not None and last_rounds_at < 1:
            raise ValueError("last_rounds_at counts rounds from 1")
        self.deal: tuple[int, ...] = tuple(deal)
        self.deck_order: tuple[int, ...] = tuple(deck)
        self.chance: Chance = chance if chance is not None else SeededChance()
        self.last_rounds_at = last_rounds_at
        self.neighbours = ruleset.board.neighbours
        #: neighbours of each territory as a tuple of territories (fast iteration)
        self.adjacency: tuple[tuple[int, ...], ...] = tuple(
            tuple(iter_mask(m)) for m in self.neighbours
        )
        self.n = n
        self.owner = [0] * NUM_TERRITORIES
        self.armies = [1] * NUM_TERRITORIES
        self.owned = [0] * n
        self.totals = [0] * n
        for i, t in enumerate(deal):
            s = i % n
            self.owner[t] = s
            self.owned[s] |= 1 << t
            self.totals[s] += 1
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: deque[int] = deque(deck)
        self.status = [IN_PLAY] * n
        self.turns_taken = [0] * n
        self.setup_left = [initial - self.totals[s] for s in range(n)]
        self.phase = SETUP
        self.seat = 0
        self.round = 0
        self.step_left = min(ruleset.setup_step, self.setup_left[0])
        self.pending = 0
        self.forfeited = [0] * n
        self.conquests = 0
        self.penalised_turn = False
        self.move_from = -1
        self.move_to = -1
        self.move_min = 0
        self.last_round: int | None = None
        self.closing_anchor: int | None = None
        self.closing_extra = 0
        self.closing_rolls: list[ClosingRoll] = []
        self.history: list[Action] = []
        self.outcome: Outcome | None = None
        self.risiko_seat: int | None = None
        self.rolls = 0
        self.notes: list[str] = []
        if self.step_left == 0:
            self._next_setup_seat()

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

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.phase == OVER

    @property
    def to_act(self) -> int | None:
        """The seat (0-based) that must act now, or None when the game is over."""
        return None if self.phase == OVER else self.seat

    @property
    def in_play(self) -> list[int]:
        """Seats still in play: neither eliminated nor gone (R13)."""
        return [s for s in range(self.n) if self.status[s] == IN_PLAY]

    def reinforcements(self, seat: int) -> int:
        """Armies a seat receives at the start of its turn before sets: floor(t/3), at least
        ``min_reinforcement``, plus the bonus of each whole continent held."""
        owned = self.owned[seat]
        base = max(self.ruleset.min_reinforcement, owned.bit_count() // 3)
        for c, m in enumerate(CONTINENT_MASKS):
            if owned & m == m:
                base += CONTINENT_BONUS[c]
        return base

    def room(self, seat: int) -> int:
        """Armies the seat may still add before reaching the army limit (R4)."""
        limit = self.ruleset.army_limit
        return 10**9 if limit is None else max(0, limit - self.totals[seat])

    def support(self, seat: int, target: Territory) -> int:
        """Sum of ``seat``'s armies on all its territories bordering ``target`` (R8)."""
        total = 0
        arm = self.armies
        m = self.neighbours[target] & self.owned[seat]
        while m:
            low = m & -m
            total += arm[low.bit_length() - 1]
            m ^= low
        return total

    def attack_fault(self, source: Territory, target: Territory) -> str | None:
        """Why the seat to act may not roll from ``source`` on ``target`` now (None = legal)."""
        if self.phase != ATTACK:
            return f"no attack in the {self.phase} phase"
        if self.penalised_turn:
            return "a late seat may not attack in its first turns (R3)"
        seat = self.seat
        if self.owner[source] != seat:
            return f"{territory_name(source)} is not yours"
        if self.owner[target] == seat:
            return f"{territory_name(target)} is yours"
        if not self.neighbours[source] >> target & 1:
            return f"{territory_name(source)} does not border {territory_name(target)}"
        a = self.armies[source]
        if a < 2:
            return f"{territory_name(source)} has only 1 army"
        d = self.armies[target]
        rs = self.ruleset
        if rs.dice_parity and min(3, a - 1) < min(3, d):
            return (
                f"R7: {min(3, a - 1)} attacking dice against {min(3, d)} defending dice"
            )
        if rs.army_superiority and a <= rs.superiority_waiver_above:
            sup = self.support(seat, target)
            if sup <= d:
                return (
                    f"R8: {sup} armies bordering {territory_name(target)} against {d}, "
                    f"and {territory_name(source)} has not more than "
                    f"{rs.superiority_waiver_above}"
                )
        return None

    def can_attack(self, source: Territory, target: Territory) -> bool:
        """True when :meth:`attack_fault` finds nothing."""
        return self.attack_fault(source, target) is None

    def legal_attacks(self) -> list[tuple[Territory, Territory]]:
        """Every (source, target) the seat to act may roll on now (R7, R8)."""
        if self.phase != ATTACK or self.penalised_turn:
            return []
        seat = self.seat
        rs = self.ruleset
        arm = self.armies
        owner = self.owner
        adj = self.adjacency
        parity = rs.dice_parity
        superiority = rs.army_superiority
        waiver = rs.superiority_waiver_above
        out: list[tuple[int, int]] = []
        sup = [-1] * NUM_TERRITORIES  # R8 sums, computed once per target when needed
        m = self.owned[seat]
        while m:
            low = m & -m
            src = low.bit_length() - 1
            m ^= low
            a = arm[src]
            if a < 2:
                continue
            da = 3 if a > 3 else a - 1
            check = superiority and a <= waiver
            for dst in adj[src]:
                if owner[dst] == seat:
                    continue
                d = arm[dst]
                if parity and da < (3 if d > 3 else d):
                    continue
                if check:
                    total = sup[dst]
                    if total < 0:
                        total = 0
                        for x in adj[dst]:
                            if owner[x] == seat:
                                total += arm[x]
                        sup[dst] = total
                    if total <= d:
                        continue
                out.append((src, dst))
        return out

    def fortify_fault(self, source: Territory, target: Territory, armies: int) -> str | None:
        """Why the seat to act may not make this strategic move now (None = legal)."""
        if not (0 <= source < NUM_TERRITORIES and 0 <= target < NUM_TERRITORIES):
            return f"no territory {source if not 0 <= source < NUM_TERRITORIES else target}"
        if self.phase != ATTACK:
            return f"no strategic move in the {self.phase} phase"
        if self.penalised_turn:
            return "a late seat may not move in its first turns (R3)"
        seat = self.seat
        if self.owner[source] != seat or self.owner[target] != seat:
            return "both territories of a strategic move must be yours"
        if source == target or not self.neighbours[source] >> target & 1:
            return f"{territory_name(source)} does not border {territory_name(target)}"
        keep = 1
        if self.neighbours[source] & ~self.owned[seat]:
            keep = max(keep, self.ruleset.fortify_min_left_on_border)
        if not 1 <= armies <= self.armies[source] - keep:
            return (
                f"{territory_name(source)} can move 1..{self.armies[source] - keep} armies, "
                f"not {armies}"
            )
        return None

    def legal_fortifies(self) -> list[tuple[Territory, Territory]]:
        """Every (source, target) strategic move the seat to act may make now (at least 1
        army; the most it may move is ``armies[source]`` less what must stay)."""
        if self.phase != ATTACK or self.penalised_turn:
            return []
        seat = self.seat
        arm = self.armies
        owner = self.owner
        adj = self.adjacency
        keep_border = self.ruleset.fortify_min_left_on_border
        out: list[tuple[int, int]] = []
        m = self.owned[seat]
        while m:
            low = m & -m
            src = low.bit_length() - 1
            m ^= low
            a = arm[src]
            if a < 2:
                continue
            targets = [t for t in adj[src] if owner[t] == seat]
            if not targets:
                continue
            if keep_border > 1 and len(targets) < len(adj[src]) and a <= keep_border:
                continue
            for t in targets:
                out.append((src, t))
        return out

    def objective_done(self, seat: int) -> bool:
        """True when the seat holds every territory of its objective."""
        m = self.objectives[seat].mask
        return self.owned[seat] & m == m

    def closing_round_of_turn(self) -> int | None:
        """The closing round (R2) the current turn belongs to, None before the closing."""
        lr = self.last_round
        if lr is None or self.round < lr:
            return None
        if self.round == lr:
            # the last seat of the LAST round opens closing round 1
            return 1 if self._is_last_seat_of_round() else None
        anchor = self.closing_anchor if self.closing_anchor is not None else self.n - 1
        return (self.round - lr) + (1 if self.seat >= anchor else 0)

    def _is_last_seat_of_round(self) -> bool:
        return all(self.status[s] != IN_PLAY for s in range(self.seat + 1, self.n))

    # ------------------------------------------------------------------ the door
    def push(self, action: Action) -> Action:
        """Check and apply ``action``; return it as recorded (with the dice used).

        Raises IllegalActionError naming the fault (and the clause) when the rules forbid it;
        the state is then unchanged.
        """
        if self.phase == OVER:
            raise IllegalActionError("the game is over")
        handler = self._handlers.get(type(action))
        recorded = handler(self, action) if handler is not None else self._referee(action)
        self.history.append(recorded)
        return recorded

    def _end_turn_action(self, action: EndTurn) -> Action:
        if self.phase != ATTACK:
            raise IllegalActionError(self._phase_fault("end the turn"))
        closing = self._closing_check(action.closing)
        return EndTurn(self._end_turn(closing))

    def _fortify(self, action: Fortify) -> Action:
        fault = self.fortify_fault(action.source, action.target, action.armies)
        if fault:
            raise IllegalActionError(fault)
        closing = self._closing_check(action.closing)
        self.armies[action.source] -= action.armies
        self.armies[action.target] += action.armies
        return Fortify(action.source, action.target, action.armies, self._end_turn(closing))

    def _phase_fault(self, what: str) -> str:
        if self.phase == REINFORCE:
            return f"cannot {what}: {self.pending} reinforcements still to place"
        if self.phase == MOVE:
            return f"cannot {what}: first move armies into {territory_name(self.move_to)}"
        return f"cannot {what} in the {self.phase} phase"

    # ------------------------------------------------------------------ seat actions
    def _place(self, action: Place) -> Action:
        t, n = action.territory, action.armies
        seat = self.seat
        if not 0 <= t < NUM_TERRITORIES:
            raise IllegalActionError(f"no territory {t}")
        if self.owner[t] != seat:
            raise IllegalActionError(
                f"{territory_name(t)} is not held by {self.players[seat]}"
            )
        if self.phase == SETUP:
            if not 1 <= n <= self.step_left:
                raise IllegalActionError(
                    f"initial placement: 1..{self.step_left} armies in this step, not {n}"
                )
            self.armies[t] += n
            self.totals[seat] += n
            self.setup_left[seat] -= n
            self.step_left -= n
            if self.step_left == 0:
                self._next_setup_seat()
            return action
        if self.phase != REINFORCE:
            raise IllegalActionError(self._phase_fault("place armies"))
        if not 1 <= n <= self.pending:
            raise IllegalActionError(f"1..{self.pending} reinforcements to place, not {n}")
        limit = self.ruleset.hand_limit
        hand = self.hands[seat]
        if limit is not None and len(hand) > limit and best_set(hand) is not None:
            raise IllegalActionError(
                f"{self.players[seat]} holds {len(hand)} cards (more than {limit}): "
                "trade a set first"
            )
        if n > self.room(seat):  # pending is clamped, so this guards direct edits only
            raise IllegalActionError(f"R4: more than {self.ruleset.army_limit} armies")
        self.armies[t] += n
        self.totals[seat] += n
        self.pending -= n
        if self.pending == 0:
            self.phase = ATTACK
        return action

    def _trade(self, action: Trade) -> Action:
        seat = self.seat
        if self.phase != REINFORCE:
            if self.penalised_turn:
                raise IllegalActionError("a late seat may not trade card sets (R3)")
            raise IllegalActionError("card sets are traded during reinforcement (R9)")
        hand = self.hands[seat]
        cards = action.cards
        for c in cards:
            if c not in hand:
                raise IllegalActionError(f"{self.players[seat]} does not hold {card_name(c)}")
        if set_kind(cards) is None:
            raise IllegalActionError(
                "not a valid set: " + ", ".join(card_name(c) for c in cards)
            )
        base, _ = set_value(self.ruleset, cards, len(hand), self.owned[seat])
        for c in cards:
            hand.remove(c)
            self.deck.append(c)  # traded cards go to the bottom of the deck
        bonus = self.ruleset.owned_card_bonus
        for c in cards:
            if bonus and not is_jolly(c) and self.owner[c] == seat:
                if self.ruleset.owned_card_bonus_on_territory:
                    put = min(bonus, self.room(seat) - self.pending)
                    if put > 0:
                        self.armies[c] += put
                        self.totals[seat] += put
                    self.forfeited[seat] += bonus - max(put, 0)
                else:
                    base += bonus
        add = min(base, max(0, self.room(seat) - self.pending))
        self.forfeited[seat] += base - add
        self.pending += add
        if self.pending == 0:
            self.phase = ATTACK
        return action

    def _attack(self, action: Attack) -> Action:
        src, dst = action.source, action.target
        if not (0 <= src < NUM_TERRITORIES and 0 <= dst < NUM_TERRITORIES):
            raise IllegalActionError("no such territory")
        fault = self.attack_fault(src, dst)
        if fault:
            raise IllegalActionError(fault)
        arm = self.armies
        a, d = arm[src], arm[dst]
        na = 3 if a > 3 else a - 1
        nd = 3 if d > 3 else d
        if action.attacker_dice is not None:
            ad = _check_dice(action.attacker_dice, na, "attacker")
        else:
            ad = roll(self.chance, na)
        if action.defender_dice is not None:
            dd = _check_dice(action.defender_dice, nd, "defender")
        else:
            dd = roll(self.chance, nd)
        self.rolls += 1
        lose_a = lose_d = 0
        for i in range(na if na < nd else nd):
            if ad[i] > dd[i]:
                lose_d += 1
            else:
                lose_a += 1
        seat = self.seat
        defender = self.owner[dst]
        arm[src] = a - lose_a
        arm[dst] = d - lose_d
        self.totals[seat] -= lose_a
        self.totals[defender] -= lose_d
        if d - lose_d == 0:
            self._conquer(seat, defender, src, dst, na)
        return Attack(src, dst, ad, dd)

    def _conquer(self, seat: int, defender: int, src: int, dst: int, dice: int) -> None:
        bit = 1 << dst
        self.owner[dst] = seat
        self.owned[seat] |= bit
        self.owned[defender] &= ~bit
        self.conquests += 1
        if self.owned[defender] == 0:
            if self.status[defender] == IN_PLAY:
                self.status[defender] = ELIMINATED
            if self.ruleset.eliminated_cards_to_eliminator:
                # R14: usable from the eliminator's next turn: sets are traded only during
                # reinforcement, which for this turn is already over.
                self.hands[seat].extend(self.hands[defender])
                self.hands[defender] = []
        # the minimum move (the dice of the last roll) always happens
        self.armies[src] -= dice
        self.armies[dst] = dice
        if self.objective_done(seat):
            self.risiko_seat = seat
            self._finish("risiko", f"{self.players[seat]} completed objective "
                         f"{self.objectives[seat].number} ({self.objectives[seat].name})")
            return
        if len(self.in_play) < 2:
            self._finish("all_others_eliminated", "one seat left in play")
            return
        extra = self.armies[src] - 1
        if extra > 0:
            self.phase = MOVE
            self.move_from, self.move_to, self.move_min = src, dst, dice

    def _move(self, action: Move) -> Action:
        if self.phase != MOVE:
            raise IllegalActionError("no conquest waiting for armies")
        n = action.armies
        most = self.move_min + self.armies[self.move_from] - 1
        if not self.move_min <= n <= most:
            raise IllegalActionError(
                f"move {self.move_min}..{most} armies into {territory_name(self.move_to)}, "
                f"not {n}"
            )
        extra = n - self.move_min
        self.armies[self.move_from] -= extra
        self.armies[self.move_to] += extra
        self.phase = ATTACK
        return action

    # ------------------------------------------------------------------ turn flow
    def _next_setup_seat(self) -> None:
        n = self.n
        for k in range(1, n + 1):
            s = (self.seat + k) % n
            if self.setup_left[s] > 0 and self.status[s] == IN_PLAY:
                self.seat = s
                self.step_left = min(self.ruleset.setup_step, self.setup_left[s])
                return
        # setup complete: round 1 begins with the first seat in play
        self.round = 1
        first = self.in_play[0]
        self.seat = first
        self._begin_round_checks()
        self._start_turn()

    def _begin_round_checks(self) -> None:
        if (
            self.last_rounds_at is not None
            and self.last_round is None
            and self.round >= self.last_rounds_at
        ):
            self.last_round = self.round + 1
            self.notes.append(f"last 2 rounds called automatically in round {self.round}")

    def _start_turn(self) -> None:
        seat = self.seat
        self.turns_taken[seat] += 1
        self.conquests = 0
        self.move_from = self.move_to = -1
        self.penalised_turn = self.turns_taken[seat] <= self.late_turns[seat]
        gain = self.reinforcements(seat)
        if self.penalised_turn:
            self.forfeited[seat] += gain
            self.pending = 0
            self.phase = ATTACK
            return
        room = self.room(seat)
        self.pending = min(gain, room)
        self.forfeited[seat] += gain - self.pending
        self.phase = REINFORCE if self.pending > 0 else ATTACK

    def _closing_check(self, closing: Dice | None) -> Dice | None:
        """Validate closing dice typed for the turn ending now, before any change of state."""
        if closing is None:
            return None
        closing = _check_dice(closing, 2, "closing roll")
        if self.closing_round_of_turn() is None:
            raise IllegalActionError("no closing dice before the end of the LAST round (R2)")
        if self.conquests >= self.ruleset.closing_skip_if_conquered:
            raise IllegalActionError(
                f"{self.players[self.seat]} conquered {self.conquests} territories this turn "
                "and does not roll the closing dice (R2)"
            )
        if self.penalised_turn and not self.ruleset.penalised_seats_roll:
            raise IllegalActionError(
                f"{self.players[self.seat]} is penalised and does not roll (penalised_seats_roll)"
            )
        return closing

    def _end_turn(self, closing: Dice | None, *, draws: bool = True) -> Dice | None:
        seat = self.seat
        if draws and self.conquests > 0 and self.deck:
            self.hands[seat].append(self.deck.popleft())
        used: Dice | None = None
        k = self.closing_round_of_turn()
        if k is not None:
            if self.round == self.last_round:
                self.closing_anchor = seat
            band_round = k + self.closing_extra
            if self.conquests >= self.ruleset.closing_skip_if_conquered or (
                self.penalised_turn and not self.ruleset.penalised_seats_roll
            ):
                self.closing_rolls.append(
                    ClosingRoll(seat, self.players[seat], band_round, None, False, self.conquests)
                )
            else:
                used = closing if closing is not None else roll(self.chance, 2)
                total = used[0] + used[1]
                low, high = self.ruleset.closing_band(band_round)
                closed = low <= total <= high
                self.closing_rolls.append(
                    ClosingRoll(
                        seat, self.players[seat], band_round, total, closed, self.conquests, used
                    )
                )
                if closed:
                    self._finish(
                        "closing_dice",
                        f"{self.players[seat]} rolled {total} in closing round {band_round} "
                        f"(band {low}..{high})",
                    )
                    return used
        self._advance()
        return used

    def _advance(self) -> None:
        n = self.n
        cur = self.seat
        for k in range(1, n + 1):
            s = (cur + k) % n
            if self.status[s] == IN_PLAY:
                break
        else:  # pragma: no cover - guarded by the end conditions
            self._finish("all_others_eliminated", "no seat left in play")
            return
        if s <= cur:
            self.round += 1
            self._begin_round_checks()
        self.seat = s
        self._start_turn()

    def _finish(self, end: str, reason: str) -> None:
        self.phase = OVER
        self.pending = 0
        winner: str | None
        if self.risiko_seat is not None:
            winner = self.players[self.risiko_seat]
        else:
            scores = [s.score for s in self.scores()]
            best = max(scores)
            winner = self.players[scores.index(best)] if scores.count(best) == 1 else None
        self.outcome = Outcome(end, self.round, winner, reason)

    # ------------------------------------------------------------------ referee actions
    def _referee(self, action: Action) -> Action:
        if isinstance(action, CallLastRounds):
            if self.last_round is not None:
                raise IllegalActionError("the last 2 rounds have already been called")
            if self.phase == SETUP:
                raise IllegalActionError("the last 2 rounds cannot be called during setup")
            self.last_round = self.round + 1
            return action
        if isinstance(action, WidenClosing):
            if self.last_round is None:
                raise IllegalActionError("no closing to widen: the last rounds are not called")
            self.closing_extra += 1
            return action
        if isinstance(action, EndGame):
            self._finish("referee", action.reason or "ended by the referee")
            return action
        if isinstance(action, Timeout):
            if self.phase == SETUP:
                raise IllegalActionError("no turn clock during the initial placement")
            closing = self._closing_check(action.closing)
            if self.phase == MOVE:
                self.phase = ATTACK  # the minimum move has already been made
            self.forfeited[self.seat] += self.pending
            self.pending = 0
            closing = self._end_turn(closing, draws=self.ruleset.timeout_draws_card)
            return Timeout(closing)
        if isinstance(action, Abandon):
            s = action.seat
            if not 0 <= s < self.n:
                raise IllegalActionError(f"no seat {s + 1} at this table")
            if self.status[s] != IN_PLAY:
                raise IllegalActionError(f"{self.players[s]} is already {self.status[s]}")
            self.status[s] = ABANDONED
            self.setup_left[s] = 0
            if len(self.in_play) < 2:
                self._finish("all_others_eliminated", f"{self.players[s]} left; one seat left")
                return action
            if self.seat == s:
                self.pending = 0
                if self.phase == SETUP:
                    self._next_setup_seat()
                else:
                    self._advance()
            return action
        raise IllegalActionError(f"unknown action {action!r}")

    # ------------------------------------------------------------------ results
    def scores(self) -> list[SeatScore]:
        """Each seat's table score with its breakdown (R1, R5, R15, R16, R13)."""
        out = []
        for s in range(self.n):
            out.append(
                score_seat(
                    self.ruleset,
                    self.players[s],
                    self.objectives[s],
                    self.owned[s],
                    self.totals[s],
                    risiko=(self.risiko_seat == s),
                    eliminated=self.status[s] == ELIMINATED,
                    abandoned=self.status[s] == ABANDONED,
                )
            )
        return out

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
            if self.status[s] == ABANDONED:
                entry["abandoned"] = True
            seats.append(entry)
        return {"ruleset": self.ruleset.name, "seats": seats}

    def check_invariants(self) -> None:
        """Raise AssertionError if the state is inconsistent (used by property tests)."""
        union = 0
        for s in range(self.n):
            assert union & self.owned[s] == 0, "two seats own one territory"
            union |= self.owned[s]
            assert self.totals[s] == sum(self.armies[t] for t in iter_mask(self.owned[s]))
            limit = self.ruleset.army_limit
            assert limit is None or self.totals[s] <= limit, "army limit passed"
        assert union == (1 << NUM_TERRITORIES) - 1, "owners do not partition the board"
        for t in range(NUM_TERRITORIES):
            assert self.armies[t] >= 1, f"{territory_name(t)} has no army"
            assert self.owned[self.owner[t]] >> t & 1
        cards = list(self.deck) + [c for h in self.hands for c in h]
        assert sorted(cards) == list(range(NUM_CARDS)), "cards lost or duplicated"
        if self.phase != OVER:
            assert self.status[self.seat] == IN_PLAY, "a seat out of play is to act"

    def mask_names(self, mask: Mask) -> list[str]:
        """Territory names of a mask (helper for messages)."""
        return [territory_name(t) for t in iter_mask(mask)]


Game._handlers = {
    Attack: Game._attack,
    Place: Game._place,
    Move: Game._move,
    EndTurn: Game._end_turn_action,
    Fortify: Game._fortify,
    Trade: Game._trade,
}
