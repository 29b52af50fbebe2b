"""The actions of a game, as small frozen values (seat actions and referee actions).

Seat actions (by the seat to act): :class:`Place`, :class:`Trade`, :class:`Attack`,
:class:`Move`, :class:`Fortify`, :class:`EndTurn`. Referee actions (at any time):
:class:`CallLastRounds` (R2), :class:`WidenClosing` (R2), :class:`EndGame` (R2),
:class:`Timeout` (R11), :class:`Abandon` (R13).

Chance travels with the action: ``Attack`` carries its dice and the turn-ending actions carry
the closing dice (R2). Leave them ``None`` and the game draws them from its chance source; the
history always stores the action with the values actually used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypeAlias

from .board import Territory, territory_code
from .cards import Card, card_name

Dice: TypeAlias = tuple[int, ...]


def _dice_text(d: Dice | None) -> str:
    return "-".join(str(x) for x in d) if d else "-"


@dataclass(frozen=True, slots=True)
class Place:
    """Place ``armies`` armies on ``territory`` (initial placement or reinforcements, R4)."""

    territory: Territory
    armies: int

    def text(self) -> str:
        """Record form."""
        return f"place {territory_code(self.territory)} {self.armies}"


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade a card set (R9) during reinforcement."""

    cards: tuple[Card, Card, Card]

    def text(self) -> str:
        """Record form."""
        return "trade " + " ".join(card_name(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Attack:
    """One roll from ``source`` against ``target`` (R7, R8 checked before it).

    ``attacker_dice`` / ``defender_dice``: the dice shown (any order), or None to roll.
    """

    source: Territory
    target: Territory
    attacker_dice: Dice | None = None
    defender_dice: Dice | None = None

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

    def text(self) -> str:
        """Record form."""
        s = f"fortify {territory_code(self.source)} {territory_code(self.target)} {self.armies}"
        return s + (f" {_dice_text(self.closing)}" if self.closing else "")


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn (no fortify move). ``closing``: the closing dice (R2) or None."""

    closing: Dice | None = None

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


SeatAction: TypeAlias = Place | Trade | Attack | Move | Fortify | EndTurn
RefereeAction: TypeAlias = CallLastRounds | WidenClosing | EndGame | Timeout | Abandon
Action: TypeAlias = SeatAction | RefereeAction
REFEREE_ACTIONS = (CallLastRounds, WidenClosing, EndGame, Timeout, Abandon)
