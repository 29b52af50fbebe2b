"""Attacks: R7 (dice parity), R8 (army superiority with the support of every own territory
bordering the target, waived above 10 armies; maximum dice always), the dice, R6, the
conquest move, RisiKo! and elimination.

The attacker is seat 0 on Brasile; the target is Africa del Nord (seat 1). Africa del Nord
borders Brasile, Egitto, Congo, Africa Orientale, Europa Occidentale and Europa Meridionale;
Venezuela borders Brasile but not Africa del Nord.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from helpers import (
    ATTACK,
    MOVE,
    OVER,
    REINFORCE,
    T,
    arrange,
    finish_setup,
    give_cards,
    new_game,
    set_turn,
)
from risiko import rules
from risiko.actions import Attack, EndTurn, Fortify, Move
from risiko.dice import ScriptedChance
from risiko.game import Game, IllegalActionError
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU, Ruleset

SRC, DST = T("Brasile"), T("Africa del Nord")
SUPPORTERS = ["Egitto", "Congo", "Europa Occidentale"]


def duel(
    a: int,
    d: int,
    support: Sequence[int] = (),
    *,
    venezuela: int = 1,
    ruleset: Ruleset = CLUB_MILANO,
    dice: Sequence[int] = (),
) -> Game:
    """Seat 0 to attack, Brasile ``a`` armies against Africa del Nord ``d``; ``support``:
    armies of seat 0 on Egitto, Congo, Europa Occidentale (they border the target)."""
    game = new_game(5, ruleset=ruleset)
    finish_setup(game)
    spec: dict[str | int, tuple[int, int]] = {
        "Brasile": (0, a), "Venezuela": (0, venezuela), "Africa del Nord": (1, d),
        "Alaska": (2, 1), "Islanda": (3, 1),
    }
    for name, armies in zip(SUPPORTERS, support, strict=False):
        spec[name] = (0, armies)
    arrange(game, spec, rest=4)
    set_turn(game, 0)
    game.chance = ScriptedChance(dice)
    return game


def dice_for(n: int) -> tuple[int, ...]:
    return (3,) * n


# ------------------------------------------------------------------------ R7 / R8


def test_the_random_draw_of_an_attack_is_uniform_among_the_legal_ones() -> None:
    """Seat 0: Brasile 5, Argentina 2; seat 1: Venezuela 1, Perù 6, Africa del Nord 2; the
    rest seat 2 with 1 army. Brasile (3 dice) on Venezuela: 5 bordering > 1, legal; on
    Africa del Nord: 5 > 2, legal; on Perù: Brasile 5 + Argentina 2 = 7 > 6 (R8 met) and 3
    dice v 3, legal. Argentina (1 die) on Perù (3 dice): R7 forbids it."""
    game = new_game(5)
    finish_setup(game)
    arrange(game, {"Brasile": (0, 5), "Argentina": (0, 2), "Venezuela": (1, 1),
                   "Perù": (1, 6), "Africa del Nord": (1, 2)}, rest=2)
    set_turn(game, 0)
    legal = {(SRC, T("Venezuela")), (SRC, DST), (SRC, T("Perù"))}
    assert set(game.legal_attacks()) == legal
    rng = random.Random(1)
    drawn = Counter(rules.sample_attack(game.state, rng.random) for _ in range(3000))
    assert set(drawn) == legal
    assert all(900 <= n <= 1100 for n in drawn.values())  # 1000 each, seeded
    # Perù with 7: 7 bordering do not outnumber 7 (R8): two attacks left, still uniform
    game.state.armies[T("Perù")] = 7
    game.state.totals[1] += 1
    drawn = Counter(rules.sample_attack(game.state, rng.random) for _ in range(2000))
    assert set(drawn) == {(SRC, T("Venezuela")), (SRC, DST)}
    assert all(900 <= n <= 1100 for n in drawn.values())
    # Brasile down to 1: nothing left to draw
    game.state.armies[SRC] = 1
    game.state.totals[0] -= 4
    assert game.legal_attacks() == [] and rules.sample_attack(game.state, rng.random) is None


@pytest.mark.parametrize(
    ("a", "d", "support", "legal", "clause"),
    [
        (1, 1, [], False, ""),  # one army cannot attack
        (2, 1, [], True, ""),  # 1 die v 1; 2 > 1
        (2, 2, [], False, "R7"),  # 1 die v 2
        (2, 2, [9], False, "R7"),  # support does not add dice
        (3, 2, [], True, ""),  # 2 v 2; 3 > 2
        (3, 3, [], False, "R7"),  # 2 v 3
        (3, 3, [9, 9], False, "R7"),
        (4, 3, [], True, ""),  # 3 v 3; 4 > 3
        (4, 4, [], False, "R8"),  # 3 v 3; 4 = 4: parity
        (4, 4, [1], True, ""),  # 4 + 1 = 5 > 4
        (4, 5, [1], False, "R8"),  # 5 = 5
        (6, 7, [1], False, "R8"),  # 7 = 7
        (6, 7, [2], True, ""),  # 8 > 7
        (6, 9, [2, 2], True, ""),  # 6 + 2 + 2 = 10 > 9
        (10, 9, [], True, ""),  # 10 > 9
        (10, 10, [], False, "R8"),  # parity, and 10 is not more than 10
        (11, 11, [], True, ""),  # parity allowed: more than 10 on the attacking territory
        (11, 18, [], True, ""),  # the regulation's example: 18 defending, 11 may attack
        (10, 18, [], False, "R8"),  # ... 10 may not
        (10, 18, [8], False, "R8"),  # 18 = 18
        (10, 18, [9], True, ""),  # 19 > 18
        (10, 18, [4, 5], True, ""),  # 10 + 4 + 5 = 19 > 18
        (10, 18, [3, 3, 2], False, "R8"),  # 10 + 3 + 3 + 2 = 18; Venezuela's 7 do not count
        (30, 60, [], True, ""),  # inferiority with more than 10 armies: 3 v 3
    ],
)
def test_r7_r8_legality(
    a: int, d: int, support: list[int], legal: bool, clause: str
) -> None:
    game = duel(a, d, support, venezuela=7)
    fault = game.attack_fault(SRC, DST)
    assert (fault is None) == legal, fault
    assert game.can_attack(SRC, DST) == legal
    assert ((SRC, DST) in game.legal_attacks()) == legal
    if clause:
        assert fault is not None and fault.clause == clause
    if not legal:
        na, nd = max(1, min(3, a - 1)), min(3, d)
        with pytest.raises(IllegalActionError):
            game.push(Attack(SRC, DST, dice_for(na), dice_for(nd)))
        assert game.armies[SRC] == a and game.armies[DST] == d
        assert game.history[-1:] != [Attack(SRC, DST, dice_for(na), dice_for(nd))]


def test_r8_support_is_the_sum_of_all_own_territories_bordering_the_target() -> None:
    game = duel(4, 4, [2, 3, 5], venezuela=9)
    # Brasile 4 + Egitto 2 + Congo 3 + Europa Occidentale 5; Venezuela does not border
    assert game.bordering(0, DST) == 14
    assert game.bordering(0, T("Argentina")) == 4  # Brasile only (Perù is seat 4's)


def test_r8_a_territory_bordering_only_the_source_does_not_help() -> None:
    game = duel(4, 4, [], venezuela=30)
    assert not game.can_attack(SRC, DST)


def test_legal_attacks_lists_exactly_the_legal_pairs() -> None:
    game = duel(5, 3, [2, 1])
    expected = {
        (s, t)
        for s in range(42)
        for t in range(42)
        if game.owner[s] == 0
        and game.owner[t] != 0
        and game.neighbours[s] >> t & 1
        and game.attack_fault(s, t) is None
    }
    assert set(game.legal_attacks()) == expected
    assert (SRC, DST) in expected
    # Egitto (2) on Africa del Nord (3): 1 die v 3 -> R7
    assert (T("Egitto"), DST) not in expected


@pytest.mark.parametrize(
    ("a", "d", "na", "nd"),
    [
        (2, 1, 1, 1),
        (3, 1, 2, 1),
        (4, 1, 3, 1),
        (9, 1, 3, 1),
        (3, 2, 2, 2),
        (5, 2, 3, 2),
        (4, 3, 3, 3),
        (20, 30, 3, 3),
    ],
)
def test_r8_always_the_maximum_dice(a: int, d: int, na: int, nd: int) -> None:
    game = duel(a, d)
    wrong = []
    if na > 1:
        wrong.append(Attack(SRC, DST, dice_for(na - 1), dice_for(nd)))
    if na < 3:
        wrong.append(Attack(SRC, DST, dice_for(na + 1), dice_for(nd)))
    if nd > 1:
        wrong.append(Attack(SRC, DST, dice_for(na), dice_for(nd - 1)))
    if nd < 3:
        wrong.append(Attack(SRC, DST, dice_for(na), dice_for(nd + 1)))
    for action in wrong:
        with pytest.raises(IllegalActionError):
            game.push(action)
    assert game.armies[SRC] == a and game.armies[DST] == d
    # the game's own dice: exactly na + nd are drawn
    game.chance = ScriptedChance([6] * na + [6] * nd + [1] * 10)
    recorded = game.push(Attack(SRC, DST))
    assert isinstance(recorded, Attack)
    assert recorded.attacker_dice == (6,) * na
    assert recorded.defender_dice == (6,) * nd
    assert isinstance(game.chance, ScriptedChance) and game.chance.dice_left == 10
    assert game.armies[SRC] == a - min(na, nd)  # ties to the defender


@pytest.mark.parametrize("bad", [(7, 1, 1), (0, 3, 3), (6, 5, -1)])
def test_a_die_shows_one_to_six(bad: tuple[int, int, int]) -> None:
    game = duel(5, 3)
    with pytest.raises(IllegalActionError):
        game.push(Attack(SRC, DST, bad, (1, 1, 1)))
    with pytest.raises(IllegalActionError):
        game.push(Attack(SRC, DST, (1, 1, 1), bad))


# ------------------------------------------------------------------------ dice


@pytest.mark.parametrize(
    ("a", "d", "att", "dfn", "att_loss", "def_loss"),
    [
        (2, 1, (6,), (5,), 0, 1),
        (2, 1, (5,), (5,), 1, 0),  # tie to the defender
        (2, 1, (1,), (1,), 1, 0),
        (3, 2, (6, 5), (6, 4), 1, 1),  # 6=6 defender, 5>4 attacker
        (3, 2, (2, 6), (5, 1), 0, 2),  # any order: 6>5, 2>1
        (10, 2, (6, 5, 4), (5, 5), 1, 1),  # 6>5, 5=5; the third die is not compared
        (10, 2, (6, 1, 1), (5, 5), 1, 1),
        (10, 2, (1, 1, 6), (6, 6), 2, 0),
        (10, 5, (6, 5, 4), (5, 4, 3), 0, 3),
        (10, 5, (4, 4, 4), (4, 4, 4), 3, 0),
        (10, 5, (3, 5, 6), (4, 5, 2), 0, 3),  # sorted: 6>5, 5>4, 3>2
        (10, 5, (6, 5, 2), (6, 1, 2), 1, 2),  # 6=6, 5>2, 2>1
        (4, 1, (2, 2, 1), (3,), 1, 0),  # one comparison only
    ],
)
def test_dice_highest_against_highest_ties_to_the_defender(
    a: int, d: int, att: tuple[int, ...], dfn: tuple[int, ...], att_loss: int, def_loss: int
) -> None:
    game = duel(a, d)
    totals = list(game.totals)
    recorded = game.push(Attack(SRC, DST, att, dfn))
    assert isinstance(recorded, Attack)
    # dice are recorded as entered (a referee checks them); compared sorted
    assert recorded.attacker_dice == att
    assert recorded.defender_dice == dfn
    assert game.totals[0] == totals[0] - att_loss
    assert game.totals[1] == totals[1] - def_loss
    if def_loss < d:
        assert game.armies[SRC] == a - att_loss
        assert game.armies[DST] == d - def_loss
        assert game.owner[DST] == 1
    game.check_invariants()


def test_scripted_chance_gives_attacker_then_defender_dice() -> None:
    game = duel(10, 5, dice=[2, 6, 4, 5, 5, 1])
    recorded = game.push(Attack(SRC, DST))
    assert recorded == Attack(SRC, DST, (2, 6, 4), (5, 5, 1))  # as rolled
    # 6>5 defender loses, 4<5 attacker, 2>1 defender
    assert (game.armies[SRC], game.armies[DST]) == (9, 3)
    assert game.history[-1] == recorded


# ------------------------------------------------------------------------ before every roll


def test_r7_checked_again_after_a_roll() -> None:
    game = duel(5, 4)  # 3 v 3, 5 > 4
    game.push(Attack(SRC, DST, (1, 1, 1), (6, 6, 6)))
    assert (game.armies[SRC], game.armies[DST]) == (2, 4)
    fault = game.attack_fault(SRC, DST)
    assert fault is not None and fault.clause == "R7"  # 1 die v 3
    with pytest.raises(IllegalActionError):
        game.push(Attack(SRC, DST, (6,), (1, 1, 1)))


def test_r8_checked_again_after_a_roll() -> None:
    game = duel(7, 5)  # 3 v 3, 7 > 5
    game.push(Attack(SRC, DST, (1, 1, 6), (6, 6, 5)))  # 6=6, 1<6, 1<5: attacker loses 3
    assert (game.armies[SRC], game.armies[DST]) == (4, 5)
    fault = game.attack_fault(SRC, DST)
    assert fault is not None and fault.clause == "R8"
    with pytest.raises(IllegalActionError):
        game.push(Attack(SRC, DST, (6, 6, 6), (1, 1, 1)))


def test_r8_waiver_lost_when_the_attacking_territory_falls_to_ten() -> None:
    game = duel(12, 14)  # inferiority, allowed: 12 > 10
    assert game.can_attack(SRC, DST)
    game.push(Attack(SRC, DST, (1, 1, 1), (6, 6, 6)))  # 9 v 14
    assert not game.can_attack(SRC, DST)
    game.push(Fortify(T("Brasile"), T("Venezuela"), 1))  # the turn can still end


# ------------------------------------------------------------------------ R6


def r6_position(ruleset: Ruleset) -> Game:
    game = new_game(5, ruleset=ruleset)
    finish_setup(game)
    arrange(
        game,
        {
            "Medio Oriente": (0, 9), "Egitto": (1, 1), "Europa Meridionale": (1, 1),
            "Alaska": (2, 1), "Islanda": (3, 1),
        },
        rest=4,
    )
    set_turn(game, 0)
    return game


def test_r6_medio_oriente_egitto_refused_on_the_club_board() -> None:
    game = r6_position(CLUB_MILANO)
    assert not game.can_attack(T("Medio Oriente"), T("Egitto"))
    assert (T("Medio Oriente"), T("Egitto")) not in game.legal_attacks()
    with pytest.raises(IllegalActionError):
        game.push(Attack(T("Medio Oriente"), T("Egitto"), (6, 6, 6), (1,)))
    assert game.can_attack(T("Medio Oriente"), T("Europa Meridionale"))
    # and the other way round
    arrange(game, {"Egitto": (0, 9), "Medio Oriente": (1, 1), "Alaska": (2, 1),
                   "Islanda": (3, 1)}, rest=4)
    assert not game.can_attack(T("Egitto"), T("Medio Oriente"))


@pytest.mark.parametrize("ruleset", [CLASSIC, RTU])
def test_r6_medio_oriente_egitto_allowed_on_the_official_board(ruleset: Ruleset) -> None:
    game = r6_position(ruleset)
    game.push(Attack(T("Medio Oriente"), T("Egitto"), (6, 6, 6), (1,)))
    assert game.owner[T("Egitto")] == 0


@pytest.mark.parametrize("ruleset", [CLASSIC, RTU])
def test_no_r7_r8_outside_the_club(ruleset: Ruleset) -> None:
    assert duel(2, 3, ruleset=ruleset).can_attack(SRC, DST)  # 1 die v 3
    assert duel(4, 9, ruleset=ruleset).can_attack(SRC, DST)  # 4 v 9
    assert not duel(1, 1, ruleset=ruleset).can_attack(SRC, DST)


# ------------------------------------------------------------------------ other faults


def test_attack_faults() -> None:
    game = duel(5, 1)
    recorded = len(game.history)
    cases = [
        (T("Africa del Nord"), SRC),  # from an enemy territory
        (SRC, T("Venezuela")),  # on an own territory
        (SRC, T("Alaska")),  # not adjacent
        (T("Venezuela"), T("America Centrale")),  # Venezuela has 1 army
    ]
    for s, t in cases:
        assert game.attack_fault(s, t) is not None
        with pytest.raises(IllegalActionError):
            game.push(Attack(s, t, (6,), (1,)))
    with pytest.raises(IllegalActionError):
        game.push(Attack(99, 1))
    assert len(game.history) == recorded


# ------------------------------------------------------------------------ conquest


@pytest.mark.parametrize(
    ("a", "att", "src_after", "dst_after", "move_range"),
    [
        (2, (6,), 1, 1, None),  # 1 die: 1 moves, nothing more can
        (3, (6, 1), 1, 2, None),  # 2 dice: 2 move
        (4, (6, 1, 1), 1, 3, None),  # 3 dice: 3 move
        (5, (6, 1, 1), 2, 3, (3, 4)),  # 3 move, 1 more may
        (10, (6, 2, 1), 7, 3, (3, 9)),
    ],
)
def test_conquest_moves_at_least_the_dice_of_the_last_roll(
    a: int,
    att: tuple[int, ...],
    src_after: int,
    dst_after: int,
    move_range: tuple[int, int] | None,
) -> None:
    game = duel(a, 1)
    game.push(Attack(SRC, DST, att, (5,)))
    assert game.owner[DST] == 0
    assert game.armies[SRC] == src_after and game.armies[DST] == dst_after
    game.check_invariants()
    if move_range is None:
        assert game.phase == ATTACK
        return
    assert game.phase == MOVE
    least, most = move_range
    for bad in (least - 1, most + 1):
        with pytest.raises(IllegalActionError):
            game.push(Move(bad))
    for bad_action in (EndTurn(), Attack(SRC, T("Argentina"))):
        with pytest.raises(IllegalActionError):
            game.push(bad_action)
    game.push(Move(most))
    assert game.armies[SRC] == 1 and game.armies[DST] == most
    assert game.phase == ATTACK
    game.check_invariants()


def test_conquest_minimum_is_the_last_roll_not_the_first() -> None:
    game = duel(4, 2)
    game.push(Attack(SRC, DST, (6, 1, 1), (5, 5)))  # one each: 3 v 1
    assert (game.armies[SRC], game.armies[DST]) == (3, 1)
    game.push(Attack(SRC, DST, (6, 1), (5,)))  # 2 dice now
    assert game.owner[DST] == 0
    assert (game.armies[SRC], game.armies[DST]) == (1, 2)
    assert game.phase == ATTACK


def test_move_between_minimum_and_all_but_one() -> None:
    game = duel(8, 1)
    game.push(Attack(SRC, DST, (6, 6, 6), (1,)))
    assert (game.armies[SRC], game.armies[DST]) == (5, 3)
    game.push(Move(5))
    assert (game.armies[SRC], game.armies[DST]) == (3, 5)


def test_no_move_outside_a_conquest() -> None:
    game = duel(8, 3)
    with pytest.raises(IllegalActionError):
        game.push(Move(1))


def test_risiko_ends_the_game_at_once() -> None:
    # objective 13 (Guerra Fredda): Nord America + Asia. Seat 0 holds all but Giappone.
    game = new_game(5, objectives=[13, 1, 2, 3, 4])
    finish_setup(game)
    spec: dict[str | int, tuple[int, int]] = {t: (0, 1) for t in range(0, 9)}
    spec.update({t: (0, 1) for t in range(26, 38)})
    spec["Kamchatka"] = (0, 5)
    spec["Giappone"] = (1, 1)
    spec.update({"Venezuela": (1, 1), "Islanda": (2, 1), "Congo": (3, 1)})
    arrange(game, spec, rest=4)
    set_turn(game, 0)
    game.push(Attack(T("Kamchatka"), T("Giappone"), (6, 5, 4), (3,)))
    assert game.phase == OVER and game.over and game.to_act is None
    assert game.outcome is not None
    assert game.outcome.end == "risiko"
    assert game.outcome.winner == "Anna"
    scores = game.scores()
    assert scores[0].score == 100 and scores[0].risiko
    # seat 1 (objective 1, Letto) holds only Venezuela: in its objective (Sud America): 4
    assert scores[1].score == 4
    with pytest.raises(IllegalActionError):
        game.push(EndTurn())


# ------------------------------------------------------------------------ elimination


def test_elimination_skips_the_seat_and_passes_its_cards() -> None:
    game = duel(6, 1)
    # seat 1 holds only Africa del Nord
    assert game.owned[1] == 1 << DST
    give_cards(game, 1, [T("Alaska"), 42])
    give_cards(game, 0, [T("Quebec")])
    game.push(Attack(SRC, DST, (6, 6, 6), (1,)))
    assert game.status[1] == "eliminated"
    assert game.hands[1] == []
    assert sorted(game.hands[0]) == sorted([T("Quebec"), T("Alaska"), 42])
    assert 1 not in game.in_play
    game.push(Move(3))
    game.push(EndTurn())
    assert game.seat == 2  # seat 1 is skipped
    assert game.phase == REINFORCE
    assert game.scores()[1].score == 0
    game.check_invariants()
