"""The actions of a game, as small frozen values (seat actions and referee actions).

Seat actions (by the seat to act): :class:`Place`, :class:`Trade`, :class:`Attack`,
:class:`Move`, :class:`Fortify`, :class:`EndTurn`. Referee actions (at any time):
:class:`CallLastRounds` (R2), :class:`WidenClosing` (R2), :class:`EndGame` (R2),
:class:`Timeout` (R11), :class:`Abandon` (R13), :class:`Late` (R3).

Chance travels with the action: ``Attack`` carries its dice and the turn-ending actions carry
the closing dice (R2). Leave them ``None`` and the game draws them from its chance source; the
history always stores the action with the values actually used. Dice are kept as entered or
rolled (a referee checks them against the table); the rules compare them sorted. ``Trade``
carries its value and owned-territory bonus the same way: None to let the game say them,
given (as a record gives them) to have the game check them.

Legal actions (:meth:`risiko.game.Game.legal_actions`) are exact actions where the rules fix
everything, and an :class:`Amount` where the seat chooses a number of armies:

>>> entry = Amount(Place(0, 5), 1, 5)
>>> Place(0, 3) in entry, Place(0, 6) in entry, entry.of(2)
(True, False, Place(territory=0, armies=2))
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias, overload

from .attack import attacker_dice, defender_dice
from .board import Territory, parse_territory, territory_code, territory_name
from .cards import Card, card_name, parse_card
from .faults import InvalidInputError, RisikoError, define

Dice: TypeAlias = tuple[int, ...]


#: The seat actions a game makes by the hundred (Place, Trade, Attack, Move, Fortify, EndTurn)
#: write out the ``__init__`` their dataclass would generate (the same fields, defaults and
#: frozen writes): the compiled build (mypyc) makes it native code, 7 times faster than the
#: generated one, which stays Python there. ``tests/test_build.py`` binds each to its fields.
_FAST_INIT = ("Place", "Trade", "Attack", "Move", "Fortify", "EndTurn")


def _dice_text(d: Dice | None) -> str:
    return "-".join(str(x) for x in d) if d else "-"


@dataclass(frozen=True, slots=True)
class Place:
    """Place ``armies`` armies on ``territory`` (initial placement or reinforcements, R4)."""

    territory: Territory
    armies: int

    def __init__(self, territory: Territory, armies: int) -> None:  # see _FAST_INIT
        object.__setattr__(self, "territory", territory)
        object.__setattr__(self, "armies", armies)

    def text(self) -> str:
        """Record form."""
        return f"place {territory_code(self.territory)} {self.armies}"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade a card set (R9) during reinforcement.

    ``value``: the set's armies by the cards in hand (8/10/12 under R9); ``bonus``: the
    owned-territory bonus as ``((territory, armies), ...)``. None: the game says them (the
    history stores them); given: the game checks them.
    """

    cards: tuple[Card, Card, Card]
    value: int | None = None
    bonus: tuple[tuple[Territory, int], ...] | None = None

    def __init__(  # see _FAST_INIT
        self, cards: tuple[Card, Card, Card], value: int | None = None,
        bonus: tuple[tuple[Territory, int], ...] | None = None,
    ) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "bonus", bonus)

    def text(self) -> str:
        """Record form: ``trade A B C`` then ``= value`` and ``+armies Territory`` each."""
        out = "trade " + " ".join(card_name(c) for c in self.cards)
        if self.value is not None:
            out += f" = {self.value}"
        for t, n in self.bonus or ():
            out += f" +{n} {territory_code(t)}"
        return out


@dataclass(frozen=True, slots=True)
class Attack:
    """One roll from ``source`` against ``target`` (R7, R8 checked before it).

    ``attacker_dice`` / ``defender_dice``: the dice shown (as entered, any order), or None
    to roll.
    """

    source: Territory
    target: Territory
    attacker_dice: Dice | None = None
    defender_dice: Dice | None = None

    def __init__(  # see _FAST_INIT
        self, source: Territory, target: Territory, attacker_dice: Dice | None = None,
        defender_dice: Dice | None = None,
    ) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "attacker_dice", attacker_dice)
        object.__setattr__(self, "defender_dice", defender_dice)

    def text(self) -> str:
        """Record form."""
        return (
            f"attack {territory_code(self.source)} {territory_code(self.target)} "
            f"{_dice_text(self.attacker_dice)} {_dice_text(self.defender_dice)}"
        )


@dataclass(frozen=True, slots=True)
class Move:
    """After a conquest: move ``armies`` into the conquered territory (at least the dice used)."""

    armies: int

    def __init__(self, armies: int) -> None:  # see _FAST_INIT
        object.__setattr__(self, "armies", armies)

    def text(self) -> str:
        """Record form."""
        return f"move {self.armies}"


@dataclass(frozen=True, slots=True)
class Fortify:
    """The one strategic move of the turn; it ends the turn. ``closing``: closing dice or None."""

    source: Territory
    target: Territory
    armies: int
    closing: Dice | None = None

    def __init__(  # see _FAST_INIT
        self, source: Territory, target: Territory, armies: int, closing: Dice | None = None
    ) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "armies", armies)
        object.__setattr__(self, "closing", closing)

    def text(self) -> str:
        """Record form."""
        s = f"fortify {territory_code(self.source)} {territory_code(self.target)} {self.armies}"
        return s + (f" {_dice_text(self.closing)}" if self.closing else "")


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn (no fortify move). ``closing``: the closing dice (R2) or None."""

    closing: Dice | None = None

    def __init__(self, closing: Dice | None = None) -> None:  # see _FAST_INIT
        object.__setattr__(self, "closing", closing)

    def text(self) -> str:
        """Record form."""
        return "end" + (f" {_dice_text(self.closing)}" if self.closing else "")


@dataclass(frozen=True, slots=True)
class CallLastRounds:
    """Referee: the call of the last 2 rounds (R2); the round in progress is the penultimate."""

    def text(self) -> str:
        """Record form."""
        return "call"


@dataclass(frozen=True, slots=True)
class WidenClosing:
    """Referee: skip to the next closing round's band now (R2, accelerating the closing)."""

    reason: str = ""

    def text(self) -> str:
        """Record form (the reason as a JSON string)."""
        return f"widen {json.dumps(self.reason, ensure_ascii=False)}" if self.reason else "widen"


@dataclass(frozen=True, slots=True)
class EndGame:
    """Referee: end the game now (R2: the referees may stop a game that drags on)."""

    reason: str = ""

    def text(self) -> str:
        """Record form (the reason as a JSON string)."""
        return f"stop {json.dumps(self.reason, ensure_ascii=False)}" if self.reason else "stop"


@dataclass(frozen=True, slots=True)
class Timeout:
    """Referee/clock: the turn time ran out (R11); the turn passes, unmade actions are lost."""

    closing: Dice | None = None

    def text(self) -> str:
        """Record form."""
        return "timeout" + (f" {_dice_text(self.closing)}" if self.closing else "")


@dataclass(frozen=True, slots=True)
class Abandon:
    """Referee: seat ``seat`` (0-based) leaves the game (R13); its armies stay and defend."""

    seat: int

    def text(self) -> str:
        """Record form (seats are 1-based in records)."""
        return f"abandon {self.seat + 1}"


@dataclass(frozen=True, slots=True)
class Late:
    """Referee: seat ``seat`` (0-based) arrived late (R3) after the game started (an online
    table the referee started before him). R3 penalises a late seat's first
    ``late_penalty_turns`` turns of play (3): those he has not begun yet are penalised, the
    one under way if it is his (what it has not placed is forfeited under R3, and it may no
    longer trade, attack or move); turns already past count among them (he lost them
    absent), or with the ruleset's ``late_penalty_from = "arrival"`` the turns count from
    his arrival. :func:`risiko.rules.do_late`."""

    seat: int

    def text(self) -> str:
        """Record form (seats are 1-based in records)."""
        return f"late {self.seat + 1}"


SeatAction: TypeAlias = Place | Trade | Attack | Move | Fortify | EndTurn
RefereeAction: TypeAlias = CallLastRounds | WidenClosing | EndGame | Timeout | Abandon | Late
Action: TypeAlias = SeatAction | RefereeAction
REFEREE_ACTIONS = (CallLastRounds, WidenClosing, EndGame, Timeout, Abandon, Late)


@dataclass(frozen=True, slots=True)
class Amount:
    """A legal action whose number of armies the seat chooses: any ``armies`` from ``min``
    to ``max`` (both included). ``action`` is the action with ``max`` armies."""

    action: Place | Move | Fortify
    min: int
    max: int

    def of(self, armies: int) -> Place | Move | Fortify:
        """The action with ``armies`` armies (not checked against the range)."""
        return replace(self.action, armies=armies)

    def __contains__(self, action: object) -> bool:
        if type(action) is not type(self.action) or not isinstance(
            action, Place | Move | Fortify
        ):
            return False
        return self.min <= action.armies <= self.max and replace(
            action, armies=self.max
        ) == self.action

    def actions(self) -> Iterator[Place | Move | Fortify]:
        """Every exact action of the range, fewest armies first."""
        for n in range(self.min, self.max + 1):
            yield self.of(n)


Legal: TypeAlias = Action | Amount


class LegalActions(Sequence[Legal]):
    """The legal actions of the seat to act: a sequence of entries (exact actions, and
    :class:`Amount` ranges), counted as entries (``len``, as perft counts them). ``action in
    legal`` is True when ``push`` would accept ``action`` (dice and closing dice left to
    chance, or given within 1..6; an attack's dice, when given, as many as R8 rolls:
    ``armies`` is the board's armies per territory the entries were listed on, read while
    the game has not changed).

    >>> legal = LegalActions([Attack(0, 1)], armies=[3, 5])  # 2 dice against 3 (R8)
    >>> Attack(0, 1) in legal, Attack(0, 1, (6, 5), (4, 4, 1)) in legal
    (True, True)
    >>> Attack(0, 1, (6, 5, 1), (4, 4, 1)) in legal, Attack(0, 1, (6,), None) in legal
    (False, False)
    """

    __slots__ = ("_armies", "_entries")

    def __init__(self, entries: Sequence[Legal], armies: Sequence[int] | None = None) -> None:
        self._entries = list(entries)
        self._armies = armies

    @overload
    def __getitem__(self, i: int) -> Legal: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Legal]: ...

    def __getitem__(self, i: int | slice) -> Legal | Sequence[Legal]:
        return self._entries[i]

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"LegalActions({self._entries!r})"

    def __contains__(self, action: object) -> bool:
        bare = _bare(action, self._armies)
        for entry in self._entries:
            if isinstance(entry, Amount):
                if bare in entry:
                    return True
            elif entry == bare:
                return True
        return False

    def actions(self) -> Iterator[Action]:
        """Every exact action (ranges expanded)."""
        for entry in self._entries:
            if isinstance(entry, Amount):
                yield from entry.actions()
            else:
                yield entry


def _dice_ok(d: Dice | None, count: int | None) -> bool:
    """Dice left to chance (None), or ``count`` (None: any number) faces 1..6."""
    return d is None or (
        (count is None or len(d) == count)
        and all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in d)
    )


def _bare(action: object, armies: Sequence[int] | None = None) -> object:
    """The action without its chance (dice, closing dice) and trade figures, as listed; None
    when its dice are not what ``push`` accepts (faces 1..6; with ``armies``, as many as R8
    rolls: :func:`~risiko.attack.attacker_dice`, :func:`~risiko.attack.defender_dice`)."""
    if isinstance(action, Attack):
        na = nd = None
        if armies is not None and (action.attacker_dice or action.defender_dice):
            try:
                na = attacker_dice(armies[action.source])
                nd = defender_dice(armies[action.target])
            except (IndexError, TypeError):
                return None  # no such territory: not listed
        if not (_dice_ok(action.attacker_dice, na) and _dice_ok(action.defender_dice, nd)):
            return None
        return Attack(action.source, action.target)
    if isinstance(action, EndTurn | Fortify) and action.closing is not None:
        return replace(action, closing=None)
    if isinstance(action, Trade):
        a, b, c = sorted(action.cards)
        return Trade((a, b, c))
    return action


# ---------------------------------------------------------------------------- reading
# the codes stay those of the record's lines, where these words are read
BAD_DICE = define("record.bad_dice", "", "bad dice {token!r}")
BAD_QUOTED = define("record.bad_quoted", "", "bad quoted reason {text!r}")
NEEDS_ARGS = define("record.needs_args", "", "'{verb}' needs {count} arguments")
NOT_NUMBER = define("record.not_number", "", "not a number: {token!r}")
TRADE_REST = define("record.trade_rest", "R9",
                    "a trade goes on with '= value' and '+armies Territory'")
TRADE_BONUS = define("record.trade_bonus", "R9", "a trade bonus is '+armies Territory'")
TRADE_BONUS_NOT = define("record.trade_bonus_not", "R9",
                         "a trade bonus is '+armies Territory', not {token!r}")
UNKNOWN_ACTION = define("record.unknown_action", "", "unknown action {verb!r}")


def _refuse(error: ValueError) -> ValueError:
    """A name that is no territory or card: its own fault (an InvalidInputError)."""
    return InvalidInputError(error.fault) if isinstance(error, RisikoError) else error


def _parse_dice(token: str) -> Dice | None:
    if token == "-":
        return None
    try:
        return tuple(int(x) for x in token.split("-"))
    except ValueError:
        raise InvalidInputError(BAD_DICE(token=token)) from None


def _reason(args: list[str]) -> str:
    """A referee's reason: a JSON string (as written), or bare words (hand-made records)."""
    text = " ".join(args)
    if text.startswith('"'):
        from . import jsonread  # json only when a quoted reason is read (a light import)

        try:
            value = jsonread.loads(text)
        except ValueError:
            raise InvalidInputError(BAD_QUOTED(text=text)) from None
        if not isinstance(value, str):
            raise InvalidInputError(BAD_QUOTED(text=text))
        return value
    return text


def parse_action(text: str) -> Action:
    """The action of its record form, :meth:`text` of every action read back (``"attack
    Cina Siam 6-5-1 4-4"``; territories and cards by any name ``risiko board`` knows;
    ``-`` for dice left to chance).

    Raises InvalidInputError (a ValueError) with the fault: ``record.unknown_action``,
    ``record.needs_args``, ``record.not_number``, ``record.bad_dice``, ``record.trade_*``
    (R9), ``record.bad_quoted``, or the territory's or card's own.

    >>> parse_action("attack Cina Siam 6-5-1 4-4")
    Attack(source=33, target=37, attacker_dice=(6, 5, 1), defender_dice=(4, 4))
    >>> action = Trade((0, 3, 42), 8, ((0, 2),))
    >>> action.text(), parse_action(action.text()) == action
    ('trade Alaska Alberta jolly = 8 +2 Alaska', True)
    """
    words = text.split() or [""]
    verb, args = words[0], words[1:]

    def need(n: int) -> None:
        if len(args) < n:
            raise InvalidInputError(NEEDS_ARGS(verb=verb, count=n))

    def terr(tok: str) -> int:
        try:
            return parse_territory(tok)
        except ValueError as e:
            raise _refuse(e) from None

    def num(tok: str) -> int:
        try:
            return int(tok)
        except ValueError:
            raise InvalidInputError(NOT_NUMBER(token=tok)) from None

    if verb == "place":
        need(2)
        return Place(terr(args[0]), num(args[1]))
    if verb == "trade":
        need(3)
        try:
            cards = tuple(parse_card(a) for a in args[:3])
        except ValueError as e:
            raise _refuse(e) from None
        rest = args[3:]
        if not rest:
            return Trade((cards[0], cards[1], cards[2]))
        if rest[0] != "=" or len(rest) < 2:
            raise InvalidInputError(TRADE_REST())
        value = num(rest[1])
        bonus: list[tuple[int, int]] = []
        extra = rest[2:]
        if len(extra) % 2:
            raise InvalidInputError(TRADE_BONUS())
        for i in range(0, len(extra), 2):
            if not extra[i].startswith("+"):
                raise InvalidInputError(TRADE_BONUS_NOT(token=extra[i]))
            bonus.append((terr(extra[i + 1]), num(extra[i][1:])))
        return Trade((cards[0], cards[1], cards[2]), value, tuple(bonus))
    if verb == "attack":
        need(4)
        return Attack(terr(args[0]), terr(args[1]), _parse_dice(args[2]),
                      _parse_dice(args[3]))
    if verb == "move":
        need(1)
        return Move(num(args[0]))
    if verb == "fortify":
        need(3)
        closing = _parse_dice(args[3]) if len(args) > 3 else None
        return Fortify(terr(args[0]), terr(args[1]), num(args[2]), closing)
    if verb == "end":
        return EndTurn(_parse_dice(args[0]) if args else None)
    if verb == "timeout":
        return Timeout(_parse_dice(args[0]) if args else None)
    if verb == "call":
        return CallLastRounds()
    if verb == "widen":
        return WidenClosing(_reason(args))
    if verb == "stop":
        return EndGame(_reason(args))
    if verb == "abandon":
        need(1)
        return Abandon(num(args[0]) - 1)
    if verb == "late":
        need(1)
        return Late(num(args[0]) - 1)
    raise InvalidInputError(UNKNOWN_ACTION(verb=verb))


def action_dict(entry: Legal, lang: str = "it") -> dict[str, Any]:
    """JSON form of an action or a legal entry: ``kind`` (the record verb) and its fields,
    territories by name (``risiko board``), ``min``/``max`` for an amount to choose.

    >>> action_dict(Amount(Place(0, 4), 1, 4))
    {'kind': 'place', 'territory': 'Alaska', 'min': 1, 'max': 4}
    >>> action_dict(Attack(11, 20))
    {'kind': 'attack', 'from': 'Brasile', 'to': 'Africa del Nord'}
    """
    span: dict[str, int] = {}
    action: Action
    if isinstance(entry, Amount):
        action = entry.action
        span = {"min": entry.min, "max": entry.max}
    else:
        action = entry

    def name(t: int) -> str:
        return territory_name(t, lang)

    out: dict[str, Any]
    if isinstance(action, Place):
        out = {"kind": "place", "territory": name(action.territory)}
        out.update(span or {"armies": action.armies})
    elif isinstance(action, Trade):
        out = {"kind": "trade", "cards": [
            "jolly" if c >= 42 else name(c) for c in action.cards
        ]}
        if action.value is not None:
            out["value"] = action.value
        if action.bonus is not None:
            out["bonus"] = {name(t): n for t, n in action.bonus}
    elif isinstance(action, Attack):
        out = {"kind": "attack", "from": name(action.source), "to": name(action.target)}
        if action.attacker_dice is not None:
            out["attacker_dice"] = list(action.attacker_dice)
        if action.defender_dice is not None:
            out["defender_dice"] = list(action.defender_dice)
    elif isinstance(action, Move):
        out = {"kind": "move"}
        out.update(span or {"armies": action.armies})
    elif isinstance(action, Fortify):
        out = {"kind": "fortify", "from": name(action.source), "to": name(action.target)}
        out.update(span or {"armies": action.armies})
    else:
        out = {"kind": action.text().split()[0]}
        if isinstance(action, EndTurn | Timeout) and action.closing is not None:
            out["closing"] = list(action.closing)
        if isinstance(action, Abandon):
            out["seat"] = action.seat + 1
        if isinstance(action, WidenClosing | EndGame) and action.reason:
            out["reason"] = action.reason
    return out
