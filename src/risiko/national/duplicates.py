"""Possible duplicates in the national register: RisiKoDataManager's rule (issue 21 item 2).

RisiKoDataManager (``TorneiUtils.findClone``) compares every two players of the register
that have results (``findOrphansInMemory``: players without a result are left out) by the
Levenshtein distance of ``(nome + cognome).toLowerCase() + dataDiNascita`` (the birth date
as the register's text, ``dd/MM/yyyy`` on its sheets; Java writes a missing one as
``"null"``) and lists the pairs at distance :data:`LIMIT` (``LEVENSHTEIN_LIMIT = 4``) or
less, except the pairs declared different (``isNotFalsePositive``: the ``FALSE_POSITIVE``
sheet, two ids per row, in either order).

:func:`possible_duplicates` gives the same pairs, faster than comparing every pair: a pair
within 4 edits has one of the 5 pieces of the first string unchanged in the second (each
edit touches at most one piece), so only strings sharing a piece are compared, and only when
their lengths differ by 4 or less; the distance itself stops once it passes 4
(:func:`distance`). Pure standard library.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date

__all__ = ["LIMIT", "Candidate", "Pair", "distance", "duplicate_text", "possible_duplicates"]

#: RisiKoDataManager's ``TorneiUtils.LEVENSHTEIN_LIMIT``
LIMIT = 4


@dataclass(frozen=True)
class Candidate:
    """A player of the register: ``national_id``, ``name``, ``surname``, ``birth_date``
    (None: unknown)."""

    national_id: int
    name: str
    surname: str
    birth_date: date | None


@dataclass(frozen=True)
class Pair:
    """Two players that may be one: ``first`` < ``second`` (national ids) and their
    ``distance`` (0 to :data:`LIMIT`)."""

    first: int
    second: int
    distance: int


def duplicate_text(player: Candidate) -> str:
    """The text RisiKoDataManager compares: name and surname lower-cased, then the birth
    date as ``dd/MM/yyyy`` (``null`` when unknown, as Java's concatenation writes it).

    >>> duplicate_text(Candidate(1, "Mario", "Rossi", date(1980, 5, 2)))
    'mariorossi02/05/1980'
    >>> duplicate_text(Candidate(2, "Mario", "Rossi", None))
    'mariorossinull'
    """
    born = player.birth_date.strftime("%d/%m/%Y") if player.birth_date else "null"
    return (player.name + player.surname).lower() + born


def distance(a: str, b: str, limit: int = LIMIT) -> int:
    """The Levenshtein distance of ``a`` and ``b`` (insertions, deletions, substitutions of
    one character), or ``limit + 1`` as soon as it is sure to exceed ``limit``.

    >>> distance("mariorossi", "marioross"), distance("kitten", "sitting")
    (1, 3)
    >>> distance("abcdefgh", "hgfedcba")
    5
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    over = limit + 1
    # only the cells within ``limit`` of the diagonal can stay within ``limit``
    previous = [j if j <= limit else over for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        ca = a[i - 1]
        low, high = max(1, i - limit), min(len(b), i + limit)
        current = [over] * (len(b) + 1)
        current[0] = i if i <= limit else over
        best = current[0]
        for j in range(low, high + 1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != b[j - 1]))
            current[j] = value
            if value < best:
                best = value
        if best > limit:
            return over
        previous = current
    return min(previous[-1], over)


def _bag_distance(a: dict[str, int], b: dict[str, int]) -> int:
    """A lower bound of the edit distance: the characters one string has more than the
    other, the larger side (each edit changes at most one of each side)."""
    more = fewer = 0
    for ch, n in a.items():
        d = n - b.get(ch, 0)
        if d > 0:
            more += d
        else:
            fewer -= d
    fewer += sum(n for ch, n in b.items() if ch not in a)
    return max(more, fewer)


def _mask(text: str) -> int:
    """The set of ``text``'s characters as bits (a character's code point modulo 1024)."""
    out = 0
    for ch in set(text):
        out |= 1 << (ord(ch) % 1024)
    return out


def _pieces(text: str, count: int) -> list[str]:
    size, extra = divmod(len(text), count)
    out, start = [], 0
    for k in range(count):
        end = start + size + (1 if k < extra else 0)
        out.append(text[start:end])
        start = end
    return out


def possible_duplicates(players: Iterable[Candidate],
                        different: Collection[frozenset[int]] = (),
                        limit: int = LIMIT) -> list[Pair]:
    """The pairs of ``players`` whose :func:`duplicate_text` are within ``limit`` (4) edits,
    except the pairs in ``different`` (declared different, either order), by distance then
    national ids. The caller leaves out players without a result, as RisiKoDataManager.

    >>> people = [Candidate(1, "Mario", "Rossi", date(1980, 5, 2)),
    ...           Candidate(2, "Maria", "Rossi", date(1980, 5, 2)),
    ...           Candidate(3, "Mario", "Rosi", date(1980, 5, 2)),
    ...           Candidate(4, "Luca", "Bianchi", date(1990, 1, 1))]
    >>> possible_duplicates(people)
    [Pair(first=1, second=2, distance=1), Pair(first=1, second=3, distance=1), \
Pair(first=2, second=3, distance=2)]
    >>> [(p.first, p.second) for p in possible_duplicates(people, {frozenset((1, 2))})]
    [(1, 3), (2, 3)]
    """
    texts = [(p.national_id, duplicate_text(p)) for p in players]
    bags = [dict(Counter(text)) for _id, text in texts]
    masks = [_mask(text) for _id, text in texts]
    index: dict[str, set[int]] = defaultdict(set)
    lengths: set[int] = set()
    for k, (_id, text) in enumerate(texts):
        for piece in _pieces(text, limit + 1):
            index[piece].add(k)
            lengths.add(len(piece))
    found: dict[tuple[int, int], int] = {}
    for k, (pid, text) in enumerate(texts):
        candidates: set[int] = set()
        for size in lengths:
            for start in range(len(text) - size + 1):
                candidates |= index.get(text[start:start + size], set())
        for other in candidates:
            if other <= k:
                continue
            oid, otext = texts[other]
            if pid == oid or frozenset((pid, oid)) in different:
                continue
            if abs(len(text) - len(otext)) > limit:
                continue
            # each character missing from the other string costs an edit: cheap bounds
            mine, theirs = masks[k], masks[other]
            if ((mine & ~theirs).bit_count() > limit or (theirs & ~mine).bit_count() > limit
                    or _bag_distance(bags[k], bags[other]) > limit):
                continue
            d = distance(text, otext, limit)
            if d <= limit:
                found[min(pid, oid), max(pid, oid)] = d
    return sorted((Pair(a, b, d) for (a, b), d in found.items()),
                  key=lambda p: (p.distance, p.first, p.second))
