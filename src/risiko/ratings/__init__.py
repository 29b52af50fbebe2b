"""Skill ratings (Weng-Lin, the ``openskill`` package): bots' ladder and players' skill view.

Ratings never touch the official standings: they are a second, separate reading of the same
results (issue 19). Each game or table is a list of ``(identity, place)`` pairs, place 1 the
best, equal places a tie; :class:`Ratings` folds them in, in the order given (date order),
starting every identity at μ = 25, σ = 25/3. Computing from scratch from the results is the
rule, so correcting a result or merging two players re-rates everyone concerned.

The model is openskill's **Bradley-Terry with full pairing** (:data:`MODEL`): every pair of
seats at a table is one comparison (a win 1, a tie ½, a loss 0), so tied places get equal
updates and a lower place never gains more than a higher one. Plackett-Luce, openskill's
default, does not: in 6.2.0 a 4th place on a 5-seat table with two seats tied for 2nd came
out equal to them (+0.1667 each), and on a 4-seat table with two tied for 1st the 3rd place
equalled them. The test file ``tests/test_ratings.py`` keeps both cases.

Worked example (4 new players, places 1, 2, 2, 4; hand figures in the tests): each pair's
c = √(σ₁² + σ₂² + 2β²) ≈ 13.18 and, between equal ratings, p = ½, so a seat moves by
σ²/c · (wins − losses)/2:

>>> r = Ratings()
>>> r.rate([("A", 1), ("B", 2), ("C", 2), ("D", 4)])
>>> [round(r[k].mu - 25, 2) for k in "ABCD"]
[7.91, 0.0, 0.0, -7.91]

``openskill`` is optional (the ``ratings`` extra, also in ``web``): this package imports it
only when a rating is made, and says how to install it otherwise
(:data:`NO_OPENSKILL`, a :class:`~risiko.faults.InvalidInputError`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..faults import InvalidInputError, define

__all__ = [
    "MODEL",
    "NO_OPENSKILL",
    "Rating",
    "Ratings",
    "SeatOutcome",
    "places",
    "rate_all",
]

#: the openskill model: Bradley-Terry, full pairing (ties are half a win; see the module)
MODEL = "BradleyTerryFull"
#: a new identity's rating, openskill's defaults (β = σ/2 = 25/6, τ = 25/300 per game)
MU, SIGMA = 25.0, 25.0 / 3.0

NO_OPENSKILL = define("ratings.no_openskill", "",
                      "ratings need the openskill package: pip install 'risiko-club[ratings]'")
BAD_PLACE = define("ratings.bad_place", "",
                   "{identity}: place {place} at a table of {seats} (places run 1..{seats})")
TWICE = define("ratings.twice", "", "{identity} holds two seats at one table")
TOO_FEW = define("ratings.too_few", "", "a rated table needs 2 seats or more, not {seats}")


@dataclass(frozen=True)
class Rating:
    """One identity's skill: ``mu`` (μ, the estimate) and ``sigma`` (σ, its uncertainty),
    both in openskill's points (a new identity: 25 and 25/3), ``games`` rated.

    ``conservative`` is μ − 3σ: with a normal belief, the skill is above it with about
    99.9 % certainty (0 for a newcomer; what lists rank by, so luck over few games does not
    put anyone on top).

    >>> Rating(25.0, 25 / 3, 0).conservative
    0.0
    """

    mu: float
    sigma: float
    games: int

    @property
    def conservative(self) -> float:
        """μ − 3σ (the same points as μ)."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict[str, Any]:
        """``{"mu", "sigma", "conservative", "games"}`` (the JSON of ``risiko ladder``)."""
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4),
                "conservative": round(self.conservative, 4), "games": self.games}


@dataclass(frozen=True)
class SeatOutcome:
    """A seat's result as the ratings read it: ``identity`` (who), ``score`` (table points),
    ``risiko`` (completed his objective, R2), ``winner`` (named the table's winner where the
    club breaks a tie otherwise, or the top score), ``left`` (left the game, R13)."""

    identity: str
    score: float
    risiko: bool = False
    winner: bool = False
    left: bool = False


def places(seats: Sequence[SeatOutcome]) -> list[tuple[str, int]]:
    """The table's order as ``(identity, place)`` in seat order: who stayed before who left
    (R13), then a RisiKo! before the rest, then the table's winners, then by table points;
    seats equal in all four share a place (1, 2, 2, 4).

    >>> places([SeatOutcome("A", 40), SeatOutcome("B", 55), SeatOutcome("C", 40),
    ...         SeatOutcome("D", 12)])
    [('A', 2), ('B', 1), ('C', 2), ('D', 4)]
    >>> places([SeatOutcome("A", 30, risiko=True), SeatOutcome("B", 44),
    ...         SeatOutcome("C", 44, winner=True), SeatOutcome("D", 70, left=True)])
    [('A', 1), ('B', 3), ('C', 2), ('D', 4)]
    """
    def key(s: SeatOutcome) -> tuple[bool, bool, bool, float]:
        return (s.left, not s.risiko, not s.winner, -s.score)

    keys = [key(s) for s in seats]
    return [(s.identity, 1 + sum(other < k for other in keys)) for s, k in zip(seats, keys,
                                                                              strict=True)]


def _model() -> Any:
    try:
        from openskill.models import BradleyTerryFull
    except ImportError:
        raise InvalidInputError(NO_OPENSKILL()) from None
    return BradleyTerryFull(mu=MU, sigma=SIGMA)


class Ratings:
    """Ratings folded in table by table (:meth:`rate`), read by identity (``ratings[key]``,
    a :class:`Rating`; a never-rated identity reads as new) or all at once
    (:meth:`ranked`). Raises :class:`~risiko.faults.InvalidInputError` (:data:`NO_OPENSKILL`)
    when openskill is not installed."""

    def __init__(self) -> None:
        self._model = _model()
        self._state: dict[str, Any] = {}
        self._games: dict[str, int] = {}

    def rate(self, table: Sequence[tuple[str, int]]) -> None:
        """Fold in one table: ``(identity, place)`` per seat, place 1..seats, equal places a
        tie. A bad table (fewer than 2 seats, an identity twice, a place out of range) is
        refused whole with every fault (:data:`BAD_PLACE`, :data:`TWICE`, :data:`TOO_FEW`)
        and changes nothing."""
        faults = []
        n = len(table)
        if n < 2:
            faults.append(TOO_FEW(seats=n))
        seen: set[str] = set()
        for identity, place in table:
            if identity in seen:
                faults.append(TWICE({"player": identity}, identity=identity))
            seen.add(identity)
            if not 1 <= place <= n:
                faults.append(BAD_PLACE({"player": identity}, identity=identity, place=place,
                                        seats=n))
        if faults:
            raise InvalidInputError(*faults)
        teams = [[self._state.get(k) or self._model.rating(name=k)] for k, _ in table]
        rated = self._model.rate(teams, ranks=[float(p) for _, p in table])
        for (identity, _), team in zip(table, rated, strict=True):
            self._state[identity] = team[0]
            self._games[identity] = self._games.get(identity, 0) + 1

    def __getitem__(self, identity: str) -> Rating:
        found = self._state.get(identity)
        if found is None:
            return Rating(MU, SIGMA, 0)
        return Rating(float(found.mu), float(found.sigma), self._games[identity])

    def __contains__(self, identity: object) -> bool:
        return identity in self._state

    def __iter__(self) -> Iterator[str]:
        return iter(self._state)

    def ranked(self) -> list[tuple[str, Rating]]:
        """Every rated identity with its rating, by conservative rating (μ − 3σ), best
        first; equal ones by identity."""
        out = [(k, self[k]) for k in self._state]
        out.sort(key=lambda kr: (-kr[1].conservative, kr[0]))
        return out


def rate_all(tables: Iterable[Sequence[tuple[str, int]]]) -> Ratings:
    """Ratings computed from scratch from ``tables`` (each ``(identity, place)`` per seat), in
    the order given (date order)."""
    ratings = Ratings()
    for table in tables:
        ratings.rate(table)
    return ratings
