"""The closing dice ("dadi di chiusura", RULES.md R2).

After the LAST round each seat still in play, at the end of its own turn, rolls two dice; the
game ends when the sum falls in the band of the current closing round ``k`` (1-based): under
the club regulation round 1 closes on 4, round 2 on 4-5, round 3 on 4-6, round 4 on 4-7, and
so on (``Ruleset.closing_band``). A seat that conquered ``closing_skip_if_conquered`` (3) or
more territories in that turn does not roll; a penalised seat still rolls (R12).

Units: sums of two six-sided dice (2..12); probabilities are floats in [0, 1], computed from
exact counts out of 36.
"""

from __future__ import annotations

from .ruleset import Ruleset

#: lowest and highest sum of two dice
MIN_SUM = 2
MAX_SUM = 12
#: equally likely outcomes of two dice
OUTCOMES = 36


def closing_band(ruleset: Ruleset, k: int) -> tuple[int, int]:
    """The (lowest, highest) closing sums of closing round ``k`` (1-based, R2).

    Delegates to :meth:`Ruleset.closing_band`; club-milano: k=1 -> (4, 4), k=2 -> (4, 5).
    The high end may exceed 12 for late rounds (every sum from the low end then closes).
    Raises ValueError for k < 1.
    """
    return ruleset.closing_band(k)


def closing_ways(s: int) -> int:
    """Ways (out of 36) two dice sum to ``s``: 1 for 2 and 12, ..., 6 for 7; 0 off 2..12."""
    if s < MIN_SUM or s > MAX_SUM:
        return 0
    return 6 - abs(s - 7)


def p_closing_sum(s: int) -> float:
    """Probability that two dice sum to ``s``: ``closing_ways(s) / 36`` (0 off 2..12)."""
    return closing_ways(s) / OUTCOMES


def closing_round_table(ruleset: Ruleset, k: int) -> list[tuple[int, float]]:
    """The sums that close in closing round ``k``, each with its probability.

    ``[(sum, p), ...]`` in increasing sum, only possible sums (2..12) inside the band.
    Club-milano k=2: ``[(4, 3/36), (5, 4/36)]``. Raises ValueError for k < 1.
    """
    low, high = closing_band(ruleset, k)
    return [
        (s, p_closing_sum(s)) for s in range(max(low, MIN_SUM), min(high, MAX_SUM) + 1)
    ]


def closing_probability(ruleset: Ruleset, k: int) -> float:
    """Probability that ONE roll of two dice closes the game in closing round ``k`` (R2).

    Club-milano: k=1 -> 3/36, k=2 -> 7/36, k=3 -> 12/36, k=4 -> 18/36, k=5 -> 24/36.
    Raises ValueError for k < 1.
    """
    low, high = closing_band(ruleset, k)
    ways = sum(closing_ways(s) for s in range(max(low, MIN_SUM), min(high, MAX_SUM) + 1))
    return ways / OUTCOMES


def closes(ruleset: Ruleset, k: int, total: int) -> bool:
    """True when a roll summing to ``total`` ends the game in closing round ``k`` (R2).

    Raises ValueError for k < 1 or a ``total`` two dice cannot show (outside 2..12).
    """
    if total < MIN_SUM or total > MAX_SUM:
        raise ValueError(f"two dice sum to {MIN_SUM}..{MAX_SUM}, got {total}")
    low, high = closing_band(ruleset, k)
    return low <= total <= high


def p_game_closes_in_round(ruleset: Ruleset, k: int, rollers: int) -> float:
    """Probability that closing round ``k`` ends the game, given the game reaches it.

    ``rollers`` is the number of seats that actually roll in that closing round: the seats
    still in play (R2, R13) less those that conquered ``closing_skip_if_conquered`` or more
    territories in their turn (penalised seats still roll, R12). The rolls are independent,
    so the round closes unless every roller misses: ``1 - (1 - p) ** rollers`` with
    ``p = closing_probability(ruleset, k)``. That the round stops at the first closing roll
    does not change this probability. ``rollers == 0`` gives 0 (nobody rolls; the game goes
    on to round ``k + 1``). Example, club-milano, 5 rollers: k=1 -> 1 - (33/36)^5 = 0.353.
    Raises ValueError for k < 1 or rollers < 0.
    """
    if rollers < 0:
        raise ValueError(f"rollers is a number of seats (>= 0), got {rollers}")
    p = closing_probability(ruleset, k)
    return 1.0 - (1.0 - p) ** rollers
