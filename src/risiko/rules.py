"""The rules of a game, as functions over a :class:`~risiko.state.State`.

Three families:

- questions (``reinforcements``, ``room``, ``bordering``, ``attack_fault``, ``fortify_most``,
  ``closing_round_of_turn`` ...): read the state, change nothing;
- checks (``check_*``): the :class:`~risiko.faults.Fault` that forbids an action now, or
  None; they never change the state;
- transitions (``do_*``): apply an action ALREADY CHECKED, with its chance given (dice),
  to the state. They do not check again: :class:`risiko.game.Game` is the door that checks
  (``push``) or trusts its caller (``push_unchecked``).

Turn structure (standard game plus the club regulation):

``setup``      seats place their initial armies, ``setup_step`` (3) at a time, in seat order;
``reinforce``  card sets (R9) and reinforcements (floor(t/3), min 1, continent bonuses), capped
               by the army limit (R4: what cannot be placed is forfeited); a late seat (R3)
               forfeits them in its first 3 turns and goes straight to ``attack``;
``attack``     rolls (R7/R8 checked before each), then a strategic move or the end of the turn;
``move``       after a conquest, the armies moved in (at least the dice of the last roll);
``over``       the game has ended.

At the end of a turn: one card if the seat conquered at least one territory; the closing dice
(R2) once the LAST round has been reached; then the next seat still in play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

from .attack import attack_fault as _attack_rule_fault
from .attack import bordering_armies, is_legal_on_board, roll_losses
from .board import (
    CONTINENT_BONUS,
    CONTINENT_MASKS,
    NUM_TERRITORIES,
    Territory,
    territories_of,
    territory_name,
)
from .cards import (
    INVALID_SET,
    NUM_CARDS,
    best_set,
    card_name,
    owned_cards,
    set_base_value,
    set_kind,
    sets_in,
)
from .closing import closing_roll_fault, closing_round_of
from .faults import Fault, define
from .objectives import OBJECTIVES
from .ruleset import Ruleset
from .scoring import SeatScore, score_seat
from .state import (
    R3,
    R4,
    R11,
    ClosingRoll,
    EndReason,
    Outcome,
    Phase,
    SeatStatus,
    State,
)

# Final: the compiled build (mypyc) reads them as constants, not from the module's dict
SETUP: Final = Phase.SETUP
REINFORCE: Final = Phase.REINFORCE
ATTACK: Final = Phase.ATTACK
MOVE: Final = Phase.MOVE
OVER: Final = Phase.OVER
IN_PLAY: Final = SeatStatus.IN_PLAY
ELIMINATED: Final = SeatStatus.ELIMINATED
ABANDONED: Final = SeatStatus.ABANDONED

#: True when this module runs compiled (a C extension built by mypyc, issue 16): the one
#: place the two builds take different (equal) paths, for speed (:func:`sample_attack`)
_COMPILED: Final = __file__.endswith(tuple(EXTENSION_SUFFIXES))

# ---------------------------------------------------------------------------- faults
GAME_OVER = define("game.over", "", "the game is over")
NO_TERRITORY = define("game.no_territory", "", "no territory number {number}")
NOT_HELD = define("game.not_held", "", "{territory} is not held by {player}")
OWN_TARGET = define(
    "game.own_target", "", "{target} is held by {player}: attacks go on enemy territories"
)
NOT_BORDERING = define("game.not_bordering", "", "{territory} does not border {target}")
WRONG_PHASE = define(
    "game.wrong_phase", "", "{player} cannot '{action}' in the {phase} phase"
)
SETUP_PENDING = define(
    "game.setup_pending", "",
    "{player} is placing the initial armies: {armies} more in this step",
)
REINFORCEMENTS_PENDING = define(
    "game.reinforcements_pending", "", "{player} has {pending} reinforcements still to place"
)
MOVE_PENDING = define(
    "game.move_pending", "", "{player} must first move armies into {territory}"
)
SETUP_AMOUNT = define(
    "game.setup_amount", "",
    "initial placement: 1 to {most} armies in this step, not {armies}",
)
PLACE_AMOUNT = define(
    "game.place_amount", "",
    "{player} has {pending} reinforcements to place: 1 to {pending}, not {armies}",
)
R4_LIMIT = define(
    "game.r4_army_limit", "R4",
    "R4: {player} has {armies} armies on the board and the limit is {limit}: no more armies "
    "may be placed (the rest is forfeited)",
)
R4_ROOM = define(
    "game.r4_room", "R4",
    "R4: {player} has {armies} armies on the board and the limit is {limit}: {room} more "
    "may be placed, not {given} (the rest is forfeited)",
)
HAND_LIMIT = define(
    "game.hand_limit", "",
    "{player} holds {cards} cards (more than {limit}): trade a set first",
)
R3_PENALISED = define(
    "game.r3_penalised", "R3",
    "R3: {player} arrived late and may not '{action}' in the first {turns} turns",
)
R9_TRADE_PHASE = define(
    "game.r9_trade_phase", "R9",
    "R9: card sets are traded during reinforcement, before the last army is placed",
)
CARD_NOT_HELD = define("game.card_not_held", "", "{player} does not hold the card {card}")
SET_VALUE = define(
    "game.set_value", "R9",
    "R9: this set is worth {value} armies with {cards} cards in hand, not {given}",
)
SET_BONUS = define(
    "game.set_bonus", "R9",
    "R9: the owned-territory bonus of this set goes to {expected}, not {given}",
)
ATTACKER_DICE = define(
    "game.attacker_dice_count", "R8",
    "R8: the attacker rolls {expected} dice (always the maximum), not {given}",
)
DEFENDER_DICE = define(
    "game.defender_dice_count", "R8",
    "R8: the defender rolls {expected} dice (always the maximum), not {given}",
)
CLOSING_DICE_COUNT = define(
    "game.closing_dice_count", "R2", "R2: the closing roll is 2 dice, not {given}"
)
DIE_FACE = define("game.die_face", "", "a die shows 1 to 6, not {value}")
NO_CONQUEST = define("game.no_conquest", "", "no conquest is waiting for armies")
MOVE_AMOUNT = define(
    "game.move_amount", "",
    "move {least} to {most} armies into {territory}, not {armies}",
)
FORTIFY_NOT_OWN = define(
    "game.fortify_not_own", "",
    "both territories of a strategic move must be held by {player}",
)
FORTIFY_SAME = define(
    "game.fortify_same", "", "a strategic move goes from one territory to another"
)
FORTIFY_AMOUNT = define(
    "game.fortify_amount", "",
    "{territory} can move 1 to {most} armies, not {armies}",
)
ALREADY_CALLED = define(
    "game.already_called", "R2", "R2: the last 2 rounds have already been called"
)
CALL_IN_SETUP = define(
    "game.call_in_setup", "R2",
    "R2: the last 2 rounds cannot be called during the initial placement",
)
WIDEN_BEFORE_CALL = define(
    "game.widen_before_call", "R2",
    "R2: no closing to widen: the last 2 rounds have not been called",
)
TIMEOUT_IN_SETUP = define(
    "game.timeout_in_setup", "R11", "R11: no turn clock during the initial placement"
)
NO_SEAT = define("game.no_seat", "", "no seat {seat} at this table")
SEAT_OUT = define("game.seat_out", "R13", "{player} is already out of play ({status})")
UNKNOWN_ACTION = define("game.unknown_action", "", "unknown action {action}")


def _phase_fault(st: State, action: str) -> Fault:
    """Why the seat to act cannot make an ``action`` (a record verb) in this phase."""
    player = st.players[st.seat]
    if st.phase is SETUP:
        return SETUP_PENDING({"player": player}, armies=st.step_left)
    if st.phase is REINFORCE:
        return REINFORCEMENTS_PENDING({"player": player}, pending=st.pending)
    if st.phase is MOVE:
        return MOVE_PENDING({"player": player, "territory": territory_name(st.move_to)})
    return WRONG_PHASE({"player": player}, action=action, phase=str(st.phase))


def _territory_fault(*territories: int) -> Fault | None:
    for t in territories:
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < NUM_TERRITORIES:
            return NO_TERRITORY(number=t)
    return None


def _dice_fault(dice: Sequence[int], n: int, kind: Fault | None = None) -> Fault | None:
    for x in dice:
        if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6:
            return DIE_FACE(value=x)
    return kind if len(dice) != n else None


# ---------------------------------------------------------------------------- questions
#: each continent's territory mask and reinforcement bonus
_CONTINENTS: Final = tuple(zip(CONTINENT_MASKS, CONTINENT_BONUS, strict=True))


def reinforcements(st: State, seat: int) -> int:
    """Armies ``seat`` receives at the start of its turn before sets: floor(t/3), at least
    ``min_reinforcement``, plus the bonus of each whole continent held."""
    owned = st.owned[seat]
    n = owned.bit_count() // 3
    base = n if n > st.ruleset.min_reinforcement else st.ruleset.min_reinforcement
    for m, bonus in _CONTINENTS:
        if owned & m == m:
            base += bonus
    return base


def room(st: State, seat: int) -> int:
    """Armies ``seat`` may still add before reaching the army limit (R4); 10**9 without one."""
    limit = st.ruleset.army_limit
    return 10**9 if limit is None else max(0, limit - st.totals[seat])


def bordering(st: State, seat: int, target: Territory) -> int:
    """The R8 sum: ``seat``'s armies on all its territories bordering ``target``."""
    return bordering_armies(st.armies, st.owned[seat], st.neighbours[target])


def objective_done(st: State, seat: int) -> bool:
    """True when ``seat`` holds every territory of its objective."""
    m = st.objectives[seat].mask
    return st.owned[seat] & m == m


def is_last_in_play(st: State, seat: int) -> bool:
    """True when no seat after ``seat`` (in turn order, this round) is still in play."""
    status = st.status
    return all(status[s] is not IN_PLAY for s in range(seat + 1, st.n))


def closing_round_of_turn(st: State) -> int | None:
    """The closing round (R2) the current turn belongs to, None before the closing.

    The turn of the last seat in play of the LAST round opens closing round 1 and makes that
    seat the anchor (``closing_anchor``); after it, a closing round is one turn of each seat
    in play in seat order from the anchor's place (:func:`risiko.closing.closing_round_of`):
    a seat that leaves (R13) or is eliminated drops out of the round it is in without moving
    the others. When the LAST round's last seat leaves during its own turn, no seat after it
    is in play: every turn of the next round is in closing round 1."""
    lr = st.last_round
    if lr is None or st.round < lr:
        return None
    if st.round == lr:
        return 1 if is_last_in_play(st, st.seat) else None
    anchor = st.closing_anchor
    return closing_round_of(st.round - lr, st.seat, anchor if anchor >= 0 else st.n)


def closing_skip(st: State) -> Fault | None:
    """Why the seat whose turn ends now does not roll the closing dice (None: it rolls, or
    no closing yet). R2: 3 or more conquests; R12 variant: a penalised seat."""
    return closing_roll_fault(
        st.ruleset, st.players[st.seat], st.conquests, penalised=st.penalised
    )


def needs_closing_roll(st: State) -> bool:
    """True when the turn ending now rolls the closing dice (R2)."""
    return closing_round_of_turn(st) is not None and closing_skip(st) is None


def attack_fault(st: State, source: Territory, target: Territory) -> Fault | None:
    """Why the seat to act may not roll from ``source`` on ``target`` now (None: legal)."""
    bad = _territory_fault(source, target)
    if bad:
        return bad
    seat = st.seat
    player = st.players[seat]
    if st.phase is not ATTACK:
        return _phase_fault(st, "attack")
    if st.penalised:
        return R3_PENALISED(
            {"player": player}, action="attack", turns=st.ruleset.late_penalty_turns
        )
    if st.owner[source] != seat:
        return NOT_HELD({"territory": territory_name(source), "player": player})
    if st.owner[target] == seat:
        return OWN_TARGET({"target": territory_name(target), "player": player})
    if not st.neighbours[source] >> target & 1:
        return NOT_BORDERING(
            {"territory": territory_name(source), "target": territory_name(target)}
        )
    return _attack_rule_fault(
        st.ruleset, st.armies[source], st.armies[target], bordering(st, seat, target),
        {"player": player, "territory": territory_name(source),
         "target": territory_name(target)},
    )


def legal_attacks(st: State) -> list[tuple[Territory, Territory]]:
    """Every (source, target) the seat to act may roll on now (R7, R8), sources in board
    order, targets in board order.

    The rule is :func:`risiko.attack.is_legal_on_board`'s: this is an inline COPY of it,
    kept because it pays (each target's R8 sum computed once; cachegrind, 4 heuristic bots,
    PYTHONHASHSEED=0: 110.6 M instructions a game against 114.4 M calling it for each pair,
    issue 16);
    ``tests/test_properties.py::test_legal_attacks_match_the_regulation`` binds the copy to
    the original (the same pairs, in the same order)."""
    if st.phase is not ATTACK or st.penalised:
        return []
    seat = st.seat
    rs = st.ruleset
    arm = st.armies
    owner = st.owner
    adj = st.adjacency
    parity = rs.dice_parity
    superiority = rs.army_superiority
    waiver = rs.superiority_waiver_above
    out: list[tuple[int, int]] = []
    sup = [-1] * NUM_TERRITORIES  # R8 sums, computed once per target when needed
    m = st.owned[seat]
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


def sample_attack(
    st: State, random: Callable[[], float]
) -> tuple[Territory, Territory] | None:
    """A uniformly random legal attack (R7, R8) of the seat to act, drawn without checking
    every attack; None when there is none.

    The pairs (territory of the seat with 2 armies or more, bordering enemy territory) are
    listed without their checks; one is drawn uniformly and checked (R7, R8), and a pair
    found illegal is put aside before the next draw: the first legal pair drawn is uniform
    among the legal ones (``random``: floats in [0, 1), as ``random.Random.random``).
    """
    if st.phase is not ATTACK or st.penalised:
        return None
    seat = st.seat
    own = st.owned[seat]
    arm = st.armies
    owner = st.owner
    adj = st.adjacency
    nb = st.neighbours
    # the pairs in board order, as two lists of territories (small ints: no allocation)
    sources: list[int] = []
    targets: list[int] = []
    if _COMPILED:  # native integers: the bits of the masks cost less than the tables
        m = own
        while m:
            low = m & -m
            src = low.bit_length() - 1
            m ^= low
            if arm[src] > 1:
                enemy = nb[src] & ~own  # in board order, as adj[src]
                while enemy:
                    low = enemy & -enemy
                    sources.append(src)
                    targets.append(low.bit_length() - 1)
                    enemy ^= low
    else:  # the pure build: the seat's territories from board.territories_of's table
        for src in territories_of(own):
            if arm[src] > 1:
                for dst in adj[src]:
                    if owner[dst] != seat:
                        sources.append(src)
                        targets.append(dst)
    rs = st.ruleset
    n = len(sources)
    while n:
        i = int(random() * n)
        src = sources[i]
        dst = targets[i]
        if is_legal_on_board(rs, arm[src], arm[dst], arm, own, nb[dst]):
            return src, dst
        n -= 1  # put the illegal pair aside: the last one still in play takes its place
        sources[i] = sources[n]
        targets[i] = targets[n]
    return None


def forbidden_attacks(st: State) -> list[tuple[Territory, Territory, Fault]]:
    """Every attack from a territory of the seat to act to a bordering enemy territory that
    the rules forbid now, with the fault (R7, R8, one army, R3): what a referee needs to
    settle a dispute. Empty outside the attack phase."""
    if st.phase is not ATTACK:
        return []
    seat = st.seat
    out = []
    for src in range(NUM_TERRITORIES):
        if st.owner[src] != seat:
            continue
        for dst in st.adjacency[src]:
            if st.owner[dst] == seat:
                continue
            fault = attack_fault(st, src, dst)
            if fault is not None:
                out.append((src, dst, fault))
    return out


def fortify_most(st: State, source: Territory) -> int:
    """Most armies a strategic move may take from ``source``: all but one, or all but
    ``fortify_min_left_on_border`` when ``source`` borders an enemy (RTU)."""
    keep = 1
    if st.neighbours[source] & ~st.owned[st.seat]:
        on_border = st.ruleset.fortify_min_left_on_border
        if on_border > keep:
            keep = on_border
    return st.armies[source] - keep


def fortify_fault(
    st: State, source: Territory, target: Territory, armies: int
) -> Fault | None:
    """Why the seat to act may not make this strategic move now (None: legal)."""
    bad = _territory_fault(source, target)
    if bad:
        return bad
    seat = st.seat
    player = st.players[seat]
    if st.phase is not ATTACK:
        return _phase_fault(st, "fortify")
    if st.penalised:
        return R3_PENALISED(
            {"player": player}, action="fortify", turns=st.ruleset.late_penalty_turns
        )
    if st.owner[source] != seat or st.owner[target] != seat:
        return FORTIFY_NOT_OWN({"player": player})
    if source == target:
        return FORTIFY_SAME()
    if not st.neighbours[source] >> target & 1:
        return NOT_BORDERING(
            {"territory": territory_name(source), "target": territory_name(target)}
        )
    most = fortify_most(st, source)
    if isinstance(armies, bool) or not isinstance(armies, int) or not 1 <= armies <= most:
        return FORTIFY_AMOUNT(
            {"territory": territory_name(source)}, most=most, armies=armies
        )
    return None


def legal_fortifies(st: State) -> list[tuple[Territory, Territory, int]]:
    """Every strategic move the seat to act may make now: ``(source, target, most)``; any
    amount from 1 to ``most`` may move."""
    if st.phase is not ATTACK or st.penalised:
        return []
    seat = st.seat
    arm = st.armies
    owner = st.owner
    out: list[tuple[int, int, int]] = []
    m = st.owned[seat]
    while m:
        low = m & -m
        src = low.bit_length() - 1
        m ^= low
        if arm[src] < 2:
            continue
        most = fortify_most(st, src)
        if most < 1:
            continue
        for t in st.adjacency[src]:
            if owner[t] == seat:
                out.append((src, t, most))
    return out


def sample_fortify(
    st: State, random: Callable[[], float], tries: int = 16
) -> tuple[Territory, Territory, int] | None:
    """A random legal strategic move ``(source, target, most)`` of the seat to act (any
    amount from 1 to ``most``): a uniformly random territory of the seat with 2 armies or
    more and a uniformly random territory bordering it, drawn again until the move is legal
    (the moves are listed after ``tries`` draws); None when there is none."""
    if st.phase is not ATTACK or st.penalised:
        return None
    seat = st.seat
    arm = st.armies
    sources = [s for s in territories_of(st.owned[seat]) if arm[s] > 1]
    if sources:
        owner = st.owner
        adj = st.adjacency
        n = len(sources)
        for _ in range(tries):
            src = sources[int(random() * n)]
            borders = adj[src]
            dst = borders[int(random() * len(borders))]
            if owner[dst] == seat:
                most = fortify_most(st, src)
                if most >= 1:
                    return src, dst, most
    moves = legal_fortifies(st)
    return moves[int(random() * len(moves))] if moves else None


def valid_sets(hand: Sequence[int]) -> list[tuple[int, int, int]]:
    """Every set (R9) among the cards of ``hand`` (:func:`risiko.cards.sets_in`), each once,
    cards in increasing order, the sets in increasing order (as legal actions list them)."""
    out = []
    for trio in sets_in(hand):
        a, b, c = sorted(trio)
        out.append((a, b, c))
    return sorted(out)


def must_trade(st: State) -> bool:
    """True when the seat to act holds more cards than ``hand_limit`` and a set: it trades
    before placing."""
    limit = st.ruleset.hand_limit
    hand = st.hands[st.seat]
    return limit is not None and len(hand) > limit and best_set(hand) is not None


def trade_value(st: State, cards: Sequence[int]) -> tuple[int, tuple[Territory, ...]]:
    """(base value, territories whose card the seat owns) of a set traded now (R9): the base
    by the cards in hand (8/10/12), and ``owned_card_bonus`` (2) per owned territory card."""
    seat = st.seat
    rs = st.ruleset
    return (set_base_value(rs, cards, len(st.hands[seat])),
            owned_cards(rs, cards, st.owned[seat]))


# ---------------------------------------------------------------------------- checks
def check_place(st: State, territory: int, armies: int) -> Fault | None:
    """Why ``Place(territory, armies)`` is refused now (None: legal)."""
    bad = _territory_fault(territory)
    if bad:
        return bad
    seat = st.seat
    player = st.players[seat]
    if st.phase is SETUP:
        if st.owner[territory] != seat:
            return NOT_HELD({"territory": territory_name(territory), "player": player})
        if not isinstance(armies, int) or not 1 <= armies <= st.step_left:
            return SETUP_AMOUNT(most=st.step_left, armies=armies)
        return None
    if st.phase is not REINFORCE:
        limit = st.ruleset.army_limit
        if st.phase is ATTACK and limit is not None and st.totals[seat] >= limit:
            return R4_LIMIT({"player": player}, armies=st.totals[seat], limit=limit)
        return _phase_fault(st, "place")
    if st.owner[territory] != seat:
        return NOT_HELD({"territory": territory_name(territory), "player": player})
    space = room(st, seat)
    if isinstance(armies, int) and armies > space:  # beyond the limit: R4 says so
        if space <= 0:
            return R4_LIMIT(
                {"player": player}, armies=st.totals[seat], limit=st.ruleset.army_limit
            )
        return R4_ROOM({"player": player}, armies=st.totals[seat],
                       limit=st.ruleset.army_limit, room=space, given=armies)
    if not isinstance(armies, int) or not 1 <= armies <= st.pending:
        return PLACE_AMOUNT({"player": player}, pending=st.pending, armies=armies)
    if must_trade(st):
        return HAND_LIMIT(
            {"player": player}, cards=len(st.hands[seat]), limit=st.ruleset.hand_limit
        )
    return None


def check_trade(
    st: State,
    cards: Sequence[int],
    value: int | None = None,
    bonus: Sequence[int] | None = None,
) -> Fault | None:
    """Why trading ``cards`` is refused now (None: legal). ``value`` and ``bonus`` (when
    given, as a record gives them) must be what R9 says."""
    seat = st.seat
    player = st.players[seat]
    if st.phase is not REINFORCE:
        if st.penalised and st.phase is ATTACK:
            return R3_PENALISED(
                {"player": player}, action="trade", turns=st.ruleset.late_penalty_turns
            )
        if st.phase in (SETUP, MOVE):
            return _phase_fault(st, "trade")
        return R9_TRADE_PHASE({"player": player})
    hand = st.hands[seat]
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < NUM_CARDS:
            return CARD_NOT_HELD({"player": player, "card": str(c)})
        if c not in hand:
            return CARD_NOT_HELD({"player": player, "card": card_name(c)})
    if set_kind(cards) is None:
        return INVALID_SET({"player": player}, cards=[card_name(c) for c in cards])
    if value is None and bonus is None:
        return None
    base, owned = trade_value(st, cards)
    if value is not None and value != base:
        return SET_VALUE({"player": player}, value=base, cards=len(hand), given=value)
    if bonus is not None and sorted(bonus) != sorted(owned):
        return SET_BONUS(
            {"player": player},
            expected=[territory_name(t) for t in owned] or "-",
            given=[territory_name(t) for t in bonus] or "-",
        )
    return None


def check_attack_dice(
    st: State, source: int, target: int, attacker: Sequence[int] | None,
    defender: Sequence[int] | None,
) -> Fault | None:
    """Why the dice given for a (legal) attack are refused: R8 (always the maximum dice:
    ``min(3, a - 1)`` and ``min(3, d)``) or a face outside 1..6."""
    a, d = st.armies[source], st.armies[target]
    na = 3 if a > 3 else a - 1
    nd = 3 if d > 3 else d
    if attacker is not None:
        fault = _dice_fault(attacker, na, ATTACKER_DICE(expected=na, given=len(attacker)))
        if fault:
            return fault
    if defender is not None:
        fault = _dice_fault(defender, nd, DEFENDER_DICE(expected=nd, given=len(defender)))
        if fault:
            return fault
    return None


def check_move(st: State, armies: int) -> Fault | None:
    """Why ``Move(armies)`` is refused now (None: legal)."""
    if st.phase is not MOVE:
        return NO_CONQUEST()
    most = st.move_min + st.armies[st.move_from] - 1
    if isinstance(armies, bool) or not isinstance(armies, int) or not (
        st.move_min <= armies <= most
    ):
        return MOVE_AMOUNT(
            {"territory": territory_name(st.move_to)}, least=st.move_min, most=most,
            armies=armies,
        )
    return None


def check_end(st: State) -> Fault | None:
    """Why the seat to act may not end its turn now (None: it may)."""
    if st.phase is not ATTACK:
        return _phase_fault(st, "end")
    return None


def check_closing(st: State, closing: Sequence[int] | None) -> Fault | None:
    """Why closing dice typed for the turn ending now are refused (None: fine, or none
    typed). R2: only from the end of the LAST round, two dice, not after 3 conquests."""
    if closing is None:
        return None
    fault = _dice_fault(closing, 2, CLOSING_DICE_COUNT(given=len(closing)))
    if fault:
        return fault
    if closing_round_of_turn(st) is None:
        from .closing import NOT_YET

        return NOT_YET()
    return closing_skip(st)


def check_referee_call(st: State) -> Fault | None:
    """Why the call of the last 2 rounds (R2) is refused now."""
    if st.last_round is not None:
        return ALREADY_CALLED()
    if st.phase is SETUP:
        return CALL_IN_SETUP()
    return None


def check_widen(st: State) -> Fault | None:
    """Why widening the closing band (R2) is refused now."""
    return WIDEN_BEFORE_CALL() if st.last_round is None else None


def check_timeout(st: State, closing: Sequence[int] | None) -> Fault | None:
    """Why a timeout (R11) is refused now."""
    if st.phase is SETUP:
        return TIMEOUT_IN_SETUP()
    return check_closing(st, closing)


def check_abandon(st: State, seat: int) -> Fault | None:
    """Why seat ``seat`` (0-based) may not leave the game now (R13)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.n:
        return NO_SEAT(seat=seat + 1 if isinstance(seat, int) else seat)
    if st.status[seat] is not IN_PLAY:
        return SEAT_OUT({"player": st.players[seat]}, status=str(st.status[seat]))
    return None


def check_late(st: State, seat: int) -> Fault | None:
    """Why seat ``seat`` (0-based) may not be marked late now (R3): no such seat, or out
    of play."""
    return check_abandon(st, seat)


def turns_begun(st: State, seat: int) -> int:
    """The turns of play seat ``seat`` (0-based) has begun, the one under way included: 0
    in the initial placement; each round goes in seat order (the first seat in play opens
    it), so ``round - 1`` past rounds plus this round's turn when his has come. For a seat
    in play since the start (an eliminated or gone seat missed turns the count includes).

    >>> from risiko.game import Game
    >>> from risiko.rules import turns_begun
    >>> from risiko.state import Phase
    >>> g = Game.new(["A", "B", "C"], seed=1)
    >>> turns_begun(g.state, 0), turns_begun(g.state, 2)  # the initial placement
    (0, 0)
    >>> g.state.phase, g.state.round, g.state.seat = Phase.ATTACK, 2, 1  # round 2, B to act
    >>> [turns_begun(g.state, s) for s in range(3)]
    [2, 2, 1]
    """
    if st.phase is SETUP or st.round < 1:
        return 0
    return st.round - 1 + (1 if seat <= st.seat else 0)


# ---------------------------------------------------------------------------- transitions
def do_place(st: State, territory: int, armies: int) -> None:
    """Place ``armies`` on ``territory`` (setup step or reinforcements)."""
    seat = st.seat
    st.armies[territory] += armies
    st.totals[seat] += armies
    if st.phase is SETUP:
        st.setup_left[seat] -= armies
        st.step_left -= armies
        if st.step_left == 0:
            next_setup_seat(st)
        return
    st.pending -= armies
    if st.pending == 0:
        st.phase = ATTACK


def do_trade(
    st: State, cards: Sequence[int], value: tuple[int, tuple[Territory, ...]] | None = None
) -> tuple[int, tuple[Territory, ...]]:
    """Trade a set (R9): the cards go to the bottom of the deck; the value (clamped by R4,
    the rest forfeited) is added to the reinforcements; the owned-territory bonus goes on
    those territories (or into the reinforcements, by the ruleset). ``value``: the set's
    :func:`trade_value` when the caller has it already (computed here otherwise). Returns
    (base value, owned-territory cards)."""
    seat = st.seat
    rs = st.ruleset
    base, owned = trade_value(st, cards) if value is None else value
    hand = st.hands[seat]
    for c in cards:
        hand.remove(c)
        st.deck.append(c)  # traded cards go to the bottom of the deck
    bonus = rs.owned_card_bonus
    add_base = base
    for c in owned:
        if rs.owned_card_bonus_on_territory:
            put = min(bonus, room(st, seat) - st.pending)
            if put > 0:
                st.armies[c] += put
                st.totals[seat] += put
            st.forfeited[seat][R4] += bonus - max(put, 0)
        else:
            add_base += bonus
    add = min(add_base, max(0, room(st, seat) - st.pending))
    st.forfeited[seat][R4] += add_base - add
    st.pending += add
    if st.pending == 0:
        st.phase = ATTACK
    return base, owned


def do_attack(
    st: State, source: int, target: int, attacker: Sequence[int], defender: Sequence[int]
) -> bool:
    """One roll with the dice given (any order); returns True on a conquest."""
    arm = st.armies
    lose_a, lose_d = roll_losses(attacker, defender)
    seat = st.seat
    defender_seat = st.owner[target]
    arm[source] -= lose_a
    left = arm[target] - lose_d
    arm[target] = left
    st.totals[seat] -= lose_a
    st.totals[defender_seat] -= lose_d
    if left == 0:
        conquer(st, seat, defender_seat, source, target, len(attacker))
        return True
    return False


def conquer(st: State, seat: int, defender: int, src: int, dst: int, dice: int) -> None:
    """``seat`` takes ``dst``: ownership, elimination (R14: the cards pass), the minimum move
    (the dice of the last roll), then RisiKo! (R1), the last seat in play, or the move."""
    bit = 1 << dst
    st.owner[dst] = seat
    st.owned[seat] |= bit
    st.owned[defender] &= ~bit
    st.conquests += 1
    out = st.owned[defender] == 0
    if out:
        if st.status[defender] is IN_PLAY:
            st.status[defender] = ELIMINATED
        if st.ruleset.eliminated_cards_to_eliminator:
            # R14: usable from the eliminator's next turn: sets are traded only during
            # reinforcement, which for this turn is already over.
            st.hands[seat].extend(st.hands[defender])
            st.hands[defender] = []
    st.armies[src] -= dice
    st.armies[dst] = dice
    if objective_done(st, seat):
        st.risiko_seat = seat
        obj = st.objectives[seat]
        finish(st, EndReason.RISIKO,
               f"{st.players[seat]} completed objective {obj.number} ({obj.name})")
        return
    if out and len(st.in_play()) < 2:  # only an elimination leaves fewer seats in play
        finish(st, EndReason.ALL_OTHERS_ELIMINATED, "one seat left in play")
        return
    if st.armies[src] > 1:
        st.phase = MOVE
        st.move_from, st.move_to, st.move_min = src, dst, dice


def do_move(st: State, armies: int) -> None:
    """Move ``armies`` (at least the dice already moved) into the conquered territory; the
    conquest no longer waits (``move_from``/``move_to`` -1, ``move_min`` 0)."""
    extra = armies - st.move_min
    st.armies[st.move_from] -= extra
    st.armies[st.move_to] += extra
    st.phase = ATTACK
    st.move_from = st.move_to = -1
    st.move_min = 0


def do_fortify(st: State, source: int, target: int, armies: int) -> None:
    """The strategic move (the turn's end follows: :func:`do_end_turn`)."""
    st.armies[source] -= armies
    st.armies[target] += armies


def do_end_turn(
    st: State, closing: Sequence[int] | None, *, draws: bool = True
) -> ClosingRoll | None:
    """End the turn: one card if the seat conquered (``draws``), the closing roll (R2) with
    ``closing`` (required when :func:`needs_closing_roll`), then the next seat in play.
    Returns the closing turn, if this turn was one."""
    seat = st.seat
    if draws and st.conquests > 0 and st.deck:
        st.hands[seat].append(st.deck.pop(0))
    k = None if st.last_round is None else closing_round_of_turn(st)
    result: ClosingRoll | None = None
    if k is not None:
        st.closing_round = k
        if st.round == st.last_round:
            st.closing_anchor = seat
        band_round = k + st.widened
        player = st.players[seat]
        if closing_skip(st) is not None:
            result = ClosingRoll(seat, player, band_round, None, False, st.conquests)
        else:
            assert closing is not None, "the closing roll needs its dice"
            total = closing[0] + closing[1]
            low, high = st.ruleset.closing_band(band_round)
            closed = low <= total <= high
            result = ClosingRoll(
                seat, player, band_round, total, closed, st.conquests, tuple(closing)
            )
            if closed:
                finish(st, EndReason.CLOSING_DICE,
                       f"{player} rolled {total} in closing round {band_round} "
                       f"(band {low}..{high})")
                return result
    advance(st)
    return result


def do_timeout(st: State, closing: Sequence[int] | None) -> ClosingRoll | None:
    """The turn time ran out (R11): the minimum move stands, the reinforcements not placed
    are forfeited, the card is drawn (``timeout_draws_card``), the closing roll follows."""
    if st.phase is MOVE:
        st.phase = ATTACK
        st.move_from = st.move_to = -1
        st.move_min = 0
    st.forfeited[st.seat][R11] += st.pending
    st.pending = 0
    return do_end_turn(st, closing, draws=st.ruleset.timeout_draws_card)


def do_call(st: State) -> None:
    """The call of the last 2 rounds (R2): the round in progress is the penultimate."""
    st.last_round = st.round + 1


def do_widen(st: State) -> None:
    """The referee widens the closing band (R2): the next closing round's band from now."""
    st.widened += 1


def do_abandon(st: State, seat: int) -> None:
    """Seat ``seat`` leaves the game (R13): its armies stay and defend; its turn passes."""
    st.status[seat] = ABANDONED
    st.setup_left[seat] = 0
    if len(st.in_play()) < 2:
        finish(st, EndReason.ALL_OTHERS_ELIMINATED, f"{st.players[seat]} left; one seat left")
        return
    if st.seat == seat:
        st.pending = 0
        if st.phase is SETUP:
            next_setup_seat(st)
        else:
            advance(st)


def do_late(st: State, seat: int) -> None:
    """Seat ``seat`` arrived late after the start (R3, :class:`~risiko.actions.Late`); k =
    ``late_penalty_turns`` penalised turns, counted as the ruleset's ``late_penalty_from``
    reads R3:

    - ``"start"`` (the club's reading): R3 penalises "i primi tre turni di gioco", the
      game's first three turns of his, so those he missed absent (timed out, R11) count
      among them: the ``k - turns_begun`` still to come are penalised (never below 0).
      A player who reaches a started table is punished for his lateness as a player who
      came at 21:15 to a table formed at 21:20, never more: the turns the clock already
      took from him were his penalty's first turns.
    - ``"arrival"``: his k turns count from his arrival: k turns still to come, the one
      under way (if his) the first of them.

    Either way the turn under way, if it is his and one of the penalised, is penalised from
    now on: its reinforcements not placed are forfeited under R3, no trade, attack or move
    (it counts as one of the k). Marking a seat late twice changes nothing more under
    "start" (nor does marking a seat that was late at the start: its count is the same);
    under "arrival" the count starts again from the second mark (the referee marks once).

    Worked (4 seats, k = 3, Dora seat 3 marked in round 2): Alba to act: "start" leaves 2
    (rounds 2, 3), "arrival" 3 (rounds 2, 3, 4); Dora to act, reinforcing: "start" leaves 1
    (this turn penalised, then round 3), "arrival" 2 (this turn, then rounds 3 and 4).
    """
    k = st.ruleset.late_penalty_turns
    begun = turns_begun(st, seat)
    under_way = (seat == st.seat and st.phase is not SETUP and st.phase is not OVER
                 and begun >= 1)
    if st.ruleset.late_penalty_from == "arrival":
        # k turns from now: the one under way (his) is the first of them
        if under_way and k > 0:
            st.late_left[seat] = k - 1
            if not st.penalised:
                _penalise_now(st, seat)
        else:
            st.late_left[seat] = k
        return
    st.late_left[seat] = k - begun if k > begun else 0
    if under_way and begun <= k and not st.penalised:
        _penalise_now(st, seat)


def _penalise_now(st: State, seat: int) -> None:
    """The turn under way (``seat``'s) penalised from now on under R3 (:func:`do_late`)."""
    st.penalised = True
    st.forfeited[seat][R3] += st.pending
    st.pending = 0
    if st.phase is REINFORCE:
        st.phase = ATTACK


# ---------------------------------------------------------------------------- turn flow
def next_setup_seat(st: State) -> None:
    """The next seat with initial armies to place; when none is left, round 1 begins."""
    n = st.n
    for k in range(1, n + 1):
        s = (st.seat + k) % n
        if st.setup_left[s] > 0 and st.status[s] is IN_PLAY:
            st.seat = s
            st.step_left = min(st.ruleset.setup_step, st.setup_left[s])
            return
    st.round = 1
    st.step_left = 0
    st.seat = st.in_play()[0]
    begin_round(st)
    start_turn(st)


def begin_round(st: State) -> None:
    """At the start of a round: the automatic call of the last 2 rounds (simulations)."""
    if (
        st.last_rounds_at is not None
        and st.last_round is None
        and st.round >= st.last_rounds_at
    ):
        st.last_round = st.round + 1


def start_turn(st: State) -> None:
    """The seat to act begins its turn: reinforcements (R4 clamp), or a penalised turn (R3)."""
    seat = st.seat
    st.conquests = 0
    st.move_from = st.move_to = -1
    st.move_min = 0
    gain = reinforcements(st, seat)
    if st.late_left[seat] > 0:
        st.late_left[seat] -= 1
        st.penalised = True
        st.forfeited[seat][R3] += gain
        st.pending = 0
        st.phase = ATTACK
        return
    st.penalised = False
    limit = st.ruleset.army_limit
    if limit is not None:
        space = limit - st.totals[seat]
        if space < gain:
            space = space if space > 0 else 0
            st.forfeited[seat][R4] += gain - space
            gain = space
    st.pending = gain
    st.phase = REINFORCE if gain > 0 else ATTACK


def advance(st: State) -> None:
    """The turn passes to the next seat in play (a new round after the last seat)."""
    n = st.n
    cur = st.seat
    status = st.status
    for k in range(1, n + 1):
        s = (cur + k) % n
        if status[s] is IN_PLAY:
            break
    else:  # pragma: no cover - guarded by the end conditions
        finish(st, EndReason.ALL_OTHERS_ELIMINATED, "no seat left in play")
        return
    if s <= cur:
        st.round += 1
        begin_round(st)
    st.seat = s
    start_turn(st)


def scores(st: State) -> list[SeatScore]:
    """Each seat's table score with its breakdown (R1, R5, R15, R16, R13)."""
    return [
        score_seat(
            st.ruleset, st.players[s], st.objectives[s], st.owned[s], st.totals[s],
            risiko=(st.risiko_seat == s),
            eliminated=st.status[s] is ELIMINATED,
            abandoned=st.status[s] is ABANDONED,
        )
        for s in range(st.n)
    ]


def finish(st: State, end: EndReason, reason: str) -> None:
    """The game ends: the winner is the RisiKo! seat, else the best table score (None on a
    tie for it)."""
    st.phase = OVER
    st.pending = 0
    winner: str | None
    if st.risiko_seat is not None:
        winner = st.players[st.risiko_seat]
    else:
        values = [s.score for s in scores(st)]
        best = max(values)
        winner = st.players[values.index(best)] if values.count(best) == 1 else None
    st.outcome = Outcome(end, st.round, winner, reason)


def new_state(
    players: Sequence[str],
    ruleset: Ruleset,
    deal: Sequence[int],
    objectives: Sequence[int],
    deck: Sequence[int],
    late: Sequence[int] = (),
    last_rounds_at: int | None = None,
) -> State:
    """The state at the start of a game: the deal (one territory at a time in seat order,
    one army each), the objectives (numbers), the deck (top first); ``late`` seats serve
    ``late_penalty_turns`` penalised turns (R3). The arguments are checked by the caller."""
    n = len(players)
    st = State()
    st.ruleset = ruleset
    st.players = tuple(players)
    st.n = n
    st.objectives = tuple(OBJECTIVES[o - 1] for o in objectives)
    board = ruleset.board
    st.neighbours = board.neighbours
    st.adjacency = board.adjacency
    st.owner = [0] * NUM_TERRITORIES
    st.armies = [1] * NUM_TERRITORIES
    st.owned = [0] * n
    st.totals = [0] * n
    for i, t in enumerate(deal):
        s = i % n
        st.owner[t] = s
        st.owned[s] |= 1 << t
        st.totals[s] += 1
    st.hands = [[] for _ in range(n)]
    st.deck = list(deck)
    st.status = [IN_PLAY] * n
    st.late_left = [ruleset.late_penalty_turns if s in late else 0 for s in range(n)]
    initial = ruleset.initial_armies_for(n)
    st.setup_left = [initial - st.totals[s] for s in range(n)]
    st.forfeited = [[0, 0, 0] for _ in range(n)]
    st.phase = SETUP
    st.seat = 0
    st.round = 0
    st.step_left = min(ruleset.setup_step, st.setup_left[0])
    st.pending = 0
    st.conquests = 0
    st.penalised = False
    st.move_from = st.move_to = -1
    st.move_min = 0
    st.last_round = None
    st.last_rounds_at = last_rounds_at
    st.closing_anchor = -1
    st.closing_round = 0
    st.widened = 0
    st.risiko_seat = None
    st.outcome = None
    if st.step_left == 0:
        next_setup_seat(st)
    return st


def check_invariants(st: State) -> None:
    """Raise AssertionError if the state is inconsistent (used by property tests)."""
    union = 0
    for s in range(st.n):
        assert union & st.owned[s] == 0, "two seats own one territory"
        union |= st.owned[s]
        total = 0
        m = st.owned[s]
        for t in range(NUM_TERRITORIES):
            if m >> t & 1:
                total += st.armies[t]
        assert st.totals[s] == total, f"seat {s + 1}: totals {st.totals[s]} != {total}"
        limit = st.ruleset.army_limit
        assert limit is None or st.totals[s] <= limit, "army limit passed"
    assert union == (1 << NUM_TERRITORIES) - 1, "owners do not partition the board"
    for t in range(NUM_TERRITORIES):
        assert st.armies[t] >= 1, f"{territory_name(t)} has no army"
        assert st.owned[st.owner[t]] >> t & 1
    cards = list(st.deck) + [c for h in st.hands for c in h]
    assert sorted(cards) == list(range(NUM_CARDS)), "cards lost or duplicated"
    if st.phase is not OVER:
        assert st.status[st.seat] is IN_PLAY, "a seat out of play is to act"
