"""Positions: a game's state as a JSON file a person can write and read.

A position is a sheet (the JSON ``risiko score`` reads: ``ruleset`` and ``seats`` with
``player``, ``objective``, ``armies``) plus whose turn and which phase, and optional fields::

    {"ruleset": "club-milano",
     "seats": [{"player": "Anna", "objective": 7, "armies": {"Alaska": 3, ...},
                "cards": ["Cina", "jolly"],          # optional: the seat's cards
                "status": "in_play",                 # optional: in_play|eliminated|abandoned
                "late_turns": 0,                     # optional: penalised turns to come (R3)
                "setup_left": 0},                    # optional: initial armies to place
               ...],
     "to_act": "Anna",                               # the player to act
     "phase": "attack",                              # setup|reinforce|attack|move|over
     "round": 5,                                     # optional (1; 0 in setup)
     "deck": ["Perù", ...],                          # optional, top first
     "reinforcements": 0,                            # optional: left to place
     "step": 3,                                      # optional (setup): left in this step
     "conquests": 0,                                 # optional: this turn
     "penalised": false,                             # optional: this turn is R3-penalised
     "move": {"from": "Brasile", "to": "Perù", "min": 3},   # the move phase's conquest
     "closing": {"last_round": null, "closing_round": 0, "widened": 0,   # optional (R2)
                 "anchor": null},    # the player whose turn opened closing round 1
     "last_rounds_at": null,                         # optional: automatic call (simulations)
     "outcome": null}                                # phase over: {end, winner, rounds, reason}

Missing optional fields take the values of a turn just begun: no cards (every card in the
deck, in card order), nothing conquered, in ``reinforce`` the seat's reinforcements (R4
clamp applied), in ``attack`` none left, no call of the last rounds. A position written
before ``closing.anchor`` existed, in a round after the LAST one, takes the highest seat in
play as the anchor (how the engine then counted closing rounds). Territory and card names
parse loosely (``risiko board`` names them); a bad position raises InvalidInputError naming
every fault (code ``position.*``).

>>> from risiko.game import Game
>>> game = Game.new(["Anna", "Bruno", "Carla"], seed=3)
>>> again = Game.from_position(game.position())
>>> again.state == game.state
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import jsonread
from .board import NUM_TERRITORIES, parse_territory, territory_name
from .cards import JOLLY_CARDS, NUM_CARDS, card_name, parse_card
from .faults import Fault, InvalidInputError, RisikoError, define, fault_param
from .names import name_key
from .ruleset import Ruleset, get_ruleset
from .state import FORFEIT_CLAUSES, EndReason, Phase, SeatStatus, State

if TYPE_CHECKING:
    from .game import Game

__all__ = ["attack_numbers", "forbidden_json", "legal_json", "parse_position", "position_of"]

SHEET_KEYS = ("player", "objective", "armies", "abandoned", "eliminated")
SEAT_KEYS = (*SHEET_KEYS, "cards", "status", "late_turns", "setup_left")
TOP_KEYS = (
    "ruleset", "seats", "to_act", "phase", "round", "deck", "reinforcements", "step",
    "conquests", "penalised", "move", "closing", "last_rounds_at", "outcome",
)

NOT_OBJECT = define("position.not_object", "", "a position is a JSON object, not {given}")
BAD_JSON = define("position.bad_json", "", "not JSON: {reason}")
SHEET = define("position.sheet", "", "{reason}")
UNKNOWN_KEY = define("position.unknown_key", "", "unknown key {key} (known: {known})")
NO_TO_ACT = define("position.no_to_act", "", "'to_act' names no player of the table: {given}")
NO_ANCHOR = define(
    "position.no_anchor", "R2", "'closing.anchor' names no player of the table: {given}"
)
BAD_PHASE = define(
    "position.bad_phase", "", "'phase' is one of {phases}, not {given}"
)
BAD_NUMBER = define(
    "position.bad_number", "", "{field} must be a whole number from {least}, not {given}"
)
BAD_CARD = define("position.bad_card", "", "{player}: {reason}")
CARDS_NOT_LIST = define("position.cards_not_list", "", "{player}: 'cards' is a list of names")
DECK_NOT_LIST = define("position.deck_not_list", "", "deck: 'deck' is a list of names")
NOT_JSON_AT = define("position.not_json_at", "",
                     "not valid JSON (line {json_line}, column {json_column})")
CARD_TWICE = define("position.card_twice", "", "the card {card} is given twice")
DECK_CARDS = define(
    "position.deck_cards", "",
    "the hands and the deck must hold the 44 cards once each; missing: {missing}",
)
BAD_STATUS = define(
    "position.bad_status", "", "{player}: 'status' is one of {statuses}, not {given}"
)
OUT_TO_ACT = define("position.out_to_act", "R13", "{player} is {status} and cannot act")
BAD_SEATS = define("position.bad_seats", "", "{seats} seats: a game has {least} to {most}")
BAD_MOVE = define("position.bad_move", "", "the move phase needs 'move': {reason}")
NO_REINFORCEMENTS = define(
    "position.no_reinforcements", "",
    "the reinforce phase needs reinforcements left to place (got {given})",
)
BAD_FLAG = define("position.bad_flag", "", "{field} must be true or false, not {given}")
BAD_OUTCOME = define(
    "position.bad_outcome", "", "'outcome.end' is how a game ends, not {given}"
)
EMPTY_STEP = define(
    "position.empty_step", "", "the setup phase needs armies to place in this step"
)
TOO_MANY = define(
    "position.too_many", "", "{field}: at most {most} entries, not {given}"
)
TOO_LARGE = define("position.too_large", "", "{field} is at most {most}, not {given}")

#: bounds of a position, checked before any other work (a position of 200,000 cards took
#: seconds of CPU and a 50 MB answer): seats at a table, territories, cards
MAX_SEATS = 6
MAX_TERRITORIES = NUM_TERRITORIES
MAX_CARDS = NUM_CARDS
#: armies on one territory, reinforcements, initial armies left (no ruleset comes near)
MAX_ARMIES = 10_000
#: rounds (and the other counts of turns: closing rounds, widenings, late turns)
MAX_ROUNDS = 1_000


def check_bounds(data: Mapping[str, Any]) -> None:
    """Refuse a position too large to be one, before any other work: more than
    :data:`MAX_SEATS` seats, :data:`MAX_TERRITORIES` territories in a seat's ``armies``,
    :data:`MAX_CARDS` cards in a hand or the deck (``position.too_many``), an army count
    above :data:`MAX_ARMIES` on a territory (``position.too_large``). Raises
    InvalidInputError naming each; the other counts are bounded as they are read.

    >>> check_bounds({"deck": ["Cina"] * 45})
    Traceback (most recent call last):
    ...
    risiko.faults.InvalidInputError: deck: at most 44 entries, not 45
    """
    faults: list[Fault] = []

    def count(value: Any, field: str, most: int) -> None:
        if isinstance(value, list | Mapping) and len(value) > most:
            faults.append(TOO_MANY({"field": field}, most=most, given=len(value)))

    seats = data.get("seats")
    count(seats, "seats", MAX_SEATS)
    count(data.get("deck"), "deck", MAX_CARDS)
    if isinstance(seats, list) and len(seats) <= MAX_SEATS:
        for i, seat in enumerate(seats, start=1):
            if not isinstance(seat, Mapping):
                continue
            who = str(seat.get("player", f"seat {i}"))[:40]
            count(seat.get("cards"), f"{who}: cards", MAX_CARDS)
            armies = seat.get("armies")
            count(armies, f"{who}: armies", MAX_TERRITORIES)
            if isinstance(armies, Mapping) and len(armies) <= MAX_TERRITORIES:
                for name, n in armies.items():
                    if isinstance(n, int) and not isinstance(n, bool) and n > MAX_ARMIES:
                        faults.append(TOO_LARGE({"player": who, "field": str(name)[:40]},
                                                most=MAX_ARMIES, given=n))
    if faults:
        raise InvalidInputError(*faults)


def _count(raw: Any, field: str, least: int, faults: list[Fault], default: int,
           most: int = MAX_ROUNDS) -> int:
    if raw is None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < least:
        faults.append(BAD_NUMBER({"field": field}, least=least, given=repr(raw)[:40]))
        return default
    if raw > most:
        faults.append(TOO_LARGE({"field": field}, most=most, given=raw))
        return default
    return raw


def parse_position(
    data: Mapping[str, Any] | str, *, ruleset: Ruleset | str | None = None
) -> State:
    """The state of a position (a dict from ``json.load``, or JSON text); ``ruleset`` (a
    preset name or a :class:`Ruleset`) replaces the position's own. Raises
    InvalidInputError with every fault found."""
    from . import rules
    from .sheet import parse_sheet

    if isinstance(data, str):
        try:
            data = jsonread.loads(data)
        except InvalidInputError:
            raise
        except json.JSONDecodeError as e:
            raise InvalidInputError(NOT_JSON_AT(json_line=e.lineno, json_column=e.colno))\
                from None
        except ValueError as e:
            raise InvalidInputError(BAD_JSON(reason=str(e))) from None
    if not isinstance(data, Mapping):
        raise InvalidInputError(NOT_OBJECT(given=type(data).__name__))
    check_bounds(data)
    faults: list[Fault] = []
    for key in data:
        if key not in TOP_KEYS:
            faults.append(UNKNOWN_KEY({"field": key}, key=key, known=", ".join(TOP_KEYS)))
    raw_seats = data.get("seats")
    sheet_seats: list[Any] = []
    if isinstance(raw_seats, list):
        for seat in raw_seats:
            if isinstance(seat, Mapping):
                for key in seat:
                    if key not in SEAT_KEYS:
                        faults.append(UNKNOWN_KEY(
                            {"player": str(seat.get("player", "")), "field": key},
                            key=key, known=", ".join(SEAT_KEYS),
                        ))
                sheet_seats.append({k: v for k, v in seat.items() if k in SHEET_KEYS})
            else:
                sheet_seats.append(seat)
    sheet_data: dict[str, Any] = {"seats": sheet_seats if raw_seats is not None else None}
    if "ruleset" in data and not isinstance(ruleset, Ruleset):  # a Ruleset given replaces it
        sheet_data["ruleset"] = data["ruleset"]
    if raw_seats is None:
        del sheet_data["seats"]
    rs_name = ruleset if isinstance(ruleset, str) else None
    try:
        sheet = parse_sheet(sheet_data, ruleset=rs_name)
    except RisikoError as e:
        raise InvalidInputError(*faults, *e.faults) from None
    except ValueError as e:
        lines = [x for x in str(e).splitlines() if x] or [str(e)]
        raise InvalidInputError(*faults, *(SHEET(reason=x) for x in lines)) from None
    rs = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(sheet.ruleset)
    n = len(sheet.seats)
    table = dict(rs.initial_armies)
    if n not in table:
        raise InvalidInputError(*faults, BAD_SEATS(seats=n, least=min(table), most=max(table)))
    assert isinstance(raw_seats, list)
    players = tuple(s.player for s in sheet.seats)

    st = State()
    st.ruleset = rs
    st.players = players
    st.n = n
    st.objectives = tuple(s.objective for s in sheet.seats)
    board = rs.board
    st.neighbours = board.neighbours
    st.adjacency = board.adjacency
    st.owner = [0] * NUM_TERRITORIES
    st.armies = [1] * NUM_TERRITORIES
    st.owned = [0] * n
    st.totals = [0] * n
    for s, seat in enumerate(sheet.seats):
        for t, a in seat.armies:
            st.owner[t] = s
            st.armies[t] = a
            st.owned[s] |= 1 << t
            st.totals[s] += a
    # seats: status, cards, late turns, setup
    st.hands = [[] for _ in range(n)]
    st.status = [SeatStatus.IN_PLAY] * n
    st.late_left = [0] * n
    st.setup_left = [0] * n
    st.forfeited = [[0] * len(FORFEIT_CLAUSES) for _ in range(n)]
    held: dict[int, str] = {}
    for s, raw in enumerate(raw_seats):
        entry = sheet.seats[s]
        player = entry.player
        if entry.abandoned:
            st.status[s] = SeatStatus.ABANDONED
        elif entry.is_eliminated:
            st.status[s] = SeatStatus.ELIMINATED
        status = raw.get("status")
        if status is not None:
            try:
                st.status[s] = SeatStatus(status)
            except ValueError:
                faults.append(BAD_STATUS({"player": player}, given=repr(status),
                                         statuses=", ".join(SeatStatus)))
        who = f"{player}: "
        st.late_left[s] = _count(raw.get("late_turns"), who + "late_turns", 0, faults, 0)
        st.setup_left[s] = _count(raw.get("setup_left"), who + "setup_left", 0, faults, 0,
                                  MAX_ARMIES)
        cards = raw.get("cards", [])
        if not isinstance(cards, list):
            faults.append(CARDS_NOT_LIST({"player": player}))
            cards = []
        for name in cards:
            try:
                card = parse_card(name)
            except (ValueError, TypeError) as e:
                faults.append(BAD_CARD({"player": player}, reason=fault_param(e)))
                continue
            if card in held and card == JOLLY_CARDS[0] and JOLLY_CARDS[1] not in held:
                card = JOLLY_CARDS[1]  # "jolly" twice: the deck has two
            if card in held:
                faults.append(CARD_TWICE(card=card_name(card)))
                continue
            held[card] = player
            st.hands[s].append(card)
    raw_deck = data.get("deck")
    if raw_deck is None:
        st.deck = [c for c in range(NUM_CARDS) if c not in held]
    else:
        st.deck = []
        if not isinstance(raw_deck, list):
            faults.append(DECK_NOT_LIST())
            raw_deck = []
        for name in raw_deck:
            try:
                card = parse_card(name)
            except (ValueError, TypeError) as e:
                faults.append(BAD_CARD({"player": "deck"}, reason=fault_param(e)))
                continue
            if card in held and card == JOLLY_CARDS[0] and JOLLY_CARDS[1] not in held:
                card = JOLLY_CARDS[1]
            if card in held:
                faults.append(CARD_TWICE(card=card_name(card)))
                continue
            held[card] = "deck"
            st.deck.append(card)
        missing = [card_name(c) for c in range(NUM_CARDS) if c not in held]
        if missing:
            faults.append(DECK_CARDS(missing=missing))
    # the turn
    phase_raw = data.get("phase")
    try:
        st.phase = Phase(str(phase_raw))
    except ValueError:
        faults.append(BAD_PHASE(phases=", ".join(Phase), given=repr(phase_raw)))
        st.phase = Phase.ATTACK
    to_act = data.get("to_act")
    keys = [name_key(p) for p in players]
    st.seat = 0
    if isinstance(to_act, str) and name_key(to_act) in keys:
        st.seat = keys.index(name_key(to_act))
    elif isinstance(to_act, int) and not isinstance(to_act, bool) and 1 <= to_act <= n:
        st.seat = to_act - 1  # a seat number (1-based) is accepted too
    else:
        faults.append(NO_TO_ACT(given=repr(to_act)))
    if st.phase is not Phase.OVER and st.status[st.seat] is not SeatStatus.IN_PLAY:
        faults.append(OUT_TO_ACT({"player": players[st.seat]}, status=str(st.status[st.seat])))
    setup = st.phase is Phase.SETUP
    st.round = _count(data.get("round"), "round", 0, faults, 0 if setup else 1)
    st.conquests = _count(data.get("conquests"), "conquests", 0, faults, 0, MAX_TERRITORIES)
    penalised = data.get("penalised", False)
    if not isinstance(penalised, bool):
        faults.append(BAD_FLAG({"field": "penalised"}, given=repr(penalised)))
        penalised = False
    st.penalised = penalised
    st.move_from = st.move_to = -1
    st.move_min = 0
    st.step_left = 0
    st.pending = 0
    if setup:
        default_step = min(rs.setup_step, st.setup_left[st.seat])
        st.step_left = _count(data.get("step"), "step", 1, faults, default_step, MAX_ARMIES)
        if st.step_left < 1:
            faults.append(EMPTY_STEP())
    elif st.phase is Phase.REINFORCE:
        gain = rules.reinforcements(st, st.seat) if not st.penalised else 0
        default = min(gain, rules.room(st, st.seat))
        st.pending = _count(data.get("reinforcements"), "reinforcements", 0, faults, default,
                            MAX_ARMIES)
        if st.pending < 1:
            faults.append(NO_REINFORCEMENTS(given=st.pending))
    else:
        st.pending = _count(data.get("reinforcements"), "reinforcements", 0, faults, 0,
                            MAX_ARMIES)
    if st.phase is Phase.MOVE:
        _parse_move(st, data.get("move"), faults)
    closing = data.get("closing") or {}
    if not isinstance(closing, Mapping):
        faults.append(BAD_NUMBER({"field": "closing"}, least=0, given=repr(closing)))
        closing = {}
    lr = closing.get("last_round")
    st.last_round = None if lr is None else _count(lr, "closing.last_round", 1, faults, 1)
    st.closing_round = _count(closing.get("closing_round"), "closing.closing_round", 0,
                              faults, 0)
    st.widened = _count(closing.get("widened"), "closing.widened", 0, faults, 0)
    st.closing_anchor = _anchor(st, closing, keys, faults)
    lra = data.get("last_rounds_at")
    st.last_rounds_at = None if lra is None else _count(lra, "last_rounds_at", 1, faults, 1)
    st.risiko_seat = None
    st.outcome = None
    if faults:
        raise InvalidInputError(*faults)
    if st.phase is Phase.OVER:
        for s in range(n):
            if st.status[s] is SeatStatus.IN_PLAY and rules.objective_done(st, s):
                st.risiko_seat = s
        st.phase = Phase.ATTACK  # finish() sets it again
        outcome = data.get("outcome")
        end, reason = EndReason.REFEREE, "position"
        if isinstance(outcome, Mapping):
            try:
                end = EndReason(str(outcome.get("end")))
            except ValueError:
                raise InvalidInputError(BAD_OUTCOME(given=repr(outcome.get("end")))) from None
            reason = str(outcome.get("reason", ""))
        rules.finish(st, end, reason)
    return st


def _anchor(st: State, closing: Mapping[str, Any], keys: list[str],
            faults: list[Fault]) -> int:
    """The seat whose turn opened closing round 1 (R2), -1 before: ``closing.anchor`` names
    its player (or its seat number, 1-based); missing in a round after the LAST one (a
    position of an older engine), the highest seat in play."""
    raw = closing.get("anchor")
    if raw is None:
        lr = st.last_round
        if "anchor" not in closing and lr is not None and st.round > lr:
            in_play = st.in_play()
            return in_play[-1] if in_play else st.n - 1
        return -1
    if isinstance(raw, str) and name_key(raw) in keys:
        return keys.index(name_key(raw))
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= st.n:
        return raw - 1
    faults.append(NO_ANCHOR(given=repr(raw)))
    return -1


def _parse_move(st: State, raw: Any, faults: list[Fault]) -> None:
    if not isinstance(raw, Mapping):
        faults.append(BAD_MOVE(reason="an object with from, to and min"))
        return
    try:
        src = parse_territory(raw.get("from", ""))
        dst = parse_territory(raw.get("to", ""))
    except (ValueError, TypeError) as e:
        faults.append(BAD_MOVE(reason=fault_param(e)))
        return
    seat = st.seat
    if st.owner[src] != seat or st.owner[dst] != seat:
        faults.append(BAD_MOVE(reason="both territories are the seat's to act"))
        return
    if not st.neighbours[src] >> dst & 1:
        faults.append(BAD_MOVE(reason=f"{territory_name(src)} does not border "
                                      f"{territory_name(dst)}"))
        return
    least = raw.get("min", st.armies[dst])
    if isinstance(least, bool) or not isinstance(least, int) or not 1 <= least <= 3:
        faults.append(BAD_MOVE(reason=f"min is the dice of the last roll (1 to 3), not "
                                      f"{least!r}"))
        return
    if st.armies[src] < 2:
        faults.append(BAD_MOVE(reason=f"{territory_name(src)} has no army to move"))
        return
    st.move_from, st.move_to, st.move_min = src, dst, least


def position_of(st: State) -> dict[str, Any]:
    """The JSON position of ``st`` (every field written; :func:`parse_position` reads it
    back to an equal state, forfeits aside)."""
    seats = []
    for s in range(st.n):
        seats.append({
            "player": st.players[s],
            "objective": st.objectives[s].number,
            "armies": {
                territory_name(t): st.armies[t] for t in range(NUM_TERRITORIES)
                if st.owner[t] == s
            },
            "cards": [_card(c) for c in st.hands[s]],
            "status": str(st.status[s]),
            "late_turns": st.late_left[s],
            "setup_left": st.setup_left[s],
        })
    out: dict[str, Any] = {
        "ruleset": st.ruleset.label,
        "seats": seats,
        "to_act": st.players[st.seat],
        "phase": str(st.phase),
        "round": st.round,
        "deck": [_card(c) for c in st.deck],
        "reinforcements": st.pending,
        "step": st.step_left if st.phase is Phase.SETUP else None,
        "conquests": st.conquests,
        "penalised": st.penalised,
        "move": None,
        "closing": {
            "last_round": st.last_round,
            "closing_round": st.closing_round,
            "widened": st.widened,
            "anchor": st.players[st.closing_anchor] if st.closing_anchor >= 0 else None,
        },
        "last_rounds_at": st.last_rounds_at,
        "outcome": None,
    }
    if st.outcome is not None:
        out["outcome"] = {
            "end": str(st.outcome.end),
            "winner": st.outcome.winner,
            "rounds": st.outcome.rounds,
            "reason": st.outcome.reason,
        }
    if st.phase is Phase.MOVE:
        out["move"] = {
            "from": territory_name(st.move_from),
            "to": territory_name(st.move_to),
            "min": st.move_min,
        }
    return out


def _card(c: int) -> str:
    if c == JOLLY_CARDS[0]:
        return "jolly"
    if c == JOLLY_CARDS[1]:
        return "jolly2"
    return territory_name(c)


def attack_numbers(st: State, source: int, target: int) -> dict[str, int]:
    """The numbers of an attack from ``source`` on ``target`` by the seat holding
    ``source``: ``armies`` (on the attacking territory), ``defender`` (armies on the
    target), ``attacker_dice`` and ``defender_dice`` (R8: always the most), ``bordering``
    (the R8 sum: the attacker's armies on all his territories bordering the target)."""
    from .attack import attacker_dice, bordering_armies, defender_dice

    a, d = st.armies[source], st.armies[target]
    seat = st.owner[source]
    return {
        "armies": a,
        "defender": d,
        "attacker_dice": attacker_dice(a),
        "defender_dice": defender_dice(d),
        "bordering": bordering_armies(st.armies, st.owned[seat], st.neighbours[target]),
    }


def legal_json(game: Game, *, explain: bool = False, lang: str = "it") -> dict[str, Any]:
    """The legal actions of the seat to act, as ``risiko legal --json`` prints them (a
    contract): ``to_act`` (player, None once the game is over), ``phase``, ``round``,
    ``count`` (entries, as perft counts them), ``actions`` (:func:`risiko.actions.action_dict`:
    ``kind`` and its fields, territory names as ``risiko board`` prints them, ``min``/``max``
    for an amount); in the attack phase ``attacks``: ``[{from, to, attacker_dice,
    defender_dice}]`` (dice counts, R8). ``explain`` adds ``forbidden_attacks``: every attack
    from a territory of the seat to act on a bordering enemy one that the rules forbid, with
    ``clause`` (R7, R8, R3; "" for a territory of 1 army), ``code``, ``reason`` (English) and
    the numbers of :func:`attack_numbers` (dice, the R8 sum against the defender's armies).

    >>> from risiko.game import Game
    >>> game = Game.new(["Anna", "Bruno", "Carla"], seed=1)
    >>> report = legal_json(game)
    >>> report["to_act"], report["phase"], report["count"] == len(report["actions"])
    ('Anna', 'setup', True)
    """
    from .actions import Attack, action_dict
    from .rules import forbidden_attacks

    st = game.state
    legal = game.legal_actions()
    out: dict[str, Any] = {
        "to_act": None if st.phase is Phase.OVER else st.players[st.seat],
        "phase": str(st.phase),
        "round": st.round,
        "count": len(legal),
        "actions": [action_dict(entry, lang) for entry in legal],
    }
    if st.phase is Phase.ATTACK:
        out["attacks"] = []
        for entry in legal:
            if isinstance(entry, Attack):
                numbers = attack_numbers(st, entry.source, entry.target)
                out["attacks"].append({
                    "from": territory_name(entry.source, lang),
                    "to": territory_name(entry.target, lang),
                    "attacker_dice": numbers["attacker_dice"],
                    "defender_dice": numbers["defender_dice"],
                })
    if explain:
        out["forbidden_attacks"] = [
            forbidden_json(st, src, dst, fault, lang) for src, dst, fault in forbidden_attacks(st)
        ]
    return out


def forbidden_json(st: State, source: int, target: int, fault: Fault,
                   lang: str = "it") -> dict[str, Any]:
    """One forbidden attack as JSON: ``from``, ``to``, ``clause``, ``code``, ``reason``
    (English) and :func:`attack_numbers`."""
    return {
        "from": territory_name(source, lang),
        "to": territory_name(target, lang),
        "clause": fault.clause,
        "code": fault.code,
        "reason": fault.message("en"),
        **attack_numbers(st, source, target),
    }
