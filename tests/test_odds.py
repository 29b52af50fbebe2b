"""Attack odds (R7, R8): single-roll counts by hand, legality, whole-attack distributions."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from risiko.odds import (
    AttackOdds,
    attack_is_legal,
    attack_odds,
    attacker_dice,
    defender_dice,
    illegal_reason,
    odds_table,
    roll_counts,
    roll_outcomes,
)
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU, Ruleset

# --- single rolls, by hand -------------------------------------------------------------


def test_one_die_against_one() -> None:
    # attacker wins when his die is strictly higher: sum_{a=1..6} (a-1) = 15 of 36
    assert roll_counts(1, 1) == ((0, 15), (1, 21))
    assert roll_outcomes(1, 1) == pytest.approx({0: 15 / 36, 1: 21 / 36})


def test_three_dice_against_two() -> None:
    # the classic table: defender loses 2 / each loses 1 / attacker loses 2, out of 6^5
    assert roll_counts(3, 2) == ((0, 2890), (1, 2611), (2, 2275))
    assert 2890 + 2611 + 2275 == 6**5
    out = roll_outcomes(3, 2)
    assert out[1] == pytest.approx(2611 / 7776)
    assert out[2] == pytest.approx(2275 / 7776)
    assert out[0] == pytest.approx(2890 / 7776)


def test_three_dice_against_one() -> None:
    # defender die v: attacker wins unless all three dice <= v: 1 - sum_v v^3 / 6^4
    # = 1 - 441/1296 = 855/1296
    assert roll_counts(3, 1) == ((0, 855), (1, 441))
    assert sum(v**3 for v in range(1, 7)) == 441


def test_two_dice_against_one() -> None:
    # attacker loses iff both dice <= v: sum v^2 = 91 of 216
    assert roll_counts(2, 1) == ((0, 125), (1, 91))


def test_one_die_against_two() -> None:
    # attacker wins iff his die beats the defender's highest: sum_{a} (a-1)^2 = 55 of 216
    assert roll_counts(1, 2) == ((0, 55), (1, 161))


@cache
def _brute(i: int, j: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for roll in product(range(1, 7), repeat=i + j):
        att = sorted(roll[:i], reverse=True)
        dfn = sorted(roll[i:], reverse=True)
        lost = sum(att[k] <= dfn[k] for k in range(min(i, j)))
        out[lost] = out.get(lost, 0) + 1
    return out


@pytest.mark.parametrize("i", [1, 2, 3])
@pytest.mark.parametrize("j", [1, 2, 3])
def test_roll_counts_match_plain_enumeration(i: int, j: int) -> None:
    assert dict(roll_counts(i, j)) == _brute(i, j)
    assert sum(roll_outcomes(i, j).values()) == pytest.approx(1.0)


def test_roll_counts_rejects_bad_dice() -> None:
    with pytest.raises(ValueError):
        roll_counts(0, 1)
    with pytest.raises(ValueError):
        roll_counts(4, 1)


# --- dice and legality (R7, R8) --------------------------------------------------------


def test_dice_counts() -> None:
    assert [attacker_dice(a) for a in (1, 2, 3, 4, 20)] == [0, 1, 2, 3, 3]
    assert [defender_dice(d) for d in (1, 2, 3, 4, 20)] == [1, 2, 3, 3, 3]


def test_club_legality_examples() -> None:
    # R7: 1 die against 2
    assert not attack_is_legal(2, 2, CLUB_MILANO)
    assert "R7" in (illegal_reason(2, 2, CLUB_MILANO) or "")
    # R8 example of the regulation: defender 18, a single attacking territory needs 11
    assert attack_is_legal(11, 18, CLUB_MILANO)
    assert not attack_is_legal(10, 18, CLUB_MILANO)
    assert "R8" in (illegal_reason(10, 18, CLUB_MILANO) or "")
    # parity: 5 v 5 illegal, one more bordering army makes it legal
    assert not attack_is_legal(5, 5, CLUB_MILANO)
    assert attack_is_legal(5, 5, CLUB_MILANO, support=1)
    # R7 still applies whatever the support: 3 armies roll 2 dice against 3
    assert not attack_is_legal(3, 3, CLUB_MILANO, support=10)
    assert attack_is_legal(4, 3, CLUB_MILANO)
    assert not attack_is_legal(1, 1, CLUB_MILANO)
    assert illegal_reason(4, 3, CLUB_MILANO) is None


def test_classic_has_no_r7_r8() -> None:
    assert attack_is_legal(2, 3, CLASSIC)
    assert attack_is_legal(5, 30, CLASSIC)
    assert not attack_is_legal(1, 1, CLASSIC)


# --- whole attacks ---------------------------------------------------------------------


def test_classic_two_against_one() -> None:
    o = attack_odds(2, 1, CLASSIC)
    assert o.legal_at_start
    assert o.p_conquer == pytest.approx(15 / 36)
    assert dict(o.distribution) == pytest.approx({(2, 0): 15 / 36, (1, 1): 21 / 36})


def test_club_two_against_two_is_illegal() -> None:
    o = attack_odds(2, 2, CLUB_MILANO)
    assert not o.legal_at_start
    assert o.p_conquer == 0
    assert o.distribution == (((2, 2), 1.0),)
    assert o.expected_attacker_losses == 0 and o.expected_defender_losses == 0


def test_club_eleven_against_eighteen_is_legal() -> None:
    o = attack_odds(11, 18, CLUB_MILANO)
    assert o.legal_at_start
    assert 0 < o.p_conquer < 0.01
    # 3 dice v 3. Any loss leaves 10 or fewer armies against more than 10: the attack
    # stops at once. Only a roll costing the attacker nothing (6420/46656) goes on.
    t = 46656
    assert o.probability(10, 16) == pytest.approx(10017 / t)
    assert o.probability(9, 17) == pytest.approx(12348 / t)
    assert o.probability(8, 18) == pytest.approx(17871 / t)


def test_club_five_against_five() -> None:
    assert attack_odds(5, 5, CLUB_MILANO).p_conquer == 0
    with_support = attack_odds(5, 5, CLUB_MILANO, support=1)
    assert with_support.legal_at_start
    assert with_support.p_conquer > 0


def test_club_three_against_one_by_hand() -> None:
    # 3 armies v 1: 2 dice v 1. Win 125/216 -> conquest with 3 left. Lose 91/216 -> (2, 1):
    # 1 die v 1 (legal: parity of dice, 2 > 1): win 15/36 -> (2, 0), else (1, 1).
    o = attack_odds(3, 1, CLUB_MILANO)
    p_win = Fraction(125, 216)
    p_lose = Fraction(91, 216)
    assert o.probability(3, 0) == pytest.approx(float(p_win))
    assert o.probability(2, 0) == pytest.approx(float(p_lose * Fraction(15, 36)))
    assert o.probability(1, 1) == pytest.approx(float(p_lose * Fraction(21, 36)))
    assert o.p_conquer == pytest.approx(float(p_win + p_lose * Fraction(15, 36)))
    assert o.expected_defender_losses == pytest.approx(o.p_conquer)


def test_club_four_against_two_by_hand() -> None:
    # 4 v 2: 3 dice v 2. (4,0) 2890; (3,1) 2611 -> 2 dice v 1, legal (3 > 1);
    # (2,2) 2275 -> 1 die v 2 illegal by R7: stop.
    o = attack_odds(4, 2, CLUB_MILANO)
    t = Fraction(1, 7776)
    from_31 = {(3, 0): Fraction(125, 216), (2, 1): Fraction(91, 216)}
    # (2,1): 1 v 1 legal -> (2,0) 15/36, (1,1) 21/36
    exact = {
        (4, 0): 2890 * t,
        (3, 0): 2611 * t * from_31[(3, 0)],
        (2, 0): 2611 * t * from_31[(2, 1)] * Fraction(15, 36),
        (1, 1): 2611 * t * from_31[(2, 1)] * Fraction(21, 36),
        (2, 2): 2275 * t,
    }
    assert dict(o.distribution) == pytest.approx({k: float(v) for k, v in exact.items()})


def test_distribution_order_and_probability_lookup() -> None:
    o = attack_odds(6, 3, CLUB_MILANO)
    states = [s for s, _ in o.distribution]
    conquests = [s for s in states if s[1] == 0]
    assert states[: len(conquests)] == conquests
    assert [a for a, _ in conquests] == sorted((a for a, _ in conquests), reverse=True)
    assert o.probability(99, 99) == 0.0


def test_to_dict_is_json() -> None:
    o = attack_odds(4, 2, CLUB_MILANO)
    data = json.loads(json.dumps(o.to_dict()))
    assert set(data) == {
        "attacker", "defender", "p_conquer", "expected_attacker_losses",
        "expected_defender_losses", "distribution", "legal",
    }
    assert data["legal"] is True
    assert sum(row["p"] for row in data["distribution"]) == pytest.approx(1.0)
    assert set(data["distribution"][0]) == {"attacker_left", "defender_left", "p"}


def test_bad_inputs() -> None:
    with pytest.raises(ValueError):
        attack_odds(0, 3)
    with pytest.raises(ValueError):
        attack_odds(3, 0)
    with pytest.raises(ValueError):
        attack_odds(3, 3, support=-1)
    with pytest.raises(ValueError):
        odds_table(0)


def test_one_army_cannot_attack() -> None:
    o = attack_odds(1, 1, CLASSIC)
    assert not o.legal_at_start and o.distribution == (((1, 1), 1.0),)


# --- an independent exact oracle (Fractions, recursion) -------------------------------


def _exact(
    ruleset: Ruleset, support: int
) -> Callable[[int, int], dict[tuple[int, int], Fraction]]:
    @cache
    def dist(a: int, d: int) -> dict[tuple[int, int], Fraction]:
        if d == 0 or not attack_is_legal(a, d, ruleset, support):
            return {(a, d): Fraction(1)}
        i, j = attacker_dice(a), defender_dice(d)
        total = 6 ** (i + j)
        out: dict[tuple[int, int], Fraction] = {}
        for lost, ways in _brute(i, j).items():
            for state, p in dist(a - lost, d - (min(i, j) - lost)).items():
                out[state] = out.get(state, Fraction(0)) + Fraction(ways, total) * p
        return out

    return dist


@pytest.mark.parametrize(
    ("ruleset", "support"), [(CLUB_MILANO, 0), (CLUB_MILANO, 2), (CLASSIC, 0), (RTU, 0)]
)
def test_matches_exact_oracle(ruleset: Ruleset, support: int) -> None:
    dist = _exact(ruleset, support)
    for a in range(1, 13):
        for d in range(1, 13):
            o = attack_odds(a, d, ruleset, support)
            exact = dist(a, d)
            assert sum(exact.values()) == 1
            assert dict(o.distribution) == pytest.approx({k: float(v) for k, v in exact.items()})
            p_exact = sum((p for (_, y), p in exact.items() if y == 0), Fraction(0))
            assert o.p_conquer == pytest.approx(float(p_exact), abs=1e-12)


# --- the table ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "support"),
    [(CLUB_MILANO, 0), (CLUB_MILANO, 1), (CLUB_MILANO, 7), (CLASSIC, 0), (RTU, 3)],
)
def test_table_matches_attack_odds(ruleset: Ruleset, support: int) -> None:
    n = 25
    table = odds_table(n, ruleset, support)
    assert len(table) == n and all(len(row) == n for row in table)
    for a in range(1, n + 1):
        for d in range(1, n + 1):
            expected = attack_odds(a, d, ruleset, support).p_conquer
            assert table[a - 1][d - 1] == pytest.approx(expected, abs=1e-12), (a, d)


def test_table_hand_values() -> None:
    club = odds_table(12, CLUB_MILANO)
    assert club[0] == [0.0] * 12  # one army never attacks
    assert club[1][1] == 0.0  # R7
    assert club[4][4] == 0.0  # R8, 5 v 5
    assert club[10][11] > 0  # 11 v 12: a > 10
    classic = odds_table(3, CLASSIC)
    assert classic[1][0] == pytest.approx(15 / 36)
    assert classic[1][1] == pytest.approx((55 / 216) * (15 / 36))


def test_club_rule_r8_corner_rows() -> None:
    table = odds_table(30, CLUB_MILANO)
    # 10 armies attack only up to 9 defenders; 11 armies attack anything
    assert table[9][8] > 0 and table[9][9] == 0.0 and table[9][29] == 0.0
    assert all(p > 0 for p in table[10])


# --- properties -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 40), d=st.integers(1, 40), support=st.integers(0, 15),
       preset=st.sampled_from([CLUB_MILANO, CLASSIC, RTU]))
def test_distribution_sums_to_one(a: int, d: int, support: int, preset: Ruleset) -> None:
    o: AttackOdds = attack_odds(a, d, preset, support)
    assert sum(p for _, p in o.distribution) == pytest.approx(1.0, abs=1e-12)
    assert all(p >= 0 for _, p in o.distribution)
    assert o.p_conquer == pytest.approx(
        sum(p for (_, y), p in o.distribution if y == 0), abs=1e-12
    )
    assert o.expected_attacker_losses == pytest.approx(
        sum(p * (a - x) for (x, _), p in o.distribution), abs=1e-9
    )
    assert o.expected_defender_losses == pytest.approx(
        sum(p * (d - y) for (_, y), p in o.distribution), abs=1e-9
    )
    for (x, y), _ in o.distribution:
        assert 1 <= x <= a and 0 <= y <= d
        # a final state is a conquest or a state where the next roll is illegal
        assert y == 0 or not attack_is_legal(x, y, preset, support)


_CLASSIC_TABLE = odds_table(60, CLASSIC)


@settings(max_examples=100, deadline=None)
@given(a=st.integers(1, 59), d=st.integers(1, 60))
def test_classic_monotone_in_attacker(a: int, d: int) -> None:
    assert _CLASSIC_TABLE[a][d - 1] >= _CLASSIC_TABLE[a - 1][d - 1] - 1e-12
    assert attack_odds(a + 1, d, CLASSIC).p_conquer >= attack_odds(a, d, CLASSIC).p_conquer - 1e-12


@settings(max_examples=100, deadline=None)
@given(a=st.integers(1, 60), d=st.integers(1, 59))
def test_classic_monotone_in_defender(a: int, d: int) -> None:
    assert _CLASSIC_TABLE[a - 1][d] <= _CLASSIC_TABLE[a - 1][d - 1] + 1e-12
