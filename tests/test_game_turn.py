"""A turn: reinforcements, the army limit (R4), card sets (R9), cards of an eliminated seat
(R14), the card drawn after a conquest and the strategic move.

Every expected number is worked out by hand in the comment next to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from helpers import (
    ATTACK,
    JOLLY,
    JOLLY2,
    MOVE,
    REINFORCE,
    T,
    arrange,
    begin_turn,
    finish_setup,
    give_cards,
    new_game,
    pass_turn,
    set_turn,
)
from risiko.actions import Attack, EndTurn, Fortify, Move, Place, Trade
from risiko.game import Game, IllegalActionError
from risiko.ruleset import RTU

# two territories of every continent: no continent is ever complete with a prefix of these
SPREAD = [
    "Alaska", "Venezuela", "Islanda", "Africa del Nord", "Urali", "Indonesia",
    "Territori del Nord Ovest", "Perù", "Gran Bretagna", "Egitto", "Siberia", "Nuova Guinea",
]
# three of each continent but Oceania: 15 territories, no continent complete
FIFTEEN = [
    "Alaska", "Alberta", "Ontario", "Venezuela", "Perù", "Brasile", "Islanda",
    "Gran Bretagna", "Scandinavia", "Egitto", "Congo", "Madagascar", "Urali", "Siberia",
    "Cina",
]
CONTINENTS = {
    "Nord America": range(0, 9),
    "Sud America": range(9, 13),
    "Europa": range(13, 20),
    "Africa": range(20, 26),
    "Asia": range(26, 38),
    "Oceania": range(38, 42),
}


def position(seat1: Mapping[Any, int], *, others: bool = True) -> Game:
    """5 seats after the initial placement; seat 1 (0-based) holds ``seat1`` (territory ->
    armies); seats 0, 2, 3 hold one far territory each (if free); seat 4 holds the rest."""
    game = new_game(5)
    finish_setup(game)
    spec: dict[str | int, tuple[int, int]] = {t: (1, a) for t, a in seat1.items()}
    if others:
        taken = {T(t) if isinstance(t, str) else t for t in seat1}
        free = [t for t in range(42) if t not in taken]
        for seat, t in zip((0, 2, 3), (free[0], free[-1], free[len(free) // 2]), strict=True):
            spec[t] = (seat, 1)
    arrange(game, spec, rest=4)
    return game


# ------------------------------------------------------------------------ reinforcements


@pytest.mark.parametrize(
    ("territories", "expected"),
    [
        (SPREAD[:1], 1),  # 1 // 3 = 0 -> the minimum, 1
        (SPREAD[:2], 1),  # 0 -> 1
        (SPREAD[:3], 1),  # 3 // 3 = 1
        (SPREAD[:5], 1),  # 5 // 3 = 1
        (SPREAD[:6], 2),  # 6 // 3 = 2
        (SPREAD[:8], 2),  # 8 // 3 = 2
        (SPREAD[:9], 3),  # 9 // 3 = 3
        (SPREAD[:11], 3),  # 11 // 3 = 3
        (SPREAD[:12], 4),  # 12 // 3 = 4
        (FIFTEEN, 5),  # 15 // 3 = 5
    ],
)
def test_reinforcements_floor_of_territories_over_three(
    territories: list[str], expected: int
) -> None:
    game = position(dict.fromkeys(territories, 1))
    assert game.reinforcements(1) == expected
    begin_turn(game, 1)
    assert game.phase == REINFORCE
    assert game.pending == expected


@pytest.mark.parametrize(
    ("continents", "extra", "expected"),
    [
        (["Oceania"], [], 1 + 2),  # 4 territories: 1, + 2
        (["Sud America"], [], 1 + 2),  # 4: 1, + 2
        (["Africa"], [], 2 + 3),  # 6: 2, + 3
        (["Europa"], [], 2 + 5),  # 7: 2, + 5
        (["Nord America"], [], 3 + 5),  # 9: 3, + 5
        (["Asia"], [], 4 + 7),  # 12: 4, + 7
        (["Nord America", "Sud America"], [], 4 + 5 + 2),  # 13: 4, + 5 + 2
        (["Oceania"], ["Alaska", "Islanda"], 2 + 2),  # 6: 2, + 2
        (["Europa", "Africa", "Oceania"], [], 5 + 5 + 3 + 2),  # 17: 5, + 10
        (["Asia", "Oceania"], ["Alaska"], 5 + 7 + 2),  # 17: 5, + 9
    ],
)
def test_continent_bonuses(continents: list[str], extra: list[str], expected: int) -> None:
    owned: dict[str | int, int] = {t: 1 for c in continents for t in CONTINENTS[c]}
    owned.update(dict.fromkeys(extra, 1))
    game = position(owned)
    assert game.reinforcements(1) == expected
    begin_turn(game, 1)
    assert game.pending == expected


def test_continent_minus_one_territory_gives_no_bonus() -> None:
    owned: dict[str | int, int] = {t: 1 for t in CONTINENTS["Asia"]}
    del owned[T("Giappone")]  # 11 territories: 3, no Asia bonus
    game = position(owned)
    assert game.reinforcements(1) == 3


def test_reinforcements_placed_one_or_many_at_a_time() -> None:
    game = position({"Alaska": 2, "Islanda": 2, "Urali": 2, "Perù": 2, "Siberia": 2, "Egitto": 2})
    begin_turn(game, 1)
    assert game.pending == 2
    game.push(Place(T("Alaska"), 1))
    assert (game.phase, game.pending) == (REINFORCE, 1)
    game.push(Place(T("Urali"), 1))
    assert game.phase == ATTACK and game.pending == 0
    assert game.armies[T("Alaska")] == 3 and game.armies[T("Urali")] == 3
    assert game.totals[1] == 14


def test_placing_more_than_pending_refused() -> None:
    game = position(dict.fromkeys(SPREAD[:9], 1))
    begin_turn(game, 1)
    assert game.pending == 3
    for bad in (Place(T("Alaska"), 4), Place(T("Alaska"), 0), Place(T("Argentina"), 1)):
        with pytest.raises(IllegalActionError):
            game.push(bad)
    assert game.pending == 3 and game.totals[1] == 9


@pytest.mark.parametrize("action", [EndTurn(), Attack(T("Alaska"), T("Kamchatka")), Move(1)])
def test_reinforcements_come_first(action: object) -> None:
    game = position({"Alaska": 5, "Islanda": 1, "Urali": 1})
    begin_turn(game, 1)
    with pytest.raises(IllegalActionError):
        game.push(action)  # type: ignore[arg-type]
    assert game.phase == REINFORCE and game.seat == 1


# ------------------------------------------------------------------------ R4: army limit


def test_r4_seat_at_118_receiving_5_places_2_and_forfeits_3() -> None:
    # 15 territories (5 reinforcements), 14 x 8 + 6 = 118 armies
    armies = {t: 8 for t in FIFTEEN}
    armies["Cina"] = 6
    game = position(armies)
    assert game.totals[1] == 118
    begin_turn(game, 1)
    assert game.pending == 2
    assert game.forfeited[1] == 3
    assert game.forfeits(1) == {"R3": 0, "R4": 3, "R11": 0}
    with pytest.raises(IllegalActionError) as refused:
        game.push(Place(T("Cina"), 3))
    # the refusal names R4 and its numbers: 118 on the board, 2 more fit under 120
    fault = refused.value.fault
    assert (fault.code, fault.clause) == ("game.r4_room", "R4")
    assert (fault.params["armies"], fault.params["room"], fault.params["limit"]) == (118, 2, 120)
    game.push(Place(T("Cina"), 2))
    assert game.totals[1] == 120
    assert game.phase == ATTACK
    game.check_invariants()


def test_r4_seat_at_120_gets_nothing() -> None:
    armies = {t: 8 for t in FIFTEEN}  # 15 x 8 = 120
    game = position(armies)
    begin_turn(game, 1)
    assert game.pending == 0
    assert game.phase == ATTACK
    assert game.forfeited[1] == 5
    assert game.forfeits(1) == {"R3": 0, "R4": 5, "R11": 0}
    assert game.totals[1] == 120
    # a placement at the limit is refused under R4, not as "the wrong phase"
    with pytest.raises(IllegalActionError) as refused:
        game.push(Place(T("Cina"), 1))
    assert (refused.value.fault.code, refused.value.fault.clause) == ("game.r4_army_limit", "R4")


def test_r4_trade_beyond_the_limit_is_forfeited() -> None:
    # 110 armies on 15 territories, 5 reinforcements: room 10
    armies = {t: 8 for t in FIFTEEN}
    armies["Cina"] = armies["Siberia"] = 3
    game = position(armies)
    assert game.totals[1] == 110
    give_cards(game, 1, [T("Cita"), T("Giappone"), T("India")])  # 3 fanti, not owned
    begin_turn(game, 1)
    assert game.pending == 5
    game.push(Trade((T("Cita"), T("Giappone"), T("India"))))
    # the set is worth 8 (3 cards in hand), only 5 fit under 120
    assert game.pending == 10
    assert game.forfeited[1] == 3
    game.push(Place(T("Cina"), 10))
    assert game.totals[1] == 120
    game.check_invariants()


def test_r4_owned_card_bonus_counts_against_the_limit() -> None:
    # 113 armies, 5 reinforcements: room 7. A set of 3 cannoni worth 8, one of them
    # (Siberia) owned: +2 on Siberia. 5 + 8 + 2 = 15 offered, 7 fit: 8 forfeited.
    armies = {t: 8 for t in FIFTEEN}
    armies["Cina"] = 3
    armies["Siberia"] = 6
    game = position(armies)
    assert game.totals[1] == 113
    give_cards(game, 1, [T("Siberia"), T("Mongolia"), T("Siam")])
    begin_turn(game, 1)
    game.push(Trade((T("Siberia"), T("Mongolia"), T("Siam"))))
    assert game.forfeited[1] == 8
    place_left = game.pending
    game.push(Place(T("Cina"), place_left))
    assert game.totals[1] == 120
    game.check_invariants()


# ------------------------------------------------------------------------ R9: card sets

FANTI = ["Alaska", "Alberta", "Islanda", "Egitto", "Cita", "Giappone", "India"]
CANNONI = ["Territori del Nord Ovest", "Quebec", "Scandinavia", "Siberia", "Mongolia"]
CAVALIERI = ["Groenlandia", "Ontario", "Gran Bretagna", "Congo", "Urali"]
# seat 1 holds only these (none of the cards above): 3 territories, 1 reinforcement
SEAT1 = {"Venezuela": 2, "Perù": 2, "Brasile": 2}


def card_position(hand: list[int]) -> Game:
    game = position(dict(SEAT1))
    give_cards(game, 1, hand)
    begin_turn(game, 1)
    assert game.pending == 1
    return game


@pytest.mark.parametrize(
    ("in_hand", "value"),
    [(3, 8), (4, 10), (5, 12), (6, 12), (9, 12)],
)
def test_r9_set_value_by_cards_in_hand(in_hand: int, value: int) -> None:
    hand = [T(x) for x in FANTI[:3]] + [T(x) for x in (CANNONI + CAVALIERI)[: in_hand - 3]]
    game = card_position(hand)
    game.push(Trade((T("Alaska"), T("Alberta"), T("Islanda"))))
    assert game.pending == 1 + value
    assert len(game.hands[1]) == in_hand - 3
    # traded cards go back to the deck
    assert {T("Alaska"), T("Alberta"), T("Islanda")} <= set(game.deck)
    game.check_invariants()


def test_r9_seven_cards_two_sets_12_then_10() -> None:
    hand = [T(x) for x in FANTI[:3] + CANNONI[:3]] + [T("Groenlandia")]
    game = card_position(hand)
    game.push(Trade((T("Alaska"), T("Alberta"), T("Islanda"))))  # 7 in hand: 12
    assert game.pending == 1 + 12
    game.push(Trade((T("Territori del Nord Ovest"), T("Quebec"), T("Scandinavia"))))  # 4: 10
    assert game.pending == 1 + 12 + 10
    assert game.hands[1] == [T("Groenlandia")]


def test_r9_value_counts_the_hand_before_the_trade_not_after() -> None:
    # 5 cards: 12 (not 8 for the 2 left, not 10)
    hand = [T(x) for x in FANTI[:5]]
    game = card_position(hand)
    game.push(Trade((T("Egitto"), T("Cita"), T("Alaska"))))
    assert game.pending == 13


def test_r9_owned_card_bonus_goes_on_the_territory() -> None:
    # 3 cannoni, Venezuela and Brasile owned: 8 + 2 on Venezuela + 2 on Brasile
    hand = [T("Venezuela"), T("Brasile"), T("Quebec")]
    game = card_position(hand)
    game.push(Trade((T("Venezuela"), T("Brasile"), T("Quebec"))))
    assert game.pending == 1 + 8
    assert game.armies[T("Venezuela")] == 4
    assert game.armies[T("Brasile")] == 4
    assert game.armies[T("Perù")] == 2
    assert game.totals[1] == 6 + 4
    game.check_invariants()


def test_r9_owned_bonus_with_a_bigger_hand_and_a_jolly() -> None:
    # jolly + 2 cavalieri (Perù owned), 5 in hand: 12 + 2 on Perù; the jolly gives nothing
    hand = [JOLLY, T("Perù"), T("Congo"), T("Alaska"), T("Quebec")]
    game = card_position(hand)
    game.push(Trade((JOLLY, T("Perù"), T("Congo"))))
    assert game.pending == 1 + 12
    assert game.armies[T("Perù")] == 4


@pytest.mark.parametrize(
    "cards",
    [
        ("Alaska", "Alberta", "Islanda"),  # 3 fanti
        ("Territori del Nord Ovest", "Quebec", "Scandinavia"),  # 3 cannoni
        ("Groenlandia", "Ontario", "Gran Bretagna"),  # 3 cavalieri
        ("Alaska", "Quebec", "Ontario"),  # one of each
        ("jolly", "Alaska", "Alberta"),  # jolly + 2 fanti
        ("jolly2", "Quebec", "Scandinavia"),  # jolly + 2 cannoni
        ("jolly", "Groenlandia", "Congo"),  # jolly + 2 cavalieri
    ],
)
def test_r9_valid_sets(cards: tuple[str, str, str]) -> None:
    ids = tuple(JOLLY if c == "jolly" else JOLLY2 if c == "jolly2" else T(c) for c in cards)
    game = card_position(list(ids))
    game.push(Trade(ids))  # type: ignore[arg-type]
    assert game.pending == 1 + 8


@pytest.mark.parametrize(
    ("hand", "cards"),
    [
        (["jolly", "Alaska", "Quebec"], ("jolly", "Alaska", "Quebec")),  # jolly + 2 different
        (["jolly", "Ontario", "Quebec"], ("jolly", "Ontario", "Quebec")),  # jolly + 2 different
        (["Alaska", "Alberta", "Quebec"], ("Alaska", "Alberta", "Quebec")),  # 2 + 1
        (["jolly", "jolly2", "Alaska"], ("jolly", "jolly2", "Alaska")),  # 2 jolly
        (["Alaska", "Alberta"], ("Alaska", "Alberta", "Islanda")),  # Islanda not in hand
        (["Alaska", "Alberta", "Islanda"], ("Alaska", "Alaska", "Alaska")),  # one card thrice
    ],
)
def test_r9_invalid_sets_refused(hand: list[str], cards: tuple[str, str, str]) -> None:
    def card(c: str) -> int:
        return JOLLY if c == "jolly" else JOLLY2 if c == "jolly2" else T(c)

    game = card_position([card(c) for c in hand])
    before = (list(game.hands[1]), game.pending, list(game.armies))
    with pytest.raises(IllegalActionError):
        game.push(Trade(tuple(card(c) for c in cards)))  # type: ignore[arg-type]
    assert (game.hands[1], game.pending, game.armies) == before
    assert game.history[-1] == EndTurn()  # nothing recorded


def test_r9_trade_outside_reinforcement_refused() -> None:
    hand = [T(x) for x in FANTI[:3]]
    game = card_position(hand)
    game.push(Place(T("Perù"), 1))
    assert game.phase == ATTACK
    with pytest.raises(IllegalActionError):
        game.push(Trade((T("Alaska"), T("Alberta"), T("Islanda"))))
    assert len(game.hands[1]) == 3
    # nor on another seat's turn: seat 2 holds the cards now and it is its reinforcement
    game.push(EndTurn())
    assert game.seat == 2 and game.phase == REINFORCE
    with pytest.raises(IllegalActionError):
        game.push(Trade((T("Alaska"), T("Alberta"), T("Islanda"))))


def test_r9_trade_after_partial_placement_still_allowed() -> None:
    hand = [T(x) for x in FANTI[:3]]
    game = position({**SEAT1, "Argentina": 1, "Alaska": 1, "Islanda": 1})  # 6: 2 + SA 2 = 4
    give_cards(game, 1, hand)
    begin_turn(game, 1)
    assert game.pending == 4
    game.push(Place(T("Perù"), 1))
    game.push(Trade((T("Alaska"), T("Alberta"), T("Islanda"))))  # Alaska, Islanda owned
    assert game.pending == 3 + 8
    assert game.armies[T("Alaska")] == 3 and game.armies[T("Islanda")] == 3


# ------------------------------------------------------------------------ R14


def test_r14_cards_of_the_eliminated_usable_only_from_the_next_turn() -> None:
    game = new_game(5)
    finish_setup(game)
    arrange(
        game,
        {
            "Brasile": (0, 5), "Perù": (0, 1),
            "Argentina": (2, 1),  # seat 2's only territory
            "Alaska": (1, 1), "Islanda": (3, 1),
        },
        rest=4,
    )
    give_cards(game, 2, [T("Cita"), T("Giappone"), T("India")])  # 3 fanti
    give_cards(game, 0, [T("Quebec"), T("Scandinavia")])  # 2 cannoni
    set_turn(game, 0)
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 5, 4), (1,)))
    assert game.status[2] == "eliminated"
    assert game.hands[2] == []
    assert sorted(game.hands[0]) == sorted(
        [T("Quebec"), T("Scandinavia"), T("Cita"), T("Giappone"), T("India")]
    )
    assert game.phase == MOVE
    game.push(Move(3))
    with pytest.raises(IllegalActionError):  # not in the turn of the elimination
        game.push(Trade((T("Cita"), T("Giappone"), T("India"))))
    top = game.deck[0]
    game.push(EndTurn())
    assert len(game.hands[0]) == 6 and game.hands[0][-1] == top  # the conquest's card
    for seat in (1, 3, 4):  # seat 2 is out: its turn is skipped
        assert game.seat == seat
        pass_turn(game)
    assert game.seat == 0 and game.phase == REINFORCE
    pending = game.pending
    game.push(Trade((T("Cita"), T("Giappone"), T("India"))))  # 6 cards in hand: 12
    assert game.pending == pending + 12
    game.check_invariants()


# ------------------------------------------------------------------------ card draw


def attack_position() -> Game:
    game = new_game(5)
    finish_setup(game)
    arrange(
        game,
        {
            "Brasile": (0, 9), "Venezuela": (0, 1),
            "Argentina": (1, 1), "Perù": (1, 1), "Africa del Nord": (1, 1),
            "Alaska": (2, 1), "Islanda": (3, 1),
        },
        rest=4,
    )
    set_turn(game, 0)
    return game


def test_no_card_without_a_conquest() -> None:
    game = attack_position()
    deck = list(game.deck)
    game.push(Attack(T("Brasile"), T("Argentina"), (1, 1, 1), (6,)))  # attacker loses 1
    game.push(EndTurn())
    assert game.hands[0] == [] and list(game.deck) == deck


def test_one_card_after_one_conquest_the_top_of_the_deck() -> None:
    game = attack_position()
    top = game.deck[0]
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 1, 1), (5,)))
    game.push(Move(3))
    game.push(EndTurn())
    assert game.hands[0] == [top]
    assert top not in game.deck
    game.check_invariants()


def test_one_card_only_after_three_conquests() -> None:
    game = attack_position()
    top = game.deck[0]
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 1, 1), (5,)))
    game.push(Move(3))  # Brasile 6, Argentina 3
    game.push(Attack(T("Brasile"), T("Perù"), (6, 1, 1), (5,)))
    game.push(Move(3))  # Brasile 3, Perù 3
    game.push(Attack(T("Brasile"), T("Africa del Nord"), (6, 1), (5,)))  # 2 dice
    assert game.phase == ATTACK  # Brasile is left with 1: nothing more to move
    assert game.conquests == 3
    game.push(EndTurn())
    assert game.hands[0] == [top]


def test_card_drawn_also_when_the_turn_ends_with_a_strategic_move() -> None:
    game = attack_position()
    top = game.deck[0]
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 1, 1), (5,)))
    game.push(Move(3))
    game.push(Fortify(T("Brasile"), T("Venezuela"), 5))
    assert game.hands[0] == [top]
    assert game.seat == 1


def test_no_card_when_the_deck_is_empty() -> None:
    game = attack_position()
    give_cards(game, 4, list(game.deck))
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 1, 1), (5,)))
    game.push(Move(3))
    game.push(EndTurn())
    assert game.hands[0] == []
    game.check_invariants()


# ------------------------------------------------------------------------ strategic move


def fortify_position() -> Game:
    game = new_game(5)
    finish_setup(game)
    arrange(
        game,
        {
            "Brasile": (0, 6), "Venezuela": (0, 2), "Argentina": (0, 1), "Perù": (0, 3),
            "America Centrale": (1, 4), "Alaska": (2, 1), "Islanda": (3, 1),
        },
        rest=4,
    )
    set_turn(game, 0)
    return game


def test_fortify_moves_armies_and_ends_the_turn() -> None:
    game = fortify_position()
    game.push(Fortify(T("Brasile"), T("Venezuela"), 5))
    assert game.armies[T("Brasile")] == 1 and game.armies[T("Venezuela")] == 7
    assert game.totals[0] == 12
    assert game.seat == 1 and game.phase == REINFORCE
    game.check_invariants()


@pytest.mark.parametrize(
    ("src", "dst", "n"),
    [
        ("Brasile", "Venezuela", 6),  # would leave Brasile empty
        ("Brasile", "Venezuela", 0),  # nothing to move
        ("Brasile", "America Centrale", 1),  # not adjacent, and not own
        ("Venezuela", "America Centrale", 1),  # adjacent, but an enemy's
        ("Argentina", "Brasile", 1),  # Argentina has only 1 army
        ("Venezuela", "Argentina", 1),  # both own but not adjacent
        ("America Centrale", "Venezuela", 1),  # from an enemy's territory
        ("Brasile", "Brasile", 1),  # to itself
    ],
)
def test_illegal_fortify_refused(src: str, dst: str, n: int) -> None:
    game = fortify_position()
    before = list(game.armies)
    with pytest.raises(IllegalActionError):
        game.push(Fortify(T(src), T(dst), n))
    assert game.armies == before and game.seat == 0 and game.phase == ATTACK


def test_no_fortify_during_reinforcement_or_move() -> None:
    game = fortify_position()
    begin_turn(game, 0)
    assert game.phase == REINFORCE
    with pytest.raises(IllegalActionError):
        game.push(Fortify(T("Brasile"), T("Venezuela"), 1))
    game.push(Place(T("Brasile"), game.pending))
    game.push(Attack(T("Brasile"), T("Africa del Nord"), (6, 6, 6), (1,)))
    assert game.phase == MOVE
    with pytest.raises(IllegalActionError):
        game.push(Fortify(T("Perù"), T("Argentina"), 1))


def test_rtu_fortify_leaves_two_on_a_border() -> None:
    game = new_game(5, ruleset=RTU)
    finish_setup(game)
    arrange(
        game,
        {"Brasile": (0, 3), "Venezuela": (0, 2), "Alaska": (1, 1), "Cina": (2, 1),
         "Islanda": (3, 1)},
        rest=4,
    )
    set_turn(game, 0)
    with pytest.raises(IllegalActionError):  # Brasile borders enemies: keep 2
        game.push(Fortify(T("Brasile"), T("Venezuela"), 2))
    game.push(Fortify(T("Brasile"), T("Venezuela"), 1))
    assert game.armies[T("Brasile")] == 2


def test_club_fortify_may_leave_one_on_a_border() -> None:
    game = fortify_position()
    game.push(Fortify(T("Venezuela"), T("Brasile"), 1))  # Venezuela borders an enemy
    assert game.armies[T("Venezuela")] == 1


@pytest.mark.parametrize(("src", "dst"), [(99, 40), (41, 99), (-1, 40), (41, -2)])
def test_fortify_with_no_such_territory_refused(src: int, dst: int) -> None:
    game = new_game(5)
    finish_setup(game)
    arrange(game, {41: (0, 5), 40: (0, 5), 39: (0, 5), "Alaska": (1, 1), "Islanda": (2, 1),
                   "Congo": (3, 1)}, rest=4)
    set_turn(game, 0)
    armies = list(game.armies)
    with pytest.raises(IllegalActionError):
        game.push(Fortify(src, dst, 1))
    assert game.armies == armies and game.seat == 0


# ------------------------------------------------------------------------ other rulesets


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        (("Territori del Nord Ovest", "Quebec", "Scandinavia"), 4),  # 3 cannoni
        (("Alaska", "Alberta", "Islanda"), 6),  # 3 fanti
        (("Groenlandia", "Ontario", "Gran Bretagna"), 8),  # 3 cavalieri
        (("Alaska", "Quebec", "Ontario"), 10),  # one of each
        (("jolly", "Alaska", "Alberta"), 12),  # jolly + 2 equal
    ],
)
@pytest.mark.parametrize("extra", [0, 3])
def test_classic_set_values_do_not_depend_on_the_hand(
    cards: tuple[str, str, str], value: int, extra: int
) -> None:
    from risiko.ruleset import CLASSIC

    game = new_game(5, ruleset=CLASSIC)
    finish_setup(game)
    arrange(game, {**{k: (1, 2) for k in SEAT1}, "Argentina": (0, 1), "Cina": (2, 1),
                   "Siam": (3, 1)}, rest=4)
    ids = [JOLLY if c == "jolly" else T(c) for c in cards]
    give_cards(game, 1, ids + [T(x) for x in ("Cita", "Giappone", "India")[:extra]])
    begin_turn(game, 1)
    assert game.pending == 1
    game.push(Trade(tuple(ids)))  # type: ignore[arg-type]
    assert game.pending == 1 + value


def test_rtu_army_limit_is_130() -> None:
    game = new_game(5, ruleset=RTU)
    finish_setup(game)
    armies = {t: 9 for t in FIFTEEN}
    armies["Cina"] = 2  # 14 x 9 + 2 = 128
    arrange(game, {**{k: (1, v) for k, v in armies.items()}, "Argentina": (0, 1),
                   "Siam": (2, 1), "Indonesia": (3, 1)}, rest=4)
    assert game.totals[1] == 128
    begin_turn(game, 1)
    assert game.pending == 2 and game.forfeited[1] == 3
