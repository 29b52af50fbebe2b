"""The one place that knows the engine's shape, for online tables.

Everything the online tables ask of a game goes through here: a new game on a fair seed, a
snapshot and its restore, an intention (JSON from a browser) turned into an action, the
public view and a seat's private view, the odds before a roll, a bot's action. When the
engine's API changes (``Game.position()`` / ``Game.from_position()``, ``legal_actions()``,
faults as values) only this module changes.

A snapshot is JSON: the engine's position (``Game.position()``, read back by
``Game.from_position``) plus what a position leaves out and a table needs to go on exactly as
it would have: the chance's next draw (the HMAC counter of :mod:`risiko.fair`; the seed stays
in the table's row), the armies forfeited per clause and the closing rolls so far. A position
read under the same chance continues identically, so a snapshot survives changes of the
engine's code; one it cannot read (a field it no longer knows) raises ValueError and the
caller rebuilds the game from its events (:func:`replay_lines`).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..actions import (
    REFEREE_ACTIONS,
    Action,
    Attack,
    EndTurn,
    Fortify,
    Move,
    Place,
    Trade,
    parse_action,
)
from ..agents.base import agent_by_name
from ..board import NUM_TERRITORIES, iter_mask, parse_territory, territory_name
from ..cards import best_set, card_name, card_symbol, parse_card, set_value, sets_in
from ..fair import FairChance
from ..faults import Fault, IllegalActionError, InvalidInputError, define
from ..game import Game
from ..odds import attack_odds, attacker_dice, defender_dice
from ..ruleset import get_ruleset
from ..state import FORFEIT_CLAUSES, ClosingRoll
from ..view import SeatView

#: the snapshot's format (a position with its chance): written in ``snapshot_format``
SNAPSHOT_FORMAT = "position-v1"

BAD_INTENTION = define("online.bad_intention", "", "not an action: {reason}")
UNKNOWN_NAME = define("online.unknown_name", "", "{what} {name!r} is not known")
REFUSED = define("online.refused", "", "{reason}")


def new_game(
    players: Sequence[str], ruleset: str, seed: bytes, *, late: Iterable[int] = (),
    last_rounds_at: int | None = None,
) -> Game:
    """A new game whose deal, objectives, deck and dice are draws of ``seed`` (risiko.fair)."""
    return Game.new(
        list(players), get_ruleset(ruleset), chance=FairChance(seed), late=late,
        last_rounds_at=last_rounds_at,
    )


def draws(game: Game) -> int:
    """Chance draws made so far (the next draw's number)."""
    chance = game.chance
    return chance.draws if isinstance(chance, FairChance) else 0


def set_draws(game: Game, n: int) -> None:
    """Continue the game's fair chance at draw ``n`` (draws of undone actions stay burnt)."""
    chance = game.chance
    if isinstance(chance, FairChance) and n:
        chance.draws = n


def snapshot(game: Game) -> bytes:
    """The game as a JSON snapshot (UTF-8 bytes): ``{"format": "position-v1", "position":
    Game.position(), "draws": next chance draw, "forfeited": {player: {clause: armies}},
    "closing_rolls": [ClosingRoll fields], "rolls": attack rolls so far}``. The history is
    not in it (a table's history is its events)."""
    data = {
        "format": SNAPSHOT_FORMAT,
        "position": game.position(),
        "draws": draws(game),
        "forfeited": game.forfeits_json(),
        "closing_rolls": [dataclasses.asdict(c) for c in game.closing_rolls],
        "rolls": game.rolls,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def restore(data: bytes, seed: bytes, ruleset: str) -> Game:
    """The game of a :func:`snapshot`, its chance the draws of ``seed`` from the snapshot's
    next draw on; ``ruleset`` is the table's (``name@version``). ValueError when the snapshot
    cannot be read by this engine (the caller replays the events instead): one written in
    the closing rounds (R2) before positions kept ``closing.anchor`` is one."""
    try:
        raw = json.loads(bytes(data).decode())
        if not isinstance(raw, dict) or raw.get("format") != SNAPSHOT_FORMAT:
            raise ValueError("not a position-v1 snapshot")
        closing = raw["position"].get("closing") or {}
        lr = closing.get("last_round")
        if "anchor" not in closing and lr is not None and raw["position"]["round"] > lr:
            # written before the anchor of the closing rounds (R2) was kept: the events
            # know it, the position does not
            raise ValueError("a snapshot of the closing without its anchor")
        game = Game.from_position(raw["position"], chance=FairChance(seed, int(raw["draws"])),
                                  ruleset=get_ruleset(ruleset))
        index = {clause: i for i, clause in enumerate(FORFEIT_CLAUSES)}
        for s, player in enumerate(game.players):
            for clause, armies in raw["forfeited"].get(player, {}).items():
                game.state.forfeited[s][index[clause]] = int(armies)
        game.closing_rolls = [
            ClosingRoll(**{**c, "dice": None if c.get("dice") is None else tuple(c["dice"])})
            for c in raw["closing_rolls"]
        ]
        game.rolls = int(raw.get("rolls", 0))
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"snapshot not readable: {e!r}") from None
    return game


#: the most actions a kept game holds behind its position (:func:`bounded`)
HISTORY_MOST = 64


def bounded(game: Game, most: int = HISTORY_MOST) -> Game:
    """``game`` as a server keeps it between actions: itself while its history holds fewer
    than ``most`` actions, else the same position without the history (:func:`snapshot` read
    back by :func:`restore`, as a game rebuilt from a table's snapshot is), so that what a
    kept game holds does not grow with the game's length. A table's history is its events;
    the online tables never read a kept game's history (the record and an undo replay the
    events). A game whose chance is not fair (a test's scripted dice) is returned as it is.

    >>> game = new_game(["Anna", "Bruno", "Carla"], "club-milano", b"s" * 32)
    >>> for _ in range(3):
    ...     _ = game.push(Place(game.owned[game.to_act].bit_length() - 1, 3))
    >>> bounded(game, most=4) is game, len(bounded(game, most=3).history)
    (True, 0)
    >>> snapshot(bounded(game, most=3)) == snapshot(game)
    True
    """
    chance = game.chance
    if len(game.history) < most or not isinstance(chance, FairChance):
        return game
    return restore(snapshot(game), chance.seed, game.ruleset.label)


def parse_line(text: str) -> tuple[int | None, Action]:
    """A record line (``"3 attack Cina Siam 6-5-1 4-4"``) as (seat 0-based or None, action),
    read by :func:`risiko.actions.parse_action` (the reverse of :func:`line_of`).
    ValueError for a line that is none."""
    head, _, rest = text.strip().partition(" ")
    try:
        seat = None if head == "R" else int(head) - 1
        return seat, parse_action(rest)
    except ValueError as e:  # pragma: no cover - lines written by this server
        raise ValueError(f"bad event line {text!r}: {e}") from None


def line_of(seat: int | None, action: Action) -> str:
    """The record line of an action made by ``seat`` (None: the referee)."""
    prefix = "R" if seat is None or isinstance(action, REFEREE_ACTIONS) else str(seat + 1)
    return f"{prefix} {action.text()}"


def replay_lines(game: Game, lines: Iterable[str]) -> Game:
    """Push recorded lines (their dice included: nothing is drawn) onto ``game``."""
    for text in lines:
        _, action = parse_line(text)
        game.push(action)
    return game


def _territory(value: Any, field: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < NUM_TERRITORIES:
        return value
    if not isinstance(value, str):
        raise InvalidInputError(BAD_INTENTION(reason=f"{field} must name a territory"))
    try:
        return parse_territory(value)
    except ValueError:
        raise InvalidInputError(UNKNOWN_NAME({"territory": value}, what="territory",
                                             name=value)) from None


def _armies(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidInputError(BAD_INTENTION(reason="armies must be a whole number from 1"))
    return value


def to_action(intention: Mapping[str, Any]) -> Action:
    """A seat's intention (``{"kind": "attack", "from": "Cina", "to": "Siam"}``) as an
    action without dice (the server rolls). InvalidInputError for a malformed one."""
    kind = intention.get("kind")
    if kind == "place":
        return Place(_territory(intention.get("territory"), "territory"),
                     _armies(intention.get("armies")))
    if kind == "trade":
        cards = intention.get("cards")
        if not isinstance(cards, list) or len(cards) != 3:
            raise InvalidInputError(BAD_INTENTION(reason="a set is three cards"))
        try:
            parsed = tuple(parse_card(c) for c in cards)
        except ValueError:
            raise InvalidInputError(UNKNOWN_NAME(what="card", name=str(cards))) from None
        return Trade((parsed[0], parsed[1], parsed[2]))
    if kind == "attack":
        return Attack(_territory(intention.get("from"), "from"),
                      _territory(intention.get("to"), "to"))
    if kind == "move":
        return Move(_armies(intention.get("armies")))
    if kind == "fortify":
        return Fortify(_territory(intention.get("from"), "from"),
                       _territory(intention.get("to"), "to"), _armies(intention.get("armies")))
    if kind == "end":
        return EndTurn()
    raise InvalidInputError(BAD_INTENTION(reason=f"unknown kind {kind!r}"))


def faults_of(error: Exception) -> list[Fault]:
    """The faults of a refusal (the engine's words wrapped while it raises plain errors)."""
    faults = getattr(error, "faults", None)
    if faults:
        return list(faults)
    return [REFUSED(reason=str(error))]


def push(game: Game, action: Action) -> Action:
    """The engine's checked door; a refusal is an IllegalActionError with faults."""
    try:
        return game.push(action)
    except (InvalidInputError, IllegalActionError):
        raise
    except ValueError as e:  # today's engine: a message without a fault
        raise IllegalActionError(*faults_of(e)) from None


def turn_number(game: Game) -> int:
    """The turn in progress as a number, 0 during the initial placement: a new turn changes
    it (the round and the seat to act name a turn)."""
    if game.phase == "setup" or game.round == 0:
        return 0
    return game.round * 8 + game.seat + 1


def late_left(game: Game, seat: int) -> int:
    """Penalised turns (R3) the seat still has to serve."""
    return game.state.late_left[seat]


def closing_band(game: Game) -> tuple[int, int] | None:
    """The closing band (R2) of the turn in progress, or None before the closing."""
    k = game.closing_round_of_turn()
    if k is None or game.over:
        return None
    return game.ruleset.closing_band(k + game.closing_extra)


def public_view(game: Game) -> dict[str, Any]:
    """What everybody may see: the board, counts, phase, closing; objectives only at the end."""
    over = game.over
    seats = []
    for s in range(game.n):
        seats.append({
            "seat": s + 1,
            "player": game.players[s],
            "status": game.status[s],
            "cards": len(game.hands[s]),
            "territories": game.owned[s].bit_count(),
            "armies": game.totals[s],
            "late_turns": late_left(game, s),
            "objective": _objective(game, s) if over else None,
        })
    move = None
    if game.phase == "move":
        move = {
            "from": territory_name(game.move_from), "to": territory_name(game.move_to),
            "min": game.move_min, "max": game.move_min + game.armies[game.move_from] - 1,
        }
    band = closing_band(game)
    out: dict[str, Any] = {
        "phase": str(game.phase),
        "round": game.round,
        "to_act": None if game.to_act is None else game.to_act + 1,
        "pending": game.pending if game.phase == "reinforce" else (
            game.step_left if game.phase == "setup" else 0),
        "last_round": game.last_round,
        "closing_round": game.closing_round_of_turn() if not over else None,
        "closing_band": list(band) if band else None,
        "move": move,
        "conquests": game.conquests,
        "late_turn": bool(game.penalised_turn),
        "seats": seats,
        "territories": [
            {"t": t, "name": territory_name(t), "owner": game.owner[t] + 1,
             "armies": game.armies[t]}
            for t in range(NUM_TERRITORIES)
        ],
        "closing_rolls": [c.to_dict() for c in game.closing_rolls],
        "outcome": None,
        "scores": None,
    }
    if game.outcome is not None:
        o = game.outcome
        out["outcome"] = {"end": o.end, "rounds": o.rounds, "winner": o.winner,
                          "reason": o.reason}
        out["scores"] = [
            {"seat": i + 1, "player": sc.player, "score": sc.score, "base": sc.base,
             "risiko": sc.risiko}
            for i, sc in enumerate(game.scores())
        ]
    return out


def _objective(game: Game, seat: int) -> dict[str, Any]:
    o = game.objectives[seat]
    return {"number": o.number, "name": o.name,
            "territories": [territory_name(t) for t in iter_mask(o.mask)]}


def private_view(game: Game, seat: int) -> dict[str, Any]:
    """What only ``seat`` (0-based) may see: its objective, its cards, the sets it may trade
    now with their value (R9) and, on its turn, its legal attacks (R7, R8)."""
    view = SeatView(game, seat)
    hand = list(view.hand)
    sets = []
    if game.to_act == seat and game.phase == "reinforce" and not game.penalised_turn:
        for trio in sets_in(hand):
            base, bonus = set_value(game.ruleset, trio, len(hand), game.owned[seat])
            sets.append({"cards": [card_name(c) for c in trio], "value": base,
                         "bonus": bonus, "names": [
                             territory_name(c) if c < NUM_TERRITORIES else "jolly"
                             for c in trio]})
    attacks = []
    if game.to_act == seat and game.phase == "attack":
        for src, dst in view.legal_attacks():
            attacks.append({"from": territory_name(src), "to": territory_name(dst)})
    return {
        "seat": seat + 1,
        "objective": _objective(game, seat),
        "cards": [{"card": card_name(c), "name": territory_name(c) if c < NUM_TERRITORIES
                   else "jolly", "symbol": card_symbol(c)} for c in hand],
        "sets": sets,
        "must_trade": bool(game.ruleset.hand_limit is not None
                           and len(hand) > game.ruleset.hand_limit
                           and best_set(hand) is not None),
        "attacks": attacks,
    }


ODDS_NOT_YOURS = define("online.odds_not_your_turn", "", "it is not your turn to attack")


def odds(game: Game, seat: int, source: Any, target: Any) -> dict[str, Any]:
    """Legality (R7, R8) and exact odds of attacking ``target`` from ``source`` now."""
    src = _territory(source, "from")
    dst = _territory(target, "to")
    out: dict[str, Any] = {"from": territory_name(src), "to": territory_name(dst)}
    if game.to_act != seat or game.phase != "attack":
        out.update(legal=False, faults=[ODDS_NOT_YOURS()])
        return out
    fault: Any = game.attack_fault(src, dst)
    a, d = game.armies[src], game.armies[dst]
    out["attacker_dice"] = attacker_dice(a) if a > 1 else 0
    out["defender_dice"] = defender_dice(d)
    if fault:
        out.update(legal=False,
                   faults=[fault if isinstance(fault, Fault) else REFUSED(reason=str(fault))])
        return out
    support = game.bordering(seat, dst) - a
    result = attack_odds(a, d, game.ruleset, max(0, support))
    out.update(legal=True, faults=[], conquest=result.p_conquer,
               expected_losses={"attacker": result.expected_attacker_losses,
                                "defender": result.expected_defender_losses})
    return out


def bot_action(game: Game, seat: int, bot: str, rng_seed: int) -> Action:
    """The action bot ``bot`` (``random`` | ``heuristic``) makes for ``seat`` now (it sees only
    its SeatView)."""
    agent = agent_by_name(bot, random.Random(rng_seed))
    return agent.act(SeatView(game, seat))
