"""Dice anyone can verify: chance derived from a committed seed by HMAC-SHA256.

An online table draws a fresh seed of 256 bits (:func:`new_seed`) and publishes its
commitment, SHA-256 of the seed (:func:`commitment`), before the deal and the first roll.
Every random value of the game - the deal, the objectives, the deck, every die - is then a
*draw* of :class:`FairChance`, computed from the seed by the construction ``hmac-sha256-v1``
(docs/online.md), which any language with HMAC-SHA256 can recompute:

- draw ``k`` (0, 1, 2, ... in the order the game asks) reads the byte stream
  ``HMAC-SHA256(seed, k || 0) || HMAC-SHA256(seed, k || 1) || ...`` where ``k`` is 8 bytes and
  the block number 4 bytes, unsigned big-endian;
- ``uniform(m)`` (m <= 256) takes the next byte ``b`` of the stream, accepted when
  ``b < 256 - 256 % m`` (else the next byte), giving ``b % m``;
- a die is one draw, ``uniform(6) + 1``; a permutation of ``n`` is one draw: Fisher-Yates
  from ``[0, ..., n-1]``, for ``i`` from ``n-1`` down to 1 swap ``p[i]`` and
  ``p[uniform(i + 1)]``.

A new game makes draws 0 (the deal), 1 (the objectives: seat ``s`` gets ``p[s] + 1``) and 2
(the deck); then each die in the order rolled (attacker, then defender; the closing dice).
After the game the seed is revealed; the record carries ``Chance``, ``SeedCommitment``,
``Seed`` (and ``SkippedDraws``, the draws of actions a referee undid), and
:func:`verify_record` (``risiko replay --verify``) checks every card, objective and die.

>>> seed = bytes(32)
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> chance = FairChance(seed)
>>> [chance.die() for _ in range(5)]
[4, 1, 3, 3, 6]
>>> chance.draws
5
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .faults import Fault, InvalidInputError, define

CONSTRUCTION = "hmac-sha256-v1"
SEED_BYTES = 32

BAD_SEED = define("fair.bad_seed", "", "the seed {value!r} is not {digits} hexadecimal digits")
NO_HEADER = define(
    "fair.missing_header", "", "the record has no {header} header: its chance cannot be verified"
)
UNKNOWN_CONSTRUCTION = define(
    "fair.unknown_construction", "", "unknown chance construction {name!r} (known: {known})"
)
COMMITMENT_MISMATCH = define(
    "fair.commitment_mismatch", "",
    "SHA-256 of the seed is {got}, not the commitment {commitment} published before the game",
)
PART_MISMATCH = define(
    "fair.part_mismatch", "", "line {line}: the {part} is not draw {draw} of the seed"
)
DICE_MISMATCH = define(
    "fair.dice_mismatch", "",
    "line {line}: dice {got} are not draws {first}-{last} of the seed, which give {expected}",
)
BAD_SKIPPED = define(
    "fair.bad_skipped", "", "the SkippedDraws header {value!r} is not a list like 17-19,40"
)
RECORD_FAULT = define("fair.record", "", "the record cannot be read: {reason}")


def new_seed() -> bytes:
    """A fresh seed of 256 bits from the operating system's generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed, 64 lowercase hex digits (published before the game)."""
    return hashlib.sha256(seed).hexdigest()


def parse_seed(text: str) -> bytes:
    """A seed from its 64 hex digits; InvalidInputError (``fair.bad_seed``) otherwise."""
    value = text.strip().lower()
    if len(value) != 2 * SEED_BYTES or any(c not in "0123456789abcdef" for c in value):
        raise InvalidInputError(BAD_SEED(value=text, digits=2 * SEED_BYTES))
    return bytes.fromhex(value)


class _Stream:
    """The byte stream of one draw: HMAC-SHA256(seed, k || block) for block 0, 1, ..."""

    __slots__ = ("_block", "_buf", "_k", "_pos", "_seed")

    def __init__(self, seed: bytes, k: int) -> None:
        self._seed = seed
        self._k = k.to_bytes(8, "big")
        self._block = 0
        self._buf = b""
        self._pos = 0

    def byte(self) -> int:
        if self._pos == len(self._buf):
            msg = self._k + self._block.to_bytes(4, "big")
            self._buf = hmac.new(self._seed, msg, hashlib.sha256).digest()
            self._block += 1
            self._pos = 0
        b = self._buf[self._pos]
        self._pos += 1
        return b

    def uniform(self, m: int) -> int:
        """0 <= value < m (1 <= m <= 256), without bias (rejection)."""
        limit = 256 - 256 % m
        while True:
            b = self.byte()
            if b < limit:
                return b % m


def die_of(seed: bytes, k: int) -> int:
    """The die of draw ``k`` (1..6)."""
    return _Stream(seed, k).uniform(6) + 1


def permutation_of(seed: bytes, k: int, n: int) -> list[int]:
    """The permutation of ``range(n)`` of draw ``k`` (n <= 256)."""
    stream = _Stream(seed, k)
    p = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.uniform(i + 1)
        p[i], p[j] = p[j], p[i]
    return p


class FairChance:
    """A :class:`risiko.dice.Chance` whose every value is a draw of ``seed``.

    ``draws`` counts the draws made (the next draw's number); give ``draws`` to continue a
    game restored from a snapshot. The seed is 32 bytes (ValueError otherwise).
    """

    __slots__ = ("draws", "seed")

    def __init__(self, seed: bytes, draws: int = 0) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self.seed = seed
        self.draws = draws

    def die(self) -> int:
        """The next draw as a die, 1..6."""
        k = self.draws
        self.draws = k + 1
        return die_of(self.seed, k)

    def permutation(self, n: int) -> list[int]:
        """The next draw as a permutation of ``range(n)``."""
        k = self.draws
        self.draws = k + 1
        return permutation_of(self.seed, k, n)

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed."""
        return commitment(self.seed)


def parse_skipped(text: str) -> set[int]:
    """The draws of ``SkippedDraws`` (``"17-19,40"`` -> {17, 18, 19, 40}).

    >>> sorted(parse_skipped("17-19,40"))
    [17, 18, 19, 40]
    """
    out: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise InvalidInputError(BAD_SKIPPED(value=text))
        a, b = int(low), int(high or low)
        if b < a:
            raise InvalidInputError(BAD_SKIPPED(value=text))
        out.update(range(a, b + 1))
    return out


def format_skipped(draws: Sequence[int]) -> str:
    """``SkippedDraws`` text of a set of draws, as ranges.

    >>> format_skipped([40, 17, 18, 19])
    '17-19,40'
    """
    out: list[str] = []
    values = sorted(set(draws))
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f"{values[i]}-{values[j]}")
        i = j + 1
    return ",".join(out)


@dataclass(frozen=True)
class Verification:
    """What :func:`verify_record` checked: ``draws`` used, ``dice`` compared, ``rolls``."""

    commitment: str
    draws: int
    dice: int
    rolls: int


def _next_draws(skipped: set[int], start: int) -> Iterator[int]:
    k = start
    while True:
        if k not in skipped:
            yield k
        k += 1


def verify_record(text: str) -> Verification:
    """Check a record's chance against its ``Seed`` and ``SeedCommitment`` headers.

    SHA-256 of the seed must be the commitment; the deal, objectives and deck must be draws
    0, 1 and 2; every die (attacks: attacker then defender; the closing dice) must be the next
    draws, skipping ``SkippedDraws``; dice are compared sorted. Raises InvalidInputError with
    a ``fair.*`` fault naming the first line that differs; the record must parse (its own
    faults are the record module's).
    """
    from .actions import Attack, EndTurn, Fortify, Timeout
    from .record import RecordError, RecordItem, parse_record

    try:
        rec = parse_record(text)
    except RecordError as e:
        raise InvalidInputError(RECORD_FAULT({"line": e.line}, reason=e.reason)) from None
    h = rec.headers
    for header in ("SeedCommitment", "Seed"):
        if not h.get(header):
            raise InvalidInputError(NO_HEADER(header=header))
    name = h.get("Chance", CONSTRUCTION)
    if name != CONSTRUCTION:
        raise InvalidInputError(UNKNOWN_CONSTRUCTION(name=name, known=CONSTRUCTION))
    seed = parse_seed(h["Seed"])
    got = commitment(seed)
    if got != h["SeedCommitment"].strip().lower():
        raise InvalidInputError(COMMITMENT_MISMATCH(got=got, commitment=h["SeedCommitment"]))
    skipped = parse_skipped(h.get("SkippedDraws", ""))
    draws = _next_draws(skipped, 0)
    n = len(rec.objectives)
    parts: list[tuple[str, list[int], list[int]]] = []
    k = next(draws)
    parts.append(("deal", rec.deal, permutation_of(seed, k, 42)))
    k = next(draws)
    parts.append(("objectives", rec.objectives,
                  [o + 1 for o in permutation_of(seed, k, 16)[:n]]))
    k = next(draws)
    parts.append(("deck", rec.deck, permutation_of(seed, k, 44)))
    for i, (part, have, want) in enumerate(parts):
        if list(have) != want:
            line = rec.part_lines.get(part, 0)
            raise InvalidInputError(PART_MISMATCH({"line": line}, part=part, draw=i))
    last = k
    dice_count = rolls = 0
    for item in rec.items:
        if not isinstance(item, RecordItem):
            continue  # a forfeit line: no chance in it
        action = item.action
        groups: list[tuple[int, ...]] = []
        if isinstance(action, Attack):
            if action.attacker_dice is None or action.defender_dice is None:
                continue  # a malformed attack is the replay's fault, not chance's
            groups = [action.attacker_dice, action.defender_dice]
        elif isinstance(action, EndTurn | Fortify | Timeout) and action.closing:
            groups = [action.closing]
        for group in groups:
            ks = [next(draws) for _ in group]
            expected = tuple(sorted((die_of(seed, j) for j in ks), reverse=True))
            if tuple(sorted(group, reverse=True)) != expected:
                raise InvalidInputError(DICE_MISMATCH(
                    {"line": item.line},
                    got="-".join(map(str, group)), first=ks[0], last=ks[-1],
                    expected="-".join(map(str, expected)),
                ))
            dice_count += len(group)
            last = ks[-1]
            rolls += 1
    return Verification(got, last + 1, dice_count, rolls)


def fault_lines(error: InvalidInputError, lang: str | None = None) -> list[str]:
    """The messages of a verification error, one per fault."""
    faults: Sequence[Fault] = error.faults
    return [f.message(lang) for f in faults]
