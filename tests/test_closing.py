"""The closing dice of R2: bands, per-roll and per-round probabilities."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from risiko.closing import (
    closes,
    closing_band,
    closing_probability,
    closing_round_table,
    closing_ways,
    p_closing_sum,
    p_game_closes_in_round,
)
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU


def test_two_dice_sums() -> None:
    assert [closing_ways(s) for s in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert closing_ways(1) == 0 and closing_ways(13) == 0
    assert p_closing_sum(4) == pytest.approx(3 / 36)
    assert p_closing_sum(7) == pytest.approx(6 / 36)
    assert sum(p_closing_sum(s) for s in range(2, 13)) == pytest.approx(1.0)


def test_club_bands() -> None:
    assert closing_band(CLUB_MILANO, 1) == (4, 4)
    assert closing_band(CLUB_MILANO, 2) == (4, 5)
    assert closing_band(CLUB_MILANO, 3) == (4, 6)
    assert closing_band(CLUB_MILANO, 4) == (4, 7)
    with pytest.raises(ValueError):
        closing_band(CLUB_MILANO, 0)


@pytest.mark.parametrize(
    ("k", "ways"), [(1, 3), (2, 7), (3, 12), (4, 18), (5, 23), (6, 27), (9, 33), (20, 33)]
)
def test_club_closing_probability(k: int, ways: int) -> None:
    # sums 4.., by hand: 3, +4, +5, +6, +5 (8), +4 (9), ... up to 12: 36 - 1 - 2 = 33
    assert closing_probability(CLUB_MILANO, k) == pytest.approx(ways / 36)


def test_rtu_closing() -> None:
    # RTU: 2..4 widening to 2..7
    assert closing_probability(RTU, 1) == pytest.approx(6 / 36)
    assert closing_probability(RTU, 4) == pytest.approx(21 / 36)
    assert closing_probability(RTU, 10) == pytest.approx(21 / 36)
    assert closes(RTU, 1, 2)
    assert not closes(CLUB_MILANO, 10, 2)


def test_closes() -> None:
    assert closes(CLUB_MILANO, 1, 4)
    assert not closes(CLUB_MILANO, 1, 5)
    assert closes(CLUB_MILANO, 2, 5)
    assert not closes(CLUB_MILANO, 3, 3)
    assert closes(CLUB_MILANO, 4, 7)
    assert not closes(CLUB_MILANO, 4, 8)
    with pytest.raises(ValueError):
        closes(CLUB_MILANO, 1, 13)
    with pytest.raises(ValueError):
        closes(CLUB_MILANO, 1, 1)


def test_round_table() -> None:
    ((s, p),) = closing_round_table(CLUB_MILANO, 1)
    assert s == 4 and p == pytest.approx(3 / 36)
    table = closing_round_table(CLUB_MILANO, 3)
    assert [s for s, _ in table] == [4, 5, 6]
    assert [p for _, p in table] == pytest.approx([3 / 36, 4 / 36, 5 / 36])
    # past 12 the band holds only possible sums
    assert [s for s, _ in closing_round_table(CLUB_MILANO, 30)] == list(range(4, 13))


def test_game_closes_in_round() -> None:
    assert p_game_closes_in_round(CLUB_MILANO, 1, 1) == pytest.approx(3 / 36)
    assert p_game_closes_in_round(CLUB_MILANO, 1, 5) == pytest.approx(1 - (33 / 36) ** 5)
    assert p_game_closes_in_round(CLUB_MILANO, 4, 2) == pytest.approx(1 - (1 / 2) ** 2)
    assert p_game_closes_in_round(CLUB_MILANO, 2, 0) == 0.0
    with pytest.raises(ValueError):
        p_game_closes_in_round(CLUB_MILANO, 1, -1)


@given(k=st.integers(1, 30), rollers=st.integers(0, 6))
def test_table_consistent(k: int, rollers: int) -> None:
    for rs in (CLUB_MILANO, RTU, CLASSIC):
        table = closing_round_table(rs, k)
        assert sum(p for _, p in table) == pytest.approx(closing_probability(rs, k))
        assert {s for s, _ in table} == {s for s in range(2, 13) if closes(rs, k, s)}
        # the band only widens
        assert closing_probability(rs, k + 1) >= closing_probability(rs, k)
        p_round = p_game_closes_in_round(rs, k, rollers)
        assert 0.0 <= p_round <= 1.0
        assert p_game_closes_in_round(rs, k, rollers + 1) >= p_round
