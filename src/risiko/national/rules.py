"""The rules of the national ranking in force each year, as data (``rules.json``).

The rules are RisiKoDataManager's ``resources/RankingThresholdsNew.xml`` (read by its
``RankingBuilderNew``): for each year where they change, for each category that counts
(``getManagedTournamentsType``: raduno, master, open, interclub, campionato), the thresholds
of ``RankingThresholdsNew.ThresholdsNew`` and the criteria applied:

- ``min_tables`` (``MIN_NUM_OF_TABLES_IN_TOURNAMENT``): a tournament with fewer games than
  ``min_tables`` scores 0 for everyone and is not counted among the category's tournaments
  of the year (``RankingScorer.hasMinimuNumberTablesIfManaged``);
- ``best_n`` (``MAX_NUM_OF_TOURNAMENTS_BY_MIN_TOURNAMENTS_AND_MAX_PERCENTAGE``): a player's
  best N results of the category count, N = max(``min_tournaments``, floor(tournaments of
  the category that year × ``max_percentage`` / 100)) (``RankingCalculator
  .filtraTabelliniNew2``, exact decimal arithmetic: ``BigDecimal`` then ``toBigInteger``);
- ``max_rounds`` (``MAX_NUM_OF_ROUNDS_BY_TOURNAMENT``): results are taken, best first, while
  the planned rounds of those already taken are fewer than ``max_rounds`` (the campionato's
  cap of 45 rounds from 2024);
- ``max_games_played`` (``MAX_NUM_OF_ROUNDS_PLAYED_EFFECTIVELY``): the same with the games
  the player sat at (no year uses it yet).

The rules of year Y are those of the greatest year ≤ Y in the file; a year before every
entry takes the last entry (``RankingBuilderNew.scorersFactory``: ``lowerEntry``, else
``lastEntry``). So 2019 has its own, 2020-2023 take 2020's, 2024 onwards 2024's. A new
year's rules are a new entry of ``rules.json`` (or a file given to :func:`load_rules`): no
code.

>>> book = load_rules()
>>> book.for_year(2022).since, book.for_year(2031).since, book.for_year(2010).since
(2020, 2024, 2024)
>>> book.for_year(2023).categories[Category.OPEN].best_n(40)   # max(3, floor(40 × 13.5 / 100))
5
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..faults import InvalidInputError, define
from .categories import Category, parse_category

__all__ = ["RULES_FILE", "CategoryRules", "Criterion", "RuleBook", "YearRules", "load_rules"]

#: the rules shipped with the package
RULES_FILE = Path(__file__).with_name("rules.json")

BAD_RULES = define("national.bad_rules", "", "ranking rules, {at}: {problem}")


class Criterion(StrEnum):
    """A criterion of a category's rules, in RisiKoDataManager's ``ThresholdParameter``
    order (the order they are applied: its ``containsCriterion`` sorts the array)."""

    MIN_TABLES = "min_tables"
    BEST_N = "best_n"
    MAX_ROUNDS = "max_rounds"
    MAX_GAMES_PLAYED = "max_games_played"


_ORDER = {c: i for i, c in enumerate(Criterion)}


@dataclass(frozen=True)
class CategoryRules:
    """One category's thresholds in a year (``ThresholdsNew``); ``None`` where not set."""

    min_tables: int | None
    min_tournaments: int | None
    max_percentage: Decimal | None
    max_rounds: int | None
    max_games_played: int | None
    criteria: tuple[Criterion, ...]

    def meets_min_tables(self, tables: int) -> bool:
        """True when a tournament of ``tables`` games is valid for the ranking (always, when
        ``min_tables`` is not a criterion)."""
        if Criterion.MIN_TABLES not in self.criteria or self.min_tables is None:
            return True
        return tables >= self.min_tables

    def best_n(self, tournaments: int) -> int | None:
        """How many results of the category count when it had ``tournaments`` valid
        tournaments that year: max(min_tournaments, floor(tournaments × max_percentage /
        100)); None when either threshold is missing (the Java leaves it out of its map).

        >>> rules = CategoryRules(6, 1, Decimal("33.3"), None, None, (Criterion.BEST_N,))
        >>> rules.best_n(2), rules.best_n(10), rules.best_n(31)  # 0.666 -> 1; 3.33; 10.323
        (1, 3, 10)
        """
        if self.min_tournaments is None or self.max_percentage is None:
            return None
        share = Fraction(tournaments) * Fraction(self.max_percentage) / 100
        return max(self.min_tournaments, int(share))

    def to_json(self) -> dict[str, Any]:
        """The thresholds as JSON (``max_percentage`` a number)."""
        return {
            "min_tables": self.min_tables,
            "min_tournaments": self.min_tournaments,
            "max_percentage": None if self.max_percentage is None else float(self.max_percentage),
            "max_rounds": self.max_rounds,
            "max_games_played": self.max_games_played,
            "criteria": [c.value for c in self.criteria],
        }


@dataclass(frozen=True)
class YearRules:
    """The rules in force in a year: those of the entry ``since``, per ranked category."""

    since: int
    categories: Mapping[Category, CategoryRules]


@dataclass(frozen=True)
class RuleBook:
    """Every entry of a rules file, by the year it starts."""

    years: Mapping[int, YearRules]

    def for_year(self, year: int) -> YearRules:
        """The rules of ``year``: its own entry, else the latest one before it, else the last
        one (RisiKoDataManager ``RankingBuilderNew.scorersFactory``)."""
        if year in self.years:
            return self.years[year]
        before = [y for y in self.years if y < year]
        return self.years[max(before) if before else max(self.years)]


def _bad(at: str, problem: str) -> InvalidInputError:
    return InvalidInputError(BAD_RULES(at=at, problem=problem))


def _int_or_none(value: Any, at: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _bad(at, "a whole number ≥ 0")
    return value


def _category_rules(raw: Any, at: str) -> CategoryRules:
    if not isinstance(raw, Mapping):
        raise _bad(at, "an object")
    unknown = set(raw) - {"min_tables", "min_tournaments", "max_percentage", "max_rounds",
                          "max_games_played", "criteria"}
    if unknown:
        raise _bad(at, f"unknown field {sorted(unknown)[0]}")
    pct = raw.get("max_percentage")
    percentage: Decimal | None = None
    if pct is not None:
        try:
            percentage = Decimal(str(pct))
        except InvalidOperation:
            raise _bad(f"{at}.max_percentage", "a number") from None
        if not percentage.is_finite() or percentage < 0:
            raise _bad(f"{at}.max_percentage", "a number ≥ 0")
    try:
        criteria = tuple(sorted({Criterion(c) for c in raw.get("criteria", [])},
                                key=_ORDER.__getitem__))
    except (TypeError, ValueError):
        raise _bad(f"{at}.criteria", ", ".join(c.value for c in Criterion)) from None
    rules = CategoryRules(
        _int_or_none(raw.get("min_tables"), f"{at}.min_tables"),
        _int_or_none(raw.get("min_tournaments"), f"{at}.min_tournaments"),
        percentage,
        _int_or_none(raw.get("max_rounds"), f"{at}.max_rounds"),
        _int_or_none(raw.get("max_games_played"), f"{at}.max_games_played"),
        criteria,
    )
    needs = {
        Criterion.MIN_TABLES: ("min_tables",),
        Criterion.BEST_N: ("min_tournaments", "max_percentage"),
        Criterion.MAX_ROUNDS: ("max_rounds",),
        Criterion.MAX_GAMES_PLAYED: ("max_games_played",),
    }
    for criterion in criteria:  # the Java would stop on a null threshold (NullPointerException)
        for name in needs[criterion]:
            if getattr(rules, name) is None:
                raise _bad(f"{at}.{name}", f"needed by the criterion {criterion.value}")
    return rules


def rule_book(data: Any) -> RuleBook:
    """A :class:`RuleBook` from the JSON of a rules file (``{"years": {"2024": {category:
    thresholds}}}``); raises :class:`~risiko.faults.InvalidInputError`
    (``national.bad_rules``) naming the first bad field."""
    if not isinstance(data, Mapping) or not isinstance(data.get("years"), Mapping):
        raise _bad("years", "an object of years")
    years: dict[int, YearRules] = {}
    for key, entry in data["years"].items():
        if not (isinstance(key, str) and key.isdigit() and len(key) == 4):
            raise _bad(f"years.{key}", "a year YYYY")
        if not isinstance(entry, Mapping):
            raise _bad(f"years.{key}", "an object of categories")
        categories: dict[Category, CategoryRules] = {}
        for name, raw in entry.items():
            try:
                category = parse_category(name)
            except InvalidInputError:
                raise _bad(f"years.{key}.{name}", "not a category") from None
            categories[category] = _category_rules(raw, f"years.{key}.{name}")
        years[int(key)] = YearRules(int(key), categories)
    if not years:
        raise _bad("years", "at least one year")
    return RuleBook(years)


def load_rules(path: str | Path | None = None) -> RuleBook:
    """The rules of a file (default: :data:`RULES_FILE`, the package's)."""
    source = Path(path) if path is not None else RULES_FILE
    return rule_book(json.loads(source.read_text(encoding="utf-8")))
