"""One attack roll's rules, written once: the dice (R8), dice parity (R7), army superiority
(R8) and its waiver above 10 armies.

Every caller asks this module: the game (:mod:`risiko.rules`), the odds (:mod:`risiko.odds`),
the referee's attack check on the web and ``risiko odds``/``risiko legal``.

Words used everywhere:

- ``a``: armies on the attacking territory; ``d``: armies on the defending one (the target).
- ``bordering``: the R8 sum, the attacker's armies on ALL his territories bordering the target,
  the attacking territory included (:func:`bordering_armies`).
- ``support``: the attacker's armies on his OTHER territories bordering the target, so
  ``bordering == a + support``. ``risiko odds --support`` and the web's check take it.

>>> from risiko.ruleset import CLUB_MILANO
>>> attacker_dice(2), attacker_dice(7), defender_dice(1), defender_dice(9)
(1, 3, 1, 3)
>>> attack_fault(CLUB_MILANO, 2, 2, bordering=2).clause      # 1 die against 2
'R7'
>>> attack_fault(CLUB_MILANO, 10, 18, bordering=18).clause   # 18 bordering do not outnumber 18
'R8'
>>> attack_fault(CLUB_MILANO, 11, 18, bordering=11) is None  # more than 10: R8 waived
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .board import Mask
from .faults import Fault, define, define_words
from .ruleset import Ruleset

#: most dice either side rolls
MAX_DICE: Final = 3

ONE_ARMY = define(
    "attack.one_army", "",
    "{territory} holds {armies} army: an attack needs at least 2 armies on the attacking "
    "territory",
)
NO_DEFENDER = define(
    "attack.no_defender", "", "the defending territory holds no army ({defender})",
)
R7_DICE = define(
    "attack.r7_dice_parity", "R7",
    "R7: {attacker_dice} attacking dice against {defender_dice} defending dice "
    "({armies} armies against {defender})",
)
R8_SUPERIORITY = define(
    "attack.r8_superiority", "R8",
    "R8: {bordering} armies bordering {target} do not outnumber its {defender}, and "
    "{territory} holds {armies}, not more than {waiver}",
)


def attacker_dice(a: int) -> int:
    """Dice rolled by an attacking territory holding ``a`` armies: ``min(3, a - 1)`` (R8:
    always the maximum), 0 below 2 armies."""
    return 0 if a < 2 else (MAX_DICE if a > MAX_DICE else a - 1)


def defender_dice(d: int) -> int:
    """Dice rolled by a defending territory holding ``d`` armies: ``min(3, d)`` (R8)."""
    return 0 if d < 1 else (MAX_DICE if d > MAX_DICE else d)


def bordering_armies(armies: Sequence[int], own: Mask, target_neighbours: Mask) -> int:
    """The R8 sum: armies on every territory of ``own`` (the attacker's mask) that borders
    the target (``target_neighbours``: the target's neighbour mask), the attacking one
    included. Armies on territories that do not border the target never count."""
    total = 0
    m = own & target_neighbours
    while m:
        low = m & -m
        total += armies[low.bit_length() - 1]
        m ^= low
    return total


def is_legal(ruleset: Ruleset, a: int, d: int, bordering: int) -> bool:
    """True when a territory of ``a`` armies may roll on one of ``d`` (at least 2 armies, R7,
    R8 with ``bordering`` the R8 sum). Same verdict as :func:`attack_fault`, no message."""
    if a < 2 or d < 1:
        return False
    if ruleset.dice_parity and (3 if a > 3 else a - 1) < (3 if d > 3 else d):
        return False
    return not (
        ruleset.army_superiority and bordering <= d and a <= ruleset.superiority_waiver_above
    )


def is_legal_on_board(
    ruleset: Ruleset, a: int, d: int, armies: Sequence[int], own: Mask, target_neighbours: Mask
) -> bool:
    """:func:`is_legal` with the R8 sum taken from the board (``armies``, the attacker's mask
    ``own``, the target's neighbour mask), and only when R8 needs it."""
    if a < 2 or d < 1:
        return False
    if ruleset.dice_parity and (3 if a > 3 else a - 1) < (3 if d > 3 else d):
        return False
    if not ruleset.army_superiority or a > ruleset.superiority_waiver_above:
        return True
    return bordering_armies(armies, own, target_neighbours) > d


#: what a fault says when it was not told which territories (in the message's language)
define_words("territory", ("the attacking territory",))
define_words("target", ("the target",))


def attack_fault(
    ruleset: Ruleset,
    a: int,
    d: int,
    bordering: int,
    subjects: Mapping[str, Any] | None = None,
) -> Fault | None:
    """Why a territory with ``a`` armies may not roll on one with ``d`` (None: it may).

    ``bordering``: the R8 sum (:func:`bordering_armies`, at least ``a``). Checks in order: at
    least 2 armies, a defender; R7 (``ruleset.dice_parity``): attacker dice >= defender dice;
    R8 (``ruleset.army_superiority``): ``bordering > d`` unless ``a >
    ruleset.superiority_waiver_above`` (10). ``subjects`` (``territory``: the attacking
    territory, ``target``, ``player``) go into the fault; adjacency and ownership are the
    game's checks. Fault codes: ``attack.one_army``, ``attack.no_defender``,
    ``attack.r7_dice_parity`` (R7), ``attack.r8_superiority`` (R8).
    """
    subj = dict(subjects or {})
    subj.setdefault("territory", "the attacking territory")
    subj.setdefault("target", "the target")
    if a < 2:
        return ONE_ARMY(subj, armies=a)
    if d < 1:
        return NO_DEFENDER(subj, defender=d)
    i, j = attacker_dice(a), defender_dice(d)
    if ruleset.dice_parity and i < j:
        return R7_DICE(subj, attacker_dice=i, defender_dice=j, armies=a, defender=d)
    if (
        ruleset.army_superiority
        and bordering <= d
        and a <= ruleset.superiority_waiver_above
    ):
        return R8_SUPERIORITY(
            subj, bordering=bordering, defender=d, armies=a,
            waiver=ruleset.superiority_waiver_above,
        )
    return None


def roll_losses(attacker: Sequence[int], defender: Sequence[int]) -> tuple[int, int]:
    """(attacker's losses, defender's losses) of one roll: each side's dice sorted from the
    highest, compared in pairs, ties to the defender. The dice may be in any order.

    >>> roll_losses((4, 6, 4), (3, 6, 5))   # sorted: 6 v 6, 4 v 5, 4 v 3
    (2, 1)
    """
    na = len(attacker)
    nd = len(defender)
    if na > MAX_DICE or nd > MAX_DICE or not na or not nd:  # not a roll of the game
        lose_a = lose_d = 0
        for x, y in zip(sorted(attacker, reverse=True), sorted(defender, reverse=True),
                        strict=False):
            if x > y:
                lose_d += 1
            else:
                lose_a += 1
        return lose_a, lose_d
    # 1 to 3 dice a side: each side's three highest (0 for a missing die) by comparisons,
    # what the game does at every roll (no sort, no list)
    a1, a2, a3 = _highest(tuple(attacker), na)  # tuple() of a tuple is the tuple itself
    d1, d2, d3 = _highest(tuple(defender), nd)
    pairs = na if na < nd else nd
    lose_d = 1 if a1 > d1 else 0
    if pairs > 1:
        if a2 > d2:
            lose_d += 1
        if pairs > 2 and a3 > d3:
            lose_d += 1
    return pairs - lose_d, lose_d


def _highest(dice: tuple[int, ...], n: int) -> tuple[int, int, int]:
    """The 1 to 3 ``dice`` from the highest, 0 for a missing one."""
    x = dice[0]
    y = dice[1] if n > 1 else 0
    z = dice[2] if n > 2 else 0
    if y > x:
        x, y = y, x
    if z > y:
        y, z = z, y
        if y > x:
            x, y = y, x
    return x, y, z
