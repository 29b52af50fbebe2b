"""The deck (44 cards) and card sets ("tris", rule R9).

Cards are ints: 0..41 the territory cards (card ``t`` shows territory ``t``), 42 and 43 the
two jolly. A valid set is three equal symbols, one of each symbol, or a jolly with two equal
symbols (a jolly with two different symbols is not a set).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from .board import NUM_TERRITORIES, TERRITORY_SYMBOL, _fold, parse_territory, territory_code
from .faults import InvalidInputError, define
from .ruleset import Ruleset

Card: TypeAlias = int

JOLLY_CARDS: tuple[Card, Card] = (NUM_TERRITORIES, NUM_TERRITORIES + 1)
NUM_CARDS = NUM_TERRITORIES + 2
SYMBOLS = ("fante", "cannone", "cavaliere")


INVALID_SET = define(
    "cards.invalid_set", "R9",
    "not a valid set: {cards} (three equal symbols, one of each, or a jolly with two equal)",
)
SMALL_HAND = define(
    "cards.small_hand", "R9", "a hand of {hand} cards cannot hold a set (3 at least)"
)
NO_CARD = define("cards.no_card", "", "no card number {number}")


class InvalidSetError(InvalidInputError):
    """Three cards that do not form a valid set (``cards.invalid_set``, R9), or a hand too
    small to hold them (``cards.small_hand``)."""


def is_jolly(card: Card) -> bool:
    """True for the two wild cards."""
    return card >= NUM_TERRITORIES


def card_symbol(card: Card) -> str:
    """``fante``, ``cannone``, ``cavaliere`` or ``jolly``."""
    return "jolly" if is_jolly(card) else TERRITORY_SYMBOL[card]


def card_name(card: Card) -> str:
    """Territory code (underscores) or ``jolly`` / ``jolly2``: one token for records."""
    if card == JOLLY_CARDS[0]:
        return "jolly"
    if card == JOLLY_CARDS[1]:
        return "jolly2"
    return territory_code(card)


def parse_card(name: str | int) -> Card:
    """A card from a territory name or ``jolly`` (``jolly2`` = the second jolly).

    Raises ValueError (UnknownTerritoryError) for an unknown name.
    """
    if isinstance(name, int):
        if 0 <= name < NUM_CARDS:
            return name
        raise InvalidInputError(NO_CARD(number=name))
    folded = _fold(name)
    if folded in ("jolly", "joker", "wild", "jolly 1", "jolly1"):
        return JOLLY_CARDS[0]
    if folded in ("jolly2", "jolly 2", "joker2"):
        return JOLLY_CARDS[1]
    return parse_territory(name)


def set_kind(cards: Sequence[Card]) -> str | None:
    """The kind of a 3-card set (a symbol, ``mixed`` or ``jolly``), or None if not valid."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return None
    symbols = [card_symbol(c) for c in cards]
    jollies = symbols.count("jolly")
    if jollies == 0:
        if symbols[0] == symbols[1] == symbols[2]:
            return symbols[0]
        if len(set(symbols)) == 3:
            return "mixed"
        return None
    if jollies == 1:
        rest = [s for s in symbols if s != "jolly"]
        return "jolly" if rest[0] == rest[1] else None
    return None  # two jolly and a card: not a set of the Italian deck


def is_valid_set(cards: Sequence[Card]) -> bool:
    """True when the three cards form a set (R9 keeps the standard sets)."""
    return set_kind(cards) is not None


def set_base_value(ruleset: Ruleset, cards: Sequence[Card], hand_size: int) -> int:
    """Armies of a set before the owned-territory bonus.

    Under R9 (``by_hand_size``) the value depends only on ``hand_size``, the cards in hand at
    the moment of the trade, these three included: 8 with 3, 10 with 4, 12 with 5 or more.
    Raises InvalidSetError if the cards are not a set or the hand is smaller than 3.
    """
    kind = set_kind(cards)
    if kind is None:
        raise InvalidSetError(
            INVALID_SET(cards=[f"{card_name(c)} ({card_symbol(c)})" for c in cards])
        )
    if hand_size < 3:
        raise InvalidSetError(SMALL_HAND(hand=hand_size))
    if ruleset.set_values == "by_hand_size":
        value = 0
        for threshold, v in ruleset.set_value_by_hand:
            if hand_size >= threshold:
                value = v
        return value
    return dict(ruleset.classic_set_values)[kind]


def set_value(
    ruleset: Ruleset, cards: Sequence[Card], hand_size: int, owned: int
) -> tuple[int, int]:
    """(base value, owned-territory bonus) of a set; ``owned`` is the seat's territory mask.

    The bonus is ``owned_card_bonus`` (2, R9) per card whose territory the seat owns.
    """
    base = set_base_value(ruleset, cards, hand_size)
    bonus = sum(
        ruleset.owned_card_bonus for c in cards if not is_jolly(c) and owned >> c & 1
    )
    return base, bonus


#: the symbol of each territory card as 0 (fante), 1 (cannone), 2 (cavaliere)
_SYMBOL_INDEX: tuple[int, ...] = tuple(SYMBOLS.index(s) for s in TERRITORY_SYMBOL)


def has_set(hand: Sequence[Card]) -> bool:
    """True when ``hand`` (distinct cards) holds a valid set: three cards of one symbol, one
    of each symbol, or a jolly with two of one symbol.

    >>> has_set([0, 3, 6]), has_set([0, 1, 42]), has_set([0, 3, 42])  # fante x3; -; jolly
    (True, False, True)
    """
    counts = [0, 0, 0]
    jollies = 0
    for c in hand:
        if c >= NUM_TERRITORIES:
            jollies += 1
        else:
            counts[_SYMBOL_INDEX[c]] += 1
    most = max(counts)
    return most >= 3 or min(counts) >= 1 or (jollies >= 1 and most >= 2)


def best_set(hand: Sequence[Card]) -> tuple[Card, Card, Card] | None:
    """Some valid set in ``hand`` (the first found, trying the cards in hand order), or
    None."""
    if not has_set(hand):
        return None
    syms = [-1 if c >= NUM_TERRITORIES else _SYMBOL_INDEX[c] for c in hand]
    n = len(hand)
    for i in range(n):
        x = syms[i]
        for j in range(i + 1, n):
            y = syms[j]
            for k in range(j + 1, n):
                z = syms[k]
                jollies = (x < 0) + (y < 0) + (z < 0)
                if jollies == 0:
                    ok = x == y == z or (x != y and y != z and x != z)
                elif jollies == 1:  # the two other cards of one symbol
                    ok = x in (y, z) or y == z
                else:
                    ok = False
                if ok:
                    return hand[i], hand[j], hand[k]
    return None  # pragma: no cover - has_set found one
