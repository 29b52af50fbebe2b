"""The start of a game: the deal, the initial armies and the placement 3 at a time.

Standard game facts the regulation leaves in place (RULES.md, "What the regulation leaves to
the standard game"; DOMAIN.md): territories dealt one at a time in seat order, 35/30/25/20
armies for 3/4/5/6 seats, one army on each territory, then 3 at a time in seat order.
"""

from __future__ import annotations

import pytest

from helpers import PLAYERS, REINFORCE, SETUP, T, finish_setup, first_owned, new_game
from risiko.actions import (
    Attack,
    CallLastRounds,
    EndTurn,
    Fortify,
    Move,
    Place,
    Timeout,
    Trade,
)
from risiko.dice import ScriptedChance
from risiko.game import Game, IllegalActionError


@pytest.mark.parametrize(
    ("seats", "territories"),
    [
        (3, [14, 14, 14]),
        (4, [11, 11, 10, 10]),
        (5, [9, 9, 8, 8, 8]),
        (6, [7, 7, 7, 7, 7, 7]),
    ],
)
def test_deal_one_at_a_time_in_seat_order(seats: int, territories: list[int]) -> None:
    deal = list(range(41, -1, -1))  # any order: the i-th card dealt goes to seat i mod n
    game = new_game(seats, deal=deal)
    for i, t in enumerate(deal):
        assert game.owner[t] == i % seats
    assert [m.bit_count() for m in game.owned] == territories
    # one army on each territory
    assert game.armies == [1] * 42
    assert game.totals == territories
    game.check_invariants()


def test_five_seats_first_two_get_nine() -> None:
    game = new_game(5)
    assert [m.bit_count() for m in game.owned] == [9, 9, 8, 8, 8]
    assert game.owner[T("Alaska")] == 0  # 1st card dealt
    assert game.owner[T("Territori del Nord Ovest")] == 1  # 2nd
    assert game.owner[T("Quebec")] == 0  # 6th
    assert game.owner[T("Australia Occidentale")] == 0  # 41st
    assert game.owner[T("Australia Orientale")] == 1  # 42nd


@pytest.mark.parametrize(("seats", "initial"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_initial_armies(seats: int, initial: int) -> None:
    game = new_game(seats)
    assert game.phase == SETUP
    finish_setup(game)
    assert game.totals == [initial] * seats
    assert sum(game.armies) == initial * seats
    game.check_invariants()


@pytest.mark.parametrize("seats", [2, 7])
def test_table_size_outside_3_to_6_refused(seats: int) -> None:
    with pytest.raises(ValueError):
        Game(
            [f"P{i}" for i in range(seats)], deal=list(range(42)),
            objectives=list(range(1, seats + 1)), deck=list(range(44)),
        )


def _placement_steps(seats: int) -> list[tuple[int, int]]:
    game = new_game(seats)
    steps = []
    while game.phase == SETUP:
        assert game.to_act == game.seat
        steps.append((game.seat, game.step_left))
        game.push(Place(first_owned(game, game.seat), game.step_left))
    return steps


def test_placement_three_at_a_time_five_seats() -> None:
    # 25 armies: seats 1-2 (9 territories) place 16 more = 3+3+3+3+3+1,
    # seats 3-5 (8 territories) place 17 = 3+3+3+3+3+2; always in seat order.
    expected = [(s, 3) for _ in range(5) for s in range(5)]
    expected += [(0, 1), (1, 1), (2, 2), (3, 2), (4, 2)]
    assert _placement_steps(5) == expected


@pytest.mark.parametrize(
    ("seats", "last_pass"),
    [
        (3, [(0, 3), (1, 3), (2, 3)]),  # 35 - 14 = 21 = 7 x 3
        (4, [(0, 1), (1, 1), (2, 2), (3, 2)]),  # 30 - 11 = 19, 30 - 10 = 20
        (6, [(s, 1) for s in range(6)]),  # 20 - 7 = 13 = 4 x 3 + 1
    ],
)
def test_placement_passes(seats: int, last_pass: list[tuple[int, int]]) -> None:
    steps = _placement_steps(seats)
    full = len(steps) // seats - 1
    assert steps[: full * seats] == [(s, 3) for _ in range(full) for s in range(seats)]
    assert steps[full * seats :] == last_pass


def test_a_step_may_be_split_but_not_exceeded() -> None:
    game = new_game(5)
    alaska, quebec = T("Alaska"), T("Quebec")
    with pytest.raises(IllegalActionError):
        game.push(Place(alaska, 4))
    with pytest.raises(IllegalActionError):
        game.push(Place(alaska, 0))
    game.push(Place(alaska, 1))
    assert (game.seat, game.step_left) == (0, 2)
    game.push(Place(quebec, 2))
    assert (game.seat, game.step_left) == (1, 3)
    assert game.armies[alaska] == 2 and game.armies[quebec] == 3
    assert game.totals[0] == 12


def test_placement_on_another_seats_territory_refused() -> None:
    game = new_game(5)
    before = list(game.armies)
    with pytest.raises(IllegalActionError):
        game.push(Place(T("Territori del Nord Ovest"), 3))  # seat 2's
    assert game.armies == before and game.seat == 0


@pytest.mark.parametrize(
    "action",
    [
        Attack(0, 1),
        EndTurn(),
        Fortify(0, 5, 1),
        Move(1),
        Trade((0, 1, 2)),
        CallLastRounds(),
        Timeout(),
    ],
)
def test_only_placement_during_setup(action: object) -> None:
    game = new_game(5)
    with pytest.raises(IllegalActionError):
        game.push(action)  # type: ignore[arg-type]
    assert game.phase == SETUP and game.seat == 0 and game.step_left == 3
    assert game.history == []


def test_first_turn_after_setup() -> None:
    game = new_game(5)
    finish_setup(game)
    assert game.round == 1
    assert game.to_act == 0
    assert game.phase == REINFORCE
    # 9 territories, no whole continent (the deal 0..41 spreads every continent): 9 // 3
    assert game.pending == 3


def test_exactly_one_seat_to_act_throughout_setup() -> None:
    game = new_game(4)
    while game.phase == SETUP:
        assert game.to_act is not None and 0 <= game.to_act < 4
        game.push(Place(first_owned(game, game.seat), game.step_left))
        game.check_invariants()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"deal": [*list(range(41)), 0]},
        {"deal": list(range(41))},
        {"objectives": [1, 1, 2, 3, 4]},
        {"objectives": [1, 2, 3, 4]},
        {"deck": list(range(43))},
        {"deck": [*list(range(43)), 0]},
        {"late": [5]},
        {"last_rounds_at": 0},
    ],
)
def test_bad_construction_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        new_game(5, **kwargs)  # type: ignore[arg-type]


def test_duplicate_player_names_refused() -> None:
    with pytest.raises(ValueError):
        Game(["A", "B", "A"], deal=list(range(42)), objectives=[1, 2, 3], deck=list(range(44)))


def test_new_game_same_seed_same_game() -> None:
    a = Game.new(PLAYERS[:4], seed=11)
    b = Game.new(PLAYERS[:4], seed=11)
    c = Game.new(PLAYERS[:4], seed=12)
    assert a.deal == b.deal and a.deck_order == b.deck_order
    assert [o.number for o in a.objectives] == [o.number for o in b.objectives]
    assert (a.deal, a.deck_order) != (c.deal, c.deck_order)
    assert len({o.number for o in a.objectives}) == 4


def test_new_game_from_scripted_chance() -> None:
    deal = list(range(41, -1, -1))
    objectives = [15, 3, 0, 7] + [i for i in range(16) if i not in (15, 3, 0, 7)]
    deck = list(range(43, -1, -1))
    game = Game.new(PLAYERS[:4], chance=ScriptedChance(permutations=[deal, objectives, deck]))
    assert list(game.deal) == deal
    assert [o.number for o in game.objectives] == [16, 4, 1, 8]
    assert list(game.deck_order) == deck


@pytest.mark.parametrize("bad", [0, 17, -1])
def test_objective_numbers_outside_1_to_16_refused(bad: int) -> None:
    with pytest.raises(ValueError):
        new_game(5, objectives=[bad, 2, 3, 4, 5])
