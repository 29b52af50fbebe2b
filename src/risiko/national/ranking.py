"""The national ranking of a year, computed as RisiKoDataManager computes it.

Readings settled from its code (``it.desimone.gsheetsaccess.ranking``), each cited where it
is applied:

- **A result's score** (:func:`result_score`, ``RankingScorer.calcolaScore``): for position p
  in a tournament of category c, T games (``numeroTavoli``: the tables summed over every round,
  ``ExcelGSheetsBridge.getTorneoRowByTorneo``) and R planned rounds::

      a(p) · (100 + T) · classe(c, R)                 p = 1, a(1) = 1.2
      a(p) · (100 + T) · classe(c, R) · exp(-p/20)    p > 1, a(p) = 1

  0 when the year's rules give the category a minimum of tables the tournament does not
  reach. The Java multiplies ``BigDecimal`` values built from doubles (``new
  BigDecimal(1.2)``, ``new BigDecimal(0.2)``, ``new BigDecimal(Math.exp(-p/20.0))``): each
  factor is the exact value of a double and the products and sums are exact. We do the same
  with :class:`~decimal.Decimal` built from Python floats (``math.exp`` is the C library's,
  correctly rounded like Java's ``Math.exp`` to within its 1 ulp), in a context wide enough
  that nothing is rounded (:data:`EXACT`, ``Inexact`` trapped). Points are rounded only for
  display: 2 decimals, half down (the Java shows 1 decimal, ``setScale(1, HALF_DOWN)``).
- **Who takes part** (``RankingCalculator.elaboraTabellini``): every player who sat at a game
  of the tournament (``TorneoPubblicato.getIdPartecipanti``) with a national id (anonymous
  players, id ≤ 0 in the Java, are left out), unless excluded for the year (an
  :class:`Exclusion` naming the year, or with neither years nor a start: always) or
  disqualified over the tournament's dates (:meth:`Exclusion.covers`: that tournament is
  skipped for him, games included; his history shows it). A player disqualified over every
  tournament he played is not listed (the Java adds a player at his first tournament not
  covered). His games and wins are counted over every tournament of
  the year, finished or not; ``played`` counts those tournaments.
- **Finished** (``TorneoPubblicato.isConcluso``: a game in the last planned round): only a
  finished tournament gives scores. A finished tournament without standings gives a 0 line
  that does not count (``addTabellinoPerTipoTorneo`` without the data the selection reads);
  a player missing from the standings gets no line.
- **The year's counts** (``RankingCalculator.determinaConteggioTornei``): the finished
  tournaments with standings of each ranked category that meet its minimum of tables.
- **Selection** (``RankingCalculator.filtraTabelliniNew2`` and ``RankingValidator``): for each
  ranked category, a player's results are sorted best first (``Collections.sort`` then
  ``reverse``: equal scores in the reverse of the order the tournaments were given), then
  each is taken while the year's criteria allow it (:mod:`risiko.national.rules`): fewer
  than N taken (``best_n``), fewer than ``max_rounds`` planned rounds taken, fewer than
  ``max_games_played`` games taken. A result below the minimum of tables scores 0 but is
  taken like any other when it fits (``tournaments`` counts it). The Java records the
  ``max_rounds`` check in the same flag as ``best_n`` (``validMaxNumOfTournamentsBy...`` is
  called for both): where a category has both, the later (``max_rounds``) decides; we keep
  that. Categories the year does not rank (nazionale, inviti, squadre, 2vs2, amichevole:
  ``classe`` 0 anyway) count nothing.
- **Order** (``filtraTabelliniNew2`` sorts on ``getScoreRanking()``, the rounded total):
  players are ordered by their total rounded as shown; equal shown points share a position
  (1, 1, 3; the Java numbers them 1, 2, 3 in its stable order), then by name and national
  id. Every participant is listed, 0 points included.

>>> t = TournamentResult("t1", "MILANO [Club Milano]", "Open di Milano", Category.OPEN, 4,
...     date(2024, 3, 1), date(2024, 3, 2), True, 12, True,
...     (Participation(7, "Anna Bassi", "MILANO [Club Milano]", 4, 2, 1),
...      Participation(9, "Bruno Conti", "MILANO [Club Milano]", 4, 1, 2)))
>>> ranking = national_ranking(2024, [t])
>>> [(p.position, p.name, display_points(p.points)) for p in ranking.players]
[(1, 'Anna Bassi', Decimal('268.80')), (2, 'Bruno Conti', Decimal('202.68'))]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import (
    ROUND_HALF_DOWN,
    Context,
    Decimal,
    Inexact,
    InvalidOperation,
    Overflow,
    Rounded,
)
from typing import Any

from .categories import Category, classe
from .rules import CategoryRules, Criterion, RuleBook, YearRules, load_rules

__all__ = [
    "EXACT",
    "CategoryCount",
    "Exclusion",
    "HistoryLine",
    "NationalRanking",
    "Participation",
    "PlayerRanking",
    "TournamentResult",
    "display_points",
    "national_ranking",
    "result_score",
]

#: the context of every sum and product: wide enough that nothing is ever rounded (a
#: rounding raises), as the Java's ``BigDecimal`` arithmetic without a ``MathContext``
EXACT = Context(prec=4000, Emin=-99999, Emax=99999, traps=[Inexact, Rounded,
                                                           InvalidOperation, Overflow])
#: a(1): RankingScorer.unoPUNTOdue = new BigDecimal(1.2), the double's exact value (deliberately)
_A1 = Decimal(1.2)  # noqa: RUF032
_ZERO = Decimal(0)
_CENT = Decimal("0.01")
_SHOW = Context(prec=4000, rounding=ROUND_HALF_DOWN)


def display_points(points: Decimal) -> Decimal:
    """``points`` rounded to 2 decimals, half down, as lists show them.

    >>> display_points(Decimal("1.005")), display_points(Decimal("1.0051"))
    (Decimal('1.00'), Decimal('1.01'))
    """
    return points.quantize(_CENT, context=_SHOW)


def result_score(position: int, category: Category, tables: int, rounds: int,
                 rules: YearRules) -> Decimal:
    """The ranking points of ``position`` in a tournament (``RankingScorer.calcolaScore``),
    exact.

    ``tables``: T, the games of the whole tournament; ``rounds``: its planned rounds (the
    campionato's ``classe``). 0 below the category's minimum of tables (when the year's rules
    have that criterion). Raises ``ValueError`` for a position below 1.

    Worked: an open of T = 12 games in 2024: 1st 1.2 × 112 × 2 = 268.8; 2nd 112 × 2 ×
    exp(-0.1) = 224 × 0.904837... = 202.6835...; a raduno of 30 games, 3rd: 130 × 5 ×
    exp(-0.15) = 650 × 0.860707... = 559.46.

    >>> rules = load_rules().for_year(2024)
    >>> [display_points(result_score(p, Category.OPEN, 12, 4, rules)) for p in (1, 2)]
    [Decimal('268.80'), Decimal('202.68')]
    >>> display_points(result_score(3, Category.RADUNO, 30, 5, rules))
    Decimal('559.46')
    >>> result_score(1, Category.OPEN, 5, 4, rules)  # 5 games: below the 6 of 2024
    Decimal('0')
    """
    if position < 1:
        raise ValueError(f"position {position}: 1 or more")
    category_rules = rules.categories.get(category)
    if category_rules is not None and not category_rules.meets_min_tables(tables):
        return _ZERO
    weight = Decimal(classe(category, rounds))
    value = EXACT.multiply(EXACT.multiply(_A1 if position == 1 else Decimal(1),
                                          Decimal(100 + tables)), weight)
    if position == 1:
        return value
    return EXACT.multiply(value, Decimal(math.exp(-position / 20.0)))


@dataclass(frozen=True)
class Participation:
    """One named player's part in one tournament.

    ``name``: as the tournament wrote it ("Anna Bassi"); ``club``: the club he played for;
    ``games``/``wins``: the games he sat at and won; ``position``: his place in the
    standings (None: not in them).
    """

    national_id: int
    name: str
    club: str
    games: int
    wins: int
    position: int | None


@dataclass(frozen=True)
class TournamentResult:
    """A tournament as the ranking reads it.

    ``key``: unique among the tournaments given; ``tables``: T, its games over every round;
    ``rounds``: planned; ``finished``: its last round was played; ``has_standings``: it has
    standings; ``participants``: every named player who sat at a game. The year of a
    tournament is the year of its last date (``ExcelGSheetsBridge.obtainYearTorneo``).
    """

    key: str
    club: str
    name: str
    category: Category
    rounds: int
    first_date: date
    last_date: date
    finished: bool
    tables: int
    has_standings: bool
    participants: tuple[Participation, ...]

    @property
    def year(self) -> int:
        """The year the tournament counts in: the year of its last date."""
        return self.last_date.year


@dataclass(frozen=True)
class Exclusion:
    """A player's exclusion from the ranking (RisiKoDataManager's blacklist row,
    ``BlackListPlayer``): the ``years`` he is out of, or a period ``start``-``end`` (end
    None: open) of disqualification, and the ``reason``.

    >>> ban = Exclusion(start=date(2024, 3, 1), end=date(2024, 6, 30), reason="condotta")
    >>> ban.covers(date(2024, 4, 1), date(2024, 4, 2))
    True
    >>> ban.covers(date(2024, 2, 1), date(2024, 3, 1))
    True
    >>> ban.covers(date(2024, 6, 30), date(2024, 7, 1)), ban.forbids_year(2024)
    (False, False)
    >>> Exclusion().forbids_year(2019), Exclusion(years=frozenset({2023})).forbids_year(2024)
    (True, False)
    """

    years: frozenset[int] = frozenset()
    start: date | None = None
    end: date | None = None
    reason: str = ""

    def forbids_year(self, year: int) -> bool:
        """True when the player is out of ``year``'s ranking altogether: the year is listed,
        or neither years nor a start are given (``BlackListPlayer.isForbiddenYear``)."""
        return year in self.years if self.years else self.start is None

    def covers(self, first: date, last: date) -> bool:
        """True when a tournament from ``first`` to ``last`` falls in the disqualification
        (``BlackListPlayer.isExcludedPeriod``): it starts in the period and ends by its end,
        or starts before the period and ends in or after its start. A tournament that
        starts in the period and ends after it is not covered (the Java's reading, kept)."""
        if self.start is None:
            return False
        if first >= self.start:
            return self.end is None or last <= self.end
        return last >= self.start


@dataclass(frozen=True)
class HistoryLine:
    """One tournament on a player's history: his ``position`` (None: no standings / not in
    them), the ``points`` it scored (exact), whether they ``counted`` and ``why``:

    ``counted``; ``best_n`` (beyond the category's best N), ``max_rounds`` (beyond its cap of
    rounds), ``max_games_played``; ``not_ranked`` (a category the year does not rank);
    ``not_finished``; ``no_standings``; ``not_in_standings``; ``disqualified``.
    ``below_min_tables``: the tournament had fewer games than the category's minimum (its
    points are 0; it may still be counted, as the Java counts it).
    """

    tournament: TournamentResult
    position: int | None
    points: Decimal
    counted: bool
    why: str
    below_min_tables: bool = False

    def to_json(self) -> dict[str, Any]:
        """The line as JSON (points rounded to 2 decimals)."""
        t = self.tournament
        return {
            "tournament": t.key, "club": t.club, "name": t.name,
            "category": t.category.value, "first_date": t.first_date.isoformat(),
            "last_date": t.last_date.isoformat(), "position": self.position,
            "points": float(display_points(self.points)), "counted": self.counted,
            "why": self.why, "below_min_tables": self.below_min_tables,
        }


@dataclass
class PlayerRanking:
    """A player on the national list: ``points`` (exact; :func:`display_points` to show),
    ``by_category`` (the counted points of each ranked category), ``tournaments`` (results
    counted), ``played`` (tournaments of the year he played), ``games``/``wins`` (over every
    tournament of the year) and his ``history`` in the order the tournaments were given."""

    national_id: int
    name: str
    club: str
    points: Decimal = _ZERO
    by_category: dict[Category, Decimal] = field(default_factory=dict)
    tournaments: int = 0
    played: int = 0
    games: int = 0
    wins: int = 0
    position: int = 0
    history: list[HistoryLine] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The player as the ``risiko national ranking --json`` contract has him."""
        return {
            "position": self.position, "national_id": self.national_id, "name": self.name,
            "club": self.club, "points": float(display_points(self.points)),
            "by_category": {c.value: float(display_points(v))
                            for c, v in self.by_category.items()},
            "tournaments": self.tournaments, "played": self.played, "games": self.games,
            "wins": self.wins,
        }


@dataclass(frozen=True)
class CategoryCount:
    """A ranked category in a year: its ``rules``, the valid ``tournaments`` of the year and
    ``best``, the N results that count (None when the rules give none)."""

    rules: CategoryRules
    tournaments: int
    best: int | None


@dataclass(frozen=True)
class NationalRanking:
    """A year's national list: the ``rules`` in force, each ranked category's counts, the
    ``players`` in list order."""

    year: int
    rules: YearRules
    counts: Mapping[Category, CategoryCount]
    players: tuple[PlayerRanking, ...]

    def csv_rows(self) -> list[list[str]]:
        """The list as CSV rows, header first: the JSON's fields, ``points_<category>`` for
        each ranked category, points with 2 decimals (``risiko national ranking --csv``)."""
        categories = list(self.counts)
        rows = [["position", "national_id", "name", "club", "points",
                 *(f"points_{c.value}" for c in categories), "tournaments", "played",
                 "games", "wins"]]
        for p in self.players:
            rows.append([str(p.position), str(p.national_id), p.name, p.club,
                         str(display_points(p.points)),
                         *(str(display_points(p.by_category[c])) for c in categories),
                         str(p.tournaments), str(p.played), str(p.games), str(p.wins)])
        return rows

    def to_json(self) -> dict[str, Any]:
        """``{"year", "rules", "players": [...]}`` (``risiko national ranking --json``)."""
        return {
            "year": self.year,
            "rules": {
                "since": self.rules.since,
                "categories": {
                    c.value: {**count.rules.to_json(), "tournaments": count.tournaments,
                              "best": count.best}
                    for c, count in self.counts.items()},
            },
            "players": [p.to_json() for p in self.players],
        }


@dataclass
class _Taken:
    """A result the selection reads (``DatiTabellinoPerTipoTorneo``)."""

    score: Decimal
    rounds: int
    games: int
    line: int  # index in the player's history


def _year_counts(year_rules: YearRules, tournaments: Sequence[TournamentResult]
                 ) -> dict[Category, CategoryCount]:
    """``RankingCalculator.determinaConteggioTornei`` and the thresholds map."""
    counted: dict[Category, int] = dict.fromkeys(year_rules.categories, 0)
    for t in tournaments:
        rules = year_rules.categories.get(t.category)
        if (rules is not None and t.finished and t.has_standings
                and rules.meets_min_tables(t.tables)):
            counted[t.category] += 1
    return {c: CategoryCount(r, counted[c], r.best_n(counted[c]))
            for c, r in year_rules.categories.items()}


def _select(player: PlayerRanking, taken: Mapping[Category, list[_Taken]],
            counts: Mapping[Category, CategoryCount]) -> None:
    """``RankingCalculator.filtraTabelliniNew2`` for one player: the counted results of each
    ranked category, best first, while the criteria allow (see the module's docstring)."""
    total = _ZERO
    for category, count in counts.items():
        rules = count.rules
        best_first = list(reversed(sorted(taken.get(category, []), key=lambda r: r.score)))
        subtotal, n, rounds, games = _ZERO, 0, 0, 0
        for result in best_first:
            tournaments_ok, games_ok, why = True, True, "counted"
            for criterion in rules.criteria:
                if criterion is Criterion.BEST_N:
                    tournaments_ok = n < (count.best or 0)
                    why = "counted" if tournaments_ok else "best_n"
                elif criterion is Criterion.MAX_ROUNDS:  # the Java's same flag, see above
                    tournaments_ok = rounds < (rules.max_rounds or 0)
                    why = "counted" if tournaments_ok else "max_rounds"
                elif criterion is Criterion.MAX_GAMES_PLAYED:
                    games_ok = games < (rules.max_games_played or 0)
            if not games_ok:
                why = "max_games_played"
            line = player.history[result.line]
            if tournaments_ok and games_ok:
                n += 1
                rounds += result.rounds
                games += result.games
                subtotal = EXACT.add(subtotal, result.score)
                player.history[result.line] = HistoryLine(
                    line.tournament, line.position, line.points, True, "counted",
                    line.below_min_tables)
            else:
                player.history[result.line] = HistoryLine(
                    line.tournament, line.position, line.points, False, why,
                    line.below_min_tables)
        player.by_category[category] = subtotal
        player.tournaments += n
        total = EXACT.add(total, subtotal)
    player.points = total


def national_ranking(year: int, tournaments: Iterable[TournamentResult],
                     exclusions: Mapping[int, Exclusion] | None = None,
                     rules: RuleBook | None = None) -> NationalRanking:
    """The national list of ``year`` from ``tournaments`` (those of other years are left
    out), in the order they were published (it decides between equal scores, see the
    module's docstring).

    ``exclusions``: by national id (RisiKoDataManager keeps one blacklist row per player);
    ``rules``: the rule book (default: the package's, :func:`load_rules`). Raises
    ``ValueError`` when two tournaments share a key or a position is below 1.
    """
    book = rules if rules is not None else load_rules()
    year_rules = book.for_year(year)
    chosen = [t for t in tournaments if t.year == year]
    if len({t.key for t in chosen}) != len(chosen):
        raise ValueError("two tournaments with the same key")
    excluded = exclusions or {}
    counts = _year_counts(year_rules, chosen)
    players: dict[int, PlayerRanking] = {}
    taken: dict[int, dict[Category, list[_Taken]]] = {}
    latest: dict[int, tuple[date, int]] = {}
    waiting: dict[int, list[HistoryLine]] = {}
    for index, t in enumerate(chosen):
        category_rules = year_rules.categories.get(t.category)
        below = category_rules is not None and not category_rules.meets_min_tables(t.tables)
        scores: dict[int, Decimal] = {}
        for p in t.participants:
            exclusion = excluded.get(p.national_id)
            if exclusion is not None and exclusion.forbids_year(year):
                continue
            if exclusion is not None and exclusion.covers(t.first_date, t.last_date):
                line = HistoryLine(t, p.position, _ZERO, False, "disqualified", below)
                if p.national_id in players:
                    players[p.national_id].history.append(line)
                else:  # kept for his history, should he play later in the year
                    waiting.setdefault(p.national_id, []).append(line)
                continue
            player = players.get(p.national_id)
            if player is None:
                player = players[p.national_id] = PlayerRanking(
                    p.national_id, p.name, p.club, history=waiting.pop(p.national_id, []))
                taken[p.national_id] = {}
            if (t.last_date, index) >= latest.get(p.national_id, (date.min, -1)):
                latest[p.national_id] = (t.last_date, index)
                player.name, player.club = p.name, p.club
            player.played += 1
            player.games += p.games
            player.wins += p.wins
            if not t.finished:
                player.history.append(HistoryLine(t, p.position, _ZERO, False, "not_finished"))
            elif not t.has_standings:
                player.history.append(HistoryLine(t, None, _ZERO, False, "no_standings", below))
            elif p.position is None:
                player.history.append(
                    HistoryLine(t, None, _ZERO, False, "not_in_standings", below))
            else:
                score = scores.get(p.position)
                if score is None:
                    score = scores[p.position] = result_score(
                        p.position, t.category, t.tables, t.rounds, year_rules)
                ranked = t.category in counts
                player.history.append(HistoryLine(
                    t, p.position, score, False, "counted" if ranked else "not_ranked", below))
                if ranked:
                    taken[p.national_id].setdefault(t.category, []).append(
                        _Taken(score, t.rounds, p.games, len(player.history) - 1))
    for national_id, player in players.items():
        _select(player, taken[national_id], counts)
    shown = {i: display_points(p.points) for i, p in players.items()}
    ordered = sorted(players.values(),
                     key=lambda p: (-shown[p.national_id], p.name.casefold(), p.national_id))
    previous: Decimal | None = None
    for place, player in enumerate(ordered, start=1):
        if shown[player.national_id] != previous:
            player.position, previous = place, shown[player.national_id]
        else:
            player.position = ordered[place - 2].position
    return NationalRanking(year, year_rules, counts, tuple(ordered))
