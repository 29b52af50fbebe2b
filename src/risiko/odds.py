"""Exact odds of one attack: one attacking territory against one defending territory.

Rules applied (RULES.md R7, R8; standard RisiKo! otherwise):

- Dice (R8, "always the maximum dice"): the attacker rolls ``min(3, a - 1)`` dice, the
  defender ``min(3, d)``, where ``a`` and ``d`` are the armies on the two territories. The
  odds always use the maximum dice; ``Ruleset.max_dice_always`` is True in every preset, and
  with a free choice the odds would depend on a strategy this module does not model.
- One roll: both sides sort their dice, highest against highest; ``min(i, j)`` pairs are
  compared, each pair costs one army to the lower side, ties go to the defender.
- Legality, checked before EVERY roll (the attack stops as soon as it becomes illegal):
  ``a >= 2``; R7 (``Ruleset.dice_parity``): attacker dice >= defender dice; R8
  (``Ruleset.army_superiority``): ``a + support > d`` or ``a > superiority_waiver_above``
  (10 under the club regulation), where ``support`` is the sum of the attacker's armies on
  his OTHER territories bordering the target. Those armies do not take part in the attack,
  so ``support`` stays constant while it lasts.

Single-roll probabilities are exact: the ``6 ** (i + j)`` outcomes are enumerated once per
``(i, j)`` and counted as integers (:func:`roll_counts`); the chains over many rolls are then
computed with floats (relative error around 1e-15).

Units: armies (ints) and probabilities (floats in [0, 1]).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any, TypeAlias

from .attack import MAX_DICE, attack_fault, attacker_dice, defender_dice, is_legal
from .faults import Fault, InvalidInputError, define, define_words
from .ruleset import CLUB_MILANO, Ruleset

__all__ = [
    "MAX_ARMIES",
    "AttackOdds",
    "attack_is_legal",
    "attack_odds",
    "attacker_dice",
    "check_armies",
    "defender_dice",
    "illegal_fault",
    "illegal_reason",
    "odds_table",
    "roll_counts",
    "roll_outcomes",
]

BAD_DICE = define("odds.bad_dice", "", "dice must be 1 to 3 per side, got {attacker} v {defender}")
BAD_ARMIES = define(
    "odds.bad_armies", "", "the {side} territory holds at least 1 army, got {armies}"
)
BAD_SUPPORT = define(
    "odds.bad_support", "R8", "support is a number of armies (0 or more), got {support}"
)
BAD_TABLE = define("odds.bad_table", "", "the table needs n >= 1, got {n}")
#: which number is too big (``check_armies``'s names), said in the message's language
define_words("what", ("attacker", "defender", "support", "table"))
TOO_MANY_ARMIES = define("odds.too_many_armies", "",
                         "the odds are computed for at most {limit} armies, got {armies} "
                         "({what})")

#: most armies the odds are computed for (attacker, defender, support, or a table's n): the
#: cost grows as a * d and a printed table as n * n; the CLI and the web's attack check
#: share this limit
MAX_ARMIES = 400


def check_armies(**values: int) -> None:
    """Refuse (``InvalidInputError``, ``odds.too_many_armies``) any of ``values`` (a name:
    armies) above :data:`MAX_ARMIES`, before anything is computed.

    >>> check_armies(attacker=5, defender=400)
    >>> check_armies(table=99999)
    Traceback (most recent call last):
    ...
    risiko.faults.InvalidInputError: the odds are computed for at most 400 armies, got 99999 (table)
    """
    for what, armies in values.items():
        if armies > MAX_ARMIES:
            raise InvalidInputError(TOO_MANY_ARMIES(limit=MAX_ARMIES, armies=armies, what=what))

#: a state of the attack: (armies on the attacking territory, armies on the defending one)
State: TypeAlias = tuple[int, int]

#: faces of one die
DIE_FACES = 6


def illegal_fault(
    a: int, d: int, ruleset: Ruleset = CLUB_MILANO, support: int = 0
) -> Fault | None:
    """The fault that forbids a territory with ``a`` armies to roll against one with ``d``
    (None if it may): :func:`risiko.attack.attack_fault` with the R8 sum ``a + support``.
    ``support`` = the attacker's armies on his OTHER territories bordering the target."""
    return attack_fault(ruleset, a, d, a + support)


def illegal_reason(
    a: int, d: int, ruleset: Ruleset = CLUB_MILANO, support: int = 0
) -> str | None:
    """:func:`illegal_fault` in English words (None if the roll is legal)."""
    fault = illegal_fault(a, d, ruleset, support)
    return None if fault is None else fault.message("en")


def attack_is_legal(a: int, d: int, ruleset: Ruleset = CLUB_MILANO, support: int = 0) -> bool:
    """True when a territory with ``a`` armies may roll against one with ``d`` armies
    (at least 2 armies, R7, R8 with ``a + support`` bordering the target)."""
    return is_legal(ruleset, a, d, a + support)


@cache
def roll_counts(att_dice: int, def_dice: int) -> tuple[tuple[int, int], ...]:
    """Exact outcome counts of one roll of ``att_dice`` against ``def_dice`` dice.

    Returns ``((attacker_losses, ways), ...)`` sorted by losses, out of ``6 ** (att_dice +
    def_dice)`` equally likely outcomes (all of them enumerated; cached). The defender loses
    ``min(att_dice, def_dice) - attacker_losses``. Raises ValueError outside 1..3 dice.
    """
    if not (1 <= att_dice <= MAX_DICE and 1 <= def_dice <= MAX_DICE):
        raise InvalidInputError(BAD_DICE(attacker=att_dice, defender=def_dice))
    pairs = min(att_dice, def_dice)
    faces = range(1, DIE_FACES + 1)
    # Every one of the 6 ** i attacker rolls and 6 ** j defender rolls is enumerated; rolls
    # that sort to the same dice compare alike, so each side is grouped by its sorted dice
    # (with multiplicity) before the i x j pairing: the same exact counts, far fewer steps.
    att_sorted = Counter(tuple(sorted(r, reverse=True)) for r in product(faces, repeat=att_dice))
    def_sorted = Counter(tuple(sorted(r, reverse=True)) for r in product(faces, repeat=def_dice))
    counts = [0] * (pairs + 1)
    for att, n_att in att_sorted.items():
        for dfn, n_def in def_sorted.items():
            att_losses = sum(1 for k in range(pairs) if att[k] <= dfn[k])
            counts[att_losses] += n_att * n_def
    return tuple((k, n) for k, n in enumerate(counts) if n)


def roll_outcomes(att_dice: int, def_dice: int) -> dict[int, float]:
    """Probability of each attacker loss (armies) in one roll: ``{losses: p}``.

    The defender loses ``min(att_dice, def_dice) - losses``. Example: 1 die against 1 die,
    ``{0: 15/36, 1: 21/36}``; 3 against 2, ``{0: 2890/7776, 1: 2611/7776, 2: 2275/7776}``.
    """
    total = DIE_FACES ** (att_dice + def_dice)
    return {k: n / total for k, n in roll_counts(att_dice, def_dice)}


@cache
def _transitions(att_dice: int, def_dice: int) -> tuple[tuple[int, int, float], ...]:
    """``((attacker_losses, defender_losses, p), ...)`` of one roll."""
    pairs = min(att_dice, def_dice)
    return tuple((k, pairs - k, p) for k, p in roll_outcomes(att_dice, def_dice).items())


@dataclass(frozen=True)
class AttackOdds:
    """The result of an attack from ``attacker`` armies against ``defender`` armies.

    ``distribution`` holds every final state ``((attacker_left, defender_left), p)``:
    ``defender_left == 0`` is a conquest (the attacker still has ``attacker_left`` armies on
    the attacking territory, before moving in); otherwise the attack stopped because the next
    roll became illegal (``attacker_left == 1`` included). Sorted conquests first, then by
    armies left to the attacker, most first. The probabilities sum to 1.
    Expected losses are in armies. ``legal_at_start`` False means no roll at all:
    ``p_conquer == 0`` and ``distribution == (((attacker, defender), 1.0),)``.
    """

    attacker: int
    defender: int
    p_conquer: float
    expected_attacker_losses: float
    expected_defender_losses: float
    distribution: tuple[tuple[State, float], ...]
    legal_at_start: bool

    def probability(self, attacker_left: int, defender_left: int) -> float:
        """Probability that the attack ends in state ``(attacker_left, defender_left)``."""
        for state, p in self.distribution:
            if state == (attacker_left, defender_left):
                return p
        return 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``attacker``, ``defender``, ``p_conquer``, expected losses,
        ``distribution`` as ``[{"attacker_left", "defender_left", "p"}, ...]`` and ``legal``
        (= ``legal_at_start``)."""
        return {
            "attacker": self.attacker,
            "defender": self.defender,
            "p_conquer": self.p_conquer,
            "expected_attacker_losses": self.expected_attacker_losses,
            "expected_defender_losses": self.expected_defender_losses,
            "distribution": [
                {"attacker_left": a, "defender_left": d, "p": p}
                for (a, d), p in self.distribution
            ],
            "legal": self.legal_at_start,
        }


def _check_inputs(a: int, d: int, support: int) -> None:
    check_armies(attacker=a, defender=d, support=support)
    if a < 1:
        raise InvalidInputError(BAD_ARMIES(side="attacking", armies=a))
    if d < 1:
        raise InvalidInputError(BAD_ARMIES(side="defending", armies=d))
    if support < 0:
        raise InvalidInputError(BAD_SUPPORT(support=support))


def attack_odds(
    a: int, d: int, ruleset: Ruleset = CLUB_MILANO, support: int = 0
) -> AttackOdds:
    """Exact odds of attacking until conquest or until the next roll is illegal.

    ``a``: armies on the attacking territory (>= 1); ``d``: armies on the defending territory
    (>= 1); ``support``: the attacker's armies on his other territories bordering the target
    (R8, constant during the attack). Legality (:func:`attack_is_legal`) is checked before
    every roll. Cost: O(a * d) states. Raises ValueError (InvalidInputError) for a < 1,
    d < 1, support < 0 or more than :data:`MAX_ARMIES` armies.
    """
    _check_inputs(a, d, support)
    if not attack_is_legal(a, d, ruleset, support):
        return AttackOdds(a, d, 0.0, 0.0, 0.0, (((a, d), 1.0),), False)
    # Forward propagation of probability mass. Every roll lowers a, or keeps a and lowers d,
    # so visiting states in decreasing (a, d) order sees each state after all its sources.
    mass: dict[State, float] = {(a, d): 1.0}
    final: dict[State, float] = {}
    for x in range(a, 0, -1):
        for y in range(d, -1, -1):
            p = mass.pop((x, y), 0.0)
            if p == 0.0:
                continue
            if y == 0 or not attack_is_legal(x, y, ruleset, support):
                final[(x, y)] = final.get((x, y), 0.0) + p
                continue
            for att_loss, def_loss, q in _transitions(attacker_dice(x), defender_dice(y)):
                nxt = (x - att_loss, y - def_loss)
                mass[nxt] = mass.get(nxt, 0.0) + p * q
    ordered = sorted(final.items(), key=lambda item: (item[0][1] != 0, -item[0][0], item[0][1]))
    p_conquer = sum(p for (_, y), p in ordered if y == 0)
    e_att = sum(p * (a - x) for (x, _), p in ordered)
    e_def = sum(p * (d - y) for (_, y), p in ordered)
    return AttackOdds(a, d, p_conquer, e_att, e_def, tuple(ordered), True)


def _legal_prefix(x: int, n: int, ruleset: Ruleset, support: int) -> int:
    """The largest y in 0..n such that x armies may roll on y (every smaller y too)."""
    low, high = 0, n
    while low < high:
        mid = (low + high + 1) // 2
        if is_legal(ruleset, x, mid, x + support):
            low = mid
        else:
            high = mid - 1
    return low


def odds_table(n: int, ruleset: Ruleset = CLUB_MILANO, support: int = 0) -> list[list[float]]:
    """p_conquer for every attacker ``a`` and defender ``d`` in ``1..n`` (armies).

    Returns an ``n x n`` list: ``table[a - 1][d - 1]`` is ``attack_odds(a, d, ruleset,
    support).p_conquer`` (row ``a = 1`` is all zeros). One backward dynamic programme over
    all states, O(n^2): P(a, 0) = 1; P(a, d) = 0 when the roll is illegal (R7, R8, a < 2);
    otherwise the outcome-weighted sum over the states one roll away.
    """
    if n < 1:
        raise InvalidInputError(BAD_TABLE(n=n))
    check_armies(table=n, support=support)
    if support < 0:
        raise InvalidInputError(BAD_SUPPORT(support=support))
    trans = {
        (i, j): _transitions(i, j) for i in range(1, MAX_DICE + 1) for j in range(1, MAX_DICE + 1)
    }
    rows: list[list[float]] = [[0.0] * (n + 1)]  # rows[a][d]; column 0 = conquered
    for x in range(1, n + 1):
        row = [1.0] + [0.0] * n
        rows.append(row)
        i = attacker_dice(x)
        if i == 0:
            continue
        # The legal defenders of a row are a prefix 1..y_max (more defenders never make
        # a roll legal, under R7 or R8): found by bisection with the one rule of attack.py.
        y_max = _legal_prefix(x, n, ruleset, support)
        for y in range(1, min(y_max, MAX_DICE - 1) + 1):
            p = 0.0
            for att_loss, def_loss, q in trans[(i, defender_dice(y))]:
                p += q * rows[x - att_loss][y - def_loss]
            row[y] = p
        if y_max < MAX_DICE:
            continue
        # Defender on 3 dice from here on: fixed transitions, unrolled for speed.
        srcs = [(rows[x - al], dl, q) for al, dl, q in trans[(i, MAX_DICE)]]
        if len(srcs) == 4:
            (r0, d0, q0), (r1, d1, q1), (r2, d2, q2), (r3, d3, q3) = srcs
            for y in range(MAX_DICE, y_max + 1):
                row[y] = q0 * r0[y - d0] + q1 * r1[y - d1] + q2 * r2[y - d2] + q3 * r3[y - d3]
        else:
            for y in range(MAX_DICE, y_max + 1):
                row[y] = sum(q * r[y - dl] for r, dl, q in srcs)
    return [row[1:] for row in rows[1:]]
