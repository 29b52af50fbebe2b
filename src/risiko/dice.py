"""Chance as an input: a seeded generator or scripted values.

Everything random in a game (the deal, the objectives, the deck order, every die) comes from a
:class:`Chance` object and is written into the game's history, so that a record replays exactly
without any generator, and a referee can type the physical dice instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol


class ChanceExhaustedError(RuntimeError):
    """A scripted chance source ran out of values."""


class Chance(Protocol):
    """Source of dice (1..6) and permutations (of ``range(n)``)."""

    def die(self) -> int:
        """One die, 1..6."""
        ...

    def permutation(self, n: int) -> list[int]:
        """A permutation of ``range(n)``."""
        ...


class SeededChance:
    """Chance from :class:`random.Random` with a seed (same seed, same game)."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def die(self) -> int:
        """One die, 1..6."""
        return int(self._random.random() * 6) + 1

    def dice(self, n: int) -> tuple[int, ...]:
        """``n`` dice sorted from highest to lowest."""
        r = self._random.random
        if n == 1:
            return (int(r() * 6) + 1,)
        return tuple(sorted((int(r() * 6) + 1 for _ in range(n)), reverse=True))

    def permutation(self, n: int) -> list[int]:
        """A uniformly random permutation of ``range(n)``."""
        p = list(range(n))
        self._random.shuffle(p)
        return p


class ScriptedChance:
    """Dice typed in advance (a referee's physical dice, a test script).

    ``dice`` is consumed in order; ``permutations`` too. Running out raises
    :class:`ChanceExhaustedError`; a die outside 1..6 raises ValueError.
    """

    def __init__(
        self, dice: Iterable[int] = (), permutations: Iterable[list[int]] = ()
    ) -> None:
        self._dice = list(dice)
        for d in self._dice:
            if not 1 <= d <= 6:
                raise ValueError(f"a die shows 1..6, not {d}")
        self._dice.reverse()
        self._perms = list(permutations)
        self._perms.reverse()

    def die(self) -> int:
        """The next scripted die."""
        if not self._dice:
            raise ChanceExhaustedError("no scripted dice left")
        return self._dice.pop()

    def permutation(self, n: int) -> list[int]:
        """The next scripted permutation (it must be a permutation of range(n))."""
        if not self._perms:
            raise ChanceExhaustedError("no scripted permutation left")
        p = self._perms.pop()
        if sorted(p) != list(range(n)):
            raise ValueError(f"not a permutation of 0..{n - 1}: {p}")
        return p

    @property
    def dice_left(self) -> int:
        """How many scripted dice remain."""
        return len(self._dice)


def roll(chance: Chance, n: int) -> tuple[int, ...]:
    """``n`` dice from ``chance``, sorted from highest to lowest."""
    if isinstance(chance, SeededChance):
        return chance.dice(n)
    return tuple(sorted((chance.die() for _ in range(n)), reverse=True))
