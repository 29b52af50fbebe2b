"""The referee's calculators: attack check (R7, R8) and card set value (R9).

Pure functions over the game library (:mod:`risiko.odds`, :mod:`risiko.cards`); the views
add the forms and the translated words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from risiko.attack import attack_fault, attacker_dice, defender_dice
from risiko.board import mask_of
from risiko.cards import (
    InvalidSetError,
    card_name,
    card_symbol,
    is_jolly,
    parse_card,
    set_kind,
    set_value,
)
from risiko.faults import Fault
from risiko.odds import AttackOdds, attack_odds, check_armies
from risiko.ruleset import Ruleset


@dataclass(frozen=True)
class AttackCheck:
    """The verdict on an attack: ``rule`` None (legal) or the failed check (``armies``: the
    attacking territory has fewer than 2 armies; ``R7``: dice parity; ``R8``: army
    superiority), the library's ``fault`` (:mod:`risiko.attack`) and its English ``reason``,
    the dice of both sides and the odds."""

    attacker: int
    defender: int
    support: int
    ruleset: Ruleset
    rule: str | None
    reason: str | None
    attacker_dice: int
    defender_dice: int
    odds: AttackOdds
    fault: Fault | None = None

    @property
    def legal(self) -> bool:
        """True when the first roll is allowed."""
        return self.rule is None

    @property
    def bordering(self) -> int:
        """Armies bordering the target that count for R8 (attacking territory + support)."""
        return self.attacker + self.support

    @property
    def stops(self) -> float:
        """Probability that the attack stops before the conquest (illegal roll or 1 army)."""
        return 1.0 - self.odds.p_conquer if self.legal else 1.0

    def outcomes(self, limit: int = 8) -> list[dict[str, Any]]:
        """The most likely final states: ``{"attacker_left", "defender_left", "p",
        "conquest"}``, most likely first."""
        rows = sorted(self.odds.distribution, key=lambda item: -item[1])[:limit]
        return [
            {"attacker_left": a, "defender_left": d, "p": p, "conquest": d == 0}
            for (a, d), p in rows
        ]

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the endpoint."""
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "support": self.support,
            "ruleset": self.ruleset.label,
            "legal": self.legal,
            "rule": self.rule,
            "reason": self.reason,
            "fault": None if self.fault is None else self.fault.to_dict(),
            "attacker_dice": self.attacker_dice,
            "defender_dice": self.defender_dice,
            "p_conquer": self.odds.p_conquer,
            "expected_attacker_losses": self.odds.expected_attacker_losses,
            "expected_defender_losses": self.odds.expected_defender_losses,
            "outcomes": self.outcomes(),
        }


def check_attack(a: int, d: int, ruleset: Ruleset, support: int = 0) -> AttackCheck:
    """The verdict and exact odds of ``a`` armies on the attacking territory against ``d``
    on the target, with ``support`` more of the attacker's armies bordering the target.
    ValueError (the library's faults) for a < 1, d < 1, support < 0 or more than
    :data:`risiko.odds.MAX_ARMIES`."""
    check_armies(attacker=a, defender=d, support=support)
    odds = attack_odds(a, d, ruleset, support)
    fault = attack_fault(ruleset, a, d, a + support)
    rule = None if fault is None else (fault.clause or "armies")
    reason = None if fault is None else fault.message("en")
    return AttackCheck(a, d, support, ruleset, rule, reason, attacker_dice(a), defender_dice(d),
                       odds, fault)


@dataclass(frozen=True)
class PositionAttacks:
    """The attacks of the seat to act in a position: ``report`` is
    :func:`risiko.position.legal_json` with ``explain`` (``to_act``, ``phase``, ``attacks``
    with their dice, ``forbidden_attacks`` with clause, dice and the R8 sum against the
    defender's armies: the JSON contract of ``risiko legal --json --explain``); ``reasons``:
    each forbidden attack's fault in the page's language, in the same order."""

    report: dict[str, Any]
    reasons: tuple[str, ...]

    @property
    def forbidden(self) -> list[dict[str, Any]]:
        """The forbidden attacks, each with its ``message`` (the page's language)."""
        return [
            {**f, "message": m}
            for f, m in zip(self.report["forbidden_attacks"], self.reasons, strict=True)
        ]


def position_attacks(position: Any, lang: str = "it") -> PositionAttacks:
    """The legal and the forbidden attacks of the seat to act in ``position`` (the JSON of
    :mod:`risiko.position`, as a dict). Raises InvalidInputError naming every fault of a bad
    position (codes ``position.*``)."""
    from risiko.game import Game
    from risiko.position import legal_json
    from risiko.rules import forbidden_attacks

    game = Game.from_position(position)
    report = legal_json(game, explain=True, lang=lang)
    reasons = tuple(f.message(lang) for _, _, f in forbidden_attacks(game.state))
    return PositionAttacks(report, reasons)


@dataclass(frozen=True)
class CardSet:
    """The value of three cards traded with ``hand`` cards in hand: ``kind`` (a symbol,
    ``mixed``, ``jolly``) or None when not a set; ``value`` (R9 by hand size, or the classic
    table), ``bonus`` (+2 per card showing an owned territory) and ``total``."""

    cards: tuple[int, int, int]
    hand: int
    kind: str | None
    value: int
    bonus: int
    owned_cards: tuple[int, ...]
    error: str | None = None

    @property
    def valid(self) -> bool:
        """True when the three cards are a set that can be traded with this hand."""
        return self.kind is not None and self.error is None

    @property
    def total(self) -> int:
        """Armies received: value + bonus (0 when not valid)."""
        return self.value + self.bonus if self.valid else 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the endpoint."""
        return {
            "cards": [card_name(c) for c in self.cards],
            "symbols": [card_symbol(c) for c in self.cards],
            "hand": self.hand,
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value if self.valid else 0,
            "bonus": self.bonus if self.valid else 0,
            "total": self.total,
            "owned": [card_name(c) for c in self.owned_cards],
            "error": self.error,
        }


def card_set_value(
    cards: Sequence[str | int], hand: int, owned: Sequence[str | int], ruleset: Ruleset
) -> CardSet:
    """The value of a set (R9): ``cards`` three territory names or ``jolly``; ``hand`` the
    cards in hand at the trade (these three included); ``owned`` the territories the seat
    holds (only those on the cards matter). ValueError for an unknown card or territory, or
    not exactly three cards."""
    if len(cards) != 3:
        raise ValueError("a set is three cards")
    parsed = [parse_card(c) for c in cards]
    # a second jolly is the deck's other jolly card
    seen_jolly = False
    for i, c in enumerate(parsed):
        if is_jolly(c):
            if seen_jolly:
                parsed[i] = 43
            seen_jolly = True
    trio = (parsed[0], parsed[1], parsed[2])
    owned_mask = mask_of(parse_card(t) for t in owned if not is_jolly(parse_card(t)))
    kind = set_kind(trio)
    owned_cards = tuple(c for c in trio if not is_jolly(c) and owned_mask >> c & 1)
    if len(set(trio)) < 3:
        return CardSet(trio, hand, None, 0, 0, owned_cards, "same_card")
    try:
        value, bonus = set_value(ruleset, trio, hand, owned_mask)
    except InvalidSetError:
        error = "hand" if kind is not None else None
        return CardSet(trio, hand, kind, 0, 0, owned_cards, error)
    return CardSet(trio, hand, kind, value, bonus, owned_cards)
