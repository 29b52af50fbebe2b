"""The bots' ladder (``risiko ladder``): the levels of :data:`risiko.agents.levels.LEVELS`
play each other and are rated (:mod:`risiko.ratings`).

Game ``i`` of a ladder with master seed ``s``:

- its seed is :func:`game_seed` ``(s, i)``, so a game is the same whatever else runs (any
  number of workers, any order);
- its seats (:func:`seating`): with at least as many levels as seats, the ``i``-th group of
  ``seats`` levels (every group in turn, :func:`itertools.combinations` order), else every
  level once and the seats left over to the levels in turn from game to game; then the
  seat order shuffled by the game's seed (the first seat plays first, R1);
- its order (:func:`level_places`): a RisiKo! first, then by table score (R2), equal scores
  tied; a level holding two seats takes its better seat's place.

Levels are read from :data:`~risiko.agents.levels.LEVELS` when the ladder starts, so a new
level joins it with no change here.

>>> [sorted(seating([1, 2, 3, 4, 5], 4, i, 7)) for i in (0, 1, 5)]
[[1, 2, 3, 4], [1, 2, 3, 5], [1, 2, 3, 4]]
>>> [sorted(seating([1, 2, 3], 4, i, 7)) for i in (0, 1, 2)]
[[1, 1, 2, 3], [1, 2, 2, 3], [1, 2, 3, 3]]
>>> seating([1, 2, 3, 4, 5], 4, 0, 7)
[4, 2, 1, 3]
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..agents.levels import LEVELS
from ..match import play_bots
from ..ruleset import Ruleset

__all__ = ["GameResult", "game_seed", "level_places", "play_game", "seating"]


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a run seeded ``master``: the first 8 bytes
    of SHA-256 of ``"master:index"`` (a 63-bit number), the same on every machine."""
    digest = hashlib.sha256(f"{master}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seating(levels: Sequence[int], seats: int, index: int, seed: int) -> list[int]:
    """The level at each seat of game ``index`` (seed ``seed``), seat 1 first (see the
    module). ``levels``: the distinct levels of the ladder (2 or more)."""
    ordered = sorted(levels)
    if len(ordered) >= seats:
        groups = list(combinations(ordered, seats))
        chosen = list(groups[index % len(groups)])
    else:
        extra = seats - len(ordered)
        start = index * extra
        chosen = ordered + [ordered[(start + k) % len(ordered)] for k in range(extra)]
    random.Random(seed).shuffle(chosen)
    return chosen


@dataclass(frozen=True)
class GameResult:
    """One ladder game: ``index``, ``seed``, the level at each seat (``levels``), the table
    scores by seat (``scores``), the seat of the RisiKo! (None) and each level's place
    (``places``: ``(level, place)``, best first)."""

    index: int
    seed: int
    levels: tuple[int, ...]
    scores: tuple[int, ...]
    risiko_seat: int | None
    places: tuple[tuple[int, int], ...]


def level_places(levels: Sequence[int], scores: Sequence[int],
                 risiko_seat: int | None) -> list[tuple[int, int]]:
    """Each level's place in one game, best first: seats by (RisiKo!, table score), equal
    ones tied; a level at two seats takes its better seat and the places are counted among
    levels (1..number of levels).

    >>> level_places([1, 2, 3, 4], [30, 55, 30, 10], None)
    [(2, 1), (1, 2), (3, 2), (4, 4)]
    >>> level_places([2, 1, 1, 2], [20, 40, 60, 25], 3)
    [(2, 1), (1, 2)]
    """
    def key(seat: int) -> tuple[bool, int]:
        return (seat != risiko_seat, -scores[seat])

    best: dict[int, tuple[bool, int]] = {}
    for seat, level in enumerate(levels):
        if level not in best or key(seat) < best[level]:
            best[level] = key(seat)
    keys = sorted(best.values())
    out = [(level, 1 + sum(other < k for other in keys)) for level, k in best.items()]
    return sorted(out, key=lambda lp: (lp[1], lp[0]))


def play_game(index: int, master: int, seats: int, ruleset: Ruleset,
              levels: Sequence[int] | None = None) -> GameResult:
    """Play game ``index`` of the ladder seeded ``master`` (bots of ``levels``, default
    every level of :data:`LEVELS`), with the call at round 8 (R2)."""
    chosen = sorted(LEVELS) if levels is None else list(levels)
    seed = game_seed(master, index)
    seated = seating(chosen, seats, index, seed)
    game = play_bots([LEVELS[level] for level in seated], seats, ruleset=ruleset, seed=seed)
    scores = tuple(s.score for s in game.scores())
    risiko = game.risiko_seat
    return GameResult(index, seed, tuple(seated), scores, risiko,
                      tuple(level_places(seated, scores, risiko)))
