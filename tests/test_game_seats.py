"""Seats out of the ordinary: R3 (a late seat's first three turns), R11 (the turn clock),
R13 (a seat that leaves the game) and the referee's actions.
"""

from __future__ import annotations

import pytest

from helpers import (
    ATTACK,
    MOVE,
    OVER,
    REINFORCE,
    SETUP,
    T,
    arrange,
    finish_setup,
    first_owned,
    give_cards,
    new_game,
    pass_turn,
    set_turn,
)
from risiko.actions import (
    Abandon,
    Action,
    Attack,
    CallLastRounds,
    EndGame,
    EndTurn,
    Fortify,
    Late,
    Place,
    Timeout,
    Trade,
    WidenClosing,
)
from risiko.faults import InvalidInputError
from risiko.game import Game, IllegalActionError
from risiko.ruleset import CLUB_MILANO, Ruleset

# ------------------------------------------------------------------------ R3


def late_position(late: list[int], ruleset: Ruleset = CLUB_MILANO) -> Game:
    """5 seats, seats in ``late`` penalised (``ruleset``: club-milano). Seat 2 (index 1)
    holds Brasile (20) and Venezuela (5) with Quebec, Scandinavia, Siberia (3 cannoni) in
    hand: 2 territories, 1 reinforcement a turn; seat 1 holds Alaska (where it places) and
    Argentina, seats 3 and 4 one territory each."""
    game = new_game(5, late=late, ruleset=ruleset)
    finish_setup(game)
    arrange(
        game,
        {
            "Brasile": (1, 20), "Venezuela": (1, 5), "Argentina": (0, 1), "Alaska": (0, 1),
            "Groenlandia": (2, 1), "Islanda": (3, 1),
        },
        rest=4,
    )
    give_cards(game, 1, [T("Quebec"), T("Scandinavia"), T("Siberia")])
    return game


def test_r3_three_penalised_turns_then_a_normal_one() -> None:
    game = late_position([1])
    for turn in (1, 2, 3):
        pass_turn(game)  # seat 1
        assert game.seat == 1 and game.round == turn
        assert game.penalised_turn
        assert game.phase == ATTACK and game.pending == 0  # no reinforcements
        assert game.forfeited[1] == turn  # 1 a turn, forfeited
        assert game.legal_attacks() == []
        refused: list[Action] = [
            Place(T("Brasile"), 1),
            Trade((T("Quebec"), T("Scandinavia"), T("Siberia"))),
            Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)),
            Fortify(T("Brasile"), T("Venezuela"), 1),
        ]
        for action in refused:
            with pytest.raises(IllegalActionError):
                game.push(action)
        assert game.armies[T("Brasile")] == 20 and len(game.hands[1]) == 3
        game.push(EndTurn())
        assert game.hands[1] == [T("Quebec"), T("Scandinavia"), T("Siberia")]  # no card
        for _ in range(3):
            pass_turn(game)
    # 4th turn: normal
    pass_turn(game)
    assert game.seat == 1 and game.round == 4
    assert not game.penalised_turn
    assert game.phase == REINFORCE and game.pending == 1
    game.push(Trade((T("Quebec"), T("Scandinavia"), T("Siberia"))))
    assert game.pending == 1 + 8
    game.push(Place(T("Brasile"), 9))
    assert game.can_attack(T("Brasile"), T("Argentina"))
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    assert game.owner[T("Argentina")] == 1
    assert game.forfeited[1] == 3
    assert game.forfeits(1) == {"R3": 3, "R4": 0, "R11": 0}
    game.check_invariants()


def test_r3_penalty_counts_the_seats_own_turns() -> None:
    game = new_game(5, late=[0, 3])
    finish_setup(game)
    penalised = []
    while game.round <= 5:
        penalised.append((game.round, game.seat, game.penalised_turn))
        pass_turn(game)
    for rnd, seat, pen in penalised:
        assert pen == (seat in (0, 3) and rnd <= 3), (rnd, seat)


def test_r3_late_seat_places_its_initial_armies_and_defends() -> None:
    game = new_game(5, late=[2])
    finish_setup(game)
    assert game.totals[2] == 25
    game.push(Place(first_owned(game, 0), game.pending))
    arrange(game, {"Brasile": (0, 9), "Africa del Nord": (2, 3), "Alaska": (1, 1),
                   "Islanda": (3, 1)}, rest=4)
    set_turn(game, 0)
    with pytest.raises(IllegalActionError):  # the late seat defends with the maximum dice
        game.push(Attack(T("Brasile"), T("Africa del Nord"), (6, 6, 6), (1, 1)))
    game.push(Attack(T("Brasile"), T("Africa del Nord"), (6, 6, 6), (1, 1, 1)))
    assert game.owner[T("Africa del Nord")] == 0


def test_r3_penalised_turn_may_time_out() -> None:
    game = late_position([1])
    pass_turn(game)
    assert game.penalised_turn
    game.push(Timeout())
    assert game.seat == 2
    assert game.state.late_left[1] == 2  # one of the 3 penalised turns served


# R3 after the start (Late): a seat that arrives once the game has begun (an online table
# the referee started without him). Its first 3 turns of play are penalised, those already
# past included (he lost them absent): late_position gives seat 2 (index 1) 1
# reinforcement a turn, so each penalised turn forfeits 1 under R3.


def test_late_in_the_initial_placement_gives_the_three_turns() -> None:
    """Marked late during the initial placement: no turn of play begun, 3 penalised (as a
    seat late at the start); its initial armies are still its own to place."""
    game = new_game(5)
    game.push(Late(1))
    assert game.state.late_left == [0, 3, 0, 0, 0]
    finish_setup(game)
    assert game.totals[1] == 25  # 125 armies over 5 seats (R1 table) all placed
    for turn in (1, 2, 3, 4):
        while game.seat != 1:
            pass_turn(game)
        assert game.round == turn and game.penalised_turn is (turn <= 3)
        pass_turn(game)


def test_late_in_his_own_first_turn_penalises_it_and_two_more() -> None:
    """Round 1, seat 2 to act (its 1st turn, 1 reinforcement not placed) when marked late:
    this turn is penalised from now on (the 1 army forfeited under R3, no trade), 2 more
    to come; round 4 is normal. R3 forfeits: 1 + 1 + 1 = 3."""
    game = late_position([])
    pass_turn(game)  # seat 1
    assert (game.round, game.seat, game.phase, game.pending) == (1, 1, REINFORCE, 1)
    recorded = game.push(Late(1))
    assert recorded == Late(1) and game.acted_by()[-1] is None  # the referee's
    assert (game.phase, game.pending, game.penalised_turn) == (ATTACK, 0, True)
    assert game.state.late_left[1] == 2
    assert game.forfeits(1) == {"R3": 1, "R4": 0, "R11": 0}
    with pytest.raises(IllegalActionError):
        game.push(Trade((T("Quebec"), T("Scandinavia"), T("Siberia"))))
    with pytest.raises(IllegalActionError):
        game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    game.push(EndTurn())
    for rnd in (2, 3, 4):
        while game.seat != 1:
            pass_turn(game)
        assert game.round == rnd and game.penalised_turn is (rnd <= 3)
        pass_turn(game)
    assert game.forfeits(1) == {"R3": 3, "R4": 0, "R11": 0}
    game.check_invariants()


def test_late_after_two_of_his_turns_penalises_one_more() -> None:
    """Round 2, seat 4 to act: seat 2 has had its turns of rounds 1 and 2 (2 of the 3), so
    one penalised turn is left, round 3's; round 4 is normal. R3 forfeits: 1."""
    game = late_position([])
    while (game.round, game.seat) != (2, 3):
        pass_turn(game)
    game.push(Late(1))
    assert game.state.late_left == [0, 1, 0, 0, 0]
    assert not game.penalised_turn and game.forfeits(3)["R3"] == 0  # seat 4's turn stays
    for rnd in (3, 4):
        while game.seat != 1:
            pass_turn(game)
        assert game.round == rnd and game.penalised_turn is (rnd == 3)
        pass_turn(game)
    assert game.forfeits(1) == {"R3": 1, "R4": 0, "R11": 0}


def test_late_after_his_third_turn_changes_nothing() -> None:
    """Round 4, seat 1 to act: seat 2's 3 first turns are past: nothing penalised."""
    game = late_position([])
    while (game.round, game.seat) != (4, 0):
        pass_turn(game)
    before = game.state.copy()
    game.push(Late(1))
    assert game.state == before


def test_late_twice_or_late_at_the_start_too_is_the_same_count() -> None:
    """A seat late at the start, marked late again in its 2nd turn: 1 left (as without the
    second mark), its turn under way already penalised (nothing more forfeited)."""
    game = late_position([1])
    while (game.round, game.seat) != (2, 1):
        pass_turn(game)
    assert game.penalised_turn and game.state.late_left[1] == 1
    before = game.state.copy()
    game.push(Late(1))
    assert game.state == before


# R3's two readings for a seat marked late after the start (Ruleset.late_penalty_from):
# "start" (club-milano's: "i primi tre turni di gioco", his turns missed absent among them)
# and "arrival" (three turns from his arrival, the one under way, if his, the first).
ARRIVAL = CLUB_MILANO.with_changes(late_penalty_from="arrival")


def _penalised_rounds(game: Game, seat: int, rounds: range) -> list[int]:
    """The rounds of ``rounds`` in which ``seat``'s turn is penalised (played to the end)."""
    out = []
    for rnd in rounds:
        while game.seat != seat:
            pass_turn(game)
        assert game.round == rnd
        if game.penalised_turn:
            out.append(rnd)
        pass_turn(game)
    return out


def test_club_milano_counts_the_late_turns_from_the_start() -> None:
    assert CLUB_MILANO.late_penalty_from == "start"


@pytest.mark.parametrize(("ruleset", "left", "rounds", "r3"), [
    (CLUB_MILANO, 2, [2, 3], 2),  # his round-1 turn, lost absent, was the 1st of the 3
    (ARRIVAL, 3, [2, 3, 4], 3),  # three from now: rounds 2, 3, 4
])
def test_late_in_round_2_before_his_turn_by_each_reading(
        ruleset: Ruleset, left: int, rounds: list[int], r3: int) -> None:
    """Round 2, seat 1 to act, seat 2 marked late (1 reinforcement a turn, so 1 army
    forfeited under R3 per penalised turn). Start: turns begun 1 (round 1's), 3 - 1 = 2
    left, rounds 2 and 3. Arrival: 3 left, rounds 2, 3 and 4; round 5 normal."""
    game = late_position([], ruleset)
    while (game.round, game.seat) != (2, 0):
        pass_turn(game)
    game.push(Late(1))
    assert game.state.late_left == [0, left, 0, 0, 0]
    assert not game.penalised_turn  # seat 1's turn stays its own
    assert _penalised_rounds(game, 1, range(2, 6)) == rounds
    assert game.forfeits(1) == {"R3": r3, "R4": 0, "R11": 0}


@pytest.mark.parametrize(("ruleset", "left", "later"), [
    (CLUB_MILANO, 1, [3]),  # this turn is his 2nd of the game: the 3rd, round 3, is left
    (ARRIVAL, 2, [3, 4]),  # this turn is the 1st from his arrival: rounds 3 and 4 left
])
def test_late_in_his_own_turn_of_round_2_by_each_reading(
        ruleset: Ruleset, left: int, later: list[int]) -> None:
    """Round 2, seat 2 to act, reinforcing (1 army to place) when marked late: either way
    this turn is penalised from now on (the 1 army forfeited under R3, no attack), then
    start: 1 more (round 3); arrival: 2 more (rounds 3, 4)."""
    game = late_position([], ruleset)
    while (game.round, game.seat) != (2, 1):
        pass_turn(game)
    assert (game.phase, game.pending) == (REINFORCE, 1)
    game.push(Late(1))
    assert (game.phase, game.pending, game.penalised_turn) == (ATTACK, 0, True)
    assert game.state.late_left[1] == left
    assert game.forfeits(1) == {"R3": 1, "R4": 0, "R11": 0}
    with pytest.raises(IllegalActionError):
        game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    game.push(EndTurn())
    assert _penalised_rounds(game, 1, range(3, 6)) == later
    assert game.forfeits(1) == {"R3": 1 + len(later), "R4": 0, "R11": 0}
    game.check_invariants()


def test_late_after_his_third_turn_still_costs_three_turns_from_arrival() -> None:
    """Round 4, seat 1 to act: by "start" nothing is left (see above); by "arrival" his
    turns of rounds 4, 5 and 6 are penalised."""
    game = late_position([], ARRIVAL)
    while (game.round, game.seat) != (4, 0):
        pass_turn(game)
    game.push(Late(1))
    assert game.state.late_left == [0, 3, 0, 0, 0]
    assert _penalised_rounds(game, 1, range(4, 8)) == [4, 5, 6]


def test_a_reading_that_is_not_one_is_refused_naming_r3() -> None:
    with pytest.raises(InvalidInputError) as bad:
        CLUB_MILANO.with_changes(late_penalty_from="tomorrow")
    assert (bad.value.fault.code, bad.value.fault.clause) == (
        "ruleset.bad_late_penalty_from", "R3")
    assert Ruleset.from_dict({**CLUB_MILANO.to_dict(), "late_penalty_from": "arrival"}) == ARRIVAL


def test_late_is_refused_for_no_seat_a_seat_out_or_a_game_over() -> None:
    game = late_position([])
    with pytest.raises(IllegalActionError) as no_seat:
        game.push(Late(5))
    assert no_seat.value.fault.code == "game.no_seat"
    game.push(Abandon(2))
    with pytest.raises(IllegalActionError) as out:
        game.push(Late(2))
    assert out.value.fault.code == "game.seat_out"
    game.push(EndGame("test"))
    with pytest.raises(IllegalActionError) as over:
        game.push(Late(1))
    assert over.value.fault.code == "game.over"


def test_late_record_form_reads_back() -> None:
    from risiko.actions import parse_action
    from risiko.record import replay, write_record

    assert Late(1).text() == "late 2" and parse_action("late 2") == Late(1)
    # the deal 0..41 one at a time in seat order: seat 2 holds territories 1, 6, ..., 41
    # (9, no whole continent): 9 // 3 = 3 reinforcements in its 1st turn, forfeited (R3)
    game = new_game(5)
    finish_setup(game)
    pass_turn(game)
    assert game.pending == 3
    game.push(Late(1))
    text = write_record(game)
    assert "R late 2" in text.splitlines()
    again = replay(text)
    assert again.state.late_left == [0, 2, 0, 0, 0] and again.penalised_turn
    assert again.forfeits(1) == {"R3": 3, "R4": 0, "R11": 0}


# ------------------------------------------------------------------------ R11


def clock_position() -> Game:
    game = new_game(5)
    finish_setup(game)
    arrange(
        game,
        {
            "Brasile": (0, 9), "Venezuela": (0, 1), "Perù": (0, 1), "Argentina": (1, 1),
            "Cina": (1, 1), "Alaska": (2, 1), "Islanda": (3, 1),
        },
        rest=4,
    )
    return game


def test_r11_timeout_in_reinforcement_forfeits_what_is_left() -> None:
    game = clock_position()
    assert game.seat == 0 and game.phase == REINFORCE
    pending = game.pending
    assert pending >= 2
    game.push(Place(T("Brasile"), 1))
    totals = list(game.totals)
    game.push(Timeout())
    assert game.forfeited[0] == pending - 1
    assert game.forfeits(0) == {"R3": 0, "R4": 0, "R11": pending - 1}
    assert game.totals == totals
    assert game.seat == 1 and game.phase == REINFORCE
    assert game.history[-1] == Timeout()
    game.check_invariants()


def test_r11_timeout_in_the_attack_phase_passes_the_turn() -> None:
    game = clock_position()
    game.push(Place(T("Brasile"), game.pending))
    game.push(Timeout())
    assert game.seat == 1 and game.forfeited[0] == 0


def test_r11_timeout_while_moving_in_keeps_the_minimum_move() -> None:
    game = clock_position()
    set_turn(game, 0)
    top = game.deck[0]
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    assert game.phase == MOVE
    game.push(Timeout())
    assert game.armies[T("Brasile")] == 6 and game.armies[T("Argentina")] == 3
    assert game.owner[T("Argentina")] == 0
    assert game.seat == 1
    # reading chosen (ruleset timeout_draws_card): the conquest still earns its card
    assert game.hands[0] == [top]
    game.check_invariants()


def test_r11_no_timeout_during_setup() -> None:
    game = new_game(5)
    with pytest.raises(IllegalActionError):
        game.push(Timeout())
    assert game.phase == SETUP and game.seat == 0


# ------------------------------------------------------------------------ R13


def test_r13_abandoned_seat_takes_no_turns_and_its_armies_stay() -> None:
    game = new_game(5)
    finish_setup(game)
    owned, armies = game.owned[2], [game.armies[t] for t in range(42) if game.owner[t] == 2]
    game.push(Abandon(2))
    assert game.status[2] == "abandoned"
    assert game.seat == 0  # another seat leaving does not change the seat to act
    seats = []
    for _ in range(8):
        seats.append(game.seat)
        pass_turn(game)
    assert seats == [0, 1, 3, 4, 0, 1, 3, 4]
    assert game.owned[2] == owned
    assert [game.armies[t] for t in range(42) if game.owner[t] == 2] == armies
    assert 2 not in game.in_play


def test_r13_abandoned_seat_defends_with_the_maximum_dice() -> None:
    game = new_game(5)
    finish_setup(game)
    arrange(game, {"Brasile": (0, 9), "Africa del Nord": (2, 4), "Alaska": (1, 1),
                   "Islanda": (3, 1), "Cina": (2, 1)}, rest=4)
    game.push(Abandon(2))
    set_turn(game, 0)
    with pytest.raises(IllegalActionError):
        game.push(Attack(T("Brasile"), T("Africa del Nord"), (6, 6, 6), (1, 1)))
    game.push(Attack(T("Brasile"), T("Africa del Nord"), (2, 2, 2), (3, 3, 1)))
    assert game.armies[T("Africa del Nord")] == 3  # 2<3, 2<3, 2>1
    assert game.armies[T("Brasile")] == 7


def test_r13_abandoned_seat_scores_zero() -> None:
    game = new_game(5)
    finish_setup(game)
    game.push(Abandon(3))
    game.push(EndGame())
    scores = game.scores()
    assert scores[3].score == 0 and scores[3].status == "abandoned"
    assert game.owned[3] != 0  # it still holds territories
    sheet = game.sheet()
    assert sheet["seats"][3]["abandoned"] is True
    assert all("abandoned" not in s for i, s in enumerate(sheet["seats"]) if i != 3)


def test_r13_seat_to_act_leaves_the_turn_passes() -> None:
    game = new_game(5)
    finish_setup(game)
    pass_turn(game)
    assert game.seat == 1 and game.phase == REINFORCE
    game.push(Abandon(1))
    assert game.seat == 2 and game.phase == REINFORCE
    assert game.pending == game.reinforcements(2)
    game.check_invariants()


def test_r13_seat_leaves_while_moving_in() -> None:
    game = clock_position()
    set_turn(game, 0)
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    assert game.phase == MOVE
    game.push(Abandon(0))
    assert game.seat == 1 and game.phase == REINFORCE
    assert game.hands[0] == []  # it leaves: no card
    game.check_invariants()


def test_r13_leaving_during_setup() -> None:
    game = new_game(5)
    game.push(Abandon(1))
    order = []
    while game.phase == SETUP:
        order.append(game.seat)
        game.push(Place(first_owned(game, game.seat), game.step_left))
    assert 1 not in order
    assert game.totals[1] == 9  # one army on each of its 9 territories
    assert game.seat == 0 and game.round == 1


@pytest.mark.parametrize("bad", [Abandon(5), Abandon(-1)])
def test_r13_no_such_seat(bad: Abandon) -> None:
    game = new_game(5)
    with pytest.raises(IllegalActionError):
        game.push(bad)


def test_r13_twice_refused() -> None:
    game = new_game(5)
    finish_setup(game)
    game.push(Abandon(2))
    with pytest.raises(IllegalActionError):
        game.push(Abandon(2))


def test_r13_game_ends_when_one_seat_is_left_in_play() -> None:
    game = new_game(3)
    finish_setup(game)
    game.push(Abandon(1))
    assert not game.over
    game.push(Abandon(2))
    assert game.over and game.to_act is None
    assert game.outcome is not None
    assert game.outcome.end == "all_others_eliminated"
    assert game.outcome.winner == "Anna"
    assert [s.score for s in game.scores()][1:] == [0, 0]


def test_r13_last_opponent_eliminated_the_others_gone() -> None:
    game = new_game(3)
    finish_setup(game)
    arrange(game, {"Brasile": (0, 9), "Argentina": (1, 1), "Alaska": (0, 1)}, rest=2)
    game.push(Abandon(2))
    set_turn(game, 0)
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    assert game.status[1] == "eliminated"
    assert game.over
    assert game.outcome is not None and game.outcome.end == "all_others_eliminated"
    assert game.outcome.winner == "Anna"


# ------------------------------------------------------------------------ referee


def test_referee_actions_do_not_take_the_turn() -> None:
    game = new_game(5)
    finish_setup(game)
    pass_turn(game)
    game.push(CallLastRounds())
    game.push(WidenClosing("slow table"))
    assert game.seat == 1 and game.phase == REINFORCE
    assert game.history[-2:] == [CallLastRounds(), WidenClosing("slow table")]
    assert game.last_round == 2 and game.closing_extra == 1


def test_referee_stop_at_any_phase() -> None:
    game = clock_position()
    set_turn(game, 0)
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    assert game.phase == MOVE
    game.push(EndGame("midnight"))
    assert game.phase == OVER
    assert game.outcome is not None and game.outcome.end == "referee"
    assert game.outcome.reason == "midnight"
