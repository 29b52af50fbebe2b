"""Chance as an input: a seeded generator or scripted values.

Everything random in a game (the deal, the objectives, the deck order, every die) comes from a
:class:`Chance` object and is written into the game's history, so that a record replays exactly
without any generator, and a referee can type the physical dice instead. Dice come out in
the order rolled (never sorted): the rules compare them sorted, the record keeps them as
they fell.

>>> ScriptedChance([4, 6, 4, 3]).dice(3)
(4, 6, 4)
>>> ScriptedChance([4]).dice(2)
Traceback (most recent call last):
...
risiko.dice.ChanceExhaustedError: 2 scripted dice needed, 1 left
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from .faults import InvalidInputError, define

EXHAUSTED = define("dice.exhausted", "", "{needed} scripted dice needed, {left} left")
NO_PERMUTATION = define("dice.no_permutation", "", "no scripted permutation left")
BAD_PERMUTATION = define("dice.bad_permutation", "", "not a permutation of 0..{last}")
FACE = define("dice.face", "", "a die shows 1 to 6, not {value}")


class ChanceExhaustedError(InvalidInputError):
    """A scripted chance source ran out of values (fault ``dice.exhausted``); nothing of it
    was used."""


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

    __slots__ = ("_float", "_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)
        self._float = self._random.random

    def die(self) -> int:
        """One die, 1..6."""
        return int(self._random.random() * 6) + 1

    def dice(self, n: int) -> tuple[int, ...]:
        """``n`` dice in the order rolled."""
        r = self._float
        if n == 1:
            return (int(r() * 6) + 1,)
        if n == 2:
            return (int(r() * 6) + 1, int(r() * 6) + 1)
        if n == 3:
            return (int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1)
        if n == 4:
            return (int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1)
        if n == 5:
            return (int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1,
                    int(r() * 6) + 1)
        if n == 6:
            return (int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1, int(r() * 6) + 1,
                    int(r() * 6) + 1, int(r() * 6) + 1)
        return tuple([int(r() * 6) + 1 for _ in range(n)])

    def permutation(self, n: int) -> list[int]:
        """A uniformly random permutation of ``range(n)``: ``random.shuffle`` of it, its
        draws written out (a swap with a draw below ``i + 1`` from ``getrandbits``, from the
        last place down), the same permutation from the same seed, compiled in the compiled
        build (``tests/test_build.py`` binds it to ``random.shuffle``)."""
        p = list(range(n))
        bits = self._random.getrandbits
        for i in range(n - 1, 0, -1):
            k = (i + 1).bit_length()
            j = bits(k)
            while j > i:
                j = bits(k)
            p[i], p[j] = p[j], p[i]
        return p


class ScriptedChance:
    """Dice typed in advance (a referee's physical dice, a test script).

    ``dice`` is consumed in order; ``permutations`` too. Running out raises
    :class:`ChanceExhaustedError` (and :meth:`dice` takes all or nothing); a die outside 1..6
    raises InvalidInputError (``dice.face``).
    """

    def __init__(
        self, dice: Iterable[int] = (), permutations: Iterable[list[int]] = ()
    ) -> None:
        self._dice = list(dice)
        for d in self._dice:
            if not 1 <= d <= 6:
                raise InvalidInputError(FACE(value=d))
        self._dice.reverse()
        self._perms = list(permutations)
        self._perms.reverse()

    def die(self) -> int:
        """The next scripted die."""
        if not self._dice:
            raise ChanceExhaustedError(EXHAUSTED(needed=1, left=0))
        return self._dice.pop()

    def dice(self, n: int) -> tuple[int, ...]:
        """The next ``n`` scripted dice, all or none (ChanceExhaustedError)."""
        left = self._dice
        if len(left) < n:
            raise ChanceExhaustedError(EXHAUSTED(needed=n, left=len(left)))
        return tuple([left.pop() for _ in range(n)])

    def permutation(self, n: int) -> list[int]:
        """The next scripted permutation (it must be a permutation of range(n))."""
        if not self._perms:
            raise ChanceExhaustedError(NO_PERMUTATION())
        p = self._perms.pop()
        if sorted(p) != list(range(n)):
            raise InvalidInputError(BAD_PERMUTATION(last=n - 1, given=list(p)))
        return p

    @property
    def dice_left(self) -> int:
        """How many scripted dice remain."""
        return len(self._dice)


def roll(chance: Chance, n: int) -> tuple[int, ...]:
    """``n`` dice from ``chance`` in the order rolled (its ``dice(n)`` when it has one, so a
    scripted source gives all or none)."""
    many = getattr(chance, "dice", None)
    if many is not None:
        return tuple(many(n))
    return tuple([chance.die() for _ in range(n)])
