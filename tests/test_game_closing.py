"""The end of a game: R2 (the call of the last 2 rounds and the closing dice) and R12
(a penalised seat still rolls), the referee's "widen" and "stop".

R2: at the call, the round in progress is the PENULTIMATE and the next is the LAST. At the
end of the LAST round, starting from its last seat, each seat rolls two dice at the end of
its turn: closing round 1 ends the game on 4, round 2 on 4-5, round 3 on 4-6, round 4 on
4-7 ... (sums 2 and 3 never). A seat that conquered 3 or more territories in that turn does
not roll. Reading (RULES.md): a closing round is n consecutive turns, the first being the
last seat of the LAST round.
"""

from __future__ import annotations

import json

import pytest

from helpers import (
    ATTACK,
    OVER,
    REINFORCE,
    T,
    arrange,
    finish_setup,
    new_game,
    pass_turn,
    place_all,
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
    Move,
    Timeout,
    WidenClosing,
)
from risiko.dice import ChanceExhaustedError
from risiko.game import Game, IllegalActionError

NEVER = (1, 1)  # sum 2: never closes


def started(seats: int = 5, **kwargs: object) -> Game:
    game = new_game(seats, **kwargs)  # type: ignore[arg-type]
    finish_setup(game)
    return game


def drive_to(game: Game, rnd: int, seat: int) -> None:
    """Pass turns (closing dice that never close when the engine asks for them) until it is
    ``seat``'s turn in round ``rnd``."""
    while not (game.round == rnd and game.seat == seat):
        assert not game.over
        pass_turn(game, NEVER if game.closing_round_of_turn() is not None else None)


def rolls(game: Game) -> list[tuple[int, int, int | None, bool]]:
    return [(r.seat, r.closing_round, r.sum, r.closed) for r in game.closing_rolls]


# ------------------------------------------------------------------------ the schedule


@pytest.mark.parametrize("call_seat", [0, 2, 4])
def test_call_in_round_r_makes_r_penultimate_and_r_plus_1_last(call_seat: int) -> None:
    game = started()
    drive_to(game, 2, call_seat)
    game.push(CallLastRounds())
    assert game.last_round == 3
    # expected rolls, worked out by hand for 5 seats, LAST round 3:
    #   round 3: seats 1-4 no roll; seat 5 closing round 1
    #   round 4: seats 1-4 closing round 1; seat 5 closing round 2
    #   round 5: seats 1-4 closing round 2; seat 5 closing round 3
    #   round 6: seats 1-4 closing round 3; seat 5 closing round 4
    expected = {(3, 4): 1}
    for r in (4, 5, 6):
        for s in range(4):
            expected[(r, s)] = r - 3
        expected[(r, 4)] = r - 2
    seen = []
    while game.round <= 6:
        key = (game.round, game.seat)
        k = expected.get(key)
        if k is None and game.round >= 3:
            # no closing dice yet: offering them is refused
            place_all(game)
            with pytest.raises(IllegalActionError):
                game.push(EndTurn(NEVER))
            game.push(EndTurn())
        else:
            pass_turn(game, NEVER if k is not None else None)
        if k is not None:
            seen.append((key[1], k))
    assert rolls(game) == [(s, k, 2, False) for s, k in seen]
    assert [k for _, k in seen] == [1] + [1] * 4 + [2] * 5 + [3] * 5 + [4]


def test_closing_round_is_n_consecutive_turns() -> None:
    game = started(4)
    drive_to(game, 1, 1)
    game.push(CallLastRounds())  # LAST round = 2
    drive_to(game, 6, 0)
    # 4 seats, LAST round 2: closing round 1 = seat 4 of round 2 + seats 1-3 of round 3;
    # closing round 2 = seat 4 of round 3 + seats 1-3 of round 4; and so on
    assert [(s, k) for s, k, _, _ in rolls(game)] == [
        (3, 1), (0, 1), (1, 1), (2, 1),
        (3, 2), (0, 2), (1, 2), (2, 2),
        (3, 3), (0, 3), (1, 3), (2, 3),
        (3, 4),
    ]


def test_automatic_call_with_last_rounds_at() -> None:
    game = started(last_rounds_at=3)
    assert game.last_round is None
    drive_to(game, 2, 4)
    assert game.last_round is None
    pass_turn(game)
    assert game.round == 3
    assert game.last_round == 4  # round 3 is the penultimate
    drive_to(game, 4, 4)
    assert game.closing_rolls == []
    pass_turn(game, NEVER)
    assert rolls(game) == [(4, 1, 2, False)]
    with pytest.raises(IllegalActionError):  # already called
        game.push(CallLastRounds())


def test_automatic_call_in_round_one() -> None:
    game = started(last_rounds_at=1)
    assert game.last_round == 2


def test_call_refused_during_setup_and_twice() -> None:
    game = new_game(5)
    with pytest.raises(IllegalActionError):
        game.push(CallLastRounds())
    finish_setup(game)
    game.push(CallLastRounds())
    with pytest.raises(IllegalActionError):
        game.push(CallLastRounds())


# ------------------------------------------------------------------------ the bands


def roll_in_closing_round(k: int, total: int) -> Game:
    """Seat 5 rolls ``total`` as the first roll of closing round ``k`` (all earlier rolls
    are 2). Call in round 1: LAST round 2; seat 5 opens closing round k in round 1 + k."""
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 1 + k, 4)
    place_all(game)
    game.push(EndTurn((total // 2, total - total // 2)))
    assert game.closing_rolls[-1].closing_round == k
    assert game.closing_rolls[-1].sum == total
    return game


@pytest.mark.parametrize(
    ("k", "total", "closes"),
    [
        (1, 4, True),
        (1, 3, False),
        (1, 5, False),
        (1, 2, False),
        (1, 12, False),
        (2, 4, True),
        (2, 5, True),
        (2, 6, False),
        (3, 6, True),
        (3, 7, False),
        (4, 7, True),
        (4, 8, False),
        (4, 3, False),
        (5, 8, True),
        (5, 9, False),
        (8, 11, True),
        (8, 3, False),
        (8, 2, False),
        (9, 12, True),
    ],
)
def test_closing_bands(k: int, total: int, closes: bool) -> None:
    game = roll_in_closing_round(k, total)
    assert game.closing_rolls[-1].closed == closes
    assert game.over == closes
    if closes:
        assert game.outcome is not None
        assert game.outcome.end == "closing_dice"
        assert game.outcome.rounds == 1 + k
        with pytest.raises(IllegalActionError):
            game.push(EndTurn())
    else:
        assert game.seat == 0 and game.phase == REINFORCE


def test_closing_winner_is_the_best_score() -> None:
    game = roll_in_closing_round(1, 4)
    assert game.outcome is not None
    scores = [s.score for s in game.scores()]
    best = max(scores)
    expected = game.players[scores.index(best)] if scores.count(best) == 1 else None
    assert game.outcome.winner == expected


def test_closing_dice_drawn_by_the_game_when_not_given() -> None:
    game = started(dice=[3, 1])
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    pass_turn(game)  # the game rolls 3 and 1: sum 4
    assert rolls(game) == [(4, 1, 4, True)]
    assert game.history[-1] == EndTurn((3, 1))


def test_closing_dice_are_two_dice() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    place_all(game)
    for bad in ((1, 1, 2), (4,), (0, 4), (7, 1)):
        with pytest.raises(IllegalActionError):
            game.push(EndTurn(bad))
    assert game.seat == 4 and game.closing_rolls == []


def test_closing_roll_with_a_strategic_move() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    place_all(game)
    arrange(game, {"Brasile": (4, 5), "Venezuela": (4, 1), "Perù": (0, 1), "Alaska": (1, 1),
                   "Islanda": (2, 1), "Urali": (3, 1)}, rest=0)
    set_turn(game, 4)
    src, dst = T("Brasile"), T("Venezuela")
    game.push(Fortify(src, dst, 1, (2, 2)))
    assert game.over and game.outcome is not None and game.outcome.end == "closing_dice"
    assert game.history[-1] == Fortify(src, dst, 1, (2, 2))


# ------------------------------------------------------------------------ 3+ conquests


def conquering_turn(conquests: int) -> Game:
    """Seat 5's turn in the LAST round (round 2): it conquers ``conquests`` territories."""
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    arrange(
        game,
        {
            "Brasile": (4, 20), "Argentina": (0, 1), "Perù": (1, 1), "Venezuela": (2, 1),
            "Africa del Nord": (3, 1),
        },
        rest=0,
    )
    set_turn(game, 4)
    for target in ("Argentina", "Perù", "Venezuela", "Africa del Nord")[:conquests]:
        game.push(Attack(T("Brasile"), T(target), (6, 6, 6), (1,)))
        game.push(Move(3))
    return game


@pytest.mark.parametrize(("conquests", "rolls_dice"), [(0, True), (2, True), (3, False),
                                                       (4, False)])
def test_three_or_more_conquests_no_closing_roll(conquests: int, rolls_dice: bool) -> None:
    game = conquering_turn(conquests)
    assert game.conquests == conquests
    if rolls_dice:
        game.push(EndTurn((1, 3)))  # sum 4: closes closing round 1
    else:
        with pytest.raises(IllegalActionError):  # no dice to show: it may not roll
            game.push(EndTurn((1, 3)))
        assert game.seat == 4 and game.closing_rolls == [] and len(game.hands[4]) == 0
        game.push(EndTurn())
    last = game.closing_rolls[-1]
    assert last.seat == 4 and last.conquests == conquests and last.closing_round == 1
    if rolls_dice:
        assert last.sum == 4 and last.closed and game.over
    else:
        assert last.sum is None and not last.closed and not game.over
        data = json.loads(json.dumps(last.to_dict()))
        assert data == {
            "seat": 5, "player": "Elena", "closing_round": 1, "sum": None, "closed": False,
            "conquests": conquests,
        }
        # the closing round goes on: seat 1 rolls next, in closing round 1
        assert game.seat == 0
        pass_turn(game, NEVER)
        assert game.closing_rolls[-1].seat == 0
        assert game.closing_rolls[-1].closing_round == 1


def test_closing_roll_json_form() -> None:
    game = roll_in_closing_round(2, 5)
    assert json.loads(json.dumps(game.closing_rolls[-1].to_dict())) == {
        "seat": 5, "player": "Elena", "closing_round": 2, "sum": 5, "closed": True,
        "conquests": 0,
    }


# ------------------------------------------------------------------------ R12


def test_r12_late_seat_in_its_penalised_turn_still_rolls() -> None:
    game = started(late=[4])
    game.push(CallLastRounds())  # LAST round 2
    drive_to(game, 2, 4)
    assert game.penalised_turn  # seat 5's 2nd turn: R3 penalty
    assert game.phase == ATTACK
    game.push(EndTurn((2, 2)))
    assert rolls(game) == [(4, 1, 4, True)]
    assert game.outcome is not None and game.outcome.end == "closing_dice"


def test_r12_timed_out_seat_still_rolls() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    assert game.phase == REINFORCE
    game.push(Timeout((3, 1)))
    assert rolls(game) == [(4, 1, 4, True)]
    assert game.over


def test_timeout_in_a_closing_turn_without_dice_rolls_from_chance() -> None:
    game = started(dice=[6, 6])
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    game.push(Timeout())
    assert rolls(game) == [(4, 1, 12, False)]
    assert game.history[-1] == Timeout((6, 6))


# ------------------------------------------------------------------------ referee


def test_widen_skips_to_the_next_band() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    game.push(WidenClosing("the game drags on"))
    pass_turn(game, (2, 3))  # sum 5: closes in the band of closing round 2
    assert rolls(game) == [(4, 2, 5, True)]
    assert game.over


def test_widen_persists_and_accumulates() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    game.push(WidenClosing())
    pass_turn(game, (3, 3))  # 6 is outside 4-5
    pass_turn(game, (3, 3))  # seat 1, closing round 1 widened to the band of round 2
    game.push(WidenClosing())
    pass_turn(game, (3, 3))  # seat 2: band of round 3 (4-6): closes
    assert rolls(game) == [(4, 2, 6, False), (0, 2, 6, False), (1, 3, 6, True)]


def test_widen_refused_before_the_call() -> None:
    game = started()
    with pytest.raises(IllegalActionError):
        game.push(WidenClosing())


def test_referee_stop_ends_the_game() -> None:
    game = started()
    drive_to(game, 2, 2)
    game.push(EndGame("23:59, the club closes"))
    assert game.phase == OVER and game.to_act is None
    assert game.outcome is not None
    assert game.outcome.end == "referee"
    assert game.outcome.rounds == 2
    assert "club closes" in game.outcome.reason
    for action in (EndTurn(), CallLastRounds(), EndGame()):
        with pytest.raises(IllegalActionError):
            game.push(action)


def test_referee_stop_during_a_closing_round() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 3, 1)
    game.push(EndGame())
    assert game.outcome is not None and game.outcome.end == "referee"


# ------------------------------------------------------------------------ R2 with R13


def test_closing_rounds_count_only_seats_in_play() -> None:
    game = started()
    game.push(Abandon(4))  # seat 5 leaves in round 1
    game.push(CallLastRounds())  # LAST round 2
    drive_to(game, 5, 0)
    # seat 4 is the last seat in play: it opens closing round 1 and each later one
    assert [(s, k) for s, k, _, _ in rolls(game)] == [
        (3, 1), (0, 1), (1, 1), (2, 1),
        (3, 2), (0, 2), (1, 2), (2, 2),
        (3, 3),
    ]


def test_no_closing_dice_while_chance_is_missing() -> None:
    game = started()
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    place_all(game)
    with pytest.raises(ChanceExhaustedError):
        game.push(EndTurn())
    assert game.seat == 4 and not game.over and game.closing_rolls == []


@pytest.mark.parametrize("ending", ["end", "fortify", "timeout"])
def test_refused_closing_dice_change_nothing(ending: str) -> None:
    # a turn with a conquest before the closing: dice offered are refused before the card
    # is drawn or the strategic move made; the turn then ends normally with one card
    game = started()
    arrange(game, {"Brasile": (0, 9), "Venezuela": (0, 1), "Argentina": (1, 1),
                   "Cina": (1, 1), "Alaska": (2, 1), "Islanda": (3, 1)}, rest=4)
    set_turn(game, 0)
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    game.push(Move(3))
    deck, armies = list(game.deck), list(game.armies)
    offers: dict[str, tuple[Action, Action]] = {
        "end": (EndTurn((1, 3)), EndTurn()),
        "fortify": (Fortify(T("Brasile"), T("Venezuela"), 2, (1, 3)),
                    Fortify(T("Brasile"), T("Venezuela"), 2)),
        "timeout": (Timeout((1, 3)), Timeout()),
    }
    bad, good = offers[ending]
    with pytest.raises(IllegalActionError):
        game.push(bad)
    assert list(game.deck) == deck and game.armies == armies and game.hands[0] == []
    assert game.seat == 0
    game.push(good)
    assert game.hands[0] == [deck[0]]
    assert game.seat == 1
    game.check_invariants()


def test_variant_where_penalised_seats_do_not_roll() -> None:
    from risiko.ruleset import CLUB_MILANO

    variant = CLUB_MILANO.with_changes(name="no-r12", penalised_seats_roll=False)
    game = started(late=[4], ruleset=variant, dice=[1, 3])
    game.push(CallLastRounds())
    drive_to(game, 2, 4)
    assert game.penalised_turn
    game.push(EndTurn())
    assert not game.over


# ------------------------------------------------------------------------ R2: a seat drops out
# A closing round is one closing roll for each seat in play, in seat order from the anchor's
# place (the seat whose turn closed the LAST round). The Italian text: "per un giro ... ogni
# giocatore ... lancerà due dadi: se la somma risultante sarà 4"; "per IL SECONDO giro ... 4 o
# 5": the band widens only once every seat in play has rolled in the round. A seat that
# leaves (R13) or is eliminated drops out of the round it is in, the others keep their
# places. 3 seats (Anna 1, Bruno 2, Carla 3), the call in round 1: LAST round 2, Carla the
# anchor: closing round 1 = Carla (round 2), Anna, Bruno (round 3); closing round 2 = Carla
# (round 3), Anna, Bruno (round 4) ...


def called(seats: int = 3) -> Game:
    """A game of ``seats`` seats after the initial placement, the last 2 rounds called in
    round 1 (the LAST round is round 2)."""
    game = started(seats)
    game.push(CallLastRounds())
    assert game.last_round == 2
    return game


def eliminate(game: Game, seat: int) -> None:
    """The seat to act takes the last territory of ``seat`` (1 army on Argentina) from
    Brasile (20 armies), then moves 3 armies in: ``seat`` is eliminated in this turn."""
    place_all(game)
    me = game.seat
    others = [s for s in range(game.n) if s not in (me, seat) and game.status[s] == "in_play"]
    spec = {"Brasile": (me, 20), "Argentina": (seat, 1)}
    far = ("Alaska", "Islanda", "Urali")[: len(others) - 1]
    spec.update({t: (s, 1) for t, s in zip(far, others[1:], strict=True)})
    arrange(game, spec, rest=others[0])
    set_turn(game, me)
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    assert game.status[seat] == "eliminated"
    game.push(Move(3))


def leave(game: Game, seat: int, how: str) -> None:
    """``seat`` drops out during the turn of the seat to act: it leaves (R13) or the seat to
    act takes its last territory."""
    if how == "leaves":
        game.push(Abandon(seat))
    else:
        eliminate(game, seat)


@pytest.mark.parametrize("how", ["leaves", "eliminated"])
def test_the_anchor_drops_out_after_its_roll_in_closing_round_1(how: str) -> None:
    # issue 16: Carla rolls first in closing round 1 (round 2); in round 3 she drops out
    # during Anna's turn; Anna rolls (closing round 1). Bruno has not rolled in closing
    # round 1 yet: his roll is in closing round 1 too, band 4 only, so his 5 does not close
    # (the regression counted it in closing round 2, 4-5, and ended the game).
    game = called()
    drive_to(game, 3, 0)
    assert rolls(game) == [(2, 1, 2, False)]
    leave(game, 2, how)
    pass_turn(game, NEVER)
    pass_turn(game, (2, 3))  # Bruno: 5
    assert rolls(game)[1:] == [(0, 1, 2, False), (1, 1, 5, False)]
    assert not game.over
    # round 4: Anna opens closing round 2 at her own place (4-5): her 5 closes
    assert (game.round, game.seat, game.closing_round_of_turn()) == (4, 0, 2)
    pass_turn(game, (1, 4))
    assert rolls(game)[-1] == (0, 2, 5, True) and game.over


@pytest.mark.parametrize("how", ["leaves", "eliminated"])
def test_the_anchor_drops_out_before_its_roll_in_closing_round_2(how: str) -> None:
    # closing round 1 complete: Carla (round 2), Anna, Bruno (round 3). Carla's turn in
    # round 3 would open closing round 2; she leaves during it (no roll), or, in the second
    # case, Anna takes her last territory in round 4 before Carla's turn comes. Either way
    # closing round 1 is complete, so Anna's next roll is in closing round 2 (4-5): her 5
    # closes (the regression counted it in closing round 1 again).
    game = called()
    drive_to(game, 3, 2)
    assert [(s, k) for s, k, _, _ in rolls(game)] == [(2, 1), (0, 1), (1, 1)]
    assert game.closing_round_of_turn() == 2
    if how == "leaves":
        game.push(Abandon(2))  # during her own turn
        assert (game.round, game.seat) == (4, 0)
        assert game.closing_round_of_turn() == 2
        pass_turn(game, (2, 3))
        assert rolls(game)[-1] == (0, 2, 5, True) and game.over
    else:
        pass_turn(game, NEVER)  # Carla rolls: closing round 2
        assert (game.round, game.seat) == (4, 0)
        eliminate(game, 2)  # round 4, Anna's turn: closing round 2, Carla has rolled
        pass_turn(game, NEVER)
        # Bruno: closing round 2 still (4-5), not 3: his 6 does not close
        pass_turn(game, (3, 3))
        assert [(s, k) for s, k, _, _ in rolls(game)][3:] == [(2, 2), (0, 2), (1, 2)]
        assert not game.over
        # round 5: Anna opens closing round 3 (4-6): 6 closes
        pass_turn(game, (3, 3))
        assert rolls(game)[-1] == (0, 3, 6, True) and game.over


@pytest.mark.parametrize("how", ["leaves", "eliminated"])
def test_the_anchor_drops_out_after_its_roll_in_closing_round_2(how: str) -> None:
    # the anchor drops out after its roll in closing round 2: Carla rolled in closing
    # round 2 (round 3); in round 4 she drops out during Anna's turn; Anna and then Bruno
    # still roll in closing round 2 (4-5): Bruno's 6 does not close; Anna opens closing
    # round 3 in round 5 (4-6): her 6 closes.
    game = called()
    drive_to(game, 4, 0)
    assert [(s, k) for s, k, _, _ in rolls(game)] == [(2, 1), (0, 1), (1, 1), (2, 2)]
    leave(game, 2, how)
    pass_turn(game, NEVER)
    pass_turn(game, (3, 3))  # Bruno: 6
    assert [(s, k) for s, k, _, _ in rolls(game)][4:] == [(0, 2), (1, 2)]
    assert not game.over
    assert game.closing_round_of_turn() == 3
    pass_turn(game, (3, 3))
    assert rolls(game)[-1] == (0, 3, 6, True)


@pytest.mark.parametrize("how", ["leaves", "eliminated"])
@pytest.mark.parametrize("closing_round", [1, 2])
def test_another_seat_drops_out_before_its_roll(how: str, closing_round: int) -> None:
    # 4 seats, Dario the anchor (LAST round 2). In round 2 + k, during Anna's turn (closing
    # round k), Bruno drops out before his roll: Carla still rolls in closing round k, Dario
    # opens closing round k + 1 at his place; nobody else moves.
    game = called(4)
    drive_to(game, 2 + closing_round, 0)
    leave(game, 1, how)
    pass_turn(game, NEVER)  # Anna
    pass_turn(game, NEVER)  # Carla
    assert game.seat == 3 and game.closing_round_of_turn() == closing_round + 1
    pass_turn(game, NEVER)  # Dario
    expected = [(3, 1), (0, 1), (1, 1), (2, 1), (3, 2)] if closing_round == 2 else [(3, 1)]
    expected += [(0, closing_round), (2, closing_round), (3, closing_round + 1)]
    assert [(s, k) for s, k, _, _ in rolls(game)] == expected
    assert (game.seat, game.closing_round_of_turn()) == (0, closing_round + 1)


@pytest.mark.parametrize("how", ["leaves", "eliminated"])
def test_another_seat_drops_out_after_its_roll(how: str) -> None:
    # 4 seats, Dario the anchor. Round 3: Anna and Bruno roll in closing round 1; during
    # Carla's turn Bruno drops out (after his roll); Carla finishes closing round 1, Dario
    # opens closing round 2, Anna and Carla (round 4) finish it; Dario's turn in round 4
    # opens closing round 3.
    game = called(4)
    drive_to(game, 3, 2)
    leave(game, 1, how)
    for _ in range(4):
        pass_turn(game, NEVER)
    assert [(s, k) for s, k, _, _ in rolls(game)] == [
        (3, 1), (0, 1), (1, 1), (2, 1), (3, 2), (0, 2), (2, 2),
    ]
    assert (game.round, game.seat, game.closing_round_of_turn()) == (4, 3, 3)


def test_the_anchor_leaves_during_its_own_turn_of_the_last_round() -> None:
    # Carla, the last seat of the LAST round (2), leaves during her own turn before her
    # closing roll: the closing begins with the next turn; no seat in play is at or after
    # her place, so Anna and Bruno make closing round 1 in round 3, closing round 2 in 4.
    game = called()
    drive_to(game, 2, 2)
    game.push(Abandon(2))
    for _ in range(4):
        pass_turn(game, NEVER)
    assert [(s, k) for s, k, _, _ in rolls(game)] == [(0, 1), (1, 1), (0, 2), (1, 2)]


def test_the_anchor_goes_through_positions() -> None:
    # the anchor is written ("closing": {"anchor": "Carla"}) and read back: Carla gone, a
    # position in round 3 still counts Bruno's turn in closing round 1
    game = called()
    drive_to(game, 3, 0)
    game.push(Abandon(2))
    position = game.position()
    assert position["closing"]["anchor"] == "Carla"
    again = Game.from_position(position)
    assert again.state == game.state
    pass_turn(again, NEVER)
    assert again.closing_round_of_turn() == 1  # Bruno, closing round 1
    # an older position (no anchor): the highest seat in play, as the engine then counted
    del position["closing"]["anchor"]
    old = Game.from_position(position)
    assert old.state.closing_anchor == 1
    assert Game.from_position({**position, "closing": {**position["closing"],
                                                       "anchor": None}}
                              ).state.closing_anchor == -1
    from risiko.faults import InvalidInputError

    with pytest.raises(InvalidInputError) as err:
        Game.from_position({**position, "closing": {**position["closing"], "anchor": "Zeno"}})
    assert [f.code for f in err.value.faults] == ["position.no_anchor"]
