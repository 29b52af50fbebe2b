"""An online table's log entries as values, said in each viewer's language (like faults).

An entry's value is ``{"code": "log.attack", "params": {...}}``: players by name, territories
as the board writes them (``Gran Bretagna``, not the record's ``Gran_Bretagna``), dice as
lists of pips. :func:`message` says it in Italian or English from the catalogues
(``src/risiko/locale/<lang>/LC_MESSAGES/log.po``), the dice drawn as dice (``⚅ ⚃``). The
record line (``t/<code>/record.txt``) stays in the record format: this is only what people
read.

>>> v = action_value(0, Attack(0, 1, (6, 4), (3,)), ["Luca", "Anna", "Bice"])
>>> v["code"], v["params"]["source"], v["params"]["lost_defender"]
('log.attack', 'Alaska', 1)
>>> message(v, "en")
'Luca attacks Territori del Nord Ovest from Alaska: ⚅ ⚃ against ⚂ (Luca loses 0, the defender 1)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..actions import (
    Abandon,
    Action,
    Attack,
    CallLastRounds,
    EndGame,
    EndTurn,
    Fortify,
    Late,
    Move,
    Place,
    Timeout,
    Trade,
    WidenClosing,
)
from ..attack import roll_losses
from ..board import NUM_TERRITORIES, territory_name
from ..faults import FaultKind, define

PIPS = "⚀⚁⚂⚃⚄⚅"

PLACE = define("log.place", "", "{player} places {armies} on {territory}")
TRADE = define("log.trade", "R9", "{player} trades {cards} for {value} armies")
TRADE_BONUS = define("log.trade_bonus", "R9",
                     "{player} trades {cards} for {value} armies, and {bonus} on {territories}")
ATTACK = define("log.attack", "R8", "{player} attacks {target} from {source}: {attacker_dice} "
                "against {defender_dice} ({player} loses {lost_attacker}, the defender "
                "{lost_defender})")
MOVE = define("log.move", "", "{player} moves {armies} into the conquered territory")
FORTIFY = define("log.fortify", "", "{player} moves {armies} from {source} to {target} "
                 "(strategic move)")
END = define("log.end", "", "{player} ends the turn")
CLOSING = define("log.closing", "R2", "closing dice for {player}: {dice}")
TIMEOUT = define("log.timeout", "R11", "{player}'s time ran out: the turn passes")
CALL = define("log.call", "R2", "the referee calls the last two rounds")
WIDEN = define("log.widen", "R2", "the referee widens the closing band: {reason}")
STOP = define("log.stop", "R2", "the referee ends the game: {reason}")
ABANDON = define("log.abandon", "R13", "{player} leaves the game")
LATE = define("log.late", "R3",
              "{player} arrived late, the game begun: his first turns of play are penalised")
START = define("log.start", "", "the game starts (commitment of the seed {commitment})")
DISCONNECTED = define("log.disconnected", "", "{player} disconnected")
CONNECTION_LOST = define("log.connection_lost", "", "{player}: connection lost")
BACK = define("log.back", "", "{player} is back")
STAND_IN = define("log.stand_in", "", "a bot plays for {player} until back")
BOT_LEVEL = define("log.bot_level", "", "the referee sets the bot of seat {seat} ({player}) "
                   "to level {level}")
ABSENT = define("log.absent", "R11", "{player} is absent: his turns time out")
R13_ASKED = define("log.r13_asked", "R13", "the referee is asked to declare R13 for {player}")
LEFT_STAND_IN = define("log.left_stand_in", "",
                       "{player} left the table: a bot plays for him until back")
LEFT_R13 = define("log.left_r13", "R13",
                  "{player} left the table: the referee is asked to declare R13")
CLOCK_WARNING = define("log.clock_warning", "R11", "{seconds} s left for {player}")
PAUSE = define("log.pause", "", "the referee pauses the game")
RESUME = define("log.resume", "", "the referee resumes the game")
PENALTY = define("log.penalty", "", "penalty for {player}: {points} points")
UNDO = define("log.undo", "", "the referee undoes entry {seq}")
RESULT_NOT_ENTERED = define("log.result_not_entered", "", "the result was not entered: {fault}")
RESULT_WAITING = define("log.result_waiting", "",
                        "the result waits: the referee's result stands until he keeps one of "
                        "the two")

#: the params drawn as dice
DICE = ("attacker_dice", "defender_dice", "dice")


def value(kind: FaultKind, **params: Any) -> dict[str, Any]:
    """A log entry's value: its code and params (JSON)."""
    return {"code": kind.code, "params": params}


def _place_name(t: int) -> str:
    return territory_name(t) if 0 <= t < NUM_TERRITORIES else "jolly"


def action_value(seat: int | None, action: Action, players: Sequence[str]) -> dict[str, Any]:
    """The value of an applied ``action`` made by ``seat`` (0-based; None: the referee or
    the clock); ``players``: the seats' names in turn order. The dice of an attack are the
    ones rolled (the action as the game recorded it); the closing dice an end of turn rolled
    (R2) follow as ``also``."""
    out = _action_value(seat, action, players)
    dice = getattr(action, "closing", None)
    if dice:
        who = out["params"].get("player", "")
        out["also"] = [value(CLOSING, player=who, dice=list(dice))]
    return out


def _action_value(seat: int | None, action: Action, players: Sequence[str]) -> dict[str, Any]:
    who = players[seat] if seat is not None and 0 <= seat < len(players) else ""
    if isinstance(action, Place):
        return value(PLACE, player=who, armies=action.armies,
                     territory=territory_name(action.territory))
    if isinstance(action, Trade):
        cards = ", ".join(_place_name(c) for c in action.cards)
        bonus = action.bonus or ()
        if bonus:
            return value(TRADE_BONUS, player=who, cards=cards, value=action.value,
                         bonus=sum(n for _t, n in bonus),
                         territories=", ".join(territory_name(t) for t, _n in bonus))
        return value(TRADE, player=who, cards=cards, value=action.value)
    if isinstance(action, Attack):
        a, d = list(action.attacker_dice or ()), list(action.defender_dice or ())
        lost_a, lost_d = roll_losses(a, d)
        return value(ATTACK, player=who, source=territory_name(action.source),
                     target=territory_name(action.target), attacker_dice=a,
                     defender_dice=d, lost_attacker=lost_a, lost_defender=lost_d)
    if isinstance(action, Move):
        return value(MOVE, player=who, armies=action.armies)
    if isinstance(action, Fortify):
        return value(FORTIFY, player=who, armies=action.armies,
                     source=territory_name(action.source),
                     target=territory_name(action.target))
    if isinstance(action, Abandon):
        return value(ABANDON, player=players[action.seat] if action.seat < len(players) else "")
    if isinstance(action, Late):
        return value(LATE, player=players[action.seat] if action.seat < len(players) else "")
    if isinstance(action, CallLastRounds):
        return value(CALL)
    if isinstance(action, WidenClosing):
        return value(WIDEN, reason=action.reason)
    if isinstance(action, EndGame):
        return value(STOP, reason=action.reason)
    if isinstance(action, Timeout):
        return value(TIMEOUT, player=who)
    assert isinstance(action, EndTurn)
    return value(END, player=who)


def dice_text(pips: Sequence[int]) -> str:
    """Dice drawn as dice: ``[6, 4]`` is ``⚅ ⚃``.

    >>> dice_text([6, 4, 1])
    '⚅ ⚃ ⚀'
    """
    return " ".join(PIPS[p - 1] if isinstance(p, int) and 1 <= p <= 6 else str(p)
                    for p in pips)


def message(entry: Mapping[str, Any], lang: str) -> str:
    """A log value said in ``lang`` ("it" or "en"), the dice drawn as dice, its ``also``
    after it. An unknown code (a newer server's) is said by its code."""
    said = _said(entry, lang)
    for more in entry.get("also") or ():
        said += " · " + _said(more, lang)
    return said


def _said(entry: Mapping[str, Any], lang: str) -> str:
    from ..faults import kind_of

    code = str(entry.get("code", ""))
    params = dict(entry.get("params") or {})
    for key in DICE:
        if isinstance(params.get(key), list):
            params[key] = dice_text(params[key])
    try:
        kind = kind_of(code)
    except KeyError:
        return code
    return kind(**params).message(lang)


def messages(entry: Mapping[str, Any]) -> dict[str, str]:
    """A log value said in each language: ``{"it": ..., "en": ...}``."""
    return {lang: message(entry, lang) for lang in ("it", "en")}
