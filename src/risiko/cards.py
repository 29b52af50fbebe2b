"""The deck (44 cards) and card sets ("tris", rule R9).

Cards are ints: 0..41 the territory cards (card ``t`` shows territory ``t``), 42 and 43 the
two jolly. A valid set is three equal symbols, one of each symbol, or a jolly with two equal
symbols (a jolly with two different symbols is not a set).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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


#: each card's symbol as an index: 0 fante, 1 cannone, 2 cavaliere (SYMBOLS), 3 jolly
_SYMBOL_OF: tuple[int, ...] = (*(SYMBOLS.index(s) for s in TERRITORY_SYMBOL), 3, 3)
_JOLLY = 3


def _kind(x: int, y: int, z: int) -> str | None:
    """R9, the one place that says what a set is, over three symbol indexes (3 = jolly):
    three equal symbols, one of each symbol (``mixed``), or a jolly with two equal symbols
    (``jolly``); anything else (two jolly, a jolly with two different symbols) is no set."""
    jollies = (x == _JOLLY) + (y == _JOLLY) + (z == _JOLLY)
    if jollies == 0:
        if x == y == z:
            return SYMBOLS[x]
        return "mixed" if x != y and y != z and x != z else None
    if jollies == 1:
        a, b = (v for v in (x, y, z) if v != _JOLLY)
        return "jolly" if a == b else None
    return None


#: the kind of every three symbols, ``_KIND_OF[x * 16 + y * 4 + z]`` (from :func:`_kind`)
_KIND_OF: tuple[str | None, ...] = tuple(_kind(i >> 4, i >> 2 & 3, i & 3) for i in range(64))


def set_kind(cards: Sequence[Card]) -> str | None:
    """The kind of a 3-card set (a symbol, ``mixed`` or ``jolly``), or None if not valid
    (R9; not three different cards of the deck: None).

    >>> set_kind([0, 3, 6]), set_kind([0, 9, 2]), set_kind([0, 3, 42]), set_kind([0, 1, 42])
    ('fante', 'mixed', 'jolly', None)
    """
    if len(cards) != 3 or len(set(cards)) != 3:
        return None
    a, b, c = cards
    if not (0 <= a < NUM_CARDS and 0 <= b < NUM_CARDS and 0 <= c < NUM_CARDS):
        return None
    sym = _SYMBOL_OF
    return _KIND_OF[sym[a] * 16 + sym[b] * 4 + sym[c]]


def sets_in(hand: Sequence[Card]) -> list[tuple[Card, Card, Card]]:
    """Every set (R9) among the cards of ``hand`` (distinct cards), each once, in hand order:
    the trios ``(hand[i], hand[j], hand[k])``, ``i < j < k``, that :func:`set_kind` accepts.

    >>> sets_in([0, 3, 1, 6, 42])   # 3 fanti (Alaska, Alberta, Stati Uniti Occ.), 1 cannone, jolly
    [(0, 3, 6), (0, 3, 42), (0, 6, 42), (3, 6, 42)]
    """
    return list(_iter_sets(hand))


def _iter_sets(hand: Sequence[Card]) -> Iterator[tuple[Card, Card, Card]]:
    sym = [_SYMBOL_OF[c] for c in hand]
    kind_of = _KIND_OF
    n = len(hand)
    for i in range(n - 2):
        x = sym[i] * 16
        for j in range(i + 1, n - 1):
            xy = x + sym[j] * 4
            for k in range(j + 1, n):
                if kind_of[xy + sym[k]] is not None:
                    yield hand[i], hand[j], hand[k]


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

    The bonus is ``owned_card_bonus`` (2, R9) per card whose territory the seat owns
    (:func:`owned_cards`).
    """
    base = set_base_value(ruleset, cards, hand_size)
    return base, ruleset.owned_card_bonus * len(owned_cards(ruleset, cards, owned))


def owned_cards(ruleset: Ruleset, cards: Sequence[Card], owned: int) -> tuple[Card, ...]:
    """The cards of a set showing a territory of the seat (``owned``, its territory mask),
    each worth ``owned_card_bonus`` (2, R9) armies; none when the ruleset has no bonus."""
    if not ruleset.owned_card_bonus:
        return ()
    return tuple(c for c in cards if not is_jolly(c) and owned >> c & 1)


def _holds_table() -> tuple[bool, ...]:
    """Whether a hand holds a set, by its symbol counts (fante, cannone, cavaliere capped
    at 3, jolly at 2), ``[((f * 4 + c) * 4 + k) * 3 + j]``: the counts of every trio
    :func:`_kind` accepts, and every count at least as large, hold one."""
    holds = [False] * 192
    for x in range(4):
        for y in range(x, 4):
            for z in range(y, 4):
                if _kind(x, y, z) is None:
                    continue
                need = [0, 0, 0, 0]
                for v in (x, y, z):
                    need[v] += 1
                for f in range(need[0], 4):
                    for c in range(need[1], 4):
                        for k in range(need[2], 4):
                            for j in range(need[3], 3):
                                holds[((f * 4 + c) * 4 + k) * 3 + j] = True
    return tuple(holds)


_HOLDS: tuple[bool, ...] = _holds_table()


def has_set(hand: Sequence[Card]) -> bool:
    """True when ``hand`` (distinct cards) holds a valid set (R9, :func:`set_kind`), by the
    count of each symbol (a quick look, no trio tried).

    >>> has_set([0, 3, 6]), has_set([0, 1, 42]), has_set([0, 3, 42])  # fante x3; -; jolly
    (True, False, True)
    """
    counts = [0, 0, 0, 0]
    sym = _SYMBOL_OF
    for card in hand:
        counts[sym[card]] += 1
    f, c, k, j = counts
    return _HOLDS[(((f if f < 3 else 3) * 4 + (c if c < 3 else 3)) * 4 + (k if k < 3 else 3))
                  * 3 + (j if j < 2 else 2)]


def best_set(hand: Sequence[Card]) -> tuple[Card, Card, Card] | None:
    """Some valid set in ``hand`` (the first of :func:`sets_in`, trying the cards in hand
    order), or None."""
    if not has_set(hand):
        return None
    return next(_iter_sets(hand), None)
